//! Target speed along a path: as fast as the grip allows in each corner, braking in time.
//!
//! The profile samples the path every `step_m`: the corner limit is `v = sqrt(a_lat / |k|)`
//! for curvature `k`, capped at `max_speed`; a backward pass then enforces the braking limit
//! `v_i <= sqrt(v_{i+1}^2 + 2 a_x ds)` so the car arrives at each corner at its speed, and a
//! forward pass the acceleration limit. Both share the grip with the corner (friction
//! circle): `a_x = a_x,max sqrt(1 - (v^2 k / a_lat)^2)`, so the driver does not brake hard
//! while still turning hard. Closed paths wrap both passes around the lap.
//!
//! Over crests and dips the grip follows the load: with vertical curvature `k_v` (negative
//! over a crest) the tyres carry `n = 1 + v^2 k_v / g` of the car's weight, so the corner
//! limit becomes `v^2 |k| <= a_lat n`, i.e. `v = sqrt(a_lat / (|k| - a_lat k_v / g))`, the
//! longitudinal limits scale by `n` too, and no crest is taken so fast that the tyres keep
//! less than half the weight (`v <= sqrt(g / (2 |k_v|))`). A path in the plane has `k_v = 0`.

use serde::{Deserialize, Serialize};

use super::path::Path;
use crate::validate::{Validate, Validator};
use crate::vehicle::params::GRAVITY;

/// The least share of the car's weight the planner leaves on the tyres over a crest.
const MIN_CREST_LOAD_SHARE: f64 = 0.5;
/// Half the span over which the vertical curvature is measured (m): long enough that the
/// height samples' rounding does not read as curvature, short against a crest.
const VERTICAL_HALF_SPAN_M: f64 = 5.0;

/// `x` as an index: Rust's float-to-integer `as` saturates (NaN and negatives give 0, huge
/// values `usize::MAX`), which is what every caller here wants.
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
fn saturating_index(x: f64) -> usize {
    x as usize
}

/// The driver's limits when planning speed.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpeedLimits {
    /// Highest lateral acceleration the driver plans for (m/s²).
    pub lateral_accel_m_s2: f64,
    /// Deceleration used for braking zones (m/s²).
    pub braking_decel_m_s2: f64,
    /// Acceleration assumed on corner exit (m/s²).
    pub accel_m_s2: f64,
    /// Speed never exceeded (m/s).
    pub max_speed_m_s: f64,
}

impl Default for SpeedLimits {
    /// A quick road driver: 0.8 g in corners, 0.9 g braking, 0.5 g accelerating.
    fn default() -> Self {
        Self {
            lateral_accel_m_s2: 0.8 * 9.81,
            braking_decel_m_s2: 0.9 * 9.81,
            accel_m_s2: 0.5 * 9.81,
            max_speed_m_s: 90.0,
        }
    }
}

impl Validate for SpeedLimits {
    fn validate(&self, v: &mut Validator) {
        v.positive("lateral_accel_m_s2", self.lateral_accel_m_s2);
        v.positive("braking_decel_m_s2", self.braking_decel_m_s2);
        v.positive("accel_m_s2", self.accel_m_s2);
        v.positive("max_speed_m_s", self.max_speed_m_s);
    }
}

/// Target speeds sampled along a path.
#[derive(Clone, Debug, PartialEq)]
pub struct SpeedProfile {
    step_m: f64,
    speeds: Vec<f64>,
    /// The path's curvature magnitude at the same samples (1/m).
    curvature: Vec<f64>,
    /// The lateral acceleration planned for (m/s²).
    lateral_accel_m_s2: f64,
    closed: bool,
    length: f64,
}

impl SpeedProfile {
    /// Plans the profile of `path` under `limits`, sampled every `step_m` metres.
    pub fn plan(path: &Path, limits: &SpeedLimits, step_m: f64) -> Self {
        let step = step_m.max(0.1);
        let count = saturating_index((path.length() / step).ceil()).max(2);
        let ds = path.length() / count as f64;
        let curvature: Vec<f64> = (0..=count)
            .map(|i| path.curvature_at(i as f64 * ds, (2.0 * ds).max(3.0)).abs())
            .collect();
        let vertical: Vec<f64> = (0..=count)
            .map(|i| path.vertical_curvature_at(i as f64 * ds, VERTICAL_HALF_SPAN_M))
            .collect();
        let a_lat = limits.lateral_accel_m_s2;
        let mut speeds: Vec<f64> = curvature
            .iter()
            .zip(&vertical)
            .map(|(&k, &k_v)| {
                let demand = k - a_lat * k_v / GRAVITY;
                let corner = if demand > 1e-9 {
                    (a_lat / demand).sqrt()
                } else {
                    f64::INFINITY
                };
                let crest = if k_v < -1e-9 {
                    ((1.0 - MIN_CREST_LOAD_SHARE) * GRAVITY / -k_v).sqrt()
                } else {
                    f64::INFINITY
                };
                corner.min(crest).min(limits.max_speed_m_s)
            })
            .collect();
        // Friction circle: what the corner takes of the grip is not there for braking or
        // accelerating. A tenth of the longitudinal limit is always kept, so that a corner
        // taken at its limit speed can still be left. Both scale with the load a crest or a
        // dip leaves on the tyres.
        let longitudinal = |limit: f64, v: f64, i: usize| {
            let load = (1.0 + v * v * vertical[i] / GRAVITY).max(MIN_CREST_LOAD_SHARE);
            let lateral = (v * v * curvature[i] / (a_lat * load)).min(1.0);
            limit * load * (1.0 - lateral * lateral).sqrt().max(0.1)
        };
        let closed = path.is_closed();
        // Two laps of each pass let a closed path's limits wrap past the start line.
        let laps = if closed { 2 } else { 1 };
        for _ in 0..laps {
            for i in (0..count).rev() {
                let next = if closed && i + 1 == count {
                    speeds[0]
                } else {
                    speeds[i + 1]
                };
                let decel = longitudinal(limits.braking_decel_m_s2, next, i);
                speeds[i] = speeds[i].min((next * next + 2.0 * decel * ds).sqrt());
            }
            if closed {
                speeds[count] = speeds[0];
            }
        }
        for _ in 0..laps {
            for i in 1..=count {
                let prev = speeds[i - 1];
                let accel = longitudinal(limits.accel_m_s2, prev, i - 1);
                speeds[i] = speeds[i].min((prev * prev + 2.0 * accel * ds).sqrt());
            }
            if closed {
                speeds[0] = speeds[0].min(speeds[count]);
            }
        }
        Self {
            step_m: ds,
            speeds,
            curvature,
            lateral_accel_m_s2: a_lat,
            closed,
            length: path.length(),
        }
    }

    /// A constant target speed everywhere.
    pub fn constant(path: &Path, speed_m_s: f64) -> Self {
        Self {
            step_m: path.length(),
            speeds: vec![speed_m_s, speed_m_s],
            curvature: vec![0.0, 0.0],
            lateral_accel_m_s2: f64::INFINITY,
            closed: path.is_closed(),
            length: path.length(),
        }
    }

    /// Target speed (m/s) at `station`, interpolated linearly between samples.
    pub fn speed_at(&self, station: f64) -> f64 {
        self.interpolate(&self.speeds, station)
    }

    /// The share of the longitudinal grip the corner at `station` leaves at `speed` (m/s), by
    /// the same friction circle the plan uses: `sqrt(1 - (v² k / a_lat)²)`, at least 0.1 (so
    /// that a corner taken at its limit can still be left). 1 on a straight.
    pub fn drive_share_at(&self, station: f64, speed: f64) -> f64 {
        let k = self.interpolate(&self.curvature, station);
        let lateral = (speed * speed * k / self.lateral_accel_m_s2).min(1.0);
        let share = (1.0 - lateral * lateral).sqrt().max(0.1);
        if share.is_finite() { share } else { 1.0 }
    }

    /// `values` (one per sample) at `station`, interpolated linearly between samples.
    fn interpolate(&self, values: &[f64], station: f64) -> f64 {
        let s = if self.closed {
            station.rem_euclid(self.length)
        } else {
            station.clamp(0.0, self.length)
        };
        let x = s / self.step_m;
        let i = saturating_index(x.floor()).min(values.len() - 2);
        let t = (x - i as f64).clamp(0.0, 1.0);
        values[i] + (values[i + 1] - values[i]) * t
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec2;

    /// A straight road 1 km long over a circular crest of radius `radius_m` (from 400 m to
    /// 600 m), sampled every metre.
    fn crest(radius_m: f64) -> Path {
        let points: Vec<glam::DVec3> = (0..=1000)
            .map(|i| {
                let x = f64::from(i);
                let d = (x - 500.0).clamp(-100.0, 100.0);
                // The circle's height, continued by its tangents beyond the crest.
                let z = -d * d / (2.0 * radius_m)
                    - ((x - 500.0).abs() - 100.0).max(0.0) * 100.0 / radius_m;
                glam::DVec3::new(x, 0.0, z)
            })
            .collect();
        Path::new_3d(&points, false).unwrap()
    }

    #[test]
    fn a_crest_is_taken_no_faster_than_leaves_half_the_weight_on_the_tyres() {
        // Over a crest of radius R the tyres carry g - v²/R: half the weight at v = √(g R / 2).
        let limits = SpeedLimits {
            max_speed_m_s: 200.0,
            ..SpeedLimits::default()
        };
        for radius in [200.0, 800.0] {
            let profile = SpeedProfile::plan(&crest(radius), &limits, 1.0);
            let expected = (0.5 * GRAVITY * radius).sqrt();
            let at_top = profile.speed_at(500.0);
            assert!(
                (at_top - expected).abs() < 0.02 * expected,
                "R {radius} m: {at_top:.2} m/s, expected {expected:.2}"
            );
        }
        // In the plane the same road has no limit but the car's top speed.
        let flat = Path::new(&[DVec2::ZERO, DVec2::new(1000.0, 0.0)], false).unwrap();
        let profile = SpeedProfile::plan(&flat, &limits, 1.0);
        assert!((profile.speed_at(500.0) - 200.0).abs() < 1e-9);
    }

    #[test]
    fn a_corner_over_a_crest_is_slower_than_the_same_corner_on_the_level() {
        // v² k = a_lat (1 - v²/(g R)) at a crest of radius R: v² = a_lat / (k + a_lat/(g R)).
        let limits = SpeedLimits::default();
        let (radius, crest_radius) = (100.0, 400.0);
        let points: Vec<glam::DVec3> = (0..720)
            .map(|i| {
                let a = std::f64::consts::TAU * f64::from(i) / 720.0;
                // A ring road whose height follows a cosine along it: a crest of radius
                // `crest_radius` at a = 0 (z'' = -A (2π/L)² with L the lap).
                let lap = std::f64::consts::TAU * radius;
                let amplitude = lap * lap / (std::f64::consts::TAU.powi(2) * crest_radius);
                glam::DVec3::new(radius * a.cos(), radius * a.sin(), amplitude * a.cos())
            })
            .collect();
        let path = Path::new_3d(&points, true).unwrap();
        let profile = SpeedProfile::plan(&path, &limits, 1.0);
        let a_lat = limits.lateral_accel_m_s2;
        let expected = (a_lat / (1.0 / radius + a_lat / (GRAVITY * crest_radius))).sqrt();
        let level = (a_lat * radius).sqrt();
        let at_crest = profile.speed_at(0.0);
        assert!(
            (at_crest - expected).abs() < 0.02 * expected && at_crest < 0.95 * level,
            "{at_crest:.2} m/s at the crest, expected {expected:.2} (level {level:.2})"
        );
    }

    #[test]
    fn circle_speed_is_the_grip_limit() {
        let path = Path::circle(DVec2::ZERO, 50.0, 720, 0.0, true).unwrap();
        let limits = SpeedLimits::default();
        let profile = SpeedProfile::plan(&path, &limits, 1.0);
        let expected = (limits.lateral_accel_m_s2 * 50.0).sqrt();
        for s in [0.0, 50.0, 150.0, 300.0] {
            assert!((profile.speed_at(s) - expected).abs() < 0.01 * expected);
        }
    }

    /// The throttle's share of the grip on a 50 m circle: the friction circle at half the
    /// lateral limit (speed `sqrt(0.5 a_lat r)`) leaves `sqrt(1 - 0.25)`, at the limit the
    /// floor of 0.1, on a straight all of it.
    #[test]
    fn the_corner_leaves_the_throttle_what_the_friction_circle_leaves() {
        let path = Path::circle(DVec2::ZERO, 50.0, 720, 0.0, true).unwrap();
        let limits = SpeedLimits::default();
        let profile = SpeedProfile::plan(&path, &limits, 1.0);
        let half = (0.5 * limits.lateral_accel_m_s2 * 50.0).sqrt();
        assert!((profile.drive_share_at(100.0, half) - 0.75_f64.sqrt()).abs() < 0.01);
        let limit = (limits.lateral_accel_m_s2 * 50.0).sqrt();
        assert!((profile.drive_share_at(100.0, limit) - 0.1).abs() < 0.01);
        let straight = Path::new(&[DVec2::ZERO, DVec2::new(500.0, 0.0)], false).unwrap();
        let profile = SpeedProfile::plan(&straight, &limits, 1.0);
        assert!((profile.drive_share_at(200.0, 40.0) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn braking_zone_before_a_hairpin() {
        // A 500 m straight into a 10 m radius half circle, then a straight out.
        let mut points: Vec<DVec2> = (0..=500).map(|i| DVec2::new(f64::from(i), 0.0)).collect();
        for i in 1..=60 {
            let a = std::f64::consts::PI * f64::from(i) / 60.0 - std::f64::consts::FRAC_PI_2;
            points.push(DVec2::new(500.0 + 10.0 * a.cos(), 10.0 + 10.0 * a.sin()));
        }
        points.extend((1..=300).map(|i| DVec2::new(500.0 - f64::from(i), 20.0)));
        let path = Path::new(&points, false).unwrap();
        let limits = SpeedLimits::default();
        let profile = SpeedProfile::plan(&path, &limits, 1.0);
        let corner = (limits.lateral_accel_m_s2 * 10.0).sqrt();
        let apex = profile.speed_at(500.0 + 5.0 * std::f64::consts::PI);
        assert!(
            (apex - corner).abs() < 0.05 * corner,
            "apex {apex} vs {corner}"
        );
        // 100 m before the corner: v^2 = v_c^2 + 2 a d, within the sampling error.
        let before = profile.speed_at(400.0);
        let expected = (corner * corner + 2.0 * limits.braking_decel_m_s2 * 100.0).sqrt();
        assert!(
            (before - expected).abs() < 0.03 * expected,
            "{before} vs {expected}"
        );
        // Top of the straight is capped.
        assert!(profile.speed_at(0.0) <= limits.max_speed_m_s + 1e-9);
        // Never faster than braking allows anywhere.
        for s in 0..800 {
            let s = f64::from(s);
            let v0 = profile.speed_at(s);
            let v1 = profile.speed_at(s + 1.0);
            assert!(v0 * v0 - v1 * v1 <= 2.0 * limits.braking_decel_m_s2 * 1.0 + 1.0);
        }
    }
}

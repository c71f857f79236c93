//! Friction tables by slip ratio and slip angle (VR-Design Studio, `docs/sources.md`).
//!
//! The user gives the friction coefficient at a few slip ratios (longitudinal table) and at a
//! few slip angles (lateral table); between the points the friction is interpolated linearly,
//! beyond the outermost points it stays constant, and every table passes through `(0, 0)`.
//!
//! # Tables
//!
//! As in the source's editor, points are signed: a negative slip ratio (braking) carries a
//! negative coefficient, so a table can differ between braking and driving, or between left and
//! right. Points must be sorted by strictly increasing slip, each coefficient must have the sign
//! of its slip, and a point at zero slip, if given, must have zero friction. The origin is
//! always part of the table, whether listed or not. A table with points on one side of zero only
//! is mirrored (odd symmetry) onto the other side, so `[(0.1, 0.85), (0.3, 0.75)]` means the
//! same as the source's five points.
//!
//! The source's default longitudinal table is `(-0.3, -0.75), (-0.1, -0.85), (0, 0), (0.1, 0.85),
//! (0.3, 0.75)`. The source names a lateral table of "the same shape, different values" without
//! giving it; the default here maps the longitudinal points onto slip angle at equal sliding
//! velocity, `tan(alpha) = kappa` (the lateral and longitudinal sliding velocities of the
//! contact patch are `|vx| tan(alpha)` and `|vx| kappa`): peak 0.85 at `atan(0.1) = 5.71` deg
//! and 0.75 from `atan(0.3) = 16.70` deg, rounded to 0.01 deg.
//!
//! # Forces and combined slip
//!
//! Under pure slip `fx = mu_x(kappa) * Fz` and `fy = -mu_y(alpha) * Fz` (signed tables, so
//! positive `kappa` drives and positive `alpha` pushes right, as ISO-W wants), times
//! `mu_scale`.
//!
//! Combined slip uses the normalised slip vector: each slip is divided by the slip of its
//! table's peak (the point of largest friction on that side of zero),
//! `sx = kappa / kappa_peak`, `sy = alpha / alpha_peak`, `s = |(sx, sy)|`, and each table is read
//! at the *combined* slip, its share given by the direction of the slip vector:
//!
//! ```text
//! fx =  mu_x(s * kappa_peak) * |sx| / s * Fz        (sign of kappa)
//! fy = -mu_y(s * alpha_peak) * |sy| / s * Fz        (sign of alpha)
//! ```
//!
//! Pure slip reproduces the tables exactly; both directions reach their peaks together when
//! `s = 1`; past the first table point, longitudinal slip lowers the lateral force (and vice
//! versa); at large slip the force is the limit friction in the direction of the slip vector
//! (`|F| = mu_limit * Fz` when both tables end at the same friction). On the first segment the
//! two directions do not interact: the tyre is in its linear (elastic) range there.
//!
//! # Aligning moment
//!
//! `mz = -t * fy` with the brush-shaped [`PneumaticTrail`], whose sliding angle is the lateral
//! table's peak angle and whose slip is the combined normalised slip: the helper is given the
//! angle `min(s, 1) * alpha_peak`, which under pure side slip is `alpha` itself, and the trail
//! is zero from `s = 1` on (a sliding patch, whether by side slip, spin or lock).
//!
//! # Other notes
//!
//! The tables take the slips as given; `vx` is not used, so standstill inputs give the
//! tables' values for whatever slips the vehicle model passes. The stiffnesses at zero slip are
//! the slopes of the first segments (the mean of both sides when the table is asymmetric).

use serde::{Deserialize, Serialize};

use super::interface::{TireInput, TireModel, TireOutput};
use super::load_sensitivity::{LoadSensitivity, load_factor};
use super::sanitise::{effective_load, finite_or_zero, friction_scale, saturate};
use super::trail::PneumaticTrail;
use crate::validate::{Validate, Validator};

/// A point of the longitudinal table.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SlipRatioPoint {
    /// Slip ratio (-), ISO-W sign: positive driving, negative braking.
    pub slip_ratio: f64,
    /// Friction coefficient (-), with the sign of the slip ratio.
    pub friction: f64,
}

/// A point of the lateral table.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SlipAnglePoint {
    /// Slip angle (degrees), ISO-W sign; between -89 and 89.
    pub slip_angle_deg: f64,
    /// Friction coefficient (-), with the sign of the slip angle; positive slip angles push the
    /// tyre to the right (negative `fy`).
    pub friction: f64,
}

/// Tyre whose friction is read from tables by slip ratio and slip angle (VR-Design Studio).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FrictionTableTire {
    /// Friction coefficient by slip ratio, sorted by increasing slip ratio.
    pub longitudinal: Vec<SlipRatioPoint>,
    /// Friction coefficient by slip angle, sorted by increasing slip angle.
    pub lateral: Vec<SlipAnglePoint>,
    /// Pneumatic trail at zero slip (m), which falls to zero at the lateral peak.
    pub initial_trail_m: f64,
    /// Friction falling with load (`load_sensitivity`); none when omitted, as the source has
    /// it.
    #[serde(default)]
    pub load_sensitivity: Option<LoadSensitivity>,
}

impl Default for FrictionTableTire {
    /// The source's five slip-ratio points, the same shape on slip angle (see the module
    /// documentation) and a 25 mm initial trail.
    fn default() -> Self {
        let longitudinal = [
            (-0.3, -0.75),
            (-0.1, -0.85),
            (0.0, 0.0),
            (0.1, 0.85),
            (0.3, 0.75),
        ]
        .map(|(slip_ratio, friction)| SlipRatioPoint {
            slip_ratio,
            friction,
        });
        let lateral = [
            (-16.7, -0.75),
            (-5.71, -0.85),
            (0.0, 0.0),
            (5.71, 0.85),
            (16.7, 0.75),
        ]
        .map(|(slip_angle_deg, friction)| SlipAnglePoint {
            slip_angle_deg,
            friction,
        });
        Self {
            load_sensitivity: None,
            longitudinal: longitudinal.to_vec(),
            lateral: lateral.to_vec(),
            initial_trail_m: PneumaticTrail::default().initial_trail_m,
        }
    }
}

/// What the interpolation needs of a table point.
trait TablePoint {
    /// Name of the slip field, for validation messages.
    const SLIP_FIELD: &'static str;
    /// Slip of the point, in the table's unit.
    fn slip(&self) -> f64;
    /// Signed friction coefficient of the point.
    fn friction(&self) -> f64;
}

impl TablePoint for SlipRatioPoint {
    const SLIP_FIELD: &'static str = "slip_ratio";
    fn slip(&self) -> f64 {
        self.slip_ratio
    }
    fn friction(&self) -> f64 {
        self.friction
    }
}

impl TablePoint for SlipAnglePoint {
    const SLIP_FIELD: &'static str = "slip_angle_deg";
    fn slip(&self) -> f64 {
        self.slip_angle_deg
    }
    fn friction(&self) -> f64 {
        self.friction
    }
}

/// The points below zero slip and the points above it (a point at zero is the origin itself).
#[inline]
fn sides<P: TablePoint>(points: &[P]) -> (&[P], &[P]) {
    let below = points.partition_point(|p| p.slip() < 0.0);
    let above = points.partition_point(|p| p.slip() <= 0.0).max(below);
    (&points[..below], &points[above..])
}

/// Linear interpolation between `(s0, f0)` and `(s1, f1)` at `x`, exact at both ends.
#[inline]
fn lerp(s0: f64, f0: f64, s1: f64, f1: f64, x: f64) -> f64 {
    if s1 > s0 {
        let t = ((x - s0) / (s1 - s0)).clamp(0.0, 1.0);
        f0 * (1.0 - t) + f1 * t
    } else {
        f1
    }
}

/// Friction at `x > 0` from the points above zero (non-empty), through the origin.
#[inline]
fn read_above<P: TablePoint>(above: &[P], x: f64) -> f64 {
    let j = above.partition_point(|p| p.slip() < x);
    match (j.checked_sub(1).map(|i| &above[i]), above.get(j)) {
        (_, None) => above.last().map_or(0.0, TablePoint::friction),
        (None, Some(p1)) => lerp(0.0, 0.0, p1.slip(), p1.friction(), x),
        (Some(p0), Some(p1)) => lerp(p0.slip(), p0.friction(), p1.slip(), p1.friction(), x),
    }
}

/// Friction at `x < 0` from the points below zero (non-empty), through the origin.
#[inline]
fn read_below<P: TablePoint>(below: &[P], x: f64) -> f64 {
    let j = below.partition_point(|p| p.slip() < x);
    match (j.checked_sub(1).map(|i| &below[i]), below.get(j)) {
        (None, _) => below.first().map_or(0.0, TablePoint::friction),
        (Some(p0), None) => lerp(p0.slip(), p0.friction(), 0.0, 0.0, x),
        (Some(p0), Some(p1)) => lerp(p0.slip(), p0.friction(), p1.slip(), p1.friction(), x),
    }
}

/// Signed friction of the table at signed slip `x`: linear between points, constant beyond the
/// outermost ones, through the origin, a missing side mirrored from the other.
fn interpolate<P: TablePoint>(points: &[P], x: f64) -> f64 {
    let (below, above) = sides(points);
    if x > 0.0 {
        if above.is_empty() {
            if below.is_empty() {
                0.0
            } else {
                -read_below(below, -x)
            }
        } else {
            read_above(above, x)
        }
    } else if x < 0.0 {
        if below.is_empty() {
            if above.is_empty() {
                0.0
            } else {
                -read_above(above, -x)
            }
        } else {
            read_below(below, x)
        }
    } else {
        0.0
    }
}

/// Slip magnitude of the peak (largest |friction|, the one nearest zero on ties) on the positive
/// (`positive`) or negative side, mirrored when that side is empty; 0 for an empty table.
fn peak_slip<P: TablePoint>(points: &[P], positive: bool) -> f64 {
    let (below, above) = sides(points);
    let use_above = if positive {
        !above.is_empty()
    } else {
        below.is_empty()
    };
    let mut best = (0.0, f64::NEG_INFINITY);
    let mut consider = |p: &P| {
        if p.friction().abs() > best.1 {
            best = (p.slip().abs(), p.friction().abs());
        }
    };
    if use_above {
        above.iter().for_each(&mut consider);
    } else {
        below.iter().rev().for_each(&mut consider);
    }
    best.0
}

/// Slope of the table at the origin: mean of the first segments on both sides (mirrored where
/// a side is empty).
fn origin_slope<P: TablePoint>(points: &[P]) -> f64 {
    let (below, above) = sides(points);
    let slope = |p: &P| {
        if p.slip() == 0.0 {
            0.0
        } else {
            p.friction() / p.slip()
        }
    };
    let right = above.first().map(slope);
    let left = below.last().map(slope);
    match (left, right) {
        (Some(l), Some(r)) => 0.5 * (l + r),
        (Some(one), None) | (None, Some(one)) => one,
        (None, None) => 0.0,
    }
}

/// `x / peak`, with a degenerate (zero or non-finite) peak counting as 1.
#[inline]
fn normalise(x: f64, peak: f64) -> f64 {
    if peak > 0.0 && peak.is_finite() {
        x / peak
    } else {
        x
    }
}

impl FrictionTableTire {
    /// Signed longitudinal friction coefficient of the table at slip ratio `kappa` (pure slip).
    pub fn longitudinal_friction(&self, kappa: f64) -> f64 {
        interpolate(&self.longitudinal, kappa)
    }

    /// Signed lateral friction coefficient of the table at slip angle `alpha` (rad, pure slip);
    /// positive for positive `alpha`, whose force is `-friction * Fz`.
    pub fn lateral_friction(&self, alpha: f64) -> f64 {
        interpolate(&self.lateral, alpha.to_degrees())
    }
}

impl TireModel for FrictionTableTire {
    fn evaluate(&self, input: &TireInput) -> TireOutput {
        let fz = effective_load(input.fz);
        if fz == 0.0 {
            return TireOutput::default();
        }
        let load =
            fz * friction_scale(input.mu_scale) * load_factor(self.load_sensitivity.as_ref(), fz);
        let mut out = TireOutput {
            slip_stiffness: Some(saturate(origin_slope(&self.longitudinal) * load)),
            cornering_stiffness: Some(saturate(
                -origin_slope(&self.lateral) * load * 180.0 / std::f64::consts::PI,
            )),
            ..TireOutput::default()
        };

        let kappa = finite_or_zero(input.kappa);
        let alpha_deg = finite_or_zero(input.alpha.to_degrees());
        let kappa_peak = peak_slip(&self.longitudinal, kappa >= 0.0);
        let alpha_peak = peak_slip(&self.lateral, alpha_deg >= 0.0);
        let sx = normalise(kappa, kappa_peak);
        let sy = normalise(alpha_deg, alpha_peak);
        // |(sx, sy)| without overflow, and the direction's components.
        let largest = sx.abs().max(sy.abs());
        if largest.is_nan() || largest <= 0.0 {
            return out;
        }
        let (ux, uy) = (sx / largest, sy / largest);
        let norm = ux.hypot(uy);
        let s = largest * norm;
        let (share_x, share_y) = (ux.abs() / norm, uy.abs() / norm);

        let mu_x = interpolate(&self.longitudinal, (s * kappa_peak).copysign(kappa));
        let mu_y = interpolate(&self.lateral, (s * alpha_peak).copysign(alpha_deg));
        out.fx = saturate(mu_x * share_x * load);
        out.fy = saturate(-mu_y * share_y * load);

        let sliding = alpha_peak.to_radians();
        if s < 1.0 && sliding > 0.0 && sliding < std::f64::consts::FRAC_PI_2 {
            let trail = PneumaticTrail {
                initial_trail_m: self.initial_trail_m,
                sliding_slip_angle_rad: sliding,
            };
            out.mz = saturate(-trail.trail(s * sliding) * out.fy);
        }
        out
    }
}

/// Checks one table: finite, increasing, signed like the slip, not empty.
fn validate_table<P: TablePoint>(v: &mut Validator, field: &str, points: &[P], slip_limit: f64) {
    v.within(field, |v| {
        if !points.iter().any(|p| p.slip() != 0.0) {
            v.fail("", "must have at least one point away from zero slip");
        }
        let mut previous: Option<f64> = None;
        for (i, p) in points.iter().enumerate() {
            v.within(&Validator::index(i), |v| {
                let slip = p.slip();
                let friction = p.friction();
                if slip_limit.is_finite() {
                    v.in_range(P::SLIP_FIELD, slip, -slip_limit, slip_limit);
                } else {
                    v.finite(P::SLIP_FIELD, slip);
                }
                v.finite("friction", friction);
                if let Some(prev) = previous
                    && slip.is_finite()
                {
                    v.require(
                        slip > prev,
                        P::SLIP_FIELD,
                        "must increase from one point to the next",
                    );
                }
                if slip.is_finite() && friction.is_finite() {
                    let same_sign = if slip == 0.0 {
                        friction == 0.0
                    } else {
                        friction * slip.signum() >= 0.0
                    };
                    v.require(
                        same_sign,
                        "friction",
                        &format!(
                            "must have the sign of {} (zero at zero slip)",
                            P::SLIP_FIELD
                        ),
                    );
                }
            });
            if p.slip().is_finite() {
                previous = Some(p.slip());
            }
        }
    });
}

impl Validate for FrictionTableTire {
    fn validate(&self, v: &mut Validator) {
        if let Some(law) = &self.load_sensitivity {
            v.nested("load_sensitivity", law);
        }
        validate_table(v, "longitudinal", &self.longitudinal, f64::INFINITY);
        validate_table(v, "lateral", &self.lateral, 89.0);
        v.non_negative("initial_trail_m", self.initial_trail_m);
    }
}

#[cfg(test)]
// Exact equalities are the point of several tests (values at user points, zeros).
#[allow(clippy::float_cmp)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const FZ: f64 = 4000.0;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    fn ratio(points: &[(f64, f64)]) -> Vec<SlipRatioPoint> {
        points
            .iter()
            .map(|&(slip_ratio, friction)| SlipRatioPoint {
                slip_ratio,
                friction,
            })
            .collect()
    }

    fn angle(points: &[(f64, f64)]) -> Vec<SlipAnglePoint> {
        points
            .iter()
            .map(|&(slip_angle_deg, friction)| SlipAnglePoint {
                slip_angle_deg,
                friction,
            })
            .collect()
    }

    /// One-sided tables with a non-monotonic tail, to be mirrored.
    fn one_sided() -> FrictionTableTire {
        FrictionTableTire {
            load_sensitivity: None,
            longitudinal: ratio(&[(0.05, 0.7), (0.12, 1.0), (0.25, 0.9), (1.0, 0.8)]),
            lateral: angle(&[(3.0, 0.75), (8.0, 1.05), (20.0, 0.8)]),
            initial_trail_m: 0.03,
        }
    }

    fn tyres() -> Vec<FrictionTableTire> {
        vec![FrictionTableTire::default(), one_sided()]
    }

    fn kappa(k: f64) -> TireInput {
        TireInput::rolling(FZ, 20.0).with_kappa(k)
    }

    #[test]
    fn default_is_the_seed_table() {
        let t = FrictionTableTire::default();
        assert!(t.check().is_ok());
        assert!(one_sided().check().is_ok());
        let seed = [
            (-0.3, -0.75),
            (-0.1, -0.85),
            (0.0, 0.0),
            (0.1, 0.85),
            (0.3, 0.75),
        ];
        assert_eq!(t.longitudinal, ratio(&seed));
        for (s, mu) in seed {
            assert_eq!(t.evaluate(&kappa(s)).fx, mu * FZ);
        }
        // Lateral default: the same shape at tan(alpha) = kappa.
        let alpha_peak = 0.1f64.atan();
        assert!(close(
            t.lateral[3].slip_angle_deg,
            alpha_peak.to_degrees(),
            0.005
        ));
        assert!(close(
            t.lateral[4].slip_angle_deg,
            0.3f64.atan().to_degrees(),
            0.005
        ));
        let out = t.evaluate(&TireInput::rolling(FZ, 20.0).with_alpha(5.71f64.to_radians()));
        assert!(close(out.fy, -0.85 * FZ, 1e-9));
    }

    #[test]
    fn interpolation_is_exact_at_points_and_linear_between() {
        let t = one_sided();
        let pts = [
            (0.0, 0.0),
            (0.05, 0.7),
            (0.12, 1.0),
            (0.25, 0.9),
            (1.0, 0.8),
        ];
        for &(s, mu) in &pts {
            assert_eq!(t.longitudinal_friction(s), mu);
            assert_eq!(t.evaluate(&kappa(s)).fx, mu * FZ);
        }
        for w in pts.windows(2) {
            let ((s0, f0), (s1, f1)) = (w[0], w[1]);
            for frac in [0.1, 0.25, 0.5, 0.9] {
                let s = s0 + frac * (s1 - s0);
                let expected = f0 + frac * (f1 - f0);
                assert!(close(t.longitudinal_friction(s), expected, 1e-12), "at {s}");
                assert!(close(t.evaluate(&kappa(s)).fx, expected * FZ, 1e-8));
            }
        }
        // Constant beyond the last point, on both sides (mirrored).
        for s in [1.0001, 3.0, 1e6] {
            assert_eq!(t.longitudinal_friction(s), 0.8);
            assert_eq!(t.longitudinal_friction(-s), -0.8);
        }
        // Lateral table in degrees.
        let a = 5.5f64.to_radians();
        let expected = 0.75 + (5.5 - 3.0) / 5.0 * (1.05 - 0.75);
        assert!(close(t.lateral_friction(a), expected, 1e-12));
        assert!(close(
            t.evaluate(&TireInput::rolling(FZ, 9.0).with_alpha(-a)).fy,
            expected * FZ,
            1e-8
        ));
    }

    #[test]
    fn asymmetric_tables_keep_each_side() {
        let t = FrictionTableTire {
            longitudinal: ratio(&[(-0.2, -1.0), (0.1, 0.8)]),
            ..FrictionTableTire::default()
        };
        assert!(t.check().is_ok());
        assert!(close(t.longitudinal_friction(-0.1), -0.5, 1e-15));
        assert!(close(t.longitudinal_friction(0.05), 0.4, 1e-15));
        assert_eq!(t.longitudinal_friction(-5.0), -1.0);
        assert_eq!(t.longitudinal_friction(5.0), 0.8);
        // Slip stiffness: the mean of 5 and 8 per unit slip.
        let out = t.evaluate(&kappa(0.0));
        assert!(out.slip_stiffness.is_some_and(|k| close(k, 6.5 * FZ, 1e-9)));
    }

    #[test]
    fn iso_signs_and_stiffness() {
        for t in tyres() {
            assert!(t.evaluate(&kappa(0.05)).fx > 0.0);
            assert!(t.evaluate(&kappa(-0.05)).fx < 0.0);
            let right = t.evaluate(&TireInput::rolling(FZ, 20.0).with_alpha(0.02));
            assert!(right.fy < 0.0 && right.mz > 0.0 && right.fx == 0.0);
            let h = 1e-7;
            let base = t.evaluate(&kappa(0.0));
            assert_eq!((base.fx, base.fy, base.mz), (0.0, 0.0, 0.0));
            let kx = t.evaluate(&kappa(h)).fx / h;
            let ky = t.evaluate(&TireInput::rolling(FZ, 20.0).with_alpha(h)).fy / h;
            assert!(base.slip_stiffness.is_some_and(|k| close(k, kx, 1e-6 * kx)));
            assert!(
                base.cornering_stiffness
                    .is_some_and(|k| close(k, ky, 1e-6 * ky.abs()) && k < 0.0)
            );
        }
    }

    #[test]
    fn combined_slip_reduces_the_lateral_force() {
        for t in tyres() {
            let alpha = 4f64.to_radians();
            let base = TireInput::rolling(FZ, 20.0).with_alpha(alpha);
            let pure = t.evaluate(&base).fy;
            assert!(close(pure, -t.lateral_friction(alpha) * FZ, 1e-9));
            let mut last = pure.abs();
            for k in [0.08, 0.15, 0.3, 1.0] {
                let now = t.evaluate(&base.with_kappa(-k)).fy.abs();
                assert!(now < last, "{t:?} at kappa {k}");
                last = now;
            }
        }
    }

    #[test]
    fn large_slip_gives_limit_friction() {
        let t = FrictionTableTire::default();
        for (k, a) in [
            (-1.0, 0.0),
            (0.0, 1.2),
            (-0.8, 0.6),
            (5.0, -1.5),
            (1e6, 0.3),
            (0.5, 3.0),
        ] {
            let out = t.evaluate(&TireInput::rolling(FZ, 20.0).with_kappa(k).with_alpha(a));
            assert!(close(out.fx.hypot(out.fy), 0.75 * FZ, 1e-9), "{k} {a}");
            assert_eq!(out.mz, 0.0);
        }
    }

    #[test]
    fn aligning_moment_follows_the_trail() {
        let t = FrictionTableTire::default();
        let small = t.evaluate(&TireInput::rolling(FZ, 20.0).with_alpha(1e-6));
        assert!(close(small.mz, -0.025 * small.fy, 1e-4 * small.mz.abs()));
        let alpha = 3f64.to_radians();
        let out = t.evaluate(&TireInput::rolling(FZ, 20.0).with_alpha(alpha));
        let helper = PneumaticTrail {
            initial_trail_m: 0.025,
            sliding_slip_angle_rad: 5.71f64.to_radians(),
        };
        assert!(close(out.mz, helper.aligning_moment(out.fy, alpha), 1e-9));
        let past_peak = t.evaluate(&TireInput::rolling(FZ, 20.0).with_alpha(6f64.to_radians()));
        assert_eq!(past_peak.mz, 0.0);
    }

    #[test]
    fn degenerate_inputs() {
        let t = FrictionTableTire::default();
        for fz in [0.0, -1.0, f64::NAN, f64::NEG_INFINITY] {
            let input = TireInput::rolling(fz, 20.0).with_kappa(0.1).with_alpha(0.1);
            assert_eq!(t.evaluate(&input), TireOutput::default());
        }
        // Standstill: the slips are used as given.
        let still = t.evaluate(&TireInput::rolling(FZ, 0.0).with_kappa(-1.0));
        assert!(still.is_finite() && close(still.fx, -0.75 * FZ, 1e-9));
        // mu_scale scales the force; a NaN scale gives no friction.
        let mut wet = kappa(0.2);
        wet.mu_scale = 0.3;
        assert!(close(
            t.evaluate(&wet).fx,
            0.3 * t.evaluate(&kappa(0.2)).fx,
            1e-9
        ));
        wet.mu_scale = f64::NAN;
        assert_eq!(t.evaluate(&wet).fx, 0.0);
        // Extreme inputs stay finite.
        for (k, a) in [
            (-1e6, 0.0),
            (1e6, 1e6),
            (0.0, std::f64::consts::FRAC_PI_2),
            (f64::MAX, -f64::MAX),
        ] {
            let out = t.evaluate(
                &TireInput::rolling(f64::MAX, 1e300)
                    .with_kappa(k)
                    .with_alpha(a),
            );
            assert!(out.is_finite(), "{k} {a}: {out:?}");
        }
    }

    #[test]
    fn validation_paths() {
        let t = FrictionTableTire {
            load_sensitivity: None,
            longitudinal: ratio(&[
                (-0.1, -0.85),
                (0.1, 0.85),
                (0.05, 0.9),
                (0.3, -0.2),
                (f64::NAN, 0.7),
            ]),
            lateral: angle(&[(0.0, 0.3), (95.0, 1.0)]),
            initial_trail_m: -1.0,
        };
        let text = t.check().unwrap_err().to_string();
        for expected in [
            "longitudinal[2].slip_ratio must increase",
            "longitudinal[3].friction must have the sign of slip_ratio",
            "longitudinal[4].slip_ratio must be a finite number",
            "lateral[0].friction must have the sign of slip_angle_deg (zero at zero slip)",
            "lateral[1].slip_angle_deg must be between -89 and 89",
            "initial_trail_m must be finite and not negative",
        ] {
            assert!(text.contains(expected), "{expected} missing from {text}");
        }
        let empty = FrictionTableTire {
            lateral: Vec::new(),
            ..FrictionTableTire::default()
        };
        let text = empty.check().unwrap_err().to_string();
        assert!(
            text.contains("lateral must have at least one point away from zero slip"),
            "{text}"
        );
        // An empty (invalid) table still evaluates to finite numbers.
        assert!(empty.evaluate(&kappa(0.1).with_alpha(0.2)).is_finite());
    }

    fn any_tyre() -> impl Strategy<Value = FrictionTableTire> {
        (0..2usize).prop_map(|i| tyres().swap_remove(i))
    }

    proptest! {
        #[test]
        fn finite_for_every_finite_input(
            tyre in any_tyre(),
            fz in -1e7f64..1e7,
            kappa in prop_oneof![-2.0f64..2.0, -1e6f64..1e6],
            alpha in prop_oneof![-1.6f64..1.6, -10.0f64..10.0],
            vx in prop_oneof![-150.0f64..150.0, Just(0.0)],
            mu_scale in 0.0f64..2.0,
        ) {
            let mut input = TireInput::rolling(fz, vx).with_kappa(kappa).with_alpha(alpha);
            input.mu_scale = mu_scale;
            let out = tyre.evaluate(&input);
            prop_assert!(out.is_finite(), "{:?} -> {:?}", input, out);
            prop_assert!(out.fx.hypot(out.fy) <= 1.05 * fz.max(0.0) * mu_scale * (1.0 + 1e-12) + 1e-9);
        }

        #[test]
        fn odd_symmetry(
            tyre in any_tyre(),
            kappa in -1.5f64..1.5,
            alpha in -1.5f64..1.5,
        ) {
            let base = TireInput::rolling(FZ, 20.0);
            let p = tyre.evaluate(&base.with_kappa(kappa).with_alpha(alpha));
            let k = tyre.evaluate(&base.with_kappa(-kappa).with_alpha(alpha));
            let a = tyre.evaluate(&base.with_kappa(kappa).with_alpha(-alpha));
            prop_assert!(close(k.fx, -p.fx, 1e-9 * FZ) && close(k.fy, p.fy, 1e-9 * FZ));
            prop_assert!(close(a.fy, -p.fy, 1e-9 * FZ) && close(a.fx, p.fx, 1e-9 * FZ));
            prop_assert!(close(a.mz, -p.mz, 1e-9 * FZ));
        }
    }
}

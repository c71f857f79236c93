//! One corner's suspension: spring, bump and rebound damping with a fast-speed knee,
//! progressive bump stop and droop stop.
//!
//! Travel is a straight line along the body's -z axis (MacPherson-like). Compression `x` is
//! measured from full droop (0) upwards; its rate is positive in bump. The force is what the
//! strut pushes the body up with and the wheel down with (the wheel is a mass of its own,
//! [`super::unsprung`]): positive in normal use, negative in fast rebound and when the wheel
//! hangs on its droop stop.
//!
//! [`strut_forces`] puts the four corners together with their axles' anti-roll bars and the
//! links' vertical share into the struts' forces of one step.

use super::anti_roll_bar::anti_roll_bar_forces;
use super::params::{SuspensionParams, VehicleParams};
use super::unsprung::WheelTravel;

/// The forces (N, pushing the body up and the wheel down) between body and wheels
/// `[FL, FR, RL, RR]` at their `travels`: each corner's spring, damper and stops, its share
/// of the axle's anti-roll bar and its links' force `link_loads_n` (geometric load transfer,
/// see `link_loads`). They act whether or not the tyre touches the ground: a wheel in the air
/// hangs on them.
pub fn strut_forces(
    params: &VehicleParams,
    travels: &[WheelTravel; 4],
    link_loads_n: &[f64; 4],
) -> [f64; 4] {
    let mut forces = [0.0; 4];
    for axle in 0..2 {
        let (l, r) = (2 * axle, 2 * axle + 1);
        let ap = params.axle(axle);
        let (arb_l, arb_r) = anti_roll_bar_forces(
            ap.anti_roll_bar_n_per_m,
            travels[l].compression_m,
            travels[r].compression_m,
        );
        for (i, arb) in [(l, arb_l), (r, arb_r)] {
            let t = &travels[i];
            forces[i] =
                ap.suspension.force(t.compression_m, t.rate_m_per_s) + arb + link_loads_n[i];
        }
    }
    forces
}

impl SuspensionParams {
    /// Spring force at compression `x` (m from full droop), N. Zero at and beyond full droop:
    /// the wheel hangs on its droop stop and passes no force.
    #[inline]
    pub fn spring_force(&self, x: f64) -> f64 {
        if x <= 0.0 {
            0.0
        } else {
            self.spring_preload_n + self.spring_rate_n_per_m * x
        }
    }

    /// Damper force at compression rate `rate` (m/s, positive in bump), N, positive opposing
    /// bump. Bilinear: the slow slope up to the knee speed, the fast slope beyond.
    #[inline]
    pub fn damper_force(&self, rate: f64) -> f64 {
        let (slow, fast) = if rate >= 0.0 {
            (
                self.bump_damping_n_s_per_m,
                self.fast_bump_damping_n_s_per_m,
            )
        } else {
            (
                self.rebound_damping_n_s_per_m,
                self.fast_rebound_damping_n_s_per_m,
            )
        };
        let speed = rate.abs();
        let knee = self.damper_knee_m_per_s;
        let magnitude = if speed <= knee {
            slow * speed
        } else {
            slow * knee + fast * (speed - knee)
        };
        magnitude.copysign(rate)
    }

    /// Bump-stop force at compression `x` (N): zero within the free travel, then
    /// `rate * (e + e³ / length²)` at `e = x - travel` (progressive).
    #[inline]
    pub fn bump_stop_force(&self, x: f64) -> f64 {
        let e = x - self.travel_m;
        if e <= 0.0 {
            0.0
        } else {
            let l = self.bump_stop_length_m;
            self.bump_stop_rate_n_per_m * (e + e * e * e / (l * l))
        }
    }

    /// Droop-stop force at compression `x` (N, negative: it holds the wheel up): beyond full
    /// droop (`x < 0`) the rebound stop works as the bump stop does, `-rate * (e + e³ /
    /// length²)` at `e = -x`.
    #[inline]
    pub fn droop_stop_force(&self, x: f64) -> f64 {
        if x >= 0.0 {
            0.0
        } else {
            let (e, l) = (-x, self.bump_stop_length_m);
            -self.bump_stop_rate_n_per_m * (e + e * e * e / (l * l))
        }
    }

    /// Total force of spring, damper, bump stop and droop stop (N) at compression `x` moving
    /// at `rate`.
    #[inline]
    pub fn force(&self, x: f64, rate: f64) -> f64 {
        self.spring_force(x)
            + self.damper_force(rate)
            + self.bump_stop_force(x)
            + self.droop_stop_force(x)
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp)]
mod tests {
    use crate::vehicle::params::VehicleParams;

    #[test]
    fn spring_damper_and_stops() {
        let s = VehicleParams::default().front.suspension;
        // At full droop only the damper; beyond it the droop stop holds the wheel up.
        assert_eq!(s.force(0.0, 0.0), 0.0);
        assert!((s.force(0.0, 0.1) - 210.0).abs() < 1e-9);
        assert!((s.droop_stop_force(-0.01) + s.bump_stop_force(s.travel_m + 0.01)).abs() < 1e-9);
        assert!(s.force(-0.01, 0.0) < 0.0);
        // Linear spring.
        assert!((s.spring_force(0.1) - 3300.0).abs() < 1e-9);
        // Bump and rebound differ, the knee makes the damper digressive.
        assert!((s.damper_force(0.1) - 210.0).abs() < 1e-9);
        assert!((s.damper_force(-0.1) + 460.0).abs() < 1e-9);
        let fast = s.damper_force(1.0);
        assert!((fast - (2100.0 * 0.13 + 1050.0 * 0.87)).abs() < 1e-9);
        // Bump stop is zero inside the travel and progressive beyond.
        assert_eq!(s.bump_stop_force(0.17), 0.0);
        let a = s.bump_stop_force(0.19);
        let b = s.bump_stop_force(0.20);
        assert!(b > 2.0 * a, "progressive: {a} then {b}");
    }
}

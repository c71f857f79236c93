//! Pneumatic-trail model of the aligning moment, for tyre families without an Mz theory of
//! their own.
//!
//! It takes the trail of the brush model under pure side slip (Pacejka, *Tire and Vehicle
//! Dynamics*, 3rd ed., section 3.2.2): with the parabolic pressure distribution and the
//! normalised side slip `psi = |tan(alpha)| / tan(alpha_sl)` (1 at full sliding),
//!
//! ```text
//! t(psi) = t0 * 3 (1 - psi)^3 / (3 - 3 psi + psi^2)        for psi < 1
//! t(psi) = 0                                              for psi >= 1
//! ```
//!
//! so the trail starts at `t0` (a third of the half contact length for the brush model) and
//! falls to zero as the contact patch slides entirely; `mz = -t * fy`. That gives the aligning
//! torque its characteristic peak before the lateral force peaks, which the force feedback
//! needs (the "going light" cue before the front lets go).

use serde::{Deserialize, Serialize};

use crate::validate::{Validate, Validator};

/// Pneumatic trail that falls with side slip as in the brush model.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PneumaticTrail {
    /// Trail at zero slip angle (m); about a sixth of the contact-patch length.
    pub initial_trail_m: f64,
    /// Slip angle at which the whole contact patch slides and the trail reaches zero (rad).
    pub sliding_slip_angle_rad: f64,
}

impl Default for PneumaticTrail {
    /// A passenger-car tyre: 150 mm patch (25 mm trail), sliding from about 10 degrees.
    fn default() -> Self {
        Self {
            initial_trail_m: 0.025,
            sliding_slip_angle_rad: 10f64.to_radians(),
        }
    }
}

impl PneumaticTrail {
    /// Trail (m) at slip angle `alpha` (rad); zero once the patch slides.
    #[inline]
    pub fn trail(&self, alpha: f64) -> f64 {
        let tan_sl = self.sliding_slip_angle_rad.tan();
        let psi = if tan_sl > 0.0 {
            alpha.tan().abs() / tan_sl
        } else {
            1.0
        };
        if psi.is_nan() || psi >= 1.0 {
            return 0.0;
        }
        let one_minus = 1.0 - psi;
        self.initial_trail_m * 3.0 * one_minus * one_minus * one_minus
            / (3.0 - 3.0 * psi + psi * psi)
    }

    /// Aligning moment (N·m) from the lateral force `fy` (N) at slip angle `alpha` (rad).
    #[inline]
    pub fn aligning_moment(&self, fy: f64, alpha: f64) -> f64 {
        -self.trail(alpha) * fy
    }
}

impl Validate for PneumaticTrail {
    fn validate(&self, v: &mut Validator) {
        v.non_negative("initial_trail_m", self.initial_trail_m);
        v.in_range(
            "sliding_slip_angle_rad",
            self.sliding_slip_angle_rad,
            1e-3,
            std::f64::consts::FRAC_PI_2 - 1e-3,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trail_starts_at_initial_value_and_reaches_zero_at_sliding() {
        let t = PneumaticTrail::default();
        assert!((t.trail(0.0) - 0.025).abs() < 1e-15);
        assert!(t.trail(t.sliding_slip_angle_rad).abs() < 1e-300);
        assert!(t.trail(0.5).abs() < 1e-300);
        // Monotonic fall in between.
        let mut last = t.trail(0.0);
        for i in 1..100 {
            let now = t.trail(f64::from(i) * 0.001_745);
            assert!(now <= last);
            last = now;
        }
    }

    #[test]
    fn matches_brush_closed_form_at_half_sliding() {
        // psi = 0.5: t/t0 = 3 * 0.125 / (3 - 1.5 + 0.25) = 0.375 / 1.75.
        let t = PneumaticTrail {
            initial_trail_m: 1.0,
            sliding_slip_angle_rad: 0.2,
        };
        let alpha = (0.5 * 0.2f64.tan()).atan();
        assert!((t.trail(alpha) - 0.375 / 1.75).abs() < 1e-12);
    }

    #[test]
    fn moment_is_self_aligning() {
        let t = PneumaticTrail::default();
        // Positive alpha gives negative fy, and then mz must be positive.
        assert!(t.aligning_moment(-1000.0, 0.02) > 0.0);
        assert!(t.aligning_moment(1000.0, -0.02) < 0.0);
    }
}

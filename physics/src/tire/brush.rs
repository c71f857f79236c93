//! Brush tyre model (Wolfe, workshop VI, `docs/sources.md`; Pacejka, *Tire and Vehicle Dynamics*,
//! chapter 3).
//!
//! The tread is a row of elastic bristles of stiffness `c_p` per unit length (N/m²) along a
//! contact patch of length `L = 2a`, on a rigid carcass. A bristle enters the patch at the
//! leading edge undeflected, its tip sticks to the road and its base moves with the slip, so
//! its deflection grows linearly with the distance travelled through the patch; once the
//! deflection force exceeds the local friction limit it slides.
//!
//! # Slip
//!
//! The theoretical slip vector (isotropic bristles, equal stiffness in x and y):
//!
//! ```text
//! sigma = (kappa, tan(alpha)) / (1 + kappa),   s = |sigma|
//! ```
//!
//! Its magnitude sets the force magnitude, its direction the direction of the force (`fx`
//! along `+kappa`, `fy` against `tan(alpha)`: ISO-W signs). The direction is taken from
//! `(kappa, tan(alpha))`, which is valid for every `kappa`; when `1 + kappa <= 0` (a locked or
//! backwards-spinning wheel, `kappa <= -1`) the theoretical slip is infinite and the whole
//! patch slides. The slip stiffness and the cornering stiffness are both
//! `C = 2 c_p a² = c_p L² / 2` (workshop VI's "stiffness", with `c_p = 1e6 * tire_stiffness`).
//!
//! # Pressure distributions and the two branches
//!
//! [`PressureDistribution::Parabolic`] (the default; Pacejka's brush model): with
//! `theta = C / (3 mu Fz)` and `psi = theta s`, the critical slip at which the whole patch
//! slides is `s_sl = 1 / theta = 3 mu Fz / C`:
//!
//! ```text
//! F  = mu Fz (3 psi - 3 psi² + psi³) = mu Fz (1 - (1 - psi)³)        psi < 1 (adhesion + sliding)
//! F  = mu Fz                                                         psi >= 1 (all sliding)
//! Mz = mu Fz a psi (1 - psi)³  (times the lateral share, below)      psi < 1, else 0
//! ```
//!
//! [`PressureDistribution::Uniform`] reproduces workshop VI's formula: uniform pressure
//! `q = mu Fz / L`; the adhering length from the leading edge is the critical length
//! `x_c = mu Fz L / (2 C s)` (`lambda = x_c / L`):
//!
//! ```text
//! F  = C s                                   lambda >= 1 (the whole patch adheres)
//! F  = mu Fz (1 - lambda / 2)                lambda < 1  (= mu Fz (1 - mu Fz / (4 C s)))
//! Mz = C s a / 3                             lambda >= 1
//! Mz = mu Fz a lambda (3 - 2 lambda) / 6     lambda < 1
//! ```
//!
//! (the moment of the bristle forces about the patch centre: the triangle of adhering
//! deflections plus the uniform sliding band). The force then approaches `mu Fz` only as the
//! slip grows without bound.
//!
//! # Combined slip and aligning moment
//!
//! The force magnitude `F(s)` is shared out along the slip vector:
//! `fx = F kappa / r`, `fy = -F tan(alpha) / r` with `r = |(kappa, tan(alpha))|`.
//! The aligning moment is the moment of the lateral bristle forces about the patch centre.
//! With isotropic bristles and sliding forces taken along the slip vector (Pacejka's
//! approximation), the force distribution along the patch has the same shape in x and y, so
//! `mz = M(s) tan(alpha) / r` with `M(s)` the pure-side-slip closed forms above evaluated at the
//! combined slip `s`. This reduces exactly to the pure side-slip moment; the small
//! contribution of `fx` acting on laterally deflected bristles is neglected (the carcass is
//! rigid in this model).
//!
//! The road friction scale multiplies `mu`. Camber and inflation pressure are not part of the
//! model and are ignored.

use serde::{Deserialize, Serialize};

use super::interface::{TireInput, TireModel, TireOutput};
use super::load_sensitivity::{LoadSensitivity, load_factor};
use super::sanitise::{effective_load, friction_scale};
use crate::validate::{Validate, Validator};

/// How the vertical load is spread along the contact patch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum PressureDistribution {
    /// Parabolic pressure (Pacejka's brush model): a clear peak of `mu Fz` at the critical slip
    /// `3 mu Fz / C`, then full sliding.
    #[default]
    Parabolic,
    /// Uniform pressure, workshop VI's formula: linear until the critical length equals the patch
    /// length, then the force approaches `mu Fz` asymptotically.
    Uniform,
}

/// Brush tyre: friction coefficient, contact-patch length and tread stiffness.
///
/// Force magnitude from the theoretical slip `|(kappa, tan alpha)| / (1 + kappa)` with an
/// adhesion branch and a sliding branch split at the critical slip; combined slip by sharing
/// that force along the slip vector; aligning moment from the moment of the bristle forces
/// about the patch centre (`mu Fz a psi (1 - psi)³` in pure side slip, parabolic pressure).
/// See the [module documentation](self) for the equations of both pressure distributions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BrushTire {
    /// Friction coefficient between tread and the reference road (-).
    pub mu: f64,
    /// Contact-patch length `L = 2a` (m).
    pub patch_length_m: f64,
    /// Tread (bristle) stiffness per unit patch length `c_p` (N/m per m of length = N/m²).
    pub tread_stiffness_n_per_m2: f64,
    /// Pressure distribution along the patch; parabolic unless stated.
    #[serde(default)]
    pub pressure_distribution: PressureDistribution,
    /// Friction falling with load (`load_sensitivity`); none when omitted, as the source has
    /// it.
    #[serde(default)]
    pub load_sensitivity: Option<LoadSensitivity>,
}

impl Default for BrushTire {
    /// Workshop VI's example: `mu = 1`, a 0.2 m contact patch and `tire_stiffness = 5`
    /// (`c_p = 5e6 N/m²`, so `C = 100 kN/rad`), parabolic pressure.
    fn default() -> Self {
        Self {
            load_sensitivity: None,
            mu: 1.0,
            patch_length_m: 0.2,
            tread_stiffness_n_per_m2: 5.0e6,
            pressure_distribution: PressureDistribution::Parabolic,
        }
    }
}

/// Clamp on slips: beyond it the patch slides entirely for any sensible parameters.
const SLIP_LIMIT: f64 = 1e12;

impl BrushTire {
    /// Slip and cornering stiffness magnitude `C = c_p L² / 2` (N per unit slip, N/rad).
    pub fn stiffness(&self) -> f64 {
        0.5 * self.tread_stiffness_n_per_m2 * self.patch_length_m * self.patch_length_m
    }

    /// Theoretical-slip magnitude at which the whole patch slides under load `fz` (N) and
    /// friction `mu` (-): `3 mu Fz / C` (parabolic), or where the critical length reaches the
    /// patch length and sliding begins, `mu Fz / (2 C)` (uniform).
    pub fn critical_slip(&self, mu: f64, fz: f64) -> f64 {
        match self.pressure_distribution {
            PressureDistribution::Parabolic => 3.0 * mu * fz / self.stiffness(),
            PressureDistribution::Uniform => mu * fz / (2.0 * self.stiffness()),
        }
    }

    /// Force magnitude (N) and aligning-moment magnitude (N·m) for theoretical slip magnitude
    /// `s >= 0` (may be infinite) with friction force `mu_fz = mu Fz > 0`.
    fn force_and_moment(&self, s: f64, mu_fz: f64) -> (f64, f64) {
        let stiffness = self.stiffness();
        let a = 0.5 * self.patch_length_m;
        match self.pressure_distribution {
            PressureDistribution::Parabolic => {
                let psi = stiffness * s / (3.0 * mu_fz);
                if psi < 1.0 {
                    let free = 1.0 - psi;
                    let cube = free * free * free;
                    (mu_fz * (1.0 - cube), mu_fz * a * psi * cube)
                } else {
                    (mu_fz, 0.0)
                }
            }
            PressureDistribution::Uniform => {
                let deflection = stiffness * s;
                if 2.0 * deflection <= mu_fz {
                    (deflection, deflection * a / 3.0)
                } else {
                    let lambda = mu_fz / (2.0 * deflection);
                    (
                        mu_fz * (1.0 - 0.5 * lambda),
                        mu_fz * a * lambda * (3.0 - 2.0 * lambda) / 6.0,
                    )
                }
            }
        }
    }
}

impl TireModel for BrushTire {
    fn evaluate(&self, input: &TireInput) -> TireOutput {
        let fz = effective_load(input.fz);
        if fz == 0.0 {
            return TireOutput::default();
        }
        let stiffness = self.stiffness();
        let mut out = TireOutput {
            slip_stiffness: Some(stiffness),
            cornering_stiffness: Some(-stiffness),
            ..TireOutput::default()
        };
        let scale =
            friction_scale(input.mu_scale) * load_factor(self.load_sensitivity.as_ref(), input.fz);
        let mu_fz = self.mu * scale * fz;
        if !(mu_fz > 0.0 && mu_fz.is_finite()) {
            return out;
        }
        let kappa = if input.kappa.is_finite() {
            input.kappa.clamp(-SLIP_LIMIT, SLIP_LIMIT)
        } else {
            0.0
        };
        let tan_alpha = if input.alpha.is_finite() {
            input.alpha.tan().clamp(-SLIP_LIMIT, SLIP_LIMIT)
        } else {
            0.0
        };
        let r = kappa.hypot(tan_alpha);
        if r.is_nan() || r <= 0.0 {
            return out;
        }
        // Theoretical slip magnitude; a locked or backwards-spinning wheel slides entirely.
        let rolling = 1.0 + kappa;
        let s = if rolling > 0.0 {
            r / rolling
        } else {
            f64::INFINITY
        };
        let (force, moment) = self.force_and_moment(s, mu_fz);
        let (ux, uy) = (kappa / r, tan_alpha / r);
        out.fx = force * ux;
        out.fy = -force * uy;
        out.mz = moment * uy;
        out
    }
}

impl Validate for BrushTire {
    fn validate(&self, v: &mut Validator) {
        if let Some(law) = &self.load_sensitivity {
            v.nested("load_sensitivity", law);
        }
        v.positive("mu", self.mu);
        v.positive("patch_length_m", self.patch_length_m);
        v.positive("tread_stiffness_n_per_m2", self.tread_stiffness_n_per_m2);
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::f64::consts::FRAC_PI_2;

    fn input(fz: f64, kappa: f64, alpha: f64) -> TireInput {
        TireInput::rolling(fz, 20.0)
            .with_kappa(kappa)
            .with_alpha(alpha)
    }

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol * a.abs().max(b.abs()).max(1.0)
    }

    fn uniform() -> BrushTire {
        BrushTire {
            pressure_distribution: PressureDistribution::Uniform,
            ..BrushTire::default()
        }
    }

    /// Workshop VI's formula in its own variables, with its `slip.y` read as `-kappa` (so that
    /// `1 - slip.y = 1 + kappa`, the standard theoretical slip) and `slip.x = alpha`.
    fn seed_formula(
        mu: f64,
        fz: f64,
        patch: f64,
        tire_stiffness: f64,
        k: f64,
        a: f64,
    ) -> (f64, f64) {
        let slip_y = -k;
        let stiffness = 500_000.0 * tire_stiffness * patch * patch;
        let friction = mu * fz;
        let deflect = ((stiffness * slip_y).powi(2) + (stiffness * a.tan()).powi(2)).sqrt();
        if deflect == 0.0 {
            return (0.0, 0.0);
        }
        let crit_length = friction * (1.0 - slip_y) * patch / (2.0 * deflect);
        if crit_length >= patch {
            (
                stiffness * -slip_y / (1.0 - slip_y),
                stiffness * a.tan() / (1.0 - slip_y),
            )
        } else {
            let brushy = (1.0 - friction * (1.0 - slip_y) / (4.0 * deflect)) / deflect;
            (
                friction * stiffness * -slip_y * brushy,
                friction * stiffness * a.tan() * brushy,
            )
        }
    }

    #[test]
    fn signs_follow_iso_w() {
        for tyre in [BrushTire::default(), uniform()] {
            assert!(tyre.evaluate(&input(4000.0, 0.02, 0.0)).fx > 0.0);
            assert!(tyre.evaluate(&input(4000.0, -0.02, 0.0)).fx < 0.0);
            let turn = tyre.evaluate(&input(4000.0, 0.0, 0.02));
            assert!(turn.fy < 0.0);
            assert!(turn.mz > 0.0);
            assert!(turn.cornering_stiffness.unwrap() < 0.0);
        }
    }

    #[test]
    fn uniform_distribution_reproduces_seed_000() {
        let tyre = uniform();
        let fz = 3800.0;
        for (k, a) in [
            (0.0, 0.001),
            (0.001, 0.0),
            (0.0, 0.2),
            (-0.3, 0.1),
            (0.4, -0.05),
            (0.01, 0.01),
        ] {
            let out = tyre.evaluate(&input(fz, k, a));
            let (fx, fy_left_positive_alpha) = seed_formula(1.0, fz, 0.2, 5.0, k, a);
            assert!(close(out.fx, fx, 1e-12), "{k} {a}: {} vs {fx}", out.fx);
            assert!(close(out.fy, -fy_left_positive_alpha, 1e-12), "{k} {a}");
        }
    }

    #[test]
    fn parabolic_branches_and_critical_slip() {
        let tyre = BrushTire::default();
        let fz = 4000.0;
        let c = tyre.stiffness();
        assert!(close(c, 100_000.0, 1e-15));
        let s_sl = tyre.critical_slip(1.0, fz);
        assert!(close(s_sl, 3.0 * fz / c, 1e-15));
        // Below the critical slip: the cubic, with its closed form.
        let alpha = (0.5 * s_sl).atan();
        let out = tyre.evaluate(&input(fz, 0.0, alpha));
        assert!(close(out.fy, -fz * (1.0 - 0.125), 1e-12));
        assert!(close(out.mz, fz * 0.1 * 0.5 * 0.125, 1e-12));
        // At and beyond it: mu Fz, no moment.
        for factor in [1.0, 1.5, 10.0] {
            let out = tyre.evaluate(&input(fz, 0.0, (factor * s_sl).atan()));
            assert!(close(out.fy, -fz, 1e-12));
            assert_eq!(out.mz, 0.0);
        }
        // Longitudinal: theoretical slip kappa / (1 + kappa).
        let kappa = s_sl / (1.0 - s_sl) * 0.999;
        let out = tyre.evaluate(&input(fz, kappa, 0.0));
        assert!(out.fx < fz && out.fx > 0.999 * fz);
        // Force increases monotonically to the peak.
        let mut last = 0.0;
        for i in 1..=100 {
            let fy = -tyre
                .evaluate(&input(fz, 0.0, (f64::from(i) * 0.01 * s_sl).atan()))
                .fy;
            assert!(fy > last);
            last = fy;
        }
    }

    #[test]
    fn uniform_branches() {
        let tyre = uniform();
        let fz = 4000.0;
        let c = tyre.stiffness();
        let s_crit = tyre.critical_slip(1.0, fz);
        // Linear up to the critical slip, with trail a / 3.
        let out = tyre.evaluate(&input(fz, 0.0, (0.9 * s_crit).atan()));
        assert!(close(out.fy, -c * 0.9 * s_crit, 1e-12));
        assert!(close(out.mz / -out.fy, 0.1 / 3.0, 1e-12));
        // Continuous at the transition (value and moment).
        let below = tyre.evaluate(&input(fz, 0.0, (s_crit * (1.0 - 1e-9)).atan()));
        let above = tyre.evaluate(&input(fz, 0.0, (s_crit * (1.0 + 1e-9)).atan()));
        assert!(close(below.fy, above.fy, 1e-7));
        assert!(close(below.mz, above.mz, 1e-7));
        assert!(close(above.fy, -0.5 * fz, 1e-7));
        // Approaches mu Fz with the closed form.
        let s = 20.0 * s_crit;
        let out = tyre.evaluate(&input(fz, 0.0, s.atan()));
        assert!(close(out.fy, -fz * (1.0 - fz / (4.0 * c * s)), 1e-12));
        let lambda = fz / (2.0 * c * s);
        assert!(close(
            out.mz,
            fz * 0.1 * lambda * (3.0 - 2.0 * lambda) / 6.0,
            1e-12
        ));
    }

    #[test]
    fn locked_wheel_slides_fully() {
        for tyre in [BrushTire::default(), uniform()] {
            let out = tyre.evaluate(&input(4000.0, -1.0, 0.0));
            assert!(close(out.fx, -4000.0, 1e-12));
            assert_eq!(out.fy, 0.0);
            let out = tyre.evaluate(&input(4000.0, -1.0, 0.3));
            let dir = (-1.0f64).hypot(0.3f64.tan());
            assert!(close(out.fx, -4000.0 / dir, 1e-12));
            assert!(close(out.fy, -4000.0 * 0.3f64.tan() / dir, 1e-12));
            assert!(out.mz.abs() < 1e-9);
            // Spinning backwards while moving forwards: still full sliding.
            let out = tyre.evaluate(&input(4000.0, -3.0, 0.0));
            assert!(close(out.fx, -4000.0, 1e-12));
        }
        // Just short of locking, the parabolic patch slides entirely as well.
        let out = BrushTire::default().evaluate(&input(4000.0, -0.9, 0.0));
        assert!(close(out.fx, -4000.0, 1e-12));
    }

    #[test]
    fn combined_slip_reduces_lateral_force() {
        let tyre = BrushTire::default();
        let fz = 4000.0;
        let alpha = 0.04;
        let mut last = tyre.evaluate(&input(fz, 0.0, alpha)).fy.abs();
        for i in 1..=30 {
            let out = tyre.evaluate(&input(fz, -f64::from(i) * 0.01, alpha));
            assert!(out.fy.abs() < last);
            last = out.fy.abs();
            assert!(
                out.fx.hypot(out.fy) <= fz * (1.0 + 1e-12),
                "friction circle"
            );
        }
    }

    #[test]
    fn friction_scale_and_stiffness() {
        let tyre = BrushTire::default();
        let fz = 4000.0;
        let mut wet = input(fz, 0.0, 1.0);
        wet.mu_scale = 0.3;
        assert!(close(tyre.evaluate(&wet).fy, -0.3 * fz, 1e-12));
        let h = 1e-8;
        let out = tyre.evaluate(&input(fz, h, 0.0));
        assert!(close(out.fx / h, out.slip_stiffness.unwrap(), 1e-6));
        let out = tyre.evaluate(&input(fz, 0.0, h));
        assert!(close(out.fy / h, out.cornering_stiffness.unwrap(), 1e-6));
        wet.mu_scale = 0.0;
        let out = tyre.evaluate(&wet);
        assert_eq!((out.fx, out.fy, out.mz), (0.0, 0.0, 0.0));
        for fz in [0.0, -1.0, f64::NAN] {
            assert_eq!(tyre.evaluate(&input(fz, 0.1, 0.1)), TireOutput::default());
        }
    }

    #[test]
    fn validation_names_the_fields() {
        assert!(BrushTire::default().check().is_ok());
        let bad = BrushTire {
            load_sensitivity: None,
            mu: 0.0,
            patch_length_m: f64::INFINITY,
            tread_stiffness_n_per_m2: -5.0,
            pressure_distribution: PressureDistribution::Uniform,
        };
        let err = bad.check().unwrap_err();
        let paths: Vec<_> = err.0.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(paths, ["mu", "patch_length_m", "tread_stiffness_n_per_m2"]);
    }

    proptest! {
        #[test]
        fn output_is_finite(
            fz in prop_oneof![Just(0.0), -1e4..1e5, 1e5..1e12],
            kappa in prop_oneof![Just(-1.0), Just(1e6), Just(-1e6), -1e7..1e7, -2.0..2.0],
            alpha in prop_oneof![Just(FRAC_PI_2), Just(-FRAC_PI_2), -10.0..10.0, -1e9..1e9],
            mu in prop_oneof![Just(0.0), Just(1e-300), 0.0..3.0, -1.0..0.0],
            parabolic in any::<bool>(),
        ) {
            let mut tyre = BrushTire::default();
            if !parabolic {
                tyre.pressure_distribution = PressureDistribution::Uniform;
            }
            let mut i = input(fz, kappa, alpha);
            i.mu_scale = mu;
            i.vx = 0.0;
            let out = tyre.evaluate(&i);
            prop_assert!(out.is_finite(), "{out:?}");
            prop_assert!(out.fx.hypot(out.fy) <= 3.0 * fz.max(0.0) * (1.0 + 1e-12));
        }

        #[test]
        fn forces_are_odd(kappa in -0.9..3.0f64, alpha in -1.5..1.5f64, parabolic in any::<bool>()) {
            let mut tyre = BrushTire::default();
            if !parabolic {
                tyre.pressure_distribution = PressureDistribution::Uniform;
            }
            let a = tyre.evaluate(&input(3000.0, kappa, alpha));
            let b = tyre.evaluate(&input(3000.0, kappa, -alpha));
            prop_assert!(close(a.fy, -b.fy, 1e-12));
            prop_assert!(close(a.mz, -b.mz, 1e-12));
            prop_assert!(close(a.fx, b.fx, 1e-12));
            // Pure longitudinal slip: Fx odd in the theoretical slip kappa / (1 + kappa).
            let k = kappa.clamp(-0.45, 0.45);
            let p = tyre.evaluate(&input(3000.0, k, 0.0));
            let q = tyre.evaluate(&input(3000.0, -k / (1.0 + 2.0 * k), 0.0));
            prop_assert!(close(p.fx, -q.fx, 1e-9));
        }
    }
}

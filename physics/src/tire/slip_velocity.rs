//! Friction curves by slip velocity, after Vehicle Physics Pro (`docs/sources.md`).
//!
//! The tyre transmits `mu(|vs|) * Fz` against the sliding velocity `vs` of the tread over the
//! road in the contact patch, where `mu` is one of the five curve shapes of [`FrictionCurve`]
//! (Flat, Linear, Smooth, Parametric, Pacejka), drawn through an adherent, a peak and a limit
//! point.
//!
//! # Sliding velocity from the ISO-W slips
//!
//! With `kappa = -(vx - omega re) / |vx|` and `tan(alpha) = vsy / |vx|` (see [`super`]), the
//! sliding velocity of the contact patch is
//!
//! ```text
//! vs = |vx| * (-kappa, tan(alpha))
//! ```
//!
//! (positive `kappa`: the tread moves backwards over the road, so the friction force points
//! forwards). The force opposes `vs`:
//!
//! ```text
//! F = -f(|vs|) * mu_scale * Fz * vs / |vs|,   i.e.  fx = +f kappa / h,  fy = -f tan(alpha) / h
//! ```
//!
//! with `h = hypot(kappa, tan(alpha))` and `f` the force coefficient below. Combined slip is the
//! friction circle of an isotropic contact: the same curve in every direction, so longitudinal
//! slip adds to `|vs|` and takes its share of the available friction from the lateral force.
//!
//! At `vx = 0` the slips carry no speed and `vs` is zero, so the output is zero; a vehicle model
//! that knows the true sliding velocity at standstill (e.g. a spinning wheel at launch) can call
//! [`SlipVelocityTire::force_from_slip_velocity`] with it directly.
//!
//! # Adherent friction and continuity through zero slip
//!
//! Vehicle Physics Pro defines the adherent friction as the friction of the *adherent state*,
//! "vehicle stopped and braked", holding for slip velocities up to the adherent point: the tread
//! sticks to the road and the contact transmits whatever force is asked of it, up to that friction.
//! A force law (no constraint solver) cannot hold a contact exactly at zero slip, and a coefficient
//! that jumped to the adherent value at the smallest slip would reverse at every 1 kHz step and
//! chatter. So the adherent region is modelled as what the sticking tread is, an elastic contact:
//! the force coefficient grows linearly from 0 at `vs = 0` to the adherent friction at the adherent
//! slip velocity, then follows the curve:
//!
//! ```text
//! f(s) = mu_a * s / s_a     for s < s_a
//! f(s) = mu(s)              for s >= s_a
//! ```
//!
//! which is continuous everywhere, keeps the adherent friction as the most the adherent contact
//! can hold (reached at the end of the region), and leaves the curve untouched beyond. The
//! slope `mu_a / s_a` is a damping-like stiffness in slip velocity; with the source's 0.5 m/s, a
//! wheel of 1 kg·m² and 0.3 m radius under 3.7 kN stays well inside the explicit-stability limit
//! of a 1 kHz step (`dt * mu_a Fz r^2 / (I s_a) = 0.6 < 2`). `Flat` has no adherent point; its
//! region ends at its peak slip velocity. For `Pacejka` it ends where `P(s) = A`.
//!
//! # Aligning moment
//!
//! `mz = -t * fy` with the pneumatic trail `t` of [`PneumaticTrail`] (brush-model shape), whose
//! full-sliding point is the curve's peak: the trail starts at `initial_trail_m` and vanishes
//! when `|vs|` reaches the peak slip velocity. The helper takes angles, so it is given the
//! sliding angle `atan(s_peak / |vx|)` and the equivalent slip angle `atan(|vs| / |vx|)`; its
//! normalised slip is then `|vs| / s_peak`, which includes longitudinal sliding (a spinning or
//! locked wheel loses its aligning moment, as a sliding patch does).
//!
//! # Stiffnesses
//!
//! At zero slip `dFx/dkappa = (mu_a / s_a) * mu_scale * Fz * |vx|` and
//! `dFy/dalpha = -` the same: in slip-velocity terms the tyre's stiffness is proportional to
//! speed, and zero at standstill.
//!
//! `mu_scale` multiplies the friction (not the slip velocities of the points).

mod curve;

pub use curve::{CurvePoint, FrictionCurve};

use serde::{Deserialize, Serialize};

use super::interface::{TireInput, TireModel, TireOutput};
use super::load_sensitivity::{LoadSensitivity, load_factor};
use super::sanitise::{effective_load, finite_or_zero, friction_scale, saturate};
use super::trail::PneumaticTrail;
use crate::validate::{Validate, Validator};

/// Tyre whose friction is a curve of the slip velocity (Vehicle Physics Pro).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SlipVelocityTire {
    /// Friction coefficient as a function of the slip velocity.
    pub curve: FrictionCurve,
    /// Pneumatic trail at zero slip (m), which falls to zero at the curve's peak.
    pub initial_trail_m: f64,
    /// Friction falling with load (`load_sensitivity`); none when omitted, as the source has
    /// it.
    #[serde(default)]
    pub load_sensitivity: Option<LoadSensitivity>,
}

impl Default for SlipVelocityTire {
    /// The source's default curve (0.95 to 0.5 m/s, 1.1 at 1.5 m/s, 0.8 from 4 m/s, Smooth) and a
    /// 25 mm initial trail (a 150 mm contact patch).
    fn default() -> Self {
        Self {
            load_sensitivity: None,
            curve: FrictionCurve::default(),
            initial_trail_m: PneumaticTrail::default().initial_trail_m,
        }
    }
}

impl SlipVelocityTire {
    /// Force `[fx, fy]` (N, ISO-W) for the sliding velocity `(vs_x, vs_y)` (m/s) of the tread
    /// over the road, at load `fz` (N) on a surface of friction scale `mu_scale`.
    ///
    /// The force opposes the sliding velocity. Use this where the sliding velocity is known
    /// directly (standstill, launch); [`TireModel::evaluate`] builds it from the slips.
    pub fn force_from_slip_velocity(
        &self,
        vs_x: f64,
        vs_y: f64,
        fz: f64,
        mu_scale: f64,
    ) -> [f64; 2] {
        let load = effective_load(fz)
            * friction_scale(mu_scale)
            * load_factor(self.load_sensitivity.as_ref(), fz);
        let (vs_x, vs_y) = (finite_or_zero(vs_x), finite_or_zero(vs_y));
        let Some((s, dir_x, dir_y)) = magnitude_and_direction(vs_x, vs_y, 1.0) else {
            return [0.0, 0.0];
        };
        let f = self.curve.force_coefficient(s) * load;
        [saturate(-f * dir_x), saturate(-f * dir_y)]
    }
}

/// `|scale * (x, y)|` and the unit vector of `(x, y)`, without overflow in the intermediate
/// squares; `None` when the vector or the scale is zero.
#[inline]
fn magnitude_and_direction(x: f64, y: f64, scale: f64) -> Option<(f64, f64, f64)> {
    let largest = x.abs().max(y.abs());
    if largest.is_nan() || largest <= 0.0 || scale.is_nan() || scale <= 0.0 {
        return None;
    }
    let (ux, uy) = (x / largest, y / largest);
    let norm = ux.hypot(uy);
    Some((scale * largest * norm, ux / norm, uy / norm))
}

impl TireModel for SlipVelocityTire {
    fn evaluate(&self, input: &TireInput) -> TireOutput {
        let fz = effective_load(input.fz);
        if fz == 0.0 {
            return TireOutput::default();
        }
        let load =
            fz * friction_scale(input.mu_scale) * load_factor(self.load_sensitivity.as_ref(), fz);
        let speed = finite_or_zero(input.vx).abs();
        let stiffness = saturate(self.curve.adherent_slope() * load * speed);
        let mut out = TireOutput {
            slip_stiffness: Some(stiffness),
            cornering_stiffness: Some(-stiffness),
            ..TireOutput::default()
        };
        // Sliding velocity |vx| * (-kappa, tan(alpha)).
        let kappa = finite_or_zero(input.kappa);
        let tan_alpha = finite_or_zero(input.alpha.tan());
        let Some((slip_velocity, dir_x, dir_y)) = magnitude_and_direction(-kappa, tan_alpha, speed)
        else {
            return out;
        };
        let f = self.curve.force_coefficient(slip_velocity) * load;
        out.fx = saturate(-f * dir_x);
        out.fy = saturate(-f * dir_y);

        let trail = PneumaticTrail {
            initial_trail_m: self.initial_trail_m,
            sliding_slip_angle_rad: (self.curve.peak_slip_velocity() / speed).atan(),
        };
        let equivalent_alpha = (slip_velocity / speed).atan();
        out.mz = saturate(-trail.trail(equivalent_alpha) * out.fy);
        out
    }
}

impl Validate for SlipVelocityTire {
    fn validate(&self, v: &mut Validator) {
        if let Some(law) = &self.load_sensitivity {
            v.nested("load_sensitivity", law);
        }
        v.nested("curve", &self.curve);
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

    fn curves() -> Vec<FrictionCurve> {
        let adherent = CurvePoint::new(0.5, 0.95);
        let peak = CurvePoint::new(1.5, 1.1);
        let limit = CurvePoint::new(4.0, 0.8);
        vec![
            FrictionCurve::Flat { peak },
            FrictionCurve::Linear {
                adherent,
                peak,
                limit,
            },
            FrictionCurve::default(),
            FrictionCurve::Parametric {
                adherent: CurvePoint::new(0.3, 1.0),
                peak: CurvePoint::new(0.6, 1.1),
                limit: CurvePoint::new(1.5, 0.6),
                a: 0.9,
                b: 1.0,
                c: 1.0,
                d: 0.0,
            },
            FrictionCurve::Pacejka {
                a_adherent: 0.95,
                b_stiffness_s_per_m: 0.8,
                c_shape: 1.5,
                d_peak: 1.1,
                e_curvature: -2.0,
            },
        ]
    }

    fn tyres() -> Vec<SlipVelocityTire> {
        curves()
            .into_iter()
            .map(|curve| SlipVelocityTire {
                curve,
                ..SlipVelocityTire::default()
            })
            .collect()
    }

    /// Input with a longitudinal slip velocity of `vs` m/s at 20 m/s (braking for vs > 0).
    fn braking(vs: f64) -> TireInput {
        TireInput::rolling(FZ, 20.0).with_kappa(-vs / 20.0)
    }

    #[test]
    fn defaults_validate() {
        assert!(SlipVelocityTire::default().check().is_ok());
        for t in tyres() {
            assert!(t.check().is_ok(), "{t:?}");
        }
    }

    #[test]
    fn seed_default_curve_as_forces() {
        let t = SlipVelocityTire::default();
        // Adherent region: elastic build-up to 0.95 at 0.5 m/s.
        let fx = t.evaluate(&braking(0.25)).fx;
        assert!(close(fx, -0.95 * 0.5 * FZ, 1e-9), "{fx}");
        assert!(close(t.evaluate(&braking(0.5)).fx, -0.95 * FZ, 1e-9));
        // Smooth rise to 1.1 at 1.5 m/s (1.025 half-way), fall to 0.8 at 4 m/s, constant beyond.
        assert!(close(t.evaluate(&braking(1.0)).fx, -1.025 * FZ, 1e-9));
        assert!(close(t.evaluate(&braking(1.5)).fx, -1.1 * FZ, 1e-9));
        assert!(close(t.evaluate(&braking(4.0)).fx, -0.8 * FZ, 1e-9));
        assert!(close(t.evaluate(&braking(20.0)).fx, -0.8 * FZ, 1e-9));
        // Locked wheel: kappa = -1 slides at the full 20 m/s.
        let locked = t.evaluate(&TireInput::rolling(FZ, 20.0).with_kappa(-1.0));
        assert!(close(locked.fx, -0.8 * FZ, 1e-9));
    }

    #[test]
    fn iso_signs() {
        for t in tyres() {
            let drive = t.evaluate(&TireInput::rolling(FZ, 15.0).with_kappa(0.05));
            assert!(drive.fx > 0.0 && drive.fy == 0.0);
            let brake = t.evaluate(&TireInput::rolling(FZ, 15.0).with_kappa(-0.05));
            assert!(brake.fx < 0.0);
            // Right-hand turn: positive alpha, force to the right, self-aligning moment.
            let right = t.evaluate(&TireInput::rolling(FZ, 15.0).with_alpha(0.02));
            assert!(
                right.fy < 0.0 && right.mz > 0.0 && right.fx == 0.0,
                "{t:?}: {right:?}"
            );
            let left = t.evaluate(&TireInput::rolling(FZ, 15.0).with_alpha(-0.02));
            assert!(left.fy > 0.0 && left.mz < 0.0);
        }
    }

    #[test]
    fn continuous_through_zero_slip() {
        for t in tyres() {
            let at = |kappa: f64| {
                t.evaluate(&TireInput::rolling(FZ, 20.0).with_kappa(kappa))
                    .fx
            };
            assert_eq!(at(0.0), 0.0);
            let k = t.curve.adherent_slope() * FZ * 20.0;
            for kappa in [1e-12, 1e-9, 1e-6, 1e-4] {
                assert!(close(at(kappa), k * kappa, 1e-9 * k), "{t:?} at {kappa}");
                assert!(close(at(-kappa), -k * kappa, 1e-9 * k));
            }
        }
    }

    #[test]
    fn stiffness_matches_the_slope_at_zero() {
        for t in tyres() {
            let base = TireInput::rolling(FZ, 25.0);
            let out = t.evaluate(&base);
            let h = 1e-7;
            let kx = t.evaluate(&base.with_kappa(h)).fx / h;
            let ky = t.evaluate(&base.with_alpha(h)).fy / h;
            let slip = out.slip_stiffness.unwrap_or(f64::NAN);
            let corner = out.cornering_stiffness.unwrap_or(f64::NAN);
            assert!(close(slip, kx, 1e-5 * kx.abs()), "{slip} vs {kx}");
            assert!(close(corner, ky, 1e-5 * ky.abs()) && corner < 0.0);
        }
    }

    #[test]
    fn large_slip_gives_limit_friction_in_every_direction() {
        for t in tyres() {
            let limit = t.curve.limit_friction() * FZ;
            let pacejka = matches!(t.curve, FrictionCurve::Pacejka { .. });
            for (kappa, alpha) in [
                (-1.0, 0.0),
                (5.0, 0.0),
                (0.0, 1.2),
                (-0.7, -0.9),
                (1e6, 0.3),
            ] {
                let input = TireInput::rolling(FZ, 30.0)
                    .with_kappa(kappa)
                    .with_alpha(alpha);
                let out = t.evaluate(&input);
                let magnitude = out.fx.hypot(out.fy);
                let slip_velocity = 30.0 * kappa.hypot(alpha.tan());
                let on_curve = t.curve.friction(slip_velocity) * FZ;
                assert!(
                    close(magnitude, on_curve, 1e-9 * on_curve),
                    "{t:?} {kappa} {alpha}"
                );
                // The Pacejka curve only tends to its limit; the others hold it from s_l on.
                if !pacejka || kappa > 1e3 {
                    assert!(
                        close(magnitude, limit, 1e-6 * limit),
                        "{t:?} {kappa} {alpha}"
                    );
                }
            }
        }
    }

    #[test]
    fn longitudinal_slip_reduces_lateral_force() {
        for t in tyres() {
            // Lateral sliding at the peak slip velocity, then add braking.
            let speed = 20.0;
            let alpha = (t.curve.peak_slip_velocity() / speed).atan();
            let base = TireInput::rolling(FZ, speed).with_alpha(alpha);
            let mut last = t.evaluate(&base).fy.abs();
            for kappa in [0.02, 0.05, 0.1, 0.3, 1.0] {
                let now = t.evaluate(&base.with_kappa(-kappa)).fy.abs();
                assert!(now < last, "{t:?} at kappa {kappa}");
                last = now;
            }
        }
    }

    #[test]
    fn aligning_moment_vanishes_at_the_peak() {
        let t = SlipVelocityTire::default();
        let speed = 20.0;
        let small = t.evaluate(&TireInput::rolling(FZ, speed).with_alpha(1e-6));
        assert!(close(small.mz, -0.025 * small.fy, 1e-4 * small.mz.abs()));
        let alpha_peak = (1.5f64 / speed).atan();
        let at_peak = t.evaluate(&TireInput::rolling(FZ, speed).with_alpha(alpha_peak * 1.0001));
        assert_eq!(at_peak.mz, 0.0);
        // A locked wheel slides: no aligning moment even at a small slip angle.
        let locked = t.evaluate(
            &TireInput::rolling(FZ, speed)
                .with_alpha(0.01)
                .with_kappa(-1.0),
        );
        assert_eq!(locked.mz, 0.0);
    }

    #[test]
    fn degenerate_inputs() {
        let t = SlipVelocityTire::default();
        for fz in [0.0, -100.0, f64::NAN, f64::NEG_INFINITY] {
            let out = t.evaluate(&TireInput::rolling(fz, 10.0).with_kappa(0.1).with_alpha(0.1));
            assert_eq!(out, TireOutput::default());
        }
        // Standstill: zero sliding velocity, finite (zero) output.
        let out = t.evaluate(&TireInput::rolling(FZ, 0.0).with_kappa(-1.0).with_alpha(0.3));
        assert!(out.is_finite() && out.fx == 0.0 && out.fy == 0.0 && out.mz == 0.0);
        // mu_scale scales the force.
        let dry = t.evaluate(&braking(3.0));
        let mut wet_input = braking(3.0);
        wet_input.mu_scale = 0.3;
        assert!(close(t.evaluate(&wet_input).fx, 0.3 * dry.fx, 1e-9));
        wet_input.mu_scale = f64::NAN;
        assert_eq!(t.evaluate(&wet_input).fx, 0.0);
        // Huge loads saturate rather than overflow.
        let huge = t.evaluate(
            &TireInput::rolling(f64::MAX, 1e300)
                .with_kappa(1e6)
                .with_alpha(1.5),
        );
        assert!(huge.is_finite());
    }

    #[test]
    fn direct_slip_velocity_force() {
        let t = SlipVelocityTire::default();
        // Sliding straight ahead at 10 m/s on a locked wheel at standstill-like conditions.
        let [fx, fy] = t.force_from_slip_velocity(10.0, 0.0, FZ, 1.0);
        assert!(close(fx, -0.8 * FZ, 1e-9) && fy == 0.0);
        let [fx, fy] = t.force_from_slip_velocity(0.0, -0.25, FZ, 1.0);
        assert!(fx == 0.0 && close(fy, 0.95 * 0.5 * FZ, 1e-9));
        assert_eq!(t.force_from_slip_velocity(0.0, 0.0, FZ, 1.0), [0.0, 0.0]);
        assert_eq!(
            t.force_from_slip_velocity(f64::NAN, 0.0, FZ, 1.0),
            [0.0, 0.0]
        );
    }

    #[test]
    fn validation_paths() {
        let t = SlipVelocityTire {
            load_sensitivity: None,
            curve: FrictionCurve::Linear {
                adherent: CurvePoint::new(-0.5, 0.95),
                peak: CurvePoint::new(1.5, 1.1),
                limit: CurvePoint::new(4.0, 0.8),
            },
            initial_trail_m: f64::NAN,
        };
        let mut v = Validator::with_root("model");
        t.validate(&mut v);
        let text = v.finish().unwrap_err().to_string();
        assert!(
            text.contains("model.curve.adherent.slip_velocity_m_s must be finite and positive")
        );
        assert!(text.contains("model.initial_trail_m must be finite and not negative"));
    }

    fn any_tyre() -> impl Strategy<Value = SlipVelocityTire> {
        (0..5usize).prop_map(|i| tyres().swap_remove(i))
    }

    proptest! {
        #[test]
        fn finite_for_every_finite_input(
            tyre in any_tyre(),
            fz in -1e7f64..1e7,
            kappa in prop_oneof![-2.0f64..2.0, -1e6f64..1e6],
            alpha in prop_oneof![-1.6f64..1.6, -10.0f64..10.0],
            vx in prop_oneof![-1.0f64..1.0, -150.0f64..150.0, Just(0.0)],
            mu_scale in 0.0f64..2.0,
        ) {
            let mut input = TireInput::rolling(fz, vx).with_kappa(kappa).with_alpha(alpha);
            input.mu_scale = mu_scale;
            let out = tyre.evaluate(&input);
            prop_assert!(out.is_finite(), "{:?} -> {:?}", input, out);
            let bound = tyre.curve.adherent_friction().max(1.1) * fz.max(0.0) * mu_scale * (1.0 + 1e-12);
            prop_assert!(out.fx.hypot(out.fy) <= bound + 1e-9);
        }

        #[test]
        fn odd_symmetry(
            tyre in any_tyre(),
            kappa in -1.5f64..1.5,
            alpha in -1.5f64..1.5,
            vx in 0.1f64..80.0,
        ) {
            let base = TireInput::rolling(FZ, vx);
            let p = tyre.evaluate(&base.with_kappa(kappa).with_alpha(alpha));
            let k = tyre.evaluate(&base.with_kappa(-kappa).with_alpha(alpha));
            let a = tyre.evaluate(&base.with_kappa(kappa).with_alpha(-alpha));
            prop_assert!(close(k.fx, -p.fx, 1e-9 * FZ) && close(k.fy, p.fy, 1e-9 * FZ));
            prop_assert!(close(a.fy, -p.fy, 1e-9 * FZ) && close(a.fx, p.fx, 1e-9 * FZ));
            prop_assert!(close(a.mz, -p.mz, 1e-9 * FZ));
        }
    }
}

//! Simplified Pacejka tyre: one four-coefficient Magic Formula curve per direction (Wolfe, workshop
//! III, `docs/sources.md`).
//!
//! # Pure slip
//!
//! Each direction uses the curve
//!
//! ```text
//! F(s) = mu_scale * D * Fz * sin(C * atan(B s' - E (B s' - atan(B s'))))   with s' = s / mu_scale
//! ```
//!
//! with `s = kappa` (slip ratio) for `fx` and `s = alpha` (slip angle in radians, as workshop III
//! measures it) for `fy`, which gets the ISO-W sign `fy = -F(alpha)`. `D` is a friction
//! coefficient (peak force over load), so `D * Fz` is the peak force on the reference surface.
//!
//! The road's friction scale multiplies the peak and divides the slip, so that the stiffness at
//! zero slip, `B C D Fz`, does not depend on the road and the peak moves to smaller slips on
//! slippery roads, as brush theory predicts (the way Magic Formula's `lambda_mu` acts).
//!
//! For `1 < C <= 2` and `E <= 1` the curve peaks where the arctangent's argument reaches
//! `tan(pi / (2C))`: at `B s_peak = tan(pi / (2C))` when `E = 0` (peak value exactly `D Fz`),
//! otherwise at the root of `(1 - E) u + E atan(u) = tan(pi / (2C))`, found by a bounded,
//! safeguarded Newton iteration ([`PacejkaCoefficients::peak_slip`]).
//!
//! # Combined slip: normalised slip vector
//!
//! Each slip is divided by the slip at which its own curve peaks (both scaled by the road
//! friction): `sx = kappa / kappa_peak`, `sy = alpha / alpha_peak`, `rho = |(sx, sy)|`. Each
//! force is its pure-slip curve evaluated at the combined slip `rho` times its own peak slip,
//! and takes the share `component / rho` of it:
//!
//! ```text
//! fx =  Fx_pure(rho * kappa_peak) * sx / rho
//! fy = -Fy_pure(rho * alpha_peak) * sy / rho
//! ```
//!
//! This reduces exactly to the pure curves when the other slip is zero, is continuous at zero
//! slip (`F(rho p) / rho` tends to the stiffness), and both forces reach their peaks together
//! when `rho = 1`, so the force vector stays on a friction ellipse with semi-axes `Dx Fz` and
//! `Dy Fz` (exactly when the two curves have the same shape): lateral force falls as slip ratio
//! grows, and the other way round.
//!
//! # Aligning moment: pneumatic trail
//!
//! The model has no Mz theory, so `mz = -t * fy` with the trail `t` of
//! [`PneumaticTrail`] (brush-model trail, falling from
//! `initial_trail_m` to zero when the patch slides). The sliding slip angle defaults to the
//! lateral peak slip angle; it is scaled with the road friction like the peak. Under combined
//! slip the trail is evaluated at the equivalent slip angle `rho * alpha_peak`, so braking or
//! driving hard also shortens the trail.
//!
//! Camber and inflation pressure are not part of this model; `gamma` and `pressure` are ignored.

use std::f64::consts::{FRAC_PI_2, PI};

use serde::{Deserialize, Serialize};

use super::interface::{TireInput, TireModel, TireOutput};
use super::load_sensitivity::{LoadSensitivity, load_factor};
use super::sanitise::{effective_load, friction_scale};
use super::trail::PneumaticTrail;
use crate::validate::{Validate, Validator};

/// Largest magnitude of a slip (and of the curve's argument `B s`) the model evaluates; larger
/// slips are clamped, which changes nothing since the curve is flat there.
const SLIP_LIMIT: f64 = 1e9;

/// Road friction scales below this count as no friction at all (forces below a millionth of
/// the peak).
const MIN_FRICTION_SCALE: f64 = 1e-6;

/// The four coefficients of one Magic Formula curve `D sin(C atan(B s - E (B s - atan(B s))))`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PacejkaCoefficients {
    /// Stiffness factor `B` (per unit of slip: per radian laterally, per unit slip ratio
    /// longitudinally).
    pub b: f64,
    /// Shape factor `C`, between 1 (exclusive) and 2: 1.35 lateral, 1.65 longitudinal are usual.
    pub c: f64,
    /// Peak factor `D` as a friction coefficient: the peak force is `D * Fz` (-).
    pub d: f64,
    /// Curvature factor `E` (-), at most 1; 0 gives a symmetric peak, negative values a
    /// sharper peak and a lower tail.
    pub e: f64,
}

impl PacejkaCoefficients {
    /// The curve per unit load and peak, `sin(C atan(u - E (u - atan u)))`, at argument `u = B s`.
    #[inline]
    fn shape(&self, u: f64) -> f64 {
        (self.c * ((1.0 - self.e) * u + self.e * u.atan()).atan()).sin()
    }

    /// Force (N) at slip `s` under load `fz` (N) on the reference surface: `D Fz shape(B s)`.
    #[inline]
    pub fn force(&self, s: f64, fz: f64) -> f64 {
        self.d * fz * self.shape(self.b * s.clamp(-SLIP_LIMIT, SLIP_LIMIT))
    }

    /// Slope of the curve at zero slip per unit load, `B C D` (per unit of slip).
    #[inline]
    pub fn stiffness_per_load(&self) -> f64 {
        self.b * self.c * self.d
    }

    /// Argument `u = B s` at the peak: the root of `(1 - E) u + E atan(u) = tan(pi / (2C))`.
    ///
    /// The left side is increasing for `E <= 1`, so the root is unique; a Newton iteration
    /// safeguarded by bisection finds it in a handful of steps (at most 60, deterministic).
    /// Where no peak exists (`C <= 1`, or `E = 1` with a target above `pi/2`) it returns
    /// [`SLIP_LIMIT`].
    fn peak_argument(&self) -> f64 {
        let (c, e) = (self.c, self.e);
        if c.is_nan() || c <= 1.0 {
            return SLIP_LIMIT;
        }
        let target = (PI / (2.0 * c.min(2.0))).tan();
        if e == 0.0 {
            return target.min(SLIP_LIMIT);
        }
        let phi = |u: f64| (1.0 - e) * u + e * u.atan();
        // Bracket: phi(0) = 0 < target; phi(u) >= (1 - E) u - max(-E, 0) pi/2.
        let mut lo = 0.0_f64;
        let mut hi = if e < 1.0 {
            ((target + (-e).max(0.0) * FRAC_PI_2) / (1.0 - e)).min(SLIP_LIMIT)
        } else {
            SLIP_LIMIT
        };
        if phi(hi) < target {
            return SLIP_LIMIT;
        }
        let mut u = target.clamp(lo, hi);
        for _ in 0..60 {
            let residual = phi(u) - target;
            let step = residual / ((1.0 - e) + e / (1.0 + u * u));
            if step.abs() <= 1e-15 * u.max(1.0) {
                return u - step;
            }
            if residual > 0.0 {
                hi = u;
            } else {
                lo = u;
            }
            let next = u - step;
            u = if next > lo && next < hi {
                next
            } else {
                0.5 * (lo + hi)
            };
        }
        u
    }

    /// Slip at which the curve peaks on the reference surface (`tan(pi / (2C)) / B` when
    /// `E = 0`); very large where the curve has no peak.
    pub fn peak_slip(&self) -> f64 {
        self.peak_argument() / self.b
    }
}

impl Validate for PacejkaCoefficients {
    fn validate(&self, v: &mut Validator) {
        v.positive("b", self.b);
        v.require(
            self.c.is_finite() && self.c > 1.0 && self.c <= 2.0,
            "c",
            "must be greater than 1 and at most 2",
        );
        v.positive("d", self.d);
        v.require(
            self.e.is_finite() && self.e <= 1.0,
            "e",
            "must be finite and at most 1",
        );
    }
}

/// Simplified Pacejka tyre (Wolfe, workshop III): separate B, C, D, E curves for lateral and
/// longitudinal force, combined by the normalised slip vector, aligning moment from a pneumatic
/// trail.
///
/// See the [module documentation](self) for the equations.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimplifiedPacejka {
    /// Lateral curve, slip = slip angle in radians.
    pub lateral: PacejkaCoefficients,
    /// Longitudinal curve, slip = slip ratio.
    pub longitudinal: PacejkaCoefficients,
    /// Pneumatic trail at zero slip angle (m), about a sixth of the contact-patch length.
    pub initial_trail_m: f64,
    /// Slip angle (rad) at which the trail reaches zero on the reference surface; `None` (the
    /// default) uses the lateral peak slip angle.
    #[serde(default)]
    pub sliding_slip_angle_rad: Option<f64>,
    /// Friction falling with load (`load_sensitivity`); none when omitted, as the source has
    /// it.
    #[serde(default)]
    pub load_sensitivity: Option<LoadSensitivity>,
    /// How the load factor acts. `false` (the default): as the road's friction does, scaling
    /// the peak and the slip at the peak, so the stiffness at zero slip does not change.
    /// `true`: TORCS's law (`simuv2/wheel.cpp`, which multiplies the whole curve by it): the
    /// force at every slip, the stiffness included, scales with the load factor and the peak
    /// stays at its slip. The road's friction acts as it does by default either way.
    #[serde(default)]
    pub load_factor_scales_stiffness: bool,
}

impl Default for SimplifiedPacejka {
    /// Workshop III's example: `B = 10`, `D = 1`, `E = 0`, `C = 1.35` lateral and `1.65`
    /// longitudinal; a 25 mm initial trail that vanishes at the lateral peak.
    fn default() -> Self {
        Self {
            load_sensitivity: None,
            lateral: PacejkaCoefficients {
                b: 10.0,
                c: 1.35,
                d: 1.0,
                e: 0.0,
            },
            longitudinal: PacejkaCoefficients {
                b: 10.0,
                c: 1.65,
                d: 1.0,
                e: 0.0,
            },
            initial_trail_m: 0.025,
            sliding_slip_angle_rad: None,
            load_factor_scales_stiffness: false,
        }
    }
}

impl SimplifiedPacejka {
    /// Slip angle (rad) at which the trail vanishes on the reference surface.
    pub fn sliding_slip_angle(&self) -> f64 {
        self.sliding_slip_angle_rad
            .unwrap_or_else(|| self.lateral.peak_slip())
            .clamp(1e-6, FRAC_PI_2 - 1e-3)
    }
}

impl TireModel for SimplifiedPacejka {
    fn evaluate(&self, input: &TireInput) -> TireOutput {
        let fz = effective_load(input.fz);
        if fz == 0.0 {
            return TireOutput::default();
        }
        let scale =
            friction_scale(input.mu_scale) * load_factor(self.load_sensitivity.as_ref(), input.fz);
        // The factor on the slips: the whole scale, or only the road's under TORCS's law.
        let (slip_scale, stiffness_scale) = if self.load_factor_scales_stiffness {
            let road = friction_scale(input.mu_scale);
            (road, if road > 0.0 { scale / road } else { 1.0 })
        } else {
            (scale, 1.0)
        };
        let mut out = TireOutput {
            slip_stiffness: Some(self.longitudinal.stiffness_per_load() * fz * stiffness_scale),
            cornering_stiffness: Some(-self.lateral.stiffness_per_load() * fz * stiffness_scale),
            ..TireOutput::default()
        };
        if scale < MIN_FRICTION_SCALE {
            return out;
        }
        let kappa = if input.kappa.is_finite() {
            input.kappa.clamp(-SLIP_LIMIT, SLIP_LIMIT)
        } else {
            0.0
        };
        let alpha = if input.alpha.is_finite() {
            input.alpha.clamp(-SLIP_LIMIT, SLIP_LIMIT)
        } else {
            0.0
        };

        // Peak arguments u = B s at the peak; slips normalised by the (friction-scaled) peak slip.
        let ux = self.longitudinal.peak_argument();
        let uy = self.lateral.peak_argument();
        let sx = kappa * self.longitudinal.b / (ux * slip_scale);
        let sy = alpha * self.lateral.b / (uy * slip_scale);
        let rho = sx.hypot(sy);
        if rho.is_nan() || rho <= 0.0 {
            return out;
        }
        let rho_eval = rho.min(SLIP_LIMIT);
        let fx_mag = scale * self.longitudinal.d * fz * self.longitudinal.shape(rho_eval * ux);
        let fy_mag = scale * self.lateral.d * fz * self.lateral.shape(rho_eval * uy);
        out.fx = fx_mag * (sx / rho);
        out.fy = -fy_mag * (sy / rho);

        // Trail at the equivalent slip angle, with the sliding angle scaled by the friction.
        let alpha_peak = uy / self.lateral.b * slip_scale;
        let alpha_equivalent = (rho_eval * alpha_peak).min(FRAC_PI_2);
        let trail = PneumaticTrail {
            initial_trail_m: self.initial_trail_m,
            sliding_slip_angle_rad: (self.sliding_slip_angle().tan() * slip_scale).atan(),
        };
        out.mz = trail.aligning_moment(out.fy, alpha_equivalent);
        out
    }
}

impl Validate for SimplifiedPacejka {
    fn validate(&self, v: &mut Validator) {
        v.nested("lateral", &self.lateral);
        v.nested("longitudinal", &self.longitudinal);
        v.non_negative("initial_trail_m", self.initial_trail_m);
        if let Some(angle) = self.sliding_slip_angle_rad {
            v.in_range("sliding_slip_angle_rad", angle, 1e-3, FRAC_PI_2 - 1e-3);
        }
        if let Some(law) = &self.load_sensitivity {
            v.nested("load_sensitivity", law);
        }
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn input(fz: f64, kappa: f64, alpha: f64) -> TireInput {
        TireInput::rolling(fz, 20.0)
            .with_kappa(kappa)
            .with_alpha(alpha)
    }

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol * a.abs().max(b.abs()).max(1.0)
    }

    /// TORCS's load law multiplies the whole curve: at any slip the force is the factor times
    /// the curve at that slip (so the stiffness scales too), while the default law keeps the
    /// stiffness and moves the peak slip; the road's friction acts the default way in both.
    #[test]
    fn torcs_load_law_scales_the_force_at_every_slip() {
        let law = LoadSensitivity {
            max_factor: 1.6,
            min_factor: 0.8,
            reference_load_n: 4000.0,
        };
        let default_law = SimplifiedPacejka {
            load_sensitivity: Some(law),
            ..SimplifiedPacejka::default()
        };
        let torcs = SimplifiedPacejka {
            load_factor_scales_stiffness: true,
            ..default_law.clone()
        };
        let plain = SimplifiedPacejka::default();
        for fz in [1500.0, 4000.0, 9000.0] {
            let factor = law.factor(fz);
            for kappa in [0.01, 0.05, 0.1, 0.3] {
                let want = factor * plain.evaluate(&input(fz, kappa, 0.0)).fx;
                let got = torcs.evaluate(&input(fz, kappa, 0.0)).fx;
                assert!(
                    close(got, want, 1e-12),
                    "{fz} N, {kappa}: {got} against {want}"
                );
            }
            let stiffness = torcs.evaluate(&input(fz, 0.0, 0.001)).cornering_stiffness;
            let want = -factor * plain.lateral.stiffness_per_load() * fz;
            assert!(close(stiffness.unwrap(), want, 1e-12));
            // The default law leaves the stiffness alone.
            let own = default_law
                .evaluate(&input(fz, 0.0, 0.001))
                .cornering_stiffness;
            assert!(close(
                own.unwrap(),
                -plain.lateral.stiffness_per_load() * fz,
                1e-12
            ));
        }
        // On a road of half the friction the peak moves to half the slip under either law.
        let half = |t: &SimplifiedPacejka, kappa: f64| {
            t.evaluate(&TireInput {
                mu_scale: 0.5,
                ..input(4000.0, kappa, 0.0)
            })
            .fx
        };
        let peak = torcs.longitudinal.peak_slip();
        assert!(half(&torcs, 0.5 * peak) > half(&torcs, 0.4 * peak));
        assert!(half(&torcs, 0.5 * peak) > half(&torcs, 0.6 * peak));
    }

    #[test]
    fn signs_follow_iso_w() {
        let t = SimplifiedPacejka::default();
        let drive = t.evaluate(&input(4000.0, 0.05, 0.0));
        assert!(drive.fx > 0.0);
        let brake = t.evaluate(&input(4000.0, -0.05, 0.0));
        assert!(brake.fx < 0.0);
        let turn = t.evaluate(&input(4000.0, 0.0, 0.03));
        assert!(turn.fy < 0.0);
        assert!(turn.mz > 0.0);
        assert!(turn.cornering_stiffness.unwrap() < 0.0);
        assert!(turn.slip_stiffness.unwrap() > 0.0);
    }

    #[test]
    fn pure_slip_matches_the_curve_and_its_peak() {
        let t = SimplifiedPacejka::default();
        let fz = 3500.0;
        // E = 0: peak D Fz at B s = tan(pi / (2C)).
        let kappa_peak = (PI / (2.0 * 1.65)).tan() / 10.0;
        assert!(close(t.longitudinal.peak_slip(), kappa_peak, 1e-14));
        let at_peak = t.evaluate(&input(fz, kappa_peak, 0.0));
        assert!(close(at_peak.fx, fz, 1e-12));
        let alpha_peak = (PI / (2.0 * 1.35)).tan() / 10.0;
        let at_peak = t.evaluate(&input(fz, 0.0, alpha_peak));
        assert!(close(at_peak.fy, -fz, 1e-12));
        // Off the peak the force is lower, and equals the closed form.
        for s in [0.01, 0.05, 0.3, 1.0, 5.0] {
            let out = t.evaluate(&input(fz, s, 0.0));
            let expect = fz * (1.65 * (10.0 * s).atan()).sin();
            assert!(close(out.fx, expect, 1e-12), "{s}: {} vs {expect}", out.fx);
            assert!(out.fx <= fz * (1.0 + 1e-12));
            let out = t.evaluate(&input(fz, 0.0, s));
            let expect = -fz * (1.35 * (10.0 * s).atan()).sin();
            assert!(close(out.fy, expect, 1e-12));
        }
        // Large-slip limit: sin(C pi / 2) D Fz.
        let locked = t.evaluate(&input(fz, -1e6, 0.0));
        assert!(close(locked.fx, -fz * (1.65 * FRAC_PI_2).sin(), 1e-6));
    }

    #[test]
    fn peak_with_curvature_solves_the_peak_condition() {
        for e in [-3.0, -1.0, -0.2, 0.3, 0.9, 1.0] {
            let curve = PacejkaCoefficients {
                b: 8.0,
                c: 1.9,
                d: 1.1,
                e,
            };
            let s = curve.peak_slip();
            let u = curve.b * s;
            let arg = (1.0 - e) * u + e * u.atan();
            assert!(close(arg, (PI / 3.8).tan(), 1e-12), "e = {e}");
            // The force there is D Fz, and neighbours are lower.
            assert!(close(curve.force(s, 1000.0), 1100.0, 1e-12));
            assert!(curve.force(s * 0.9, 1000.0) < 1100.0);
            assert!(curve.force(s * 1.1, 1000.0) < 1100.0);
        }
    }

    #[test]
    fn stiffness_is_bcd_fz_and_matches_a_finite_difference() {
        let t = SimplifiedPacejka::default();
        let fz = 4000.0;
        let out = t.evaluate(&input(fz, 0.0, 0.0));
        assert!(close(out.slip_stiffness.unwrap(), 10.0 * 1.65 * fz, 1e-15));
        assert!(close(
            out.cornering_stiffness.unwrap(),
            -10.0 * 1.35 * fz,
            1e-15
        ));
        let h = 1e-7;
        let dfx = t.evaluate(&input(fz, h, 0.0)).fx / h;
        assert!(close(dfx, out.slip_stiffness.unwrap(), 1e-6));
        let dfy = t.evaluate(&input(fz, 0.0, h)).fy / h;
        assert!(close(dfy, out.cornering_stiffness.unwrap(), 1e-6));
    }

    #[test]
    fn friction_scale_scales_peak_and_keeps_stiffness() {
        let t = SimplifiedPacejka::default();
        let fz = 4000.0;
        let wet = |k: f64, a: f64| {
            let mut i = input(fz, k, a);
            i.mu_scale = 0.4;
            t.evaluate(&i)
        };
        let kappa_peak = t.longitudinal.peak_slip() * 0.4;
        assert!(close(wet(kappa_peak, 0.0).fx, 0.4 * fz, 1e-12));
        let h = 1e-8;
        assert!(close(wet(h, 0.0).fx / h, 16.5 * fz, 1e-5));
        // Peak is the maximum over slip.
        let max = (1..2000)
            .map(|i| wet(f64::from(i) * 1e-3, 0.0).fx)
            .fold(0.0, f64::max);
        assert!(max <= 0.4 * fz * (1.0 + 1e-12));
        // No friction, no force.
        let mut i = input(fz, 0.1, 0.1);
        i.mu_scale = 0.0;
        let out = t.evaluate(&i);
        assert_eq!((out.fx, out.fy, out.mz), (0.0, 0.0, 0.0));
    }

    #[test]
    fn combined_slip_stays_on_the_friction_ellipse() {
        let t = SimplifiedPacejka::default();
        let fz = 4000.0;
        let alpha = 0.05;
        let pure = t.evaluate(&input(fz, 0.0, alpha)).fy;
        let mut last = pure.abs();
        for i in 1..=40 {
            let kappa = f64::from(i) * 0.01;
            let out = t.evaluate(&input(fz, kappa, alpha));
            assert!(out.fy.abs() < last, "fy must fall as kappa grows");
            last = out.fy.abs();
            // Resultant within the ellipse of semi-axes Dx Fz, Dy Fz.
            let e = (out.fx / fz).powi(2) + (out.fy / fz).powi(2);
            assert!(e <= 1.0 + 1e-12);
        }
        // Both at their peak slip together: rho = sqrt(2) along the diagonal.
        let (kp, ap) = (t.longitudinal.peak_slip(), t.lateral.peak_slip());
        let out = t.evaluate(&input(fz, kp, ap));
        let r = 2f64.sqrt();
        let expect_fx = fz * t.longitudinal.shape(r * 10.0 * kp) / r;
        let expect_fy = -fz * t.lateral.shape(r * 10.0 * ap) / r;
        assert!(close(out.fx, expect_fx, 1e-12));
        assert!(close(out.fy, expect_fy, 1e-12));
        // Continuous at zero: tiny combined slips give tiny forces, linear in slip.
        let out = t.evaluate(&input(fz, 1e-12, 1e-12));
        assert!(close(out.fx, 16.5 * fz * 1e-12, 1e-6));
        assert!(close(out.fy, -13.5 * fz * 1e-12, 1e-6));
    }

    #[test]
    fn aligning_moment_uses_the_trail_and_vanishes_when_sliding() {
        let t = SimplifiedPacejka::default();
        let fz = 4000.0;
        let small = t.evaluate(&input(fz, 0.0, 1e-4));
        assert!(close(small.mz, -0.025 * small.fy, 1e-3));
        let past_peak = t.evaluate(&input(fz, 0.0, t.lateral.peak_slip() * 1.01));
        assert_eq!(past_peak.mz, 0.0);
        // Mz peaks before Fy does.
        let mz_peak_alpha = (1..300)
            .map(|i| f64::from(i) * 1e-3)
            .max_by(|a, b| {
                let ma = t.evaluate(&input(fz, 0.0, *a)).mz;
                let mb = t.evaluate(&input(fz, 0.0, *b)).mz;
                ma.total_cmp(&mb)
            })
            .unwrap();
        assert!(mz_peak_alpha < t.lateral.peak_slip());
        // Braking shortens the trail.
        let braking = t.evaluate(&input(fz, -0.05, 0.05));
        let free = t.evaluate(&input(fz, 0.0, 0.05));
        assert!(braking.mz / -braking.fy < free.mz / -free.fy);
    }

    #[test]
    fn zero_and_bad_load_give_zero_output() {
        let t = SimplifiedPacejka::default();
        for fz in [0.0, -100.0, f64::NAN, f64::NEG_INFINITY] {
            assert_eq!(t.evaluate(&input(fz, 0.1, 0.1)), TireOutput::default());
        }
    }

    #[test]
    fn validation_names_the_fields() {
        let mut t = SimplifiedPacejka::default();
        assert!(t.check().is_ok());
        t.lateral.b = -1.0;
        t.longitudinal.c = 2.5;
        t.longitudinal.e = 1.5;
        t.lateral.d = f64::NAN;
        t.initial_trail_m = -0.01;
        t.sliding_slip_angle_rad = Some(2.0);
        let err = t.check().unwrap_err();
        let paths: Vec<_> = err.0.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "lateral.b",
                "lateral.d",
                "longitudinal.c",
                "longitudinal.e",
                "initial_trail_m",
                "sliding_slip_angle_rad"
            ]
        );
    }

    proptest! {
        #[test]
        fn output_is_finite(
            fz in prop_oneof![Just(0.0), -1e4..1e5, 1e5..1e12],
            kappa in prop_oneof![Just(-1.0), Just(1e6), Just(-1e6), -1e7..1e7, -2.0..2.0],
            alpha in prop_oneof![Just(FRAC_PI_2), Just(-FRAC_PI_2), -10.0..10.0, -1e9..1e9],
            mu in prop_oneof![Just(0.0), Just(1e-9), 0.0..3.0, -1.0..0.0],
        ) {
            let t = SimplifiedPacejka::default();
            let mut i = input(fz, kappa, alpha);
            i.mu_scale = mu;
            i.vx = 0.0;
            let out = t.evaluate(&i);
            prop_assert!(out.is_finite(), "{out:?}");
        }

        #[test]
        fn forces_are_odd(kappa in -3.0..3.0f64, alpha in -1.5..1.5f64, fz in 100.0..10000.0f64) {
            let t = SimplifiedPacejka::default();
            let a = t.evaluate(&input(fz, kappa, alpha));
            let b = t.evaluate(&input(fz, -kappa, -alpha));
            let c = t.evaluate(&input(fz, kappa, -alpha));
            prop_assert!(close(a.fx, -b.fx, 1e-12));
            prop_assert!(close(a.fy, -b.fy, 1e-12));
            prop_assert!(close(a.mz, -b.mz, 1e-12));
            prop_assert!(close(a.fy, -c.fy, 1e-12));
            prop_assert!(close(a.mz, -c.mz, 1e-12));
            prop_assert!(close(a.fx, c.fx, 1e-12));
        }
    }
}

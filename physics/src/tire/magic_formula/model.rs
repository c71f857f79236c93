//! [`MagicFormula`]: a coefficient set with its equation version, evaluated under the
//! library's contract (the equations themselves are in `equations.rs`).

use super::coefficients::MfCoefficients;
use super::evaluation::MfEvaluation;
use super::outputs::{ALL, FORCES, FX};
use super::version::MfVersion;
use crate::tire::interface::{TireInput, TireModel, TireOutput};
use crate::tire::side::TyreSide;
use crate::validate::{Validate, Validator};

/// A Magic Formula tyre: a coefficient set, its equation version, and whether the file's input
/// ranges are enforced. See the module documentation.
#[derive(Clone, Debug, PartialEq)]
pub struct MagicFormula {
    /// The coefficient set.
    pub(super) coefficients: MfCoefficients,
    /// Which equations are used.
    pub(super) version: MfVersion,
    /// Whether the file's input ranges are enforced.
    pub(super) input_limits: bool,
    /// `LFZO * FNOMIN` (Fz0').
    pub(super) fz0_prime: f64,
    /// `PCX1 * LCX` (Cx).
    pub(super) cx: f64,
    /// `PCY1 * LCY` (Cy).
    pub(super) cy: f64,
    /// The side of the car the data were measured on (`TYRESIDE`; left when absent).
    pub(super) measured_side: TyreSide,
}

impl MagicFormula {
    /// A Magic Formula tyre from its coefficients, with input limits off (`MFeval` `useMode` 221).
    ///
    /// The coefficients are not checked here; call [`Validate::check`] before use.
    pub fn new(version: MfVersion, coefficients: MfCoefficients) -> Self {
        let fz0_prime = coefficients.lfzo * coefficients.fnomin;
        let cx = coefficients.pcx1 * coefficients.lcx;
        let cy = coefficients.pcy1 * coefficients.lcy;
        Self {
            coefficients,
            version,
            input_limits: false,
            fz0_prime,
            cx,
            cy,
            measured_side: TyreSide::Left,
        }
    }

    /// Returns the tyre with its data marked as measured on `side` (a `.tir` file's
    /// `TYRESIDE`). The model's own evaluation does not change: the side only tells a vehicle
    /// on which side of the car the tyre must run mirrored (see [`crate::tire::side`]).
    #[must_use]
    pub fn with_measured_side(mut self, side: TyreSide) -> Self {
        self.measured_side = side;
        self
    }

    /// The side of the car the data were measured on (left unless set).
    pub fn measured_side(&self) -> TyreSide {
        self.measured_side
    }

    /// Returns the tyre with the file's input ranges enforced (`on = true`) or not (the default).
    ///
    /// With limits on, the model behaves as `MFeval`'s `useMode` 121: below `VXLOW` the slip ratio
    /// is scaled by `|Vx|/VXLOW`, the slip angle by `(|Vx| + |Vsy|)/VXLOW`, and the shifts,
    /// trail and residual torque fade out smoothly to zero at standstill; then the load is
    /// clamped to `[0, FZMAX]` (and to at least `FZMIN` in the aligning moment), the slip ratio
    /// to `[KPUMIN, KPUMAX]`, the slip angle to `[ALPMIN, ALPMAX]`, the camber to
    /// `[CAMMIN, CAMMAX]` and the pressure to `[PRESMIN, PRESMAX]`. Ranges missing from the
    /// file take `MFeval`'s defaults (see [`MfCoefficients`]).
    #[must_use]
    pub fn with_input_limits(mut self, on: bool) -> Self {
        self.input_limits = on;
        self
    }

    /// Whether the file's input ranges are enforced.
    pub fn input_limits(&self) -> bool {
        self.input_limits
    }

    /// The coefficient set.
    pub fn coefficients(&self) -> &MfCoefficients {
        &self.coefficients
    }

    /// Which equations are used.
    pub fn version(&self) -> MfVersion {
        self.version
    }

    /// The nominal load `FNOMIN * LFZO` (N).
    pub fn nominal_load(&self) -> f64 {
        self.fz0_prime
    }

    /// The nominal inflation pressure `NOMPRES` (Pa), for versions with pressure terms.
    pub fn nominal_pressure(&self) -> Option<f64> {
        self.version
            .has_pressure()
            .then_some(self.coefficients.nompres)
    }

    /// Evaluates everything `MFeval` computes for the steady state (see [`MfEvaluation`]).
    pub fn evaluate_detailed(&self, input: &TireInput) -> MfEvaluation {
        self.guarded(self.evaluate_raw::<ALL>(input))
    }

    /// The outputs `OUT` asks for (see [`super::outputs`]) under the library's slip convention
    /// (see [`MagicFormula::evaluate`]).
    fn evaluate_iso_w<const OUT: u8>(&self, input: &TireInput) -> MfEvaluation {
        if input.vx < 0.0 {
            self.guarded(self.evaluate_raw::<OUT>(&TireInput {
                kappa: -input.kappa,
                ..*input
            }))
        } else {
            self.guarded(self.evaluate_raw::<OUT>(input))
        }
    }

    /// `out` with every non-finite value replaced by zero (the effective radius by
    /// `UNLOADED_RADIUS`).
    fn guarded(&self, out: MfEvaluation) -> MfEvaluation {
        if out.fx.is_finite()
            && out.fy.is_finite()
            && out.mz.is_finite()
            && out.mx.is_finite()
            && out.my.is_finite()
            && out.kxk.is_finite()
            && out.kya.is_finite()
            && out.re.is_finite()
        {
            return out;
        }
        let finite_or_zero = |x: f64| if x.is_finite() { x } else { 0.0 };
        MfEvaluation {
            fx: finite_or_zero(out.fx),
            fy: finite_or_zero(out.fy),
            mz: finite_or_zero(out.mz),
            mx: finite_or_zero(out.mx),
            my: finite_or_zero(out.my),
            kxk: finite_or_zero(out.kxk),
            kya: finite_or_zero(out.kya),
            mux: finite_or_zero(out.mux),
            muy: finite_or_zero(out.muy),
            t: finite_or_zero(out.t),
            mzr: finite_or_zero(out.mzr),
            re: if out.re.is_finite() {
                out.re
            } else {
                self.coefficients.unloaded_radius
            },
            omega: finite_or_zero(out.omega),
        }
    }
}

impl TireModel for MagicFormula {
    /// Evaluates under the library's ISO-W contract. `MFeval` and TNO's MF-Tyre define the
    /// longitudinal slip with the *signed* speed, `kappa = -Vsx / Vx`, so that a wheel
    /// rolling backwards reads the slip in its own direction of travel; the library defines
    /// it with `|Vx|` for every model (positive kappa always pushes forward). For `Vx < 0`
    /// the slip is converted here; [`MagicFormula::evaluate_detailed`] keeps `MFeval`'s
    /// convention, which the conformance tests check.
    fn evaluate(&self, input: &TireInput) -> TireOutput {
        let e = self.evaluate_iso_w::<ALL>(input);
        TireOutput {
            fx: e.fx,
            fy: e.fy,
            mz: e.mz,
            mx: e.mx,
            my: e.my,
            slip_stiffness: Some(e.kxk),
            cornering_stiffness: Some(e.kya),
            effective_radius: Some(e.re),
        }
    }

    /// `Fx`, `Fy` and `Mz` (and the stiffnesses) without `Mx`, `My` and the effective radius.
    fn evaluate_forces(&self, input: &TireInput) -> TireOutput {
        let e = self.evaluate_iso_w::<FORCES>(input);
        TireOutput {
            fx: e.fx,
            fy: e.fy,
            mz: e.mz,
            slip_stiffness: Some(e.kxk),
            cornering_stiffness: Some(e.kya),
            ..TireOutput::default()
        }
    }

    /// Only the pure and combined longitudinal force.
    fn longitudinal_force(&self, input: &TireInput) -> f64 {
        self.evaluate_iso_w::<FX>(input).fx
    }
}

impl Validate for MagicFormula {
    /// Paths are the `.tir` key names (`FNOMIN must be finite and positive`).
    fn validate(&self, v: &mut Validator) {
        let c = &self.coefficients;
        for (key, value) in c.iter() {
            v.finite(key, value);
        }
        v.positive("FNOMIN", c.fnomin);
        v.positive("LFZO", c.lfzo);
        v.positive("UNLOADED_RADIUS", c.unloaded_radius);
        v.positive("LONGVL", c.longvl);
        v.positive("VXLOW", c.vxlow);
        v.positive("VERTICAL_STIFFNESS", c.vertical_stiffness);
        v.require(
            c.lmuy.is_finite() && c.lmuy != 0.0,
            "LMUY",
            "must be finite and not zero (the trail stiffness divides by it)",
        );
        if self.version.has_pressure() {
            v.positive("NOMPRES", c.nompres);
            v.positive("INFLPRES", c.inflpres);
        }
        for (lo_key, lo, hi_key, hi) in [
            ("FZMIN", c.fzmin, "FZMAX", c.fzmax),
            ("KPUMIN", c.kpumin, "KPUMAX", c.kpumax),
            ("ALPMIN", c.alpmin, "ALPMAX", c.alpmax),
            ("CAMMIN", c.cammin, "CAMMAX", c.cammax),
            ("PRESMIN", c.presmin, "PRESMAX", c.presmax),
        ] {
            if lo.is_finite() && hi.is_finite() && lo > hi {
                v.fail(lo_key, format!("must not exceed {hi_key} ({lo} > {hi})"));
            }
        }
        v.non_negative("FZMIN", c.fzmin);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::f64::consts::FRAC_PI_2;

    fn default_tyre(version: MfVersion) -> MagicFormula {
        MagicFormula::new(version, MfCoefficients::default())
    }

    #[test]
    fn defaults_validate_and_give_iso_signs() {
        for version in [MfVersion::Mf52, MfVersion::Mf61, MfVersion::Mf62] {
            let tyre = default_tyre(version);
            assert!(tyre.check().is_ok(), "{:?}", tyre.check());
            let base = TireInput::rolling(4000.0, 20.0);
            assert!(tyre.evaluate(&base.with_alpha(0.05)).fy < 0.0);
            assert!(tyre.evaluate(&base.with_kappa(0.05)).fx > 0.0);
            assert!(tyre.evaluate(&base.with_kappa(-1.0)).fx < 0.0);
            assert!(tyre.evaluate(&base.with_alpha(0.02)).mz > 0.0);
        }
    }

    #[test]
    fn zero_load_gives_zero_forces() {
        let tyre = default_tyre(MfVersion::Mf61);
        for fz in [0.0, -10.0, f64::NAN, f64::NEG_INFINITY] {
            let mut input = TireInput::rolling(fz, 10.0).with_alpha(0.1).with_kappa(0.1);
            input.fz = fz;
            let out = tyre.evaluate(&input);
            assert!(out.is_finite());
            assert_eq!(
                (out.fx, out.fy, out.mz, out.mx, out.my),
                (0.0, 0.0, 0.0, 0.0, 0.0)
            );
        }
    }

    #[test]
    fn mf52_ignores_pressure() {
        let tyre = default_tyre(MfVersion::Mf52);
        let mut a = TireInput::rolling(4000.0, 20.0)
            .with_alpha(0.05)
            .with_kappa(0.03);
        let mut b = a;
        a.pressure = 1.5e5;
        b.pressure = 3.5e5;
        assert_eq!(tyre.evaluate(&a), tyre.evaluate(&b));
    }

    #[test]
    fn bad_coefficients_are_reported_by_key() {
        let c = MfCoefficients {
            fnomin: 0.0,
            fzmin: 500.0,
            fzmax: 100.0,
            pdy1: f64::NAN,
            ..MfCoefficients::default()
        };
        let err = MagicFormula::new(MfVersion::Mf61, c).check().unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("FNOMIN must be finite and positive"),
            "{text}"
        );
        assert!(text.contains("FZMIN must not exceed FZMAX"), "{text}");
        assert!(text.contains("PDY1 must be a finite number"), "{text}");
    }

    #[test]
    fn input_limits_hold_the_ranges() {
        let free = default_tyre(MfVersion::Mf61);
        let limited = free.clone().with_input_limits(true);
        let c = free.coefficients();
        // Beyond FZMAX and ALPMAX, the limited tyre sees the limits.
        let beyond = TireInput::rolling(2.0 * c.fzmax, 20.0).with_alpha(1.55);
        let at_limit = TireInput::rolling(c.fzmax, 20.0).with_alpha(c.alpmax);
        let got = limited.evaluate(&beyond);
        let want = limited.evaluate(&at_limit);
        assert!((got.fy - want.fy).abs() < 1e-9 * want.fy.abs().max(1.0));
        assert!((free.evaluate(&beyond).fy - got.fy).abs() > 1.0);
        // At standstill the limited tyre gives no slip force: no creep.
        let parked = TireInput::rolling(4000.0, 0.0)
            .with_kappa(0.2)
            .with_alpha(0.1);
        let out = limited.evaluate(&parked);
        assert!(out.fx.abs() < 1e-9 && out.fy.abs() < 1e-9, "{out:?}");
        // Inside every range and above VXLOW, limits change nothing.
        let inside = TireInput::rolling(4000.0, 20.0)
            .with_kappa(0.05)
            .with_alpha(0.05);
        assert_eq!(free.evaluate(&inside), limited.evaluate(&inside));
    }

    #[test]
    fn mu_scale_scales_the_peak() {
        let tyre = default_tyre(MfVersion::Mf61);
        let peak = |mu: f64| {
            (0..400)
                .map(|i| {
                    let mut input =
                        TireInput::rolling(4000.0, 20.0).with_alpha(f64::from(i) * 0.001);
                    input.mu_scale = mu;
                    tyre.evaluate(&input).fy.abs()
                })
                .fold(0.0, f64::max)
        };
        let ratio = peak(0.5) / peak(1.0);
        assert!((ratio - 0.5).abs() < 0.02, "{ratio}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]
        #[test]
        fn finite_for_every_finite_input(
            version in prop_oneof![Just(MfVersion::Mf52), Just(MfVersion::Mf61)],
            limits in any::<bool>(),
            fz in prop_oneof![Just(0.0), Just(-1.0), -1e4..1e6f64, Just(1e300)],
            kappa in prop_oneof![Just(-1.0), Just(1e6), -1e12..1e12f64, -2.0..2.0f64],
            alpha in prop_oneof![Just(FRAC_PI_2), Just(-FRAC_PI_2), -1e3..1e3f64],
            gamma in prop_oneof![Just(1e300), -10.0..10.0f64],
            vx in prop_oneof![Just(0.0), Just(1e-320), -1e6..1e6f64],
            pressure in prop_oneof![Just(0.0), -1e6..1e7f64],
            mu_scale in prop_oneof![Just(0.0), -1.0..3.0f64],
        ) {
            let tyre = default_tyre(version).with_input_limits(limits);
            let input = TireInput { fz, kappa, alpha, gamma, vx, pressure, mu_scale };
            let out = tyre.evaluate(&input);
            prop_assert!(out.is_finite(), "{:?} -> {:?}", input, out);
        }

        /// The partial evaluations skip work, never change a result: the same bits.
        #[test]
        fn partial_evaluations_give_the_same_bits(
            version in prop_oneof![Just(MfVersion::Mf52), Just(MfVersion::Mf61)],
            limits in any::<bool>(),
            fz in prop_oneof![Just(0.0), Just(-1.0), -1e3..2e4f64, Just(1e300)],
            kappa in prop_oneof![Just(-1.0), -1e3..1e3f64, -1.5..1.5f64],
            alpha in prop_oneof![Just(FRAC_PI_2), -1e2..1e2f64, -0.5..0.5f64],
            gamma in -0.2..0.2f64,
            vx in prop_oneof![Just(0.0), -1e2..1e2f64],
            pressure in prop_oneof![Just(0.0), 1e5..4e5f64],
            mu_scale in prop_oneof![Just(0.0), 0.0..2.0f64],
        ) {
            let tyre = default_tyre(version).with_input_limits(limits);
            let input = TireInput { fz, kappa, alpha, gamma, vx, pressure, mu_scale };
            let all = tyre.evaluate(&input);
            let forces = tyre.evaluate_forces(&input);
            let bits = |o: &TireOutput| [o.fx.to_bits(), o.fy.to_bits(), o.mz.to_bits()];
            prop_assert_eq!(bits(&forces), bits(&all), "{:?}", input);
            prop_assert_eq!(forces.slip_stiffness, all.slip_stiffness);
            prop_assert_eq!(forces.cornering_stiffness, all.cornering_stiffness);
            prop_assert_eq!(tyre.longitudinal_force(&input).to_bits(), all.fx.to_bits());
        }
    }
}

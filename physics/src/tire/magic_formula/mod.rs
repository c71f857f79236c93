//! Magic Formula 5.2 / 6.1 / 6.2 (Pacejka) steady-state tyre model, conformant with `MFeval`.
//!
//! [`MagicFormula`] evaluates the steady-state combined-slip forces and moments of a `.tir`
//! coefficient set exactly as `MFeval` (Marco Furlan's MATLAB evaluator, and its bit-for-bit
//! Julia port `MFeval.jl`) does in **`useMode` 221**:
//!
//! - combined slip forces and moments: `Fx`, `Fy`, `Mz`, `Mx`, `My`;
//! - the `alpha*` definition: `alpha* = tan(alpha) * sign(Vcx)`, `gamma* = sin(gamma)`;
//! - no input limit checks and no low-speed reductions (unless [`MagicFormula::with_input_limits`]
//!   turns them on, which reproduces `MFeval`'s `useMode` 121);
//! - no turn slip.
//!
//! Which equations are used follows the `FITTYP` of the file, as in `MFeval`: FITTYP 6 or 21 is
//! MF 5.2 (its own `SHy`, `Mz` and `My` equations, and no pressure terms: the input pressure is
//! ignored), 61 is MF 6.1, and 62 is MF 6.2, which for steady-state forces and moments uses the
//! MF 6.1 equations (`MFeval`'s MF 6.2 specifics concern the loaded radius and contact patch,
//! which this model does not output).
//!
//! The pieces of `MFeval` that look odd but are reproduced on purpose: the `1e-6` epsilons that
//! keep `Bx`, `By` and the `Kya` quotients finite at zero load, the sign flips of `Fx0`, `Fy0`
//! and `My` at negative speed, the pneumatic trail multiplied by `LFZO`, the pneumatic-trail and
//! residual-torque factors `Bt` and `Dt` of the Besselink paper (raw `gamma`, not `gamma*`), the
//! `FZMIN`-based low-load reductions of `Mx` (`Fz (Fz/FZMIN)^2`) and `My` (`Fz (Fz/FZMIN)`),
//! and `My`'s interpolation near a locked wheel.
//!
//! # Surface friction
//!
//! [`TireInput::mu_scale`] multiplies the friction scaling factors `LMUX` and `LMUY` of the
//! file. Through them it acts wherever `MFeval`'s `LMUX*`/`LMUY*` (and `LMUX'`/`LMUY'`, equal to
//! them since `MFeval` fixes `Amu = 1` and `LMUV = 0`) appear: the peak friction `mux`, `muy`, the
//! vertical shifts `SVx`, `SVy`, `SVyg`, the kappa-induced side force, and in `Mz` the trail and
//! residual-torque stiffnesses `Bt`, `Br` (divided by `LMUY*`) and the residual-torque peak
//! `Dr`. This is the standard way to model a road of different grip with a Magic Formula tyre,
//! and `mu_scale = 1` reproduces `MFeval` exactly. `mu_scale` is held within `[1e-6, 1e3]` (a
//! zero would divide `Bt`); a non-finite value counts as 1.
//!
//! # Robustness
//!
//! `MFeval` is not defined for every input; a simulator needs finite output for every finite
//! input. So, beyond `MFeval`:
//!
//! - zero, negative or non-finite load gives zero forces and moments (`MFeval` gives the same
//!   forces at `Fz = 0` after clamping negative loads to zero);
//! - zero, negative or non-finite pressure means the file's `INFLPRES` (`MFeval`: zero only);
//! - inputs far outside any physical range are held to a sanity envelope that no real tyre
//!   reaches: `|kappa| <= 1e8`, `|Vx| <= 1e4` m/s, `Fz <= 1e8` N, `|gamma| <= pi/2`,
//!   pressure `<= 1e9` Pa; non-finite slips, speed and camber count as zero;
//! - should anything still come out non-finite (a degenerate coefficient set), that value is
//!   replaced by zero (the effective radius by `UNLOADED_RADIUS`).
//!
//! # Performance
//!
//! [`MagicFormula::evaluate`] allocates nothing and branches little; what depends only on the
//! coefficients is computed once in [`MagicFormula::new`]. The pure-lateral force at zero
//! camber that the MF 6.x aligning moment needs is not evaluated a second time when the
//! camber is zero and no low-speed reduction acts (it is then equal to `Fy0`).
//! [`TireModel::evaluate_forces`] skips `Mx`, `My` and the effective radius, which a vehicle
//! does not use, and [`TireModel::longitudinal_force`] computes only `Fx`; both give the same
//! bits as [`TireModel::evaluate`] (the equations live in `equations.rs`). The arc tangents,
//! some twenty per evaluation, come from `fast_atan.rs` (Cephes' rational approximation, within
//! a couple of units in the last place of `f64::atan`, at well under half its cost): the
//! outputs differ from an evaluation with `f64::atan` in the last bits only, far inside the
//! `1e-6` of the `MFeval` conformance tests. The sines and cosines come from `fast_sin_cos.rs`
//! (`fdlibm`'s kernels after a Cody-Waite reduction by `pi/2`, `rem_pio2.rs`), within one unit
//! in the last place of `f64::sin` and `f64::cos` and cheaper, and the residual torque's
//! `cos(atan(x))` is `1 / sqrt(1 + x^2)`. (The C library's `tan` is as cheap as `fdlibm`'s.)

mod coefficients;
mod equations;
mod fast_atan;
mod fast_sin_cos;
mod rem_pio2;

pub use coefficients::{Dimension, MfCoefficients};

use super::{TireInput, TireModel, TireOutput};
use crate::validate::{Validate, Validator};
use equations::{ALL, FORCES, FX};

/// Which Magic Formula equations a coefficient set is for, from the file's `FITTYP`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MfVersion {
    /// MF 5.2 (FITTYP 6 or 21): no pressure terms.
    Mf52,
    /// MF 6.1 (FITTYP 61).
    Mf61,
    /// MF 6.2 (FITTYP 62): MF 6.1 equations for steady-state forces and moments.
    Mf62,
}

impl MfVersion {
    /// The version of a `.tir` `FITTYP` value, as `MFeval` reads it (6 and 21 are MF 5.2).
    pub fn from_fittyp(fittyp: i64) -> Option<Self> {
        match fittyp {
            6 | 21 => Some(Self::Mf52),
            61 => Some(Self::Mf61),
            62 => Some(Self::Mf62),
            _ => None,
        }
    }

    /// The canonical `FITTYP` of this version (6 for MF 5.2).
    pub fn fittyp(self) -> i64 {
        match self {
            Self::Mf52 => 6,
            Self::Mf61 => 61,
            Self::Mf62 => 62,
        }
    }

    /// Whether the equations have inflation-pressure terms (MF 6.1 and 6.2).
    pub fn has_pressure(self) -> bool {
        !matches!(self, Self::Mf52)
    }
}

/// Everything one Magic Formula evaluation computes, `MFeval`'s names in snake case.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MfEvaluation {
    /// Longitudinal force `Fx` (N).
    pub fx: f64,
    /// Lateral force `Fy` (N).
    pub fy: f64,
    /// Aligning moment `Mz` (N·m).
    pub mz: f64,
    /// Overturning moment `Mx` (N·m).
    pub mx: f64,
    /// Rolling-resistance moment `My` (N·m).
    pub my: f64,
    /// Longitudinal slip stiffness `Kxk` (N).
    pub kxk: f64,
    /// Cornering stiffness `Kya` (N/rad), negative for usual tyres, at the current camber.
    pub kya: f64,
    /// Longitudinal friction coefficient `mux` (-).
    pub mux: f64,
    /// Lateral friction coefficient `muy` (-).
    pub muy: f64,
    /// Pneumatic trail `t` (m).
    pub t: f64,
    /// Residual aligning torque `Mzr` (N·m).
    pub mzr: f64,
    /// Effective rolling radius `Re` (m).
    pub re: f64,
    /// Wheel spin `omega` (rad/s) that `MFeval` derives from `Vx`, `kappa` and `Re`.
    pub omega: f64,
}

/// A Magic Formula tyre: a coefficient set, its equation version, and whether the file's input
/// ranges are enforced. See the module documentation.
#[derive(Clone, Debug, PartialEq)]
pub struct MagicFormula {
    coefficients: MfCoefficients,
    version: MfVersion,
    input_limits: bool,
    /// `LFZO * FNOMIN` (Fz0').
    fz0_prime: f64,
    /// `PCX1 * LCX` (Cx).
    cx: f64,
    /// `PCY1 * LCY` (Cy).
    cy: f64,
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
        }
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

    /// The outputs `OUT` asks for (see [`equations`]) under the library's slip convention
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

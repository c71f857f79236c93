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

mod coefficients;

pub use coefficients::{Dimension, MfCoefficients};

use std::f64::consts::{FRAC_PI_2, PI};

use super::{TireInput, TireModel, TireOutput};
use crate::validate::{Validate, Validator};

/// `MFeval`'s universal small number (Pacejka 2012, eq. 4.E6a).
const EPS: f64 = 1e-6;
/// Sanity envelope of the inputs (see the module documentation).
const FZ_SANE: f64 = 1e8;
const KAPPA_SANE: f64 = 1e8;
const VX_SANE: f64 = 1e4;
const PRESSURE_SANE: f64 = 1e9;
const MU_SCALE_MIN: f64 = 1e-6;
const MU_SCALE_MAX: f64 = 1e3;

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

/// `x >= 0 -> 1`, else `-1`: `MFeval`'s sign, which never returns 0.
#[inline]
fn sign(x: f64) -> f64 {
    if x >= 0.0 { 1.0 } else { -1.0 }
}

/// `cos(atan(x))`, computed without trigonometry.
#[inline]
fn cos_atan(x: f64) -> f64 {
    1.0 / x.mul_add(x, 1.0).sqrt()
}

/// The Magic Formula `D sin(C atan(B x - E (B x - atan(B x))))`.
#[inline]
fn magic(b: f64, c: f64, d: f64, e: f64, x: f64) -> f64 {
    let bx = b * x;
    d * (c * (bx - e * (bx - bx.atan())).atan()).sin()
}

/// The cosine weighting `cos(C atan(B x - E (B x - atan(B x))))` of the combined-slip equations.
#[inline]
fn weighting(b: f64, c: f64, e: f64, x: f64) -> f64 {
    let bx = b * x;
    (c * (bx - e * (bx - bx.atan())).atan()).cos()
}

/// `x` limited to `[lo, hi]`, `MFeval`'s way (no panic when `lo > hi`).
#[inline]
fn limit(x: f64, lo: f64, hi: f64) -> f64 {
    if x > hi {
        hi
    } else if x < lo {
        lo
    } else {
        x
    }
}

/// Finite input value or zero, held to `[-bound, bound]`.
#[inline]
fn sane(x: f64, bound: f64) -> f64 {
    if x.is_finite() {
        limit(x, -bound, bound)
    } else {
        0.0
    }
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

    /// Effective rolling radius and wheel spin, `MFeval`'s fixed-point iteration on
    /// `omega = (kappa Vx + Vx) / Re`.
    fn effective_radius(&self, fz: f64, vcx: f64, kappa: f64, dpi: f64) -> (f64, f64) {
        let c = &self.coefficients;
        let r0 = c.unloaded_radius;
        let fz0 = c.fnomin;
        let cz = c.vertical_stiffness * (1.0 + c.pfz1 * dpi);
        let load_term = (fz0 / cz) * (c.dreff * (c.breff * fz / fz0).atan() + c.freff * fz / fz0);
        let mut re = r0 * 0.965;
        let mut omega = 0.0;
        for _ in 0..20 {
            let re_prev = re;
            omega = (kappa * vcx + vcx) / re;
            let r_omega = r0 * (c.q_re0 + c.q_v1 * (omega * r0 / c.longvl).powi(2));
            re = r_omega - load_term;
            if (re - re_prev).abs() < 1e-9 {
                break;
            }
        }
        (re, omega)
    }

    /// Pure lateral force at zero camber (`MFeval`'s `Fy0` with `gamma = 0`), for `Mz'`.
    /// `load_shape`: `sin(PKY4 atan(...))` of `Kya` at zero camber when the caller has it.
    #[allow(clippy::too_many_arguments)]
    fn fy0_zero_camber(
        &self,
        alpha_star: f64,
        fz: f64,
        vcx: f64,
        dfz: f64,
        dpi: f64,
        lmuy_star: f64,
        load_shape: Option<f64>,
    ) -> f64 {
        let c = &self.coefficients;
        let fz0p = self.fz0_prime;
        let load_shape = load_shape.unwrap_or_else(|| {
            (c.pky4 * ((fz / fz0p) / (c.pky2 * (1.0 + c.ppy2 * dpi))).atan()).sin()
        });
        let kya = c.pky1 * fz0p * (1.0 + c.ppy1 * dpi) * load_shape * c.lky;
        let shy = (c.phy1 + c.phy2 * dfz) * c.lhy;
        let svy = fz * (c.pvy1 + c.pvy2 * dfz) * c.lvy * lmuy_star;
        let alphay = alpha_star + shy;
        let muy = (c.pdy1 + c.pdy2 * dfz) * (1.0 + c.ppy3 * dpi + c.ppy4 * dpi * dpi) * lmuy_star;
        let dy = muy * fz;
        let ey = ((c.pey1 + c.pey2 * dfz) * (1.0 - c.pey3 * sign(alphay)) * c.ley).min(1.0);
        let by = kya / (self.cy * dy + EPS * sign(dy));
        let fy0 = magic(by, self.cy, dy, ey, alphay) + svy;
        if vcx < 0.0 { -fy0 } else { fy0 }
    }

    /// Evaluates everything `MFeval` computes for the steady state (see [`MfEvaluation`]).
    pub fn evaluate_detailed(&self, input: &TireInput) -> MfEvaluation {
        let out = self.evaluate_raw(input);
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

    /// The equations, without the final finiteness guard.
    fn evaluate_raw(&self, input: &TireInput) -> MfEvaluation {
        let c = &self.coefficients;
        let is_mf52 = self.version == MfVersion::Mf52;

        // ── Inputs: sanity envelope, MFeval's "unlimited" copies ────────────────────────
        let u_fz = if input.fz.is_finite() && input.fz > 0.0 {
            input.fz.min(FZ_SANE)
        } else {
            0.0
        };
        let vcx = sane(input.vx, VX_SANE);
        let u_kappa = sane(input.kappa, KAPPA_SANE);
        let u_alpha = if input.alpha.is_finite() {
            input.alpha
        } else {
            0.0
        };
        let u_gamma = sane(input.gamma, FRAC_PI_2);
        let mu_scale = if input.mu_scale.is_finite() {
            limit(input.mu_scale, MU_SCALE_MIN, MU_SCALE_MAX)
        } else {
            1.0
        };
        let u_press = if is_mf52 {
            c.nompres
        } else if input.pressure.is_finite() && input.pressure > 0.0 {
            input.pressure.min(PRESSURE_SANE)
        } else {
            c.inflpres
        };
        // Normalised pressure increment; MF 5.2 has no pressure terms.
        let dpi_of = |p: f64| {
            if is_mf52 {
                0.0
            } else {
                (p - c.nompres) / c.nompres
            }
        };

        let (re, omega) = self.effective_radius(u_fz, vcx, u_kappa, dpi_of(u_press));
        if u_fz <= 0.0 {
            return MfEvaluation {
                re,
                omega,
                ..MfEvaluation::default()
            };
        }

        // ── Input limits and low-speed reductions (MFeval useMode 1xx only) ─────────────
        let mut fz = u_fz;
        let mut kappa = u_kappa;
        let mut alpha = u_alpha;
        let mut gamma = u_gamma;
        let mut press = u_press;
        let mut fz_mz = u_fz;
        let mut reduction_smooth = 1.0;
        let mut low_speed = false;
        // `tan` of the slip angle before the low-speed scaling and the limits, reused below
        // when they leave the angle as it was (saves one `tan`; the same bits either way).
        let mut unscaled_tan_alpha: Option<(f64, f64)> = None;
        if self.input_limits {
            let vxlow = c.vxlow;
            if vxlow > 0.0 {
                if vcx.abs() <= vxlow {
                    let linear = (vcx / vxlow).abs();
                    let w_vlow = 0.5 * (1.0 + (PI * (vcx / vxlow)).cos());
                    reduction_smooth = 1.0 - w_vlow;
                    low_speed = true;
                    kappa *= linear;
                }
                let tan_u_alpha = alpha.tan();
                unscaled_tan_alpha = Some((alpha, tan_u_alpha));
                let vsy = tan_u_alpha * vcx;
                let speed_sum = vcx.abs() + vsy.abs();
                if speed_sum < vxlow {
                    alpha *= speed_sum / vxlow;
                }
            }
            alpha = limit(alpha, c.alpmin, c.alpmax);
            gamma = limit(gamma, c.cammin, c.cammax);
            fz = limit(fz, 0.0, c.fzmax);
            press = limit(press, c.presmin, c.presmax);
            kappa = limit(kappa, c.kpumin, c.kpumax);
            fz_mz = if fz < c.fzmin { c.fzmin } else { fz };
        }

        // ── Basic variables ──────────────────────────────────────────────────────────────
        let fz0p = self.fz0_prime;
        let fz0 = c.fnomin;
        let r0 = c.unloaded_radius;
        let dfz = (fz - fz0p) / fz0p;
        let dpi = dpi_of(press);
        let sign_vcx = sign(vcx);
        let tan_alpha = match unscaled_tan_alpha {
            Some((angle, tan)) if angle.to_bits() == alpha.to_bits() => tan,
            _ => alpha.tan(),
        };
        let alpha_star = tan_alpha * sign_vcx;
        let gamma_star = gamma.sin();
        let vsy = tan_alpha * vcx.abs();
        let vc = (vcx * vcx + vsy * vsy).sqrt();
        // cos(alpha'), alpha' = acos(Vcx / Vc'), Vc' = Vc + eps.
        let cos_alpha_prime = limit(vcx / (vc + EPS), -1.0, 1.0);
        let lmux_star = c.lmux * mu_scale;
        let lmuy_star = c.lmuy * mu_scale;

        // ── Pure longitudinal force Fx0 (4.E9 - 4.E18) ───────────────────────────────────
        let cx = self.cx;
        let mux = (c.pdx1 + c.pdx2 * dfz)
            * (1.0 + c.ppx3 * dpi + c.ppx4 * dpi * dpi)
            * (1.0 - c.pdx3 * gamma * gamma)
            * lmux_star;
        let dx = mux * fz;
        let kxk = fz
            * (c.pkx1 + c.pkx2 * dfz)
            * (c.pkx3 * dfz).exp()
            * (1.0 + c.ppx1 * dpi + c.ppx2 * dpi * dpi)
            * c.lkx;
        let bx = kxk / (cx * dx + EPS * sign(dx));
        let shx = (c.phx1 + c.phx2 * dfz) * c.lhx * reduction_smooth;
        let svx = fz * (c.pvx1 + c.pvx2 * dfz) * c.lvx * lmux_star * reduction_smooth;
        let kappa_x = kappa + shx;
        let ex =
            ((c.pex1 + c.pex2 * dfz + c.pex3 * dfz * dfz) * (1.0 - c.pex4 * sign(kappa_x)) * c.lex)
                .min(1.0);
        let mut fx0 = magic(bx, cx, dx, ex, kappa_x) + svx;
        if vcx < 0.0 {
            fx0 = -fx0;
        }

        // ── Pure lateral force Fy0 (4.E19 - 4.E30; MF 5.2 shift) ────────────────────────
        let cy = self.cy;
        let kya_load_shape = (c.pky4
            * ((fz / fz0p) / ((c.pky2 + c.pky5 * gamma_star * gamma_star) * (1.0 + c.ppy2 * dpi)))
                .atan())
        .sin();
        let kya = c.pky1
            * fz0p
            * (1.0 + c.ppy1 * dpi)
            * (1.0 - c.pky3 * gamma_star.abs())
            * kya_load_shape
            * c.lky;
        let svyg = fz * (c.pvy3 + c.pvy4 * dfz) * gamma_star * c.lkyc * lmuy_star;
        let shy_load = (c.phy1 + c.phy2 * dfz) * c.lhy;
        let shy = if is_mf52 {
            shy_load + c.phy3 * gamma_star * c.lkyc
        } else {
            let kyg0 = fz * (c.pky6 + c.pky7 * dfz) * (1.0 + c.ppy5 * dpi) * c.lkyc;
            shy_load + (kyg0 * gamma_star - svyg) / (kya + EPS * sign(kya))
        } * reduction_smooth;
        let svy = (fz * (c.pvy1 + c.pvy2 * dfz) * c.lvy * lmuy_star + svyg) * reduction_smooth;
        let alpha_y = alpha_star + shy;
        let muy = (c.pdy1 + c.pdy2 * dfz)
            * (1.0 + c.ppy3 * dpi + c.ppy4 * dpi * dpi)
            * (1.0 - c.pdy3 * gamma_star * gamma_star)
            * lmuy_star;
        let dy = muy * fz;
        let ey = ((c.pey1 + c.pey2 * dfz)
            * (1.0 + c.pey5 * gamma_star * gamma_star
                - (c.pey3 + c.pey4 * gamma_star) * sign(alpha_y))
            * c.ley)
            .min(1.0);
        let by = kya / (cy * dy + EPS * sign(dy));
        let mut fy0 = magic(by, cy, dy, ey, alpha_y) + svy;
        if vcx < 0.0 {
            fy0 = -fy0;
        }

        // ── Combined slip Fx (4.E50 - 4.E57) ─────────────────────────────────────────────
        let exa = (c.rex1 + c.rex2 * dfz).min(1.0);
        let shxa = c.rhx1;
        let bxa = (c.rbx1 + c.rbx3 * gamma_star * gamma_star) * cos_atan(c.rbx2 * kappa) * c.lxal;
        let alpha_s = alpha_star + shxa;
        // At zero argument the weighting is exactly 1.
        let gxa0 = if shxa == 0.0 {
            1.0
        } else {
            weighting(bxa, c.rcx1, exa, shxa)
        };
        let gxa = weighting(bxa, c.rcx1, exa, alpha_s) / gxa0;
        let fx = gxa * fx0;

        // ── Combined slip Fy (4.E58 - 4.E67) ─────────────────────────────────────────────
        let dvyk = muy
            * fz
            * (c.rvy1 + c.rvy2 * dfz + c.rvy3 * gamma_star)
            * cos_atan(c.rvy4 * alpha_star);
        let svyk = dvyk * (c.rvy5 * (c.rvy6 * kappa).atan()).sin() * c.lvyka * reduction_smooth;
        let shyk = c.rhy1 + c.rhy2 * dfz;
        let eyk = (c.rey1 + c.rey2 * dfz).min(1.0);
        let byk = (c.rby1 + c.rby4 * gamma_star * gamma_star)
            * cos_atan(c.rby2 * (alpha_star - c.rby3))
            * c.lyka;
        let kappa_s = kappa + shyk;
        let gyk0 = if shyk == 0.0 {
            1.0
        } else {
            weighting(byk, c.rcy1, eyk, shyk)
        };
        let gyk = weighting(byk, c.rcy1, eyk, kappa_s) / gyk0;
        let fy = gyk * fy0 + svyk;

        // ── Overturning moment Mx (TNO manual form, FZMIN low-load reduction) ───────────
        let fz_mx = if fz < c.fzmin {
            fz * (fz / c.fzmin).powi(2)
        } else {
            fz
        };
        // Terms whose coefficient is zero are skipped (their value is then exactly zero).
        let mx_mixed = if c.qsx4 == 0.0 {
            0.0
        } else {
            c.qsx4
                * (c.qsx5 * (c.qsx6 * fz_mx / fz0).powi(2).atan()).cos()
                * (c.qsx7 * gamma + c.qsx8 * (c.qsx9 * fy / fz0).atan()).sin()
        };
        let mx_camber = if c.qsx10 == 0.0 {
            0.0
        } else {
            c.qsx10 * (c.qsx11 * fz_mx / fz0).atan() * gamma
        };
        let mx = r0
            * fz_mx
            * c.lmx
            * (c.qsx1 * c.lvmx - c.qsx2 * gamma * (1.0 + c.ppmx1 * dpi)
                + c.qsx3 * (fy / fz0)
                + mx_mixed
                + mx_camber)
            + r0 * c.lmx
                * (fy * (c.qsx13 + c.qsx14 * gamma.abs()) - fz_mx * c.qsx12 * gamma * gamma.abs());

        // ── Rolling-resistance moment My ─────────────────────────────────────────────────
        let my = self.rolling_moment(u_fz, vcx, u_kappa, gamma, press, fx);

        // ── Aligning moment Mz (4.E31 - 4.E49, 4.E71 - 4.E78; paper A54 - A60) ──────────
        let kya_prime = kya + EPS * sign(kya);
        let shf = shy + svy / kya_prime;
        let alpha_r = alpha_star + shf;
        let sht = c.qhz1 + c.qhz2 * dfz + (c.qhz3 + c.qhz4 * dfz) * gamma_star;
        let alpha_t = alpha_star + sht;
        let bt = (c.qbz1 + c.qbz2 * dfz + c.qbz3 * dfz * dfz)
            * (1.0 + c.qbz4 * gamma + c.qbz5 * gamma.abs())
            * c.lky
            / lmuy_star;
        let ct = c.qcz1;
        let dt = (c.qdz1 + c.qdz2 * dfz)
            * (1.0 - c.ppz1 * dpi)
            * (1.0 + c.qdz3 * gamma + c.qdz4 * gamma * gamma)
            * fz_mz
            * (r0 / fz0p)
            * c.ltr;
        let et = ((c.qez1 + c.qez2 * dfz + c.qez3 * dfz * dfz)
            * (1.0 + (c.qez4 + c.qez5 * gamma_star) * (2.0 / PI) * (bt * ct * alpha_t).atan()))
        .min(1.0);
        let br = c.qbz9 * c.lky / lmuy_star + c.qbz10 * by * cy;
        let cr = 1.0;
        let dr = fz_mz
            * r0
            * ((c.qdz6 + c.qdz7 * dfz) * c.lres
                + ((c.qdz8 + c.qdz9 * dfz) * (1.0 + c.ppz2 * dpi)
                    + (c.qdz10 + c.qdz11 * dfz) * gamma_star.abs())
                    * gamma_star
                    * c.lkzc)
            * lmuy_star
            * sign_vcx
            * alpha_star.cos();

        let kappa_term = (kxk / kya_prime).powi(2) * kappa * kappa;
        let alpha_r_eq = (alpha_r.tan().powi(2) + kappa_term).sqrt().atan() * sign(alpha_r);
        let alpha_t_eq = (alpha_t.tan().powi(2) + kappa_term).sqrt().atan() * sign(alpha_t);
        let s = r0 * (c.ssz1 + c.ssz2 * (fy / fz0) + (c.ssz3 + c.ssz4 * dfz) * gamma) * c.ls;
        let mzr = dr * (cr * (br * alpha_r_eq).atan()).cos() * reduction_smooth;
        let t =
            dt * weighting(bt, ct, et, alpha_t_eq) * cos_alpha_prime * c.lfzo * reduction_smooth;
        let mz = if is_mf52 {
            -t * (fy - svyk) + mzr + s * fx
        } else {
            // Fy' = Gyk * Fy0(gamma = 0); Fy0 itself when camber and reductions are absent.
            let fy0_zero_camber = if gamma_star == 0.0 && !low_speed {
                fy0
            } else {
                // With PKY5 = 0 the camber leaves kya's load shape as it is.
                let shape_at_zero_camber = (c.pky5 == 0.0).then_some(kya_load_shape);
                self.fy0_zero_camber(
                    alpha_star,
                    fz,
                    vcx,
                    dfz,
                    dpi,
                    lmuy_star,
                    shape_at_zero_camber,
                )
            };
            -t * (gyk * fy0_zero_camber) + mzr + s * fx
        };

        MfEvaluation {
            fx,
            fy,
            mz,
            mx,
            my,
            kxk,
            kya,
            mux,
            muy,
            t,
            mzr,
            re,
            omega,
        }
    }

    /// Rolling-resistance moment: MF 5.2 manual form, or paper eq. (A48) for MF 6.x, with
    /// `MFeval`'s sign at negative speed and its interpolation towards a locked wheel.
    fn rolling_moment(
        &self,
        u_fz: f64,
        vcx: f64,
        u_kappa: f64,
        gamma: f64,
        press: f64,
        fx: f64,
    ) -> f64 {
        let c = &self.coefficients;
        if vcx == 0.0 {
            return 0.0;
        }
        let fz0 = c.fnomin;
        let fz = if u_fz < c.fzmin {
            u_fz * (u_fz / c.fzmin)
        } else {
            u_fz
        };
        let v = vcx / c.longvl;
        let speed_terms = c.qsy1 + c.qsy2 * (fx / fz0) + c.qsy3 * v.abs() + c.qsy4 * v.powi(4);
        let mut my = if self.version == MfVersion::Mf52 {
            -c.unloaded_radius * fz * c.lmy * speed_terms
        } else {
            -c.unloaded_radius
                * fz0
                * c.lmy
                * (speed_terms + (c.qsy5 + c.qsy6 * (fz / fz0)) * gamma * gamma)
                * ((fz / fz0).powf(c.qsy7) * (press / c.nompres).powf(c.qsy8))
        };
        if vcx < 0.0 {
            my = -my;
        }
        // Between a locked wheel (kappa = -1) and the slip of a wheel turning at VXLOW, My
        // goes smoothly from zero to its full value; beyond, it changes sign.
        let high = c.vxlow / vcx.abs() - 1.0;
        let low = -1.0 - c.vxlow - high;
        if u_kappa >= low && u_kappa <= high {
            let x0 = -1.0;
            my *= (FRAC_PI_2 * (u_kappa - x0) / (high - x0)).sin();
        } else if u_kappa < low {
            my = -my;
        }
        my
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
        let e = if input.vx < 0.0 {
            self.evaluate_detailed(&TireInput {
                kappa: -input.kappa,
                ..*input
            })
        } else {
            self.evaluate_detailed(input)
        };
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
    }
}

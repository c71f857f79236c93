//! Calspan / U.S. DOT composite-slip tyre model, as the University at Buffalo's driving simulator
//! states it (`docs/tyre-models.md`, "The Calspan model"; `docs/sources.md`).
//!
//! The source states the model in lb, in, psi and rad, with the coefficients of its Table 1.
//! Here every parameter is SI (N, m, Pa, rad); [`CalspanTire::from_imperial_table`] converts
//! the table's values at the boundary, and [`CalspanImperialTable`] holds the three tyres of
//! Table 1 as published.
//!
//! # Equations (SI)
//!
//! Slip. The source's longitudinal slip `S` is positive when braking and bounded by 1: the
//! axle speed is the denominator when braking (`S = 1` locked), the wheel's circumferential
//! speed when driving (`S -> -1` spinning). From the ISO slip ratio:
//!
//! ```text
//! S = min(-kappa, 1)            kappa <= 0 (braking; kappa < -1 counts as locked)
//! S = -kappa / (1 + kappa)      kappa > 0  (driving)
//! ```
//!
//! and the slip angle is limited to `|alpha| <= pi/2` as in the source. (With this slip, the
//! composite-slip term `S / (1 - S)` runs to infinity for a locked wheel but only to `-1/2`
//! for a spinning one: the source's model is not symmetric between braking and driving.)
//!
//! Contact patch (the source's empirical formula with lb, in, psi gives feet; in SI):
//!
//! ```text
//! ap0 = k_ap sqrt(Fz Fzt) / (Tw (p + p5))        k_ap = 0.0768 ft in psi / lbf, p5 = 5 psi
//! ap  = ap0 (1 - Ka Fx_src / Fz)                 Fx_src: the source's sign, braking positive
//! ```
//!
//! with `p` the inflation pressure ([`TireInput::pressure`]; the nominal `Tp` when it is not
//! positive).
//!
//! Stiffnesses: `Ks = 2 Ps / ap0²` and `Kc = 2 Pc / ap0²` with the cornering stiffness
//! `Ps = A0 + A1 Fz - (A1 / A2) Fz²` (N/rad; held at zero where the fitted quadratic would turn
//! negative, at several times the rated load) and the longitudinal stiffness `Pc = CS/FZ * Fz`
//! (N). Composite slip, saturation and friction (`mu0` times the road's friction scale):
//!
//! ```text
//! sigma = pi ap² / (8 mu0 Fz) sqrt(Ks² tan²a + Kc² (S / (1 - S))²)
//!       = pi (ap / ap0)² / (4 mu0 Fz) sqrt(Ps² tan²a + Pc² (S / (1 - S))²)
//! f(sigma) = (C1 sigma³ + C2 sigma² + (4/pi) sigma) / (C1 sigma³ + C3 sigma² + C4 sigma + 1)
//! w   = sqrt(sin²a + S² cos²a)
//! Kc' = Kc + (Ks - Kc) w
//! mu  = mu0 (1 - Kmu w)                                            Kmu = 0.124
//! Fy_src = (f Ks tan a / sqrt(Ks² tan²a + Kc'² S²) + Yg gamma) mu Fz
//! Fx_src =  f Kc' S    / sqrt(Ks² tan²a + Kc'² S²)             mu Fz
//! ```
//!
//! The second form of `sigma` (the `ap0²` of the stiffnesses cancels) is the one evaluated, so
//! that no intermediate overflows; `S / (1 - S)` is evaluated with `1 - S` held above `1e-12`,
//! so a locked wheel gives a composite slip of about `1e12` and `f` within `1e-12` of 1:
//! finite, fully sliding. Note that the forces depend on the patch only through `ap / ap0`;
//! inflation pressure and tread width act through the patch length on the aligning moment.
//!
//! ISO-W signs: `fx = -Fx_src` (the source's `S` is positive when braking) and `fy = -Fy_src`,
//! camber thrust included: the source's axes are SAE (y to the right, z down), where a positive
//! inclination leans the top of the wheel to the right, as in ISO, so the camber thrust
//! `-Yg gamma mu Fz` points the way the wheel leans (positive `gamma`, top to -y, pushes to -y).
//!
//! # Camber
//!
//! The source models camber as a linear term `Yg gamma` but does not spell out `Yg`. By analogy
//! with `A0..A2` of the cornering stiffness, `A3` and `A4` are read as the camber-stiffness
//! polynomial `C_gamma = A3 Fz - (A3 / A4) Fz²` (N/rad), normalised so that the camber thrust
//! at zero slip is `-C_gamma gamma` (ISO) on the reference road: `Yg = C_gamma / (mu0_table Fz)
//! = (A3 - A3 Fz / A4) / mu0_table` (per rad). The inclination is limited to `|gamma| <= pi/2`.
//!
//! # Patch length under longitudinal force: solved, not lagged
//!
//! `ap` depends on `Fx`, which depends on `ap` through `sigma`. Everything else in `Fx` is
//! independent of `ap`, so with `rho = ap / ap0`, `sigma = sigma0 rho²` and
//! `k = Ka (Fx_src / (f mu Fz))` the patch satisfies the scalar equation
//!
//! ```text
//! h(rho) = rho - 1 + k f(sigma0 rho²) = 0
//! ```
//!
//! solved by Newton's method from `rho = 1` with the analytic `f'`, safeguarded by bisection
//! on `[0.05, 2]` and limited to 32 steps (in practice 3-4: `|k| <= Ka mu` is small, so `h` is
//! monotonic). It is deterministic and allocation-free.
//!
//! # Aligning moment
//!
//! The source has no Mz theory; the pneumatic-trail helper ([`PneumaticTrail`]) supplies it,
//! with the brush-model trail on the current patch: initial trail `ap / 6` (a third of the half
//! length) falling to zero when the patch slides. The patch is taken to slide fully at the
//! composite slip `sigma_sl = 3 pi / 4` (by the brush model's proportions: the force
//! extrapolated linearly from its initial slope `4/pi` reaches the friction limit at a third of
//! the sliding slip), so the trail's normalised slip is `psi = sigma / sigma_sl`, which makes
//! braking and driving shorten the trail as well. `mz = -t fy_slip`, where `fy_slip` leaves out
//! the camber thrust (taken to act at the patch centre).
//!
//! # Limits
//!
//! Loads are capped at `1e12 N` so that the load-dependent patch and polynomials stay finite.
//! The road friction scale multiplies `mu0` in both `sigma` and `mu`, so the stiffnesses at
//! zero slip do not depend on the road (the source's `mu0` of 0.85, 0.3, 0.1 for dry, wet,
//! icy roads is this product).

use std::f64::consts::{FRAC_1_PI, FRAC_PI_2, FRAC_PI_4, PI};

use serde::{Deserialize, Serialize};

use super::interface::{TireInput, TireModel, TireOutput};
use super::sanitise::{effective_load, friction_scale};
use super::trail::PneumaticTrail;
use crate::validate::{Validate, Validator};

/// One pound-force in newtons.
pub const LBF_N: f64 = 4.448_221_615_260_5;
/// One inch in metres.
pub const INCH_M: f64 = 0.0254;
/// One foot in metres.
pub const FOOT_M: f64 = 0.3048;
/// One psi (lbf per square inch) in pascals.
pub const PSI_PA: f64 = LBF_N / (INCH_M * INCH_M);

/// `k_ap` of the patch-length formula in SI: the source's 0.0768 (ft from lb, in, psi).
const PATCH_COEFFICIENT: f64 = 0.0768 * FOOT_M * INCH_M * PSI_PA / LBF_N;
/// The 5 psi added to the inflation pressure in the patch-length formula, in Pa.
const PATCH_PRESSURE_OFFSET_PA: f64 = 5.0 * PSI_PA;
/// Composite slip at which the whole patch is taken to slide (trail zero).
const SLIDING_COMPOSITE_SLIP: f64 = 0.75 * PI;
/// Smallest `1 - S` used in `S / (1 - S)` (a locked wheel).
const MIN_ROLLING_SLIP: f64 = 1e-12;
/// Largest load evaluated (N).
const LOAD_LIMIT_N: f64 = 1e12;
/// Friction below this (as `mu0` times the road scale) counts as none.
const MIN_FRICTION: f64 = 1e-9;
/// Bracket and iteration limit of the patch-length solve.
const PATCH_RATIO_RANGE: (f64, f64) = (0.05, 2.0);
const PATCH_SOLVE_STEPS: usize = 32;

fn default_mu_decay() -> f64 {
    0.124
}

/// Calspan composite-slip tyre in SI units.
///
/// Composite slip `sigma` from both slips and the load-dependent patch, polynomial saturation
/// `f(sigma)`, friction falling with slip, the force resolved into `fx`, `fy` by the stiffness-
/// weighted slips, a linear camber term, the patch length under `fx` solved by Newton's method,
/// and the aligning moment from a brush-model pneumatic trail on the current patch. See the
/// [module documentation](self) for the equations.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CalspanTire {
    /// Tread width `Tw` (m).
    pub tread_width_m: f64,
    /// Nominal inflation pressure `Tp` (Pa), used when the input carries none.
    pub nominal_pressure_pa: f64,
    /// Rated load `FZT` (N) of the patch-length formula.
    pub rated_load_n: f64,
    /// Saturation-function coefficient `C1` (-), positive.
    pub c1: f64,
    /// Saturation-function coefficient `C2` (-).
    pub c2: f64,
    /// Saturation-function coefficient `C3` (-).
    pub c3: f64,
    /// Saturation-function coefficient `C4` (-).
    pub c4: f64,
    /// Cornering-stiffness coefficient `A0` (N/rad).
    pub a0_n_per_rad: f64,
    /// Cornering-stiffness coefficient `A1` (N/rad per N of load).
    pub a1_per_rad: f64,
    /// Cornering-stiffness coefficient `A2` (N): `Ps = A0 + A1 Fz - (A1 / A2) Fz²`.
    pub a2_n: f64,
    /// Camber-stiffness coefficient `A3` (N/rad per N of load).
    pub a3_per_rad: f64,
    /// Camber-stiffness coefficient `A4` (N): `C_gamma = A3 Fz - (A3 / A4) Fz²`.
    pub a4_n: f64,
    /// Patch-length sensitivity to longitudinal force `Ka` (-).
    pub ka: f64,
    /// Longitudinal stiffness per unit load `CS/FZ` (per unit slip).
    pub cs_fz: f64,
    /// Nominal friction coefficient `mu0` of the reference road (-).
    pub mu0: f64,
    /// Fall of friction with slip, `mu = mu0 (1 - mu_decay w)` (-); the source uses 0.124.
    #[serde(default = "default_mu_decay")]
    pub mu_decay: f64,
}

/// One tyre of the source's Table 1, in the table's units (lb, in, psi, rad).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CalspanImperialTable {
    /// Tread width `Tw` (in).
    pub tw_in: f64,
    /// Inflation pressure `Tp` (psi).
    pub tp_psi: f64,
    /// Rated load `FZT` (lb).
    pub fzt_lb: f64,
    /// Saturation coefficients `C1..C4` (-).
    pub c: [f64; 4],
    /// `A0` (lb/rad).
    pub a0_lb: f64,
    /// `A1` (lb/rad per lb).
    pub a1: f64,
    /// `A2` (lb).
    pub a2_lb: f64,
    /// `A3` (lb/rad per lb).
    pub a3: f64,
    /// `A4` (lb).
    pub a4_lb: f64,
    /// `Ka` (-).
    pub ka: f64,
    /// `CS/FZ` (per unit slip).
    pub cs_fz: f64,
    /// `mu0` (-).
    pub mu0: f64,
}

impl CalspanImperialTable {
    /// Table 1: 155SR13 radial. `Ka` and `mu0` are the values the table gives for this tyre.
    pub const RADIAL_155SR13: Self = Self {
        tw_in: 6.0,
        tp_psi: 24.0,
        fzt_lb: 810.0,
        c: [1.0, 0.34, 0.57, 0.32],
        a0_lb: 914.02,
        a1: 12.9,
        a2_lb: 2028.24,
        a3: 1.19,
        a4_lb: -1019.2,
        ka: 0.05,
        cs_fz: 18.7,
        mu0: 0.85,
    };

    /// Table 1: P155/80D13 bias ply (`Ka` and `mu0` as for the 155SR13, which the table
    /// states once).
    pub const BIAS_P155_80D13: Self = Self {
        tw_in: 6.0,
        tp_psi: 24.0,
        fzt_lb: 900.0,
        c: [0.535, 1.05, 1.15, 0.8],
        a0_lb: 1817.0,
        a1: 7.48,
        a2_lb: 2455.0,
        a3: 1.857,
        a4_lb: 3643.0,
        ka: 0.05,
        cs_fz: 18.7,
        mu0: 0.85,
    };

    /// Table 1: P185/70R13 radial, saturation coefficients as the 155SR13 (`Ka` and `mu0` as
    /// for the 155SR13).
    pub const RADIAL_P185_70R13: Self = Self {
        tw_in: 7.3,
        tp_psi: 24.0,
        fzt_lb: 980.0,
        c: [1.0, 0.34, 0.57, 0.32],
        a0_lb: 1068.0,
        a1: 11.3,
        a2_lb: 2442.73,
        a3: 0.31,
        a4_lb: -1877.0,
        ka: 0.05,
        cs_fz: 17.91,
        mu0: 0.85,
    };
}

impl Default for CalspanTire {
    /// The 155SR13 radial of Table 1.
    fn default() -> Self {
        Self::from_imperial_table(&CalspanImperialTable::RADIAL_155SR13)
    }
}

/// Saturation function `f(sigma)` and its slope `f'(sigma)`, for `sigma >= 0` (may be huge).
#[inline]
fn saturation(c: [f64; 4], sigma: f64) -> (f64, f64) {
    let [c1, c2, c3, c4] = c;
    let k = 4.0 * FRAC_1_PI;
    if sigma <= 1.0 {
        let s = sigma;
        let n = ((c1 * s + c2) * s + k) * s;
        let d = ((c1 * s + c3) * s + c4) * s + 1.0;
        let dn = (3.0 * c1 * s + 2.0 * c2) * s + k;
        let dd = (3.0 * c1 * s + 2.0 * c3) * s + c4;
        (n / d, (dn * d - n * dd) / (d * d))
    } else {
        // Divide through by sigma³ and work in t = 1 / sigma, finite up to sigma = infinity.
        let t = 1.0 / sigma;
        let n = c1 + (c2 + k * t) * t;
        let d = c1 + (c3 + (c4 + t) * t) * t;
        let dn = c2 + 2.0 * k * t;
        let dd = c3 + (2.0 * c4 + 3.0 * t) * t;
        (n / d, -(dn * d - n * dd) / (d * d) * t * t)
    }
}

impl CalspanTire {
    /// Builds the SI model from a row of Table 1 in its own units.
    pub fn from_imperial_table(table: &CalspanImperialTable) -> Self {
        Self {
            tread_width_m: table.tw_in * INCH_M,
            nominal_pressure_pa: table.tp_psi * PSI_PA,
            rated_load_n: table.fzt_lb * LBF_N,
            c1: table.c[0],
            c2: table.c[1],
            c3: table.c[2],
            c4: table.c[3],
            a0_n_per_rad: table.a0_lb * LBF_N,
            a1_per_rad: table.a1,
            a2_n: table.a2_lb * LBF_N,
            a3_per_rad: table.a3,
            a4_n: table.a4_lb * LBF_N,
            ka: table.ka,
            cs_fz: table.cs_fz,
            mu0: table.mu0,
            mu_decay: default_mu_decay(),
        }
    }

    /// Static contact-patch length `ap0` (m) under load `fz` (N) at inflation pressure
    /// `pressure` (Pa; the nominal pressure when not positive).
    pub fn patch_length(&self, fz: f64, pressure: f64) -> f64 {
        let p = if pressure.is_finite() && pressure > 0.0 {
            pressure
        } else {
            self.nominal_pressure_pa
        };
        PATCH_COEFFICIENT * (fz.max(0.0) * self.rated_load_n).sqrt()
            / (self.tread_width_m * (p + PATCH_PRESSURE_OFFSET_PA))
    }

    /// Cornering stiffness magnitude `Ps = A0 + A1 Fz - (A1 / A2) Fz²` (N/rad), held at zero
    /// where the fitted quadratic turns negative.
    pub fn cornering_stiffness(&self, fz: f64) -> f64 {
        (self.a0_n_per_rad + self.a1_per_rad * fz - self.a1_per_rad / self.a2_n * fz * fz).max(0.0)
    }

    /// Camber coefficient `Yg` (per rad): the camber thrust is `Yg gamma mu Fz` in the source's
    /// SAE axes, `-Yg gamma mu Fz` in ISO-W.
    pub fn camber_coefficient(&self, fz: f64) -> f64 {
        (self.a3_per_rad - self.a3_per_rad * fz / self.a4_n) / self.mu0
    }

    fn coefficients(&self) -> [f64; 4] {
        [self.c1, self.c2, self.c3, self.c4]
    }
}

/// The source's longitudinal slip `S` (braking positive, `|S| <= 1`) from the ISO slip ratio.
#[inline]
fn source_slip(kappa: f64) -> f64 {
    if kappa <= 0.0 {
        (-kappa).min(1.0)
    } else {
        -kappa / (1.0 + kappa)
    }
}

/// Brush-model trail factor `t / t0` at normalised slip `psi`, from the shared helper.
#[inline]
fn trail_factor(psi: f64) -> f64 {
    PneumaticTrail {
        initial_trail_m: 1.0,
        sliding_slip_angle_rad: FRAC_PI_4,
    }
    .trail(psi.atan())
}

impl TireModel for CalspanTire {
    fn evaluate(&self, input: &TireInput) -> TireOutput {
        let fz = effective_load(input.fz).min(LOAD_LIMIT_N);
        if fz == 0.0 {
            return TireOutput::default();
        }
        let ps = self.cornering_stiffness(fz);
        let pc = self.cs_fz * fz;
        let mut out = TireOutput {
            slip_stiffness: Some(pc),
            cornering_stiffness: Some(-ps),
            ..TireOutput::default()
        };
        let scale = friction_scale(input.mu_scale);
        let mu_road = self.mu0 * scale;
        if mu_road.is_nan() || mu_road <= MIN_FRICTION {
            return out;
        }

        let alpha = if input.alpha.is_finite() {
            input.alpha.clamp(-FRAC_PI_2, FRAC_PI_2)
        } else {
            0.0
        };
        let gamma = if input.gamma.is_finite() {
            input.gamma.clamp(-FRAC_PI_2, FRAC_PI_2)
        } else {
            0.0
        };
        let s = if input.kappa.is_finite() {
            source_slip(input.kappa)
        } else {
            0.0
        };
        let (sin_a, cos_a) = alpha.sin_cos();
        let tan_a = alpha.tan();
        let x = s / (1.0 - s).max(MIN_ROLLING_SLIP);

        // Slip-dependent friction and longitudinal stiffness.
        let w = (sin_a * sin_a + s * s * cos_a * cos_a).sqrt().min(1.0);
        let mu = mu_road * (1.0 - self.mu_decay * w);
        let pc_mod = pc + (ps - pc) * w;
        let resolve = (ps * tan_a).hypot(pc_mod * s);
        let (share_x, share_y) = if resolve > 0.0 {
            (pc_mod * s / resolve, ps * tan_a / resolve)
        } else {
            (0.0, 0.0)
        };

        // Composite slip at the static patch, then the patch ratio rho = ap / ap0.
        let sigma0 = PI / (4.0 * mu_road * fz) * (ps * tan_a).hypot(pc * x);
        let c = self.coefficients();
        let k = self.ka * share_x * mu;
        let (mut lo, mut hi) = PATCH_RATIO_RANGE;
        let mut rho = 1.0_f64;
        if k != 0.0 && sigma0 > 0.0 {
            for _ in 0..PATCH_SOLVE_STEPS {
                let (f, slope) = saturation(c, sigma0 * rho * rho);
                let h = rho - 1.0 + k * f;
                if h > 0.0 {
                    hi = rho;
                } else {
                    lo = rho;
                }
                let step = h / (1.0 + k * slope * 2.0 * sigma0 * rho);
                if step.is_finite() && step.abs() <= 1e-15 {
                    rho -= step;
                    break;
                }
                let next = rho - step;
                rho = if next > lo && next < hi {
                    next
                } else {
                    0.5 * (lo + hi)
                };
            }
        }
        let sigma = sigma0 * rho * rho;
        let f = saturation(c, sigma).0;

        let fx_src = f * share_x * mu * fz;
        let fy_slip_src = f * share_y * mu * fz;
        out.fx = -fx_src;
        out.fy = -fy_slip_src - self.camber_coefficient(fz) * gamma * mu * fz;

        let ap = self.patch_length(fz, input.pressure) * rho;
        let trail = ap / 6.0 * trail_factor(sigma / SLIDING_COMPOSITE_SLIP);
        out.mz = trail * fy_slip_src;
        out
    }
}

impl Validate for CalspanTire {
    fn validate(&self, v: &mut Validator) {
        v.positive("tread_width_m", self.tread_width_m);
        v.positive("nominal_pressure_pa", self.nominal_pressure_pa);
        v.positive("rated_load_n", self.rated_load_n);
        v.positive("c1", self.c1);
        v.non_negative("c2", self.c2);
        v.non_negative("c3", self.c3);
        v.non_negative("c4", self.c4);
        v.finite("a0_n_per_rad", self.a0_n_per_rad);
        v.finite("a1_per_rad", self.a1_per_rad);
        v.positive("a2_n", self.a2_n);
        v.finite("a3_per_rad", self.a3_per_rad);
        v.require(
            self.a4_n.is_finite() && self.a4_n != 0.0,
            "a4_n",
            "must be finite and not zero",
        );
        v.in_range("ka", self.ka, 0.0, 0.5);
        v.positive("cs_fz", self.cs_fz);
        v.positive("mu0", self.mu0);
        v.in_range("mu_decay", self.mu_decay, 0.0, 0.9);
    }
}

#[cfg(test)]
mod tests;

//! The Magic Formula's equations (`MFeval`'s, see the module above), and what an evaluation
//! may leave out.
//!
//! [`MagicFormula::evaluate_raw`] computes all of `MFeval`'s outputs for [`ALL`]. A vehicle
//! needs only the forces and the aligning moment each tick ([`FORCES`](super::outputs::FORCES): the overturning and
//! rolling-resistance moments and the effective radius are skipped), and its standstill
//! damper only the slope of `Fx` in the slip ratio ([`FX`]: only the pure and combined
//! longitudinal force). What is computed is computed by the same operations in every case, so
//! it is bit for bit the same.

use std::f64::consts::{FRAC_PI_2, PI};

use super::evaluation::MfEvaluation;
use super::fast_atan::{atan, atan_lanes};
use super::fast_sin_cos::{cos, sin};
use super::model::MagicFormula;
use super::outputs::{ALL, FX};
use super::version::MfVersion;
use crate::tire::interface::TireInput;

/// `MFeval`'s universal small number (Pacejka 2012, eq. 4.E6a).
const EPS: f64 = 1e-6;
/// Sanity envelope of the inputs (see the module documentation).
const FZ_SANE: f64 = 1e8;
const KAPPA_SANE: f64 = 1e8;
const VX_SANE: f64 = 1e4;
const PRESSURE_SANE: f64 = 1e9;
const MU_SCALE_MIN: f64 = 1e-6;
const MU_SCALE_MAX: f64 = 1e3;

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

/// The cosine weighting `cos(C atan(B x - E (B x - atan(B x))))` of the combined-slip equations.
#[inline]
fn weighting(b: f64, c: f64, e: f64, x: f64) -> f64 {
    let bx = b * x;
    cos(c * atan(bx - e * (bx - atan(bx))))
}

/// One Magic Formula curve's shape factors and its argument: `B`, `C`, `E` and `x` of
/// `C atan(B x - E (B x - atan(B x)))`.
#[derive(Clone, Copy)]
struct Curve {
    b: f64,
    c: f64,
    e: f64,
    x: f64,
}

/// `C atan(B x - E (B x - atan(B x)))` of independent curves, computed side by side.
///
/// Each curve's two nested arc tangents wait on each other, so one curve alone keeps the
/// processor waiting; independent ones interleaved overlap their waits. Each lane performs
/// exactly the operations of [`weighting`] before its cosine, and so of the Magic Formula
/// `D sin(C atan(B x - E (B x - atan(B x))))` before its sine: one curve's result is the same
/// bits alone or beside others.
// Inlined always: the lanes overlap only once their arc tangents sit inside the evaluation.
#[allow(clippy::inline_always)]
#[inline(always)]
fn shaped_angles<const N: usize>(curves: [Curve; N]) -> [f64; N] {
    let bx = curves.map(|curve| curve.b * curve.x);
    let inner = atan_lanes(bx);
    let mut shaped = [0.0; N];
    for (lane, curve) in curves.iter().enumerate() {
        shaped[lane] = bx[lane] - curve.e * (bx[lane] - inner[lane]);
    }
    let outer = atan_lanes(shaped);
    let mut angles = [0.0; N];
    for (lane, curve) in curves.iter().enumerate() {
        angles[lane] = curve.c * outer[lane];
    }
    angles
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
    /// Effective rolling radius and wheel spin, `MFeval`'s fixed-point iteration on
    /// `omega = (kappa Vx + Vx) / Re`.
    fn effective_radius(&self, fz: f64, vcx: f64, kappa: f64, dpi: f64) -> (f64, f64) {
        let c = &self.coefficients;
        let r0 = c.unloaded_radius;
        let fz0 = c.fnomin;
        let cz = c.vertical_stiffness * (1.0 + c.pfz1 * dpi);
        let load_term = (fz0 / cz) * (c.dreff * atan(c.breff * fz / fz0) + c.freff * fz / fz0);
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

    /// The curve of the pure lateral force at zero camber (`MFeval`'s `Fy0` with `gamma = 0`,
    /// for `Mz'`), with its peak `D` and vertical shift: `Fy0 = D sin(angle) + Svy`, negated
    /// when rolling backwards. `load_shape`: `sin(PKY4 atan(...))` of `Kya` at zero camber when
    /// the caller has it.
    #[allow(clippy::too_many_arguments)]
    fn fy0_zero_camber_curve(
        &self,
        alpha_star: f64,
        fz: f64,
        dfz: f64,
        dpi: f64,
        lmuy_star: f64,
        load_shape: Option<f64>,
    ) -> (Curve, f64, f64) {
        let c = &self.coefficients;
        let fz0p = self.fz0_prime;
        let load_shape = load_shape
            .unwrap_or_else(|| sin(c.pky4 * atan((fz / fz0p) / (c.pky2 * (1.0 + c.ppy2 * dpi)))));
        let kya = c.pky1 * fz0p * (1.0 + c.ppy1 * dpi) * load_shape * c.lky;
        let shy = (c.phy1 + c.phy2 * dfz) * c.lhy;
        let svy = fz * (c.pvy1 + c.pvy2 * dfz) * c.lvy * lmuy_star;
        let alphay = alpha_star + shy;
        let muy = (c.pdy1 + c.pdy2 * dfz) * (1.0 + c.ppy3 * dpi + c.ppy4 * dpi * dpi) * lmuy_star;
        let dy = muy * fz;
        let ey = ((c.pey1 + c.pey2 * dfz) * (1.0 - c.pey3 * sign(alphay)) * c.ley).min(1.0);
        let by = kya / (self.cy * dy + EPS * sign(dy));
        let curve = Curve {
            b: by,
            c: self.cy,
            e: ey,
            x: alphay,
        };
        (curve, dy, svy)
    }

    /// The equations, without the final finiteness guard: everything for `OUT` = [`ALL`];
    /// only `Fx`, `Fy`, `Mz` (and what they need) for [`FORCES`](super::outputs::FORCES); only `Fx` for [`FX`]. The
    /// outputs computed are the same bits whatever `OUT` asks for: the equations skipped feed
    /// none of them.
    pub(super) fn evaluate_raw<const OUT: u8>(&self, input: &TireInput) -> MfEvaluation {
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

        if u_fz <= 0.0 {
            if OUT != ALL {
                return MfEvaluation::default();
            }
            let (re, omega) = self.effective_radius(u_fz, vcx, u_kappa, dpi_of(u_press));
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
                    let w_vlow = 0.5 * (1.0 + cos(PI * (vcx / vxlow)));
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
        let gamma_star = sin(gamma);
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

        // ── Combined slip Fx (4.E50 - 4.E57) ─────────────────────────────────────────────
        let exa = (c.rex1 + c.rex2 * dfz).min(1.0);
        let shxa = c.rhx1;
        let bxa = (c.rbx1 + c.rbx3 * gamma_star * gamma_star) * cos_atan(c.rbx2 * kappa) * c.lxal;
        let alpha_s = alpha_star + shxa;
        let gxa_curve = Curve {
            b: bxa,
            c: c.rcx1,
            e: exa,
            x: alpha_s,
        };
        // Fx0's curve, the weighting Gxa's and its value at zero slip angle: evaluated side by
        // side with the lateral curves (`shaped_angles`), or alone when only Fx is asked for.
        let fx_curves = [
            Curve {
                b: bx,
                c: cx,
                e: ex,
                x: kappa_x,
            },
            gxa_curve,
            Curve {
                x: shxa,
                ..gxa_curve
            },
        ];
        let fx_of = |[fx0_angle, gxa_angle, gxa0_angle]: [f64; 3]| {
            let fx0 = dx * sin(fx0_angle) + svx;
            let fx0 = if vcx < 0.0 { -fx0 } else { fx0 };
            // At zero argument the weighting is exactly 1.
            let gxa0 = if shxa == 0.0 { 1.0 } else { cos(gxa0_angle) };
            let gxa = cos(gxa_angle) / gxa0;
            gxa * fx0
        };

        if OUT == FX {
            return MfEvaluation {
                fx: fx_of(shaped_angles(fx_curves)),
                kxk,
                mux,
                ..MfEvaluation::default()
            };
        }

        // ── Pure lateral force Fy0 (4.E19 - 4.E30; MF 5.2 shift) ────────────────────────
        let cy = self.cy;
        // The aligning moment's trail slip angle and its curvature's arc tangent (4.E42) are
        // needed late but known now: their arc tangent and tangent overlap Kya's load shape's
        // and Svyk's (4.E67) slip-ratio shape's.
        let sht = c.qhz1 + c.qhz2 * dfz + (c.qhz3 + c.qhz4 * dfz) * gamma_star;
        let alpha_t = alpha_star + sht;
        let bt = (c.qbz1 + c.qbz2 * dfz + c.qbz3 * dfz * dfz)
            * (1.0 + c.qbz4 * gamma + c.qbz5 * gamma.abs())
            * c.lky
            / lmuy_star;
        let ct = c.qcz1;
        let (load_angle, svyk_angle, et_angle) = (
            atan(
                (fz / fz0p) / ((c.pky2 + c.pky5 * gamma_star * gamma_star) * (1.0 + c.ppy2 * dpi)),
            ),
            atan(c.rvy6 * kappa),
            atan(bt * ct * alpha_t),
        );
        let tan_alpha_t = alpha_t.tan();
        let (kya_load_shape, svyk_shape) = (sin(c.pky4 * load_angle), sin(c.rvy5 * svyk_angle));
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

        // ── Combined slip Fy (4.E58 - 4.E67) ─────────────────────────────────────────────
        let dvyk = muy
            * fz
            * (c.rvy1 + c.rvy2 * dfz + c.rvy3 * gamma_star)
            * cos_atan(c.rvy4 * alpha_star);
        let svyk = dvyk * svyk_shape * c.lvyka * reduction_smooth;
        let shyk = c.rhy1 + c.rhy2 * dfz;
        let eyk = (c.rey1 + c.rey2 * dfz).min(1.0);
        let byk = (c.rby1 + c.rby4 * gamma_star * gamma_star)
            * cos_atan(c.rby2 * (alpha_star - c.rby3))
            * c.lyka;
        let kappa_s = kappa + shyk;
        let gyk_curve = Curve {
            b: byk,
            c: c.rcy1,
            e: eyk,
            x: kappa_s,
        };
        // MF 6.x's Mz uses Fy' = Gyk * Fy0(gamma = 0): Fy0 itself when camber and the
        // low-speed reductions are absent, else a curve of its own.
        let zero_camber = if is_mf52 || (gamma_star == 0.0 && !low_speed) {
            None
        } else {
            // With PKY5 = 0 the camber leaves kya's load shape as it is.
            let shape_at_zero_camber = (c.pky5 == 0.0).then_some(kya_load_shape);
            Some(self.fy0_zero_camber_curve(
                alpha_star,
                fz,
                dfz,
                dpi,
                lmuy_star,
                shape_at_zero_camber,
            ))
        };
        // Fx's three curves; Fy0's, the weighting Gyk's and its value at zero slip ratio; and
        // Fy0(gamma = 0)'s when needed: all side by side.
        let lanes = [
            fx_curves[0],
            fx_curves[1],
            fx_curves[2],
            Curve {
                b: by,
                c: cy,
                e: ey,
                x: alpha_y,
            },
            gyk_curve,
            Curve {
                x: shyk,
                ..gyk_curve
            },
        ];
        let (
            [
                fx0_angle,
                gxa_angle,
                gxa0_angle,
                fy0_angle,
                gyk_angle,
                gyk0_angle,
            ],
            zero_camber_angle,
        ) = match zero_camber {
            Some((curve, _, _)) => {
                let [a0, a1, a2, a3, a4, a5, a6] = shaped_angles([
                    lanes[0], lanes[1], lanes[2], lanes[3], lanes[4], lanes[5], curve,
                ]);
                ([a0, a1, a2, a3, a4, a5], a6)
            }
            None => (shaped_angles(lanes), 0.0),
        };
        let fx = fx_of([fx0_angle, gxa_angle, gxa0_angle]);
        let mut fy0 = dy * sin(fy0_angle) + svy;
        if vcx < 0.0 {
            fy0 = -fy0;
        }
        let gyk0 = if shyk == 0.0 { 1.0 } else { cos(gyk0_angle) };
        let gyk = cos(gyk_angle) / gyk0;
        let fy = gyk * fy0 + svyk;

        // ── Aligning moment Mz (4.E31 - 4.E49, 4.E71 - 4.E78; paper A54 - A60) ──────────
        let kya_prime = kya + EPS * sign(kya);
        let shf = shy + svy / kya_prime;
        let alpha_r = alpha_star + shf;
        let dt = (c.qdz1 + c.qdz2 * dfz)
            * (1.0 - c.ppz1 * dpi)
            * (1.0 + c.qdz3 * gamma + c.qdz4 * gamma * gamma)
            * fz_mz
            * (r0 / fz0p)
            * c.ltr;
        let et = ((c.qez1 + c.qez2 * dfz + c.qez3 * dfz * dfz)
            * (1.0 + (c.qez4 + c.qez5 * gamma_star) * (2.0 / PI) * et_angle))
            .min(1.0);
        let br = c.qbz9 * c.lky / lmuy_star + c.qbz10 * by * cy;
        let dr = fz_mz
            * r0
            * ((c.qdz6 + c.qdz7 * dfz) * c.lres
                + ((c.qdz8 + c.qdz9 * dfz) * (1.0 + c.ppz2 * dpi)
                    + (c.qdz10 + c.qdz11 * dfz) * gamma_star.abs())
                    * gamma_star
                    * c.lkzc)
            * lmuy_star
            * sign_vcx
            * cos(alpha_star);

        let kappa_term = (kxk / kya_prime).powi(2) * kappa * kappa;
        let tan_alpha_r = alpha_r.tan();
        let (alpha_r_eq, alpha_t_eq) = (
            atan((tan_alpha_r.powi(2) + kappa_term).sqrt()) * sign(alpha_r),
            atan((tan_alpha_t.powi(2) + kappa_term).sqrt()) * sign(alpha_t),
        );
        let s = r0 * (c.ssz1 + c.ssz2 * (fy / fz0) + (c.ssz3 + c.ssz4 * dfz) * gamma) * c.ls;
        // cos(Cr atan(Br alpha_r,eq)) with Cr = 1, without trigonometry.
        let mzr = dr * cos_atan(br * alpha_r_eq) * reduction_smooth;
        let t_weighting = weighting(bt, ct, et, alpha_t_eq);
        let fy0_zero_camber = match zero_camber {
            Some((_, dy_zero_camber, svy_zero_camber)) => {
                let fy0 = dy_zero_camber * sin(zero_camber_angle) + svy_zero_camber;
                if vcx < 0.0 { -fy0 } else { fy0 }
            }
            None => fy0,
        };
        let t = dt * t_weighting * cos_alpha_prime * c.lfzo * reduction_smooth;
        let mz = if is_mf52 {
            -t * (fy - svyk) + mzr + s * fx
        } else {
            -t * (gyk * fy0_zero_camber) + mzr + s * fx
        };

        // ── Overturning moment Mx, rolling-resistance moment My, effective radius ─────────
        if OUT != ALL {
            return MfEvaluation {
                fx,
                fy,
                mz,
                kxk,
                kya,
                mux,
                muy,
                t,
                mzr,
                ..MfEvaluation::default()
            };
        }
        let mx = self.overturning_moment(fz, gamma, fy, dpi);
        let my = self.rolling_moment(u_fz, vcx, u_kappa, gamma, press, fx);
        let (re, omega) = self.effective_radius(u_fz, vcx, u_kappa, dpi_of(u_press));
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

    /// Overturning moment `Mx` (TNO manual form, `FZMIN` low-load reduction).
    fn overturning_moment(&self, fz: f64, gamma: f64, fy: f64, dpi: f64) -> f64 {
        let c = &self.coefficients;
        let fz0 = c.fnomin;
        let r0 = c.unloaded_radius;
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
                * cos(c.qsx5 * atan((c.qsx6 * fz_mx / fz0).powi(2)))
                * sin(c.qsx7 * gamma + c.qsx8 * atan(c.qsx9 * fy / fz0))
        };
        let mx_camber = if c.qsx10 == 0.0 {
            0.0
        } else {
            c.qsx10 * atan(c.qsx11 * fz_mx / fz0) * gamma
        };
        r0 * fz_mx
            * c.lmx
            * (c.qsx1 * c.lvmx - c.qsx2 * gamma * (1.0 + c.ppmx1 * dpi)
                + c.qsx3 * (fy / fz0)
                + mx_mixed
                + mx_camber)
            + r0 * c.lmx
                * (fy * (c.qsx13 + c.qsx14 * gamma.abs()) - fz_mx * c.qsx12 * gamma * gamma.abs())
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
            my *= sin(FRAC_PI_2 * (u_kappa - x0) / (high - x0));
        } else if u_kappa < low {
            my = -my;
        }
        my
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Magic Formula's curve angle of one curve alone, written as the scalar equation.
    fn alone(curve: Curve) -> f64 {
        let bx = curve.b * curve.x;
        curve.c * atan(bx - curve.e * (bx - atan(bx)))
    }

    #[test]
    fn curves_side_by_side_give_each_curve_alone_bit_for_bit() {
        // Shape factors of the shipped tyres' order (B 0.1-40, C 1-2, E -5-1) over slips
        // from deep negative to deep positive, with lanes of unlike magnitude side by side.
        let mut curves = Vec::new();
        for (i, b) in [0.13, 2.7, 11.4, 39.0].into_iter().enumerate() {
            for c in [1.0, 1.31, 1.9] {
                for e in [-4.8, -0.6, 0.0, 0.97] {
                    for x in [-1.2, -0.08, -1e-9, 0.0, 0.003, 0.21, 3.0] {
                        curves.push(Curve {
                            b: b * (1.0 + 0.01 * i as f64),
                            c,
                            e,
                            x,
                        });
                    }
                }
            }
        }
        let same = |lanes: &[f64], of: &[Curve]| {
            lanes
                .iter()
                .zip(of)
                .all(|(angle, curve)| angle.to_bits() == alone(*curve).to_bits())
        };
        for window in curves.windows(7) {
            let three = [window[0], window[3], window[6]];
            assert!(
                same(&shaped_angles(three), &three),
                "{:?}",
                three.map(|c| c.x)
            );
            let seven = [
                window[0], window[1], window[2], window[3], window[4], window[5], window[6],
            ];
            assert!(same(&shaped_angles(seven), &seven));
        }
        // A non-finite lane leaves the others as they are.
        let poisoned = [
            curves[5],
            Curve {
                b: f64::NAN,
                ..curves[9]
            },
        ];
        let angles = shaped_angles(poisoned);
        assert_eq!(angles[0].to_bits(), alone(curves[5]).to_bits());
        assert!(angles[1].is_nan());
    }
}

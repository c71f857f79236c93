//! A TORCS wheel's tyre as Gripline's simplified Pacejka tyre
//! ([`SimplifiedPacejka`]), which has TORCS's own curve and load law.
//!
//! TORCS's `simuv2` (`wheel.cpp`, `SimWheelConfig` and `SimWheelUpdateForce`, TORCS 1.3.7):
//!
//! ```text
//! C = 2 - 2 asin(dynamic friction) / pi        (dynamic friction clamped to 0.1..1)
//! B = stiffness / C,  E = elasticity factor    (E at most 1)
//! F = sin(C atan(B s (1 - E) + E atan(B s)))   s = |(sx, sy)|, sx slip ratio, sy = sin(slip angle)
//! F *= Fz mu (lfMin + (lfMax - lfMin) exp(lfK Fz / opLoad)) kFriction (1 + 0.05 sin(-camber 18))
//! Ft = -F sx / s,  Fn = -F sy / s
//! ```
//!
//! with `lfK = ln((1 - lfMin) / (lfMax - lfMin))`, `lfMin = min(0.8, load factor min)`,
//! `lfMax = max(1.6, load factor max)` and `opLoad` defaulting to 1.2 times the wheel's static
//! load. Gripline's curve is the same with `B`, `C`, `E` as they are, `D = mu (1 + 0.05
//! sin(-camber 18))` (the camber term is a constant of the car, folded into the peak) and the
//! same curve both ways; its combined slip divides each slip by the curve's peak slip, which
//! with equal curves is TORCS's slip magnitude. Its load law ([`LoadSensitivity`]) is
//! TORCS's, applied as TORCS applies it, to the force at every slip
//! (`load_factor_scales_stiffness`). What differs: Gripline uses the slip angle where TORCS
//! uses its sine (under 1 % apart below 14 degrees), and does not hold the slip at 1.5
//! (TORCS's curve is flat there). TORCS has no aligning moment; Gripline's needs a pneumatic
//! trail, taken as a sixth of TORCS's own contact-patch length `Fz0 / (width * pressure)`.

use gripline_physics::tire::load_sensitivity::LoadSensitivity;
use gripline_physics::tire::simplified_pacejka::{PacejkaCoefficients, SimplifiedPacejka};

use super::figures::{Figures, WHEEL_SECTIONS};
use crate::error::TorcsError;

/// Smallest shape factor `C` Gripline's curve takes (it must exceed 1, which TORCS reaches at
/// a dynamic friction of 100 %).
const MIN_SHAPE: f64 = 1.01;

/// The tyre of TORCS corner `corner` (0 front right .. 3 rear left) whose static load is
/// `weight0_n` (N, TORCS's `weight0`). Remarks on clamped figures go to `warnings`.
///
/// # Errors
/// A figure that is text, or not finite.
pub fn tyre_of_corner(
    f: &Figures,
    corner: usize,
    weight0_n: f64,
    warnings: &mut Vec<String>,
) -> Result<SimplifiedPacejka, TorcsError> {
    let s = WHEEL_SECTIONS[corner];
    let mu = f.num(s, "mu", 1.0)?;
    let stiffness = f.num(s, "stiffness", 30.0)?;
    let dynamic_friction = f.num(s, "dynamic friction", 0.8)?.clamp(0.1, 1.0);
    let elasticity = f.num(s, "elasticity factor", 0.7)?.min(1.0);
    let lf_max = f.num(s, "load factor max", 1.6)?.max(1.6);
    let lf_min = f.num(s, "load factor min", 0.8)?.min(0.8);
    let op_load = f.num(s, "operating load", weight0_n * 1.2)?;
    let camber = f.num(s, "camber", 0.0)?;
    let width = f.num(s, "tire width", 0.145)?;
    let pressure = f.num(s, "pressure", 275_600.0)?;
    let mut c = 2.0 - 2.0 * dynamic_friction.asin() / std::f64::consts::PI;
    if c < MIN_SHAPE {
        warnings.push(format!(
            "{s}: a dynamic friction of {:.0} % gives TORCS's shape factor C = {c:.3}; \
             Gripline's curve needs C > 1: {MIN_SHAPE} used",
            dynamic_friction * 100.0
        ));
        c = MIN_SHAPE;
    }
    let curve = PacejkaCoefficients {
        b: stiffness / c,
        c,
        d: mu * (1.0 + 0.05 * (-camber * 18.0).sin()),
        e: elasticity,
    };
    let patch_length_m = weight0_n / (width * pressure);
    Ok(SimplifiedPacejka {
        lateral: curve,
        longitudinal: curve,
        initial_trail_m: patch_length_m / 6.0,
        sliding_slip_angle_rad: None,
        load_sensitivity: Some(LoadSensitivity {
            max_factor: lf_max,
            min_factor: lf_min,
            reference_load_n: op_load,
        }),
        load_factor_scales_stiffness: true,
    })
}

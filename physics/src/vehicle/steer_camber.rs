//! Camber change with steer: a wheel turned about an inclined kingpin axis leans.
//!
//! # Geometry
//!
//! Body axes (ISO 8855: x forward, y left, z up); `s = +1` for the left wheel, `-1` for the
//! right; caster `τ` (the axis' top leans rearwards) and kingpin inclination `σ` (its top leans
//! inboard), both positive as on a road car. The kingpin axis, pointing up, is
//!
//! ```text
//! e = (-tan τ, -s tan σ, 1) / N,   N = sqrt(1 + tan² τ + tan² σ)
//!   = (-k_τ, -s k_σ, e_z)
//! ```
//!
//! Steering the wheel by `δ` (positive to the left) rotates its spin axis, pointing outboard
//! `a₀ = (0, s, 0)` at the straight-ahead, about `e` (Rodrigues):
//! `a(δ) = a₀ cos δ + (e × a₀) sin δ + e (e·a₀)(1 - cos δ)`, whose vertical component is
//!
//! ```text
//! a_z(δ) = -s k_τ sin δ - e_z k_σ (1 - cos δ)
//! ```
//!
//! An outboard end of the spin axis raised by `a_z` leans the wheel's top inboard, so the
//! camber change in car terms (degrees, negative = top of the wheel towards the car's centre,
//! as `static_camber_deg`) is
//!
//! ```text
//! Δγ = -asin(a_z) = asin(s k_τ sin δ + e_z k_σ (1 - cos δ))
//!    ≈ s sin τ sin δ + sin σ (1 - cos δ)          (small τ, σ)
//! ```
//!
//! The small-angle form is the textbook one (Milliken & Milliken, *Race Car Vehicle
//! Dynamics*, ch. 19 "Steering systems"; Gillespie, *Fundamentals of Vehicle Dynamics*,
//! ch. 8): caster leans the outer wheel's top inboard (negative camber, `s sin δ < 0` on the
//! outer wheel) and the inner wheel's outboard, in proportion to `sin δ`; kingpin inclination
//! leans both wheels' tops outboard (positive camber), in proportion to `1 - cos δ`, so its
//! effect is small at road-going steer angles. Left and right are mirror images:
//! `Δγ(-s, -δ) = Δγ(s, δ)`.
//!
//! The change is added to the wheel's camber from the suspension (static camber and camber
//! gain); the coupling of a static camber with the rotation is second order and left out.

use super::params::SteeringParams;

/// The kingpin axis' components `(k_τ, k_σ, e_z)` for caster `caster_rad` and kingpin
/// inclination `inclination_rad` (see the module docs): the axis pointing up is
/// `(-k_τ, -s k_σ, e_z)`.
#[inline]
pub(crate) fn axis_components(caster_rad: f64, inclination_rad: f64) -> (f64, f64, f64) {
    let (tan_caster, tan_incl) = (caster_rad.tan(), inclination_rad.tan());
    let n = (1.0 + tan_caster * tan_caster + tan_incl * tan_incl).sqrt();
    (tan_caster / n, tan_incl / n, 1.0 / n)
}

/// The rise `a_z` of the outboard end of a steered wheel's spin axis (see the module docs)
/// and its derivative `d a_z / dδ`, for the axis' `components` ([`axis_components`]), on
/// `side` (`+1` left, `-1` right) at a steer whose sine and cosine are `sin`, `cos`.
#[inline]
pub(crate) fn spin_axis_rise(
    (k_caster, k_incl, e_z): (f64, f64, f64),
    side: f64,
    sin: f64,
    cos: f64,
) -> (f64, f64) {
    let rise = -side * k_caster * sin - e_z * k_incl * (1.0 - cos);
    let slope = -side * k_caster * cos - e_z * k_incl * sin;
    (rise, slope)
}

/// Camber change (deg, car terms: negative = top of the wheel towards the car's centre, as
/// `static_camber_deg`) of a front wheel on `side` (`+1` left, `-1` right) steered by
/// `steer_rad` (road-wheel angle without toe, positive left) about the kingpin axis of
/// `steering` (its caster and kingpin inclination): `asin(s k_τ sin δ + e_z k_σ (1 - cos δ))`,
/// see the module docs. Exactly zero straight ahead or with neither caster nor inclination.
#[inline]
pub fn steer_camber_deg(steering: &SteeringParams, side: f64, steer_rad: f64) -> f64 {
    if steer_rad == 0.0 || (steering.caster_deg == 0.0 && steering.kingpin_inclination_deg == 0.0) {
        return 0.0;
    }
    let components = axis_components(
        steering.caster_deg.to_radians(),
        steering.kingpin_inclination_deg.to_radians(),
    );
    let (sin, cos) = steer_rad.sin_cos();
    let (rise, _) = spin_axis_rise(components, side, sin, cos);
    -rise.clamp(-1.0, 1.0).asin().to_degrees()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vehicle::params::VehicleParams;

    fn steering(caster_deg: f64, kingpin_inclination_deg: f64) -> SteeringParams {
        SteeringParams {
            caster_deg,
            kingpin_inclination_deg,
            ..VehicleParams::default().steering
        }
    }

    #[test]
    fn camber_with_steer_follows_the_formula_and_is_symmetric() {
        let s = steering(7.0, 11.0);
        let (tc, ti) = (7f64.to_radians().tan(), 11f64.to_radians().tan());
        let n = (1.0 + tc * tc + ti * ti).sqrt();
        for delta_deg in [-30.0, -10.0, -1.0, 0.0, 2.0, 15.0, 35.0] {
            let delta = f64::to_radians(delta_deg);
            for side in [1.0, -1.0] {
                // Hand formula, written out again.
                let hand = (side * tc / n * delta.sin() + ti / (n * n) * (1.0 - delta.cos()))
                    .asin()
                    .to_degrees();
                let got = steer_camber_deg(&s, side, delta);
                assert!(
                    (got - hand).abs() < 1e-12,
                    "{delta_deg} {side}: {got} vs {hand}"
                );
                // The small-angle textbook form s sin(caster) sin(delta) + sin(KPI) (1 - cos
                // delta) differs by terms of second order in the angles: within 4 % of the
                // size of its two parts here.
                let caster_part = side * 7f64.to_radians().sin() * delta.sin();
                let kpi_part = 11f64.to_radians().sin() * (1.0 - delta.cos());
                let small = (caster_part + kpi_part).to_degrees();
                let size = (caster_part.abs() + kpi_part.abs()).to_degrees();
                assert!(
                    (got - small).abs() <= 0.04 * size + 1e-12,
                    "{got} vs {small}"
                );
            }
            // Mirror image: the right wheel at -delta is the left wheel at +delta.
            let left = steer_camber_deg(&s, 1.0, delta);
            let right = steer_camber_deg(&s, -1.0, -delta);
            assert_eq!(left.to_bits(), right.to_bits());
        }
        // A 20 degree left turn: the outer (right) wheel leans in, the inner out; KPI adds
        // positive camber to both, so the inner gains more than the outer loses.
        let delta = 20f64.to_radians();
        let (inner, outer) = (
            steer_camber_deg(&s, 1.0, delta),
            steer_camber_deg(&s, -1.0, delta),
        );
        assert!(
            outer < -1.5 && inner > 2.5 && inner + outer > 0.0,
            "{inner} {outer}"
        );
    }

    #[test]
    fn kingpin_inclination_alone_gives_both_wheels_positive_camber() {
        let s = steering(0.0, 12.0);
        for delta in [-0.4, 0.4] {
            for side in [1.0, -1.0] {
                let got = steer_camber_deg(&s, side, delta);
                // With no caster the axis is e = (0, -s sin(KPI), cos(KPI)): e_z k = sin cos.
                let kpi = 12f64.to_radians();
                let hand = (kpi.sin() * kpi.cos() * (1.0 - f64::cos(delta)))
                    .asin()
                    .to_degrees();
                assert!(got > 0.0 && (got - hand).abs() < 1e-12, "{got} vs {hand}");
            }
        }
    }

    #[test]
    fn no_caster_and_no_inclination_give_exactly_no_change() {
        let s = steering(0.0, 0.0);
        for delta in [-0.5, 0.0, 0.3] {
            assert_eq!(steer_camber_deg(&s, 1.0, delta).to_bits(), 0f64.to_bits());
            assert_eq!(steer_camber_deg(&s, -1.0, delta).to_bits(), 0f64.to_bits());
        }
    }
}

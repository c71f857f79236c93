//! The kingpin (steering) axis of a front wheel and the road's moment about it.
//!
//! # Geometry
//!
//! Body axes (ISO 8855: x forward, y left, z up), `s = +1` for the left wheel and `-1` for the
//! right, steer `δ` positive to the left (the road-wheel angle without toe: the geometry is
//! given at the static alignment). From [`SteeringParams`]:
//!
//! - caster `τ`: the axis' top leans rearwards; kingpin inclination `σ`: its top leans
//!   inboard. The axis pointing up is `e = (-tan τ, -s tan σ, 1) / N = (-k_τ, -s k_σ, e_z)`,
//!   `N = sqrt(1 + tan² τ + tan² σ)`.
//! - The axis meets the ground at `G`; the contact centre lies at `C = G + (-t, s r_s, 0)`:
//!   the mechanical trail `t` behind it and the scrub radius `r_s` outboard of it. `t` is
//!   `R tan τ` (`R` the loaded wheel radius) for a hub on the axis unless the file gives it;
//!   a trail given apart from `R tan τ` stands for a hub offset `R tan τ - t` ahead of the
//!   axis. The wheel centre is `W = C + (0, 0, R)`, its offset from the axis at hub height
//!   (the spindle length) `d = r_s + R tan σ`.
//!
//! # The road's moment about the axis (positive turning the wheel left)
//!
//! **Ground-plane forces and the aligning moment.** `Fx`, `Fy` act at `C` in the wheel's
//! ground plane and `Mz` about the ground normal, all in the wheel's (steered) ISO-W frame. The
//! lever `C - G` and the force turn together with the wheel about the vertical, so the moment
//! of a ground-plane force, `(C - G) × F`, is vertical and its projection on `e` is
//!
//! ```text
//! M_h = e_z (Mz - t Fy - s r_s Fx)
//! ```
//!
//! (`e_z = cos` of the axis' lean: Gillespie's lateral-force moment `Fy t cos`). The tyre's
//! overturning and rolling-resistance moments are left out.
//!
//! **Vertical load (jacking).** Turning the wheel by `δ` about `e` (Rodrigues) moves its
//! centre and leans it ([`super::steer_camber`]: the spin axis' outboard end rises by `a_z`).
//! With the body held, the wheel's lowest point then stands at
//!
//! ```text
//! h(δ) = W_z(δ) - R sqrt(1 - a_z²),
//! W_z(δ) = R cos δ + (e × W₀)_z sin δ + e_z (e·W₀)(1 - cos δ),
//! (e × W₀)_z = -s (k_τ r_s + k_σ t),   e·W₀ = k_τ t - k_σ r_s + e_z R
//! ```
//!
//! relative to the ground (`W₀ = W - G` at `δ = 0`, `h(0) = 0`); the ground lifts the corner
//! by `-h`. By virtual work the load `Fz` then turns the wheel with the moment
//!
//! ```text
//! M_v = -Fz d(lift)/dδ = Fz h'(δ),
//! h'(δ) = -R sin δ + (e × W₀)_z cos δ + e_z (e·W₀) sin δ + R a_z a_z' / sqrt(1 - a_z²)
//! ```
//!
//! which is exact for a thin disc wheel on a rigid tyre. For small angles it is
//!
//! ```text
//! M_v ≈ -s Fz (r_s sin τ + t sin σ) cos δ - Fz (d sin σ - t sin τ) sin δ
//! ```
//!
//! the vertical-load moments of Milliken & Milliken (*Race Car Vehicle Dynamics*, ch. 19
//! "Steering systems") and Gillespie (*Fundamentals of Vehicle Dynamics*, ch. 8), whose
//! `-(Fz,L + Fz,R) d sin σ sin δ` lifts the car as either wheel steers away from the centre
//! and so centres the steering (with `d` the spindle length), and whose caster term
//! `(r_s sin τ) cos δ` acts in opposite senses on the two sides: it cancels when the loads are
//! equal and adds the load difference's moment when they are not. The derivation carries two
//! more terms. `t sin σ` beside `r_s sin τ`: with trail and inclination, steering raises the
//! inner corner and lowers the outer (caster jacking), so in a turn the more heavily loaded
//! outer wheel turns the wheels a little into the turn. And `+Fz t sin τ sin δ`: with trail,
//! steering leans the wheel (caster camber) and the car drops, which turns the wheel further
//! (a bicycle's "wheel flop"). Kingpin
//! inclination outweighs it on a road car (C5: `d sin σ = 0.014 m` against
//! `t sin τ = 0.004 m`). Caster's own centring at parking speed on a real car comes from the
//! load difference the diagonal jacking makes through the springs; here steering does not
//! move the wheels in their suspension, so that part is missing.
//!
//! The wheel's moment is `M_kp = M_h + M_v`, and the column sees
//! `(1 - power_assist) * efficiency * (M_kp,L + M_kp,R) / ratio` ([`SteeringParams`]).

use super::params::SteeringParams;
use super::steer_camber::{axis_components, spin_axis_rise};

/// What a steered wheel puts on its kingpin axis: steer angle, tyre forces in the wheel's
/// ISO-W contact frame and the aligning moment.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct KingpinLoads {
    /// Road-wheel steer angle without toe (rad, positive left).
    pub steer_rad: f64,
    /// Longitudinal force (N, positive driving).
    pub fx: f64,
    /// Lateral force (N, positive to the left).
    pub fy: f64,
    /// Vertical tyre load (N, positive pressing the tyre on the road).
    pub fz: f64,
    /// Aligning moment about the ground normal (N·m, positive turning the wheel left).
    pub mz: f64,
}

/// The kingpin axis of a front wheel (see the module docs for the geometry).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KingpinAxis {
    /// Caster angle `τ` (rad), positive with the axis' top rearwards.
    pub caster_rad: f64,
    /// Kingpin inclination `σ` (rad), positive with the axis' top inboard.
    pub inclination_rad: f64,
    /// Mechanical trail `t` at the ground (m), positive with the contact behind the axis.
    pub trail_m: f64,
    /// Scrub radius `r_s` at the ground (m), positive with the contact outboard of the axis.
    pub scrub_radius_m: f64,
    /// Loaded wheel radius `R` (m).
    pub wheel_radius_m: f64,
}

impl KingpinAxis {
    /// The axis of `steering` for a wheel of loaded radius `wheel_radius_m`; the trail is
    /// `steering.mechanical_trail_m` where given, else `R tan(caster)`.
    pub fn of(steering: &SteeringParams, wheel_radius_m: f64) -> Self {
        Self {
            caster_rad: steering.caster_deg.to_radians(),
            inclination_rad: steering.kingpin_inclination_deg.to_radians(),
            trail_m: steering.trail_m(wheel_radius_m),
            scrub_radius_m: steering.scrub_radius_m,
            wheel_radius_m,
        }
    }

    /// The unit axis pointing up, `(x, y, z)` in body axes, for `side` (`+1` left, `-1` right).
    pub fn direction(&self, side: f64) -> [f64; 3] {
        let (k_caster, k_incl, e_z) = self.components();
        [-k_caster, -side * k_incl, e_z]
    }

    /// How far the ground lifts the corner (m) when the wheel on `side` is steered by
    /// `steer_rad` with the body held: `-h(δ)` of the module docs.
    pub fn lift_m(&self, side: f64, steer_rad: f64) -> f64 {
        let components = self.components();
        let (sin, cos) = steer_rad.sin_cos();
        let (w_z, _) = self.centre_height(components, side, sin, cos);
        let (rise, _) = spin_axis_rise(components, side, sin, cos);
        let r = self.wheel_radius_m;
        -(w_z - r * (1.0 - rise * rise).max(0.0).sqrt())
    }

    /// The vertical load's moment about the axis (N·m, positive turning the wheel left) of
    /// the wheel on `side` at `steer_rad` with tyre load `fz`: `M_v = Fz h'(δ)`.
    pub fn jacking_moment(&self, side: f64, steer_rad: f64, fz: f64) -> f64 {
        self.jacking_with(self.components(), side, steer_rad, fz)
    }

    /// The road's whole moment about the axis of the wheel on `side` (N·m, positive turning
    /// the wheel left): `e_z (Mz - t Fy - s r_s Fx) + M_v`.
    pub fn moment(&self, side: f64, wheel: &KingpinLoads) -> f64 {
        let components = self.components();
        let ground = wheel.mz - self.trail_m * wheel.fy - side * self.scrub_radius_m * wheel.fx;
        components.2 * ground + self.jacking_with(components, side, wheel.steer_rad, wheel.fz)
    }

    /// `(k_τ, k_σ, e_z)`: the axis pointing up is `(-k_τ, -s k_σ, e_z)`.
    fn components(&self) -> (f64, f64, f64) {
        axis_components(self.caster_rad, self.inclination_rad)
    }

    /// [`KingpinAxis::jacking_moment`] with the axis' components already computed.
    fn jacking_with(&self, components: (f64, f64, f64), side: f64, steer_rad: f64, fz: f64) -> f64 {
        let (sin, cos) = steer_rad.sin_cos();
        let (_, w_z_slope) = self.centre_height(components, side, sin, cos);
        let (rise, rise_slope) = spin_axis_rise(components, side, sin, cos);
        let lean = (1.0 - rise * rise).max(1e-12).sqrt();
        fz * (w_z_slope + self.wheel_radius_m * rise * rise_slope / lean)
    }

    /// The wheel centre's height above the ground at the straight-ahead, `W_z(δ)`, and its
    /// slope `W_z'(δ)`, with the body held, at a steer of sine `sin` and cosine `cos`.
    fn centre_height(
        &self,
        (k_caster, k_incl, e_z): (f64, f64, f64),
        side: f64,
        sin: f64,
        cos: f64,
    ) -> (f64, f64) {
        let (e_x, e_y) = (-k_caster, -side * k_incl);
        let (t, r_s, r) = (self.trail_m, self.scrub_radius_m, self.wheel_radius_m);
        // W0 = (-t, s r_s, R) from the axis' ground point.
        let cross_z = e_x * side * r_s + e_y * t;
        let dot = -e_x * t + e_y * side * r_s + e_z * r;
        let height = r * cos + cross_z * sin + e_z * dot * (1.0 - cos);
        let slope = -r * sin + cross_z * cos + e_z * dot * sin;
        (height, slope)
    }
}

#[cfg(test)]
mod tests {
    use glam::{DQuat, DVec3};

    use super::*;

    fn c5_axis() -> KingpinAxis {
        KingpinAxis {
            caster_rad: 7f64.to_radians(),
            inclination_rad: 11f64.to_radians(),
            trail_m: 0.03,
            scrub_radius_m: 0.01,
            wheel_radius_m: 0.326,
        }
    }

    /// The lowest point of the wheel's rim, turned as a rigid body about the axis through its
    /// ground point, found by brute force over 36 000 rim points (m, below the ground when
    /// negative): independent of the closed form.
    fn lowest_rim_point(axis: &KingpinAxis, side: f64, steer_rad: f64) -> f64 {
        let e = DVec3::from_array(axis.direction(side));
        let turn = DQuat::from_axis_angle(e, steer_rad);
        let (t, r_s, r) = (axis.trail_m, axis.scrub_radius_m, axis.wheel_radius_m);
        let centre = DVec3::new(-t, side * r_s, r);
        (0..36_000)
            .map(|i| {
                let phi = f64::from(i) * std::f64::consts::TAU / 36_000.0;
                let rim = centre + r * DVec3::new(phi.cos(), 0.0, phi.sin());
                (turn * rim).z
            })
            .fold(f64::INFINITY, f64::min)
    }

    #[test]
    fn lift_is_the_turned_wheels_lowest_point() {
        let axis = c5_axis();
        for side in [1.0, -1.0] {
            for delta in [-0.6, -0.2, -0.01, 0.0, 0.05, 0.3, 0.6] {
                let lift = axis.lift_m(side, delta);
                let brute = -lowest_rim_point(&axis, side, delta);
                assert!(
                    (lift - brute).abs() < 1e-8,
                    "{side} {delta}: {lift} vs {brute}"
                );
            }
        }
        // Kingpin inclination lifts the car whichever way the wheel turns.
        let incl_only = KingpinAxis {
            caster_rad: 0.0,
            trail_m: 0.0,
            ..c5_axis()
        };
        for delta in [-0.4, 0.4] {
            assert!(incl_only.lift_m(1.0, delta) > 0.0 && incl_only.lift_m(-1.0, delta) > 0.0);
        }
    }

    /// `M_v = -Fz d(lift)/d(delta)`: the closed-form derivative against a central difference.
    #[test]
    fn jacking_moment_is_the_loads_work_on_the_lift() {
        let axis = c5_axis();
        let (fz, h) = (4000.0, 1e-6);
        for side in [1.0, -1.0] {
            for delta in [-0.5, -0.1, 0.0, 0.02, 0.3, 0.55] {
                let slope =
                    (axis.lift_m(side, delta + h) - axis.lift_m(side, delta - h)) / (2.0 * h);
                let expected = -fz * slope;
                let got = axis.jacking_moment(side, delta, fz);
                assert!(
                    (got - expected).abs() < 1e-5,
                    "{side} {delta}: {got} vs {expected}"
                );
            }
        }
    }

    /// Both wheels steered alike with equal loads: the sum centres (opposes the steer) and is
    /// about `-2 Fz (d sin(KPI) - t sin(caster)) sin(delta)` (the small-angle form: within 4 %
    /// at 3 degrees of steer, 8 % at 17 degrees); a vertical axis gives exactly none.
    #[test]
    fn equal_loads_centre_the_wheels_through_kingpin_inclination() {
        let axis = c5_axis();
        let fz = 4000.0;
        let spindle = 0.01 + 0.326 * 11f64.to_radians().tan();
        let per = 2.0 * fz * (spindle * 11f64.to_radians().sin() - 0.03 * 7f64.to_radians().sin());
        for delta in [-0.3, -0.05, 0.05, 0.3] {
            let sum = axis.jacking_moment(1.0, delta, fz) + axis.jacking_moment(-1.0, delta, fz);
            let hand = -per * f64::sin(delta);
            let tolerance = if f64::abs(delta) < 0.1 { 0.04 } else { 0.08 };
            assert!(
                sum * delta < 0.0 && (sum / hand - 1.0).abs() < tolerance,
                "{delta}: {sum} vs {hand}"
            );
        }
        let upright = KingpinAxis {
            caster_rad: 0.0,
            inclination_rad: 0.0,
            ..c5_axis()
        };
        for delta in [-0.3, 0.3] {
            // Exactly zero (of either sign).
            assert!(upright.jacking_moment(1.0, delta, fz).abs() < f64::MIN_POSITIVE);
            assert!(upright.jacking_moment(-1.0, delta, fz).abs() < f64::MIN_POSITIVE);
        }
    }

    /// Straight ahead with caster and scrub, the load toes each wheel in (left wheel to the
    /// right): `-s Fz (k_c r_s + k_i t)`, opposite on the two sides.
    #[test]
    fn straight_ahead_the_load_moments_are_opposite_on_the_two_sides() {
        let axis = c5_axis();
        let [e_x, _, _] = axis.direction(1.0);
        let k_i = -axis.direction(1.0)[1];
        let hand = -4000.0 * (-e_x * 0.01 + k_i * 0.03);
        let left = axis.jacking_moment(1.0, 0.0, 4000.0);
        let right = axis.jacking_moment(-1.0, 0.0, 4000.0);
        assert!(
            (left - hand).abs() < 1e-9 && (right + hand).abs() < 1e-9,
            "{left} {right} {hand}"
        );
    }
}

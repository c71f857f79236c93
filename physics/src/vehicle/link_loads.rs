//! Geometric load transfer: the vertical forces that the suspension links pass between the
//! tyres and the body when the tyres push sideways or lengthways.
//!
//! A tyre's ground-plane force reaches the body through the links along the line from its
//! contact patch to the suspension's instant centre, not through the spring. In front view
//! that line passes through the axle's roll centre, at height `h_rc` on the car's centre
//! line, so a lateral force `Fy` at a patch `t/2` to the side carries a vertical component
//! `Fy · h_rc / (t/2)`: it presses the outer tyre down and lifts the inner one (the jacking
//! force). Over an axle this is the geometric load transfer `Fy_axle · h_rc / t`; the springs
//! and bars carry the rest, `m · a_y · (h - h_rc) / t` shared by roll stiffness, so the total
//! steady-state transfer is `m · a_y · h / t` for any roll-centre heights (Milliken &
//! Milliken, *Race Car Vehicle Dynamics*, ch. 18). The same holds in side view: a
//! longitudinal force `Fx` on a line of slope `tan θ = f · h / L` (`f` the axle's
//! `anti_pitch_fraction`, `h` the CG height, `L` the wheelbase) passes `Fx · tan θ` to the
//! tyre load: anti-dive under braking at the front, anti-lift under drive at the front,
//! anti-squat under drive and anti-lift under braking at the rear. `f = 1` at an axle whose
//! tyres alone brake or drive carries all of that axle's pitch transfer through the links.
//!
//! Because the force acts along the line through the patch, the body receives the whole tyre
//! force (these vertical components included) at the contact patch. The links act on this
//! step's loads with the tyres' forces of the step before: one millisecond of lag, which keeps
//! the tyre evaluation single (the loop gain `dFz/dFy = 2 h_rc / t` is about 0.1).

use glam::{DQuat, DVec3};

use super::params::VehicleParams;

/// The link forces on the tyre loads (N, positive pressing the tyre down) of wheels
/// `[FL, FR, RL, RR]` from the tyres' ground-plane forces `planar_forces_body` (N, in the body
/// frame: x forward, y left) of the step before. `side` is +1 for a left wheel, -1 for a
/// right one.
#[must_use]
pub fn link_loads_n(params: &VehicleParams, planar_forces_body: &[DVec3; 4]) -> [f64; 4] {
    let c = &params.chassis;
    let pitch_slope = c.cg_height_m / c.wheelbase_m;
    std::array::from_fn(|i| {
        let axle = i / 2;
        let ap = params.axle(axle);
        let side = if i % 2 == 0 { 1.0 } else { -1.0 };
        let f = planar_forces_body[i];
        // Front view: the outer tyre (the one the force points away from) is pressed down.
        let lateral = -side * f.y * ap.roll_centre_height_m / (0.5 * ap.track_m);
        // Side view: braking (fx < 0) presses the front down and lifts the rear.
        let pitch_sign = if axle == 0 { -1.0 } else { 1.0 };
        let longitudinal = pitch_sign * f.x * ap.anti_pitch_fraction * pitch_slope;
        let load = lateral + longitudinal;
        if load.is_finite() { load } else { 0.0 }
    })
}

/// The world-frame ground-plane forces `planar_forces_world` expressed in the body frame of
/// `orientation`.
#[must_use]
pub fn in_body_frame(orientation: DQuat, planar_forces_world: &[DVec3; 4]) -> [DVec3; 4] {
    let to_body = orientation.inverse();
    planar_forces_world.map(|f| to_body.mul_vec3(f))
}

#[cfg(test)]
#[allow(clippy::float_cmp)]
mod tests {
    use super::*;

    /// An axle pushed sideways: the link forces move `Fy_axle · h_rc / t` from the inner to
    /// the outer tyre and sum to `(Fy_outer - Fy_inner) · 2 h_rc / t`; pitch forces follow
    /// `Fx · f · h / L`.
    #[test]
    fn links_move_load_by_the_roll_centre_and_anti_pitch_geometry() {
        let mut p = VehicleParams::default();
        p.front.roll_centre_height_m = 0.1;
        p.rear.roll_centre_height_m = 0.0;
        p.front.anti_pitch_fraction = 0.5;
        let t = p.front.track_m;
        // A left turn: forces to the left (+y); the right wheel is the outer one.
        let forces = [
            DVec3::new(0.0, 2000.0, 0.0),
            DVec3::new(0.0, 3000.0, 0.0),
            DVec3::new(0.0, 2500.0, 0.0),
            DVec3::new(0.0, 2500.0, 0.0),
        ];
        let l = link_loads_n(&p, &forces);
        assert!((l[0] + 2000.0 * 0.1 / (0.5 * t)).abs() < 1e-9);
        assert!((l[1] - 3000.0 * 0.1 / (0.5 * t)).abs() < 1e-9);
        assert_eq!(l[2], 0.0);
        assert_eq!(l[3], 0.0);
        // The axle's transfer (outer - inner) / 2 · t is Fy_axle · h_rc.
        assert!(((l[1] - l[0]) / 2.0 * t - 5000.0 * 0.1).abs() < 1e-9);
        // Braking at the front: anti-dive presses the front tyres down.
        let braking = [DVec3::new(-3000.0, 0.0, 0.0); 4];
        let l = link_loads_n(&p, &braking);
        let expected = 3000.0 * 0.5 * p.chassis.cg_height_m / p.chassis.wheelbase_m;
        assert!((l[0] - expected).abs() < 1e-9 && (l[1] - expected).abs() < 1e-9);
        assert_eq!(l[2], 0.0);
        // Nothing non-finite reaches a tyre.
        let bad = [DVec3::NAN; 4];
        assert_eq!(link_loads_n(&p, &bad), [0.0; 4]);
    }
}

//! Steady-state lateral load transfer against the force balance (Milliken & Milliken, *Race
//! Car Vehicle Dynamics*, ch. 18): whatever the roll-centre heights, the transfers of the two
//! axles together carry the whole overturning moment, `ΔFz_f t_f + ΔFz_r t_r = m a_y h`
//! (`ΔFz` half the outer-minus-inner load difference); how they split follows the roll
//! centres and the roll stiffnesses. The body's roll moves its CG outwards over the contact
//! patches by some `Δy`, which adds `m g Δy` (Gillespie, *Fundamentals of Vehicle Dynamics*,
//! eq. 8-9's `W h1 φ` term, there with `Δy = h1 φ`): both forms are checked, the second with
//! `Δy` measured from where the wheels stand and the CG's height as it is in the turn.

use super::{DT, car, steady_turn};
use crate::vehicle::Vehicle;

/// A steady left turn's figures.
struct SteadyTurn {
    /// Per axle `(outer - inner) / 2 · track` (N·m).
    transfer: [f64; 2],
    /// `m a_y h` (N·m), `h` the design CG height.
    moment: f64,
    /// `m a_y h' + m g Δy` (N·m) with the CG's height `h'` and outward shift `Δy` as they are
    /// in the turn.
    actual_moment: f64,
    /// `a_y = v_x r` (m/s²) from the body's own motion.
    ay: f64,
}

/// [`SteadyTurn`] at `speed` (m/s) with the steering wheel at `wheel_rad`.
fn steady_left_turn(v: &mut Vehicle, speed: f64, wheel_rad: f64) -> SteadyTurn {
    steady_turn(v, speed, wheel_rad, DT);
    let s = v.snapshot();
    let p = v.params();
    let transfer: [f64; 2] = std::array::from_fn(|axle| {
        // Left turn: the right wheel (index 1 of the axle) is the outer one.
        let (inner, outer) = (s.wheels[2 * axle].load_n, s.wheels[2 * axle + 1].load_n);
        0.5 * (outer - inner) * p.axle(axle).track_m
    });
    let ay = s.velocity_body.x * s.angular_velocity_body.z;
    let (m, h) = (v.mass_kg(), p.chassis.cg_height_m);
    // The CG's offset to the right (outwards) of the load-weighted centre of each axle's
    // two patches, in the ground plane across the car's heading.
    let heading = s.orientation.mul_vec3(glam::DVec3::X);
    let left = glam::DVec3::new(-heading.y, heading.x, 0.0).normalize();
    let weight: f64 = s.wheels.iter().map(|w| w.load_n).sum();
    let offset: f64 = (0..2)
        .map(|axle| {
            let (l, r) = (&s.wheels[2 * axle], &s.wheels[2 * axle + 1]);
            let centre = 0.5 * (l.centre_position + r.centre_position);
            (l.load_n + r.load_n) * (centre - s.position).dot(left)
        })
        .sum::<f64>()
        / weight;
    // `m a_y`: the tyres' force across the car (the car slows a little as it coasts, so
    // `m v_x r` is 1-2 % short of it).
    let lateral_force: f64 = s
        .wheels
        .iter()
        .map(|w| w.fy_n * w.steer_angle_rad.cos() + w.fx_n * w.steer_angle_rad.sin())
        .sum();
    eprintln!(
        "m a_y {lateral_force:.0} N (m v_x r {:.0} N), CG {:.4} m high (design {h} m), \
         {offset:.4} m outboard",
        m * ay,
        s.position.z,
    );
    SteadyTurn {
        transfer,
        moment: lateral_force * h,
        actual_moment: lateral_force * s.position.z + weight * offset,
        ay,
    }
}

/// The axles' transfers sum to `m a_y h' + m g Δy` (the CG's height and outward shift as they
/// are in the turn) within 1 % at 0.44 and 0.71 g, for the default roll centres, for none and
/// for roll centres raised to 0.3 m, and to `m a_y h` within 3 % but for the last (before the
/// links carried their share the sum was `m a_y (h - h_rc)`, 18 % short with the default roll
/// centres).
#[test]
fn the_axles_carry_the_whole_overturning_moment() {
    for (rc_front, rc_rear) in [(0.05, 0.1), (0.3, 0.3), (0.0, 0.0)] {
        for wheel_rad in [0.6, 1.2] {
            let mut v = car();
            let mut p = v.params().clone();
            p.front.roll_centre_height_m = rc_front;
            p.rear.roll_centre_height_m = rc_rear;
            v = Vehicle::new(p, v.tires().clone()).expect("valid");
            let turn = steady_left_turn(&mut v, 20.0, wheel_rad);
            let [front, rear] = turn.transfer;
            let ratio = (front + rear) / turn.moment;
            let with_roll = (front + rear) / turn.actual_moment;
            let ay = turn.ay;
            eprintln!(
                "roll centres {rc_front}/{rc_rear} m, a_y {ay:.2} m/s²: front {front:.0}, \
                 rear {rear:.0} N·m; sum/(m a_y h) {ratio:.4}, with the roll's CG shift \
                 {with_roll:.4}"
            );
            assert!(ay > 4.0, "a real turn: {ay}");
            assert!((with_roll - 1.0).abs() < 0.01, "{with_roll}");
            // Roll centres 0.3 m high jack the body up about 13 mm at 0.7 g: against the design
            // height only the usual ones.
            if rc_front < 0.2 {
                assert!((ratio - 1.0).abs() < 0.03, "{ratio}");
            }
        }
    }
}

/// Raising the front roll centre moves lateral load transfer to the front axle (and away
/// from the rear), the total staying `m a_y h`.
#[test]
fn a_higher_front_roll_centre_moves_transfer_forward() {
    let transfer_with = |rc_front: f64| {
        let mut v = car();
        let mut p = v.params().clone();
        p.front.roll_centre_height_m = rc_front;
        v = Vehicle::new(p, v.tires().clone()).expect("valid");
        let turn = steady_left_turn(&mut v, 20.0, 1.0);
        let [front, rear] = turn.transfer;
        (front / turn.moment, rear / turn.moment)
    };
    let (low_front, low_rear) = transfer_with(0.0);
    let (high_front, high_rear) = transfer_with(0.25);
    eprintln!(
        "front share {low_front:.3} -> {high_front:.3}, rear {low_rear:.3} -> {high_rear:.3}"
    );
    assert!(high_front > low_front + 0.05);
    assert!(high_rear < low_rear);
}

//! Standing still: static loads, settling, parking on the level and on a grade, landing,
//! a rolled car.

use std::f64::consts::PI;

use glam::{DQuat, DVec3};

use super::{DT, TiltedPlane, car, run};
use crate::controls::Controls;
use crate::ground::FlatGround;
use crate::vehicle::{GRAVITY, Pose, Vehicle};

fn max_speed_over(
    v: &mut Vehicle,
    controls: &Controls,
    ground: &impl crate::ground::Ground,
    seconds: f64,
) -> f64 {
    let mut worst = 0.0_f64;
    for _ in 0..(seconds / DT).round() as usize {
        v.step(controls, ground, DT);
        worst = worst.max(v.snapshot().speed_m_per_s);
    }
    worst
}

/// Dropped 3 cm above ride height with a little pitch and roll, the car settles within 2 s
/// and its wheel loads are the weight split by the CG position: 51 % front (within 0.5 %).
#[test]
fn settles_to_the_static_weight_split() {
    let mut v = car();
    let g = FlatGround::default();
    let h = v.params().chassis.cg_height_m;
    v.reset_to(Pose {
        position: DVec3::new(0.0, 0.0, h + 0.03),
        orientation: DQuat::from_rotation_y(0.01) * DQuat::from_rotation_x(0.01),
    });
    let c = Controls::default();
    run(&mut v, &c, &g, 2.0, DT);
    let mut worst_vz = 0.0_f64;
    for _ in 0..1000 {
        v.step(&c, &g, DT);
        worst_vz = worst_vz.max(v.snapshot().velocity_world.z.abs());
    }
    assert!(worst_vz < 1e-3, "vertical speed after 2 s: {worst_vz} m/s");
    let s = v.snapshot();
    let loads: Vec<f64> = s.wheels.iter().map(|w| w.load_n).collect();
    let total: f64 = loads.iter().sum();
    let weight = v.mass_kg() * GRAVITY;
    let front_share = (loads[0] + loads[1]) / total;
    eprintln!(
        "loads {loads:?}, total {total:.2} N vs weight {weight:.2} N, front {front_share:.5}"
    );
    assert!((total / weight - 1.0).abs() < 0.005);
    assert!((front_share / 0.51 - 1.0).abs() < 0.005);
    // Left and right equal, each wheel its quarter of the axle share.
    let front_wheel = weight * 0.51 / 2.0;
    let rear_wheel = weight * 0.49 / 2.0;
    for (i, l) in loads.iter().enumerate() {
        let expected = if i < 2 { front_wheel } else { rear_wheel };
        assert!(
            (l / expected - 1.0).abs() < 0.005,
            "wheel {i}: {l} vs {expected}"
        );
    }
    // Ride height back at the design CG height.
    assert!(
        (s.position.z - h).abs() < 1e-3,
        "CG height {}",
        s.position.z
    );
}

/// Parked on level ground, brakes off, for 60 s: no creep, no jitter.
#[test]
fn parked_on_level_ground_stays_put() {
    let mut v = car();
    let g = FlatGround::default();
    let start = v.pose().position;
    let worst = max_speed_over(&mut v, &Controls::default(), &g, 60.0);
    let drift = (v.pose().position - start).length();
    eprintln!("level: max speed {worst:.3e} m/s, drift {drift:.3e} m");
    assert!(worst < 1e-3 && drift < 1e-3);
    let spins = v.snapshot().wheels.map(|w| w.spin_rad_per_s.abs());
    assert!(spins.iter().all(|s| *s < 1e-6), "{spins:?}");
}

/// Parked on a 15 % grade, held by the handbrake alone (rear wheels), facing up and facing
/// down the hill, for 60 s: it moves less than 1 cm.
#[test]
fn handbrake_holds_on_a_fifteen_percent_grade() {
    let plane = TiltedPlane::grade_along_x(0.15);
    for heading in [0.0, PI] {
        let mut v = car();
        let pose = v.pose_at_rest(DVec3::ZERO, plane.normal, heading);
        v.reset_to(pose);
        let c = Controls {
            handbrake: 1.0,
            ..Controls::default()
        };
        run(&mut v, &c, &plane, 0.5, DT);
        let settled = v.pose().position;
        let worst = max_speed_over(&mut v, &c, &plane, 30.0);
        let half = (v.pose().position - settled).length();
        let worst = worst.max(max_speed_over(&mut v, &c, &plane, 30.0));
        let moved = (v.pose().position - settled).length();
        let from_reset = (v.pose().position - pose.position).length();
        eprintln!(
            "grade, heading {heading}: settling {from_reset:.4} m, then {half:.3e} m in 30 s, \
             {moved:.3e} m in 60 s, max speed {worst:.3e} m/s"
        );
        assert!(moved < 0.01, "moved {moved} m");
        assert!(
            from_reset < 0.01,
            "moved {from_reset} m from the reset pose"
        );
        // Without the handbrake the same car rolls away.
        let mut free = car();
        free.reset_to(pose);
        run(&mut free, &Controls::default(), &plane, 2.0, DT);
        assert!((free.pose().position - pose.position).length() > 0.5);
    }
}

/// Released on a 15 % grade without brakes the car rolls away smoothly: its acceleration is
/// the slope's `g sin(theta)` less rolling resistance, shared with the wheels' inertia
/// (within 3 %), and it does not jitter from one tick to the next.
#[test]
fn rolls_away_smoothly_from_rest_on_a_grade() {
    let plane = TiltedPlane::grade_along_x(0.15);
    let mut v = car();
    let pose = v.pose_at_rest(DVec3::ZERO, plane.normal, 0.0);
    v.reset_to(pose);
    let c = Controls::default();
    let mut previous = 0.0;
    let mut worst_jerk = 0.0_f64;
    let mut accel_sum = 0.0;
    let n = 1500;
    for i in 0..2000 {
        v.step(&c, &plane, DT);
        let a = v.snapshot().acceleration_body.x;
        if i >= 500 {
            worst_jerk = worst_jerk.max((a - previous).abs());
            accel_sum += a;
        }
        previous = a;
    }
    let theta = 0.15f64.atan();
    let p = v.params();
    let rotating: f64 = (0..4)
        .map(|i| {
            let w = &p.axle(i / 2).wheel;
            w.spin_inertia_kg_m2 / (w.radius_m * w.radius_m)
        })
        .sum();
    let m = v.mass_kg();
    let speed = v.snapshot().speed_m_per_s;
    let rr = m * GRAVITY * theta.cos() * (0.004 + 9.0e-5 * speed * 0.5);
    let expected = -(m * GRAVITY * theta.sin() - rr) / (m + rotating);
    let mean = accel_sum / f64::from(n);
    eprintln!(
        "rolling back: mean accel {mean:.4} vs {expected:.4} m/s², worst tick-to-tick change {worst_jerk:.2e}"
    );
    assert!((mean / expected - 1.0).abs() < 0.03);
    assert!(worst_jerk < 0.01, "jitter {worst_jerk} m/s² per tick");
}

/// Dropped from 1 m above ride height it lands, settles and stays finite.
#[test]
fn free_fall_lands_and_settles() {
    let mut v = car();
    let g = FlatGround::default();
    let h = v.params().chassis.cg_height_m;
    v.reset_to(Pose::from_position_yaw(DVec3::new(0.0, 0.0, h + 1.0), 0.3));
    let c = Controls::default();
    let mut lowest = f64::MAX;
    for _ in 0..5000 {
        v.step(&c, &g, DT);
        let s = v.snapshot();
        assert!(s.position.is_finite() && s.velocity_world.is_finite());
        lowest = lowest.min(s.position.z);
    }
    let s = v.snapshot();
    eprintln!(
        "landing: lowest CG {lowest:.3} m, final {:.4} m, speed {:.2e}",
        s.position.z, s.speed_m_per_s
    );
    assert!(lowest > 0.2, "CG went down to {lowest} m");
    assert!((s.position.z - h).abs() < 2e-3);
    assert!(s.speed_m_per_s < 1e-3);
    assert!(s.wheels.iter().all(|w| w.contact));
}

/// Started upside down with the roof 0.5 m above the ground, the car lands on its roof and
/// comes to rest there, without falling through.
#[test]
fn a_rolled_car_rests_on_its_roof() {
    let mut v = car();
    let g = FlatGround::default();
    let roof_above_cg = v.params().body.height_m - v.params().chassis.cg_height_m;
    v.reset_to(Pose {
        position: DVec3::new(0.0, 0.0, roof_above_cg + 0.5),
        orientation: DQuat::from_rotation_x(PI),
    });
    let c = Controls::default();
    let mut lowest = f64::MAX;
    for _ in 0..5000 {
        v.step(&c, &g, DT);
        let s = v.snapshot();
        assert!(s.position.is_finite());
        lowest = lowest.min(s.position.z);
    }
    let s = v.snapshot();
    let up = s.orientation.mul_vec3(DVec3::Z);
    eprintln!(
        "roof: lowest CG {lowest:.4} m, final {:.4} m, up {up:?}, speed {:.2e}, contacts {}",
        s.position.z, s.speed_m_per_s, s.body_contacts
    );
    assert!(up.z < -0.99, "still upside down");
    assert!(lowest > roof_above_cg - 0.05, "sank to {lowest} m");
    assert!((s.position.z - roof_above_cg).abs() < 0.02);
    assert!(s.speed_m_per_s < 1e-2 && s.angular_velocity_world.length() < 1e-2);
    assert!(s.wheels.iter().all(|w| !w.contact));
}

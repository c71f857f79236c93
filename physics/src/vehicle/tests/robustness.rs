//! Robustness: random controls on every tyre family, lost cars, standstill on every family.

use std::f64::consts::PI;

use glam::{DQuat, DVec3};

use super::{DT, TiltedPlane, run};
use crate::controls::Controls;
use crate::ground::{FlatGround, Ground, Surface};
use crate::tire::{
    BrushTire, CalspanTire, FrictionTableTire, SimplifiedPacejka, SlipVelocityTire, Tire,
};
use crate::vehicle::{Pose, Vehicle, VehicleParams};

/// One tyre of every family the physics crate can build without files.
fn families() -> Vec<Tire> {
    vec![
        Tire::SimplifiedPacejka(SimplifiedPacejka::default()),
        Tire::Brush(BrushTire::default()),
        Tire::Calspan(CalspanTire::default()),
        Tire::SlipVelocity(SlipVelocityTire::default()),
        Tire::FrictionTable(FrictionTableTire::default()),
    ]
}

fn car_on(tire: &Tire) -> Vehicle {
    Vehicle::new(VehicleParams::default(), [tire.clone(), tire.clone()]).expect("valid")
}

/// Deterministic pseudo-random numbers in [0, 1) (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A plane whose surface changes in stripes along x, to cross surfaces at speed.
struct Stripes;

impl Ground for Stripes {
    fn ray_cast(
        &self,
        origin: DVec3,
        direction: DVec3,
        max_distance: f64,
    ) -> Option<crate::ground::GroundHit> {
        let mut hit = FlatGround::default().ray_cast(origin, direction, max_distance)?;
        let stripe = (hit.point.x / 7.0)
            .floor()
            .rem_euclid(Surface::ALL.len() as f64) as usize;
        hit.surface = Surface::ALL[stripe];
        Some(hit)
    }
}

/// Ten seconds of random controls (new values every 50 to 500 ms, steering anywhere within
/// and beyond the lock, pedals, handbrake) on every tyre family, on striped surfaces: every
/// state and telemetry value stays finite.
#[test]
fn random_controls_never_give_non_finite_states() {
    for (n, tire) in families().iter().enumerate() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ n as u64);
        let mut v = car_on(tire);
        v.set_forward_speed(10.0 + 40.0 * rng.next());
        let mut controls = Controls::default();
        let mut hold = 0usize;
        for _ in 0..10_000 {
            if hold == 0 {
                controls = Controls {
                    steering_wheel_rad: (rng.next() - 0.5) * 20.0,
                    throttle: rng.next(),
                    brake: if rng.next() < 0.4 { rng.next() } else { 0.0 },
                    handbrake: if rng.next() < 0.15 { 1.0 } else { 0.0 },
                    clutch: rng.next(),
                    ..Controls::default()
                };
                hold = 50 + (rng.next() * 450.0) as usize;
            }
            hold -= 1;
            v.step(&controls, &Stripes, DT);
            let s = *v.snapshot();
            assert!(
                s.position.is_finite()
                    && s.orientation.is_finite()
                    && s.velocity_world.is_finite()
                    && s.angular_velocity_world.is_finite()
                    && s.acceleration_body.is_finite()
                    && s.column_torque_n_m.is_finite(),
                "{} at {:.3} s: {s:?}",
                tire.family(),
                s.time_s
            );
            for w in &s.wheels {
                assert!(
                    [
                        w.load_n,
                        w.slip_ratio,
                        w.slip_angle_rad,
                        w.fx_n,
                        w.fy_n,
                        w.mz_n_m
                    ]
                    .iter()
                    .all(|x| x.is_finite())
                        && w.spin_rad_per_s.is_finite()
                );
            }
        }
        let s = *v.snapshot();
        eprintln!(
            "{}: after 10 s at {:.1} m/s, {:.0} m from the start",
            tire.family(),
            s.speed_m_per_s,
            s.position.length()
        );
    }
}

/// Garbage in: NaN and infinite controls, a NaN or zero time step, do nothing harmful.
#[test]
fn garbage_controls_and_time_steps_are_harmless() {
    let mut v = car_on(&families()[0]);
    let g = FlatGround::default();
    let before = *v.snapshot();
    v.step(&Controls::default(), &g, f64::NAN);
    v.step(&Controls::default(), &g, 0.0);
    v.step(&Controls::default(), &g, -1.0);
    assert_eq!(format!("{before:?}"), format!("{:?}", v.snapshot()));
    let bad = Controls {
        steering_wheel_rad: f64::NAN,
        throttle: f64::INFINITY,
        brake: f64::NEG_INFINITY,
        handbrake: f64::NAN,
        ..Controls::default()
    };
    run(&mut v, &bad, &g, 1.0, DT);
    assert!(v.snapshot().position.is_finite());
    v.reset_to(Pose {
        position: DVec3::splat(f64::NAN),
        orientation: DQuat::from_xyzw(f64::NAN, 0.0, 0.0, 1.0),
    });
    run(&mut v, &Controls::default(), &g, 0.1, DT);
    assert!(v.snapshot().position.is_finite());
}

/// A car below the ground, or far outside the world, falls but stays finite (drag gives it a
/// terminal speed).
#[test]
fn lost_cars_stay_finite() {
    for start in [DVec3::new(0.0, 0.0, -3.0), DVec3::new(1e7, -1e7, 5e3)] {
        let mut v = car_on(&families()[0]);
        v.reset_to(Pose {
            position: start,
            orientation: DQuat::from_rotation_x(0.3),
        });
        v.set_forward_speed(30.0);
        run(
            &mut v,
            &Controls::default(),
            &FlatGround::default(),
            20.0,
            DT,
        );
        let s = *v.snapshot();
        eprintln!(
            "lost car from {start}: now at {} moving {:.1} m/s",
            s.position, s.speed_m_per_s
        );
        assert!(s.position.is_finite() && s.velocity_world.is_finite());
        assert!(s.speed_m_per_s < 300.0);
    }
}

/// Every tyre family holds the car on a 15 % grade with the handbrake, and keeps a parked
/// car still on the level: the low-speed treatment does not depend on the tyre model.
#[test]
fn every_family_parks_and_holds_on_a_grade() {
    let plane = TiltedPlane::grade_along_x(0.15);
    for tire in families() {
        let mut v = car_on(&tire);
        run(
            &mut v,
            &Controls::default(),
            &FlatGround::default(),
            10.0,
            DT,
        );
        let level = *v.snapshot();
        let level_drift = level.position.truncate().length();
        for heading in [0.0, PI] {
            let pose = v.pose_at_rest(DVec3::ZERO, plane.normal, heading);
            v.reset_to(pose);
            let c = Controls {
                handbrake: 1.0,
                ..Controls::default()
            };
            run(&mut v, &c, &plane, 1.0, DT);
            let settled = v.pose().position;
            run(&mut v, &c, &plane, 10.0, DT);
            let moved = (v.pose().position - settled).length();
            eprintln!(
                "{} heading {heading:.2}: level drift {level_drift:.2e} m, grade: {moved:.2e} m in 10 s",
                tire.family()
            );
            assert!(level_drift < 1e-3 && level.speed_m_per_s < 1e-3);
            assert!(moved < 0.01, "{} moved {moved} m", tire.family());
        }
    }
}

/// A reset car is the same as a new one: after a drive with gear changes, fuel burnt and a
/// gearbox mode switch, `reset_to` (in place, allocation-free) and then the same inputs give
/// bit-identical snapshots to a freshly built car.
#[test]
fn reset_car_replays_bit_identically_to_a_new_one() {
    use crate::powertrain::GearboxMode;
    let g = FlatGround::default();
    let fresh = car_on(&families()[0]);
    let start = fresh.pose();
    let mut used = fresh.clone();
    let drive = Controls {
        throttle: 1.0,
        steering_wheel_rad: 0.3,
        ..Controls::default()
    };
    run(&mut used, &drive, &g, 5.0, DT);
    used.powertrain_mut().set_mode(GearboxMode::Sequential);
    run(&mut used, &drive, &g, 0.5, DT);
    used.reset_to(start);
    let mut new = fresh;
    new.reset_to(start);
    for _ in 0..3000 {
        used.step(&drive, &g, DT);
        new.step(&drive, &g, DT);
    }
    assert_eq!(
        format!("{:?}", used.snapshot()),
        format!("{:?}", new.snapshot())
    );
    assert_eq!(
        used.powertrain().telemetry().mode,
        new.powertrain().telemetry().mode
    );
}

//! Robustness of the shipped cars on the shipped proving ground: random controls across every
//! surface never give a non-finite state, a jump off the 20 % ramp lands upright, and a reset
//! always recovers. The short soak runs in CI; the long one is `--ignored`.

use std::sync::OnceLock;

use glam::DVec3;
use gripline_formats::track_file::{LoadedTrack, load_track};
use gripline_formats::vehicle_file::load_vehicle;
use gripline_physics::controls::Controls;
use gripline_physics::ground::Ground;
use gripline_physics::vehicle::{Pose, Snapshot, Vehicle};
use gripline_tests::assets_dir;
use gripline_tests::random_controls::RandomControls;

const CARS: [&str; 3] = ["corvette-c5", "hatchback-fwd", "rally-awd"];

fn proving_ground() -> &'static LoadedTrack {
    static TRACK: OnceLock<LoadedTrack> = OnceLock::new();
    TRACK.get_or_init(|| {
        load_track(&assets_dir().join("tracks/proving-ground.ron"))
            .unwrap_or_else(|e| panic!("{e}"))
    })
}

fn car(name: &str) -> Vehicle {
    load_vehicle(&assets_dir().join(format!("vehicles/{name}.ron")))
        .and_then(|v| v.build())
        .unwrap_or_else(|e| panic!("{e}"))
}

fn rest_pose(vehicle: &Vehicle, x: f64, y: f64, heading: f64) -> Pose {
    let hit = proving_ground()
        .mesh
        .ray_cast(DVec3::new(x, y, 50.0), -DVec3::Z, 100.0)
        .expect("ground under the start");
    vehicle.pose_at_rest(hit.point, hit.normal, heading)
}

fn finite(s: &Snapshot) -> bool {
    s.position.is_finite()
        && s.orientation.is_finite()
        && s.velocity_world.is_finite()
        && s.angular_velocity_world.is_finite()
        && s.column_torque_n_m.is_finite()
        && s.powertrain.engine_rpm.is_finite()
        && s.wheels.iter().all(|w| {
            w.load_n.is_finite()
                && w.fx_n.is_finite()
                && w.fy_n.is_finite()
                && w.spin_rad_per_s.is_finite()
        })
}

/// Random controls held for 0.2 s at a time for `seconds`, on the surface patchwork and the
/// pads around it; a car that leaves the world is reset to the start. Returns the resets.
fn soak(name: &str, seconds: f64, seed: u64) -> u32 {
    let mut vehicle = car(name);
    let start = rest_pose(&vehicle, 960.0, 150.0, 0.0);
    vehicle.reset_to(start);
    let track = proving_ground();
    let mut rng = RandomControls::new(seed);
    let mut controls = Controls::default();
    let mut resets = 0;
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let ticks = (seconds * 1000.0) as u64;
    for tick in 0..ticks {
        if tick % 200 == 0 {
            controls = rng.controls();
        }
        vehicle.step(&controls, &track.mesh, 0.001);
        let s = vehicle.snapshot();
        assert!(finite(s), "{name}: non-finite state at tick {tick}: {s:?}");
        if s.position.z < -20.0 || s.position.truncate().length() > 5_000.0 {
            vehicle.reset_to(start);
            resets += 1;
            let after = vehicle.snapshot();
            assert!(
                finite(after) && after.speed_m_per_s < 1e-9,
                "{name}: reset did not recover"
            );
        }
    }
    resets
}

#[test]
fn random_controls_on_every_surface_stay_finite() {
    for (i, name) in CARS.iter().enumerate() {
        let resets = soak(name, 20.0, 0x5eed + i as u64);
        eprintln!("{name}: 20 s of random controls, {resets} resets");
    }
}

#[test]
#[ignore = "long soak: cargo test -p gripline-tests --test it vehicle_robustness -- --ignored"]
fn long_soak() {
    for (i, name) in CARS.iter().enumerate() {
        let resets = soak(name, 600.0, 0xfeed + i as u64);
        eprintln!("{name}: 600 s of random controls, {resets} resets");
    }
}

/// At about 23 m/s over the crest of the 20 % ramp the car leaves the ground (4.5 m/s
/// upwards), flies,
/// lands upright and drives on; a reset afterwards puts it back at rest.
#[test]
fn jumping_off_the_twenty_percent_ramp_lands_upright() {
    for name in CARS {
        let mut vehicle = car(name);
        // On the asphalt approach, 15 m before the foot of the ramp.
        let start = rest_pose(&vehicle, 505.0, 160.0, 0.0);
        vehicle.reset_to(start);
        vehicle.set_forward_speed(25.0);
        let track = proving_ground();
        let throttle = Controls {
            throttle: 0.3,
            ..Controls::default()
        };
        let mut airborne_ticks = 0;
        for _ in 0..5000 {
            vehicle.step(&throttle, &track.mesh, 0.001);
            let s = vehicle.snapshot();
            assert!(finite(s), "{name}: non-finite in the jump");
            if s.wheels.iter().all(|w| !w.contact) {
                airborne_ticks += 1;
            }
        }
        let s = vehicle.snapshot();
        let up = s.orientation.mul_vec3(DVec3::Z).z;
        eprintln!(
            "{name}: airborne {airborne_ticks} ms, upright {up:.3}, now at x {:.1}",
            s.position.x
        );
        assert!(
            airborne_ticks > 50,
            "{name}: never left the ground ({airborne_ticks} ms)"
        );
        assert!(up > 0.95, "{name}: landed on its side or roof ({up})");
        vehicle.reset_to(start);
        for _ in 0..2000 {
            vehicle.step(
                &Controls {
                    brake: 1.0,
                    ..Controls::default()
                },
                &track.mesh,
                0.001,
            );
        }
        assert!(
            vehicle.snapshot().speed_m_per_s < 0.01,
            "{name}: not at rest after a reset"
        );
    }
}

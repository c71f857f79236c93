//! One `Vehicle::step` of each shipped car on the circuit (Magic Formula tyres, mesh ground),
//! rolling at 30 m/s with a little steering and throttle: the cost of one 1 kHz tick. The
//! circuit has barriers (walls the body's points are tested against every tick); the
//! `no-barriers` entries run the Corvette on the same circuit without them, for comparison.
//! With Debian's `torcs-data` installed, `corvette-c5/forza` runs it on TORCS's forza with
//! the generated ground alone and `corvette-c5/forza-closed` in the closed world a drive
//! gets (the scene's ground beyond the road, the boundary wall: issue 33).
//!
//! Run: `cargo bench -p gripline-tests --bench vehicle_step`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use gripline_formats::track_file::load_track;
use gripline_formats::vehicle_file::load_vehicle;
use gripline_physics::controls::Controls;
use gripline_tests::assets_dir;
use gripline_torcs::track::load::{load_torcs_track, load_torcs_world};

fn steps(c: &mut Criterion) {
    let track = match load_track(&assets_dir().join("tracks/circuit.ron")) {
        Ok(track) => track,
        Err(e) => panic!("{e}"),
    };
    let bare = {
        let mut layout = track.layout.clone();
        layout.barriers = None;
        match layout.build_mesh() {
            Ok(mesh) => mesh,
            Err(e) => panic!("{e}"),
        }
    };
    let forza = std::path::Path::new("/usr/share/games/torcs/tracks/road/forza/forza.xml");
    let forza = forza.is_file().then(|| {
        let generated = load_torcs_track(forza).map(|t| t.mesh);
        let closed = load_torcs_world(forza).map(|(t, _)| t.mesh);
        match (generated, closed) {
            (Ok(g), Ok(c)) => (g, c),
            (Err(e), _) | (_, Err(e)) => panic!("{e}"),
        }
    });
    if forza.is_none() {
        eprintln!("forza skipped: /usr/share/games/torcs is absent (install torcs-data)");
    }
    let mut group = c.benchmark_group("vehicle_step");
    let mut runs = vec![
        ("corvette-c5", "corvette-c5", &track.mesh),
        ("corvette-c5", "corvette-c5/no-barriers", &bare),
        ("hatchback-fwd", "hatchback-fwd", &track.mesh),
        ("rally-awd", "rally-awd", &track.mesh),
    ];
    if let Some((generated, closed)) = &forza {
        runs.push(("corvette-c5", "corvette-c5/forza", generated));
        runs.push(("corvette-c5", "corvette-c5/forza-closed", closed));
    }
    for (name, label, mesh) in runs {
        let start = mesh.centre_line.samples()[10];
        let heading = start.tangent.y.atan2(start.tangent.x);
        let loaded = match load_vehicle(&assets_dir().join(format!("vehicles/{name}.ron"))) {
            Ok(v) => v,
            Err(e) => panic!("{e}"),
        };
        let mut vehicle = match loaded.build() {
            Ok(v) => v,
            Err(e) => panic!("{e}"),
        };
        let pose = vehicle.pose_at_rest(start.position, start.normal, heading);
        vehicle.reset_to(pose);
        vehicle.set_forward_speed(30.0);
        let controls = Controls {
            steering_wheel_rad: 0.05,
            throttle: 0.3,
            ..Controls::default()
        };
        for _ in 0..200 {
            vehicle.step(&controls, mesh, 0.001);
        }
        // Each sample advances the car; re-place it regularly so it stays on the circuit.
        let mut count = 0u32;
        group.bench_function(label, |b| {
            b.iter(|| {
                count += 1;
                if count.is_multiple_of(2000) {
                    vehicle.reset_to(pose);
                    vehicle.set_forward_speed(30.0);
                }
                vehicle.step(black_box(&controls), mesh, 0.001);
            });
        });
    }
    group.finish();
}

criterion_group!(benches, steps);
criterion_main!(benches);

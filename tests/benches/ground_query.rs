//! Ground queries of one tick's four wheels along the circuit, the car moving 3 cm per tick
//! (108 km/h): the full BVH query (`ray_cast`, what every query cost before temporal
//! coherence) against the hinted one (`ray_cast_hinted`, last tick's triangle neighbourhood
//! first), which returns exactly the same hits.
//!
//! Run: `cargo bench -p gripline-tests --bench ground_query`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use glam::DVec3;
use gripline_formats::track_file::load_track;
use gripline_physics::ground::{Ground, RayHint};
use gripline_tests::assets_dir;

/// Wheel hardpoints relative to the car's centre (m): a 2.6 m wheelbase, 1.5 m track.
const CORNERS: [(f64, f64); 4] = [(1.3, 0.75), (1.3, -0.75), (-1.3, 0.75), (-1.3, -0.75)];

fn queries(c: &mut Criterion) {
    let track = match load_track(&assets_dir().join("tracks/circuit.ron")) {
        Ok(track) => track,
        Err(e) => panic!("{e}"),
    };
    let line = &track.mesh.centre_line;
    let length = line.length_m();
    let ground = &track.mesh.ground;
    let wheel_rays = |station: f64| -> [DVec3; 4] {
        let Some(s) = line.sample_at(station.rem_euclid(length)) else {
            return [DVec3::ZERO; 4];
        };
        let left = DVec3::Z.cross(s.tangent).normalize_or_zero();
        CORNERS.map(|(x, y)| s.position + s.tangent * x + left * y + DVec3::Z * 0.45)
    };
    let mut group = c.benchmark_group("ground_query_4_wheels");
    let mut station = 0.0;
    group.bench_function("bvh", |b| {
        b.iter(|| {
            station += 0.03;
            for origin in wheel_rays(station) {
                black_box(ground.ray_cast(origin, -DVec3::Z, 1.3));
            }
        });
    });
    let mut hints = [RayHint::default(); 4];
    let mut station = 0.0;
    group.bench_function("hinted", |b| {
        b.iter(|| {
            station += 0.03;
            for (origin, hint) in wheel_rays(station).into_iter().zip(&mut hints) {
                black_box(ground.ray_cast_hinted(origin, -DVec3::Z, 1.3, hint));
            }
        });
    });
    group.finish();
}

criterion_group!(benches, queries);
criterion_main!(benches);

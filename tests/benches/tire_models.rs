//! One evaluation of each shipped tyre, at a combined-slip operating point typical of a
//! cornering car under power (the expensive path of every model).
//!
//! Run: `cargo bench -p gripline-tests --bench tire_models`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use gripline_formats::tyre_file::load_tyre;
use gripline_physics::tire::{TireInput, TireModel};
use gripline_tests::shipped_tyre_files;

fn tyres(c: &mut Criterion) {
    let mut group = c.benchmark_group("tire_evaluate");
    for path in shipped_tyre_files() {
        let tyre = match load_tyre(&path) {
            Ok(tyre) => tyre,
            Err(e) => panic!("{e}"),
        };
        let fz = tyre.tire.nominal_load().unwrap_or(4000.0);
        let mut input = TireInput::rolling(fz, 25.0)
            .with_alpha(0.06)
            .with_kappa(0.04);
        input.gamma = -0.02;
        if let Some(p) = tyre.tire.nominal_pressure() {
            input.pressure = p;
        }
        let id = format!(
            "{}/{}",
            tyre.tire.family(),
            path.file_stem().unwrap_or_default().to_string_lossy()
        );
        group.bench_function(id, |b| {
            b.iter(|| tyre.tire.evaluate(black_box(&input)));
        });
    }
    group.finish();
}

/// What a vehicle asks each tick (`evaluate_forces`: Fx, Fy, Mz) of the C5's front tyre, over
/// a thousand operating points of a lap's order (load 3-5 kN, 25-45 m/s, slip angle within
/// ±0.08 rad and slip ratio within ±0.05, camber -0.02 rad), so that the branches of the arc
/// tangent and the sine see varied arguments as they do on the road. Reported per evaluation.
fn forces_sweep(c: &mut Criterion) {
    let path = gripline_tests::assets_dir().join("tyres/corvette-c5-front.tir");
    let tyre = match load_tyre(&path) {
        Ok(tyre) => tyre,
        Err(e) => panic!("{e}"),
    };
    let inputs: Vec<TireInput> = (0..1000)
        .map(|i| {
            let f = f64::from(i) / 1000.0;
            let mut input = TireInput::rolling(3000.0 + 2000.0 * f, 25.0 + 20.0 * f)
                .with_alpha(-0.08 + 0.16 * ((f * 7.0) % 1.0))
                .with_kappa(-0.05 + 0.1 * ((f * 13.0) % 1.0));
            input.gamma = -0.02;
            input
        })
        .collect();
    let mut group = c.benchmark_group("tire_forces_sweep");
    let mut next = inputs.iter().cycle();
    group.bench_function("magic-formula/corvette-c5-front", |b| {
        b.iter(|| {
            let input = next.next().unwrap_or(&inputs[0]);
            tyre.tire.evaluate_forces(black_box(input))
        });
    });
    group.finish();
}

criterion_group!(benches, tyres, forces_sweep);
criterion_main!(benches);

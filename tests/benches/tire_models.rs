//! One evaluation of each shipped tyre, at a combined-slip operating point typical of a
//! cornering car under power (the expensive path of every model).
//!
//! Run: `cargo bench -p gripline-tests --bench tire_models`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use gripline_config::load_tyre;
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

criterion_group!(benches, tyres);
criterion_main!(benches);

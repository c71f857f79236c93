//! Every shipped vehicle file loads, with its tyres, and builds a vehicle.

use std::path::PathBuf;

use gripline_formats::vehicle_file::load_vehicle;
use gripline_physics::powertrain::Drivetrain;

fn vehicles() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../assets/vehicles");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_vehicle_loads_and_builds() {
    let files = vehicles();
    assert_eq!(files.len(), 3, "{files:?}");
    let mut layouts = Vec::new();
    for path in files {
        let loaded = load_vehicle(&path).unwrap_or_else(|e| panic!("{e}"));
        loaded.build().unwrap_or_else(|e| panic!("{e}"));
        layouts.push(match loaded.params.powertrain.drivetrain {
            Drivetrain::Fwd { .. } => "FWD",
            Drivetrain::Rwd { .. } => "RWD",
            Drivetrain::Awd { .. } => "AWD",
        });
    }
    layouts.sort_unstable();
    assert_eq!(layouts, ["AWD", "FWD", "RWD"]);
}

#[test]
fn the_corvette_has_its_published_figures() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../assets/vehicles/corvette-c5.ron");
    let p = load_vehicle(&path).unwrap().params;
    // Curb 1472 kg (3245 lb) with a 75 kg driver (ISO 2416): the field is the mass with driver.
    assert!((p.chassis.mass_kg - 1547.0).abs() < 1e-9);
    assert!((p.chassis.wheelbase_m - 2.654).abs() < 1e-9);
    assert!((p.front.track_m - 1.575).abs() < 1e-9 && (p.rear.track_m - 1.577).abs() < 1e-9);
    assert!((p.aero.drag_coefficient - 0.29).abs() < 1e-9);
    let g = &p.powertrain.gearbox;
    assert_eq!(g.ratios, [2.66, 1.78, 1.30, 1.00, 0.74, 0.50]);
    assert!((g.reverse_ratio - 2.90).abs() < 1e-9 && (g.final_drive - 3.42).abs() < 1e-9);
}

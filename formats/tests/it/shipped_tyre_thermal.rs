//! The shipped tyres that carry thermal parameters load them (and the Corvette gets them on
//! both axles); every other shipped tyre has none, so it behaves as before.

use gripline_formats::assets;
use gripline_formats::tyre_file::load_tyre;
use gripline_formats::vehicle_file::load_vehicle;

const WITH_THERMAL: [&str; 3] = [
    "corvette-c5-front",
    "corvette-c5-rear",
    "simplified-pacejka-205-55r16",
];

#[test]
fn shipped_tyres_with_thermal_sections_load_them() {
    let dir = assets::assets_dir().expect("assets").join("tyres");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tyres folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("tir" | "ron")))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "{files:?}");
    for path in files {
        let stem = path.file_stem().and_then(|s| s.to_str()).expect("stem");
        let tyre = load_tyre(&path).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            tyre.warnings
                .iter()
                .all(|w| !w.contains("GRIPLINE_THERMAL")),
            "{stem}: {:?}",
            tyre.warnings
        );
        if WITH_THERMAL.contains(&stem) {
            let t = tyre
                .thermal
                .unwrap_or_else(|| panic!("{stem}: no thermal model"));
            // Street tyres: an optimum of 75 to 90 °C, a window at least 50 °C each side.
            assert!((75.0..=90.0).contains(&t.optimum_temp_c), "{stem}: {t:?}");
            assert!(t.window_half_width_c >= 50.0, "{stem}: {t:?}");
        } else {
            assert!(tyre.thermal.is_none(), "{stem} has a thermal model");
        }
    }
}

#[test]
fn the_corvette_builds_with_thermal_tyres_on_both_axles() {
    let loaded =
        load_vehicle(&assets::resolve_vehicle("corvette-c5").expect("shipped")).expect("loads");
    assert!(loaded.thermal.iter().all(Option::is_some));
    let vehicle = loaded.build().expect("builds");
    assert_eq!(vehicle.tyre_thermal_params(), &loaded.thermal);
    assert!(vehicle.snapshot().wheels.iter().all(|w| w.thermal_model));
    // The other cars' tyres (TNO 205/60R15) have none.
    let hatch =
        load_vehicle(&assets::resolve_vehicle("hatchback-fwd").expect("shipped")).expect("loads");
    assert!(hatch.thermal.iter().all(Option::is_none));
}

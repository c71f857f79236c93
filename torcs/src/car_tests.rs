//! Tests of the TORCS car import on the installed TORCS cars (skipped with a message where
//! TORCS's data is not installed).

use crate::car::discover::installed_cars;
use crate::car::load::load_torcs_car;

#[test]
fn every_installed_car_loads_and_validates() {
    let cars = installed_cars();
    if cars.is_empty() {
        eprintln!("no TORCS cars installed (Debian's torcs-data): skipped");
        return;
    }
    let mut failures = Vec::new();
    for car in &cars {
        match load_torcs_car(&car.xml) {
            Ok(loaded) => {
                eprintln!("{}: ok, {} remarks", car.name, loaded.warnings.len());
                for w in &loaded.warnings {
                    eprintln!("   {w}");
                }
            }
            Err(e) => failures.push(format!("{}: {e}", car.name)),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The category and car files merge as TORCS merges them: the car's value wins, either
/// file's sections and attributes are kept (a category's extra curve point included).
#[test]
fn a_car_file_is_laid_over_its_category() {
    use crate::car::merge::merge_sections;
    use crate::xml::parse_params;
    use std::path::Path;
    let category = parse_params(
        r#"<params name="cat"><section name="Car"><attnum name="mass" unit="kg" val="1000"/>
        <attnum name="GC height" unit="m" val="0.3"/></section>
        <section name="Engine"><section name="data points">
        <section name="1"><attnum name="rpm" unit="rpm" val="0"/><attnum name="Tq" val="100"/></section>
        <section name="2"><attnum name="rpm" unit="rpm" val="5000"/><attnum name="Tq" val="200"/></section>
        <section name="3"><attnum name="rpm" unit="rpm" val="8000"/><attnum name="Tq" val="150"/></section>
        </section></section></params>"#,
        Path::new("cat.xml"),
    )
    .expect("category");
    let car = parse_params(
        r#"<params name="car"><section name="Car"><attnum name="mass" unit="kg" val="1150"/>
        <attnum name="fuel tank" unit="l" val="94"/></section>
        <section name="Engine"><section name="data points">
        <section name="2"><attnum name="rpm" unit="rpm" val="5000"/><attnum name="Tq" val="250"/></section>
        </section></section><section name="Steer"><attnum name="steer lock" unit="deg" val="21"/></section></params>"#,
        Path::new("car.xml"),
    )
    .expect("car");
    let merged = merge_sections(&category.root, &car.root);
    let num = |path: &str, name: &str| merged.at(path).unwrap().number(name).unwrap().unwrap();
    assert_eq!(merged.name, "car");
    assert!((num("Car", "mass") - 1150.0).abs() < 1e-12);
    assert!((num("Car", "GC height") - 0.3).abs() < 1e-12);
    // TORCS keeps the number of a litre figure (its unit is unknown to it).
    assert!((num("Car", "fuel tank") - 94.0).abs() < 1e-12);
    assert!((num("Engine/data points/2", "Tq") - 250.0).abs() < 1e-12);
    assert!((num("Engine/data points/3", "Tq") - 150.0).abs() < 1e-12);
    assert!((num("Steer", "steer lock") - 21f64.to_radians()).abs() < 1e-12);
    assert_eq!(merged.at("Engine/data points").unwrap().sections.len(), 3);
}

/// The imported tyre gives TORCS's force (`simuv2/wheel.cpp`, TORCS 1.3.7) at pure slip in
/// either direction, at loads below, at and above the operating load: `F = sin(C atan(B s
/// (1 - E) + E atan(B s))) Fz mu (lfMin + (lfMax - lfMin) exp(lfK Fz / opLoad)) (1 + 0.05
/// sin(-18 camber))`, with `C = 2 - 2 asin(0.8) / pi`, `B = 20 / C`, `E = 0.7` (car1-trb1's
/// figures and TORCS's defaults). Laterally TORCS's slip is `sin(alpha)`: compared at the
/// angle whose sine is the slip, within 1 % (the angle against its sine at 8.6 degrees).
#[test]
fn the_imported_tyre_gives_torcs_force() {
    use crate::car::figures::Figures;
    use crate::car::tyre::tyre_of_corner;
    use crate::xml::parse_params;
    use gripline_physics::tire::interface::{TireInput, TireModel};
    use std::path::Path;
    let car = parse_params(
        r#"<params name="car"><section name="Front Right Wheel">
        <attnum name="stiffness" val="20"/><attnum name="dynamic friction" unit="%" val="80"/>
        <attnum name="mu" val="1.6"/><attnum name="camber" unit="deg" val="-4"/>
        <attnum name="tire width" unit="mm" val="255"/></section></params>"#,
        Path::new("car.xml"),
    )
    .expect("car");
    let weight0 = 2800.0;
    let mut warnings = Vec::new();
    let tyre = tyre_of_corner(
        &Figures::new(&car.root, Path::new("car.xml")),
        0,
        weight0,
        &mut warnings,
    )
    .expect("tyre");
    assert!(warnings.is_empty(), "{warnings:?}");
    let c = 2.0 - 2.0 * 0.8f64.asin() / std::f64::consts::PI;
    let (b, e, mu) = (20.0 / c, 0.7, 1.6);
    let camber = -4f64.to_radians();
    let (lf_min, lf_max, op): (f64, f64, f64) = (0.8, 1.6, 1.2 * weight0);
    let lf_k = ((1.0 - lf_min) / (lf_max - lf_min)).ln();
    let torcs = |s: f64, fz: f64| {
        let bx = b * s;
        (c * (bx * (1.0 - e) + e * bx.atan()).atan()).sin()
            * fz
            * mu
            * (lf_min + (lf_max - lf_min) * (lf_k * fz / op).exp())
            * (1.0 + 0.05 * (-camber * 18.0).sin())
    };
    for fz in [1500.0, op, 6000.0] {
        for s in [0.02, 0.05, 0.1, 0.15, 0.3] {
            let long = tyre
                .evaluate(&TireInput::rolling(fz, 30.0).with_kappa(s))
                .fx;
            let want = torcs(s, fz);
            assert!(
                (long - want).abs() <= 1e-9 * want,
                "fx at {s}, {fz} N: {long} against {want}"
            );
            let lat = tyre
                .evaluate(&TireInput::rolling(fz, 30.0).with_alpha(s.asin()))
                .fy;
            assert!(
                (lat.abs() - want).abs() <= 0.01 * want,
                "fy at {s}, {fz} N: {lat} against {want}"
            );
        }
    }
}

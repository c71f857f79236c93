//! The slip-velocity (Vehicle Physics Pro) and friction-table (VR-Design Studio) tyre files
//! (`docs/sources.md`): the shipped RON files parse, validate and hold their sources' numbers,
//! every curve shape can be written in a file, and bad files are refused with field paths.
//!
//! The files are read with plain `ron` into a local copy of the tyre-file layout
//! (`(name, description, model: SlipVelocity((...)))`), so that these checks concern the two
//! model structs and their files only; loading through `gripline-formats` is covered by the
//! shipped-files tests.

use gripline_physics::tire::friction_table::FrictionTableTire;
use gripline_physics::tire::slip_velocity::{FrictionCurve, SlipVelocityTire};
use gripline_physics::tire::{TireInput, TireModel};
use gripline_physics::validate::{Validate, Validator};
use gripline_tests::assets_dir;
use serde::Deserialize;

/// The layout of a RON tyre file, for the two families tested here.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TyreFile {
    name: String,
    description: String,
    model: Model,
}

#[derive(Debug, PartialEq, Deserialize)]
enum Model {
    SlipVelocity(SlipVelocityTire),
    FrictionTable(FrictionTableTire),
}

/// Parses `text` and validates the model under the path `model.<Variant>`.
fn parse(text: &str) -> Result<TyreFile, String> {
    let file: TyreFile = ron::from_str(text).map_err(|e| e.to_string())?;
    let mut v = Validator::with_root("model");
    match &file.model {
        Model::SlipVelocity(m) => v.within("SlipVelocity", |v| m.validate(v)),
        Model::FrictionTable(m) => v.within("FrictionTable", |v| m.validate(v)),
    }
    v.finish().map_err(|e| e.to_string())?;
    Ok(file)
}

fn load(name: &str) -> Model {
    let path = assets_dir().join("tyres").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    let file = parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(!file.name.trim().is_empty() && !file.description.trim().is_empty());
    file.model
}

fn slip_velocity(name: &str) -> SlipVelocityTire {
    match load(name) {
        Model::SlipVelocity(m) => m,
        other @ Model::FrictionTable(_) => {
            panic!("{name}: expected a SlipVelocity model, found {other:?}")
        }
    }
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn default_slip_velocity_file_is_the_seed_curve() {
    let tyre = slip_velocity("slip-velocity-default.ron");
    assert_eq!(tyre, SlipVelocityTire::default());
    let c = &tyre.curve;
    assert!(close(c.friction(0.3), 0.95, 1e-15));
    assert!(close(c.friction(1.5), 1.1, 1e-15));
    assert!(close(c.friction(4.0), 0.8, 1e-15));
    assert!(close(c.friction(9.0), 0.8, 1e-15));
}

#[test]
fn parametric_and_pacejka_files_load() {
    let parametric = slip_velocity("slip-velocity-parametric.ron");
    assert!(matches!(parametric.curve, FrictionCurve::Parametric { .. }));
    // The competition tyre: 1.1 at 0.6 m/s, 0.6 when sliding.
    assert!(close(parametric.curve.friction(0.6), 1.1, 1e-15));
    assert!(close(parametric.curve.limit_friction(), 0.6, 1e-15));

    let pacejka = slip_velocity("slip-velocity-pacejka.ron");
    assert!(matches!(pacejka.curve, FrictionCurve::Pacejka { .. }));
    let peak = pacejka.curve.peak_slip_velocity();
    assert!(close(peak, 1.4329, 1e-4));
    assert!(close(pacejka.curve.friction(peak), 1.1, 1e-12));
    assert!(close(pacejka.curve.adherent_slip_velocity(), 0.8408, 1e-4));
}

#[test]
fn default_friction_table_file_is_the_seed_table() {
    let Model::FrictionTable(tyre) = load("friction-table-default.ron") else {
        panic!("expected a FrictionTable model");
    };
    assert_eq!(tyre, FrictionTableTire::default());
    let input = TireInput::rolling(4000.0, 20.0);
    let expected = [
        (-0.3, -0.75),
        (-0.2, -0.8),
        (-0.1, -0.85),
        (0.05, 0.425),
        (0.1, 0.85),
    ];
    for (kappa, mu) in expected {
        let fx = tyre.evaluate(&input.with_kappa(kappa)).fx;
        assert!(close(fx, mu * 4000.0, 1e-9), "kappa {kappa}: {fx}");
    }
}

#[test]
fn every_curve_shape_can_be_written_and_missing_fields_default() {
    let shapes = [
        "Flat(peak: (slip_velocity_m_s: 1.0, friction: 1.0))",
        "Linear(adherent: (slip_velocity_m_s: 0.5, friction: 0.9), \
         peak: (slip_velocity_m_s: 1.0, friction: 1.0), \
         limit: (slip_velocity_m_s: 3.0, friction: 0.7))",
        "Smooth(adherent: (slip_velocity_m_s: 0.5, friction: 0.9), \
         peak: (slip_velocity_m_s: 1.0, friction: 1.0), \
         limit: (slip_velocity_m_s: 3.0, friction: 0.7))",
    ];
    for shape in shapes {
        let text =
            format!("(name: \"t\", description: \"\", model: SlipVelocity((curve: {shape})))");
        let file = parse(&text).unwrap_or_else(|e| panic!("{e}"));
        let Model::SlipVelocity(tyre) = file.model else {
            panic!("{shape}");
        };
        assert!(close(tyre.initial_trail_m, 0.025, 1e-15));
        let out = tyre.evaluate(&TireInput::rolling(3000.0, 10.0).with_alpha(0.5));
        assert!(out.fy < 0.0);
    }
    let file = parse("(name: \"t\", description: \"\", model: SlipVelocity(()))")
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(file.model, Model::SlipVelocity(SlipVelocityTire::default()));
    let file = parse("(name: \"t\", description: \"\", model: FrictionTable(()))")
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        file.model,
        Model::FrictionTable(FrictionTableTire::default())
    );
}

#[test]
fn bad_files_are_refused_with_field_paths() {
    let unsorted = "(name: \"t\", description: \"\", model: FrictionTable((longitudinal: [
        (slip_ratio: 0.1, friction: 0.8), (slip_ratio: 0.3, friction: 0.7),
        (slip_ratio: 0.2, friction: -0.7)])))";
    let err = parse(unsorted).unwrap_err();
    assert!(
        err.contains("model.FrictionTable.longitudinal[2].slip_ratio must increase"),
        "{err}"
    );
    assert!(
        err.contains(
            "model.FrictionTable.longitudinal[2].friction must have the sign of slip_ratio"
        ),
        "{err}"
    );

    let bad_curve = "(name: \"t\", description: \"\", model: SlipVelocity((curve: Pacejka(
        a_adherent: 0.95, b_stiffness_s_per_m: 0.8, c_shape: 3.0, d_peak: 1.1,
        e_curvature: -2.0))))";
    let err = parse(bad_curve).unwrap_err();
    assert!(
        err.contains("model.SlipVelocity.curve.c_shape must be between 1 and 2"),
        "{err}"
    );

    let unknown = "(name: \"t\", description: \"\", model: SlipVelocity((curve: Flat(
        peak: (slip_velocity_m_s: 1.0, friction: 1.0), sharpness: 2.0))))";
    let err = parse(unknown).unwrap_err();
    assert!(err.contains("sharpness"), "{err}");
}

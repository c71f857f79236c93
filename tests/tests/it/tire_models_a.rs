//! The shipped RON files of the simplified Pacejka, brush and Calspan tyres: they parse, they
//! validate, the Calspan files hold exactly the SI conversion of Table 1, and each model gives
//! sensible forces at a typical operating point.

use gripline_physics::tire::calspan::CalspanImperialTable;
use gripline_physics::tire::thermal::TyreThermalParams;
use gripline_physics::tire::{BrushTire, CalspanTire, SimplifiedPacejka, TireInput, TireModel};
use gripline_physics::validate::Validate;
use serde::Deserialize;

/// The layout of a RON tyre file, restricted to the three families tested here.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TyreFile {
    name: String,
    #[serde(default)]
    description: String,
    model: Model,
    #[serde(default)]
    thermal: Option<TyreThermalParams>,
}

#[derive(Debug, Deserialize)]
enum Model {
    SimplifiedPacejka(SimplifiedPacejka),
    Brush(BrushTire),
    Calspan(CalspanTire),
}

fn load(file: &str) -> TyreFile {
    let path = gripline_tests::assets_dir().join("tyres").join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let parsed: TyreFile =
        ron::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(!parsed.name.trim().is_empty(), "{file}: empty name");
    assert!(
        !parsed.description.trim().is_empty(),
        "{file}: empty description"
    );
    if let Some(thermal) = &parsed.thermal {
        thermal
            .check()
            .unwrap_or_else(|e| panic!("{file}: thermal: {e}"));
    }
    parsed
}

fn relative_difference(a: f64, b: f64) -> f64 {
    (a - b).abs() / a.abs().max(b.abs()).max(f64::MIN_POSITIVE)
}

fn assert_same_calspan(file: &CalspanTire, table: &CalspanTire, what: &str) {
    let fields = |t: &CalspanTire| {
        [
            t.tread_width_m,
            t.nominal_pressure_pa,
            t.rated_load_n,
            t.c1,
            t.c2,
            t.c3,
            t.c4,
            t.a0_n_per_rad,
            t.a1_per_rad,
            t.a2_n,
            t.a3_per_rad,
            t.a4_n,
            t.ka,
            t.cs_fz,
            t.mu0,
            t.mu_decay,
        ]
    };
    for (i, (a, b)) in fields(file).into_iter().zip(fields(table)).enumerate() {
        assert!(
            relative_difference(a, b) <= 1e-9,
            "{what}: field {i} is {a}, Table 1 gives {b}"
        );
    }
}

#[test]
fn calspan_files_equal_table_1() {
    for (file, table) in [
        ("calspan-155sr13.ron", CalspanImperialTable::RADIAL_155SR13),
        (
            "calspan-p155-80d13.ron",
            CalspanImperialTable::BIAS_P155_80D13,
        ),
        (
            "calspan-p185-70r13.ron",
            CalspanImperialTable::RADIAL_P185_70R13,
        ),
    ] {
        let Model::Calspan(tyre) = load(file).model else {
            panic!("{file} is not a Calspan tyre");
        };
        tyre.check().unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_same_calspan(&tyre, &CalspanTire::from_imperial_table(&table), file);
    }
}

#[test]
fn example_files_parse_and_validate() {
    let Model::SimplifiedPacejka(pacejka) = load("simplified-pacejka-205-55r16.ron").model else {
        panic!("not a simplified Pacejka tyre");
    };
    pacejka.check().unwrap();
    let Model::Brush(brush) = load("brush-205-55r16.ron").model else {
        panic!("not a brush tyre");
    };
    brush.check().unwrap();
}

#[test]
fn shipped_models_behave_at_a_typical_corner() {
    let models: Vec<(&str, Box<dyn TireModel>)> = [
        "simplified-pacejka-205-55r16.ron",
        "brush-205-55r16.ron",
        "calspan-155sr13.ron",
        "calspan-p155-80d13.ron",
        "calspan-p185-70r13.ron",
    ]
    .into_iter()
    .map(|file| {
        let model: Box<dyn TireModel> = match load(file).model {
            Model::SimplifiedPacejka(m) => Box::new(m),
            Model::Brush(m) => Box::new(m),
            Model::Calspan(m) => Box::new(m),
        };
        (file, model)
    })
    .collect();
    for (file, model) in &models {
        let fz = 3500.0;
        // Right-hand turn: positive slip angle, force to the right, self-aligning moment.
        let turn = model.evaluate(&TireInput::rolling(fz, 25.0).with_alpha(0.04));
        assert!(
            turn.fy < -0.2 * fz && turn.fy > -1.2 * fz,
            "{file}: {turn:?}"
        );
        assert!(turn.mz > 0.0, "{file}: {turn:?}");
        // Braking and driving.
        let brake = model.evaluate(&TireInput::rolling(fz, 25.0).with_kappa(-0.1));
        assert!(brake.fx < -0.5 * fz, "{file}: {brake:?}");
        let drive = model.evaluate(&TireInput::rolling(fz, 25.0).with_kappa(0.1));
        assert!(drive.fx > 0.5 * fz, "{file}: {drive:?}");
        // Locked wheel at standstill speed: finite.
        let locked = model.evaluate(&TireInput::rolling(fz, 0.0).with_kappa(-1.0));
        assert!(locked.is_finite() && locked.fx < 0.0, "{file}: {locked:?}");
    }
}

//! Load sensitivity for the four families whose sources have none (`load_sensitivity` in a
//! tyre file; TORCS's law, `physics/src/tire/load_sensitivity.rs`): with TORCS's default
//! factors (1.6 at no load, 0.8 at high load, 1 at the reference load) every such shipped
//! tyre's peak friction coefficient is its own times `0.8 + 0.8 exp(ln(0.25) Fz / Fz_ref)`:
//! 1.2 at half the reference load, 1 at it, 0.85 at twice it (within 0.5 %, the sweep's
//! resolution); without the law it does not change with load. A tyre file gives the law
//! as RON.

use std::path::{Path, PathBuf};

use gripline_formats::tyre_file::{load_tyre, parse_tyre_ron};
use gripline_physics::tire::load_sensitivity::LoadSensitivity;
use gripline_physics::tire::{Tire, TireInput, TireModel};

const LAW: LoadSensitivity = LoadSensitivity {
    max_factor: 1.6,
    min_factor: 0.8,
    reference_load_n: 4000.0,
};

fn tyre(file: &str) -> Tire {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../assets/tyres")
        .join(file);
    load_tyre(&path).unwrap_or_else(|e| panic!("{e}")).tire
}

fn with_law(tire: &Tire, law: Option<LoadSensitivity>) -> Tire {
    let mut t = tire.clone();
    match &mut t {
        Tire::SimplifiedPacejka(m) => m.load_sensitivity = law,
        Tire::Brush(m) => m.load_sensitivity = law,
        Tire::SlipVelocity(m) => m.load_sensitivity = law,
        Tire::FrictionTable(m) => m.load_sensitivity = law,
        _ => panic!("not one of the four families"),
    }
    t
}

/// The largest `|Fx| / Fz` over slip ratios up to 1 at load `fz`.
fn peak_mu(tire: &Tire, fz: f64) -> f64 {
    (1..=1000)
        .map(|i| {
            let input = TireInput::rolling(fz, 20.0).with_kappa(f64::from(i) * 0.001);
            tire.evaluate(&input).fx.abs() / fz
        })
        .fold(0.0, f64::max)
}

#[test]
fn the_simpler_families_lose_friction_with_load_by_the_law() {
    for file in [
        "simplified-pacejka-205-55r16.ron",
        "brush-205-55r16.ron",
        "slip-velocity-default.ron",
        "friction-table-default.ron",
    ] {
        let bare = tyre(file);
        let sensitive = with_law(&bare, Some(LAW));
        for fz in [2000.0, 4000.0, 8000.0] {
            let expected = 0.8 + 0.8 * (0.25f64.ln() * fz / 4000.0).exp();
            let ratio = peak_mu(&sensitive, fz) / peak_mu(&bare, fz);
            eprintln!("{file} at {fz} N: peak friction x{ratio:.4} (law {expected:.4})");
            assert!(
                (ratio / expected - 1.0).abs() < 0.005,
                "{file}: {ratio} vs {expected}"
            );
        }
        let unchanged = peak_mu(&bare, 8000.0) / peak_mu(&bare, 2000.0);
        assert!((unchanged - 1.0).abs() < 0.005, "{file}: {unchanged}");
    }
}

#[test]
fn a_tyre_file_states_the_law_and_bad_values_are_refused() {
    let text = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../assets/tyres/simplified-pacejka-205-55r16.ron"),
    )
    .expect("reads");
    let marker = "        lateral: (";
    assert!(text.contains(marker));
    let with = |law: &str| {
        text.replacen(
            marker,
            &format!("        load_sensitivity: Some({law}),\n{marker}"),
            1,
        )
    };
    let good = with("(max_factor: 1.6, min_factor: 0.8, reference_load_n: 4000.0)");
    let file = parse_tyre_ron(&good, Path::new("good.ron")).expect("parses");
    let Tire::SimplifiedPacejka(m) = file.model.into_tire() else {
        panic!("simplified Pacejka")
    };
    assert_eq!(m.load_sensitivity, Some(LAW));
    let bad = with("(max_factor: 0.9, min_factor: 0.8, reference_load_n: 4000.0)");
    let e = parse_tyre_ron(&bad, Path::new("bad.ron"))
        .expect_err("refused")
        .to_string();
    assert!(e.contains("load_sensitivity.max_factor"), "{e}");
}

//! Relaxation lengths from a Magic Formula file's carcass stiffnesses, against the file's
//! own coefficients by hand: at the nominal load and pressure, without camber,
//! `Kxκ = Fz0 · PKX1 · LKX` and `Kyα = |PKY1| · Fz0 · sin(PKY4 · atan(1 / PKY2)) · LKY`
//! (MF 6.1/6.2, Pacejka 3rd ed. eq. 4.E15 and 4.E25), so `σκ = Kxκ / LONGITUDINAL_STIFFNESS`
//! and `σα = Kyα / LATERAL_STIFFNESS`. For the TNO 205/60R15: 0.227 m and 0.338 m.

use std::path::PathBuf;

use gripline_formats::tyre_file::load_tyre;
use gripline_physics::tire::{SimplifiedPacejka, Tire};
use gripline_physics::vehicle::VehicleParams;
use gripline_physics::vehicle::relaxation::{DEFAULT_LATERAL_M, RelaxationTable};

fn tno() -> Tire {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../assets/tyres/TNO_car205_60R15.tir");
    load_tyre(&path).expect("the TNO tyre loads").tire
}

/// The TNO file's figures at its nominal load: within 1.5 % (the table interpolates
/// linearly between loads 0.27 Fz0 apart).
#[test]
fn lengths_follow_the_carcass_stiffnesses() {
    let tire = tno();
    let mut wheel = VehicleParams::default().front.wheel;
    wheel.relaxation_length_longitudinal_m = None;
    wheel.relaxation_length_lateral_m = None;
    wheel.tyre_pressure_pa = 220_000.0; // NOMPRES
    let fz0 = 4000.0; // FNOMIN
    let table = RelaxationTable::new(&wheel, &tire, fz0, 20.0);
    let sigma = table.at(fz0);
    let kx = fz0 * 21.69; // PKX1
    let ky = 15.314 * fz0 * (1.9896 * (1.0 / 1.7044f64).atan()).sin(); // PKY1, PKY4, PKY2
    let (expected_x, expected_y) = (kx / 381_913.4, ky / 157_632.5);
    eprintln!(
        "TNO at {fz0} N: sigma_kappa {:.4} m (by hand {expected_x:.4}), sigma_alpha {:.4} m \
         (by hand {expected_y:.4})",
        sigma.longitudinal_m, sigma.lateral_m
    );
    assert!((sigma.longitudinal_m / expected_x - 1.0).abs() < 0.015);
    assert!((sigma.lateral_m / expected_y - 1.0).abs() < 0.015);
    // The lateral length follows the cornering stiffness: longer at twice the load, shorter
    // at half of it.
    let (half, double) = (table.at(0.5 * fz0), table.at(2.0 * fz0));
    eprintln!(
        "sigma_alpha at 2000 / 4000 / 8000 N: {:.3} / {:.3} / {:.3} m",
        half.lateral_m, sigma.lateral_m, double.lateral_m
    );
    assert!(half.lateral_m < sigma.lateral_m && sigma.lateral_m < double.lateral_m);
}

/// A length written in the vehicle file wins over the tyre's; a tyre without carcass data
/// (the simplified Pacejka) gets the defaults.
#[test]
fn a_stated_length_wins_and_other_tyres_get_the_defaults() {
    let mut wheel = VehicleParams::default().front.wheel;
    wheel.relaxation_length_longitudinal_m = Some(0.4);
    wheel.relaxation_length_lateral_m = None;
    let table = RelaxationTable::new(&wheel, &tno(), 4000.0, 20.0);
    assert_eq!(table.at(4000.0).longitudinal_m.to_bits(), 0.4f64.to_bits());
    assert!((table.at(4000.0).lateral_m - 0.338).abs() < 0.01);
    let simple = Tire::SimplifiedPacejka(SimplifiedPacejka::default());
    let table = RelaxationTable::new(&wheel, &simple, 4000.0, 20.0);
    assert_eq!(
        table.at(4000.0).lateral_m.to_bits(),
        DEFAULT_LATERAL_M.to_bits()
    );
    // Any load, even a nonsensical one, gives a usable length.
    for fz in [f64::NAN, -1.0, 0.0, 1e9] {
        let s = table.at(fz);
        assert!(s.longitudinal_m > 0.0 && s.lateral_m > 0.0, "{fz}: {s:?}");
    }
}

/// An MF 5.2 file states its lengths (`PTX*`, `PTY*`): at its nominal load 9416.6 N with
/// `R0` 0.4 m, `σκ = PTX1 R0` = 1.1898 · 0.4 = 0.476 m and
/// `σα = PTY1 sin(2 atan(1 / PTY2)) R0` = 1.6245 · sin(2 atan(1 / 2.8506)) · 0.4 = 0.406 m
/// (MF-Tyre 5.2's equations by hand, `assets/tyres/MagicFormula52_Parameters.tir`).
#[test]
fn an_mf52_file_gives_its_own_lengths() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../assets/tyres/MagicFormula52_Parameters.tir");
    let tire = load_tyre(&path).expect("the MF 5.2 tyre loads").tire;
    let mut wheel = VehicleParams::default().front.wheel;
    wheel.relaxation_length_longitudinal_m = None;
    wheel.relaxation_length_lateral_m = None;
    let fz0 = 9416.6;
    let sigma = RelaxationTable::new(&wheel, &tire, fz0, 20.0).at(fz0);
    let expected_x = 1.1898 * 0.4;
    let expected_y = 1.6245 * (2.0 * (1.0 / 2.8506f64).atan()).sin() * 0.4;
    eprintln!(
        "MF 5.2 at {fz0} N: {:.4} m (by hand {expected_x:.4}), {:.4} m (by hand {expected_y:.4})",
        sigma.longitudinal_m, sigma.lateral_m
    );
    let (x, y) = tire.stated_relaxation_lengths_m(fz0).expect("stated");
    assert!(
        (x - expected_x).abs() < 1e-9 && (y - expected_y).abs() < 1e-9,
        "{x} {y}"
    );
    // The table interpolates between loads 0.27 Fz0 apart: within 1.5 %.
    assert!((sigma.longitudinal_m / expected_x - 1.0).abs() < 0.015);
    assert!((sigma.lateral_m / expected_y - 1.0).abs() < 0.015);
}

//! Magic Formula conformance against `MFeval` (`useMode` 221: combined forces and moments, alpha*,
//! no limit checks, no turn slip).
//!
//! For each sample property file `assets/tyres/MagicFormula{52,61,62}_Parameters.tir`, every
//! point of `tests/data/mfeval/<same stem>.jsonl` (`MFeval.jl`'s outputs) is evaluated and
//! compared quantity by quantity with the relative error `|got - ref| / max(|ref|, 1)`.
//! `Fx`, `Fy`, `Mz` must match to 1e-6; so do `Mx`, `My`, `Kxk`, `Kya`, `Re` and the extra
//! quantities `mux`, `muy`, `t`, `Mzr` (all reach it). Run with `--nocapture` to see the worst
//! error of each quantity per file.
//!
//! Also here: the ISO-W sign conventions and mirror symmetry of the MF model, the input-limit
//! option, and finite output for any finite input on the MF 6.1 sample.

use std::path::PathBuf;

use gripline_formats::tir::load_tir;
use gripline_physics::tire::magic_formula::{MagicFormula, MfEvaluation};
use gripline_physics::tire::{TireInput, TireModel};
use proptest::prelude::*;
use serde_json::Value;

const STEMS: [&str; 3] = [
    "MagicFormula52_Parameters",
    "MagicFormula61_Parameters",
    "MagicFormula62_Parameters",
];

/// Tolerance of every compared quantity.
const TOLERANCE: f64 = 1e-6;

fn tyres_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../assets/tyres")
}

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/mfeval")
}

fn load(stem: &str) -> MagicFormula {
    let path = tyres_dir().join(format!("{stem}.tir"));
    load_tir(&path).unwrap_or_else(|e| panic!("{e}")).model
}

/// Reads one quantity of an evaluation.
type Getter = fn(&MfEvaluation) -> f64;

/// The quantities compared: reference field name and the value we compute.
const QUANTITIES: [(&str, Getter); 11] = [
    ("Fx", |e| e.fx),
    ("Fy", |e| e.fy),
    ("Mz", |e| e.mz),
    ("Mx", |e| e.mx),
    ("My", |e| e.my),
    ("Kxk", |e| e.kxk),
    ("Kya", |e| e.kya),
    ("Re", |e| e.re),
    ("mux", |e| e.mux),
    ("muy", |e| e.muy),
    ("t", |e| e.t),
];

fn number(row: &Value, field: &str) -> f64 {
    row[field]
        .as_f64()
        .unwrap_or_else(|| panic!("reference row without numeric `{field}`: {row}"))
}

fn conformance(stem: &str) {
    let tyre = load(stem);
    let data_path = data_dir().join(format!("{stem}.jsonl"));
    let text = std::fs::read_to_string(&data_path)
        .unwrap_or_else(|e| panic!("{}: {e}", data_path.display()));
    let mut worst = [(0.0_f64, 0_usize); QUANTITIES.len() + 1];
    let mut failures = Vec::new();
    let mut points = 0;
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let line_no = index + 1;
        let row: Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("{}:{line_no}: {e}", data_path.display()));
        let input = TireInput {
            fz: number(&row, "fz"),
            kappa: number(&row, "kappa"),
            alpha: number(&row, "alpha"),
            gamma: number(&row, "gamma"),
            vx: number(&row, "vx"),
            pressure: number(&row, "pressure"),
            mu_scale: 1.0,
        };
        let got = tyre.evaluate_detailed(&input);
        // The TireModel interface must carry the same numbers.
        let out = tyre.evaluate(&input);
        assert_eq!(
            (out.fx, out.fy, out.mz, out.mx, out.my),
            (got.fx, got.fy, got.mz, got.mx, got.my)
        );
        assert_eq!(out.slip_stiffness, Some(got.kxk));
        assert_eq!(out.cornering_stiffness, Some(got.kya));
        assert_eq!(out.effective_radius, Some(got.re));
        points += 1;
        let compared = QUANTITIES
            .iter()
            .map(|(name, value)| (*name, value(&got)))
            .chain([("Mzr", got.mzr)]);
        for (slot, (name, value)) in compared.enumerate() {
            let Some(expected) = row[name].as_f64() else {
                continue;
            };
            let error = (value - expected).abs() / expected.abs().max(1.0);
            if error > worst[slot].0 || error.is_nan() {
                worst[slot] = (error, line_no);
            }
            if error.is_nan() || error > TOLERANCE {
                failures.push(format!(
                    "{stem}.jsonl line {line_no}: {name} = {value:e}, expected {expected:e} \
                     (relative error {error:.2e}) at {input:?}"
                ));
            }
        }
    }
    assert!(points >= 40, "{stem}: only {points} reference points");
    println!("{stem}: {points} points, worst relative error per quantity:");
    let names = QUANTITIES.iter().map(|(n, _)| *n).chain(["Mzr"]);
    for (name, (error, line)) in names.zip(worst) {
        println!("  {name:>4}: {error:.3e} (line {line})");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn mf52_matches_mfeval() {
    conformance(STEMS[0]);
}

#[test]
fn mf61_matches_mfeval() {
    conformance(STEMS[1]);
}

#[test]
fn mf62_sample_matches_mfeval() {
    conformance(STEMS[2]);
}

fn nominal_input(tyre: &MagicFormula) -> TireInput {
    let mut input = TireInput::rolling(tyre.nominal_load(), 20.0);
    if let Some(p) = tyre.nominal_pressure() {
        input.pressure = p;
    }
    input
}

#[test]
fn signs_follow_iso_w() {
    for stem in STEMS.iter().copied().chain(["TNO_car205_60R15"]) {
        let tyre = load(stem);
        let base = nominal_input(&tyre);
        let at = |input: TireInput| tyre.evaluate(&input);
        assert!(
            at(base.with_alpha(0.05)).fy < 0.0,
            "{stem}: +alpha must give -Fy"
        );
        assert!(
            at(base.with_alpha(-0.05)).fy > 0.0,
            "{stem}: -alpha must give +Fy"
        );
        assert!(
            at(base.with_kappa(0.05)).fx > 0.0,
            "{stem}: +kappa must give +Fx"
        );
        assert!(
            at(base.with_kappa(-0.05)).fx < 0.0,
            "{stem}: -kappa must give -Fx"
        );
        assert!(
            at(base.with_kappa(-1.0)).fx < 0.0,
            "{stem}: a locked wheel brakes"
        );
        assert!(
            at(base.with_alpha(0.02)).mz > 0.0,
            "{stem}: small +alpha gives +Mz"
        );
        let out = at(base);
        assert!(
            out.cornering_stiffness.is_some_and(|k| k < 0.0),
            "{stem}: Kya < 0 in ISO-W"
        );
        assert!(
            out.slip_stiffness.is_some_and(|k| k > 0.0),
            "{stem}: Kxk > 0"
        );
        assert!(
            out.effective_radius
                .is_some_and(|re| re > 0.8 * tyre.coefficients().unloaded_radius),
            "{stem}: Re"
        );
        assert!(
            out.my < 0.0,
            "{stem}: rolling resistance opposes forward rolling"
        );
    }
}

#[test]
fn symmetric_coefficients_give_mirror_forces() {
    // Zero every coefficient that makes the tyre asymmetric (shifts, camber-free offsets,
    // sign-dependent curvature): then Fy(-alpha) = -Fy(alpha), Mz(-alpha) = -Mz(alpha) at
    // zero camber, and Fx is even in alpha.
    let tyre = load("MagicFormula61_Parameters");
    let mut c = tyre.coefficients().clone();
    for key in [
        "PHY1", "PHY2", "PVY1", "PVY2", "PEY3", "RHY1", "RHY2", "RVY1", "RVY2", "RVY3", "RBY3",
        "QHZ1", "QHZ2", "QEZ4", "QDZ6", "QDZ7", "SSZ1", "SSZ2", "RHX1", "PHX1", "PHX2", "PVX1",
        "PVX2",
    ] {
        assert!(c.set(key, 0.0), "{key}");
    }
    let symmetric = MagicFormula::new(tyre.version(), c);
    let base = nominal_input(&symmetric);
    for alpha in [0.01, 0.05, 0.1, 0.2, 0.4] {
        for kappa in [0.0, 0.05, -0.1] {
            let left = symmetric.evaluate(&base.with_alpha(alpha).with_kappa(kappa));
            let right = symmetric.evaluate(&base.with_alpha(-alpha).with_kappa(kappa));
            let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * a.abs().max(1.0);
            assert!(
                close(left.fy, -right.fy),
                "Fy at {alpha}, {kappa}: {left:?} {right:?}"
            );
            assert!(
                close(left.mz, -right.mz),
                "Mz at {alpha}, {kappa}: {left:?} {right:?}"
            );
            assert!(close(left.fx, right.fx), "Fx at {alpha}, {kappa}");
        }
    }
    // The real file is only roughly symmetric (PEY3 = -0.084 makes the curvature depend on the
    // side, PHY1 and PVY1 shift the curve): about 5 % of the peak at 0.2 rad; allow 10 %.
    let peak = tyre
        .evaluate(&nominal_input(&tyre).with_alpha(0.2))
        .fy
        .abs();
    for alpha in [0.05, 0.1, 0.2] {
        let base = nominal_input(&tyre);
        let left = tyre.evaluate(&base.with_alpha(alpha)).fy;
        let right = tyre.evaluate(&base.with_alpha(-alpha)).fy;
        assert!((left + right).abs() < 0.1 * peak, "{left} vs {right}");
    }
}

#[test]
fn mu_scale_one_is_mfeval_and_scales_friction() {
    let tyre = load("MagicFormula61_Parameters");
    let base = nominal_input(&tyre).with_alpha(0.1).with_kappa(0.05);
    let dry = tyre.evaluate_detailed(&base);
    let mut wet_input = base;
    wet_input.mu_scale = 0.5;
    let wet = tyre.evaluate_detailed(&wet_input);
    assert!((wet.mux - 0.5 * dry.mux).abs() < 1e-12);
    assert!((wet.muy - 0.5 * dry.muy).abs() < 1e-12);
    assert!(wet.fy.abs() < dry.fy.abs());
}

#[test]
fn input_limits_option() {
    let path = tyres_dir().join("TNO_car205_60R15.tir");
    let free = load_tir(&path).unwrap().model;
    assert!(!free.input_limits(), "limits are off by default");
    let limited = free.clone().with_input_limits(true);
    let c = free.coefficients().clone();
    let base = nominal_input(&free);
    let same = |a: f64, b: f64| (a - b).abs() <= 1e-9 * a.abs().max(1.0);

    // Load above FZMAX is held at FZMAX.
    let heavy = TireInput {
        fz: 2.0 * c.fzmax,
        ..base
    }
    .with_alpha(0.05);
    let at_max = TireInput {
        fz: c.fzmax,
        ..base
    }
    .with_alpha(0.05);
    assert!(same(
        limited.evaluate(&heavy).fy,
        limited.evaluate(&at_max).fy
    ));
    assert!(!same(free.evaluate(&heavy).fy, limited.evaluate(&heavy).fy));
    // Slip ratio beyond KPUMAX, slip angle beyond ALPMAX, camber beyond CAMMAX.
    let spin = base.with_kappa(3.0);
    assert!(same(
        limited.evaluate(&spin).fx,
        limited.evaluate(&base.with_kappa(c.kpumax)).fx
    ));
    let slide = base.with_alpha(1.56);
    assert!(same(
        limited.evaluate(&slide).fy,
        limited.evaluate(&base.with_alpha(c.alpmax)).fy
    ));
    let lean = base.with_gamma(0.5);
    assert!(same(
        limited.evaluate(&lean).fy,
        limited.evaluate(&base.with_gamma(c.cammax)).fy
    ));
    assert!(!same(free.evaluate(&lean).fy, limited.evaluate(&lean).fy));
    // Pressure beyond PRESMAX.
    let pumped = TireInput {
        pressure: 2.0 * c.presmax,
        ..base
    }
    .with_alpha(0.05);
    let at_presmax = TireInput {
        pressure: c.presmax,
        ..base
    }
    .with_alpha(0.05);
    assert!(same(
        limited.evaluate(&pumped).fy,
        limited.evaluate(&at_presmax).fy
    ));
    // Below VXLOW the slip forces fade out; at standstill there are none (no creep).
    let parked = TireInput { vx: 0.0, ..base }
        .with_kappa(0.1)
        .with_alpha(0.1);
    let out = limited.evaluate(&parked);
    assert!(
        out.fx.abs() < 1e-9 && out.fy.abs() < 1e-9 && out.mz.abs() < 1e-9,
        "{out:?}"
    );
    let slow = TireInput {
        vx: 0.5 * c.vxlow,
        ..base
    }
    .with_kappa(0.1);
    assert!(limited.evaluate(&slow).fx.abs() < free.evaluate(&slow).fx.abs());
    // Inside every range and above VXLOW the option changes nothing.
    let inside = base.with_kappa(0.05).with_alpha(0.05).with_gamma(0.02);
    assert_eq!(free.evaluate(&inside), limited.evaluate(&inside));
}

fn mf61() -> &'static MagicFormula {
    static TYRE: std::sync::OnceLock<MagicFormula> = std::sync::OnceLock::new();
    TYRE.get_or_init(|| load("MagicFormula61_Parameters"))
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 1000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]
    #[test]
    fn finite_output_for_any_finite_input(
        limits in any::<bool>(),
        fz in prop_oneof![Just(0.0), Just(-1.0), Just(-1e6), -1e4..1e6f64, Just(f64::MAX)],
        kappa in prop_oneof![Just(-1.0), Just(0.0), Just(1e6), -1e6..1e6f64, -2.0..2.0f64],
        alpha in prop_oneof![
            Just(std::f64::consts::FRAC_PI_2),
            Just(-std::f64::consts::FRAC_PI_2),
            -10.0..10.0f64,
            -1.6..1.6f64
        ],
        gamma in prop_oneof![Just(1e300), Just(-1e6), -10.0..10.0f64],
        vx in prop_oneof![Just(0.0), Just(-1e-300), -1e3..1e3f64, Just(f64::MAX)],
        pressure in prop_oneof![Just(0.0), -1e5..1e7f64],
        mu_scale in prop_oneof![Just(0.0), -1.0..3.0f64],
    ) {
        let tyre = mf61().clone().with_input_limits(limits);
        let input = TireInput { fz, kappa, alpha, gamma, vx, pressure, mu_scale };
        let out = tyre.evaluate(&input);
        prop_assert!(out.is_finite(), "{:?} -> {:?}", input, out);
        if fz <= 0.0 {
            prop_assert_eq!((out.fx, out.fy, out.mz, out.mx, out.my), (0.0, 0.0, 0.0, 0.0, 0.0));
        }
    }
}

//! Every shipped tyre file, of every family, against the ISO-W sign conventions documented in
//! `gripline_physics::tire`, and against bad input: finite output for any finite input.

use std::sync::OnceLock;

use gripline_formats::tyre_file::{LoadedTyre, load_tyre};
use gripline_physics::tire::{TireInput, TireModel};
use gripline_tests::shipped_tyre_files;
use proptest::prelude::*;

/// Every shipped tyre, loaded once for the whole test binary.
fn all_tyres() -> &'static [LoadedTyre] {
    static TYRES: OnceLock<Vec<LoadedTyre>> = OnceLock::new();
    TYRES.get_or_init(|| {
        let files = shipped_tyre_files();
        assert!(
            files.len() >= 9,
            "expected tyre files of every family in assets/tyres, found {files:?}"
        );
        files
            .iter()
            .map(|path| load_tyre(path).unwrap_or_else(|e| panic!("{e}")))
            .collect()
    })
}

fn reference_input(tyre: &LoadedTyre) -> TireInput {
    let fz = tyre.tire.nominal_load().unwrap_or(4000.0);
    let mut input = TireInput::rolling(fz, 20.0);
    if let Some(p) = tyre.tire.nominal_pressure() {
        input.pressure = p;
    }
    input
}

#[test]
fn every_family_is_shipped() {
    let families: std::collections::BTreeSet<_> =
        all_tyres().iter().map(|t| t.tire.family()).collect();
    for family in [
        "magic-formula",
        "simplified-pacejka",
        "brush",
        "calspan",
        "slip-velocity",
        "friction-table",
    ] {
        assert!(
            families.contains(family),
            "no shipped tyre of family {family}"
        );
    }
}

#[test]
fn signs_follow_iso_w() {
    for tyre in all_tyres() {
        let base = reference_input(tyre);
        let name = &tyre.name;
        let at = |input: TireInput| tyre.tire.evaluate(&input);
        assert!(
            at(base.with_alpha(0.05)).fy < 0.0,
            "{name}: +alpha must give -Fy"
        );
        assert!(
            at(base.with_alpha(-0.05)).fy > 0.0,
            "{name}: -alpha must give +Fy"
        );
        assert!(
            at(base.with_kappa(0.05)).fx > 0.0,
            "{name}: +kappa must give +Fx"
        );
        assert!(
            at(base.with_kappa(-0.05)).fx < 0.0,
            "{name}: -kappa must give -Fx"
        );
        assert!(
            at(base.with_kappa(-1.0)).fx < 0.0,
            "{name}: a locked wheel must brake"
        );
        assert!(
            at(base.with_alpha(0.02)).mz > 0.0,
            "{name}: small +alpha must give a self-aligning +Mz"
        );
        // Rolling backwards the same rules hold: a wheel spinning forward faster than the
        // ground (kappa > 0) pushes forward, and +alpha still gives -Fy.
        let mut reverse = base;
        reverse.vx = -base.vx;
        assert!(
            at(reverse.with_kappa(0.05)).fx > 0.0,
            "{name}: reversing, +kappa must give +Fx"
        );
        assert!(
            at(reverse.with_kappa(-0.05)).fx < 0.0,
            "{name}: reversing, -kappa must give -Fx"
        );
        assert!(
            at(reverse.with_alpha(0.05)).fy < 0.0,
            "{name}: reversing, +alpha must give -Fy"
        );
        // A right-hand turn: slip angles positive, forces to the right (-y), moment aligning.
        let turn = at(base.with_alpha(0.08));
        assert!(turn.fy < 0.0, "{name}: right-hand turn force");
    }
}

#[test]
fn zero_and_negative_load_give_no_force() {
    for tyre in all_tyres() {
        for fz in [0.0, -500.0, f64::NAN] {
            let mut input = reference_input(tyre).with_alpha(0.1).with_kappa(0.1);
            input.fz = fz;
            let out = tyre.tire.evaluate(&input);
            for (what, value) in [("fx", out.fx), ("fy", out.fy), ("mz", out.mz)] {
                assert!(
                    value.abs() < 1e-9,
                    "{}: {what} = {value} at fz = {fz}",
                    tyre.name
                );
            }
        }
    }
}

#[test]
fn surface_friction_scales_the_peak() {
    // The surface scale multiplies the friction coefficient: on a 0.3 surface the peak lateral
    // force is 0.3 times the dry peak. Models whose shape depends on friction (Magic Formula
    // through its offsets, brush and Calspan through the sliding region) may differ a little:
    // the band is 0.3 +- 0.05.
    for tyre in all_tyres() {
        let peak = |mu_scale: f64| {
            (0..=400)
                .map(|i| {
                    let mut input = reference_input(tyre).with_alpha(f64::from(i) * 0.001);
                    input.mu_scale = mu_scale;
                    tyre.tire.evaluate(&input).fy.abs()
                })
                .fold(0.0, f64::max)
        };
        let ratio = peak(0.3) / peak(1.0);
        assert!(
            (0.25..=0.35).contains(&ratio),
            "{}: wet/dry peak ratio {ratio}",
            tyre.name
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn finite_output_for_any_finite_input(
        fz in prop_oneof![Just(0.0), Just(-1.0), -1e4..1e5f64],
        kappa in prop_oneof![Just(-1.0), Just(0.0), -1e6..1e6f64, -2.0..2.0f64],
        alpha in prop_oneof![Just(0.0), -10.0..10.0f64, -1.6..1.6f64],
        gamma in -1.0..1.0f64,
        vx in prop_oneof![Just(0.0), -100.0..100.0f64],
        pressure in prop_oneof![Just(0.0), -1e5..1e6f64],
        mu_scale in 0.0..2.0f64,
    ) {
        for tyre in all_tyres() {
            let input = TireInput { fz, kappa, alpha, gamma, vx, pressure, mu_scale };
            let out = tyre.tire.evaluate(&input);
            prop_assert!(out.is_finite(), "{}: {:?} -> {:?}", tyre.name, input, out);
        }
    }
}

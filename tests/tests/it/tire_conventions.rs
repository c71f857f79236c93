//! Every shipped tyre file, of every family, against the ISO-W sign conventions documented in
//! `gripline_physics::tire`, and against bad input: finite output for any finite input.

use std::sync::OnceLock;

use gripline_formats::tyre_file::{LoadedTyre, load_tyre};
use gripline_physics::tire::magic_formula::MfVersion;
use gripline_physics::tire::{Tire, TireInput, TireModel, TyreSide};
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

/// `dFy/dgamma` at zero slip (N/rad), by a central difference over +-0.01 rad.
fn camber_stiffness(model: &impl TireModel, base: TireInput) -> f64 {
    let h = 0.01;
    (model.evaluate(&base.with_gamma(h)).fy - model.evaluate(&base.with_gamma(-h)).fy) / (2.0 * h)
}

/// ISO inclination (positive: top of the wheel to -y) gives a camber thrust the way the wheel
/// leans, `dFy/dgamma < 0` at zero slip, for every shipped tyre of every family that models
/// camber; the others ignore `gamma`. Issue 31: before, the Magic Formula files gave -60
/// (C5 front), -63 (TNO) and -75 (MF 6.1) N per degree at 4000 N and the Calspan tyre +156.
#[test]
fn camber_thrust_points_the_way_the_wheel_leans() {
    for tyre in all_tyres() {
        let name = &tyre.name;
        let mut base = TireInput::rolling(4000.0, 20.0);
        if let Some(p) = tyre.tire.nominal_pressure() {
            base.pressure = p;
        }
        let k = camber_stiffness(&tyre.tire, base);
        match &tyre.tire {
            Tire::MagicFormula(m) => {
                assert!(k < 0.0, "{name}: dFy/dgamma {k} N/rad must be negative");
                let c = m.coefficients();
                if m.version() != MfVersion::Mf52 {
                    // MF 6.1 / 6.2 at zero slip and nominal pressure: the slope is the camber
                    // stiffness Kyg0 = Fz (PKY6 + PKY7 dfz) LKYC (Pacejka, Tyre and Vehicle
                    // Dynamics, 3rd ed., eq. 4.E30), the camber's shifts of SHy and SVy
                    // cancelling to first order. 5 %: the curve's nonlinearity over the
                    // conicity offset and the Kya(|gamma|) kink.
                    let fz0 = c.fnomin * c.lfzo;
                    let dfz = (base.fz - fz0) / fz0;
                    let kyg0 = base.fz * (c.pky6 + c.pky7 * dfz) * c.lkyc;
                    assert!(
                        (k - kyg0).abs() < 0.05 * kyg0.abs(),
                        "{name}: dFy/dgamma {k} N/rad against Kyg0 {kyg0} N/rad"
                    );
                }
            }
            Tire::Calspan(m) => {
                // -C_gamma = -(A3 Fz - (A3 / A4) Fz^2) on the reference road (see the module).
                let c_gamma = m.a3_per_rad * base.fz - m.a3_per_rad / m.a4_n * base.fz * base.fz;
                assert!(k < 0.0, "{name}: dFy/dgamma {k} N/rad must be negative");
                assert!(
                    (k + c_gamma).abs() < 1e-9 * c_gamma.abs(),
                    "{name}: dFy/dgamma {k} N/rad against -C_gamma {}",
                    -c_gamma
                );
            }
            // Families without camber: gamma is ignored.
            _ => assert!(
                k.abs() < f64::MIN_POSITIVE,
                "{name}: a family without camber must ignore gamma ({k} N/rad)"
            ),
        }
        // And with a slip angle, both directions of it: leaning right pushes right.
        for alpha in [-0.03, 0.03] {
            let k = camber_stiffness(&tyre.tire, base.with_alpha(alpha));
            assert!(k <= 0.0, "{name}: dFy/dgamma {k} N/rad at alpha {alpha}");
        }
    }
}

/// A tyre on the side its data were not measured on is the exact mirror image of the tyre on
/// its own side: `fy`, `mz` and `mx` negated for negated `alpha` and `gamma`, the rest equal,
/// bit for bit; on its own side it is the tyre as its data give it.
#[test]
fn a_tyre_on_the_other_side_is_the_mirror_image() {
    let mut right_measured = 0;
    for tyre in all_tyres() {
        let name = &tyre.name;
        let own = tyre.tire.measured_side();
        right_measured += usize::from(own == TyreSide::Right);
        let same = tyre.tire.on_side(own);
        let other = tyre.tire.on_side(own.opposite());
        assert!(!same.mirrored() && other.mirrored(), "{name}");
        let base = reference_input(tyre);
        for (kappa, alpha, gamma) in [
            (0.0, 0.0, 0.0),
            (0.0, 0.05, 0.0),
            (0.03, -0.07, 0.02),
            (-0.1, 0.2, -0.04),
            (-1.0, -0.3, 0.05),
        ] {
            let input = TireInput {
                kappa,
                alpha,
                gamma,
                ..base
            };
            let mirrored_input = TireInput {
                alpha: -alpha,
                gamma: -gamma,
                ..input
            };
            let a = tyre.tire.evaluate(&input);
            assert_eq!(same.evaluate(&input), a, "{name}: own side as measured");
            let b = other.evaluate(&mirrored_input);
            let what = format!("{name} at kappa {kappa} alpha {alpha} gamma {gamma}");
            assert_eq!(b.fx.to_bits(), a.fx.to_bits(), "{what}: fx");
            assert_eq!(b.fy.to_bits(), (-a.fy).to_bits(), "{what}: fy");
            assert_eq!(b.mz.to_bits(), (-a.mz).to_bits(), "{what}: mz");
            assert_eq!(b.mx.to_bits(), (-a.mx).to_bits(), "{what}: mx");
            assert_eq!(b.my.to_bits(), a.my.to_bits(), "{what}: my");
            assert_eq!(b.slip_stiffness, a.slip_stiffness, "{what}");
            assert_eq!(b.cornering_stiffness, a.cornering_stiffness, "{what}");
            assert_eq!(b.effective_radius, a.effective_radius, "{what}");
            // The step's paths see the same: the forces and the slope's fx.
            let f = other.evaluate_forces(&mirrored_input);
            assert_eq!((f.fx, f.fy, f.mz), (b.fx, b.fy, b.mz), "{what}: forces");
            assert_eq!(
                other.longitudinal_force(&mirrored_input).to_bits(),
                b.fx.to_bits(),
                "{what}: the slope's fx"
            );
        }
        // The data's asymmetry at zero slip and camber (conicity, ply steer) points the same
        // way relative to the car's centre on both sides: opposite in the car's frame.
        let zero = base;
        let left = tyre.tire.on_side(TyreSide::Left).evaluate(&zero);
        let right = tyre.tire.on_side(TyreSide::Right).evaluate(&zero);
        // Equal and opposite exactly (as numbers: a zero may come out as -0 on one side).
        for (l, r, what) in [(left.fy, right.fy, "fy"), (left.mz, right.mz, "mz")] {
            assert!(
                (l + r).abs() < f64::MIN_POSITIVE,
                "{name}: {what} at zero slip {l} left, {r} right"
            );
        }
    }
    // The MF 6.2 sample file is measured on the right (TYRESIDE = 'RIGHT').
    assert_eq!(
        right_measured, 1,
        "expected one right-measured shipped tyre"
    );
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

//! Tests of the Calspan model: unit conversion against the source's imperial formulas,
//! saturation limits, friction decay, signs, symmetry, combined slip, validation.

#![allow(clippy::float_cmp)]

use super::*;
use proptest::prelude::*;

fn input(fz: f64, kappa: f64, alpha: f64) -> TireInput {
    TireInput::rolling(fz, 20.0)
        .with_kappa(kappa)
        .with_alpha(alpha)
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * a.abs().max(b.abs()).max(1e-6)
}

/// The source's formulas evaluated directly in lb, in, psi, rad (patch length in ft), with the
/// patch length found by plain fixed-point iteration. Returns ISO-W `fx`, `fy` (lb) and `mz`
/// (lb·ft).
#[allow(clippy::too_many_arguments)]
fn imperial(
    t: &CalspanImperialTable,
    fz: f64,
    kappa: f64,
    alpha: f64,
    gamma: f64,
    p_psi: f64,
    mu_scale: f64,
) -> (f64, f64, f64) {
    let slip = if kappa <= 0.0 {
        (-kappa).min(1.0)
    } else {
        -kappa / (1.0 + kappa)
    };
    let [c1, c2, c3, c4] = t.c;
    let sat = |s: f64| {
        (c1 * s.powi(3) + c2 * s * s + 4.0 / PI * s) / (c1 * s.powi(3) + c3 * s * s + c4 * s + 1.0)
    };
    let mu0 = t.mu0 * mu_scale;
    let ap0 = 0.0768 * (fz * t.fzt_lb).sqrt() / (t.tw_in * (p_psi + 5.0));
    let ks = 2.0 / (ap0 * ap0) * (t.a0_lb + t.a1 * fz - t.a1 / t.a2_lb * fz * fz);
    let kc = 2.0 / (ap0 * ap0) * fz * t.cs_fz;
    let w = (alpha.sin().powi(2) + slip * slip * alpha.cos().powi(2)).sqrt();
    let kc_mod = kc + (ks - kc) * w;
    let mu = mu0 * (1.0 - 0.124 * w);
    let yg = (t.a3 * fz - t.a3 / t.a4_lb * fz * fz) / (t.mu0 * fz);
    let den = (ks * ks * alpha.tan().powi(2) + kc_mod * kc_mod * slip * slip).sqrt();
    let ratio = slip / (1.0 - slip);
    let mut ap = ap0;
    let mut sigma = 0.0;
    let mut fx = 0.0;
    for _ in 0..500 {
        sigma = PI * ap * ap / (8.0 * mu0 * fz)
            * (ks * ks * alpha.tan().powi(2) + kc * kc * ratio * ratio).sqrt();
        fx = sat(sigma) * kc_mod * slip / den * mu * fz;
        ap = ap0 * (1.0 - t.ka * fx / fz);
    }
    let f = sat(sigma);
    let fy_slip = f * ks * alpha.tan() / den * mu * fz;
    let psi = sigma / (0.75 * PI);
    let trail = if psi < 1.0 {
        ap / 6.0 * 3.0 * (1.0 - psi).powi(3) / (3.0 - 3.0 * psi + psi * psi)
    } else {
        0.0
    };
    // ISO-W from the source's SAE axes (y to the right): braking (slip > 0) gives negative fx;
    // fy is the source's negated, camber thrust included (positive alpha and positive gamma,
    // top to -y, give negative fy); mz = -trail * (slip part of fy).
    (-fx, -(fy_slip + yg * gamma * mu * fz), trail * fy_slip)
}

#[test]
fn si_model_equals_the_imperial_formulas() {
    let tables = [
        CalspanImperialTable::RADIAL_155SR13,
        CalspanImperialTable::BIAS_P155_80D13,
        CalspanImperialTable::RADIAL_P185_70R13,
    ];
    let mut checked = 0;
    for table in &tables {
        let tyre = CalspanTire::from_imperial_table(table);
        for fz_lb in [300.0, 810.0, 1300.0] {
            for (kappa, alpha) in [
                (0.0, 0.02),
                (0.0, -0.15),
                (-0.04, 0.0),
                (0.06, 0.0),
                (-0.1, 0.05),
                (0.2, -0.08),
                (-0.6, 0.3),
                (1.5, 0.01),
                (-0.01, 1.2),
            ] {
                for gamma in [0.0, 0.05] {
                    for (p_psi, mu_scale) in [(24.0, 1.0), (31.0, 0.35)] {
                        let (fx, fy, mz) =
                            imperial(table, fz_lb, kappa, alpha, gamma, p_psi, mu_scale);
                        let mut i = input(fz_lb * LBF_N, kappa, alpha).with_gamma(gamma);
                        i.pressure = p_psi * PSI_PA;
                        i.mu_scale = mu_scale;
                        let out = tyre.evaluate(&i);
                        let what = format!("{table:?} {fz_lb} {kappa} {alpha} {gamma} {p_psi}");
                        assert!(
                            close(out.fx / LBF_N, fx, 1e-9),
                            "fx {} vs {fx}: {what}",
                            out.fx / LBF_N
                        );
                        assert!(
                            close(out.fy / LBF_N, fy, 1e-9),
                            "fy {} vs {fy}: {what}",
                            out.fy / LBF_N
                        );
                        let mz_si = out.mz / (LBF_N * FOOT_M);
                        assert!(close(mz_si, mz, 1e-9), "mz {mz_si} vs {mz}: {what}");
                        checked += 1;
                    }
                }
            }
        }
    }
    assert_eq!(checked, 3 * 3 * 9 * 2 * 2);
}

#[test]
fn conversion_of_the_table() {
    let t = CalspanTire::default();
    assert!(close(t.tread_width_m, 6.0 * 0.0254, 1e-15));
    assert!(close(
        t.nominal_pressure_pa,
        24.0 * 6_894.757_293_168_361,
        1e-12
    ));
    assert!(close(t.rated_load_n, 810.0 * 4.448_221_615_260_5, 1e-15));
    assert!(close(t.a2_n, 2028.24 * 4.448_221_615_260_5, 1e-15));
    assert_eq!(t.mu_decay, 0.124);
    // Patch length: 0.0768 sqrt(Fz FZT) / (Tw (Tp + 5)) ft at rated load = 0.3575 ft.
    let ap0 = t.patch_length(t.rated_load_n, 0.0);
    let ft = 0.0768 * 810.0 / (6.0 * 29.0);
    assert!(close(ap0, ft * 0.3048, 1e-12));
    assert!(close(t.patch_length(t.rated_load_n, -5.0), ap0, 0.0));
    // Stiffnesses at rated load: A0 + A1 Fz - A1/A2 Fz² lb/rad and CS/FZ Fz lb.
    let fz = t.rated_load_n;
    let out = t.evaluate(&input(fz, 0.0, 0.0));
    let ps_lb = 914.02 + 12.9 * 810.0 - 12.9 / 2028.24 * 810.0 * 810.0;
    assert!(close(
        out.cornering_stiffness.unwrap(),
        -ps_lb * LBF_N,
        1e-12
    ));
    assert!(close(out.slip_stiffness.unwrap(), 18.7 * fz, 1e-15));
}

#[test]
fn saturation_limits_and_slope() {
    for c in [[1.0, 0.34, 0.57, 0.32], [0.535, 1.05, 1.15, 0.8]] {
        assert_eq!(saturation(c, 0.0), (0.0, 4.0 / PI));
        let (f_inf, d_inf) = saturation(c, f64::INFINITY);
        assert_eq!((f_inf, d_inf), (1.0, 0.0));
        assert!((saturation(c, 1e12).0 - 1.0).abs() < 1e-11);
        // Continuous across the two evaluation branches, with the analytic slope.
        let below = saturation(c, 1.0);
        let above = saturation(c, 1.0 + 1e-12);
        assert!(close(below.0, above.0, 1e-11));
        assert!(close(below.1, above.1, 1e-9));
        for s in [0.1, 0.7, 1.3, 4.0, 50.0] {
            let h = 1e-6 * s;
            let numeric = (saturation(c, s + h).0 - saturation(c, s - h).0) / (2.0 * h);
            assert!(close(saturation(c, s).1, numeric, 1e-6), "slope at {s}");
        }
    }
}

#[test]
fn signs_follow_iso_w() {
    let t = CalspanTire::default();
    let fz = 3500.0;
    assert!(t.evaluate(&input(fz, 0.05, 0.0)).fx > 0.0);
    assert!(t.evaluate(&input(fz, -0.05, 0.0)).fx < 0.0);
    let turn = t.evaluate(&input(fz, 0.0, 0.03));
    assert!(turn.fy < 0.0);
    assert!(turn.mz > 0.0);
    // Camber (ISO): leaning right (positive gamma, top to -y) pushes right, with
    // -C_gamma gamma at zero slip.
    let lean = t.evaluate(&input(fz, 0.0, 0.0).with_gamma(0.02));
    let c_gamma = t.a3_per_rad * fz - t.a3_per_rad / t.a4_n * fz * fz;
    assert!(lean.fy < 0.0);
    assert!(close(lean.fy, -c_gamma * 0.02, 1e-12));
    assert_eq!(lean.mz, 0.0);
}

#[test]
fn stiffness_matches_finite_differences() {
    let t = CalspanTire::default();
    for fz in [1500.0, 3600.0, 6000.0] {
        let out = t.evaluate(&input(fz, 0.0, 0.0));
        let h = 1e-7;
        let dfy = t.evaluate(&input(fz, 0.0, h)).fy / h;
        assert!(close(dfy, out.cornering_stiffness.unwrap(), 1e-5));
        let dfx = t.evaluate(&input(fz, h, 0.0)).fx / h;
        assert!(close(dfx, out.slip_stiffness.unwrap(), 1e-5));
        let dfx = t.evaluate(&input(fz, -h, 0.0)).fx / -h;
        assert!(close(dfx, out.slip_stiffness.unwrap(), 1e-5));
    }
}

#[test]
fn friction_falls_with_slip() {
    let t = CalspanTire::default();
    let fz = 3600.0;
    // Fully sideways: w = 1, f -> 1, so |fy| -> mu0 (1 - 0.124) Fz.
    let side = t.evaluate(&input(fz, 0.0, FRAC_PI_2));
    assert!(close(side.fy, -0.85 * (1.0 - 0.124) * fz, 1e-9));
    assert_eq!(side.mz, 0.0);
    // Locked: S = 1, w = 1.
    let locked = t.evaluate(&input(fz, -1.0, 0.0));
    assert!(close(locked.fx, -0.85 * 0.876 * fz, 1e-9));
    let beyond = t.evaluate(&input(fz, -1e6, 0.0));
    assert_eq!(beyond, locked);
    // Spinning: S -> -1, w -> 1.
    let spin = t.evaluate(&input(fz, 1e6, 0.0));
    assert!(spin.fx > 0.0 && spin.fx < 0.85 * fz);
    // The friction scale of the road scales the limit.
    let mut icy = input(fz, -1.0, 0.0);
    icy.mu_scale = 0.1 / 0.85;
    assert!(close(t.evaluate(&icy).fx, -0.1 * 0.876 * fz, 1e-9));
    // Peak above the sliding value: mu falls with slip.
    let peak = (1..400)
        .map(|i| -t.evaluate(&input(fz, 0.0, f64::from(i) * 0.002)).fy)
        .fold(0.0, f64::max);
    assert!(peak > 0.85 * 0.876 * fz * 1.02);
}

#[test]
fn patch_length_solve_is_consistent() {
    // rho = ap / ap0 must equal 1 - Ka Fx_src / Fz at the returned force, shown through the
    // source's formula for fx at that rho.
    let t = CalspanTire::default();
    let fz = 3600.0;
    for kappa in [-0.3, -0.08, -0.02, 0.03, 0.1, 0.5] {
        let out = t.evaluate(&input(fz, kappa, 0.04));
        let rho = 1.0 + t.ka * out.fx / fz;
        let s = source_slip(kappa);
        let alpha: f64 = 0.04;
        let ps = t.cornering_stiffness(fz);
        let pc = t.cs_fz * fz;
        let w = (alpha.sin().powi(2) + s * s * alpha.cos().powi(2)).sqrt();
        let pcm = pc + (ps - pc) * w;
        let sigma =
            PI * rho * rho / (4.0 * t.mu0 * fz) * (ps * alpha.tan()).hypot(pc * s / (1.0 - s));
        let fx_src = saturation(t.coefficients(), sigma).0 * pcm * s
            / (ps * alpha.tan()).hypot(pcm * s)
            * t.mu0
            * (1.0 - 0.124 * w)
            * fz;
        assert!(
            close(out.fx, -fx_src, 1e-13),
            "{kappa}: {} vs {}",
            out.fx,
            -fx_src
        );
    }
}

#[test]
fn combined_slip_reduces_lateral_force() {
    let t = CalspanTire::default();
    let fz = 3600.0;
    for alpha in [0.02, 0.06, 0.15] {
        let mut last = t.evaluate(&input(fz, 0.0, alpha)).fy.abs();
        for i in 1..=20 {
            let out = t.evaluate(&input(fz, -f64::from(i) * 0.02, alpha));
            assert!(out.fy.abs() < last, "alpha {alpha}, step {i}");
            last = out.fy.abs();
        }
    }
    // Locked with a slip angle: the force is the sliding friction along the slip direction.
    let out = t.evaluate(&input(fz, -1.0, 0.2));
    assert!(out.fx < 0.0 && out.fy < 0.0);
    assert!(out.fx.hypot(out.fy) <= 0.85 * fz);
}

#[test]
fn pressure_changes_only_the_moment() {
    let t = CalspanTire::default();
    let mut low = input(3600.0, -0.03, 0.05);
    low.pressure = 1.2e5;
    let mut high = low;
    high.pressure = 2.8e5;
    let (a, b) = (t.evaluate(&low), t.evaluate(&high));
    assert!(close(a.fx, b.fx, 1e-14) && close(a.fy, b.fy, 1e-14));
    assert!(a.mz > b.mz, "a softer tyre has a longer patch and trail");
    let mut none = low;
    none.pressure = 0.0;
    let mut nominal = low;
    nominal.pressure = t.nominal_pressure_pa;
    assert_eq!(t.evaluate(&none), t.evaluate(&nominal));
}

#[test]
fn zero_and_bad_load_give_zero_output() {
    let t = CalspanTire::default();
    for fz in [0.0, -3.0, f64::NAN] {
        assert_eq!(t.evaluate(&input(fz, 0.1, 0.1)), TireOutput::default());
    }
    let mut dry = input(3000.0, 0.1, 0.1);
    dry.mu_scale = 0.0;
    let out = t.evaluate(&dry);
    assert_eq!((out.fx, out.fy, out.mz), (0.0, 0.0, 0.0));
}

#[test]
fn validation_names_the_fields() {
    assert!(CalspanTire::default().check().is_ok());
    let bad = CalspanTire {
        tread_width_m: 0.0,
        c1: 0.0,
        c3: -1.0,
        a2_n: -5.0,
        a4_n: 0.0,
        ka: 0.9,
        mu0: f64::NAN,
        mu_decay: 1.0,
        ..CalspanTire::default()
    };
    let err = bad.check().unwrap_err();
    let paths: Vec<_> = err.0.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "tread_width_m",
            "c1",
            "c3",
            "a2_n",
            "a4_n",
            "ka",
            "mu0",
            "mu_decay"
        ]
    );
}

proptest! {
    #[test]
    fn output_is_finite(
        fz in prop_oneof![Just(0.0), -1e4..1e5, 1e5..1e15, Just(1e300)],
        kappa in prop_oneof![Just(-1.0), Just(1e6), Just(-1e6), -1e7..1e7, -2.0..2.0],
        alpha in prop_oneof![Just(FRAC_PI_2), Just(-FRAC_PI_2), -10.0..10.0, -1e9..1e9],
        gamma in prop_oneof![Just(0.0), -1.0..1.0, -1e6..1e6],
        mu in prop_oneof![Just(0.0), Just(1e-300), 0.0..3.0, -1.0..0.0],
        pressure in prop_oneof![Just(0.0), -1e5..0.0, 1e3..1e7],
        table in 0..3usize,
    ) {
        let t = CalspanTire::from_imperial_table(&[
            CalspanImperialTable::RADIAL_155SR13,
            CalspanImperialTable::BIAS_P155_80D13,
            CalspanImperialTable::RADIAL_P185_70R13,
        ][table]);
        let mut i = input(fz, kappa, alpha).with_gamma(gamma);
        i.mu_scale = mu;
        i.pressure = pressure;
        i.vx = 0.0;
        let out = t.evaluate(&i);
        prop_assert!(out.is_finite(), "{out:?}");
    }

    #[test]
    fn lateral_force_and_moment_are_odd(kappa in -1.5..3.0f64, alpha in -1.5..1.5f64, fz in 200.0..9000.0f64) {
        let t = CalspanTire::default();
        let a = t.evaluate(&input(fz, kappa, alpha));
        let b = t.evaluate(&input(fz, kappa, -alpha));
        prop_assert!(close(a.fy, -b.fy, 1e-12));
        prop_assert!(close(a.mz, -b.mz, 1e-12));
        prop_assert!(close(a.fx, b.fx, 1e-12));
        // And odd in camber at zero slip angle.
        let g = t.evaluate(&input(fz, kappa, 0.0).with_gamma(0.05));
        let h = t.evaluate(&input(fz, kappa, 0.0).with_gamma(-0.05));
        prop_assert!(close(g.fy, -h.fy, 1e-12));
    }
}

//! The tyre lab's human-readable summary: peaks and stiffnesses per load.

use std::fmt::Write as _;

use gripline_formats::tyre_file::LoadedTyre;
use gripline_physics::tire::{TireModel, TireOutput};

use super::sweep::{Conditions, SweepSpec, linspace};

/// Peak of `value` over `slips` (by magnitude), with the slip where it occurs.
fn peak(slips: impl Iterator<Item = f64>, value: impl Fn(f64) -> f64) -> (f64, f64) {
    slips
        .map(|s| (s, value(s)))
        .fold((0.0, 0.0), |best, (s, v)| {
            if v.abs() > best.1.abs() { (s, v) } else { best }
        })
}

/// A table of the tyre's key figures at each load of `spec`.
pub fn describe(loaded: &LoadedTyre, spec: &SweepSpec, c: &Conditions) -> String {
    let tire = &loaded.tire;
    let mut text = String::new();
    let _ = writeln!(
        text,
        "{} — {} model, from {}",
        loaded.name,
        tire.family(),
        loaded.source.display()
    );
    let _ = writeln!(
        text,
        "conditions: vx {:.2} m/s, pressure {:.0} Pa, camber {:.2} deg, surface mu scale {}",
        c.vx,
        c.pressure,
        c.gamma.to_degrees(),
        c.mu_scale
    );
    let _ = writeln!(
        text,
        "{:>9} {:>10} {:>9} {:>7} {:>10} {:>9} {:>7} {:>12} {:>10} {:>9}",
        "Fz (N)",
        "peak Fy",
        "at (deg)",
        "mu_y",
        "peak Fx",
        "at kappa",
        "mu_x",
        "C_alpha N/deg",
        "peak Mz",
        "at (deg)"
    );
    for &fz in &spec.loads {
        let eval = |alpha: f64, kappa: f64| -> TireOutput {
            tire.evaluate(&c.at(fz).with_alpha(alpha).with_kappa(kappa))
        };
        let angles = || linspace(0.0, 30f64.to_radians(), 1201);
        let (alpha_fy, fy) = peak(angles(), |a| eval(a, 0.0).fy);
        let (alpha_mz, mz) = peak(angles(), |a| eval(a, 0.0).mz);
        let (kappa_fx, fx) = peak(linspace(0.0, 1.0, 2001), |k| eval(0.0, k).fx);
        // Central difference over +-0.01 deg: the same figure for every model family.
        let h = 0.01f64.to_radians();
        let c_alpha = (eval(h, 0.0).fy - eval(-h, 0.0).fy) / (2.0 * h);
        let mu = |f: f64| if fz > 0.0 { f.abs() / fz } else { 0.0 };
        let _ = writeln!(
            text,
            "{fz:>9.0} {fy:>10.1} {:>9.2} {:>7.3} {fx:>10.1} {kappa_fx:>9.3} {:>7.3} {:>12.1} {mz:>10.2} {:>9.2}",
            alpha_fy.to_degrees(),
            mu(fy),
            mu(fx),
            -c_alpha.to_radians(),
            alpha_mz.to_degrees(),
        );
    }
    text
}

//! Sweeps of the tyre lab: which inputs to evaluate when no points file is given.

use anyhow::{Context, Result, bail};
use gripline_physics::tire::TireInput;

use crate::cli::Sweep;

/// Conditions shared by every point of a sweep.
#[derive(Clone, Copy, Debug)]
pub struct Conditions {
    /// Longitudinal speed (m/s).
    pub vx: f64,
    /// Inflation pressure (Pa).
    pub pressure: f64,
    /// Inclination (camber) held outside camber sweeps (rad, ISO: positive top of the wheel
    /// to -y).
    pub gamma: f64,
    /// Surface friction scale.
    pub mu_scale: f64,
}

impl Conditions {
    /// A free-rolling input at `fz` under these conditions.
    pub fn at(&self, fz: f64) -> TireInput {
        TireInput {
            fz,
            kappa: 0.0,
            alpha: 0.0,
            gamma: self.gamma,
            vx: self.vx,
            pressure: self.pressure,
            mu_scale: self.mu_scale,
        }
    }
}

/// Parses `MIN:MAX` into two finite numbers with `MIN < MAX`.
///
/// # Errors
/// Naming the option and what is wrong.
pub fn parse_range(text: &str, option: &str) -> Result<(f64, f64)> {
    let (lo, hi) = text
        .split_once(':')
        .with_context(|| format!("--{option}: expected MIN:MAX, got '{text}'"))?;
    let parse = |s: &str| -> Result<f64> {
        s.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .with_context(|| format!("--{option}: '{s}' is not a finite number"))
    };
    let (lo, hi) = (parse(lo)?, parse(hi)?);
    if lo >= hi {
        bail!("--{option}: MIN must be below MAX (got {lo}:{hi})");
    }
    Ok((lo, hi))
}

/// `steps` evenly spaced values from `lo` to `hi` inclusive (at least two).
pub fn linspace(lo: f64, hi: f64, steps: usize) -> impl Iterator<Item = f64> {
    let steps = steps.max(2);
    let last = (steps - 1) as f64;
    (0..steps).map(move |i| lo + (hi - lo) * (i as f64 / last))
}

/// The ranges of a sweep, in SI units.
#[derive(Clone, Debug)]
pub struct SweepSpec {
    /// Which sweep.
    pub kind: Sweep,
    /// Loads (N).
    pub loads: Vec<f64>,
    /// Slip-angle range (rad).
    pub alpha: (f64, f64),
    /// Slip-ratio range.
    pub kappa: (f64, f64),
    /// Camber range (rad).
    pub camber: (f64, f64),
    /// Slip angles for combined and camber sweeps (rad).
    pub alphas: Vec<f64>,
    /// Points per curve.
    pub steps: usize,
}

/// All inputs of a sweep, curve after curve.
pub fn inputs(spec: &SweepSpec, conditions: &Conditions) -> Vec<TireInput> {
    let mut out = Vec::new();
    let first_load = spec.loads.first().copied().unwrap_or(4000.0);
    match spec.kind {
        Sweep::Alpha => {
            for &fz in &spec.loads {
                out.extend(
                    linspace(spec.alpha.0, spec.alpha.1, spec.steps)
                        .map(|a| conditions.at(fz).with_alpha(a)),
                );
            }
        }
        Sweep::Kappa => {
            for &fz in &spec.loads {
                out.extend(
                    linspace(spec.kappa.0, spec.kappa.1, spec.steps)
                        .map(|k| conditions.at(fz).with_kappa(k)),
                );
            }
        }
        Sweep::Combined => {
            for &alpha in &spec.alphas {
                out.extend(
                    linspace(spec.kappa.0, spec.kappa.1, spec.steps)
                        .map(|k| conditions.at(first_load).with_alpha(alpha).with_kappa(k)),
                );
            }
        }
        Sweep::Camber => {
            for &alpha in &spec.alphas {
                out.extend(
                    linspace(spec.camber.0, spec.camber.1, spec.steps)
                        .map(|g| conditions.at(first_load).with_alpha(alpha).with_gamma(g)),
                );
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_parse_and_reject_nonsense() {
        assert_eq!(parse_range("-15:15", "alpha-deg").unwrap(), (-15.0, 15.0));
        assert!(parse_range("15:-15", "x").is_err());
        assert!(
            parse_range("a:1", "x")
                .unwrap_err()
                .to_string()
                .contains("'a'")
        );
        assert!(parse_range("1", "x").is_err());
        assert!(parse_range("nan:1", "x").is_err());
    }

    #[test]
    fn linspace_hits_both_ends() {
        let v: Vec<f64> = linspace(-1.0, 1.0, 5).collect();
        assert_eq!(v, [-1.0, -0.5, 0.0, 0.5, 1.0]);
        assert_eq!(linspace(0.0, 1.0, 0).count(), 2);
    }

    #[test]
    fn combined_sweep_is_kappa_curves_per_alpha() {
        let spec = SweepSpec {
            kind: Sweep::Combined,
            loads: vec![3000.0, 5000.0],
            alpha: (-0.2, 0.2),
            kappa: (-0.3, 0.3),
            camber: (-0.1, 0.1),
            alphas: vec![0.0, 0.05],
            steps: 11,
        };
        let c = Conditions {
            vx: 20.0,
            pressure: 2e5,
            gamma: 0.0,
            mu_scale: 1.0,
        };
        let inputs = inputs(&spec, &c);
        assert_eq!(inputs.len(), 22);
        assert!(inputs.iter().all(|i| i.fz.to_bits() == 3000f64.to_bits()));
        assert_eq!(inputs[11].alpha.to_bits(), 0.05f64.to_bits());
        assert_eq!(inputs[11].kappa.to_bits(), (-0.3f64).to_bits());
    }
}

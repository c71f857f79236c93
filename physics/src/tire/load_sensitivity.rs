//! Load sensitivity for the tyre families whose own sources have none (simplified Pacejka,
//! brush, slip-velocity curves, friction table): a tyre's friction coefficient falls as its
//! load rises. The law is TORCS's and Speed Dreams's (`simuv2`/`simuv5` `wheel.cpp`, the
//! research notes' reference sims): the friction is multiplied by
//! `min + (max - min) exp(k Fz / Fz_ref)`, which is `max` at no load, `1` at the reference load
//! `Fz_ref` (so `k = ln((1 - min) / (max - min))`) and tends to `min` at high load. A TORCS
//! car's `load factor max`, `load factor min` and `operating load` map onto it one to one.
//!
//! Omitted (the default), a tyre's friction does not depend on its load, as its source has it.

use serde::{Deserialize, Serialize};

use crate::validate::{Validate, Validator};

/// The friction factor's law over the load (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoadSensitivity {
    /// Friction factor at no load (-), above 1 (TORCS: 1.6 at most).
    pub max_factor: f64,
    /// Friction factor that a very high load tends to (-), below 1 (TORCS: 0.8 at least).
    pub min_factor: f64,
    /// Load at which the factor is 1 (N): the load the friction was measured at.
    pub reference_load_n: f64,
}

impl LoadSensitivity {
    /// The friction factor at load `fz` (N); `max_factor` at no or negative load, and 1 when the
    /// law or the load is not usable (not finite).
    #[must_use]
    pub fn factor(&self, fz: f64) -> f64 {
        if !fz.is_finite() {
            return 1.0;
        }
        let (max, min) = (self.max_factor, self.min_factor);
        let k = ((1.0 - min) / (max - min)).ln();
        let f = min + (max - min) * (k * fz.max(0.0) / self.reference_load_n).exp();
        if f.is_finite() && f > 0.0 { f } else { 1.0 }
    }
}

/// The friction factor of an optional law at load `fz`: 1 without one.
#[inline]
#[must_use]
pub fn load_factor(law: Option<&LoadSensitivity>, fz: f64) -> f64 {
    law.map_or(1.0, |l| l.factor(fz))
}

impl Validate for LoadSensitivity {
    fn validate(&self, v: &mut Validator) {
        v.in_range("max_factor", self.max_factor, 1.0, 3.0);
        v.in_range("min_factor", self.min_factor, 0.1, 1.0);
        v.require(
            self.min_factor < 1.0 && self.max_factor > 1.0,
            "max_factor",
            "the factor must fall through 1: min_factor below 1, max_factor above",
        );
        v.positive("reference_load_n", self.reference_load_n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// TORCS's default law (1.6 at no load, 0.8 at high load) is 1 at its reference load and
    /// falls through it.
    #[test]
    fn the_factor_is_one_at_the_reference_load_and_falls_with_load() {
        let law = LoadSensitivity {
            max_factor: 1.6,
            min_factor: 0.8,
            reference_load_n: 4000.0,
        };
        assert!((law.factor(4000.0) - 1.0).abs() < 1e-12);
        assert!((law.factor(0.0) - 1.6).abs() < 1e-12);
        assert!(law.factor(2000.0) > 1.0 && law.factor(8000.0) < 1.0);
        assert!(law.factor(1e7) > 0.8 - 1e-12 && law.factor(1e7) < 0.8 + 1e-6);
        assert!((law.factor(f64::NAN) - 1.0).abs() < 1e-15);
        assert!((load_factor(None, 8000.0) - 1.0).abs() < 1e-15);
    }
}

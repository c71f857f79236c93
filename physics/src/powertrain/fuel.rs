//! Fuel: the tank and the consumption from brake-specific fuel consumption (Wolfe, workshop VI,
//! `docs/sources.md`).
//!
//! The fuel flow is `bsfc (g/kWh) * P (kW) / 3600` in g/s, with `P` the combustion power
//! `T_combustion * omega` (throttle times full-load torque times engine speed). Using the
//! combustion power rather than the flywheel power keeps an idling engine, whose flywheel
//! power is zero, burning fuel. The fuel mass feeds back into the vehicle's mass through
//! [`super::Powertrain::fuel_mass_kg`]; an empty tank stops combustion.

use serde::{Deserialize, Serialize};

use crate::validate::{Validate, Validator};

/// Fuel tank parameters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FuelParams {
    /// Usable tank capacity (kg).
    pub fuel_capacity_kg: f64,
    /// Fuel in the tank at the start (kg).
    pub initial_fuel_kg: f64,
}

impl Default for FuelParams {
    /// The Corvette C5's 72 L (19.1 US gal) tank of petrol at 0.745 kg/L, full.
    fn default() -> Self {
        Self {
            fuel_capacity_kg: 53.6,
            initial_fuel_kg: 53.6,
        }
    }
}

impl Validate for FuelParams {
    fn validate(&self, v: &mut Validator) {
        v.positive("fuel_capacity_kg", self.fuel_capacity_kg);
        v.non_negative("initial_fuel_kg", self.initial_fuel_kg);
        v.require(
            self.initial_fuel_kg <= self.fuel_capacity_kg,
            "initial_fuel_kg",
            "must not exceed fuel_capacity_kg",
        );
    }
}

/// Fuel flow (g/s) of an engine with `bsfc_g_per_kwh` producing `power_w` of combustion
/// power (negative power burns nothing).
pub fn fuel_rate_g_per_s(bsfc_g_per_kwh: f64, power_w: f64) -> f64 {
    // g/kWh * kW / (3600 s/h) = g/s, and kW = W / 1000.
    bsfc_g_per_kwh * power_w.max(0.0) / 3.6e6
}

/// Burns `rate_g_per_s` for `dt` seconds from `mass_kg`, never below zero; returns the new
/// mass.
pub fn burn(mass_kg: f64, rate_g_per_s: f64, dt: f64) -> f64 {
    (mass_kg - rate_g_per_s * dt * 1e-3).max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_is_bsfc_times_power() {
        // 250 g/kWh at 100 kW: 25 kg/h = 6.944 g/s.
        let r = fuel_rate_g_per_s(250.0, 100_000.0);
        assert!((r - 25_000.0 / 3600.0).abs() < 1e-12);
        assert!(fuel_rate_g_per_s(250.0, -5.0).abs() < 1e-15);
        assert!((burn(1.0, 1000.0, 0.5) - 0.5).abs() < 1e-12);
        assert!(burn(0.001, 1000.0, 1.0).abs() < 1e-15);
    }

    #[test]
    fn validation() {
        let f = FuelParams {
            fuel_capacity_kg: 10.0,
            initial_fuel_kg: 11.0,
        };
        let err = f.check().unwrap_err().to_string();
        assert!(err.contains("initial_fuel_kg must not exceed"), "{err}");
        assert!(FuelParams::default().check().is_ok());
    }
}

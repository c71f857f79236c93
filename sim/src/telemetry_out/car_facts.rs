//! The facts about the car the telemetry packets carry besides the state.

use gripline_physics::powertrain::engine::EngineParams;
use gripline_physics::vehicle::Vehicle;

/// What the packets need from the car (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct CarFacts {
    /// LFS-style car code: up to three upper-case letters or digits, zero-padded.
    pub code: [u8; 4],
    /// Redline (rpm): the shift light comes on at 97 % of it.
    pub redline_rpm: f64,
    /// Fuel tank (kg).
    pub fuel_capacity_kg: f64,
    /// The engine: OutSim's torque at full throttle at the present speed.
    pub engine: EngineParams,
}

impl CarFacts {
    /// The facts of `vehicle`.
    pub fn of(vehicle: &Vehicle) -> Self {
        let p = vehicle.params();
        let mut code = [0u8; 4];
        for (slot, c) in code
            .iter_mut()
            .zip(p.name.chars().filter(char::is_ascii_alphanumeric).take(3))
        {
            *slot = u8::try_from(c.to_ascii_uppercase()).unwrap_or(b'X');
        }
        Self {
            code,
            redline_rpm: p.powertrain.engine.redline_rpm,
            fuel_capacity_kg: p.powertrain.fuel.fuel_capacity_kg,
            engine: p.powertrain.engine.clone(),
        }
    }
}

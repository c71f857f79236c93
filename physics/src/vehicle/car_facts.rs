//! A car's headline figures ([`CarFacts`]): the driven wheels, the engine's peak power and
//! the mass, as a car list shows them. The one place they are worked out from
//! [`VehicleParams`].

use super::params::VehicleParams;
use crate::powertrain::{Drivetrain, PeakPower};

/// Which wheels the engine drives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DriveLayout {
    /// Front-wheel drive.
    Fwd,
    /// Rear-wheel drive.
    Rwd,
    /// All-wheel drive.
    Awd,
}

impl DriveLayout {
    /// The layout of `drivetrain`.
    pub fn of(drivetrain: &Drivetrain) -> Self {
        match drivetrain {
            Drivetrain::Fwd { .. } => Self::Fwd,
            Drivetrain::Rwd { .. } => Self::Rwd,
            Drivetrain::Awd { .. } => Self::Awd,
        }
    }

    /// The usual abbreviation: "FWD", "RWD" or "AWD".
    pub fn abbreviation(self) -> &'static str {
        match self {
            Self::Fwd => "FWD",
            Self::Rwd => "RWD",
            Self::Awd => "AWD",
        }
    }
}

/// A car's headline figures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CarFacts {
    /// The driven wheels.
    pub drive: DriveLayout,
    /// The engine's peak flywheel power ([`crate::powertrain::EngineParams::peak_power`]).
    pub peak_power: PeakPower,
    /// Total mass with driver and the reference fuel load (kg).
    pub mass_kg: f64,
}

impl CarFacts {
    /// The figures of `params`.
    pub fn of(params: &VehicleParams) -> Self {
        Self {
            drive: DriveLayout::of(&params.powertrain.drivetrain),
            peak_power: params.powertrain.engine.peak_power(),
            mass_kg: params.chassis.mass_kg,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::powertrain::Differential;

    #[test]
    fn the_default_corvette_is_a_rear_driven_1547_kg_257_kw_car() {
        let mut p = VehicleParams::default();
        let f = CarFacts::of(&p);
        assert_eq!(f.drive, DriveLayout::Rwd);
        assert_eq!(f.drive.abbreviation(), "RWD");
        assert!((f.mass_kg - 1547.0).abs() < 1e-9, "{f:?}");
        assert_eq!(f.peak_power, p.powertrain.engine.peak_power());
        p.powertrain.drivetrain = Drivetrain::Fwd {
            front: Differential::Open,
        };
        assert_eq!(CarFacts::of(&p).drive, DriveLayout::Fwd);
    }
}

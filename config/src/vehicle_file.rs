//! Vehicle files: every parameter of a car in RON ([`VehicleParams`]), with the tyres named
//! by their asset names (`front_tyre: "corvette-c5-front"`), loaded from `assets/tyres/` or
//! from the vehicle file's own folder.
//!
//! Magic Formula tyres are loaded with their `.tir` input ranges switched on, as the
//! simulator runs them; the tyre lab shows them without.

use std::path::{Path, PathBuf};

use gripline_physics::tire::Tire;
use gripline_physics::tire::thermal::TyreThermalParams;
use gripline_physics::validate::{Validate, Validator};
use gripline_physics::vehicle::{Vehicle, VehicleParams};

use crate::error::ConfigError;
use crate::{assets, load_tyre, ron_text};

/// A vehicle ready to build: validated parameters and loaded tyres.
#[derive(Clone, Debug)]
pub struct LoadedVehicle {
    /// The parameters.
    pub params: VehicleParams,
    /// Front and rear tyre models.
    pub tires: [Tire; 2],
    /// Front and rear tyres' thermal models, from their files (`None`: the tyre has none).
    pub thermal: [Option<TyreThermalParams>; 2],
    /// Where the vehicle file was.
    pub source: PathBuf,
    /// Every file the vehicle was read from: the vehicle file, then its front and rear tyre
    /// files (what a replay's identity of the car hashes).
    pub files: Vec<PathBuf>,
    /// Remarks from loading the tyres.
    pub warnings: Vec<String>,
}

impl LoadedVehicle {
    /// A new vehicle at the origin, at rest, its tyres with their thermal models.
    ///
    /// # Errors
    /// The physics crate's checks of the combination of parameters and tyres.
    pub fn build(&self) -> Result<Vehicle, ConfigError> {
        Vehicle::new(self.params.clone(), self.tires.clone())
            .and_then(|vehicle| vehicle.with_tyre_thermal(self.thermal.clone()))
            .map_err(|violations| ConfigError::Invalid {
                path: self.source.clone(),
                violations,
            })
    }
}

/// Parses and validates the text of a vehicle file (without loading its tyres).
///
/// # Errors
/// [`ConfigError::Syntax`] with line and column, or [`ConfigError::Invalid`] with field paths
/// such as `chassis.mass_kg must be finite and positive`.
pub fn parse_vehicle_ron(text: &str, path: &Path) -> Result<VehicleParams, ConfigError> {
    let params: VehicleParams = ron_text::parse(text, path)?;
    let mut v = Validator::with_root("");
    params.validate(&mut v);
    v.require(
        !params.front_tyre.trim().is_empty(),
        "front_tyre",
        "must name a tyre",
    );
    v.require(
        !params.rear_tyre.trim().is_empty(),
        "rear_tyre",
        "must name a tyre",
    );
    v.finish().map_err(|violations| ConfigError::Invalid {
        path: path.to_owned(),
        violations,
    })?;
    Ok(params)
}

/// Finds a tyre named in a vehicle file: beside the vehicle file first, then in the assets.
fn resolve_tyre_of(vehicle: &Path, name: &str) -> Result<PathBuf, ConfigError> {
    if let Some(dir) = vehicle.parent() {
        for ext in ["tir", "ron"] {
            let beside = dir.join(format!("{name}.{ext}"));
            if beside.is_file() {
                return Ok(beside);
            }
        }
    }
    assets::resolve_tyre(name)
}

/// Loads a vehicle file and its tyres.
///
/// # Errors
/// Any [`ConfigError`] of the vehicle file or of its tyre files, each naming its file.
pub fn load_vehicle(path: &Path) -> Result<LoadedVehicle, ConfigError> {
    let params = parse_vehicle_ron(&ron_text::read(path)?, path)?;
    let mut warnings = Vec::new();
    let mut files = vec![path.to_owned()];
    let mut load = |name: &str| -> Result<(Tire, Option<TyreThermalParams>), ConfigError> {
        let tyre_path = resolve_tyre_of(path, name)?;
        let tyre = load_tyre(&tyre_path)?;
        files.push(tyre_path);
        warnings.extend(tyre.warnings);
        Ok((tyre.tire.with_input_limits(true), tyre.thermal))
    };
    let (front, front_thermal) = load(&params.front_tyre)?;
    let (rear, rear_thermal) = load(&params.rear_tyre)?;
    let loaded = LoadedVehicle {
        params,
        tires: [front, rear],
        thermal: [front_thermal, rear_thermal],
        source: path.to_owned(),
        files,
        warnings,
    };
    // Check the combination once here, so that a bad file fails at load, not at build.
    loaded.build()?;
    Ok(loaded)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_params_round_trip_and_validate() {
        let params = VehicleParams::default();
        let text = ron_text::to_pretty(&params).unwrap();
        let back = parse_vehicle_ron(&text, Path::new("v.ron")).unwrap();
        assert_eq!(back, params);
    }

    #[test]
    fn bad_values_report_field_paths() {
        let mut params = VehicleParams::default();
        params.chassis.mass_kg = -5.0;
        params.front_tyre = String::new();
        let text = ron_text::to_pretty(&params).unwrap();
        let err = parse_vehicle_ron(&text, Path::new("v.ron")).unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("chassis.mass_kg must be finite and positive"),
            "{text}"
        );
        assert!(text.contains("front_tyre must name a tyre"), "{text}");
    }

    #[test]
    fn syntax_errors_have_positions() {
        let err = parse_vehicle_ron("(\n  name: \"x\",\n  chassis: 5,\n)", Path::new("v.ron"))
            .unwrap_err();
        assert!(err.to_string().starts_with("v.ron:"), "{err}");
    }
}

//! What to drive and how: car, track, gearbox mode and driving aids.

use gripline_physics::powertrain::gearbox::GearboxMode;
use gripline_physics::validate::{Validate, Validator};
use serde::{Deserialize, Serialize};

use crate::sanitize::{Sanitize, Sanitizer};

/// The car shipped first (`assets/vehicles/corvette-c5.ron`).
pub const DEFAULT_VEHICLE_ID: &str = "corvette-c5";
/// The track the simulator opens on (`assets/tracks/circuit.ron`): a lap with corners.
pub const DEFAULT_TRACK_ID: &str = "circuit";
/// Longest asset name accepted.
pub const MAX_ASSET_ID_LEN: usize = 128;

/// Driving aids. The car's own aid parameters decide how they act; these switch them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Aids {
    /// Anti-lock brakes.
    pub abs: bool,
    /// Traction control.
    pub traction_control: bool,
    /// Automatic clutch in the sequential mode (pulling away and shifting); the automatic
    /// mode always has one, the H-pattern mode never.
    pub auto_clutch: bool,
}

impl Default for Aids {
    /// Every aid on: a new driver on a keyboard or a pad gets a car that can be driven.
    fn default() -> Self {
        Self {
            abs: true,
            traction_control: true,
            auto_clutch: true,
        }
    }
}

/// The session to start: car, track, gearbox mode and aids.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SessionSettings {
    /// Asset name of the car (`assets/vehicles/<id>.ron`). Whether it exists is checked
    /// by whoever loads it, which falls back to [`DEFAULT_VEHICLE_ID`].
    pub vehicle_id: String,
    /// Asset name of the track (`assets/tracks/<id>.ron`).
    pub track_id: String,
    /// How gears and clutch are operated.
    pub gearbox_mode: GearboxMode,
    /// Driving aids.
    pub aids: Aids,
    /// Air and track temperatures of the session (°C): what the tyres warm from and shed
    /// heat to, and the temperature cold pressures are set at.
    pub environment: gripline_physics::environment::Environment,
    /// The set-up each car starts in, by car (`setups/CAR/NAME.ron` of the settings
    /// folder); a car not named here runs its own set-up.
    pub setups: std::collections::BTreeMap<String, String>,
}

impl Default for SessionSettings {
    fn default() -> Self {
        Self {
            vehicle_id: DEFAULT_VEHICLE_ID.to_owned(),
            track_id: DEFAULT_TRACK_ID.to_owned(),
            gearbox_mode: GearboxMode::Automatic,
            aids: Aids::default(),
            setups: std::collections::BTreeMap::new(),
            environment: gripline_physics::environment::Environment::default(),
        }
    }
}

/// Whether `id` can name an asset: not empty, not too long, no path separators or parent
/// references, no control characters.
fn asset_id_ok(id: &str) -> bool {
    !id.trim().is_empty()
        && id.len() <= MAX_ASSET_ID_LEN
        && !id.contains(['/', '\\'])
        && id != ".."
        && !id.chars().any(char::is_control)
}

impl Validate for SessionSettings {
    fn validate(&self, v: &mut Validator) {
        v.require(
            asset_id_ok(&self.vehicle_id),
            "vehicle_id",
            "must be an asset name (not empty, no path separators)",
        );
        v.require(
            asset_id_ok(&self.track_id),
            "track_id",
            "must be an asset name (not empty, no path separators)",
        );
        v.nested("environment", &self.environment);
    }
}

impl Sanitize for SessionSettings {
    fn sanitize(&mut self, s: &mut Sanitizer) {
        for (field, id, default) in [
            ("vehicle_id", &mut self.vehicle_id, DEFAULT_VEHICLE_ID),
            ("track_id", &mut self.track_id, DEFAULT_TRACK_ID),
        ] {
            let trimmed = id.trim();
            if trimmed != id.as_str() && asset_id_ok(trimmed) {
                *id = trimmed.to_owned();
            }
            if !asset_id_ok(id) {
                s.changed(
                    field,
                    format!("{id:?} is not an asset name; set to the default {default:?}"),
                );
                default.clone_into(id);
            }
        }
        let d = gripline_physics::environment::Environment::default();
        let e = &mut self.environment;
        s.range(
            "environment.ambient_temp_c",
            &mut e.ambient_temp_c,
            -60.0,
            60.0,
            d.ambient_temp_c,
        );
        s.range(
            "environment.track_temp_c",
            &mut e.track_temp_c,
            -60.0,
            90.0,
            d.track_temp_c,
        );
        s.ensure_valid("", self);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid() {
        assert!(SessionSettings::default().check().is_ok());
    }

    #[test]
    fn an_impossible_weather_is_repaired() {
        let mut s = SessionSettings::default();
        s.environment.ambient_temp_c = 400.0;
        s.environment.track_temp_c = f64::NAN;
        let messages = s.sanitize_all();
        assert_eq!(messages.len(), 2, "{messages:?}");
        assert!((s.environment.ambient_temp_c - 60.0).abs() < 1e-12);
        assert!((s.environment.track_temp_c - 25.0).abs() < 1e-12);
    }

    #[test]
    fn bad_ids_take_the_defaults() {
        let mut s = SessionSettings {
            vehicle_id: "../../etc/passwd".into(),
            track_id: "  circuit ".into(),
            ..SessionSettings::default()
        };
        let messages = s.sanitize_all();
        assert_eq!(s.vehicle_id, DEFAULT_VEHICLE_ID);
        assert_eq!(s.track_id, "circuit");
        assert_eq!(messages.len(), 1);
        assert_eq!(messages[0].field, "vehicle_id");
    }
}

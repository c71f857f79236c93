//! [`Settings`]: everything the settings screen edits, as one value.

use gripline_physics::validate::{Validate, Validator};

use crate::audio::AudioSettings;
use crate::graphics::GraphicsSettings;
use crate::message::SettingsMessage;
use crate::sanitize::{Sanitize, Sanitizer};
use crate::session::SessionSettings;
use crate::telemetry::TelemetrySettings;
use gripline_input::settings::bindings::Bindings;
use gripline_input::settings::ffb_settings::FfbSettings;
use gripline_input::settings::input_settings::InputSettings;

/// The schema of the settings files this version writes.
pub const SCHEMA_VERSION: u32 = 2;

/// Every user setting.
///
/// On disk it is split: `settings.ron` holds the schema version, `session`, `graphics`, `audio`, `telemetry`,
/// `ffb` (without its per-device entries) and the device-independent part of `bindings`
/// (`digital`, `device_lost`); each device's bindings, calibration and FFB device settings
/// are in a file of their own (see [`crate::device_file`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Schema the settings follow; always [`SCHEMA_VERSION`] in memory (older files are
    /// migrated when loaded).
    pub schema_version: u32,
    /// Car, track, gearbox mode and aids.
    pub session: SessionSettings,
    /// Window, presentation, field of view, anti-aliasing, camera.
    pub graphics: GraphicsSettings,
    /// Volumes, output device, mute.
    pub audio: AudioSettings,
    /// Telemetry out.
    pub telemetry: TelemetrySettings,
    /// Force feedback, with per-device settings in `ffb.devices`.
    pub ffb: FfbSettings,
    /// Bindings of every device with each axis's calibration.
    pub bindings: Bindings,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            schema_version: SCHEMA_VERSION,
            session: SessionSettings::default(),
            graphics: GraphicsSettings::default(),
            audio: AudioSettings::default(),
            telemetry: TelemetrySettings::default(),
            ffb: FfbSettings::default(),
            bindings: Bindings::default(),
        }
    }
}

impl Settings {
    /// The input layer's part: bindings, calibration and force feedback.
    pub fn input(&self) -> InputSettings {
        InputSettings {
            bindings: self.bindings.clone(),
            ffb: self.ffb.clone(),
        }
    }

    /// Repairs every value in place (see [`crate::sanitize`]) and returns what was changed;
    /// afterwards [`Validate::check`] passes. Call it before saving values typed by the user.
    pub fn sanitize(&mut self) -> Vec<SettingsMessage> {
        self.sanitize_all()
    }
}

impl Validate for Settings {
    fn validate(&self, v: &mut Validator) {
        v.require(
            self.schema_version == SCHEMA_VERSION,
            "schema_version",
            "must be the current schema version",
        );
        v.nested("session", &self.session);
        v.nested("graphics", &self.graphics);
        v.nested("audio", &self.audio);
        v.nested("telemetry", &self.telemetry);
        v.nested("ffb", &self.ffb);
        v.nested("bindings", &self.bindings);
    }
}

impl Sanitize for Settings {
    fn sanitize(&mut self, s: &mut Sanitizer) {
        if self.schema_version != SCHEMA_VERSION {
            s.changed(
                "schema_version",
                format!(
                    "{} is not the current schema; set to {SCHEMA_VERSION}",
                    self.schema_version
                ),
            );
            self.schema_version = SCHEMA_VERSION;
        }
        s.nested("session", &mut self.session);
        s.nested("graphics", &mut self.graphics);
        s.nested("audio", &mut self.audio);
        s.nested("telemetry", &mut self.telemetry);
        s.nested("ffb", &mut self.ffb);
        s.nested("bindings", &mut self.bindings);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_need_no_repair() {
        let mut s = Settings::default();
        assert!(s.check().is_ok());
        assert!(s.sanitize().is_empty());
        assert_eq!(s, Settings::default());
    }

    #[test]
    fn nan_takes_the_default_with_a_message() {
        let mut s = Settings::default();
        s.graphics.fov_deg = f64::NAN;
        s.ffb.gain = 50.0;
        let m = s.sanitize();
        assert_eq!(s.graphics.fov_deg.to_bits(), 60f64.to_bits());
        assert_eq!(s.ffb.gain.to_bits(), 10f64.to_bits());
        let fields: Vec<_> = m.iter().map(|m| m.field.as_str()).collect();
        assert_eq!(fields, ["graphics.fov_deg", "ffb.gain"]);
        assert!(m[1].message.contains("50") && m[1].message.contains("clamped to 10"));
    }
}

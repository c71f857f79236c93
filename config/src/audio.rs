//! Sound: volumes, output device, mute.

use gripline_physics::validate::{Validate, Validator};
use serde::{Deserialize, Serialize};

use crate::sanitize::{Sanitize, Sanitizer};

/// Sound settings. Volumes are linear gains from 0 (silent) to 1 (full).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AudioSettings {
    /// Everything.
    pub master: f64,
    /// Engine and drivetrain.
    pub engine: f64,
    /// Tyres, surfaces and thumps.
    pub tyres: f64,
    /// Wind and impacts.
    pub ambient: f64,
    /// Output device by name; `None`: the system's default.
    pub device: Option<String>,
    /// No sound (the volumes are kept).
    pub muted: bool,
}

impl Default for AudioSettings {
    /// 80 % master, every bus full, the default device, not muted.
    fn default() -> Self {
        Self {
            master: 0.8,
            engine: 1.0,
            tyres: 1.0,
            ambient: 1.0,
            device: None,
            muted: false,
        }
    }
}

impl AudioSettings {
    fn volumes_mut(&mut self) -> [(&'static str, &mut f64, f64); 4] {
        let d = Self::default();
        [
            ("master", &mut self.master, d.master),
            ("engine", &mut self.engine, d.engine),
            ("tyres", &mut self.tyres, d.tyres),
            ("ambient", &mut self.ambient, d.ambient),
        ]
    }
}

impl Validate for AudioSettings {
    fn validate(&self, v: &mut Validator) {
        for (field, value) in [
            ("master", self.master),
            ("engine", self.engine),
            ("tyres", self.tyres),
            ("ambient", self.ambient),
        ] {
            v.in_range(field, value, 0.0, 1.0);
        }
        if let Some(device) = &self.device {
            v.require(!device.trim().is_empty(), "device", "must name a device");
        }
    }
}

impl Sanitize for AudioSettings {
    fn sanitize(&mut self, s: &mut Sanitizer) {
        for (field, value, default) in self.volumes_mut() {
            s.range(field, value, 0.0, 1.0, default);
        }
        if self.device.as_deref().is_some_and(|d| d.trim().is_empty()) {
            s.changed("device", "an empty name; the default device is used");
            self.device = None;
        }
        s.ensure_valid("", self);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_bad_volumes_are_repaired() {
        assert!(AudioSettings::default().check().is_ok());
        let mut a = AudioSettings {
            master: f64::NAN,
            engine: 3.0,
            tyres: -1.0,
            device: Some("  ".to_owned()),
            ..AudioSettings::default()
        };
        let messages = a.sanitize_all();
        assert_eq!(messages.len(), 4, "{messages:?}");
        assert!((a.master - 0.8).abs() < 1e-12);
        assert!((a.engine - 1.0).abs() < 1e-12 && a.tyres == 0.0);
        assert_eq!(a.device, None);
        assert!(a.check().is_ok());
    }
}

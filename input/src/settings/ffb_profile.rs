//! Force-feedback device profiles for offline runs (`gripline headless --ffb-profile FILE`):
//! the user's force-feedback settings and the device facts (peak torque, direction,
//! rotation) of a wheel, so that a recorded run's force feedback can be examined for a given
//! wheel without the wheel.
//!
//! ```ron
//! (
//!     peak_torque_nm: 8.0,     // the wheel's peak (N·m): the torque of level 1
//!     invert: false,
//!     rotation_deg: 900.0,     // lock to lock
//!     ffb: (max_torque_nm: 6.0, gain: 1.0, damping_nm_s_per_rad: 0.1),
//! )
//! ```
//!
//! Every field has a default (an 8 N·m, 900° wheel and the default settings). Unknown fields
//! are errors, with their line and column; values are validated like the settings file's.

use std::path::Path;

use gripline_physics::validate::{Validate, Validator};
use serde::{Deserialize, Serialize};

use crate::settings::ffb_settings::FfbSettings;
use gripline_formats::error::ConfigError;
use gripline_formats::ron_text;

/// A device profile (see the module docs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FfbProfile {
    /// The wheel's peak torque (N·m).
    pub peak_torque_nm: f64,
    /// Reverse the wheel's direction.
    pub invert: bool,
    /// The wheel's rotation, lock to lock (degrees).
    pub rotation_deg: f64,
    /// The user's force-feedback settings.
    pub ffb: FfbSettings,
}

impl Default for FfbProfile {
    /// An 8 N·m direct-drive-class wheel of 900° with the default settings.
    fn default() -> Self {
        Self {
            peak_torque_nm: 8.0,
            invert: false,
            rotation_deg: 900.0,
            ffb: FfbSettings::default(),
        }
    }
}

impl Validate for FfbProfile {
    fn validate(&self, v: &mut Validator) {
        v.in_range("peak_torque_nm", self.peak_torque_nm, 0.1, 100.0);
        v.in_range("rotation_deg", self.rotation_deg, 40.0, 3600.0);
        v.nested("ffb", &self.ffb);
    }
}

/// Parses and validates a profile.
///
/// # Errors
/// A syntax error with its line and column, or every invalid value with its field path.
pub fn parse_ffb_profile(text: &str, path: &Path) -> Result<FfbProfile, ConfigError> {
    let profile: FfbProfile = ron_text::parse(text, path)?;
    let mut v = Validator::with_root("");
    profile.validate(&mut v);
    v.finish().map_err(|violations| ConfigError::Invalid {
        path: path.to_owned(),
        violations,
    })?;
    Ok(profile)
}

/// Reads, parses and validates a profile file.
///
/// # Errors
/// Any [`ConfigError`], naming the file.
pub fn load_ffb_profile(path: &Path) -> Result<FfbProfile, ConfigError> {
    parse_ffb_profile(&ron_text::read(path)?, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_fill_missing_fields_and_errors_are_located() {
        let p =
            parse_ffb_profile("(peak_torque_nm: 20.0, invert: true)", Path::new("p.ron")).unwrap();
        assert!((p.peak_torque_nm - 20.0).abs() < 1e-12 && p.invert);
        assert_eq!(p.ffb, FfbSettings::default());
        let err = parse_ffb_profile("(peak_torque_nm: 20.0,\n wheel: 3)", Path::new("p.ron"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("p.ron:2"), "{err}");
        let err = parse_ffb_profile("(peak_torque_nm: -1.0)", Path::new("p.ron"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("peak_torque_nm"), "{err}");
        let err = parse_ffb_profile("(ffb: (gain: -2.0))", Path::new("p.ron"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("ffb.gain"), "{err}");
    }
}

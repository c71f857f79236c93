//! The input settings file: bindings, calibration (inside the axis bindings) and force
//! feedback, in RON.
//!
//! ```ron
//! (
//!     bindings: (
//!         axes: [
//!             (
//!                 control: Steering,
//!                 device: Device((vendor_id: 0x046d, product_id: 0xc24f, name: "G29")),
//!                 axis: 0,
//!                 rotation_deg: 900.0,
//!             ),
//!         ],
//!     ),
//!     ffb: (max_torque_nm: 2.2),
//! )
//! ```
//!
//! Every field has a default, so a partial file is fine: a missing field takes its default
//! (a file without `buttons` keeps the keyboard and gamepad buttons; `buttons: []` has none). Errors carry the line and column
//! (syntax) or the field path (`bindings.axes[0].calibration.dead_zone must be between 0 and
//! 0.5 (is 2)`).

use std::path::Path;

use gripline_physics::validate::{Validate, Validator};
use serde::{Deserialize, Serialize};

use crate::settings::bindings::Bindings;
use crate::settings::ffb_settings::FfbSettings;
use gripline_formats::error::ConfigError;
use gripline_formats::ron_text;

/// Everything the input layer is configured with.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct InputSettings {
    /// Bindings and calibration.
    pub bindings: Bindings,
    /// Force feedback.
    pub ffb: FfbSettings,
}

impl Validate for InputSettings {
    fn validate(&self, v: &mut Validator) {
        v.nested("bindings", &self.bindings);
        v.nested("ffb", &self.ffb);
    }
}

/// Parses and validates the text of an input settings file.
///
/// # Errors
/// [`ConfigError::Syntax`] with line and column, or [`ConfigError::Invalid`] with field paths.
pub fn parse_input_settings(text: &str, path: &Path) -> Result<InputSettings, ConfigError> {
    let settings: InputSettings = ron_text::parse_strict(text, path)?;
    settings
        .check()
        .map_err(|violations| ConfigError::Invalid {
            path: path.to_owned(),
            violations,
        })?;
    Ok(settings)
}

/// Writes `settings` as pretty RON.
///
/// # Errors
/// The serialiser's message (not expected for these types).
pub fn input_settings_to_ron(settings: &InputSettings) -> Result<String, ron::Error> {
    ron_text::to_pretty(settings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::axis_calibration::{AxisCalibration, CurvePoint, RawRange, ResponseCurve};
    use crate::settings::bindings::{AxisBinding, AxisControl, ButtonAction, ButtonBinding};
    use crate::settings::device_identity::{DeviceIdentity, DeviceMatch};
    use crate::settings::ffb_settings::FfbDeviceSettings;

    fn sample() -> InputSettings {
        let g29 = DeviceIdentity::new(0x046d, 0xc24f, "G29 Driving Force Racing Wheel", "");
        let mut s = InputSettings::default();
        s.bindings.axes.push(AxisBinding {
            control: AxisControl::Steering,
            device: DeviceMatch::Device(g29.clone()),
            axis: 0,
            calibration: AxisCalibration {
                raw_range: Some(RawRange { min: 0, max: 65535 }),
                centre: Some(32767),
                ..AxisCalibration::default()
            },
            rotation_deg: 900.0,
        });
        s.bindings.axes.push(AxisBinding {
            control: AxisControl::Brake,
            device: DeviceMatch::Device(g29.clone()),
            axis: 5,
            calibration: AxisCalibration {
                raw_range: Some(RawRange { min: 0, max: 255 }),
                invert: true,
                dead_zone: 0.03,
                saturation: 0.03,
                curve: ResponseCurve::Points(vec![
                    CurvePoint { x: 0.0, y: 0.0 },
                    CurvePoint { x: 0.5, y: 0.3 },
                    CurvePoint { x: 1.0, y: 1.0 },
                ]),
                rest_raw: Some(255),
                ..AxisCalibration::default()
            },
            rotation_deg: 900.0,
        });
        s.bindings.buttons.push(ButtonBinding {
            action: ButtonAction::Gear(-1),
            device: DeviceMatch::Device(g29.clone()),
            button: 0x12c,
        });
        s.ffb.devices.push(FfbDeviceSettings {
            device: g29,
            invert: true,
            peak_torque_nm: Some(2.2),
            max_rate_hz: Some(500.0),
            backend: crate::settings::ffb_settings::FfbBackendChoice::Auto,
            peak_confirmed_nm: None,
        });
        s
    }

    #[test]
    fn ron_round_trip() {
        let s = sample();
        let text = input_settings_to_ron(&s).unwrap();
        let back = parse_input_settings(&text, Path::new("input.ron")).unwrap();
        assert_eq!(back, s);
    }

    #[test]
    fn partial_file_with_hex_ids_uses_defaults() {
        let text = r#"(
            bindings: (
                axes: [(control: Steering,
                        device: Device((vendor_id: 0x046d, product_id: 0xc24f, name: "G29")),
                        axis: 0)],
            ),
            ffb: (max_torque_nm: 2.2),
        )"#;
        let s = parse_input_settings(text, Path::new("input.ron")).unwrap();
        assert_eq!(s.bindings.axes.len(), 1);
        assert_eq!(s.bindings.axes[0].rotation_deg.to_bits(), 900f64.to_bits());
        let DeviceMatch::Device(id) = &s.bindings.axes[0].device else {
            panic!("expected a device")
        };
        assert_eq!(id.to_string(), "046d:c24f \"G29\"");
        assert_eq!(
            s.bindings.buttons,
            Bindings::default().buttons,
            "a missing list keeps the default keyboard and gamepad buttons"
        );
        assert_eq!(s.ffb.max_torque_nm.to_bits(), 2.2f64.to_bits());
        assert_eq!(s.ffb.watchdog_ms.to_bits(), 50f64.to_bits());
    }

    #[test]
    fn errors_carry_paths_and_positions() {
        let text = "(ffb: (gain: -1.0), bindings: (axes: [(control: Throttle, device: Keyboard, axis: 1, calibration: (dead_zone: 0.7))]))";
        let err = parse_input_settings(text, Path::new("input.ron")).unwrap_err();
        let ConfigError::Invalid { violations, .. } = &err else {
            panic!("expected invalid values, got {err}");
        };
        let paths: Vec<_> = violations.0.iter().map(|v| v.path.as_str()).collect();
        assert_eq!(
            paths,
            ["bindings.axes[0].calibration.dead_zone", "ffb.gain"],
            "{err}"
        );
        let err =
            parse_input_settings("(\n ffb: (gian: 1.0),\n)", Path::new("input.ron")).unwrap_err();
        let ConfigError::Syntax { line, .. } = err else {
            panic!("expected a syntax error, got {err}");
        };
        assert_eq!(line, 2);
    }
}

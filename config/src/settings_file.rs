//! The text of `settings.ron` and of the device files: reading any schema with every
//! problem turned into a [`SettingsMessage`], and writing the current one.
//!
//! `settings.ron` (schema 2):
//!
//! ```ron
//! (
//!     schema_version: 2,
//!     session: (vehicle_id: "corvette-c5", track_id: "circuit", gearbox_mode: Automatic,
//!               aids: (abs: true, traction_control: true, auto_clutch: true)),
//!     graphics: (width: 1280, height: 720, fullscreen: Windowed, present_mode: Vsync,
//!                frame_latency: 2, fov_deg: 60.0, msaa_samples: 4, camera: Chase),
//!     ffb: (enabled: true, gain: 1.0, max_torque_nm: 4.0, ..., backend: Automatic, device: None),
//!     input: (digital: (...), device_lost: (...)),
//! )
//! ```
//!
//! Every field has a default, so a partial file works. A file without a schema version is
//! read as the current schema. Unknown fields are ignored with a warning that gives the
//! field's path and position: a file written by a newer version still loads (its new
//! settings are lost on the next save, which the warning says).

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::audio::AudioSettings;
use crate::device_file::{DeviceFile, DeviceGroup};
use crate::graphics::GraphicsSettings;
use crate::message::{SettingsMessage, Severity};
use crate::migrate::{SettingsFileV1, migrate_v1};
use crate::model::SCHEMA_VERSION;
use crate::model::Settings;
use crate::session::SessionSettings;
use crate::telemetry::TelemetrySettings;
use gripline_formats::error::ConfigError;
use gripline_formats::ron_text::{self, UnknownField, line_column};
use gripline_input::settings::bindings::{Bindings, DeviceLostPolicy, DigitalResponse};
use gripline_input::settings::ffb_settings::FfbSettings;

/// The device-independent input settings kept in `settings.ron`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GlobalInput {
    /// Rates of button-driven steering and pedals.
    pub digital: DigitalResponse,
    /// Readings of controls whose device is unplugged.
    pub device_lost: DeviceLostPolicy,
}

/// The content of `settings.ron` in the current schema.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SettingsFile {
    /// Schema the file follows.
    pub schema_version: u32,
    /// Car, track, gearbox, aids.
    pub session: SessionSettings,
    /// Graphics.
    pub graphics: GraphicsSettings,
    /// Sound.
    pub audio: AudioSettings,
    /// Telemetry out.
    pub telemetry: TelemetrySettings,
    /// Force feedback; per-device entries live in the device files (entries found here are
    /// still read).
    pub ffb: FfbSettings,
    /// Device-independent input settings.
    pub input: GlobalInput,
}

impl Default for SettingsFile {
    fn default() -> Self {
        Self::from_settings(&Settings::default())
    }
}

impl SettingsFile {
    /// The `settings.ron` part of `settings`.
    pub fn from_settings(settings: &Settings) -> Self {
        let mut ffb = settings.ffb.clone();
        ffb.devices.clear();
        Self {
            schema_version: SCHEMA_VERSION,
            session: settings.session.clone(),
            graphics: settings.graphics.clone(),
            audio: settings.audio.clone(),
            telemetry: settings.telemetry.clone(),
            ffb,
            input: GlobalInput {
                digital: settings.bindings.digital,
                device_lost: settings.bindings.device_lost,
            },
        }
    }

    /// Settings with this file's values and no bindings (the device files add them); FFB
    /// device entries written in this file are kept.
    pub fn into_settings(self) -> Settings {
        Settings {
            schema_version: SCHEMA_VERSION,
            session: self.session,
            graphics: self.graphics,
            audio: self.audio,
            telemetry: self.telemetry,
            ffb: self.ffb,
            bindings: Bindings {
                axes: Vec::new(),
                buttons: Vec::new(),
                digital: self.input.digital,
                device_lost: self.input.device_lost,
            },
        }
    }
}

/// A `settings.ron` read successfully.
#[derive(Clone, Debug, PartialEq)]
pub struct DecodedSettings {
    /// Its settings, not yet sanitised; bindings are empty for the current schema (they are
    /// in the device files) and inline for schema 1.
    pub settings: Settings,
    /// Whether the bindings in `settings` came from the file itself (schema 1), rather than
    /// being left for the device files.
    pub inline_bindings: bool,
    /// The schema the file was written in.
    pub schema: u32,
    /// Warnings (unknown fields, newer schema) and the migration note.
    pub messages: Vec<SettingsMessage>,
}

/// Writes `settings`' `settings.ron` part as text.
///
/// # Errors
/// The serialiser's message (not expected for these types).
pub fn encode_settings(settings: &Settings) -> Result<String, ron::Error> {
    ron_text::to_pretty(&SettingsFile::from_settings(settings)).map(|t| t + "\n")
}

/// Writes a device file as text.
///
/// # Errors
/// The serialiser's message (not expected for these types).
pub fn encode_device(group: &DeviceGroup) -> Result<String, ron::Error> {
    ron_text::to_pretty(&group.to_file()).map(|t| t + "\n")
}

/// The error message for a file that cannot be used.
fn unusable(path: &Path, position: Option<(usize, usize)>, message: String) -> SettingsMessage {
    SettingsMessage {
        severity: Severity::Error,
        file: Some(path.to_owned()),
        position,
        field: String::new(),
        message,
    }
}

fn from_config_error(path: &Path, e: ConfigError) -> SettingsMessage {
    match e {
        ConfigError::Syntax {
            line,
            column,
            message,
            ..
        } => unusable(path, Some((line, column)), message),
        other => unusable(path, None, other.to_string()),
    }
}

/// The text of a file's bytes: UTF-8, not empty.
///
/// # Errors
/// An error message with the position of the first byte that is not UTF-8, or saying the
/// file is empty.
pub fn text_of<'a>(bytes: &'a [u8], path: &Path) -> Result<&'a str, SettingsMessage> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let valid = std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default();
        unusable(
            path,
            Some(line_column(valid, valid.len())),
            format!(
                "not a text file (byte {} is not UTF-8)",
                e.valid_up_to() + 1
            ),
        )
    })?;
    if text.trim().is_empty() {
        return Err(unusable(path, None, "the file is empty".to_owned()));
    }
    Ok(text)
}

fn unknown_warnings(path: &Path, unknown: Vec<UnknownField>) -> Vec<SettingsMessage> {
    unknown
        .into_iter()
        .map(|u| SettingsMessage {
            severity: Severity::Warning,
            file: Some(path.to_owned()),
            position: u.position,
            field: u.path,
            message: "unknown setting, ignored (written by another version?); it is not kept \
                      on the next save"
                .to_owned(),
        })
        .collect()
}

/// Just the schema version, whatever else the file holds.
#[derive(Deserialize)]
struct Probe {
    #[serde(default)]
    schema_version: Option<u32>,
    #[serde(default)]
    version: Option<u32>,
}

/// Reads the bytes of `settings.ron` (any schema) at `path`.
///
/// # Errors
/// An [`Severity::Error`] message, with line and column where there is one, when the file
/// cannot be used at all: not UTF-8, empty, not RON, wrong types, an unknown schema.
pub fn decode_settings(bytes: &[u8], path: &Path) -> Result<DecodedSettings, SettingsMessage> {
    let text = text_of(bytes, path)?;
    let (probe, _) =
        ron_text::parse_lenient::<Probe>(text, path).map_err(|e| from_config_error(path, e))?;
    let schema = probe
        .schema_version
        .or(probe.version)
        .unwrap_or(SCHEMA_VERSION);
    let mut messages = Vec::new();
    let (settings, inline_bindings) = match schema {
        1 => {
            let (v1, unknown) = ron_text::parse_lenient::<SettingsFileV1>(text, path)
                .map_err(|e| from_config_error(path, e))?;
            messages.extend(unknown_warnings(path, unknown));
            messages.push(
                SettingsMessage::new(
                    Severity::Info,
                    "",
                    format!(
                        "migrated from schema 1 to {SCHEMA_VERSION}; the next save writes \
                         the new format"
                    ),
                )
                .in_file(path),
            );
            (migrate_v1(v1), true)
        }
        s if s >= 2 => {
            let (file, unknown) = ron_text::parse_lenient::<SettingsFile>(text, path)
                .map_err(|e| from_config_error(path, e))?;
            if s > SCHEMA_VERSION {
                messages.push(
                    SettingsMessage::new(
                        Severity::Warning,
                        "schema_version",
                        format!(
                            "written by a newer Gripline (schema {s}, this one reads up to \
                             {SCHEMA_VERSION}); settings it does not know are ignored"
                        ),
                    )
                    .in_file(path),
                );
            }
            messages.extend(unknown_warnings(path, unknown));
            (file.into_settings(), false)
        }
        s => {
            return Err(unusable(
                path,
                None,
                format!("schema version {s} does not exist (expected 1 to {SCHEMA_VERSION})"),
            ));
        }
    };
    Ok(DecodedSettings {
        settings,
        inline_bindings,
        schema,
        messages,
    })
}

/// Reads the bytes of a device file at `path`.
///
/// # Errors
/// An [`Severity::Error`] message, with line and column where there is one, when the file
/// cannot be used.
pub fn decode_device(
    bytes: &[u8],
    path: &Path,
) -> Result<(DeviceGroup, Vec<SettingsMessage>), SettingsMessage> {
    let text = text_of(bytes, path)?;
    let (file, unknown) = ron_text::parse_lenient::<DeviceFile>(text, path)
        .map_err(|e| from_config_error(path, e))?;
    let mut messages = unknown_warnings(path, unknown);
    if file.schema_version > SCHEMA_VERSION {
        messages.push(
            SettingsMessage::new(
                Severity::Warning,
                "schema_version",
                format!(
                    "written by a newer Gripline (schema {}); settings it does not know are \
                     ignored",
                    file.schema_version
                ),
            )
            .in_file(path),
        );
    }
    Ok((DeviceGroup::from_file(file), messages))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_garbage_reports_the_byte_position() {
        let e = decode_settings(b"(\n  ses\xffsion: ()", Path::new("s.ron")).unwrap_err();
        assert_eq!(e.position, Some((2, 6)));
        assert!(e.message.contains("byte 8"), "{e}");
        assert_eq!(e.severity, Severity::Error);
    }

    #[test]
    fn partial_file_keeps_the_other_defaults() {
        let d = decode_settings(b"(graphics: (fov_deg: 70.0))", Path::new("s.ron")).unwrap();
        assert!(d.messages.is_empty());
        assert_eq!(d.schema, SCHEMA_VERSION);
        assert_eq!(d.settings.graphics.fov_deg.to_bits(), 70f64.to_bits());
        assert_eq!(d.settings.session, SessionSettings::default());
    }

    #[test]
    fn wrong_types_give_line_and_column() {
        let e = decode_settings(
            b"(\n  graphics: (\n    width: \"wide\",\n  ),\n)",
            Path::new("s.ron"),
        )
        .unwrap_err();
        assert_eq!(e.position.map(|p| p.0), Some(3), "{e}");
    }
}

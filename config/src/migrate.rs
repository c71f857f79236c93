//! Older settings files and their migration to the current schema.
//!
//! Schema 1 (the first settings file) kept everything in `settings.ron`, with a flatter
//! session part, the field of view in radians, `vsync` and `fullscreen` as booleans, MSAA
//! under `msaa`, and all bindings inline:
//!
//! ```ron
//! (
//!     version: 1,
//!     car: "corvette-c5",
//!     track: "circuit",
//!     gearbox: HPattern,
//!     abs: true,
//!     traction_control: false,
//!     graphics: (resolution: (1920, 1080), fullscreen: true, vsync: false, fov: 1.2217, msaa: 8),
//!     ffb: (gain: 0.8, max_torque_nm: 6.0),
//!     bindings: (axes: [...], buttons: [...]),
//! )
//! ```
//!
//! Schema 2 (current) names fields with their units (`fov_deg`), has a present mode and a
//! full-screen mode, adds the automatic clutch aid and the camera, and keeps each device's
//! bindings in a file of its own. [`migrate_v1`] maps every schema-1 field; the bindings are
//! written to device files on the next save. Loading a schema-1 file copies it once to
//! `settings.ron.schema1.bak` first, so going back to the old version stays possible.

use gripline_physics::powertrain::gearbox::GearboxMode;
use serde::Deserialize;

use crate::graphics::{Fullscreen, GraphicsSettings, PresentMode};
use crate::model::Settings;
use crate::session::{Aids, DEFAULT_TRACK_ID, DEFAULT_VEHICLE_ID, SessionSettings};
use gripline_input::settings::bindings::Bindings;
use gripline_input::settings::ffb_settings::FfbSettings;

/// Graphics of schema 1.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(default)]
pub struct GraphicsV1 {
    /// Width and height (pixels).
    pub resolution: (u32, u32),
    /// Borderless full screen.
    pub fullscreen: bool,
    /// Wait for vertical blank.
    pub vsync: bool,
    /// Vertical field of view (rad).
    pub fov: f64,
    /// MSAA samples.
    pub msaa: u32,
}

impl Default for GraphicsV1 {
    fn default() -> Self {
        Self {
            resolution: (1280, 720),
            fullscreen: false,
            vsync: true,
            fov: 60f64.to_radians(),
            msaa: 4,
        }
    }
}

/// A schema-1 `settings.ron`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(default)]
pub struct SettingsFileV1 {
    /// Always 1.
    pub version: u32,
    /// Vehicle asset name.
    pub car: String,
    /// Track asset name.
    pub track: String,
    /// Gearbox mode.
    pub gearbox: GearboxMode,
    /// Anti-lock brakes.
    pub abs: bool,
    /// Traction control.
    pub traction_control: bool,
    /// Graphics.
    pub graphics: GraphicsV1,
    /// Force feedback (the same fields as today).
    pub ffb: FfbSettings,
    /// Every binding, inline.
    pub bindings: Bindings,
}

impl Default for SettingsFileV1 {
    fn default() -> Self {
        Self {
            version: 1,
            car: DEFAULT_VEHICLE_ID.to_owned(),
            track: DEFAULT_TRACK_ID.to_owned(),
            gearbox: GearboxMode::Automatic,
            abs: true,
            traction_control: true,
            graphics: GraphicsV1::default(),
            ffb: FfbSettings::default(),
            bindings: Bindings::default(),
        }
    }
}

/// The current settings equivalent to a schema-1 file (not yet sanitised; bindings and FFB
/// device settings inline, as in memory).
pub fn migrate_v1(v1: SettingsFileV1) -> Settings {
    let (width, height) = v1.graphics.resolution;
    Settings {
        session: SessionSettings {
            vehicle_id: v1.car,
            track_id: v1.track,
            gearbox_mode: v1.gearbox,
            aids: Aids {
                abs: v1.abs,
                traction_control: v1.traction_control,
                // Schema 1 always worked the clutch in the sequential mode.
                auto_clutch: true,
            },
            setups: std::collections::BTreeMap::new(),
            environment: gripline_physics::environment::Environment::default(),
        },
        graphics: GraphicsSettings {
            width,
            height,
            fullscreen: if v1.graphics.fullscreen {
                Fullscreen::Borderless
            } else {
                Fullscreen::Windowed
            },
            present_mode: if v1.graphics.vsync {
                PresentMode::Vsync
            } else {
                PresentMode::NoVsync
            },
            fov_deg: v1.graphics.fov.to_degrees(),
            msaa_samples: v1.graphics.msaa,
            ..GraphicsSettings::default()
        },
        ffb: v1.ffb,
        bindings: v1.bindings,
        ..Settings::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn v1_defaults_migrate_to_valid_settings() {
        let mut s = migrate_v1(SettingsFileV1::default());
        assert!(s.sanitize().is_empty(), "{:?}", s.sanitize());
        assert!((s.graphics.fov_deg - 60.0).abs() < 1e-9);
        assert_eq!(s.session.gearbox_mode, GearboxMode::Automatic);
    }
}

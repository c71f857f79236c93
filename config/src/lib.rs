//! # gripline-config
//!
//! User settings: the data the settings screen edits, and the store that keeps it on disk
//! (the asset files are `gripline-formats`'; the input layer's settings, which are kept here
//! with every other setting, are `gripline_input::settings`).
//!
//! - [`model`]: [`Settings`], everything in one value: [`session`] (car, track, gearbox
//!   mode, aids), [`graphics`] (resolution, full screen, present mode, frame latency, field
//!   of view, MSAA, camera), [`audio`] (volumes, output device, mute), [`telemetry`] (OutGauge/OutSim
//!   destinations), force feedback ([`gripline_input::settings::ffb_settings`]) and bindings
//!   with calibration ([`gripline_input::settings::bindings`]).
//! - [`sanitize`] and [`sanitize_input`]: out-of-range values clamped, NaN replaced by the
//!   default, each change reported as a [`SettingsMessage`] ([`message`]).
//! - [`store`]: [`SettingsStore`], loading that never fails and atomic saving
//!   ([`gripline_formats::atomic_file`]) in the platform folder ([`platform_dir`]).
//! - [`settings_file`] and [`device_file`]: the text of `settings.ron` and of the
//!   per-device files; [`migrate`]: older schemas.
//!
//! Decisions:
//! - **Unknown fields are warnings, not errors** (forward compatibility): a file written by
//!   a newer version loads, with a warning per unknown field (path, line and column); the
//!   field is dropped on the next save.
//! - **Out-of-range values are clamped**, not rejected: the rest of the file is kept.
//! - **A file that cannot be used is never overwritten**: it is renamed beside itself
//!   (`settings.ron.broken-<unix time>`) and the defaults are used.
//! - **Bindings live per device** (`devices/<device>.ron`), so a broken file loses only one
//!   device's bindings.

pub mod audio;
pub mod device_file;
pub mod graphics;
pub mod message;
pub mod migrate;
pub mod model;
pub mod platform_dir;
pub mod sanitize;
pub mod sanitize_input;
pub mod session;
pub mod settings_file;
pub mod store;
pub mod telemetry;

pub use audio::AudioSettings;
pub use graphics::{CameraView, Fullscreen, GraphicsSettings, PresentMode, QualityChoice};
pub use message::{SettingsMessage, Severity};
pub use model::{SCHEMA_VERSION, Settings};
pub use sanitize::{Sanitize, Sanitizer};
pub use session::{Aids, SessionSettings};
pub use store::{LoadOutcome, SettingsError, SettingsStore};
pub use telemetry::TelemetrySettings;

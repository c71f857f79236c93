//! # gripline-config
//!
//! Gripline's user settings and where they live (the asset files are `gripline-formats`').
//!
//! - [`settings`]: all user settings ([`settings::Settings`]: session, graphics, force
//!   feedback, bindings) and [`settings::SettingsStore`], which loads them without ever
//!   failing and saves them atomically in the platform's configuration folder. The input
//!   layer's settings it keeps (bindings, calibration, force feedback) are
//!   `gripline_input::settings`.

pub mod settings;

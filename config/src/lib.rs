//! # gripline-config
//!
//! Gripline's user settings and where they live (the asset files are `gripline-formats`').
//!
//! - [`input_settings`]: the input settings file: [`bindings`] (with each axis's
//!   [`axis_calibration`]) and [`ffb_settings`]; devices named by [`device_identity`];
//!   keyboard and gamepad codes in [`input_codes`].
//! - [`settings`]: all user settings ([`settings::Settings`]: session, graphics, force
//!   feedback, bindings) and [`settings::SettingsStore`], which loads them without ever
//!   failing and saves them atomically in the platform's configuration folder.
//! - [`ffb_effects`]: force-feedback effects (road, kerbs, scrub, lock-up, ABS, lateral g).
//! - [`ffb_profile`]: force-feedback device profiles for offline runs (`--ffb-profile`).
//! - [`soft_lock`]: how the wheel's rotation meets the car's steering lock, and the soft lock.

pub mod axis_calibration;
pub mod bindings;
pub mod device_identity;
pub mod ffb_effects;
pub mod ffb_profile;
pub mod ffb_settings;
pub mod input_codes;
pub mod input_settings;
pub mod settings;
pub mod soft_lock;

pub use input_settings::{InputSettings, input_settings_to_ron, parse_input_settings};

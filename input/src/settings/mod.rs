//! The input layer's settings: what the user configures, as plain data that loads and
//! validates (field paths in every message) and that the settings store (`gripline-config`)
//! keeps on disk.
//!
//! - [`input_settings`]: the input settings file: [`bindings`] (with each axis's
//!   [`axis_calibration`]) and [`ffb_settings`]; devices named by [`device_identity`];
//!   keyboard and gamepad codes in [`input_codes`].
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
pub mod soft_lock;

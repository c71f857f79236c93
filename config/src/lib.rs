//! # gripline-config
//!
//! Gripline's file formats and where files live. This crate turns text into validated
//! physics parameters and reports every problem with the file, the line and column, and the
//! field path (`model.lateral.b must be finite and positive`), so a user can fix a file
//! without reading code.
//!
//! - [`tyre_file`]: tyre files of every family: `.tir` (Magic Formula) and `.ron` (the others).
//! - [`track_file`]: track files (RON): a layout, validated and built into the ground mesh.
//! - [`scenario_file`]: scenario files (RON) of the headless runner.
//! - [`vehicle_file`]: vehicle files (RON): every parameter of a car, and its tyres.
//! - [`tir`]: the Magic Formula property-file parser.
//! - [`torcs`]: TORCS and Speed Dreams tracks (their XML), imported as track layouts.
//! - [`ron_text`]: RON parsing shared by every RON format, with positions in errors.
//! - [`assets`]: finding the shipped `assets/` folder and resolving asset names.
//! - [`input_settings`]: the input settings file: [`bindings`] (with each axis's
//!   [`axis_calibration`]) and [`ffb_settings`]; devices named by [`device_identity`];
//!   keyboard and gamepad codes in [`input_codes`].
//! - [`settings`]: all user settings ([`settings::Settings`]: session, graphics, force
//!   feedback, bindings) and [`settings::SettingsStore`], which loads them without ever
//!   failing and saves them atomically in the platform's configuration folder.
//! - [`ffb_effects`]: force-feedback effects (road, kerbs, scrub, lock-up, ABS, lateral g).
//! - [`ffb_profile`]: force-feedback device profiles for offline runs (`--ffb-profile`).
//! - [`soft_lock`]: how the wheel's rotation meets the car's steering lock, and the soft lock.
//! - [`error`]: the error type.

pub mod assets;
pub mod axis_calibration;
pub mod bindings;
pub mod device_identity;
pub mod error;
pub mod ffb_effects;
pub mod ffb_profile;
pub mod ffb_settings;
pub mod input_codes;
pub mod input_settings;
pub mod ron_text;
pub mod scenario_file;
pub mod settings;
pub mod setup_file;
pub mod soft_lock;
pub mod tir;
pub mod torcs;
pub mod track_file;
pub mod tyre_catalog;
pub mod tyre_file;
pub mod vehicle_file;

pub use error::ConfigError;
pub use input_settings::{InputSettings, input_settings_to_ron, parse_input_settings};
pub use track_file::{LoadedTrack, TrackFile, load_track, parse_track_ron};
pub use tyre_file::{LoadedTyre, TyreFile, TyreModelSpec, load_tyre, parse_tyre_ron};

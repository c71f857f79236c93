//! # gripline-formats
//!
//! Gripline's asset file formats. This crate turns text into validated physics parameters
//! and reports every problem with the file, the line and column, and the field path
//! (`model.lateral.b must be finite and positive`), so a user can fix a file without reading
//! code.
//!
//! - [`tyre_file`]: tyre files of every family: `.tir` (Magic Formula) and `.ron` (the others).
//! - [`tir`]: the Magic Formula property-file parser.
//! - [`tyre_catalog`]: the tyres a car may choose from (its own and the shipped ones).
//! - [`vehicle_file`]: vehicle files (RON): every parameter of a car, and its tyres.
//! - [`vehicle_sound`]: a vehicle file's `sound` section: what the car sounds like.
//! - [`track_file`]: Gripline's own track files (RON): a layout, validated and built into the
//!   ground mesh (TORCS and Speed Dreams tracks are imported by `gripline-torcs`).
//! - [`scenario_file`]: scenario files (RON) of the headless runner.
//! - [`setup_file`]: a car's named set-ups (RON), clamped into the car's ranges.
//! - [`ron_text`]: RON parsing shared by every RON format, with positions in errors.
//! - [`atomic_file`]: writing a file so that a crash never loses it, and keeping broken
//!   files aside (set-ups here, the settings store in `gripline-config`).
//! - [`assets`]: finding the shipped `assets/` folder and resolving asset names.
//! - [`error`]: the error type, [`error::ConfigError`].

pub mod assets;
pub mod atomic_file;
pub mod error;
pub mod ron_text;
pub mod scenario_file;
pub mod setup_file;
pub mod tir;
pub mod track_file;
pub mod tyre_catalog;
pub mod tyre_file;
pub mod vehicle_file;
pub mod vehicle_sound;

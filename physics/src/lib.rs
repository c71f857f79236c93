//! # gripline-physics
//!
//! The vehicle model of Gripline. This crate is pure: it performs no IO, spawns no threads,
//! reads no clock and touches no GPU, so that every result is reproducible bit for bit from
//! its inputs (`docs/architecture.md`, "Determinism").
//!
//! Units are SI throughout (m, kg, s, N, N·m, rad, rad/s, Pa). Parameter structs derive
//! `serde` so that `gripline-formats` can load them from files; each one validates itself
//! through [`validate::Validator`], which reports every problem with a field path.
//!
//! Modules:
//! - [`tire`]: the tyre library, one interface ([`tire::TireModel`]) over six model families.
//! - [`controls`]: what the driver does in one tick.
//! - [`driver`]: the driver model (path following, speed planning) for headless runs.
//! - [`ground`]: what the wheels stand on, and the surfaces; the triangle-mesh ground.
//! - [`environment`]: air and track temperatures.
//! - [`track`]: track layouts and what they build: ground mesh, centre line, objects, references.
//! - [`powertrain`]: engine, clutch, gearbox, differentials and wheel spin.
//! - [`vehicle`]: the vehicle model: chassis, suspension, wheels, steering, brakes, aero, and
//!   [`vehicle::Vehicle::step`].
//! - [`validate`]: parameter validation with field paths.

pub mod controls;
pub mod driver;
pub mod environment;
pub mod ground;
pub mod powertrain;
pub mod tire;
pub mod track;
pub mod validate;
pub mod vehicle;

/// The physics rate of the real-time simulator (Hz): one step per millisecond
/// (`docs/architecture.md`, "The sim thread"). Headless runs may choose another rate for
/// convergence studies.
pub const STEP_RATE_HZ: f64 = 1000.0;

/// The physics step at [`STEP_RATE_HZ`] (s). The one owner of the step size: the sim thread,
/// the headless procedures and the renderer's interpolation read it from here.
pub const STEP_S: f64 = 1.0 / STEP_RATE_HZ;

//! `gripline_app`: the parts of the `gripline` binary that tests use too. The simulation
//! runtime itself (session, real-time core, headless procedures) is `gripline-sim`.
//!
//! - [`ffb_connector`]: keeps the force-feedback wheel linked (reopens after an unplug or a
//!   settings change, with backoff);
//! - [`sound`]: the sound wired to the sim thread, the output device and `headless --audio`;
//! - [`telemetry`]: the telemetry-out settings resolved into the sender's targets;
//! - [`wheel_setup`]: real wheels at window start-up: the force-feedback device and backend,
//!   and the evdev input for devices gilrs cannot see.

pub mod ffb_connector;
pub mod sound;
pub mod telemetry;
pub mod wheel_setup;

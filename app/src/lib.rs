//! `gripline_app`: the parts of the `gripline` binary that tests and benchmarks use too.
//!
//! - [`world`]: where the car drives (a loaded track or the endless flat plane), shared by
//!   the headless runner and the real-time simulator;
//! - [`realtime`]: the real-time simulation core (DESIGN.md section 2): the 1 kHz sim thread,
//!   its command queue, the snapshot ring and the render-side interpolation;
//! - [`ffb_connector`]: keeps the force-feedback wheel linked (reopens after an unplug or a
//!   settings change, with backoff);
//! - [`wheel_setup`]: real wheels at window start-up: the force-feedback device and backend,
//!   and the evdev input for devices gilrs cannot see.

pub mod ffb_connector;
pub mod realtime;
pub mod wheel_setup;
pub mod world;

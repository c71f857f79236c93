//! The real-time simulation core (`docs/architecture.md`, "The sim thread"): the sim thread and
//! what surrounds it; it steps the crate's [`Session`] like the headless procedures do.
//!
//! - [`sim_thread`]: [`SimThread::spawn`] starts the 1 kHz sim thread; the UI keeps the
//!   [`SimHandle`] (commands in, snapshots, events and statistics out);
//! - [`sim_core`]: what one tick does (commands, input, physics, force feedback, publishing);
//! - [`scheduler`]: absolute-deadline scheduling with bounded catch-up, and sleep-then-spin;
//! - [`spin_calibrator`]: how long to spin before each deadline, learnt from the wake-ups;
//! - [`snapshot_ring`]: the wait-free ring of tick-stamped snapshots to the renderer;
//! - [`interpolation`]: the renderer's interpolation between the snapshots bracketing its
//!   render time;
//! - [`commands`]: UI → sim commands and sim → UI events;
//! - [`rig`]: input devices, control mapper and force-feedback output;
//! - [`keyboard`]: the window's keyboard as an input device;
//! - [`stats`]: tick lateness, step cost, missed and dropped ticks, and their formatting.
//!
//! # Use from the window
//!
//! ```no_run
//! use std::time::Instant;
//! use gripline_devices::device_thread::DeviceThread;
//! use gripline_sim::realtime::{
//!     Command, Interpolator, Rig, Session, SessionLoader, SimConfig, SimEvent, SimThread,
//! };
//! use gripline_input::settings::bindings::Bindings;
//! use gripline_input::settings::input_codes::key;
//!
//! # fn main() -> anyhow::Result<()> {
//! let session = Session::load("corvette-c5", "circuit")?;
//! let mut rig = Rig::without_ffb(&Bindings::default());
//! let mut keys = rig.add_keyboard(); // the window forwards keys here
//! // Wheels and pads: gilrs on its own thread (keep `_gilrs` alive), when it starts.
//! let _gilrs = DeviceThread::gilrs().ok().map(|(thread, device)| {
//!     rig.add_input(Box::new(device));
//!     thread
//! });
//! let config = SimConfig { autopilot: true, ..SimConfig::default() };
//! let mut sim = SimThread::spawn(session, rig, config)?;
//! let mut interp = Interpolator::new(1.5);
//! let start = Instant::now();
//! let mut loader = Some(SessionLoader::spawn("rally-awd", "circuit")?);
//! for _frame in 0..600 {
//!     keys.key(key::UP, true); // from the window's keyboard events (USB HID usages)
//!     interp.drain(sim.snapshots());
//!     if let Some(state) = interp.sample(start.elapsed()) {
//!         let _pose = (state.stamped.snapshot.position, state.stamped.snapshot.orientation);
//!         let _hud = (state.stamped.hud.laps, state.stamped.hud.ffb_level, sim.stats());
//!     }
//!     while let Some(event) = sim.next_event() {
//!         if let SimEvent::Input(notice) = event { println!("{notice:?}"); }
//!         // `SimEvent::Retired` values are freed here, off the sim thread.
//!     }
//!     if let Some(result) = loader.as_mut().and_then(SessionLoader::poll) {
//!         loader = None;
//!         let _ = sim.send(Command::Swap(Box::new(result?)));
//!     }
//! #   break;
//! }
//! println!("{}", sim.stats()); // one line: lateness p50/p99/max, missed, dropped, step cost
//! sim.shutdown()?;
//! # Ok(())
//! # }
//! ```

pub mod commands;
pub mod interpolation;
pub mod keyboard;
pub mod prefault;
pub mod rig;
pub mod scheduler;
pub mod sim_core;
pub mod sim_thread;
pub mod snapshot_ring;
pub mod spin_calibrator;
pub mod stats;

pub use crate::session::{Session, SessionLoader};
pub use commands::{Command, Retired, SimEvent};
pub use interpolation::{Interpolated, Interpolator};
pub use keyboard::KeyboardSender;
pub use rig::Rig;
pub use sim_thread::{SimConfig, SimHandle, SimThread};
pub use snapshot_ring::{HudFrame, Stamped};
pub use stats::SimStats;

//! The real-time simulation core (DESIGN.md section 2): everything of the simulator that
//! does not need a window or a GPU.
//!
//! - [`sim_thread`]: [`SimThread::spawn`] starts the 1 kHz sim thread; the UI keeps the
//!   [`SimHandle`] (commands in, snapshots, events and statistics out);
//! - [`sim_core`]: what one tick does (commands, input, physics, force feedback, publishing);
//! - [`scheduler`]: absolute-deadline scheduling with bounded catch-up, and sleep-then-spin;
//! - [`snapshot_ring`]: the wait-free ring of tick-stamped snapshots to the renderer;
//! - [`interpolation`]: the renderer's interpolation between the snapshots bracketing its
//!   render time;
//! - [`commands`]: UI → sim commands and sim → UI events;
//! - [`session`]: one car in one world, with start pose, autopilot and lap timer, and the
//!   off-thread [`SessionLoader`];
//! - [`rig`]: input devices, control mapper and force-feedback output;
//! - [`keyboard`]: the window's keyboard as an input device;
//! - [`device_thread`]: devices polled on their own thread (gilrs), forwarded through a ring;
//! - [`lap_timer`]: start/finish crossings, current, last and best lap;
//! - [`stats`]: tick lateness, step cost, missed and dropped ticks, and their formatting.

pub mod commands;
pub mod device_thread;
pub mod interpolation;
pub mod keyboard;
pub mod lap_timer;
pub mod rig;
pub mod scheduler;
pub mod session;
pub mod sim_core;
pub mod sim_thread;
pub mod snapshot_ring;
pub mod stats;

pub use commands::{Command, Retired, SimEvent};
pub use interpolation::{Interpolated, Interpolator};
pub use keyboard::KeyboardSender;
pub use rig::Rig;
pub use session::{Session, SessionLoader};
pub use sim_thread::{SimConfig, SimHandle, SimThread};
pub use snapshot_ring::{HudFrame, Stamped};
pub use stats::SimStats;

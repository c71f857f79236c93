//! # gripline-sim
//!
//! Gripline's simulation runtime: everything that runs the physics, without a window, a GPU
//! or a UI toolkit (it depends on none of winit, wgpu or egui).
//!
//! - [`world`]: where the car drives (a loaded track or the endless flat plane);
//! - [`session`]: one car in one world with its start pose, the autopilot and the lap timer,
//!   and [`session::Session::step`], the one physics tick of both the window and headless
//!   runs, at [`gripline_physics::STEP_S`] or a chosen rate;
//! - [`lap_timer`]: start/finish crossings, current, last and best lap;
//! - [`laps`]: each lap sampled for analysis, the best laps kept, the delta and the ghost;
//! - [`observer`]: the [`observer::TickObserver`] that follows every tick, of the real-time
//!   loop and of the headless runs alike (the sound, the telemetry out, the run's files);
//! - [`realtime`]: the real-time core (`docs/architecture.md`): the 1 kHz sim thread, its
//!   command queue, the snapshot ring, input devices and force feedback, and the render-side
//!   interpolation;
//! - [`headless`]: `gripline headless`: the road-test procedures (launch, braking, skidpad,
//!   laps...) stepping the same session as fast as the CPU allows, with telemetry and metrics;
//! - [`replay`]: recording every change a session goes through, and re-simulating it bit
//!   for bit;
//! - [`telemetry_out`]: LFS OutGauge and OutSim UDP packets for dashboards and motion rigs,
//!   from a sender thread fed without waiting by the sim thread, or from headless runs.
//!
//! The `gripline` binary (crate `app`) keeps the window, the screens and the command line.

pub mod headless;
pub mod lap_timer;
pub mod laps;
pub mod observer;
pub mod realtime;
pub mod recovery;
pub mod replay;
pub mod session;
pub mod telemetry_out;
pub mod world;

//! # gripline-host
//!
//! The host of a drive: everything that runs a car on a track for a person, without a window.
//! The `gripline` window and its `headless` command both use it; it depends on the runtime
//! (`gripline-sim`), the devices, the sound and the settings, never on winit, wgpu, egui or
//! the renderer (`docs/architecture.md`).
//!
//! - [`drive`]: a running drive ([`drive::Drive`]): the sim thread, the device threads and
//!   hot-plug, the wheel set-up and force-feedback reconnection, sound, telemetry out, the
//!   replay recording and the laps, and a car or track loaded in the background and swapped
//!   in; it returns [`drive::DriveEvent`]s to whoever shows them;
//! - [`headless`]: `gripline headless` with its sound (WAV) and telemetry outputs;
//! - [`wheel_setup`]: which device gets force feedback, through which backend, and the evdev
//!   inputs gilrs cannot see;
//! - [`ffb_connector`]: keeps the force-feedback wheel linked (reopens after an unplug or a
//!   settings change, with backoff);
//! - [`sound`]: the sound wired to the sim thread, the output device, the WAV recorder;
//! - [`telemetry`]: the telemetry-out settings resolved into the sender's targets;
//! - [`recordings`]: every drive recorded as a replay, the recent ones kept, saving, listing;
//! - [`replay_timeline`]: a replay re-simulated into states to watch, on a loader thread;
//! - [`laps`]: lap recording, best laps, delta, ghost and export;
//! - [`aids`], [`setups`]: the aids and the set-up file the settings choose for a car.

pub mod aids;
pub mod drive;
pub mod ffb_connector;
pub mod headless;
pub mod laps;
pub mod recordings;
pub mod replay_timeline;
pub mod setups;
pub mod sound;
pub mod telemetry;
pub mod wheel_setup;

//! A [`TickObserver`] follows a session's state tick by tick, for outputs that need every
//! tick rather than the renderer's interpolated frames: the sound, the telemetry out, and the
//! headless runs' telemetry CSV, force-feedback trace and WAV file.
//!
//! The same observers serve both loops:
//! - the real-time sim thread ([`crate::realtime::sim_core::SimCore::set_observer`]) calls
//!   them inside the tick's budget: there they must not allocate, lock or wait, and hand the
//!   state to another thread through a wait-free ring, dropping what does not fit; an error
//!   detaches the observer (the UI hears of it as
//!   [`crate::realtime::commands::SimEvent::ObserverFailed`]);
//! - a headless run ([`crate::headless::run_observed`]) calls them as fast as it steps, and
//!   stops with the first error.

use anyhow::Result;
use gripline_formats::vehicle_sound::SoundParams;
use gripline_physics::vehicle::{Snapshot, Vehicle};

/// Follows the state after every tick (see the module docs).
pub trait TickObserver: Send {
    /// Called before the first tick with the car, its sound (the session's
    /// [`crate::session::Session::sound`]) and the step size (s), and again whenever the
    /// session changes car (the real-time loop's swap). May allocate: it happens once per
    /// car.
    ///
    /// # Errors
    /// The observer's own (a file that cannot be created).
    fn start(&mut self, vehicle: &Vehicle, sound: &SoundParams, step_s: f64) -> Result<()>;

    /// The state after a tick of `step_s` seconds; `paused` when the real-time simulation is
    /// paused (the state is then the last one, repeated; never in a headless run).
    ///
    /// # Errors
    /// The observer's own (a file that cannot be written).
    fn tick(&mut self, snapshot: &Snapshot, step_s: f64, paused: bool) -> Result<()>;

    /// Called once after the last tick. Nothing to do by default.
    ///
    /// # Errors
    /// The observer's own (a file that cannot be completed).
    fn finish(&mut self) -> Result<()> {
        Ok(())
    }
}

/// Several observers behind one (the sound and the telemetry out; `--audio` and
/// `--outgauge` together), called in order; each call stops at the first error.
pub struct ObserverGroup(pub Vec<Box<dyn TickObserver>>);

impl TickObserver for ObserverGroup {
    fn start(&mut self, vehicle: &Vehicle, sound: &SoundParams, step_s: f64) -> Result<()> {
        self.0
            .iter_mut()
            .try_for_each(|o| o.start(vehicle, sound, step_s))
    }

    fn tick(&mut self, snapshot: &Snapshot, step_s: f64, paused: bool) -> Result<()> {
        self.0
            .iter_mut()
            .try_for_each(|o| o.tick(snapshot, step_s, paused))
    }

    fn finish(&mut self) -> Result<()> {
        self.0.iter_mut().try_for_each(|o| o.finish())
    }
}

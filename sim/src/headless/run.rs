//! A headless run: the [`Session`] the window steps too, with the telemetry recorder and the
//! force-feedback trace, and what the procedures read from it.

use std::ops::{Deref, DerefMut};

use anyhow::{Result, bail};
use gripline_physics::controls::Controls;
use gripline_physics::vehicle::{Snapshot, Vehicle};

use super::ffb_trace::FfbTrace;
use super::recorder::Recorder;
use crate::session::Session;

/// Something that follows every tick of a headless run, as the recorders do (the sound
/// rendered by `gripline headless --audio`).
pub trait TickObserver {
    /// Called once before the first tick, with the car and the step size (s).
    ///
    /// # Errors
    /// The observer's own (a file that cannot be created).
    fn start(&mut self, vehicle: &Vehicle, step_s: f64) -> Result<()>;

    /// Called after every tick with the state.
    ///
    /// # Errors
    /// The observer's own; the run stops with it.
    fn tick(&mut self, snapshot: &Snapshot, step_s: f64) -> Result<()>;

    /// Called once after the last tick.
    ///
    /// # Errors
    /// The observer's own (a file that cannot be completed).
    fn finish(&mut self) -> Result<()>;
}

/// A session stepped by a procedure, recording as it goes. Derefs to the [`Session`] for
/// everything else (placing the car, its heading, rear axle, speed, the world).
pub struct Run {
    session: Session,
    recorder: Option<Recorder>,
    ffb_trace: Option<FfbTrace>,
    observer: Option<Box<dyn TickObserver>>,
    /// Ticks stepped since the start.
    pub ticks: u64,
}

impl Run {
    /// A run of `session`, recording to `recorder` if given.
    pub fn new(session: Session, recorder: Option<Recorder>) -> Self {
        Self {
            session,
            recorder,
            ffb_trace: None,
            observer: None,
            ticks: 0,
        }
    }

    /// Records the force feedback of every tick from now on (see [`FfbTrace`]).
    pub fn trace_ffb(&mut self, trace: FfbTrace) {
        self.ffb_trace = Some(trace);
    }

    /// Lets `observer` follow every tick from now on.
    ///
    /// # Errors
    /// The observer's [`TickObserver::start`].
    pub fn observe(&mut self, mut observer: Box<dyn TickObserver>) -> Result<()> {
        observer.start(self.session.vehicle(), self.session.step_s())?;
        self.observer = Some(observer);
        Ok(())
    }

    /// One physics tick with `controls` ([`Session::step`]), then the recorders.
    ///
    /// # Errors
    /// When the car left the world (fell through or a non-finite state), or the telemetry
    /// cannot be written.
    pub fn step(&mut self, controls: &Controls) -> Result<()> {
        let in_world = self.session.step(controls);
        self.ticks += 1;
        if !in_world {
            bail!(
                "the car left the world at t = {:.1} s",
                self.session.snapshot().time_s
            );
        }
        if let Some(recorder) = &mut self.recorder {
            recorder.record(self.session.snapshot())?;
        }
        if let Some(trace) = &mut self.ffb_trace {
            trace.record(self.session.snapshot(), self.session.step_s())?;
        }
        if let Some(observer) = &mut self.observer {
            observer.tick(self.session.snapshot(), self.session.step_s())?;
        }
        Ok(())
    }

    /// Seconds simulated so far.
    pub fn simulated_s(&self) -> f64 {
        self.ticks as f64 * self.session.step_s()
    }

    /// Finishes the telemetry files.
    ///
    /// # Errors
    /// When the last rows cannot be written.
    pub fn finish(self) -> Result<()> {
        if let Some(mut observer) = self.observer {
            observer.finish()?;
        }
        if let Some(trace) = self.ffb_trace {
            trace.finish()?;
        }
        match self.recorder {
            Some(recorder) => recorder.finish(),
            None => Ok(()),
        }
    }
}

impl Deref for Run {
    type Target = Session;

    fn deref(&self) -> &Session {
        &self.session
    }
}

impl DerefMut for Run {
    fn deref_mut(&mut self) -> &mut Session {
        &mut self.session
    }
}

/// Several observers behind one (`--audio` and `--outgauge` together), called in order.
pub struct ObserverGroup(pub Vec<Box<dyn TickObserver>>);

impl TickObserver for ObserverGroup {
    fn start(&mut self, vehicle: &Vehicle, step_s: f64) -> Result<()> {
        self.0.iter_mut().try_for_each(|o| o.start(vehicle, step_s))
    }

    fn tick(&mut self, snapshot: &Snapshot, step_s: f64) -> Result<()> {
        self.0.iter_mut().try_for_each(|o| o.tick(snapshot, step_s))
    }

    fn finish(&mut self) -> Result<()> {
        self.0.iter_mut().try_for_each(|o| o.finish())
    }
}

//! A headless run: the [`Session`] the window steps too, with the telemetry recorder and the
//! force-feedback trace, and what the procedures read from it.

use std::ops::{Deref, DerefMut};

use anyhow::{Result, bail};
use gripline_physics::controls::Controls;

use super::ffb_trace::FfbTrace;
use super::recorder::Recorder;
use crate::session::Session;

/// A session stepped by a procedure, recording as it goes. Derefs to the [`Session`] for
/// everything else (placing the car, its heading, rear axle, speed, the world).
pub struct Run {
    session: Session,
    recorder: Option<Recorder>,
    ffb_trace: Option<FfbTrace>,
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
            ticks: 0,
        }
    }

    /// Records the force feedback of every tick from now on (see [`FfbTrace`]).
    pub fn trace_ffb(&mut self, trace: FfbTrace) {
        self.ffb_trace = Some(trace);
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

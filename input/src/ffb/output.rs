//! The sim-side force-feedback output: pipeline, safety gate and backend, once per tick.
//!
//! [`FfbOutput::tick`] runs the pipeline on this tick's input, passes the level through the
//! safety gate and sends it, all in the same call: an input change reaches the device level
//! within the tick (`docs/architecture.md`, "Targets"). In the app the backend is an
//! [`crate::ffb::writer::FfbWriter`], so "send" is an atomic store; tests use a
//! `crate::ffb::recording::RecordingBackend` directly.
//!
//! A level is sent every tick, even when it did not change: for the writer thread the stores
//! are the heartbeat its watchdog listens to (it skips unchanged values itself).

use std::time::Duration;

use crate::ffb::backend::{FfbBackend, FfbError};
use crate::ffb::pipeline::{FfbInput, FfbPipeline, FfbStep};
use crate::ffb::safety::{FfbSafety, StopReason};

/// What one tick sent.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FfbTick {
    /// The pipeline's result, when an input was given.
    pub step: Option<FfbStep>,
    /// The level actually sent (after safety).
    pub level: f64,
}

/// Pipeline + safety + backend (see the module docs).
#[derive(Debug)]
pub struct FfbOutput<B: FfbBackend> {
    pipeline: FfbPipeline,
    safety: FfbSafety,
    backend: B,
    stopped_backend: bool,
}

impl<B: FfbBackend> FfbOutput<B> {
    /// An output, stopped until [`FfbOutput::start`].
    pub fn new(pipeline: FfbPipeline, safety: FfbSafety, backend: B) -> Self {
        Self {
            pipeline,
            safety,
            backend,
            stopped_backend: false,
        }
    }

    /// The pipeline (meter, parameters, car gain).
    pub fn pipeline(&self) -> &FfbPipeline {
        &self.pipeline
    }

    /// The pipeline, to change parameters or the car's gain.
    pub fn pipeline_mut(&mut self) -> &mut FfbPipeline {
        &mut self.pipeline
    }

    /// The safety state machine.
    pub fn safety(&self) -> &FfbSafety {
        &self.safety
    }

    /// The safety state machine, to change its timing.
    pub fn safety_mut(&mut self) -> &mut FfbSafety {
        &mut self.safety
    }

    /// The backend.
    pub fn backend(&self) -> &B {
        &self.backend
    }

    /// One tick at `now`: `input` is this tick's physics output (`None` when the physics
    /// produced none, e.g. the sim is between steps), `dt` the tick length in seconds.
    ///
    /// # Errors
    /// The backend's error; force feedback is then stopped with
    /// [`StopReason::DeviceError`] and stays stopped until [`FfbOutput::start`].
    pub fn tick(
        &mut self,
        now: Duration,
        input: Option<&FfbInput>,
        dt: f64,
    ) -> Result<FfbTick, FfbError> {
        let step = input.map(|i| self.pipeline.process(i, dt));
        let fresh = match (input, step) {
            // A non-finite torque from the physics is a fault: zero at once (the safety gate
            // counts it), and the slew limit restarts from zero.
            (Some(i), _) if !i.column_torque_nm.is_finite() => {
                self.pipeline.reset();
                Some(f64::NAN)
            }
            (_, step) => step.map(|s| s.level),
        };
        let level = self.safety.gate(now, fresh);
        self.send(level)?;
        Ok(FfbTick { step, level })
    }

    /// The backend, mutably: to swap in a newly opened device with [`std::mem::swap`] (so
    /// that the old one can be freed off the sim thread). Call [`FfbOutput::retire_backend`]
    /// on the old one first, and [`FfbOutput::start`] afterwards: the new device fades in.
    pub fn backend_mut(&mut self) -> &mut B {
        &mut self.backend
    }

    /// Silences the current backend before it is replaced: zero, then its `stop`; the output
    /// is stopped (for `reason`) until [`FfbOutput::start`]. Errors of a device that is
    /// already gone are ignored: it is being replaced.
    pub fn retire_backend(&mut self, reason: StopReason) {
        self.safety.stop(reason);
        self.pipeline.reset();
        let _ = self.backend.send_level(0.0);
        let _ = self.backend.stop();
        self.stopped_backend = false;
    }

    /// Start, resume or reconnect at `now`: the output fades in.
    pub fn start(&mut self, now: Duration) {
        self.pipeline.reset();
        self.safety.start(now);
        self.stopped_backend = false;
    }

    /// Stops at once for `reason` and sends zero now. On [`StopReason::Exit`] the backend's
    /// `stop` is called too.
    ///
    /// # Errors
    /// The backend's error (the state is stopped regardless).
    pub fn stop(&mut self, reason: StopReason) -> Result<(), FfbError> {
        self.safety.stop(reason);
        self.pipeline.reset();
        let sent = self.send_zero();
        if reason == StopReason::Exit {
            self.stopped_backend = true;
            self.backend.stop()?;
        }
        sent
    }

    /// Kill switch: zero now and until [`FfbOutput::enable`].
    ///
    /// # Errors
    /// The backend's error (the kill holds regardless).
    pub fn kill(&mut self) -> Result<(), FfbError> {
        self.safety.kill();
        self.pipeline.reset();
        self.send_zero()
    }

    /// Re-enables after the kill switch; the output fades in from `now`.
    pub fn enable(&mut self, now: Duration) {
        self.pipeline.reset();
        self.safety.enable(now);
    }

    fn send_zero(&mut self) -> Result<(), FfbError> {
        self.backend.send_level(0.0)
    }

    fn send(&mut self, level: f64) -> Result<(), FfbError> {
        match self.backend.send_level(level) {
            Ok(()) => Ok(()),
            Err(e) => {
                self.safety.stop(StopReason::DeviceError);
                self.pipeline.reset();
                Err(e)
            }
        }
    }
}

impl<B: FfbBackend> Drop for FfbOutput<B> {
    /// Leaves the wheel without torque: zero, then the backend's `stop`.
    fn drop(&mut self) {
        if !self.stopped_backend {
            let _ = self.backend.send_level(0.0);
            let _ = self.backend.stop();
        }
    }
}

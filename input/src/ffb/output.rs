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
//!
//! Before a level is sent, the runaway trip ([`crate::ffb::runaway`]) judges it, in wheel
//! coordinates as it will be applied, against the wheel's motion: when the wheel runs away
//! past the lock the output is cut in the same tick ([`StopReason::Runaway`], latched until
//! [`FfbOutput::enable`]) and zero is sent instead.

use std::time::Duration;

use crate::ffb::backend::{FfbBackend, FfbError};
use crate::ffb::pipeline::{FfbInput, FfbPipeline, FfbStep};
use crate::ffb::runaway::{RunawayCause, RunawaySample, RunawayTrip, applied_torque_nm};
use crate::ffb::safety::{FfbSafety, StopReason};

/// What one tick sent.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FfbTick {
    /// The pipeline's result, when an input was given.
    pub step: Option<FfbStep>,
    /// The level actually sent (after safety).
    pub level: f64,
    /// The runaway trip cut force feedback in this tick, for this reason (`level` is 0).
    pub tripped: Option<RunawayCause>,
}

/// Pipeline + safety + backend (see the module docs).
#[derive(Debug)]
pub struct FfbOutput<B: FfbBackend> {
    pipeline: FfbPipeline,
    safety: FfbSafety,
    runaway: RunawayTrip,
    backend: B,
    stopped_backend: bool,
}

impl<B: FfbBackend> FfbOutput<B> {
    /// An output, stopped until [`FfbOutput::start`], without a runaway lock until
    /// [`FfbOutput::set_runaway_lock`].
    pub fn new(pipeline: FfbPipeline, safety: FfbSafety, backend: B) -> Self {
        Self {
            pipeline,
            safety,
            runaway: RunawayTrip::OFF,
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

    /// Sets where the runaway trip watches: the lock `lock_rad` each side of centre (the
    /// soft lock's angle; infinite: nowhere) and the soft lock's ramp `ramp_rad`.
    pub fn set_runaway_lock(&mut self, lock_rad: f64, ramp_rad: f64) {
        self.runaway.set_lock(lock_rad, ramp_rad);
    }

    /// The runaway trip.
    pub fn runaway(&self) -> &RunawayTrip {
        &self.runaway
    }

    /// Why the output is cut (the runaway trip), while it is: until [`FfbOutput::enable`].
    pub fn cut_reason(&self) -> Option<StopReason> {
        self.safety.cut_reason()
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
        let mut level = self.safety.gate(now, fresh);
        let tripped = match (input, step) {
            (Some(i), Some(st)) if self.safety.is_live() => {
                let p = self.pipeline.params();
                self.runaway.check(&RunawaySample {
                    angle_rad: i.wheel_angle_rad,
                    speed_rad_s: i.wheel_speed_rad_s,
                    accel_rad_s2: i.wheel_accel_rad_s2,
                    applied_nm: applied_torque_nm(level, p.device_peak_nm, p.invert),
                    requested_nm: st.requested_nm,
                })
            }
            // Nothing to judge, or nothing to cut: the counts start over.
            _ => {
                self.runaway.idle();
                None
            }
        };
        if let Some(cause) = tripped {
            self.safety.cut(StopReason::Runaway(cause));
            self.pipeline.reset();
            self.runaway.idle();
            level = 0.0;
        }
        self.send(level)?;
        Ok(FfbTick {
            step,
            level,
            tripped,
        })
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

    /// Start, resume or reconnect at `now`: the output fades in (unless killed or cut). The
    /// wheel's speed and acceleration estimates are expected to restart too: the runaway
    /// trip waits for them to settle.
    pub fn start(&mut self, now: Duration) {
        self.pipeline.reset();
        self.runaway.reset();
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

    /// Re-enables after the kill switch or a runaway cut (the user's decision); the output
    /// fades in from `now`.
    pub fn enable(&mut self, now: Duration) {
        self.pipeline.reset();
        self.runaway.idle();
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

//! A headless run: the [`Session`] the window steps too, with the observers that follow its
//! ticks (the telemetry recorder, the force-feedback trace, the sound and telemetry out of the
//! command line), and what the procedures read from it.

use std::ops::{Deref, DerefMut};

use anyhow::{Result, bail};
use gripline_physics::controls::Controls;

use crate::observer::{ObserverGroup, TickObserver};
use crate::recovery::Recovery;
use crate::session::Session;

/// A session stepped by a procedure, its observers following. Derefs to the [`Session`] for
/// everything else (placing the car, its heading, rear axle, speed, the world).
pub struct Run {
    session: Session,
    observers: ObserverGroup,
    /// Ticks stepped since the start.
    pub ticks: u64,
    /// The recoveries so far (upside down, stuck, out of the world), in order.
    pub recoveries: Vec<Recovery>,
    /// Whether a recovery fails the run (a measurement: a figure must never include one).
    strict: bool,
}

impl Run {
    /// A run of `session`, observed by nothing yet.
    pub fn new(session: Session) -> Self {
        Self {
            session,
            observers: ObserverGroup(Vec::new()),
            ticks: 0,
            recoveries: Vec::new(),
            strict: false,
        }
    }

    /// Makes a recovery fail the run from now on (`true`: a measurement scenario), or be
    /// counted in [`Run::recoveries`] (`false`, the default).
    pub fn set_strict(&mut self, strict: bool) {
        self.strict = strict;
    }

    /// Lets `observer` follow every tick from now on, after those already observing.
    ///
    /// # Errors
    /// The observer's [`TickObserver::start`].
    pub fn observe(&mut self, mut observer: Box<dyn TickObserver>) -> Result<()> {
        observer.start(
            self.session.vehicle(),
            self.session.sound(),
            self.session.step_s(),
        )?;
        self.observers.0.push(observer);
        Ok(())
    }

    /// One physics tick with `controls` ([`Session::step`]), then the observers. A recovery
    /// (the car upside down, stuck or out of the world, put back on the road) is added to
    /// [`Run::recoveries`].
    ///
    /// # Errors
    /// A recovery in a strict run, naming it; an observer's (the telemetry cannot be
    /// written).
    pub fn step(&mut self, controls: &Controls) -> Result<()> {
        let stayed = self.session.step(controls);
        self.ticks += 1;
        if !stayed && let Some(recovery) = self.session.last_recovery() {
            if self.strict {
                bail!(
                    "the car had to be recovered at t = {:.3} s ({}: {}); a measurement \
                     cannot go on after a recovery",
                    recovery.time_s,
                    recovery.reason,
                    recovery.reason.describe()
                );
            }
            self.recoveries.push(recovery);
        }
        self.observers
            .tick(self.session.snapshot(), self.session.step_s(), false)
    }

    /// Seconds simulated so far.
    pub fn simulated_s(&self) -> f64 {
        self.ticks as f64 * self.session.step_s()
    }

    /// Finishes the observers (the telemetry files), in order.
    ///
    /// # Errors
    /// An observer's (the last rows cannot be written).
    pub fn finish(mut self) -> Result<()> {
        self.observers.finish()
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

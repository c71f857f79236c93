//! A headless run: the [`Session`] the window steps too, with the observers that follow its
//! ticks (the telemetry recorder, the force-feedback trace, the sound and telemetry out of the
//! command line), and what the procedures read from it.

use std::ops::{Deref, DerefMut};

use anyhow::{Result, bail};
use gripline_physics::controls::Controls;

use crate::observer::{ObserverGroup, TickObserver};
use crate::session::Session;

/// A session stepped by a procedure, its observers following. Derefs to the [`Session`] for
/// everything else (placing the car, its heading, rear axle, speed, the world).
pub struct Run {
    session: Session,
    observers: ObserverGroup,
    /// Ticks stepped since the start.
    pub ticks: u64,
}

impl Run {
    /// A run of `session`, observed by nothing yet.
    pub fn new(session: Session) -> Self {
        Self {
            session,
            observers: ObserverGroup(Vec::new()),
            ticks: 0,
        }
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

    /// One physics tick with `controls` ([`Session::step`]), then the observers.
    ///
    /// # Errors
    /// When the car left the world (fell through or a non-finite state), or an observer's
    /// (the telemetry cannot be written).
    pub fn step(&mut self, controls: &Controls) -> Result<()> {
        let in_world = self.session.step(controls);
        self.ticks += 1;
        if !in_world {
            bail!(
                "the car left the world at t = {:.1} s",
                self.session.snapshot().time_s
            );
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

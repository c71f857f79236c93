//! A backend that records every command with a timestamp, for tests and diagnostics.
//!
//! The timestamps come from a [`Clock`]: a [`ManualClock`] the test advances tick by tick
//! (deterministic), or real time since the backend was made (for writer-thread tests). The
//! backend can be made slow (each write sleeps) or made to fail (a simulated unplug, or any
//! other error: [`RecordingBackend::with_failure`]).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::ffb::backend::{FfbBackend, FfbError, sanitize_level};

/// A clock the test sets by hand; clones share the time.
#[derive(Clone, Debug, Default)]
pub struct ManualClock(Arc<AtomicU64>);

impl ManualClock {
    /// A clock at zero.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the time.
    pub fn set(&self, now: Duration) {
        // Nanoseconds fit u64 for 584 years.
        #[allow(clippy::cast_possible_truncation)]
        self.0.store(now.as_nanos() as u64, Ordering::SeqCst);
    }

    /// The time.
    pub fn now(&self) -> Duration {
        Duration::from_nanos(self.0.load(Ordering::SeqCst))
    }
}

/// Where a [`RecordingBackend`] takes its timestamps.
#[derive(Clone, Debug)]
pub enum Clock {
    /// Set by hand.
    Manual(ManualClock),
    /// Real time since this instant.
    Real(Instant),
}

impl Clock {
    /// The time now.
    pub fn now(&self) -> Duration {
        match self {
            Clock::Manual(c) => c.now(),
            Clock::Real(start) => start.elapsed(),
        }
    }
}

/// A recorded command.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Command {
    /// `send_level` with this (sanitised) level.
    Level(f64),
    /// `stop`.
    Stop,
}

/// A command with its timestamp.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Recorded {
    /// When it was sent.
    pub at: Duration,
    /// What was sent.
    pub command: Command,
}

/// The shared log of a [`RecordingBackend`]; clones see the same log.
#[derive(Clone, Debug, Default)]
pub struct Recording(Arc<Mutex<Vec<Recorded>>>);

impl Recording {
    /// Every command so far.
    pub fn entries(&self) -> Vec<Recorded> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The levels sent so far, with their times.
    pub fn levels(&self) -> Vec<(Duration, f64)> {
        self.entries()
            .into_iter()
            .filter_map(|r| match r.command {
                Command::Level(l) => Some((r.at, l)),
                Command::Stop => None,
            })
            .collect()
    }

    /// The last level sent.
    pub fn last_level(&self) -> Option<f64> {
        self.levels().last().map(|&(_, l)| l)
    }

    fn push(&self, r: Recorded) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(r);
    }
}

/// A backend that records commands (see the module docs).
#[derive(Clone, Debug)]
pub struct RecordingBackend {
    recording: Recording,
    clock: Clock,
    rate_hz: f64,
    delay: Duration,
    failing: Arc<AtomicBool>,
    failure: FfbError,
}

impl RecordingBackend {
    /// A backend stamping commands with `clock`, claiming 1 kHz.
    pub fn new(clock: Clock) -> Self {
        Self {
            recording: Recording::default(),
            clock,
            rate_hz: 1000.0,
            delay: Duration::ZERO,
            failing: Arc::new(AtomicBool::new(false)),
            failure: FfbError::Disconnected,
        }
    }

    /// The same backend claiming `rate_hz` as its maximum rate.
    #[must_use]
    pub fn with_rate(mut self, rate_hz: f64) -> Self {
        self.rate_hz = rate_hz;
        self
    }

    /// The same backend sleeping `delay` in every write (a slow device).
    #[must_use]
    pub fn with_delay(mut self, delay: Duration) -> Self {
        self.delay = delay;
        self
    }

    /// The same backend failing with `error` once its [`RecordingBackend::failure_switch`]
    /// is set (instead of [`FfbError::Disconnected`]), e.g. an I/O error of a device that is
    /// still plugged in.
    #[must_use]
    pub fn with_failure(mut self, error: FfbError) -> Self {
        self.failure = error;
        self
    }

    /// The log (keep a clone before handing the backend to a writer thread).
    pub fn recording(&self) -> Recording {
        self.recording.clone()
    }

    /// A switch that makes every following write fail with [`FfbError::Disconnected`] (or
    /// the error given to [`RecordingBackend::with_failure`]).
    pub fn failure_switch(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.failing)
    }

    fn record(&self, command: Command) -> Result<(), FfbError> {
        if !self.delay.is_zero() {
            std::thread::sleep(self.delay);
        }
        if self.failing.load(Ordering::SeqCst) {
            return Err(self.failure.clone());
        }
        self.recording.push(Recorded {
            at: self.clock.now(),
            command,
        });
        Ok(())
    }
}

impl FfbBackend for RecordingBackend {
    fn max_rate_hz(&self) -> f64 {
        self.rate_hz
    }

    fn send_level(&mut self, level: f64) -> Result<(), FfbError> {
        self.record(Command::Level(sanitize_level(level)))
    }

    fn stop(&mut self) -> Result<(), FfbError> {
        self.record(Command::Stop)
    }
}

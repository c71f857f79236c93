//! The sim thread: a named thread (`gripline-sim`) at raised priority where the OS allows,
//! running [`SimCore::tick`] every millisecond against absolute deadlines, and the UI's
//! [`SimHandle`] to it.
//!
//! The loop asks a [`TickScheduler`] what to do at each wake-up: wait (sleep, then spin the
//! last [`SimConfig::spin`]) or run a tick; after a stall it runs at most
//! [`SimConfig::max_catch_up`] overdue ticks back to back and drops the rest. Each tick's
//! lateness and cost go to the shared histograms ([`super::stats`]).
//!
//! The [`SimHandle`] holds the UI's ends of the rings: commands in, snapshots and events out,
//! and the statistics. Dropping it (or [`SimHandle::shutdown`]) stops and joins the thread;
//! force feedback is zeroed and stopped on the way out.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use gripline_input::device::InputEvent;
use rtrb::{Consumer, Producer};

use super::commands::{Command, SimEvent};
use super::rig::Rig;
use super::scheduler::{TickDecision, TickScheduler, wait_until};
use super::sim_core::{SimCore, core_rings};
use super::snapshot_ring::{DEFAULT_RING_CAPACITY, SnapshotConsumer};
use super::spin_calibrator::SpinCalibrator;
use super::stats::{SharedStats, SimStats, SimStatsReader};
use crate::observer::TickObserver;
use crate::session::Session;

/// The shortest spin before a deadline the calibration may choose.
pub const MIN_SPIN: Duration = Duration::from_micros(20);
/// The longest spin before a deadline the calibration may choose (half of a 1 kHz period
/// spent spinning at the most).
pub const MAX_SPIN: Duration = Duration::from_micros(500);

/// How the sim thread runs.
#[derive(Clone, Debug, PartialEq)]
pub struct SimConfig {
    /// Tick period (the physics step, [`gripline_physics::STEP_S`]: another period runs the
    /// simulation slower or faster than real time).
    pub period: Duration,
    /// Overdue ticks run back to back after a stall before the rest are dropped.
    pub max_catch_up: u64,
    /// How long before each deadline the thread stops sleeping and spins at first; from then
    /// on it is learnt from the wake-up delays measured (see [`super::spin_calibrator`]),
    /// within [`MIN_SPIN`]..[`MAX_SPIN`].
    pub spin: Duration,
    /// Snapshots the ring to the renderer holds.
    pub ring_capacity: usize,
    /// Start with the autopilot driving.
    pub autopilot: bool,
    /// Try to raise the thread's priority.
    pub raise_priority: bool,
    /// Pause once the session has run this many ticks ([`SimCore::hold_at_tick`]).
    pub hold_at_tick: Option<u64>,
}

impl Default for SimConfig {
    fn default() -> Self {
        Self {
            period: Duration::from_secs_f64(gripline_physics::STEP_S),
            max_catch_up: 5,
            spin: Duration::from_micros(200),
            ring_capacity: DEFAULT_RING_CAPACITY,
            autopilot: false,
            raise_priority: true,
            hold_at_tick: None,
        }
    }
}

/// Starts sim threads.
#[derive(Debug)]
pub struct SimThread;

impl SimThread {
    /// Starts the sim thread stepping `session` with `rig`'s devices and force feedback.
    ///
    /// # Errors
    /// The OS's error when the thread cannot be spawned.
    pub fn spawn(session: Session, rig: Rig, config: SimConfig) -> std::io::Result<SimHandle> {
        Self::spawn_with_observer(session, rig, config, None)
    }

    /// As [`SimThread::spawn`], with `observer` following every tick's state
    /// ([`SimCore::set_observer`]).
    ///
    /// # Errors
    /// The OS's error when the thread cannot be spawned.
    pub fn spawn_with_observer(
        session: Session,
        rig: Rig,
        config: SimConfig,
        observer: Option<Box<dyn TickObserver>>,
    ) -> std::io::Result<SimHandle> {
        let (core_rings, ui) = core_rings(config.ring_capacity);
        let stats = Arc::new(SharedStats::default());
        let reader = SimStatsReader::new(Arc::clone(&stats), ui.snapshots.dropped_counter());
        let quit = Arc::new(AtomicBool::new(false));
        let core = SimCore::new(
            session,
            rig,
            core_rings,
            Arc::clone(&stats),
            config.autopilot,
        );
        let mut core = core;
        core.hold_at_tick(config.hold_at_tick);
        if let Some(observer) = observer {
            core.set_observer(observer);
        }
        let thread_quit = Arc::clone(&quit);
        let thread = std::thread::Builder::new()
            .name("gripline-sim".to_owned())
            .spawn(move || run(core, &config, &stats, &thread_quit))?;
        Ok(SimHandle {
            commands: ui.commands,
            snapshots: ui.snapshots,
            events: ui.events,
            raw_input: ui.raw_input,
            stats: reader,
            quit,
            thread: Some(thread),
        })
    }
}

/// The loop of the sim thread.
fn run(mut core: SimCore, config: &SimConfig, stats: &SharedStats, quit: &AtomicBool) {
    let raised = config.raise_priority
        && gripline_input::realtime_priority::raise_current_thread(
            gripline_input::realtime_priority::SIM_FIFO_PRIORITY,
        );
    stats.priority_raised.store(raised, Ordering::Relaxed);
    // The spin follows how late this machine wakes the thread: long enough to keep the
    // deadlines, no longer, since a software rasteriser may share these cores.
    let mut spin = SpinCalibrator::new(config.spin, MIN_SPIN, MAX_SPIN);
    stats.record_spin(spin.spin());
    stats.running.store(true, Ordering::Relaxed);
    let origin = Instant::now();
    let mut scheduler = TickScheduler::new(config.period, config.max_catch_up, Duration::ZERO);
    while !quit.load(Ordering::Relaxed) {
        let now = origin.elapsed();
        match scheduler.poll(now) {
            TickDecision::WaitUntil(deadline) => {
                if let Some(delay) = wait_until(origin + deadline, spin.spin()) {
                    spin.record(delay);
                    stats.record_spin(spin.spin());
                }
            }
            TickDecision::Tick { lateness, dropped } => {
                stats.lateness.record(lateness);
                if lateness >= scheduler.period() {
                    stats.missed.fetch_add(1, Ordering::Relaxed);
                }
                if dropped > 0 {
                    stats.dropped_ticks.fetch_add(dropped, Ordering::Relaxed);
                }
                let started = Instant::now();
                core.tick(now);
                stats.step_cost.record(started.elapsed());
                stats.ticks.fetch_add(1, Ordering::Relaxed);
            }
        }
    }
    core.shutdown();
    stats.running.store(false, Ordering::Relaxed);
}

/// The UI's handle to the sim thread (see the module docs).
#[derive(Debug)]
pub struct SimHandle {
    commands: Producer<Command>,
    snapshots: SnapshotConsumer,
    events: Consumer<SimEvent>,
    raw_input: Consumer<InputEvent>,
    stats: SimStatsReader,
    quit: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl SimHandle {
    /// Queues `command` for the next tick.
    ///
    /// # Errors
    /// The command back when the queue is full (64 commands not yet applied: the sim thread
    /// is stalled or gone).
    pub fn send(&mut self, command: Command) -> Result<(), Command> {
        self.commands
            .push(command)
            .map_err(|rtrb::PushError::Full(c)| c)
    }

    /// The snapshot ring's consumer end, for
    /// [`super::interpolation::Interpolator::drain`].
    pub fn snapshots(&mut self) -> &mut SnapshotConsumer {
        &mut self.snapshots
    }

    /// The next event from the sim thread, if any (drain them every frame: retired sessions
    /// are freed when dropped here).
    pub fn next_event(&mut self) -> Option<SimEvent> {
        self.events.pop().ok()
    }

    /// The next raw input event the sim's devices reported (for the settings screen's live
    /// values; drain them every frame or older ones are dropped).
    pub fn next_raw_input(&mut self) -> Option<InputEvent> {
        self.raw_input.pop().ok()
    }

    /// The sim thread's figures now.
    pub fn stats(&self) -> SimStats {
        self.stats.read()
    }

    /// A reader of the figures that can be kept elsewhere (e.g. by the HUD).
    pub fn stats_reader(&self) -> SimStatsReader {
        self.stats.clone()
    }

    /// Whether the thread is still running (it stops only when asked, or if it panicked).
    pub fn is_running(&self) -> bool {
        self.thread.as_ref().is_some_and(|t| !t.is_finished())
    }

    /// Stops the thread and waits for it (force feedback is zeroed and stopped).
    ///
    /// # Errors
    /// When the sim thread panicked.
    pub fn shutdown(mut self) -> Result<(), SimThreadPanicked> {
        self.join()
    }

    fn join(&mut self) -> Result<(), SimThreadPanicked> {
        self.quit.store(true, Ordering::Relaxed);
        match self.thread.take() {
            Some(thread) => thread.join().map_err(|_| SimThreadPanicked),
            None => Ok(()),
        }
    }
}

impl Drop for SimHandle {
    fn drop(&mut self) {
        let _ = self.join();
    }
}

/// The sim thread ended with a panic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the sim thread panicked")]
pub struct SimThreadPanicked;

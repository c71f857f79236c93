//! The force-feedback writer thread: latest value wins.
//!
//! The sim thread must never wait for a USB write (`docs/force-feedback-protocols.md`, section 4.5:
//! slow force-feedback calls have blocked other games' loops). [`FfbWriter::store`] puts the newest
//! level in an atomic (the `f64` bits in an `AtomicU64`) and bumps a sequence number; that is all
//! the sim thread does. A writer thread wakes at the backend's rate, reads the newest level and
//! sends it if it changed, so a slow write only delays the next write, never the tick, and values
//! that arrive while a write is in progress are skipped, not queued.
//!
//! The writer has its own [`Watchdog`]: if the sequence number stops moving (the sim thread
//! stalled or died), the output ramps to zero even though nobody calls into the sim side.
//! Dropping the writer stops the thread, sends zero and calls the backend's `stop`.
//!
//! From any thread, a [`WriterControl`] can:
//! - **pause** it ([`WriterControl::pause`]; `ffb::emergency` does it for every writer on
//!   SIGTSTP before the process stops): the thread sends zero, confirms it, and holds zero
//!   whatever is stored, keeping the device open and its effect alive at zero (the same
//!   command as any other level, so it is sound on every backend, including the Logitech
//!   classic protocol, whose held force has no duration). **Resume**
//!   ([`WriterControl::resume`]) lets stored levels through again, faded in from zero over
//!   [`WriterConfig::fade_in`];
//! - **stop** it for good ([`WriterControl::shutdown`]: zero, `stop`, device closed), or as
//!   the **emergency stop** ([`WriterControl::emergency_stop`], `ffb::emergency::stop_all`):
//!   the same, and from then on [`FfbWriter::send_level`] fails with
//!   [`FfbError::EmergencyStop`], so the sim side knows the wheel is off and why.
//!
//! A failed backend write sets a flag that [`FfbWriter::send_level`] reports as
//! [`FfbError::WriterFailed`], whatever the backend's error was (unplug or any other I/O
//! error): the caller reopens the device ([`FfbError::needs_reconnect`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::ffb::backend::{FfbBackend, FfbError, sanitize_level};
use crate::ffb::safety::{SafetyConfig, WATCHDOG_RAMP, Watchdog};

/// How the writer thread runs.
#[derive(Clone, Debug)]
pub struct WriterConfig {
    /// Write rate (Hz); `None` uses the backend's [`FfbBackend::max_rate_hz`].
    pub rate_hz: Option<f64>,
    /// Ramp the output to zero when no value was stored for this long; `None` disables the
    /// writer-side watchdog (tests only: the sim side has its own).
    pub watchdog: Option<Duration>,
    /// Fade-in after a pause ([`WriterControl::resume`]): the output is scaled by a linear
    /// ramp 0 -> 1 over this time.
    pub fade_in: Duration,
    /// Thread name.
    pub name: String,
}

impl WriterConfig {
    /// The watchdog and fade-in of `safety` (the sim-side gate's timing), other fields
    /// default.
    pub fn with_safety(safety: SafetyConfig) -> Self {
        Self {
            watchdog: Some(safety.watchdog),
            fade_in: safety.fade_in,
            ..Self::default()
        }
    }
}

impl Default for WriterConfig {
    /// The default safety timing (`SafetyConfig::default`), the backend's rate.
    fn default() -> Self {
        let safety = SafetyConfig::default();
        Self {
            rate_hz: None,
            watchdog: Some(safety.watchdog),
            fade_in: safety.fade_in,
            name: "ffb-writer".to_owned(),
        }
    }
}

#[derive(Debug)]
struct Shared {
    /// The writer's time origin: every `*_ns` below counts from it.
    epoch: Instant,
    level_bits: AtomicU64,
    seq: AtomicU64,
    /// When the newest level was stored (ns since `epoch`).
    stored_at_ns: AtomicU64,
    quit: AtomicBool,
    /// Asked to stop by the emergency stop: `send_level` fails from then on.
    emergency: AtomicBool,
    /// Asked to hold zero ([`WriterControl::pause`]).
    pause: AtomicBool,
    /// Set by the thread once, paused, it has sent zero (cleared on resume).
    paused_at_zero: AtomicBool,
    failed: AtomicBool,
    writes: AtomicU64,
    /// Writes the backend accepted.
    successes: AtomicU64,
    /// When the last accepted write finished (ns since `epoch`, plus one; 0 = never).
    last_success_ns: AtomicU64,
    /// Store-to-write latency of written stored levels: count, sum, max, last (ns).
    latency_count: AtomicU64,
    latency_sum_ns: AtomicU64,
    latency_max_ns: AtomicU64,
    latency_last_ns: AtomicU64,
    /// Set by the thread once it has sent zero, stopped the backend and dropped it.
    done: AtomicBool,
}

impl Shared {
    fn new() -> Self {
        Self {
            epoch: Instant::now(),
            level_bits: AtomicU64::new(0),
            seq: AtomicU64::new(0),
            stored_at_ns: AtomicU64::new(0),
            quit: AtomicBool::new(false),
            emergency: AtomicBool::new(false),
            pause: AtomicBool::new(false),
            paused_at_zero: AtomicBool::new(false),
            failed: AtomicBool::new(false),
            writes: AtomicU64::new(0),
            successes: AtomicU64::new(0),
            last_success_ns: AtomicU64::new(0),
            latency_count: AtomicU64::new(0),
            latency_sum_ns: AtomicU64::new(0),
            latency_max_ns: AtomicU64::new(0),
            latency_last_ns: AtomicU64::new(0),
            done: AtomicBool::new(false),
        }
    }

    fn now_ns(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }
}

/// The writer's store-to-write latency so far: from [`FfbWriter::store`] of a level to the
/// end of the backend write that carried it (levels the writer skipped, because a newer one
/// arrived first or the value did not change, are not counted). A measurement hook for
/// tests and diagnostics; the figures are approximate where a store lands between the
/// thread's reads of the level and of its store time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StoreToWriteLatency {
    /// Stored levels written.
    pub samples: u64,
    /// Mean latency.
    pub mean: Duration,
    /// Worst latency.
    pub max: Duration,
    /// Latency of the last written level.
    pub last: Duration,
}

/// A handle that can stop a writer thread from anywhere (another thread, a signal handler's
/// thread, a panic hook) and wait until the device has been left at zero and closed.
#[derive(Clone, Debug)]
pub struct WriterControl {
    shared: Arc<Shared>,
    thread: std::thread::Thread,
}

impl WriterControl {
    /// Asks the thread to stop (it sends zero, calls the backend's `stop` and closes the
    /// device), and waits up to `timeout` for it to finish. Returns whether it finished.
    pub fn shutdown(&self, timeout: Duration) -> bool {
        self.request_quit();
        self.wait_until(Instant::now() + timeout, Self::is_done)
    }

    /// The emergency stop of this writer: as [`WriterControl::shutdown`], and from now on
    /// the writer's [`FfbWriter::send_level`] fails with [`FfbError::EmergencyStop`]
    /// (the wheel stays off until a new writer is opened). Returns whether it finished in
    /// time.
    pub fn emergency_stop(&self, timeout: Duration) -> bool {
        self.request_emergency_stop();
        self.wait_until(Instant::now() + timeout, Self::is_done)
    }

    /// Pauses the writer at zero (see the module docs) and waits up to `timeout` until it
    /// has sent the zero. Returns whether the device is confirmed at zero (paused, or the
    /// thread finished).
    pub fn pause(&self, timeout: Duration) -> bool {
        self.request_pause();
        self.wait_paused(Instant::now() + timeout)
    }

    /// Ends a pause: stored levels pass again, faded in from zero over the writer's
    /// [`WriterConfig::fade_in`]. Does nothing to a writer that is not paused.
    pub fn resume(&self) {
        self.shared.pause.store(false, Ordering::Release);
        self.thread.unpark();
    }

    /// Whether the thread has finished (device at zero and closed).
    pub fn is_done(&self) -> bool {
        self.shared.done.load(Ordering::Acquire)
    }

    /// Whether the writer is paused and has sent zero since.
    pub fn is_paused_at_zero(&self) -> bool {
        self.shared.paused_at_zero.load(Ordering::Acquire)
    }

    /// Whether the emergency stop has stopped this writer.
    pub fn is_emergency_stopped(&self) -> bool {
        self.shared.emergency.load(Ordering::Acquire)
    }

    pub(crate) fn request_quit(&self) {
        self.shared.quit.store(true, Ordering::Release);
        self.thread.unpark();
    }

    pub(crate) fn request_emergency_stop(&self) {
        self.shared.emergency.store(true, Ordering::Release);
        self.request_quit();
    }

    pub(crate) fn request_pause(&self) {
        self.shared.pause.store(true, Ordering::Release);
        self.thread.unpark();
    }

    /// Waits until the device is confirmed at zero by a pause (or the thread finished), at
    /// most until `deadline`.
    pub(crate) fn wait_paused(&self, deadline: Instant) -> bool {
        self.wait_until(deadline, |c| c.is_paused_at_zero() || c.is_done())
    }

    fn wait_until(&self, deadline: Instant, done: impl Fn(&Self) -> bool) -> bool {
        while !done(self) {
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_micros(200));
        }
        true
    }
}

/// Handle to the writer thread (see the module docs). Implements [`FfbBackend`], so the
/// sim-side [`crate::ffb::output::FfbOutput`] can write through it unchanged.
#[derive(Debug)]
pub struct FfbWriter {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
    rate_hz: f64,
}

impl FfbWriter {
    /// Starts a writer thread that owns `backend`.
    ///
    /// # Errors
    /// The operating system's error when the thread cannot be spawned.
    pub fn spawn<B: FfbBackend + Send + 'static>(
        backend: B,
        config: WriterConfig,
    ) -> std::io::Result<Self> {
        let rate_hz = config
            .rate_hz
            .unwrap_or_else(|| backend.max_rate_hz())
            .clamp(1.0, 10_000.0);
        let rate_hz = if rate_hz.is_finite() { rate_hz } else { 500.0 };
        let shared = Arc::new(Shared::new());
        let thread_shared = Arc::clone(&shared);
        let timing = Timing {
            period: Duration::from_secs_f64(1.0 / rate_hz),
            watchdog: config.watchdog,
            fade_in: config.fade_in,
        };
        let thread = std::thread::Builder::new()
            .name(config.name)
            .spawn(move || {
                run(backend, &thread_shared, timing);
                thread_shared.done.store(true, Ordering::Release);
            })?;
        // Registered before the handle is returned, so nothing was stored yet: a writer
        // born during an emergency stop or a pause has only ever sent zero.
        crate::ffb::emergency::register(WriterControl {
            shared: Arc::clone(&shared),
            thread: thread.thread().clone(),
        });
        Ok(Self {
            shared,
            thread: Some(thread),
            rate_hz,
        })
    }

    /// Stores the newest level (-1..1). Wait-free: three atomic stores.
    pub fn store(&self, level: f64) {
        self.shared
            .stored_at_ns
            .store(self.shared.now_ns(), Ordering::Release);
        self.shared
            .level_bits
            .store(sanitize_level(level).to_bits(), Ordering::Release);
        self.shared.seq.fetch_add(1, Ordering::Release);
    }

    /// A handle that stops this writer from elsewhere (see [`WriterControl`]).
    pub fn control(&self) -> Option<WriterControl> {
        self.thread.as_ref().map(|t| WriterControl {
            shared: Arc::clone(&self.shared),
            thread: t.thread().clone(),
        })
    }

    /// Whether the backend has failed a write since the writer started.
    pub fn failed(&self) -> bool {
        self.shared.failed.load(Ordering::Acquire)
    }

    /// Whether the emergency stop has stopped this writer (see
    /// [`WriterControl::emergency_stop`]).
    pub fn emergency_stopped(&self) -> bool {
        self.shared.emergency.load(Ordering::Acquire)
    }

    /// How many writes the thread has made (successful or not).
    pub fn writes(&self) -> u64 {
        self.shared.writes.load(Ordering::Acquire)
    }

    /// How many level writes the backend accepted (the `failed` flag stays set after the
    /// first failure; this count shows whether writes still get through).
    pub fn successful_writes(&self) -> u64 {
        self.shared.successes.load(Ordering::Acquire)
    }

    /// When the last accepted write finished, `None` before the first.
    pub fn last_successful_write(&self) -> Option<Instant> {
        match self.shared.last_success_ns.load(Ordering::Acquire) {
            0 => None,
            ns => Some(self.shared.epoch + Duration::from_nanos(ns - 1)),
        }
    }

    /// The store-to-write latency so far (see [`StoreToWriteLatency`]).
    pub fn store_to_write_latency(&self) -> StoreToWriteLatency {
        let s = &self.shared;
        let samples = s.latency_count.load(Ordering::Acquire);
        let sum = s.latency_sum_ns.load(Ordering::Acquire);
        StoreToWriteLatency {
            samples,
            mean: Duration::from_nanos(sum.checked_div(samples).unwrap_or(0)),
            max: Duration::from_nanos(s.latency_max_ns.load(Ordering::Acquire)),
            last: Duration::from_nanos(s.latency_last_ns.load(Ordering::Acquire)),
        }
    }

    /// The rate the thread writes at (Hz).
    pub fn rate_hz(&self) -> f64 {
        self.rate_hz
    }

    /// Stops the thread (sending zero and `stop` to the backend) and waits for it.
    pub fn shutdown(mut self) {
        self.join();
    }

    fn join(&mut self) {
        self.shared.quit.store(true, Ordering::Release);
        if let Some(thread) = self.thread.take() {
            thread.thread().unpark();
            // A panicking backend has already stopped sending; nothing more to do.
            let _ = thread.join();
        }
    }
}

impl Drop for FfbWriter {
    fn drop(&mut self) {
        self.join();
    }
}

impl FfbBackend for FfbWriter {
    /// Storing never blocks, so the sim may store every tick.
    fn max_rate_hz(&self) -> f64 {
        f64::INFINITY
    }

    /// Stores `level`; fails with [`FfbError::EmergencyStop`] once the emergency stop has
    /// stopped the writer (nothing reaches the device any more), else with
    /// [`FfbError::WriterFailed`] once the backend has failed a write.
    fn send_level(&mut self, level: f64) -> Result<(), FfbError> {
        self.store(level);
        if self.emergency_stopped() {
            Err(FfbError::EmergencyStop)
        } else if self.failed() {
            Err(FfbError::WriterFailed)
        } else {
            Ok(())
        }
    }

    fn stop(&mut self) -> Result<(), FfbError> {
        self.store(0.0);
        Ok(())
    }
}

fn record_latency(shared: &Shared, latency_ns: u64) {
    shared.latency_count.fetch_add(1, Ordering::AcqRel);
    shared
        .latency_sum_ns
        .fetch_add(latency_ns, Ordering::AcqRel);
    shared
        .latency_max_ns
        .fetch_max(latency_ns, Ordering::AcqRel);
    shared.latency_last_ns.store(latency_ns, Ordering::Release);
}

/// The writer thread's timing.
#[derive(Clone, Copy, Debug)]
struct Timing {
    period: Duration,
    watchdog: Option<Duration>,
    fade_in: Duration,
}

/// The fade-in scale at `now` of a fade that started at `from` (1 without a fade).
fn fade_factor(from: Option<Duration>, now: Duration, fade_in: Duration) -> f64 {
    match from {
        Some(from) if !fade_in.is_zero() => {
            (now.saturating_sub(from).as_secs_f64() / fade_in.as_secs_f64()).clamp(0.0, 1.0)
        }
        _ => 1.0,
    }
}

fn run<B: FfbBackend>(mut backend: B, shared: &Shared, timing: Timing) {
    // The wheel's latency path: as close to the sim thread's priority as allowed.
    crate::realtime_priority::raise_current_thread(
        crate::realtime_priority::FFB_WRITER_FIFO_PRIORITY,
    );
    let start = Instant::now();
    let period = timing.period;
    let mut dog = timing
        .watchdog
        .map(|timeout| Watchdog::new(timeout, WATCHDOG_RAMP));
    let mut last_seq = 0u64;
    let mut last_sent: Option<f64> = None;
    let mut was_paused = false;
    // Where the fade-in after a pause started; `None` when none is in progress.
    let mut fade_from: Option<Duration> = None;
    let mut next = Instant::now();
    while !shared.quit.load(Ordering::Acquire) {
        let paused = shared.pause.load(Ordering::Acquire);
        let seq = shared.seq.load(Ordering::Acquire);
        let stored_at_ns = shared.stored_at_ns.load(Ordering::Acquire);
        let level = f64::from_bits(shared.level_bits.load(Ordering::Acquire));
        let now = start.elapsed();
        if was_paused && !paused {
            shared.paused_at_zero.store(false, Ordering::Release);
            fade_from = Some(now);
        }
        was_paused = paused;
        let fresh = seq != last_seq;
        if fresh {
            last_seq = seq;
            if let Some(d) = dog.as_mut() {
                d.feed(now);
            }
        }
        let fade = fade_factor(fade_from, now, timing.fade_in);
        if fade >= 1.0 {
            fade_from = None;
        }
        // Paused: exactly zero, whatever was stored.
        let out = if paused {
            0.0
        } else {
            let factor = dog.as_ref().map_or(1.0, |d| d.factor(now));
            sanitize_level(level) * factor * fade
        };
        if last_sent.is_none_or(|sent| sent.to_bits() != out.to_bits()) {
            shared.writes.fetch_add(1, Ordering::AcqRel);
            if backend.send_level(out).is_ok() {
                last_sent = Some(out);
                let done_ns = shared.now_ns();
                shared.successes.fetch_add(1, Ordering::AcqRel);
                shared
                    .last_success_ns
                    .store(done_ns.saturating_add(1), Ordering::Release);
                if fresh {
                    record_latency(shared, done_ns.saturating_sub(stored_at_ns));
                }
            } else {
                shared.failed.store(true, Ordering::Release);
                last_sent = None;
            }
        }
        if paused && last_sent.is_some_and(|sent| sent.to_bits() == 0f64.to_bits()) {
            shared.paused_at_zero.store(true, Ordering::Release);
        }
        // Finite-duration effects are renewed here, even while the level stays the same.
        if backend.refresh(now).is_err() {
            shared.failed.store(true, Ordering::Release);
        }
        next += period;
        let wake = Instant::now();
        if next < wake {
            // Behind (a slow write): do not burst to catch up, just carry on.
            next = wake;
        }
        std::thread::park_timeout(next - wake);
    }
    let _ = backend.send_level(0.0);
    let _ = backend.stop();
    // Closing the device (dropping the backend) happens before `done` is set by the caller.
    drop(backend);
}

//! Store-to-device delivery of force feedback, per backend: the sim thread stores a level in
//! the writer (an atomic store), the writer thread hands it to the backend at the backend's
//! rate. Each backend is wrapped so that every command it receives is timestamped.
//!
//! What is asserted is delivery, not speed: every stored level reaches the device, and the
//! writer's own latency hook and success counters agree with what the device received. Each
//! level is stored only after the previous one arrived, because the writer is
//! latest-value-wins: on a loaded machine a level stored while the writer thread waits for
//! the CPU is rightly replaced by the next one, and a test that stored on a fixed clock
//! would then fail for the scheduler's sake (it did, on CI). The latency itself is measured
//! by `cargo bench -p gripline-tests --bench input_ffb -- store_to_write`; `--nocapture`
//! here prints this run's figures for information only.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use gripline_devices::ffb::evdev_ff::{EvdevFfBackend, EvdevFfConfig, RecordingFfDevice};
use gripline_input::ffb::backend::{FfbBackend, FfbError};
use gripline_input::ffb::protocol::RecordingHid;
use gripline_input::ffb::protocol::logitech::LogitechClassicBackend;
use gripline_input::ffb::recording::{Clock, RecordingBackend};
use gripline_input::ffb::writer::{FfbWriter, WriterConfig};

/// How long a stored level may take to arrive before the test calls it lost: far beyond any
/// scheduling delay, so only a writer that drops or never sends a level fails.
const LOST_AFTER: Duration = Duration::from_secs(10);

/// Forwards to `inner`, timestamping each level it receives.
struct Timed<B> {
    inner: B,
    log: Arc<Mutex<Vec<(Instant, f64)>>>,
}

impl<B: FfbBackend> FfbBackend for Timed<B> {
    fn max_rate_hz(&self) -> f64 {
        self.inner.max_rate_hz()
    }
    fn send_level(&mut self, level: f64) -> Result<(), FfbError> {
        self.inner.send_level(level)?;
        if let Ok(mut log) = self.log.lock() {
            log.push((Instant::now(), level));
        }
        Ok(())
    }
    fn stop(&mut self) -> Result<(), FfbError> {
        self.inner.stop()
    }
    fn refresh(&mut self, now: Duration) -> Result<(), FfbError> {
        self.inner.refresh(now)
    }
}

/// Polls `arrival` until it answers, or panics naming `level` after [`LOST_AFTER`].
fn wait_for<T>(level: f64, mut arrival: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + LOST_AFTER;
    loop {
        if let Some(found) = arrival() {
            return found;
        }
        assert!(
            Instant::now() < deadline,
            "level {level} never reached the device"
        );
        std::thread::sleep(Duration::from_micros(200));
    }
}

/// Median and worst (µs) of `values`.
fn median_and_max(mut values: Vec<f64>) -> (f64, f64) {
    values.sort_by(f64::total_cmp);
    (values[values.len() / 2], values[values.len() - 1])
}

/// Stores 60 distinct levels in a writer in front of `backend`, each after the previous one
/// arrived; returns the median and worst store-to-device time (µs), for information.
fn deliver_all<B: FfbBackend + Send + 'static>(backend: B) -> (f64, f64) {
    let log = Arc::new(Mutex::new(Vec::new()));
    let writer = FfbWriter::spawn(
        Timed {
            inner: backend,
            log: Arc::clone(&log),
        },
        WriterConfig {
            watchdog: None,
            ..WriterConfig::default()
        },
    )
    .expect("writer");
    let mut latencies = Vec::new();
    for i in 1..=60u32 {
        let level = f64::from(i) / 100.0;
        let at = Instant::now();
        writer.store(level);
        let arrived = wait_for(level, || {
            log.lock()
                .expect("log")
                .iter()
                .find(|(t, l)| *t >= at && (l - level).abs() < 1e-9)
                .map(|&(t, _)| t)
        });
        latencies.push(arrived.duration_since(at).as_secs_f64() * 1e6);
        // Vary the phase against the writer's period.
        std::thread::sleep(Duration::from_micros(700 * u64::from(i % 5)));
    }
    writer.shutdown();
    median_and_max(latencies)
}

#[test]
fn every_level_reaches_each_backend() {
    let evdev = EvdevFfBackend::start(
        RecordingFfDevice::default(),
        EvdevFfConfig {
            rate_hz: 500.0,
            ..EvdevFfConfig::default()
        },
    )
    .expect("evdev backend");
    let logitech = LogitechClassicBackend::new(RecordingHid::default(), 500.0).expect("logitech");
    for (name, (median, worst)) in [
        ("evdev FF_CONSTANT @500 Hz", deliver_all(evdev)),
        ("Logitech classic @500 Hz", deliver_all(logitech)),
    ] {
        eprintln!("store-to-device time, {name}: median {median:.0} µs, worst {worst:.0} µs");
        assert!(
            median.is_finite() && worst >= median,
            "{name}: {median} {worst}"
        );
    }
}

/// The writer at `rate_hz` in front of a recording backend stamped with real time: 100
/// distinct levels, each stored after the previous one arrived; the writer's own
/// `store_to_write_latency` hook and success counters are checked against the recording.
fn hook_agrees_with_the_recording(rate_hz: f64) {
    let epoch = Instant::now();
    let backend = RecordingBackend::new(Clock::Real(epoch)).with_rate(rate_hz);
    let recording = backend.recording();
    let writer = FfbWriter::spawn(
        backend,
        WriterConfig {
            watchdog: None,
            ..WriterConfig::default()
        },
    )
    .expect("writer");
    let mut latencies = Vec::new();
    for i in 1..=100u32 {
        let level = f64::from(i) / 200.0;
        let at = epoch.elapsed();
        writer.store(level);
        let arrived = wait_for(level, || {
            recording
                .levels()
                .iter()
                .find(|(t, l)| *t >= at && (l - level).abs() < 1e-12)
                .map(|&(t, _)| t)
        });
        latencies.push(arrived.saturating_sub(at).as_secs_f64() * 1e6);
        std::thread::sleep(Duration::from_micros(700 * u64::from(i % 5)));
    }
    let hook = writer.store_to_write_latency();
    let successes = writer.successful_writes();
    let last = writer.last_successful_write();
    writer.shutdown();
    let (median, worst) = median_and_max(latencies);
    // Every stored level was written (each waited for its predecessor), so the hook counted
    // each one, and the writer counted a success for each.
    assert_eq!(hook.samples, 100, "{hook:?}");
    assert!(
        hook.max >= hook.mean && hook.mean > Duration::ZERO,
        "{hook:?}"
    );
    assert!(successes >= 100, "{successes}");
    assert!(last.is_some_and(|t| t >= epoch));
    eprintln!(
        "store-to-write time, recording backend @{rate_hz} Hz: median {median:.0} µs, \
         worst {worst:.0} µs (writer hook: mean {} µs, worst {} µs over {} levels)",
        hook.mean.as_micros(),
        hook.max.as_micros(),
        hook.samples
    );
}

#[test]
fn the_writers_latency_hook_counts_every_delivered_level() {
    for rate_hz in [1000.0, 500.0] {
        hook_agrees_with_the_recording(rate_hz);
    }
}

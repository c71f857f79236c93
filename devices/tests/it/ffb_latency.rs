//! Store-to-device latency of force feedback, per backend: the sim thread stores a level in
//! the writer (an atomic store), the writer thread hands it to the backend at the backend's
//! rate. Each backend is wrapped so that every command it receives is timestamped; the test
//! stores 60 distinct levels 15 ms apart and measures, for each, the time until the backend
//! received it.
//!
//! Run with `--nocapture` to see the figures (median and worst per backend). The assertion is
//! deliberately generous (a loaded CI machine must not fail it): every level arrives, within
//! 50 ms; the figures, not the bound, are what the note reports.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use gripline_devices::ffb::evdev_ff::{EvdevFfBackend, EvdevFfConfig, RecordingFfDevice};
use gripline_input::ffb::backend::{FfbBackend, FfbError};
use gripline_input::ffb::protocol::RecordingHid;
use gripline_input::ffb::protocol::logitech::LogitechClassicBackend;
use gripline_input::ffb::recording::{Clock, RecordingBackend};
use gripline_input::ffb::writer::{FfbWriter, WriterConfig};

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

/// Median and worst latency (µs) of `backend` behind a writer.
fn measure<B: FfbBackend + Send + 'static>(backend: B) -> (f64, f64) {
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
    let mut stored = Vec::new();
    for i in 1..=60 {
        let level = f64::from(i) / 100.0;
        stored.push((Instant::now(), level));
        writer.store(level);
        std::thread::sleep(Duration::from_millis(15));
    }
    writer.shutdown();
    let received = log.lock().expect("log").clone();
    let mut latencies: Vec<f64> = stored
        .iter()
        .map(|(at, level)| {
            let arrived = received
                .iter()
                .find(|(t, l)| *t >= *at && (l - level).abs() < 1e-9)
                .map_or_else(
                    || panic!("level {level} never reached the device"),
                    |(t, _)| *t,
                );
            arrived.duration_since(*at).as_secs_f64() * 1e6
        })
        .collect();
    latencies.sort_by(f64::total_cmp);
    (
        latencies[latencies.len() / 2],
        latencies[latencies.len() - 1],
    )
}

#[test]
fn every_level_reaches_each_backend_within_a_writer_period_or_so() {
    let evdev = EvdevFfBackend::start(
        RecordingFfDevice::default(),
        EvdevFfConfig {
            rate_hz: 500.0,
            ..EvdevFfConfig::default()
        },
    )
    .expect("evdev backend");
    let logitech = LogitechClassicBackend::new(RecordingHid::default(), 500.0).expect("logitech");
    let mut report = Vec::new();
    for (name, (median, worst)) in [
        ("evdev FF_CONSTANT @500 Hz", measure(evdev)),
        ("Logitech classic @500 Hz", measure(logitech)),
    ] {
        eprintln!("store-to-device latency, {name}: median {median:.0} µs, worst {worst:.0} µs");
        report.push((name, median, worst));
    }
    for (name, median, worst) in report {
        assert!(
            median < 50_000.0 && worst < 50_000.0,
            "{name}: {median} {worst}"
        );
    }
}

/// Median and worst (µs) of `values`.
fn median_and_max(mut values: Vec<f64>) -> (f64, f64) {
    values.sort_by(f64::total_cmp);
    (values[values.len() / 2], values[values.len() - 1])
}

/// The writer at `rate_hz` in front of a recording backend stamped with real time: 100
/// distinct levels stored 7 ms apart (not a multiple of the period), each one's latency from
/// its store to the backend's timestamp; the writer's own `store_to_write_latency` hook and
/// success counters are checked against the recording.
fn recorded_latency(rate_hz: f64) -> (f64, f64) {
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
    let mut stored = Vec::new();
    for i in 1..=100 {
        let level = f64::from(i) / 200.0;
        stored.push((epoch.elapsed(), level));
        writer.store(level);
        std::thread::sleep(Duration::from_millis(7));
    }
    let hook = writer.store_to_write_latency();
    let successes = writer.successful_writes();
    let last = writer.last_successful_write();
    writer.shutdown();
    let levels = recording.levels();
    let latencies: Vec<f64> = stored
        .iter()
        .map(|&(at, level)| {
            let arrived = levels
                .iter()
                .find(|(t, l)| *t >= at && (l - level).abs() < 1e-12)
                .map_or_else(
                    || panic!("level {level} never reached the device"),
                    |&(t, _)| t,
                );
            arrived.saturating_sub(at).as_secs_f64() * 1e6
        })
        .collect();
    // The hook saw the same writes: every stored level (7 ms apart, far slower than the
    // writer), a worst case no better than the recorded one minus the stamping, and a
    // success count and time for each.
    assert!(hook.samples >= 100, "{hook:?}");
    assert!(
        hook.max >= hook.mean && hook.max < Duration::from_millis(50),
        "{hook:?}"
    );
    assert!(successes >= 100, "{successes}");
    assert!(last.is_some_and(|t| t >= epoch));
    let (median, worst) = median_and_max(latencies);
    eprintln!(
        "store-to-write latency, recording backend @{rate_hz} Hz: median {median:.0} µs, \
         worst {worst:.0} µs (writer hook: mean {} µs, worst {} µs over {} levels)",
        hook.mean.as_micros(),
        hook.max.as_micros(),
        hook.samples
    );
    (median, worst)
}

#[test]
fn store_to_write_latency_at_the_writers_rate() {
    for rate_hz in [1000.0, 500.0] {
        let (median, worst) = recorded_latency(rate_hz);
        // Generous: a loaded machine must not fail this; the figures are the point.
        assert!(
            median < 50_000.0 && worst < 50_000.0,
            "{rate_hz}: {median} {worst}"
        );
    }
}

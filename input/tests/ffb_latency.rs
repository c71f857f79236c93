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

use gripline_input::ffb::backend::{FfbBackend, FfbError};
use gripline_input::ffb::evdev_ff::{EvdevFfBackend, EvdevFfConfig, RecordingFfDevice};
use gripline_input::ffb::protocol::RecordingHid;
use gripline_input::ffb::protocol::logitech::LogitechClassicBackend;
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

//! The latest-value-wins writer thread, against real time (generous bounds: the machines
//! that run these tests are small and busy).

// Levels pass through the writer unchanged, so exact comparisons are the point.
#![allow(clippy::float_cmp)]

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use gripline_input::ffb::backend::{FfbBackend, FfbError};
use gripline_input::ffb::recording::{Clock, Command, RecordingBackend};
use gripline_input::ffb::writer::{FfbWriter, WriterConfig};

fn wait_for(what: &str, mut ok: impl FnMut() -> bool) {
    let until = Instant::now() + Duration::from_secs(5);
    while !ok() {
        assert!(Instant::now() < until, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn no_watchdog() -> WriterConfig {
    WriterConfig {
        watchdog: None,
        ..WriterConfig::default()
    }
}

#[test]
fn slow_device_never_blocks_store_and_the_newest_value_wins() {
    // Every write takes 20 ms: 10 000 blocking writes would take 200 s.
    let backend =
        RecordingBackend::new(Clock::Real(Instant::now())).with_delay(Duration::from_millis(20));
    let rec = backend.recording();
    let writer = FfbWriter::spawn(backend, no_watchdog()).unwrap();
    let start = Instant::now();
    let mut newest = 0.0;
    for i in 0..10_000 {
        newest = f64::from(i % 2000) / 2000.0 - 0.5;
        writer.store(newest);
    }
    let spent = start.elapsed();
    assert!(spent < Duration::from_secs(1), "store blocked: {spent:?}");
    wait_for("the newest value", || {
        rec.last_level().map(f64::to_bits) == Some(newest.to_bits())
    });
    let writes = writer.writes();
    assert!(
        writes < 200,
        "values were skipped, not queued: {writes} writes"
    );
    writer.shutdown();
    let entries = rec.entries();
    let n = entries.len();
    assert_eq!(
        entries[n - 2].command,
        Command::Level(0.0),
        "zero on shutdown"
    );
    assert_eq!(entries[n - 1].command, Command::Stop);
}

#[test]
fn unchanged_values_are_not_rewritten() {
    let backend = RecordingBackend::new(Clock::Real(Instant::now())).with_rate(1000.0);
    let rec = backend.recording();
    let writer = FfbWriter::spawn(backend, no_watchdog()).unwrap();
    for _ in 0..50 {
        writer.store(0.25);
        std::thread::sleep(Duration::from_millis(1));
    }
    wait_for("0.25", || rec.last_level() == Some(0.25));
    let count = rec.levels().iter().filter(|&&(_, l)| l == 0.25).count();
    assert_eq!(count, 1, "a held value is written once");
    drop(writer);
}

#[test]
fn writer_watchdog_zeroes_when_the_sim_stalls() {
    let backend = RecordingBackend::new(Clock::Real(Instant::now())).with_rate(1000.0);
    let rec = backend.recording();
    let writer = FfbWriter::spawn(backend, WriterConfig::default()).unwrap();
    writer.store(0.8);
    wait_for("0.8", || rec.last_level() == Some(0.8));
    // No more stores: within the 50 ms timeout plus the 20 ms ramp the output is zero.
    wait_for("zero", || {
        rec.last_level().map(f64::to_bits) == Some(0f64.to_bits())
    });
    let levels = rec.levels();
    let (t_high, _) = *levels.iter().find(|&&(_, l)| l == 0.8).unwrap();
    let (t_zero, _) = *levels.last().unwrap();
    assert!(
        t_zero.saturating_sub(t_high) >= Duration::from_millis(50),
        "held for the timeout first: {:?}",
        t_zero.saturating_sub(t_high)
    );
    let ramp_down: Vec<f64> = levels
        .iter()
        .skip_while(|&&(_, l)| l != 0.8)
        .map(|&(_, l)| l)
        .collect();
    assert!(
        ramp_down.windows(2).all(|w| w[1] <= w[0]),
        "ramps down: {ramp_down:?}"
    );
    drop(writer);
}

#[test]
fn failures_are_reported_to_the_sim_side() {
    let backend = RecordingBackend::new(Clock::Real(Instant::now()));
    let fail = backend.failure_switch();
    let mut writer = FfbWriter::spawn(backend, no_watchdog()).unwrap();
    assert_eq!(writer.send_level(0.1), Ok(()));
    fail.store(true, Ordering::SeqCst);
    writer.store(0.2);
    wait_for("the failure", || writer.failed());
    assert_eq!(writer.send_level(0.3), Err(FfbError::WriterFailed));
}

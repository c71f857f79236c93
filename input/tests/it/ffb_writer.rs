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

#[test]
fn an_io_error_is_reported_as_needing_a_reconnect_like_an_unplug() {
    // A write the operating system fails while the device is still listed (EIO, EPIPE...).
    let backend = RecordingBackend::new(Clock::Real(Instant::now()))
        .with_failure(FfbError::Io("Input/output error (os error 5)".to_owned()));
    let fail = backend.failure_switch();
    let mut writer = FfbWriter::spawn(backend, no_watchdog()).unwrap();
    assert_eq!(writer.send_level(0.1), Ok(()));
    fail.store(true, Ordering::SeqCst);
    writer.store(0.2);
    wait_for("the failure", || writer.failed());
    let error = writer.send_level(0.3).expect_err("reported");
    assert_eq!(error, FfbError::WriterFailed);
    assert!(error.needs_reconnect(), "reopened like an unplug");
    assert!(!writer.emergency_stopped());
    // The connector closes it before opening the device again: it still ends at zero.
    fail.store(false, Ordering::SeqCst);
    let control = writer.control().unwrap();
    assert!(control.shutdown(Duration::from_secs(5)));
}

#[test]
fn the_emergency_stop_of_a_writer_fails_its_sends_with_a_distinct_error() {
    let backend = RecordingBackend::new(Clock::Real(Instant::now()));
    let rec = backend.recording();
    let mut writer = FfbWriter::spawn(backend, no_watchdog()).unwrap();
    assert_eq!(writer.send_level(0.7), Ok(()));
    wait_for("0.7", || rec.last_level() == Some(0.7));
    let control = writer.control().unwrap();
    // A normal shutdown (the connector closing it) is not an emergency.
    let mut closed = FfbWriter::spawn(
        RecordingBackend::new(Clock::Real(Instant::now())),
        no_watchdog(),
    )
    .unwrap();
    assert!(closed.control().unwrap().shutdown(Duration::from_secs(5)));
    assert_eq!(closed.send_level(0.5), Ok(()));

    assert!(control.emergency_stop(Duration::from_secs(5)));
    assert!(control.is_emergency_stopped());
    let entries = rec.entries();
    let n = entries.len();
    assert_eq!(entries[n - 2].command, Command::Level(0.0));
    assert_eq!(entries[n - 1].command, Command::Stop);
    let error = writer.send_level(0.7).expect_err("stopped");
    assert_eq!(error, FfbError::EmergencyStop);
    assert!(!error.needs_reconnect(), "only the user turns it back on");
    std::thread::sleep(Duration::from_millis(20));
    assert_eq!(
        rec.entries().len(),
        n,
        "nothing reaches the device any more"
    );
}

#[test]
fn a_paused_writer_holds_zero_and_fades_back_in_on_resume() {
    let backend = RecordingBackend::new(Clock::Real(Instant::now())).with_rate(1000.0);
    let rec = backend.recording();
    let writer = FfbWriter::spawn(
        backend,
        WriterConfig {
            fade_in: Duration::from_millis(200),
            ..no_watchdog()
        },
    )
    .unwrap();
    let control = writer.control().unwrap();
    writer.store(0.8);
    wait_for("0.8", || rec.last_level() == Some(0.8));

    assert!(control.pause(Duration::from_secs(5)), "confirmed at zero");
    assert!(control.is_paused_at_zero());
    assert_eq!(rec.last_level().map(f64::to_bits), Some(0f64.to_bits()));
    // The sim keeps storing (it does not know yet): nothing passes, and the device is not
    // stopped for good.
    let paused_at = rec.entries().len();
    for _ in 0..30 {
        writer.store(-0.9);
        std::thread::sleep(Duration::from_millis(1));
    }
    let held = rec.entries();
    assert!(
        held[paused_at..]
            .iter()
            .all(|r| r.command == Command::Level(0.0)),
        "{:?}",
        &held[paused_at..]
    );
    assert!(!held.iter().any(|r| r.command == Command::Stop));

    control.resume();
    wait_for("-0.9", || rec.last_level() == Some(-0.9));
    assert!(!control.is_paused_at_zero());
    let after: Vec<(Duration, f64)> = rec.levels()[held.len()..].to_vec();
    assert!(after[0].1 > -0.25 * 0.9, "no step back to full: {after:?}");
    assert!(
        after.windows(2).all(|w| w[1].1 <= w[0].1),
        "the magnitude rises: {after:?}"
    );
    let took = after.last().unwrap().0.saturating_sub(after[0].0);
    assert!(
        took >= Duration::from_millis(150),
        "over the 200 ms fade-in: {took:?}"
    );
    drop(writer);
}

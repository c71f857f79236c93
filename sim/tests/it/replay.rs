//! Replays: recorded drives re-simulate bit for bit (the headless runner's and the real-time
//! core's), and every kind of bad file gives a clear error, never a panic.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use gripline_formats::vehicle_sound::SoundParams;
use gripline_input::settings::bindings::Bindings;
use gripline_input::settings::input_codes::key;
use gripline_physics::powertrain::GearboxMode;
use gripline_physics::vehicle::{AidParams, Snapshot, Vehicle};
use gripline_sim::headless::{self, HeadlessOptions, ReplayOptions};
use gripline_sim::observer::TickObserver;
use gripline_sim::realtime::commands::Command;
use gripline_sim::realtime::rig::Rig;
use gripline_sim::realtime::sim_core::{SimCore, core_rings};
use gripline_sim::realtime::stats::SharedStats;
use gripline_sim::replay::codec::state_hash;
use gripline_sim::replay::{
    Overflow, ReplayError, ReplayFile, ReplayHeader, ReplayPlayer, start_recording,
};
use gripline_sim::session::Session;

use crate::support::full_check::full_check;

/// Collects the exact state hash of every tick of a headless run.
struct Hashes(std::sync::mpsc::Sender<u64>);

impl TickObserver for Hashes {
    fn start(&mut self, _: &Vehicle, _sound: &SoundParams, _: f64) -> Result<()> {
        Ok(())
    }
    fn tick(&mut self, s: &Snapshot, _: f64, _: bool) -> Result<()> {
        let _ = self.0.send(state_hash(s));
        Ok(())
    }
}

/// Plays `file` and returns every tick's state hash.
fn replayed_hashes(file: &Path) -> (Vec<u64>, ReplayPlayer) {
    let file = ReplayFile::open(file).expect("a complete replay");
    let mut player = ReplayPlayer::open(&file).expect("its car and track load");
    assert!(player.mismatches().is_empty(), "{:?}", player.mismatches());
    let mut hashes = Vec::new();
    while let Some(_in_world) = player.step().expect("undamaged records") {
        hashes.push(state_hash(player.session().snapshot()));
    }
    (hashes, player)
}

fn laps_replay(dir: &Path, seconds: f64) -> (PathBuf, PathBuf, Vec<u64>) {
    let replay = dir.join("laps.gripline-replay");
    let csv = dir.join("laps.csv");
    let (tx, rx) = std::sync::mpsc::channel();
    let options = HeadlessOptions {
        vehicle: "corvette-c5".into(),
        scenario: "laps".into(),
        duration: Some(seconds),
        out: Some(csv.clone()),
        decimate: 1,
        record: Some(replay.clone()),
        ..HeadlessOptions::default()
    };
    headless::run_observed(&options, Some(Box::new(Hashes(tx)))).expect("the laps run");
    (replay, csv, rx.try_iter().collect())
}

/// Five minutes on the circuit in the full check, 150 s (past the first lap) in the default
/// one (CI time: three runs of it, some 25 s in a dev build at five minutes; the first lap ends
/// after some 130 s): the replay re-simulates every step (the `laps` procedure's autopilot) to
/// the same bits, and `gripline replay --out` writes the same telemetry file byte for byte.
#[test]
fn a_long_drive_replays_bit_for_bit() {
    let (steps, laps) = if full_check() {
        (300_000usize, 2)
    } else {
        (150_000, 1)
    };
    let seconds = steps as f64 / 1000.0;
    let dir = tempfile::tempdir().expect("temp dir");
    let (replay, csv, recorded) = laps_replay(dir.path(), seconds);
    // The procedure settles the car for half a second, then drives `seconds`.
    assert!(recorded.len() >= steps, "{}", recorded.len());
    let file = ReplayFile::open(&replay).expect("complete");
    assert_eq!(file.ticks, recorded.len() as u64);
    assert!(file.duration_s >= seconds, "{}", file.duration_s);
    // Bounded: the autopilot changes its controls every tick, 43 bytes a step.
    let bytes = std::fs::metadata(&replay).expect("file").len();
    assert!(bytes < steps as u64 * 45, "{bytes} bytes");

    let (replayed, player) = replayed_hashes(&replay);
    assert_eq!(replayed.len(), recorded.len());
    let first_difference = replayed.iter().zip(&recorded).position(|(a, b)| a != b);
    assert_eq!(first_difference, None, "the re-simulation differs");
    assert_eq!(player.diverged_at_tick(), None);
    assert!(player.session().lap_times().laps_completed >= laps);

    let again = dir.path().join("replayed.csv");
    let summary = headless::replay(&ReplayOptions {
        file: replay,
        out: Some(again.clone()),
        decimate: 1,
        force: false,
    })
    .expect("replays");
    assert_eq!(summary["reproduced"], true);
    assert_eq!(summary["ticks"], recorded.len());
    let (a, b) = (std::fs::read(&csv).unwrap(), std::fs::read(&again).unwrap());
    assert!(a.len() > 1_000_000);
    assert!(a == b, "the telemetry files differ");
}

/// Every procedure's session changes (aids, a rolling start, neutral, a held gearbox mode,
/// the rate) are in the replay: braking with ABS on and off, coast-down in neutral, and the
/// top-speed run that holds top gear, each at its own rate, re-simulate exactly.
#[test]
fn procedures_that_change_the_car_replay_exactly() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (scenario, rate_hz) in [
        ("braking", None),
        ("coastdown", Some(500.0)),
        ("scripted-brake-turn", Some(2000.0)),
    ] {
        let replay = dir.path().join(format!("{scenario}.gripline-replay"));
        let (tx, rx) = std::sync::mpsc::channel();
        let options = HeadlessOptions {
            vehicle: "corvette-c5".into(),
            scenario: scenario.into(),
            rate_hz,
            decimate: 1,
            record: Some(replay.clone()),
            ..HeadlessOptions::default()
        };
        headless::run_observed(&options, Some(Box::new(Hashes(tx)))).expect("the run");
        let recorded: Vec<u64> = rx.try_iter().collect();
        let (replayed, player) = replayed_hashes(&replay);
        assert_eq!(replayed.len(), recorded.len(), "{scenario}");
        assert!(
            replayed == recorded,
            "{scenario}: the re-simulation differs"
        );
        assert_eq!(player.diverged_at_tick(), None, "{scenario}");
        let step = player.session().step_s();
        let expected = rate_hz.map_or(0.001, |hz| 1.0 / hz);
        assert!((step - expected).abs() < 1e-15, "{scenario}: {step}");
    }
}

/// The window's path: the real-time core with the keyboard, resets, aids, gearbox modes and
/// pauses, recorded through the session's journal, replays to the same states.
#[test]
fn a_real_time_drive_with_commands_replays_exactly() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("window.gripline-replay");
    let mut session = Session::load("corvette-c5", "circuit").expect("assets");
    let header = ReplayHeader::for_session(&session);
    let (journal, handle) = start_recording(&path, &header, Overflow::Stop).expect("recording");
    session.record_to(Box::new(journal)).expect("fresh session");

    let mut rig = Rig::without_ffb(&Bindings::default());
    let mut keys = rig.add_keyboard();
    let (rings, mut ui) = core_rings(64);
    let mut core = SimCore::new(session, rig, rings, Arc::new(SharedStats::default()), false);
    let mut now = Duration::ZERO;
    let mut states = Vec::new();
    let mut run = |core: &mut SimCore, n: u64, states: &mut Vec<u64>| {
        for _ in 0..n {
            now += Duration::from_millis(1);
            let before = core.session().snapshot().time_s;
            core.tick(now);
            let after = core.session().snapshot();
            if after.time_s.to_bits() != before.to_bits() {
                states.push(state_hash(after));
            }
            while ui.snapshots.pop().is_some() {}
        }
    };
    keys.key(key::UP, true);
    run(&mut core, 3000, &mut states);
    keys.key(key::LEFT, true);
    run(&mut core, 1500, &mut states);
    ui.commands.push(Command::Pause).unwrap();
    run(&mut core, 500, &mut states);
    ui.commands.push(Command::Resume).unwrap();
    ui.commands
        .push(Command::SetAids(AidParams {
            abs_enabled: false,
            tc_enabled: false,
            ..AidParams::default()
        }))
        .unwrap();
    keys.key(key::LEFT, false);
    keys.key(key::UP, false);
    keys.key(key::DOWN, true);
    run(&mut core, 1500, &mut states);
    ui.commands.push(Command::Recover).unwrap();
    run(&mut core, 500, &mut states);
    ui.commands.push(Command::Reset).unwrap();
    ui.commands
        .push(Command::SetGearboxMode(GearboxMode::Sequential))
        .unwrap();
    keys.key(key::DOWN, false);
    keys.key(key::UP, true);
    run(&mut core, 2000, &mut states);
    ui.commands.push(Command::SetAutopilot(true)).unwrap();
    run(&mut core, 3000, &mut states);
    drop(core);
    let ticks = handle.finish().expect("written");
    assert_eq!(ticks, states.len() as u64);

    let (replayed, player) = replayed_hashes(&path);
    assert_eq!(replayed.len(), states.len());
    assert!(replayed == states, "the re-simulation differs");
    assert_eq!(player.diverged_at_tick(), None);
}

#[test]
fn a_recording_saved_while_it_goes_on_is_complete() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("last-session.gripline-replay");
    let mut session = Session::load("corvette-c5", "flat").expect("assets");
    let header = ReplayHeader::for_session(&session);
    let (journal, handle) = start_recording(&path, &header, Overflow::Stop).expect("recording");
    session.record_to(Box::new(journal)).expect("fresh");
    let drive = gripline_physics::controls::Controls {
        throttle: 0.5,
        ..gripline_physics::controls::Controls::default()
    };
    for _ in 0..1500 {
        session.step(&drive);
    }
    // Let the writer drain the ring, then save a copy mid-drive.
    std::thread::sleep(Duration::from_millis(100));
    let saved = handle
        .save_as(&dir.path().join("saved.gripline-replay"))
        .expect("saved");
    assert_eq!(saved.ticks, 1500);
    for _ in 0..500 {
        session.step(&drive);
    }
    drop(session);
    assert_eq!(handle.finish().expect("finished"), 2000);
    let copy = ReplayFile::open(&saved.path).expect("the copy is complete");
    assert_eq!(copy.ticks, 1500);
    assert_eq!(ReplayFile::open(&path).expect("complete").ticks, 2000);
    let (hashes, _) = replayed_hashes(&saved.path);
    assert_eq!(hashes.len(), 1500);
}

#[test]
fn a_replay_must_start_with_the_session() {
    let mut session = Session::load("corvette-c5", "flat").expect("assets");
    session.step(&gripline_physics::controls::Controls::default());
    let dir = tempfile::tempdir().expect("temp dir");
    let header = ReplayHeader::for_session(&session);
    let (journal, _handle) =
        start_recording(&dir.path().join("x"), &header, Overflow::Stop).expect("recording");
    let err = session.record_to(Box::new(journal)).unwrap_err();
    assert!(
        err.to_string().contains("before the session first changes"),
        "{err}"
    );
}

/// A short complete replay's bytes.
fn small_replay(dir: &Path) -> PathBuf {
    let replay = dir.join("small.gripline-replay");
    let options = HeadlessOptions {
        vehicle: "corvette-c5".into(),
        scenario: "launch".into(),
        decimate: 1,
        record: Some(replay.clone()),
        ..HeadlessOptions::default()
    };
    headless::run(&options).expect("the launch run");
    replay
}

#[test]
fn truncated_garbage_and_future_files_give_clear_errors() {
    let dir = tempfile::tempdir().expect("temp dir");
    let replay = small_replay(dir.path());
    let bytes = std::fs::read(&replay).unwrap();
    let ticks = ReplayFile::open(&replay).unwrap().ticks;
    let at = |name: &str, content: &[u8]| {
        let p = dir.path().join(name);
        std::fs::write(&p, content).unwrap();
        p
    };

    // Garbage and empty files.
    for (name, content) in [
        ("empty", &b""[..]),
        ("text", &b"hello, this is not a replay at all....."[..]),
        ("png", &b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"[..]),
    ] {
        let err = ReplayFile::open(&at(name, content)).unwrap_err();
        assert!(matches!(err, ReplayError::NotAReplay(_)), "{name}: {err}");
        assert!(err.to_string().contains("not a Gripline replay"), "{err}");
    }

    // A future version.
    let mut future = bytes.clone();
    future[16..20].copy_from_slice(&99u32.to_le_bytes());
    let err = ReplayFile::open(&at("future", &future)).unwrap_err();
    assert!(
        matches!(err, ReplayError::FutureVersion { found: 99, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("version 99"), "{err}");

    // Cut short in the body: an incomplete recording, the intact part playable.
    let cut = at("cut", &bytes[..bytes.len() * 2 / 3]);
    let err = ReplayFile::open(&cut).unwrap_err();
    let ReplayError::Truncated { intact_ticks, .. } = err else {
        panic!("{err}");
    };
    assert!(intact_ticks > 0 && intact_ticks < ticks, "{intact_ticks}");
    let intact = ReplayFile::open_intact(&cut).expect("the intact part");
    assert!(!intact.complete);
    let mut player = ReplayPlayer::open(&intact).expect("loads");
    let mut played = 0;
    while player.step().expect("records").is_some() {
        played += 1;
    }
    assert_eq!(played, intact_ticks);
    let forced = headless::replay(&ReplayOptions {
        file: cut.clone(),
        force: true,
        decimate: 1,
        ..ReplayOptions::default()
    })
    .expect("forced play");
    assert_eq!(forced["complete"], false);
    let refused = headless::replay(&ReplayOptions {
        file: cut,
        decimate: 1,
        ..ReplayOptions::default()
    })
    .unwrap_err();
    assert!(format!("{refused:#}").contains("incomplete"), "{refused:#}");

    // A changed byte in the body: damaged (checksum or record).
    let mut flipped = bytes.clone();
    let i = bytes.len() / 2;
    flipped[i] ^= 0x40;
    let err = ReplayFile::open(&at("flipped", &flipped)).unwrap_err();
    assert!(
        matches!(err, ReplayError::Corrupt { .. }),
        "a flipped byte: {err}"
    );

    // Every cut and many byte changes: an error or a replay, never a panic.
    let header_end = 24 + u32::from_le_bytes(bytes[20..24].try_into().unwrap()) as usize;
    let step = (bytes.len() / 400).max(1);
    // (Playing loads the car and track each time: every 40th file only.)
    for (n, cut_at) in (0..bytes.len())
        .step_by(step)
        .chain(0..header_end + 50)
        .enumerate()
    {
        let p = at("fuzz", &bytes[..cut_at]);
        let _ = ReplayFile::open(&p);
        if let Ok(f) = ReplayFile::open_intact(&p)
            && n % 40 == 0
            && let Ok(mut player) = ReplayPlayer::open(&f)
        {
            while let Ok(Some(_)) = player.step() {}
        }
    }
    for (n, i) in (0..bytes.len()).step_by(step).enumerate() {
        let mut changed = bytes.clone();
        changed[i] = changed[i].wrapping_add(1 + u8::try_from(n % 200).unwrap_or(1));
        let p = at("fuzz", &changed);
        let _ = ReplayFile::open(&p);
        if let Ok(f) = ReplayFile::open_intact(&p)
            && i > header_end
            && n % 40 == 0
            && let Ok(mut player) = ReplayPlayer::open(&f)
        {
            for _ in 0..2000 {
                match player.step() {
                    Ok(Some(_)) => {}
                    _ => break,
                }
            }
        }
    }
}

/// A replay recorded with a car file that has changed since says so, refuses to play
/// without `force`, and with it plays and reports where it diverged.
#[test]
fn a_changed_car_file_is_named_and_played_only_when_forced() {
    let dir = tempfile::tempdir().expect("temp dir");
    let assets = gripline_formats::assets::assets_dir().expect("assets");
    let car = dir.path().join("my-c5.ron");
    let original = std::fs::read_to_string(assets.join("vehicles/corvette-c5.ron")).unwrap();
    std::fs::write(&car, &original).unwrap();
    let replay = dir.path().join("mine.gripline-replay");
    let options = HeadlessOptions {
        vehicle: car.display().to_string(),
        scenario: "launch".into(),
        decimate: 1,
        record: Some(replay.clone()),
        ..HeadlessOptions::default()
    };
    headless::run(&options).expect("the run");
    // A car 50 kg heavier.
    let heavier = original.replacen("mass_kg: 1547.0", "mass_kg: 1597.0", 1);
    assert_ne!(heavier, original, "the car file has a mass");
    std::fs::write(&car, heavier).unwrap();

    let file = ReplayFile::open(&replay).expect("complete");
    let player = ReplayPlayer::open(&file).expect("loads");
    assert_eq!(player.mismatches().len(), 1, "{:?}", player.mismatches());
    assert!(
        player.mismatches()[0].contains("car files"),
        "{:?}",
        player.mismatches()
    );
    let options = ReplayOptions {
        file: replay,
        decimate: 1,
        ..ReplayOptions::default()
    };
    let err = headless::replay(&options).unwrap_err();
    assert!(err.to_string().contains("--force"), "{err}");
    let forced = headless::replay(&ReplayOptions {
        force: true,
        ..options
    })
    .expect("forced");
    assert_eq!(forced["reproduced"], false);
    assert!(forced["diverged_at_s"].as_f64().expect("a time") <= 1.0);
}

/// A hot day: the run starts with the tyres at the air temperature, and its replay records
/// the weather and re-simulates it exactly.
#[test]
fn the_weather_is_recorded_and_replayed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let replay = dir.path().join("hot.gripline-replay");
    let (tx, rx) = std::sync::mpsc::channel();
    let hot = gripline_physics::environment::Environment {
        ambient_temp_c: 35.0,
        track_temp_c: 50.0,
    };
    let options = HeadlessOptions {
        vehicle: "corvette-c5".into(),
        scenario: "launch".into(),
        decimate: 1,
        record: Some(replay.clone()),
        environment: Some(hot),
        ..HeadlessOptions::default()
    };
    headless::run_observed(&options, Some(Box::new(Hashes(tx)))).expect("the run");
    let recorded: Vec<u64> = rx.try_iter().collect();
    let file = ReplayFile::open(&replay).expect("complete");
    assert_eq!(file.header.environment, hot);
    let mut player = ReplayPlayer::open(&file).expect("loads");
    assert_eq!(player.session().environment(), hot);
    let first = player.step().expect("records").expect("a step");
    assert!(first);
    let tread = player.session().snapshot().wheels[0].tread_temp_c;
    assert!(
        (tread - 35.0).abs() < 0.1,
        "the tyres start at the air temperature: {tread}"
    );
    let (replayed, player) = replayed_hashes(&replay);
    assert!(replayed == recorded, "the re-simulation differs");
    assert_eq!(player.diverged_at_tick(), None);
    // The weather is chosen before the session starts.
    let mut s = Session::load("corvette-c5", "flat").expect("assets");
    s.step(&gripline_physics::controls::Controls::default());
    assert!(s.set_environment(hot).is_err());
}

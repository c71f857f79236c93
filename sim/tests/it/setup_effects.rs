//! Set-ups change what they should, in the right direction, in the session the window and
//! headless runs step (`Session::load_with_setup`, `gripline headless --setup`), and a
//! replay of a run in a set-up replays in it.

use std::path::{Path, PathBuf};

use gripline_physics::controls::Controls;
use gripline_physics::powertrain::GearboxMode;
use gripline_physics::vehicle::AidParams;
use gripline_sim::headless::{self, HeadlessOptions, ReplayOptions};
use gripline_sim::replay::{ReplayFile, ReplayPlayer};
use gripline_sim::session::Session;

fn setup_file(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(format!("{name}.ron"));
    std::fs::write(&path, text).unwrap();
    path
}

/// Which axle's wheel locks first (slip ratio below -0.9) in a stop from 100 km/h with ABS
/// off, the brake pedal pressed progressively to the floor over 1.5 s (as a driver finds the
/// limit), on the flat plane.
fn first_to_lock(setup: &Path) -> &'static str {
    let mut s = Session::load_with_setup("corvette-c5", "flat", Some(setup)).unwrap();
    assert!(s.warnings().is_empty(), "{:?}", s.warnings());
    s.set_aids(AidParams {
        abs_enabled: false,
        tc_enabled: false,
        ..AidParams::default()
    })
    .unwrap();
    s.set_forward_speed(100.0 / 3.6);
    for tick in 0..5000 {
        let brake = Controls {
            brake: (f64::from(tick) / 1500.0).min(1.0),
            ..Controls::default()
        };
        s.step(&brake);
        let w = &s.snapshot().wheels;
        if w[..2].iter().any(|w| w.slip_ratio < -0.9) {
            return "front";
        }
        if w[2..].iter().any(|w| w.slip_ratio < -0.9) {
            return "rear";
        }
    }
    "none"
}

#[test]
fn more_front_brake_bias_locks_the_front_wheels_first() {
    let dir = tempfile::tempdir().unwrap();
    let forward = setup_file(dir.path(), "forward", "(brake_bias_front: 0.75)");
    let rearward = setup_file(dir.path(), "rearward", "(brake_bias_front: 0.5)");
    // Under braking the load moves forward: with three quarters of the torque at the front
    // the fronts lock first; with half, the unloaded rears do.
    assert_eq!(first_to_lock(&forward), "front");
    assert_eq!(first_to_lock(&rearward), "rear");
}

fn steady_lat_g(setup: Option<PathBuf>) -> f64 {
    let summary = headless::run(&HeadlessOptions {
        vehicle: "corvette-c5".into(),
        scenario: "step-steer".into(),
        decimate: 1,
        setup,
        ..HeadlessOptions::default()
    })
    .unwrap();
    summary["metrics"]["steady_lat_g"].as_f64().unwrap()
}

#[test]
fn a_stiffer_front_anti_roll_bar_gives_more_understeer() {
    // The step steer holds 45° of steering wheel at 80 km/h: more understeer, less lateral
    // acceleration for the same steering. The C5's front bar is 25 000 N/m.
    let dir = tempfile::tempdir().unwrap();
    let soft = setup_file(
        dir.path(),
        "soft",
        "(front: (anti_roll_bar_n_per_m: 5000.0))",
    );
    let stiff = setup_file(
        dir.path(),
        "stiff",
        "(front: (anti_roll_bar_n_per_m: 75000.0))",
    );
    let (soft, stock, stiff) = (
        steady_lat_g(Some(soft)),
        steady_lat_g(None),
        steady_lat_g(Some(stiff)),
    );
    assert!(
        soft > stock + 0.01 && stock > stiff + 0.01,
        "lateral g: soft bar {soft:.3}, stock {stock:.3}, stiff {stiff:.3}"
    );
}

#[test]
fn a_front_tyre_of_less_grip_gives_more_understeer() {
    // The default friction table peaks at 0.85 (VR-Design Studio); the C5's own front tyre's data
    // at about 1.0 of the load: on the front axle it holds less lateral force at the same
    // steering, so the step steer settles at less lateral acceleration.
    let dir = tempfile::tempdir().unwrap();
    let table = setup_file(
        dir.path(),
        "table",
        r#"(front_tyre: "friction-table-default")"#,
    );
    let (stock, table) = (steady_lat_g(None), steady_lat_g(Some(table)));
    assert!(
        stock > table + 0.02,
        "lateral g: stock tyres {stock:.3}, friction table in front {table:.3}"
    );
}

/// The highest speed (m/s) the car reaches in `gear`, rolling from `from_kmh` at full
/// throttle for a minute on the flat plane.
fn speed_in_gear(setup: &Path, gear: i8, from_kmh: f64) -> f64 {
    let mut s = Session::load_with_setup("corvette-c5", "flat", Some(setup)).unwrap();
    assert!(s.warnings().is_empty(), "{:?}", s.warnings());
    s.set_powertrain_mode(GearboxMode::Sequential);
    s.set_gear(gear);
    s.set_forward_speed(from_kmh / 3.6);
    let floored = Controls {
        throttle: 1.0,
        ..Controls::default()
    };
    let mut top = 0.0f64;
    for _ in 0..60_000 {
        s.step(&floored);
        top = top.max(s.snapshot().speed_m_per_s);
    }
    top
}

#[test]
fn the_final_drive_moves_the_top_speed_the_way_gearing_says() {
    let dir = tempfile::tempdir().unwrap();
    let long = setup_file(dir.path(), "long", "(final_drive: 3.0)");
    let stock = setup_file(dir.path(), "stock", "()");
    let short = setup_file(dir.path(), "short", "(final_drive: 3.9)");
    // 4th (1.00) reaches the 6200 rpm limiter: its top speed is the limiter's,
    // v = ω_limiter r / (ratio · final drive), with the rear tyres' 0.339 m rolling radius
    // (within 3 %: the tyres slip and squat a little): a longer final drive raises it.
    let limiter = 6200.0 * std::f64::consts::TAU / 60.0;
    for (file, fd) in [(&long, 3.0), (&stock, 3.42)] {
        let v = speed_in_gear(file, 4, 150.0);
        let expected = limiter * 0.339 / fd;
        assert!(
            (v - expected).abs() < 0.03 * expected,
            "4th with {fd}: {:.1} km/h, the limiter gives {:.1}",
            v * 3.6,
            expected * 3.6
        );
    }
    // 6th (0.50) is an overdrive: at its top speed the engine is far below its power peak
    // and drag holds the car, so a shorter final drive brings the engine up to its power
    // and raises the top speed; a longer one lowers it.
    let (long6, stock6, short6) = (
        speed_in_gear(&long, 6, 200.0),
        speed_in_gear(&stock, 6, 200.0),
        speed_in_gear(&short, 6, 200.0),
    );
    assert!(
        short6 > stock6 + 1.0 && stock6 > long6 + 1.0,
        "6th: 3.9 {:.1}, 3.42 {:.1}, 3.0 {:.1} km/h",
        short6 * 3.6,
        stock6 * 3.6,
        long6 * 3.6
    );
}

#[test]
fn a_replay_runs_in_its_set_up_and_notices_a_changed_one() {
    let dir = tempfile::tempdir().unwrap();
    let setup = setup_file(
        dir.path(),
        "mine",
        "(brake_bias_front: 0.7, final_drive: 3.73)",
    );
    let replay = dir.path().join("r.gripline-replay");
    headless::run(&HeadlessOptions {
        vehicle: "corvette-c5".into(),
        scenario: "launch".into(),
        decimate: 1,
        setup: Some(setup.clone()),
        record: Some(replay.clone()),
        ..HeadlessOptions::default()
    })
    .unwrap();
    let file = ReplayFile::open(&replay).unwrap();
    let named = file
        .header
        .identity
        .setup
        .clone()
        .expect("the set-up is named");
    assert_eq!(named.name, "mine");
    let player = ReplayPlayer::open(&file).unwrap();
    assert!(player.mismatches().is_empty(), "{:?}", player.mismatches());
    let summary = headless::replay(&ReplayOptions {
        file: replay.clone(),
        decimate: 1,
        ..ReplayOptions::default()
    })
    .unwrap();
    assert_eq!(summary["reproduced"], true);

    std::fs::write(&setup, "(brake_bias_front: 0.7, final_drive: 3.15)").unwrap();
    let player = ReplayPlayer::open(&ReplayFile::open(&replay).unwrap()).unwrap();
    assert_eq!(player.mismatches().len(), 1, "{:?}", player.mismatches());
    assert!(
        player.mismatches()[0].contains("set-up"),
        "{:?}",
        player.mismatches()
    );
}

#[test]
fn out_of_range_and_broken_set_ups_say_so_and_the_car_still_drives() {
    let dir = tempfile::tempdir().unwrap();
    // The C5 file allows 0.5-0.75 front bias.
    let wild = setup_file(dir.path(), "wild", "(brake_bias_front: 0.95)");
    let s = Session::load_with_setup("corvette-c5", "flat", Some(&wild)).unwrap();
    assert!((s.vehicle().params().brakes.bias_front - 0.75).abs() < 1e-12);
    assert!(
        s.warnings()
            .iter()
            .any(|w| w.contains("outside 0.5 to 0.75")),
        "{:?}",
        s.warnings()
    );
    let broken = setup_file(dir.path(), "broken", "(brake_bias_front: ");
    let s = Session::load_with_setup("corvette-c5", "flat", Some(&broken)).unwrap();
    assert!((s.vehicle().params().brakes.bias_front - 0.62).abs() < 1e-12);
    assert!(
        s.warnings().iter().any(|w| w.contains("kept as")),
        "{:?}",
        s.warnings()
    );
    assert!(s.identity().setup.is_none());
}

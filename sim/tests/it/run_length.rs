//! `--duration` (issue 33): honoured by every scenario that runs for a time, refused with a
//! clear error by the measurement scenarios and when it is not a run length. Before, a
//! scripted scenario ignored it (`--duration 2` still simulated its own 6 s and the 0.5 s
//! settle before it).

use gripline_sim::headless::{self, HeadlessOptions};

fn options(scenario: &str, duration: f64) -> HeadlessOptions {
    HeadlessOptions {
        vehicle: "corvette-c5".into(),
        scenario: scenario.into(),
        duration: Some(duration),
        ..HeadlessOptions::default()
    }
}

#[test]
fn a_script_runs_for_the_duration_asked() {
    let summary = headless::run(&options("scripted-brake-turn", 2.0)).expect("runs");
    let simulated = summary["simulated_total_s"].as_f64().expect("a number");
    // The 2 s asked and the straight start's 0.5 s settle.
    assert!((simulated - 2.5).abs() < 0.002, "{simulated} s");
}

#[test]
fn a_measurement_or_a_bad_length_is_refused_by_name() {
    let err = headless::run(&options("launch", 2.0))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("--duration 2 s") && err.contains("ends by its own rule"),
        "{err}"
    );
    for bad in [0.0, -1.0, f64::NAN, 1e308, 90_000.0] {
        let err = headless::run(&options("laps", bad))
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("--duration") && err.contains("is not a run length"),
            "{bad}: {err}"
        );
    }
}

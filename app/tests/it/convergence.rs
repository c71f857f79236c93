//! Integration convergence: the road-test metrics of every shipped car at the real-time rate
//! (1 kHz) against a four times finer step (4 kHz), through `gripline headless --rate-hz`, as
//! a user runs it. Launch, braking, skidpad and step-steer figures must agree within 1 %; the
//! 500 Hz figures are printed beside them (run with `--nocapture` to see the table).

use std::path::Path;
use std::process::Command;

use serde_json::{Map, Value};

/// The scenarios compared.
const SCENARIOS: [&str; 4] = ["launch", "braking", "skidpad", "step-steer"];
/// Largest relative difference allowed between 1 kHz and 4 kHz.
const TOLERANCE: f64 = 0.01;

fn metrics(vehicle: &str, scenario: &str, rate_hz: u32) -> Map<String, Value> {
    let out = Command::new(env!("CARGO_BIN_EXE_gripline"))
        .args(["headless", "--vehicle", vehicle, "--scenario", scenario])
        .args(["--rate-hz", &rate_hz.to_string()])
        .env(
            "GRIPLINE_ASSETS",
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets"),
        )
        .output()
        .expect("the binary runs");
    assert!(
        out.status.success(),
        "{vehicle} {scenario} at {rate_hz} Hz: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: Value = serde_json::from_slice(&out.stdout).expect("a JSON summary");
    assert_eq!(summary["rate_hz"].as_f64(), Some(f64::from(rate_hz)));
    summary["metrics"].as_object().expect("metrics").clone()
}

fn converges(vehicle: &str) {
    let mut failures = Vec::new();
    let mut compared = 0;
    for scenario in SCENARIOS {
        let slow = metrics(vehicle, scenario, 500);
        let real_time = metrics(vehicle, scenario, 1000);
        let fine = metrics(vehicle, scenario, 4000);
        for (name, value) in &real_time {
            let (Some(a), Some(b)) = (value.as_f64(), fine.get(name).and_then(Value::as_f64))
            else {
                continue;
            };
            let c = slow.get(name).and_then(Value::as_f64).unwrap_or(f64::NAN);
            let difference = if b == 0.0 { a.abs() } else { a / b - 1.0 };
            eprintln!(
                "{vehicle:14} {scenario:10} {name:32} 500 Hz {c:12.6} | 1 kHz {a:12.6} | 4 kHz {b:12.6} | 1k vs 4k {:+.3} %",
                100.0 * difference
            );
            compared += 1;
            if difference.abs() > TOLERANCE {
                failures.push(format!("{scenario} {name}: {a} at 1 kHz vs {b} at 4 kHz"));
            }
        }
    }
    assert!(
        compared >= 10,
        "{vehicle}: only {compared} metrics compared"
    );
    assert!(failures.is_empty(), "{vehicle}: {failures:#?}");
}

#[test]
fn corvette_c5_converges() {
    converges("corvette-c5");
}

#[test]
fn hatchback_fwd_converges() {
    converges("hatchback-fwd");
}

#[test]
fn rally_awd_converges() {
    converges("rally-awd");
}

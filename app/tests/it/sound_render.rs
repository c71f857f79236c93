//! The sound of whole runs, rendered as a user renders it (`gripline headless --audio`) and
//! analysed against the telemetry of the same run:
//!
//! - the strongest component below the second firing harmonic follows the firing frequency
//!   of the telemetry's engine speed (`rpm / 60 * cylinders / 2`) within 3 % through a
//!   launch and every upshift, for the V8 and for an inline four;
//! - the same run gives the same file, byte for byte;
//! - on the skidpad the tyres are much louder at the limit than in the gentle start.

// Seconds become sample indices throughout (finite, positive by construction).
#![allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]

use std::path::{Path, PathBuf};
use std::process::Command;

use gripline_audio::analysis::{dominant_frequency_hz, rms};
use gripline_audio::wav::read_wav;
use gripline_audio::{Mix, WavFormat};
use gripline_host::sound::WavRecorder;
use gripline_sim::headless::{HeadlessOptions, run_observed};
use gripline_sim::observer::TickObserver;

/// Relative tolerance of the firing frequency.
const FIRING_TOLERANCE: f64 = 0.03;

fn assets() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets")
}

/// Runs the binary: `gripline headless --vehicle V --scenario S --out CSV --audio WAV`.
fn render(vehicle: &str, scenario: &str, dir: &Path) -> (PathBuf, PathBuf) {
    let csv = dir.join(format!("{vehicle}-{scenario}.csv"));
    let wav = dir.join(format!("{vehicle}-{scenario}.wav"));
    let out = Command::new(env!("CARGO_BIN_EXE_gripline"))
        .args(["headless", "--vehicle", vehicle, "--scenario", scenario])
        .arg("--out")
        .arg(&csv)
        .arg("--audio")
        .arg(&wav)
        .env("GRIPLINE_ASSETS", assets())
        .output()
        .expect("the binary runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (csv, wav)
}

/// Columns `t_s` and `engine_rpm` of a telemetry CSV.
fn rpm_trace(csv: &Path) -> Vec<(f64, f64)> {
    let text = std::fs::read_to_string(csv).expect("telemetry");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    let t = header.iter().position(|c| *c == "t_s").expect("t_s");
    let rpm = header
        .iter()
        .position(|c| *c == "engine_rpm")
        .expect("engine_rpm");
    lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[t].parse().unwrap(), f[rpm].parse().unwrap())
        })
        .collect()
}

fn firing_frequency_follows_rpm(vehicle: &str, cylinders: f64) {
    let dir = tempfile::tempdir().unwrap();
    let (csv, wav) = render(vehicle, "launch", dir.path());
    let trace = rpm_trace(&csv);
    let sound = read_wav(&wav).unwrap();
    let fs = f64::from(sound.sample_rate_hz);
    let t0 = trace[0].0;
    // 150 ms windows every 100 ms where the engine speed is steady within 1.5 %.
    let window = (0.15 * fs) as usize;
    let (mut checked, mut worst, mut failures) = (0, 0.0f64, Vec::new());
    let mut start = 0;
    while start + window <= sound.samples.len() {
        let (a, b) = (start as f64 / fs, (start + window) as f64 / fs);
        start += (0.1 * fs) as usize;
        let rpms: Vec<f64> = trace
            .iter()
            .filter(|(t, _)| (t - t0) >= a && (t - t0) < b)
            .map(|(_, r)| *r)
            .collect();
        let (lo, hi) = rpms
            .iter()
            .fold((f64::MAX, f64::MIN), |(lo, hi), r| (lo.min(*r), hi.max(*r)));
        if rpms.is_empty() || hi > lo * 1.015 || lo < 500.0 {
            continue;
        }
        let mean = rpms.iter().sum::<f64>() / rpms.len() as f64;
        let expected = mean / 60.0 * cylinders / 2.0;
        let stretch = &sound.samples[(a * fs) as usize..(b * fs) as usize];
        let (found, _) =
            dominant_frequency_hz(stretch, fs, 15.0, 1.6 * expected, 0.5).expect("a spectrum");
        let error = (found - expected).abs() / expected;
        worst = worst.max(error);
        checked += 1;
        if error > FIRING_TOLERANCE {
            failures.push(format!(
                "t {a:.2} s: {mean:.0} rpm, firing {expected:.1} Hz, strongest {found:.1} Hz"
            ));
        }
    }
    println!(
        "{vehicle}: {checked} windows, worst error {:.2} %",
        worst * 100.0
    );
    assert!(checked >= 30, "{vehicle}: only {checked} steady windows");
    assert!(failures.is_empty(), "{vehicle}:\n{}", failures.join("\n"));
}

#[test]
fn the_v8_note_follows_its_firing_frequency_through_the_gears() {
    firing_frequency_follows_rpm("corvette-c5", 8.0);
}

#[test]
fn the_inline_four_note_follows_its_firing_frequency_through_the_gears() {
    firing_frequency_follows_rpm("hatchback-fwd", 4.0);
}

#[test]
fn the_same_run_renders_the_same_file() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    let (_, first) = render("rally-awd", "braking", a.path());
    let (_, second) = render("rally-awd", "braking", b.path());
    let (first, second) = (
        std::fs::read(first).unwrap(),
        std::fs::read(second).unwrap(),
    );
    assert!(first.len() > 44 + 48_000, "{} bytes", first.len());
    assert!(first == second, "two renders of one run differ");
}

/// The skidpad's tyre sound, rendered in-process with the recorder the binary uses, tyres
/// only; returns the telemetry CSV and the WAV.
fn skidpad_tyres(dir: &Path) -> (PathBuf, PathBuf) {
    let csv = dir.join("skidpad.csv");
    let wav = dir.join("skidpad.wav");
    let options = HeadlessOptions {
        vehicle: "corvette-c5".into(),
        scenario: "skidpad".into(),
        out: Some(csv.clone()),
        decimate: 1,
        ..HeadlessOptions::default()
    };
    let tyres_only = Mix {
        master: 1.0,
        engine: 0.0,
        tyres: 1.0,
        ambient: 0.0,
        muted: false,
    };
    let recorder: Box<dyn TickObserver> = Box::new(WavRecorder::new(
        &wav,
        48_000,
        WavFormat::Float32,
        tyres_only,
    ));
    run_observed(&options, Some(recorder)).expect("the skidpad runs");
    (csv, wav)
}

#[test]
fn the_tyres_are_louder_at_the_limit_than_in_a_gentle_corner() {
    let dir = tempfile::tempdir().unwrap();
    let (csv, wav) = skidpad_tyres(dir.path());
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|c| *c == name).unwrap();
    let (t_col, ay_col) = (col("t_s"), col("ay_m_s2"));
    let rows: Vec<(f64, f64)> = lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[t_col].parse().unwrap(), f[ay_col].parse().unwrap())
        })
        .collect();
    let sound = read_wav(&wav).unwrap();
    let fs = f64::from(sound.sample_rate_hz);
    let t0 = rows[0].0;
    // One-second windows by their mean lateral acceleration: gentle below 3.5 m/s² (0.36 g),
    // at the limit above 0.95 of the best one-second mean. The first 3 s are left out: the
    // procedure places the car and sets its speed there (the wheels spin up).
    let mut windows = Vec::new();
    let mut t = 3.0;
    while (t + 1.0) * fs < sound.samples.len() as f64 {
        let ays: Vec<f64> = rows
            .iter()
            .filter(|r| r.0 - t0 >= t && r.0 - t0 < t + 1.0)
            .map(|r| r.1.abs())
            .collect();
        if !ays.is_empty() {
            let mean = ays.iter().sum::<f64>() / ays.len() as f64;
            let stretch = &sound.samples[(t * fs) as usize..((t + 1.0) * fs) as usize];
            windows.push((mean, rms(stretch)));
        }
        t += 1.0;
    }
    let best_ay = windows.iter().map(|w| w.0).fold(0.0, f64::max);
    let gentle: Vec<f64> = windows.iter().filter(|w| w.0 < 3.5).map(|w| w.1).collect();
    let limit: Vec<f64> = windows
        .iter()
        .filter(|w| w.0 > 0.95 * best_ay)
        .map(|w| w.1)
        .collect();
    assert!(
        !gentle.is_empty() && !limit.is_empty(),
        "{gentle:?} {limit:?}"
    );
    let gentle_max = gentle.iter().copied().fold(0.0, f64::max);
    let limit_min = limit.iter().copied().fold(f64::MAX, f64::min);
    println!(
        "skidpad tyres: gentle RMS up to {gentle_max:.4} ({} s), at the limit from {limit_min:.4} ({} s), best ay {best_ay:.2} m/s²",
        gentle.len(),
        limit.len()
    );
    // At least 12 dB louder at the limit.
    assert!(limit_min > 4.0 * gentle_max);
}

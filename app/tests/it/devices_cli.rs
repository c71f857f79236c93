//! `gripline devices` as a user runs it. CI has no input hardware (and maybe no udev): the
//! command must still succeed, saying there are no devices; on a machine with a gamepad it
//! lists it instead, and these tests pass there too.

use std::process::{Command, Output};

fn gripline(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gripline"))
        .args(args)
        .output()
        .unwrap()
}

/// Whether `line` looks like a device line: `vvvv:pppp "name"`.
fn is_device_line(line: &str) -> bool {
    let bytes = line.as_bytes();
    bytes.len() > 10
        && bytes[..4].iter().all(u8::is_ascii_hexdigit)
        && bytes[4] == b':'
        && bytes[5..9].iter().all(u8::is_ascii_hexdigit)
        && line[9..].starts_with(" \"")
}

fn assert_lists_devices_or_none(output: &Output) {
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "status {:?}\nstdout:\n{stdout}\nstderr:\n{stderr}",
        output.status
    );
    assert!(
        stdout.contains("no input devices found") || stdout.lines().any(is_device_line),
        "stdout:\n{stdout}"
    );
    assert!(!stderr.contains("panicked"), "stderr:\n{stderr}");
}

#[test]
fn devices_lists_devices_or_says_there_are_none() {
    assert_lists_devices_or_none(&gripline(&["devices"]));
}

#[test]
fn devices_watch_stops_after_its_time() {
    assert_lists_devices_or_none(&gripline(&["devices", "--watch", "--seconds", "0.25"]));
}

#[test]
fn seconds_needs_watch() {
    assert!(!gripline(&["devices", "--seconds", "1"]).status.success());
}

#[test]
fn the_known_table_lists_the_shared_t818_id_at_its_strongest_peak() {
    let output = gripline(&["devices", "--known", "--format", "csv"]);
    assert!(output.status.success());
    let stdout = String::from_utf8(output.stdout).unwrap();
    let mut lines = stdout.lines();
    assert_eq!(
        lines.next(),
        Some("vid,pid,model,shared,assumed_peak_nm,backend,rotation_deg")
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert!(rows.len() > 40, "{stdout}");
    for row in &rows {
        assert_eq!(row.len(), 7, "{row:?}");
        assert!(row[0].len() == 4 && row[0].bytes().all(|b| b.is_ascii_hexdigit()));
        assert!(row[1].len() == 4 && row[1] == row[1].to_lowercase());
        assert!(row[3] == "true" || row[3] == "false");
        let peak: f64 = row[4].parse().unwrap();
        assert!(peak > 0.0 && peak.is_finite());
    }
    let t818 = rows
        .iter()
        .find(|r| r[0] == "044f" && r[1] == "b696")
        .expect("044f,b696 listed");
    assert_eq!(t818[3], "true");
    assert!(t818[4].parse::<f64>().unwrap() >= 10.0, "{t818:?}");
    // The JSON has the same rows.
    let json = gripline(&["devices", "--known", "--format", "json"]);
    assert!(json.status.success());
    let parsed: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(parsed.as_array().unwrap().len(), rows.len());
    // --format needs --known.
    assert!(!gripline(&["devices", "--format", "json"]).status.success());
}

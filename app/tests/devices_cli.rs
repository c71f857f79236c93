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

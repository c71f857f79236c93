//! `gripline render` as a user runs it: one frame to PNG without a window, on the software
//! adapter (Mesa lavapipe), after the autopilot has driven a while.

use std::process::{Command, Output};

use gripline_render::RgbaImage;

fn gripline(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gripline"))
        .args(args)
        .env("GRIPLINE_ADAPTER", "software")
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap()
}

#[test]
fn renders_a_frame_after_driving_and_says_where_the_car_is() {
    let out = std::env::temp_dir().join(format!("gripline-render-{}.png", std::process::id()));
    let output = gripline(&[
        "render",
        "--vehicle",
        "corvette-c5",
        "--track",
        "circuit",
        "--camera",
        "chase",
        "--at",
        "3",
        "--width",
        "320",
        "--height",
        "180",
        "--msaa",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "stdout:\n{stdout}\nstderr:\n{stderr}"
    );
    // The report line: "<file>: 320x180 Chase camera, t = 3.000 s, speed S km/h; CAR".
    assert!(stdout.contains("320x180"), "{stdout}");
    assert!(stdout.contains("t = 3.000 s"), "{stdout}");
    // The shipped car names no model: the generated body is what was drawn.
    assert!(stdout.contains("; procedural body"), "{stdout}");
    let speed: f64 = stdout
        .split("speed ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no speed in {stdout}"));
    // Three seconds of autopilot from rest: well under way, far from top speed.
    assert!((20.0..200.0).contains(&speed), "speed {speed} km/h");
    let image = RgbaImage::read_png(&out).unwrap();
    assert_eq!((image.width, image.height), (320, 180));
    let top = image.pixel(160, 5);
    assert!(top[2] > top[0], "sky at the top is bluish: {top:?}");
    let _ = std::fs::remove_file(&out);
}

#[test]
fn bad_arguments_are_clear_errors() {
    for (args, expect) in [
        (vec!["render", "--at=-1", "--out", "/tmp/x.png"], "--at"),
        (
            vec!["render", "--width", "0", "--out", "/tmp/x.png"],
            "--width",
        ),
        (
            vec!["render", "--vehicle", "nope", "--out", "/tmp/x.png"],
            "nope",
        ),
        (
            vec!["render", "--track", "flat", "--out", "/tmp/x.png"],
            "track",
        ),
    ] {
        let output = gripline(&args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{args:?} succeeded");
        assert!(stderr.contains(expect), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

//! `gripline render` as a user runs it: one frame to PNG without a window, on the software
//! adapter (Mesa lavapipe), after the autopilot has driven a while.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use gripline_render::RgbaImage;

/// Runs `gripline` with `args`, its settings folder an empty scratch one (not the user's).
fn gripline(args: &[&str]) -> Output {
    gripline_with_settings(args, &scratch_dir("empty"))
}

/// Runs `gripline` with `args` and its settings folder `config_dir`.
fn gripline_with_settings(args: &[&str], config_dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gripline"))
        .args(args)
        .env("GRIPLINE_CONFIG_DIR", config_dir)
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

/// A fresh scratch folder for this test process.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gripline-render-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `render` draws with the saved quality, MSAA and field of view (issue 33), says so, and
/// its flags override them; a broken settings file gives the defaults with a warning.
#[test]
fn render_uses_the_saved_graphics_settings_unless_flags_say_otherwise() {
    use gripline_config::{QualityChoice, Settings, SettingsStore};

    let dir = scratch_dir("saved");
    let mut settings = Settings::default();
    settings.graphics.quality = QualityChoice::Medium;
    settings.graphics.msaa_samples = 2;
    settings.graphics.fov_deg = 50.0;
    SettingsStore::new(&dir).save(&settings).unwrap();
    let out = dir.join("frame.png");
    let frame = ["render", "--width", "160", "--height", "90", "--out"];
    let run = |extra: &[&str], config: &Path| {
        let mut args: Vec<&str> = frame.to_vec();
        args.push(out.to_str().unwrap());
        args.extend_from_slice(extra);
        let output = gripline_with_settings(&args, config);
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(
            output.status.success() && !stderr.contains("panicked"),
            "stdout:\n{stdout}\nstderr:\n{stderr}"
        );
        (stdout, stderr)
    };

    let (stdout, _) = run(&[], &dir);
    assert!(
        stdout.contains(
            "quality Medium (settings), 2x MSAA (settings), field of view 50° (settings)"
        ),
        "{stdout}"
    );
    // The tier drawn (its MSAA is what the adapter supports of the 2 asked for).
    assert!(stdout.contains(", quality Medium ("), "{stdout}");

    let (stdout, _) = run(&["--quality", "low", "--msaa", "1", "--fov", "70"], &dir);
    assert!(
        stdout.contains(
            "quality Low (command line), 1x MSAA (command line), field of view 70° (command line)"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("quality Low (1x MSAA)"), "{stdout}");

    let broken = scratch_dir("broken");
    std::fs::write(broken.join("settings.ron"), "this is not RON (").unwrap();
    let (stdout, stderr) = run(&["--quality", "low"], &broken);
    let defaults = Settings::default().graphics;
    assert!(
        stderr.contains("the default settings are used"),
        "a warning line: {stderr}"
    );
    assert!(
        stdout.contains(&format!(
            "{}x MSAA (settings), field of view {}° (settings)",
            defaults.msaa_samples, defaults.fov_deg
        )),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&broken);
}

//! The simulator window end to end, as a user launches it: the real binary under a private
//! Xvfb with Mesa's software Vulkan (lavapipe), the autopilot driving for five seconds,
//! then a screenshot of the last frame.
//!
//! Checks: the exit code, that the screenshot is a real scene (sky above, ground below,
//! many distinct colours, not one flat colour), and that the car moved (the exit report).

mod support;

use std::path::PathBuf;
use std::process::Command;

use gripline_render::RgbaImage;
use support::xvfb::Xvfb;

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gripline-e2e-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Mean luminance (0–255) of a horizontal band of rows.
fn band_luma(image: &RgbaImage, rows: std::ops::Range<u32>) -> f64 {
    let mut sum = 0.0;
    let mut n = 0.0;
    for y in rows {
        for x in (0..image.width).step_by(4) {
            let [r, g, b, _] = image.pixel(x, y);
            sum += 0.2126 * f64::from(r) + 0.7152 * f64::from(g) + 0.0722 * f64::from(b);
            n += 1.0;
        }
    }
    sum / n
}

/// Number of distinct colours, quantised to 5 bits per channel.
fn distinct_colours(image: &RgbaImage) -> usize {
    let mut seen = std::collections::HashSet::new();
    for y in (0..image.height).step_by(2) {
        for x in (0..image.width).step_by(2) {
            let [r, g, b, _] = image.pixel(x, y);
            seen.insert((r >> 3, g >> 3, b >> 3));
        }
    }
    seen.len()
}

#[test]
fn autopilot_drives_for_five_seconds_and_the_screenshot_shows_the_scene() {
    let xvfb = Xvfb::start(1280, 720);
    let dir = scratch_dir("autopilot");
    let shot = dir.join("last-frame.png");
    let output = Command::new(env!("CARGO_BIN_EXE_gripline"))
        .args(["--vehicle", "corvette-c5", "--track", "circuit", "--autopilot"])
        .args(["--exit-after", "5", "--stats", "--screenshot"])
        .arg(&shot)
        .env("DISPLAY", &xvfb.display)
        .env_remove("WAYLAND_DISPLAY")
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env("GRIPLINE_ADAPTER", "software")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "status {:?}\nstdout:\n{stdout}\nstderr:\n{stderr}",
        output.status
    );
    assert!(!stderr.contains("panicked"), "stderr:\n{stderr}");

    // The car moved: the exit report gives the distance driven along the ground.
    let distance_m: f64 = stdout
        .lines()
        .find_map(|l| l.strip_prefix("distance driven: "))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no 'distance driven' line\nstdout:\n{stdout}"));
    // Five seconds from rest under the autopilot: the C5 reaches well over 10 m (a
    // 0.5 g average launch covers 60 m); 10 m leaves room for a slow start under load.
    assert!(distance_m > 10.0, "drove only {distance_m} m\nstdout:\n{stdout}");
    assert!(stdout.contains("sim ticks:"), "no timing report\nstdout:\n{stdout}");

    let image = RgbaImage::read_png(&shot).unwrap();
    assert_eq!((image.width, image.height), (1280, 720));
    let colours = distinct_colours(&image);
    assert!(colours > 200, "only {colours} distinct colours: not a rendered scene");
    // Sky above the horizon is brighter than the ground below it.
    let sky = band_luma(&image, 20..80);
    let ground = band_luma(&image, 600..700);
    assert!(sky > ground + 20.0, "sky luma {sky:.0} vs ground {ground:.0}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_vehicle_name_is_a_clear_error_without_a_window() {
    let output = Command::new(env!("CARGO_BIN_EXE_gripline"))
        .args(["--vehicle", "no-such-car", "--exit-after", "1"])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(stderr.contains("no-such-car"), "stderr:\n{stderr}");
    assert!(!stderr.contains("panicked"), "stderr:\n{stderr}");
}

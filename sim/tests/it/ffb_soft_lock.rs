//! The soft lock and damping past the car's steering lock, through the sim core: a scripted
//! 1080° wheel (the same events as a real one) turned beyond the C5's 450° lock.
//!
//! The physics clamps the steering at the lock; force feedback acts on the unclamped angle,
//! so the wheel meets a stop that rises to the soft-lock torque within the ramp (3°), and the
//! user's damping keeps working past the lock instead of the wheel going limp.

use crate::support::ffb as ffb_support;

use ffb_support::{MAX_NM, exact_settings};
use std::sync::Arc;
use std::time::Duration;

use gripline_input::device::{AxisRange, DeviceId, ScriptedDevice, ScriptedStep};
use gripline_input::ffb::device_facts::FfbDeviceFacts;
use gripline_input::ffb::recording::{Clock, ManualClock, RecordingBackend};
use gripline_input::settings::axis_calibration::AxisCalibration;
use gripline_input::settings::bindings::{AxisBinding, AxisControl, Bindings};
use gripline_input::settings::device_identity::{DeviceIdentity, DeviceKind, DeviceMatch};
use gripline_input::settings::ffb_settings::FfbSettings;
use gripline_sim::realtime::rig::{FfbLink, Rig};
use gripline_sim::realtime::sim_core::{SimCore, UiRings, core_rings};
use gripline_sim::realtime::stats::SharedStats;
use gripline_sim::session::Session;

const ROTATION_DEG: f64 = 1080.0;
const RANGE: AxisRange = AxisRange {
    min: -32_767,
    max: 32_767,
};

fn wheel() -> DeviceIdentity {
    DeviceIdentity::new(0x346e, 0x0002, "Moza R9", "")
}

/// Raw value of the physical angle `deg` (positive left) on the 1080° wheel: devices report
/// positive to the right.
fn raw(deg: f64) -> i32 {
    #[allow(clippy::cast_possible_truncation)]
    let value = (-deg / (0.5 * ROTATION_DEG) * 32_767.0).round() as i32;
    value
}

/// A core with the C5 parked on the flat, the wheel following `angle_deg(ms)` each
/// millisecond for `ms` milliseconds, force feedback with `settings`.
fn core(settings: &FfbSettings, ms: u64, angle_deg: impl Fn(u64) -> f64) -> (SimCore, UiRings) {
    let bindings = Bindings {
        axes: vec![AxisBinding {
            control: AxisControl::Steering,
            device: DeviceMatch::Device(wheel()),
            axis: 0,
            calibration: AxisCalibration::default(),
            rotation_deg: ROTATION_DEG,
        }],
        ..Bindings::default()
    };
    let facts = FfbDeviceFacts {
        peak_torque_nm: 9.0,
        ..FfbDeviceFacts::no_device(settings)
    };
    let link = FfbLink {
        backend: Box::new(RecordingBackend::new(Clock::Manual(ManualClock::new()))),
        facts,
    };
    let mut rig = Rig::new(&bindings, settings, link);
    let mut device = ScriptedDevice::new(DeviceId(3), wheel(), DeviceKind::Wheel)
        .at_ms(0, ScriptedStep::Connect);
    for t in 1..=ms {
        device = device.at_ms(
            t,
            ScriptedStep::Axis {
                axis: 0,
                value: raw(angle_deg(t)),
                range: RANGE,
            },
        );
    }
    rig.add_input(Box::new(device));
    let (rings, ui) = core_rings(64);
    let session = Session::load("corvette-c5", "flat").expect("shipped car");
    (
        SimCore::new(session, rig, rings, Arc::new(SharedStats::default()), false),
        ui,
    )
}

/// Runs `ms` ticks; returns each tick's (FFB torque N·m, the car's steering angle deg).
fn run(core: &mut SimCore, ui: &mut UiRings, ms: u64) -> Vec<(f64, f64)> {
    let mut out = Vec::new();
    for t in 1..=ms {
        core.tick(Duration::from_millis(t));
        while let Some(s) = ui.snapshots.pop() {
            out.push((
                s.hud.ffb_torque_nm,
                s.snapshot.steering_wheel_rad.to_degrees(),
            ));
        }
    }
    out
}

#[test]
fn the_soft_lock_rises_to_its_level_within_the_ramp_past_the_car_lock() {
    // The C5's lock is 450° each side. Hold 440° (inside), then 451.5° (half-way up the
    // 3° ramp), then 455° (past it), 400 ms each.
    let angle = |t: u64| match t {
        0..=400 => 440.0,
        401..=800 => 451.5,
        _ => 455.0,
    };
    let (mut core, mut ui) = core(&exact_settings(), 1200, angle);
    let lock = core.session().vehicle().params().steering.lock_deg;
    assert!((lock - 450.0).abs() < 1e-9, "the C5's lock: {lock}");
    let ticks = run(&mut core, &mut ui, 1200);
    let (inside, car_inside) = ticks[390];
    let (half, car_half) = ticks[790];
    let (past, car_past) = ticks[1190];
    // Inside the lock only the parked car's own (small) torque.
    assert!(inside.abs() < 0.5 * MAX_NM, "inside: {inside}");
    // The physics stops at the lock; force feedback sees the wheel beyond it.
    assert!((car_inside - 440.0).abs() < 0.1, "{car_inside}");
    assert!((car_half - lock).abs() < 1e-6 && (car_past - lock).abs() < 1e-6);
    // Half-way up the ramp: about half the soft-lock torque more, pushing right (negative).
    assert!(
        (half - inside + 0.5 * MAX_NM).abs() < 0.15 * MAX_NM,
        "half-way: {half} (inside {inside})"
    );
    // Past the ramp: the full soft-lock level (the user's maximum), pushing back.
    assert!(past <= -0.98 * MAX_NM, "past the ramp: {past}");
}

#[test]
fn damping_stays_on_past_the_lock() {
    // Soft lock off, user damping 0.5 N·m per rad/s: sweep from 460° to 560° at 100°/s, all
    // of it beyond the C5's lock, so the physics' steering angle does not move at all; and a
    // second run holding the wheel still at the angle the sweep passes at 0.6 s (520°; the
    // wheel's own end is at 540°).
    let mut s = exact_settings();
    s.soft_lock.enabled = false;
    s.damping_nm_s_per_rad = 0.5;
    let speed_deg_s = 100.0;
    #[allow(clippy::cast_precision_loss)]
    let sweep = move |t: u64| 460.0 + speed_deg_s * (t as f64 / 1000.0);
    let (mut core_a, mut ui_a) = core(&s, 1000, sweep);
    let moving = run(&mut core_a, &mut ui_a, 1000);
    let (mut core_b, mut ui_b) = core(&s, 1000, move |_| sweep(600));
    let held = run(&mut core_b, &mut ui_b, 1000);
    let (torque_moving, car) = moving[599];
    let (torque_held, _) = held[599];
    assert!(
        (car - 450.0).abs() < 1e-6,
        "the car's wheel is at its lock: {car}"
    );
    // Turning left (positive) at 100°/s past the lock: damping -0.5 * 1.745 rad/s on top of
    // the same car torque; before the fix, the damping saw the clamped angle and gave zero.
    let damping = torque_moving - torque_held;
    let expected = -0.5 * speed_deg_s.to_radians();
    assert!(
        (damping - expected).abs() < 0.05 * expected.abs(),
        "damping past the lock: {damping} (expected {expected})"
    );
}

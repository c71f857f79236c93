//! The control mapper driven by scripted devices: wheels, pedals, shifters, keyboard,
//! gamepad, and hot-plug.

use std::time::Duration;

use gripline_input::bindings::{ControlMapper, InputNotice, TickOutput};
use gripline_input::device::{
    AxisRange, DeviceId, InputBackend, InputEvent, ScriptedDevice, ScriptedStep,
};
use gripline_input::settings::axis_calibration::{AxisCalibration, RawRange};
use gripline_input::settings::bindings::{
    AxisBinding, AxisControl, Bindings, ButtonAction, ButtonBinding,
};
use gripline_input::settings::device_identity::{DeviceIdentity, DeviceKind, DeviceMatch};
use gripline_input::settings::input_codes::{gamepad, key};

const DT: f64 = 0.001;
const WHEEL_RANGE: AxisRange = AxisRange::new(0, 65535);
const PEDAL_RANGE: AxisRange = AxisRange::new(0, 255);
const STEER: u32 = 0;
const CLUTCH: u32 = 1;
const THROTTLE: u32 = 2;
const BRAKE: u32 = 5;
const PADDLE_UP: u32 = 4;
const PADDLE_DOWN: u32 = 5;
const GEAR_BUTTONS: [(u32, i8); 7] = [
    (12, 1),
    (13, 2),
    (14, 3),
    (15, 4),
    (16, 5),
    (17, 6),
    (11, -1),
];

fn g29() -> DeviceIdentity {
    DeviceIdentity::new(0x046d, 0xc24f, "G29 Driving Force Racing Wheel", "")
}

/// A G29 with inverted pedals (they rest at 255), paddles and a six-speed shifter.
fn wheel_bindings() -> Bindings {
    let dev = DeviceMatch::Device(g29());
    let pedal = |control, axis| AxisBinding {
        control,
        device: dev.clone(),
        axis,
        calibration: AxisCalibration {
            invert: true,
            ..AxisCalibration::default()
        },
        rotation_deg: 900.0,
    };
    let mut buttons = vec![
        ButtonBinding {
            action: ButtonAction::ShiftUp,
            device: dev.clone(),
            button: PADDLE_UP,
        },
        ButtonBinding {
            action: ButtonAction::ShiftDown,
            device: dev.clone(),
            button: PADDLE_DOWN,
        },
    ];
    for (button, gear) in GEAR_BUTTONS {
        buttons.push(ButtonBinding {
            action: ButtonAction::Gear(gear),
            device: dev.clone(),
            button,
        });
    }
    Bindings {
        axes: vec![
            AxisBinding {
                control: AxisControl::Steering,
                device: dev.clone(),
                axis: STEER,
                calibration: AxisCalibration::default(),
                rotation_deg: 900.0,
            },
            pedal(AxisControl::Throttle, THROTTLE),
            pedal(AxisControl::Brake, BRAKE),
            pedal(AxisControl::Clutch, CLUTCH),
        ],
        buttons,
        ..Bindings::default()
    }
}

fn axis(axis: u32, value: i32, range: AxisRange) -> ScriptedStep {
    ScriptedStep::Axis { axis, value, range }
}

fn button(button: u32, pressed: bool) -> ScriptedStep {
    ScriptedStep::Button { button, pressed }
}

/// Runs `devices` through `mapper` tick by tick up to `until_ms`, collecting every tick's
/// output and every notice with its time.
fn run(
    mapper: &mut ControlMapper,
    devices: &mut [ScriptedDevice],
    from_ms: u64,
    until_ms: u64,
) -> (Vec<TickOutput>, Vec<(u64, InputNotice)>) {
    let mut events = Vec::with_capacity(64);
    let mut outputs = Vec::new();
    let mut notices = Vec::new();
    for ms in from_ms..=until_ms {
        for d in devices.iter_mut() {
            d.poll(Duration::from_millis(ms), &mut events);
        }
        for e in events.drain(..) {
            if let Some(n) = mapper.handle(&e) {
                notices.push((ms, n));
            }
        }
        outputs.push(mapper.tick(DT));
    }
    (outputs, notices)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn wheel_drives_controls_unfiltered_in_the_same_tick() {
    let mut mapper = ControlMapper::new(&wheel_bindings());
    let mut dev = [ScriptedDevice::new(DeviceId(1), g29(), DeviceKind::Wheel)
        .at_ms(0, ScriptedStep::Connect)
        .at_ms(1, axis(THROTTLE, 255, PEDAL_RANGE))
        .at_ms(1, axis(BRAKE, 255, PEDAL_RANGE))
        .at_ms(1, axis(CLUTCH, 255, PEDAL_RANGE))
        .at_ms(1, axis(STEER, 32767, WHEEL_RANGE))
        .at_ms(5, axis(THROTTLE, 0, PEDAL_RANGE))
        .at_ms(5, axis(STEER, 0, WHEEL_RANGE))];
    let (out, notices) = run(&mut mapper, &mut dev, 0, 5);
    assert_eq!(
        notices,
        [(
            0,
            InputNotice::DeviceConnected {
                device: DeviceId(1),
                returning: false,
                carries_controls: true
            }
        )]
    );
    let c = out[1].controls;
    assert!(close(c.throttle, 0.0) && close(c.brake, 0.0) && close(c.clutch, 0.0));
    assert!(
        c.steering_wheel_rad.abs() < 1e-3,
        "half a raw count off centre"
    );
    assert_eq!(c.h_gear, Some(0), "shifter bound: neutral");
    // One event moves the pedal and the wheel all the way, within the same tick.
    let c = out[5].controls;
    assert!(close(c.throttle, 1.0));
    assert!(
        close(c.steering_wheel_rad, 450f64.to_radians()),
        "full left lock is positive (ISO 8855): {}",
        c.steering_wheel_rad
    );
}

#[test]
fn h_pattern_and_paddles() {
    let mut mapper = ControlMapper::new(&wheel_bindings());
    let mut dev = [ScriptedDevice::new(DeviceId(1), g29(), DeviceKind::Wheel)
        .at_ms(0, ScriptedStep::Connect)
        .at_ms(1, button(12, true)) // 1st
        .at_ms(3, button(12, false)) // neutral
        .at_ms(4, button(13, true)) // 2nd
        .at_ms(5, button(14, true)) // 3rd pressed while 2nd still held: newest wins
        .at_ms(6, button(14, false)) // back to 2nd
        .at_ms(7, button(13, false))
        .at_ms(8, button(11, true)) // reverse
        .at_ms(10, button(PADDLE_UP, true))
        .at_ms(12, button(PADDLE_UP, false))
        .at_ms(13, button(PADDLE_DOWN, true))
        .at_ms(13, button(PADDLE_DOWN, false))];
    let (out, _) = run(&mut mapper, &mut dev, 0, 15);
    let gears: Vec<_> = out.iter().map(|o| o.controls.h_gear).collect();
    assert_eq!(
        &gears[..10],
        [0, 1, 1, 0, 2, 3, 2, 0, -1, -1].map(Some),
        "gear per tick"
    );
    let ups: Vec<_> = out.iter().map(|o| o.controls.shift_up).collect();
    let downs: Vec<_> = out.iter().map(|o| o.controls.shift_down).collect();
    assert_eq!(ups.iter().filter(|&&u| u).count(), 1, "one edge per press");
    assert!(ups[10] && !ups[11]);
    assert!(downs[13], "press and release in the same tick still shifts");
    assert_eq!(downs.iter().filter(|&&d| d).count(), 1);
}

#[test]
fn unplug_releases_controls_and_replug_restores_bindings_and_calibration() {
    let mut mapper = ControlMapper::new(&wheel_bindings());
    let mut devs = [
        ScriptedDevice::new(DeviceId(1), g29(), DeviceKind::Wheel)
            .at_ms(0, ScriptedStep::Connect)
            .at_ms(1, axis(THROTTLE, 0, PEDAL_RANGE)) // floored (inverted pedal)
            .at_ms(1, axis(BRAKE, 255, PEDAL_RANGE))
            .at_ms(1, axis(CLUTCH, 255, PEDAL_RANGE))
            .at_ms(1, axis(STEER, 40000, WHEEL_RANGE))
            .at_ms(1, button(14, true)) // 3rd gear
            .at_ms(50, ScriptedStep::Disconnect),
        // Plugged back in: the backend gives it a new handle.
        ScriptedDevice::new(DeviceId(9), g29(), DeviceKind::Wheel)
            .at_ms(100, ScriptedStep::Connect)
            .at_ms(101, axis(THROTTLE, 64, PEDAL_RANGE))
            .at_ms(101, axis(BRAKE, 255, PEDAL_RANGE))
            .at_ms(101, axis(STEER, 32767, WHEEL_RANGE)),
    ];
    let (out, notices) = run(&mut mapper, &mut devs, 0, 101);
    let before = out[49].controls;
    assert!(close(before.throttle, 1.0));
    assert_eq!(before.h_gear, Some(3));
    let after = out[50].controls;
    assert_eq!(
        after.throttle.to_bits(),
        0f64.to_bits(),
        "throttle released at once"
    );
    assert_eq!(
        after.brake.to_bits(),
        0f64.to_bits(),
        "brake per policy (default 0)"
    );
    assert_eq!(
        after.clutch.to_bits(),
        1f64.to_bits(),
        "clutch per policy (default pressed)"
    );
    assert_eq!(after.steering_wheel_rad.to_bits(), 0f64.to_bits());
    assert_eq!(after.h_gear, Some(0), "gears neutral");
    assert_eq!(
        notices[1],
        (
            50,
            InputNotice::DeviceLost {
                device: DeviceId(1),
                carries_controls: true
            }
        )
    );
    assert_eq!(
        notices[2],
        (
            100,
            InputNotice::DeviceConnected {
                device: DeviceId(9),
                returning: true,
                carries_controls: true
            }
        )
    );
    // Same calibration: raw 64 on an inverted pedal is (255 - 64) / 255.
    let back = out[101].controls;
    assert!(close(back.throttle, 191.0 / 255.0), "{}", back.throttle);
    assert!(close(back.clutch, 0.0), "clutch not reported yet: at rest");
    assert_eq!(
        mapper.device(DeviceId(9)).map(|i| i.identity.clone()),
        Some(g29())
    );
    assert!(mapper.device(DeviceId(1)).is_none());
}

#[test]
fn lost_policy_brake_applies() {
    let mut bindings = wheel_bindings();
    bindings.device_lost.brake = 0.4;
    let mut mapper = ControlMapper::new(&bindings);
    let mut dev = [ScriptedDevice::new(DeviceId(1), g29(), DeviceKind::Wheel)
        .at_ms(0, ScriptedStep::Connect)
        .at_ms(1, ScriptedStep::Disconnect)];
    let (out, _) = run(&mut mapper, &mut dev, 0, 1);
    assert!(close(out[1].controls.brake, 0.4));
}

#[test]
fn combined_pedals_split_one_axis() {
    let dev_id = DeviceIdentity::new(0x046d, 0xc294, "Driving Force EX", "");
    let bindings = Bindings {
        axes: vec![AxisBinding {
            control: AxisControl::CombinedPedals,
            device: DeviceMatch::Device(dev_id.clone()),
            axis: 1,
            calibration: AxisCalibration {
                raw_range: Some(RawRange { min: 0, max: 255 }),
                centre: Some(128),
                dead_zone: 0.05,
                invert: true, // throttle pulls the axis down
                ..AxisCalibration::default()
            },
            rotation_deg: 900.0,
        }],
        buttons: vec![],
        ..Bindings::default()
    };
    let mut mapper = ControlMapper::new(&bindings);
    let range = AxisRange::new(0, 255);
    let mut dev = [ScriptedDevice::new(DeviceId(3), dev_id, DeviceKind::Wheel)
        .at_ms(0, ScriptedStep::Connect)
        .at_ms(1, axis(1, 128, range))
        .at_ms(2, axis(1, 0, range))
        .at_ms(3, axis(1, 255, range))
        .at_ms(4, axis(1, 131, range))];
    let (out, _) = run(&mut mapper, &mut dev, 0, 4);
    let pairs: Vec<_> = out
        .iter()
        .map(|o| (o.controls.throttle, o.controls.brake))
        .collect();
    assert_eq!(pairs[0], (0.0, 0.0), "not reported yet: both released");
    assert_eq!(pairs[1], (0.0, 0.0), "centre");
    assert_eq!(pairs[2], (1.0, 0.0), "full throttle");
    assert_eq!(pairs[3], (0.0, 1.0), "full brake");
    assert_eq!(pairs[4], (0.0, 0.0), "inside the dead zone around centre");
    assert_eq!(out[4].controls.h_gear, None, "no H-shifter bound");
}

#[test]
fn keyboard_defaults_are_rate_limited_and_drive() {
    let mut mapper = ControlMapper::new(&Bindings::default());
    let kb = || {
        ScriptedDevice::new(
            DeviceId(0),
            DeviceIdentity::keyboard(),
            DeviceKind::Keyboard,
        )
    };
    let mut dev = [kb()
        .at_ms(0, ScriptedStep::Connect)
        .at_ms(1, button(key::UP, true))
        .at_ms(1, button(key::LEFT, true))
        .at_ms(300, button(key::UP, false))
        .at_ms(300, button(key::LEFT, false))
        .at_ms(301, button(key::ESCAPE, true))
        .at_ms(302, button(key::ESCAPE, false))];
    let (out, _) = run(&mut mapper, &mut dev, 0, 302);
    // Throttle rises at 5/s: 0.005 per tick, full after 200 ticks.
    assert!(close(out[1].controls.throttle, 0.005));
    assert!(close(out[100].controls.throttle, 0.5));
    assert!(close(out[250].controls.throttle, 1.0));
    // Steering left is positive and ramps at 2/s of half of 540°.
    let s = out[100].controls.steering_wheel_rad;
    assert!(close(s, 0.2 * 270f64.to_radians()), "{s}");
    assert!(out[300].controls.throttle < 1.0, "falls after release");
    assert!(out[301].actions.pause && !out[302].actions.pause);
    assert_eq!(out[10].controls.h_gear, None);
}

#[test]
fn gamepad_stick_is_not_rate_limited_and_any_pad_matches() {
    let mut mapper = ControlMapper::new(&Bindings::default());
    let pad = DeviceIdentity::new(0x045e, 0x028e, "Xbox 360 Controller", "");
    let stick = AxisRange::new(-32768, 32767);
    let trigger = AxisRange::new(0, 255);
    let mut dev = [ScriptedDevice::new(DeviceId(4), pad, DeviceKind::Gamepad)
        .at_ms(0, ScriptedStep::Connect)
        .at_ms(1, axis(gamepad::AXIS_LEFT_STICK_X, 32767, stick))
        .at_ms(1, axis(gamepad::AXIS_RIGHT_TRIGGER, 255, trigger))
        .at_ms(2, button(gamepad::RIGHT_SHOULDER, true))];
    let (out, _) = run(&mut mapper, &mut dev, 0, 2);
    let c = out[1].controls;
    assert!(
        close(c.steering_wheel_rad, -270f64.to_radians()),
        "full right at once"
    );
    assert!(close(c.throttle, 1.0));
    assert!(out[2].controls.shift_up);
}

#[test]
fn applying_a_calibration_mid_drive_keeps_the_pedal_position() {
    let mut bindings = wheel_bindings();
    let mut mapper = ControlMapper::new(&bindings);
    let mut dev = [ScriptedDevice::new(DeviceId(1), g29(), DeviceKind::Wheel)
        .at_ms(0, ScriptedStep::Connect)
        .at_ms(1, axis(THROTTLE, 128, PEDAL_RANGE))
        .at_ms(1, button(13, true))];
    let (out, _) = run(&mut mapper, &mut dev, 0, 1);
    assert!(close(out[1].controls.throttle, 127.0 / 255.0));
    bindings.axes[1].calibration.dead_zone = 0.5;
    mapper.set_bindings(&bindings);
    let c = mapper.tick(DT).controls;
    assert_eq!(
        c.throttle.to_bits(),
        0f64.to_bits(),
        "new dead zone applies at once"
    );
    assert_eq!(c.h_gear, Some(2), "held gear survives");
    assert_eq!(
        mapper.raw_axis(DeviceId(1), THROTTLE),
        Some((128, PEDAL_RANGE))
    );
}

#[test]
fn events_from_unknown_devices_are_ignored() {
    let mut mapper = ControlMapper::new(&wheel_bindings());
    let stray = InputEvent::Axis {
        device: DeviceId(42),
        axis: THROTTLE,
        value: 0,
        range: PEDAL_RANGE,
    };
    assert_eq!(mapper.handle(&stray), None);
    assert_eq!(
        mapper.handle(&InputEvent::Disconnected {
            device: DeviceId(42)
        }),
        None
    );
    let c = mapper.tick(DT).controls;
    assert_eq!(c, gripline_physics::controls::Controls::default());
}

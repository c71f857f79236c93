//! The evdev backends end to end with scripted kernels: raw `EV_ABS`/`EV_KEY` events from a
//! scripted `/dev/input` through [`EvdevBackend`] and the control mapper to `Controls`
//! (including a handbrake gilrs cannot see, and an unplug/replug), and the evdev
//! force-feedback backend behind the writer thread.

use std::io;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use gripline_devices::evdev_input::backend::{EvdevBackend, EvdevSelection};
use gripline_devices::evdev_input::source::{RawEvent, ScriptedEnumerator};
use gripline_devices::evdev_input::{
    EV_ABS, EV_KEY, EV_SYN, EvdevAxis, EvdevDeviceInfo, FfCapabilities, SYN_REPORT,
};
use gripline_devices::ffb::evdev_ff::{EvdevFfBackend, EvdevFfConfig, EvdevFfDevice, FfCall};
use gripline_input::bindings::{ControlMapper, InputNotice, TickOutput};
use gripline_input::device::InputBackend;
use gripline_input::ffb::backend::FfbBackend;
use gripline_input::ffb::protocol::evdev::FfConstantEffect;
use gripline_input::ffb::writer::{FfbWriter, WriterConfig};
use gripline_input::settings::axis_calibration::AxisCalibration;
use gripline_input::settings::bindings::{
    AxisBinding, AxisControl, Bindings, ButtonAction, ButtonBinding,
};
use gripline_input::settings::device_identity::{DeviceIdentity, DeviceMatch};

const ABS_X: u16 = 0x00;
const ABS_Y: u16 = 0x01;
const BTN_TRIGGER_HAPPY1: u16 = 0x2c0;
const SYN: RawEvent = RawEvent::new(EV_SYN, SYN_REPORT, 0);

fn axis(code: u16, value: i32, max: i32) -> EvdevAxis {
    EvdevAxis {
        code,
        value,
        min: 0,
        max,
        fuzz: 0,
        flat: 0,
    }
}

fn g29(path: &str) -> EvdevDeviceInfo {
    EvdevDeviceInfo {
        path: path.to_owned(),
        name: "Logitech G29 Driving Force Racing Wheel".to_owned(),
        phys: "usb-0000:00:14.0-2/input0".to_owned(),
        vendor_id: 0x046d,
        product_id: 0xc24f,
        axes: vec![axis(ABS_X, 32768, 65535), axis(ABS_Y, 255, 255)],
        buttons: vec![0x120, BTN_TRIGGER_HAPPY1],
        ff: FfCapabilities {
            constant: true,
            ..FfCapabilities::default()
        },
        ..EvdevDeviceInfo::default()
    }
}

fn handbrake() -> EvdevDeviceInfo {
    EvdevDeviceInfo {
        path: "/dev/input/event9".to_owned(),
        name: "USB Handbrake".to_owned(),
        uniq: "HB-0042".to_owned(),
        vendor_id: 0x30b7,
        product_id: 0x1001,
        axes: vec![axis(ABS_X, 0, 4095)],
        ..EvdevDeviceInfo::default()
    }
}

fn bindings() -> Bindings {
    let wheel = DeviceMatch::Device(DeviceIdentity::new(0x046d, 0xc24f, "", ""));
    let hb = DeviceMatch::Device(DeviceIdentity::new(0x30b7, 0x1001, "", "HB-0042"));
    Bindings {
        axes: vec![
            AxisBinding {
                control: AxisControl::Steering,
                device: wheel.clone(),
                axis: 0x3_0000,
                calibration: AxisCalibration::default(),
                rotation_deg: 900.0,
            },
            AxisBinding {
                control: AxisControl::Throttle,
                device: wheel.clone(),
                axis: 0x3_0001,
                calibration: AxisCalibration {
                    invert: true,
                    ..AxisCalibration::default()
                },
                rotation_deg: 900.0,
            },
            AxisBinding {
                control: AxisControl::Handbrake,
                device: hb,
                axis: 0x3_0000,
                calibration: AxisCalibration::default(),
                rotation_deg: 900.0,
            },
        ],
        buttons: vec![ButtonBinding {
            action: ButtonAction::ShiftUp,
            device: wheel,
            button: 0x1_02c0,
        }],
        ..Bindings::default()
    }
}

fn tick(
    backend: &mut EvdevBackend<ScriptedEnumerator>,
    mapper: &mut ControlMapper,
    ms: u64,
) -> (TickOutput, Vec<InputNotice>) {
    let mut events = Vec::new();
    backend.poll(Duration::from_millis(ms), &mut events);
    let notices = events.iter().filter_map(|e| mapper.handle(e)).collect();
    (mapper.tick(0.001), notices)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

#[test]
fn wheel_and_handbrake_drive_controls_and_survive_a_replug() {
    let sys = ScriptedEnumerator::default();
    let wheel = sys.plug(g29("/dev/input/event7"));
    let hb = sys.plug(handbrake());
    let mut backend = EvdevBackend::new(sys.clone(), EvdevSelection::All)
        .rescan_every(Duration::from_millis(100));
    let mut mapper = ControlMapper::new(&bindings());

    let (out, notices) = tick(&mut backend, &mut mapper, 0);
    assert_eq!(notices.len(), 2, "{notices:?}");
    assert!(close(out.controls.throttle, 0.0), "pedal at rest (255)");

    // Full left lock, throttle floored, handbrake pulled, paddle up: all in one tick.
    wheel.push(&[
        RawEvent::new(EV_ABS, ABS_X, 65535),
        RawEvent::new(EV_ABS, ABS_Y, 0),
        RawEvent::new(EV_KEY, BTN_TRIGGER_HAPPY1, 1),
        SYN,
    ]);
    hb.push(&[RawEvent::new(EV_ABS, ABS_X, 4095), SYN]);
    let (out, _) = tick(&mut backend, &mut mapper, 1);
    let c = out.controls;
    assert!(close(c.throttle, 1.0), "{c:?}");
    assert!(close(c.handbrake, 1.0), "{c:?}");
    assert!(c.shift_up);
    // Raw maximum is full right lock: negative (ISO 8855, left positive).
    assert!(close(c.steering_wheel_rad, -450f64.to_radians()), "{c:?}");

    // The wheel is unplugged mid-drive: its controls are released at once.
    sys.unplug("/dev/input/event7");
    let (out, notices) = tick(&mut backend, &mut mapper, 2);
    assert!(
        notices.iter().any(|n| matches!(
            n,
            InputNotice::DeviceLost {
                carries_controls: true,
                ..
            }
        )),
        "{notices:?}"
    );
    assert!(close(out.controls.throttle, 0.0), "{:?}", out.controls);
    assert!(close(out.controls.handbrake, 1.0), "the handbrake stays");

    // Back on another node: found at the next scan, same bindings and calibration.
    let wheel = sys.plug(g29("/dev/input/event12"));
    let mut returned = Vec::new();
    for ms in 3..=100 {
        returned.extend(tick(&mut backend, &mut mapper, ms).1);
    }
    assert!(
        returned.iter().any(|n| matches!(
            n,
            InputNotice::DeviceConnected {
                returning: true,
                ..
            }
        )),
        "{returned:?}"
    );
    // It reports its centred wheel on connecting, then moves again through the same binding.
    let (out, _) = tick(&mut backend, &mut mapper, 101);
    assert!(
        out.controls.steering_wheel_rad.abs() < 1e-3,
        "half a raw count off centre: {:?}",
        out.controls
    );
    wheel.push(&[RawEvent::new(EV_ABS, ABS_X, 0), SYN]);
    let (out, _) = tick(&mut backend, &mut mapper, 102);
    assert!(close(out.controls.steering_wheel_rad, 450f64.to_radians()));
}

/// A recording evdev FF device that can be shared with the writer thread.
#[derive(Clone, Default)]
struct SharedFf(Arc<Mutex<Vec<FfCall>>>);

impl SharedFf {
    fn calls(&self) -> Vec<FfCall> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
    fn push(&self, call: FfCall) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(call);
    }
}

impl EvdevFfDevice for SharedFf {
    fn upload(&mut self, effect: &FfConstantEffect) -> io::Result<i16> {
        self.push(FfCall::Upload(*effect));
        Ok(6)
    }
    fn update(&mut self, effect: &FfConstantEffect) -> io::Result<()> {
        self.push(FfCall::Update(*effect));
        Ok(())
    }
    fn play(&mut self, id: i16, count: i32) -> io::Result<()> {
        self.push(FfCall::Play(id, count));
        Ok(())
    }
    fn stop(&mut self, id: i16) -> io::Result<()> {
        self.push(FfCall::Stop(id));
        Ok(())
    }
    fn erase(&mut self, id: i16) -> io::Result<()> {
        self.push(FfCall::Erase(id));
        Ok(())
    }
    fn set_gain(&mut self, gain: u16) -> io::Result<()> {
        self.push(FfCall::Gain(gain));
        Ok(())
    }
    fn set_autocenter(&mut self, strength: u16) -> io::Result<()> {
        self.push(FfCall::Autocenter(strength));
        Ok(())
    }
}

#[test]
fn evdev_backend_behind_the_writer_thread() {
    let device = SharedFf::default();
    let config = EvdevFfConfig {
        rate_hz: 500.0,
        ..EvdevFfConfig::default()
    };
    let backend = EvdevFfBackend::start(device.clone(), config).unwrap();
    assert!((backend.max_rate_hz() - 500.0).abs() < 1e-9);
    let writer = FfbWriter::spawn(
        backend,
        WriterConfig {
            watchdog: None,
            ..WriterConfig::default()
        },
    )
    .unwrap();
    assert!(
        (writer.rate_hz() - 500.0).abs() < 1e-9,
        "the backend's rate"
    );
    writer.store(0.5);
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while !device
        .calls()
        .iter()
        .any(|c| matches!(c, FfCall::Update(e) if e.level == 16384))
    {
        assert!(std::time::Instant::now() < deadline, "{:?}", device.calls());
        std::thread::sleep(Duration::from_millis(1));
    }
    assert!(!writer.failed());
    writer.shutdown();
    let calls = device.calls();
    // One upload only; every update reuses the kernel's id 6; the end is zero, stop, erase.
    assert_eq!(
        calls
            .iter()
            .filter(|c| matches!(c, FfCall::Upload(_)))
            .count(),
        1
    );
    assert!(
        calls
            .iter()
            .all(|c| !matches!(c, FfCall::Update(e) if e.id != 6))
    );
    let n = calls.len();
    assert!(
        matches!(calls[n - 3], FfCall::Update(e) if e.level == 0),
        "{calls:?}"
    );
    assert_eq!(calls[n - 2..], [FfCall::Stop(6), FfCall::Erase(6)]);
}

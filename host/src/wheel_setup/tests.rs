//! Tests of the wheel set-up: plans, backend choice, opening, candidates, summaries.
use gripline_devices::evdev_input::{EvdevAxis, FfCapabilities};
use gripline_input::settings::bindings::AxisBinding;
use gripline_input::settings::ffb_settings::FfbDeviceSettings;

use super::*;

const G29: (u16, u16) = (0x046d, 0xc24f);
const MOZA_R9: (u16, u16) = (0x346e, 0x0002);

fn axis(code: u16) -> EvdevAxis {
    EvdevAxis {
        code,
        value: 0,
        min: 0,
        max: 65535,
        fuzz: 0,
        flat: 0,
    }
}

fn device(path: &str, ids: (u16, u16), name: &str, constant: bool) -> EvdevDeviceInfo {
    EvdevDeviceInfo {
        path: path.to_owned(),
        name: name.to_owned(),
        phys: format!("usb-0000:00:14.0-{path}"),
        vendor_id: ids.0,
        product_id: ids.1,
        axes: vec![axis(0), axis(1), axis(2)],
        buttons: vec![0x120, 0x121],
        ff: FfCapabilities {
            constant,
            gain: constant,
            max_effects: if constant { 16 } else { 0 },
            ..FfCapabilities::default()
        },
        ..EvdevDeviceInfo::default()
    }
}

fn g29(constant: bool) -> EvdevDeviceInfo {
    device(
        "/dev/input/event7",
        G29,
        "Logitech G29 Driving Force Racing Wheel",
        constant,
    )
}

/// A pedal box without force feedback, unknown IDs.
fn pedals() -> EvdevDeviceInfo {
    device("/dev/input/event3", (0x1dd2, 0x100c), "Pedals", false)
}

/// An unknown wheel with a kernel FF driver.
fn unknown_wheel() -> EvdevDeviceInfo {
    device("/dev/input/event9", (0x1234, 0x5678), "Some Wheel", true)
}

fn open(plan: &Plan) -> &PlannedDevice {
    match plan {
        Plan::Open(p) => p,
        Plan::None { reason } => panic!("expected a device, got none: {reason}"),
    }
}

fn linux(settings: &Settings, devices: &[EvdevDeviceInfo]) -> Plan {
    plan_on(settings, devices, Platform::Linux)
}

fn steering_on(settings: &mut Settings, id: DeviceIdentity, rotation_deg: f64) {
    settings.bindings.axes.push(AxisBinding {
        control: AxisControl::Steering,
        device: DeviceMatch::Device(id),
        axis: 0x3_0000,
        calibration: gripline_input::settings::axis_calibration::AxisCalibration::default(),
        rotation_deg,
    });
}

fn device_settings(id: DeviceIdentity, backend: FfbBackendChoice) -> FfbDeviceSettings {
    FfbDeviceSettings {
        device: id,
        invert: true,
        peak_torque_nm: Some(3.0),
        max_rate_hz: Some(400.0),
        backend,
        peak_confirmed_nm: None,
    }
}

#[test]
fn no_device_means_none() {
    let s = Settings::default();
    assert_eq!(
        linux(&s, &[]),
        Plan::None {
            reason: NO_WHEEL.to_owned()
        }
    );
    // Devices without force feedback do not count.
    assert_eq!(
        linux(&s, &[pedals()]),
        Plan::None {
            reason: NO_WHEEL.to_owned()
        }
    );
}

#[test]
fn disabled_or_off_means_none() {
    let mut s = Settings::default();
    s.ffb.enabled = false;
    assert_eq!(
        linux(&s, &[g29(true)]),
        Plan::None {
            reason: FFB_DISABLED.to_owned()
        }
    );
    let mut s = Settings::default();
    s.ffb.backend = FfbBackendChoice::Off;
    let Plan::None { reason } = linux(&s, &[g29(true)]) else {
        panic!("Off must give none");
    };
    assert!(reason.contains("Logitech G29"), "{reason}");
    assert!(reason.contains("turned off in the settings"), "{reason}");
    // Off on the device itself, with Auto globally.
    let mut s = Settings::default();
    s.ffb
        .devices
        .push(device_settings(g29(true).identity(), FfbBackendChoice::Off));
    assert!(matches!(linux(&s, &[g29(true)]), Plan::None { .. }));
}

#[test]
fn evdev_preferred_when_the_node_offers_constant_force() {
    let s = Settings::default();
    let p = linux(&s, &[pedals(), g29(true)]);
    let p = open(&p);
    assert_eq!(p.decision.kind, FfbBackendKind::EvdevConstant);
    assert_eq!(p.evdev_node.as_deref(), Some("/dev/input/event7"));
    assert_eq!(p.identity, g29(true).identity());
    assert_eq!(p.display_name(), "Logitech G29 (PS3 mode)");
    assert_eq!(p.rotation_deg, Some(900), "the known wheel's default");
    assert_eq!(p.rate_hz, None);
    // An unknown wheel with a kernel driver works through evdev too.
    let p = linux(&s, &[unknown_wheel()]);
    assert_eq!(open(&p).decision.kind, FfbBackendKind::EvdevConstant);
    assert_eq!(open(&p).display_name(), "Some Wheel");
}

#[test]
fn known_logitech_without_evdev_ff_uses_the_classic_protocol() {
    let s = Settings::default();
    let p = linux(&s, &[g29(false)]);
    let p = open(&p);
    assert_eq!(p.decision.kind, FfbBackendKind::LogitechClassic);
    assert_eq!(p.evdev_node, None);
    // Off Linux, even a node with FF_CONSTANT cannot be used.
    let p = plan_on(&s, &[g29(true)], Platform::Other);
    assert_eq!(open(&p).decision.kind, FfbBackendKind::LogitechClassic);
}

#[test]
fn configured_device_and_its_backend_override_are_honoured() {
    let moza = device("/dev/input/event12", MOZA_R9, "MOZA R9", true);
    let mut s = Settings::default();
    s.ffb.device = Some(DeviceIdentity::new(MOZA_R9.0, MOZA_R9.1, "R9", ""));
    // The configured device wins over the first wheel in the list.
    let p = linux(&s, &[g29(true), moza.clone()]);
    assert_eq!(open(&p).identity, moza.identity());
    assert_eq!(open(&p).decision.kind, FfbBackendKind::EvdevConstant);
    // Its own backend setting beats the global one; its rate is passed on.
    s.ffb.backend = FfbBackendChoice::Off;
    s.ffb
        .devices
        .push(device_settings(moza.identity(), FfbBackendChoice::HidPid));
    let p = linux(&s, &[g29(true), moza.clone()]);
    assert_eq!(open(&p).decision.kind, FfbBackendKind::HidPid);
    assert_eq!(open(&p).rate_hz, Some(400.0));
    // A configured known wheel that is not in the list: its raw HID protocol.
    let mut s = Settings::default();
    s.ffb.device = Some(DeviceIdentity::new(G29.0, G29.1, "G29", ""));
    let p = linux(&s, &[unknown_wheel()]);
    assert_eq!(open(&p).decision.kind, FfbBackendKind::LogitechClassic);
    // A configured device that is unknown and absent: none, with the reason.
    let mut s = Settings::default();
    s.ffb.device = Some(DeviceIdentity::new(0xaaaa, 0xbbbb, "Gone", ""));
    let Plan::None { reason } = linux(&s, &[]) else {
        panic!("an absent unknown device has no backend");
    };
    assert!(reason.starts_with("Gone: "), "{reason}");
}

#[test]
fn the_wheel_bound_to_steering_wins() {
    let mut s = Settings::default();
    let second = device("/dev/input/event11", MOZA_R9, "MOZA R9", true);
    // Bound through gilrs: a UUID where evdev has a path; the IDs still match.
    steering_on(
        &mut s,
        DeviceIdentity::new(MOZA_R9.0, MOZA_R9.1, "R9", "03000000..."),
        1080.0,
    );
    let p = linux(&s, &[g29(true), second.clone()]);
    let p = open(&p);
    assert_eq!(p.identity, second.identity());
    assert_eq!(p.rotation_deg, Some(1080), "the binding's rotation");
    // A steering device without force feedback is skipped for the first wheel.
    let mut s = Settings::default();
    steering_on(&mut s, pedals().identity(), 900.0);
    let p = linux(&s, &[pedals(), g29(true)]);
    assert_eq!(open(&p).identity, g29(true).identity());
}

#[test]
fn the_ff_node_of_a_multi_node_wheel_is_used() {
    // The wheel's first node has no FF (e.g. its LEDs); the second has FF_CONSTANT.
    let mut leds = g29(false);
    leds.path = "/dev/input/event6".to_owned();
    let p = linux(&Settings::default(), &[leds, g29(true)]);
    assert_eq!(
        open(&p).evdev_node.as_deref(),
        Some("/dev/input/event7"),
        "{p:?}"
    );
    assert_eq!(open(&p).decision.kind, FfbBackendKind::EvdevConstant);
}

#[test]
fn backend_choice_prefers_the_device_setting() {
    let mut ffb = FfbSettings {
        backend: FfbBackendChoice::Evdev,
        ..FfbSettings::default()
    };
    let id = g29(true).identity();
    assert_eq!(backend_choice(&ffb, &id), FfbBackendChoice::Evdev);
    ffb.devices
        .push(device_settings(id.clone(), FfbBackendChoice::Auto));
    assert_eq!(backend_choice(&ffb, &id), FfbBackendChoice::Evdev);
    ffb.devices[0].backend = FfbBackendChoice::LogitechClassic;
    assert_eq!(backend_choice(&ffb, &id), FfbBackendChoice::LogitechClassic);
}

#[test]
fn a_failed_open_falls_back_to_no_force_feedback() {
    // Evdev on a node that does not exist: the open fails, the set-up does not.
    let s = Settings::default();
    let plan = Plan::Open(PlannedDevice {
        identity: DeviceIdentity::new(0x1234, 0x5678, "Ghost", ""),
        wheel: None,
        evdev_node: Some("/nonexistent/event0".to_owned()),
        decision: BackendDecision {
            kind: FfbBackendKind::EvdevConstant,
            reason: "test",
        },
        rotation_deg: None,
        rate_hz: None,
    });
    let mut opened = open_plan(&s, &plan);
    assert_eq!(opened.backend, FfbBackendKind::None);
    assert_eq!(opened.status, LinkStatus::Failed, "worth retrying");
    assert!(
        opened
            .summary
            .starts_with("FFB: none (opening Ghost via evdev FF_CONSTANT"),
        "{}",
        opened.summary
    );
    assert_eq!(opened.link.backend.send_level(0.5), Ok(()));
    assert!((opened.link.facts.peak_torque_nm - s.ffb.max_torque_nm).abs() < 1e-12);
}

#[test]
fn set_up_without_devices_gives_no_force_feedback() {
    let s = Settings::default();
    let scan = scan_devices();
    if !scan.devices.is_empty() || scan.unreadable > 0 {
        // A machine with real controllers: what it opens depends on them.
        return;
    }
    let mut setup = set_up(&s);
    assert_eq!(setup.ffb.backend, FfbBackendKind::None);
    assert_eq!(setup.ffb.status, LinkStatus::Idle);
    assert_eq!(
        setup.ffb.summary,
        "FFB: none (no force-feedback wheel found)"
    );
    assert_eq!(setup.ffb.link.backend.send_level(0.7), Ok(()));
    assert_eq!(setup.ffb.link.backend.stop(), Ok(()));
    assert!((setup.ffb.link.facts.peak_torque_nm - s.ffb.max_torque_nm).abs() < 1e-12);
    assert!(!setup.ffb.link.facts.invert);
    assert_eq!(setup.input_threads.len(), setup.input_devices.len());
    if !std::path::Path::new("/dev/input").is_dir() {
        assert!(setup.input_threads.is_empty());
    }
    let (rig, threads) = setup.into_rig(&s);
    assert!(!rig.ffb_killed());
    for t in threads {
        t.stop();
    }
}

#[test]
fn candidates_list_force_feedback_devices_once_and_the_automatic_choice() {
    let s = Settings::default();
    let c = candidates_among(&s, &[pedals(), g29(true), g29(true), unknown_wheel()]);
    let names: Vec<&str> = c.devices.iter().map(|(_, n)| n.as_str()).collect();
    assert_eq!(
        names,
        ["Logitech G29 (PS3 mode)", "Some Wheel"],
        "no pedals, no twice"
    );
    let (device, backend) = c.automatic.expect("a wheel is there");
    assert_eq!((device.vendor_id, device.product_id), G29);
    assert!(backend.starts_with("evdev"), "{backend}");
    assert_eq!(candidates_among(&s, &[pedals()]), FfbCandidates::default());
}

#[test]
fn the_summary_says_what_the_driver_did_with_the_range() {
    use gripline_devices::ffb::sysfs_range::RangeError;
    assert_eq!(
        rotation_note(Ok(900), 900),
        ", 900° range set in the driver"
    );
    assert!(rotation_note(Ok(900), 1080).contains("limits the range to 900°"));
    assert_eq!(
        rotation_note(Err(RangeError::Unsupported("/sys/x".into())), 900),
        ""
    );
    let denied = RangeError::Io {
        path: "/sys/class/input/event7/device/device/range".into(),
        source: std::io::Error::from(std::io::ErrorKind::PermissionDenied),
    };
    assert!(rotation_note(Err(denied), 900).starts_with(", range not set ("));
}

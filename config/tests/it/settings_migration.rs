//! A schema-1 settings file (checked in as `config/tests/fixtures/settings_v1.ron`) migrates to
//! the current schema with every value carried over.

use std::fs;

use gripline_config::{Fullscreen, PresentMode, SCHEMA_VERSION, SettingsStore, Severity};
use gripline_input::settings::bindings::{AxisControl, ButtonAction};
use gripline_input::settings::device_identity::{DeviceIdentity, DeviceMatch};
use gripline_physics::powertrain::gearbox::GearboxMode;
use gripline_physics::validate::Validate;

const V1: &str = include_str!("../fixtures/settings_v1.ron");

#[test]
fn schema_1_file_migrates_and_is_kept_as_a_backup() {
    let dir = tempfile::tempdir().unwrap();
    let store = SettingsStore::new(dir.path());
    fs::write(store.settings_path(), V1).unwrap();
    let out = store.load();
    assert!(out.kept_broken.is_empty());
    assert_eq!(out.messages.len(), 1, "{:?}", out.messages);
    assert_eq!(out.messages[0].severity, Severity::Info);
    assert!(out.messages[0].message.contains("migrated from schema 1"));

    let s = &out.settings;
    assert!(s.check().is_ok());
    assert_eq!(s.schema_version, SCHEMA_VERSION);
    assert_eq!(s.session.vehicle_id, "corvette-c5");
    assert_eq!(s.session.track_id, "circuit");
    assert_eq!(s.session.gearbox_mode, GearboxMode::HPattern);
    assert!(!s.session.aids.abs && s.session.aids.traction_control);
    assert_eq!((s.graphics.width, s.graphics.height), (1920, 1080));
    assert_eq!(s.graphics.fullscreen, Fullscreen::Borderless);
    assert_eq!(s.graphics.present_mode, PresentMode::NoVsync);
    assert!(
        (s.graphics.fov_deg - 70.0).abs() < 1e-9,
        "{}",
        s.graphics.fov_deg
    );
    assert_eq!(s.graphics.msaa_samples, 8);
    assert_eq!(s.ffb.gain.to_bits(), 0.8f64.to_bits());
    assert_eq!(s.ffb.max_torque_nm.to_bits(), 6f64.to_bits());

    let g29 = DeviceIdentity::new(0x046d, 0xc24f, "G29 Driving Force Racing Wheel", "");
    let wheel = DeviceMatch::Device(g29.clone());
    assert_eq!(s.ffb.devices.len(), 1);
    assert!(s.ffb.devices[0].invert && s.ffb.devices[0].device == g29);
    let wheel_axes: Vec<_> = s
        .bindings
        .axes
        .iter()
        .filter(|a| a.device == wheel)
        .collect();
    assert_eq!(wheel_axes.len(), 2);
    assert_eq!(wheel_axes[0].control, AxisControl::Steering);
    assert!(wheel_axes[1].calibration.invert);
    assert!(
        s.bindings.axes.iter().all(|a| a.device == wheel),
        "schema 1 listed its axes: the default gamepad axes are not added back"
    );
    let actions: Vec<_> = s
        .bindings
        .buttons
        .iter()
        .map(|b| (b.action, b.device.clone()))
        .collect();
    assert_eq!(
        actions,
        [
            (ButtonAction::ShiftUp, DeviceMatch::Keyboard),
            (ButtonAction::ShiftDown, DeviceMatch::Keyboard),
            (ButtonAction::Gear(1), wheel.clone()),
        ]
    );

    // The old file is kept once, byte for byte.
    let backup = dir.path().join("settings.ron.schema1.bak");
    assert_eq!(fs::read_to_string(&backup).unwrap(), V1);

    // Saving writes the new layout; loading it gives the same settings, with no messages.
    store.save(s).unwrap();
    let main = fs::read_to_string(store.settings_path()).unwrap();
    assert!(
        main.contains("schema_version: 2") && main.contains("fov_deg"),
        "{main}"
    );
    assert!(
        store
            .devices_dir()
            .join("046d-c24f-g29-driving-force-racing-wheel.ron")
            .is_file()
    );
    let again = store.load();
    assert!(again.messages.is_empty(), "{:?}", again.messages);
    assert_eq!(&again.settings, s);
    assert_eq!(fs::read_to_string(&backup).unwrap(), V1);
}

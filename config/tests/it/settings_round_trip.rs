//! Every settings type survives RON and the store unchanged.

use std::path::Path;

use gripline_config::device_file::{DeviceGroup, canonical};
use gripline_config::settings_file::SettingsFile;
use gripline_config::{
    Aids, AudioSettings, CameraView, Fullscreen, GraphicsSettings, PresentMode, QualityChoice,
    SessionSettings, Settings, SettingsStore, TelemetrySettings,
};
use gripline_formats::ron_text;
use gripline_input::settings::axis_calibration::{
    AxisCalibration, CurvePoint, RawRange, ResponseCurve,
};
use gripline_input::settings::bindings::{
    AxisBinding, AxisControl, Bindings, ButtonAction, ButtonBinding,
};
use gripline_input::settings::device_identity::{DeviceIdentity, DeviceMatch};
use gripline_input::settings::ffb_settings::{FfbBackendChoice, FfbDeviceSettings, FfbSettings};
use gripline_physics::powertrain::gearbox::GearboxMode;
use gripline_physics::validate::Validate;
use serde::Serialize;
use serde::de::DeserializeOwned;

fn g29() -> DeviceIdentity {
    DeviceIdentity::new(0x046d, 0xc24f, "G29 Driving Force Racing Wheel", "")
}

fn shifter() -> DeviceIdentity {
    DeviceIdentity::new(
        0x046d,
        0xc266,
        "Driving Force Shifter",
        "usb-0000:00:14.0-2",
    )
}

/// Settings with every part changed from its default.
#[allow(clippy::field_reassign_with_default)] // built up part by part for readability
fn sample() -> Settings {
    let mut s = Settings::default();
    s.session = SessionSettings {
        vehicle_id: "corvette-c5".into(),
        track_id: "circuit".into(),
        gearbox_mode: GearboxMode::HPattern,
        aids: Aids {
            abs: false,
            traction_control: true,
            auto_clutch: false,
        },
        setups: [("corvette-c5".to_owned(), "quali".to_owned())].into(),
        environment: gripline_physics::environment::Environment {
            ambient_temp_c: 31.0,
            track_temp_c: 48.5,
        },
    };
    s.graphics = GraphicsSettings {
        width: 2560,
        height: 1440,
        fullscreen: Fullscreen::Exclusive,
        present_mode: PresentMode::Mailbox,
        frame_latency: 1,
        fov_deg: 72.5,
        msaa_samples: 8,
        quality: QualityChoice::Medium,
        camera: CameraView::Cockpit,
    };
    s.audio = AudioSettings {
        master: 0.55,
        engine: 0.9,
        tyres: 0.7,
        ambient: 0.25,
        device: Some("hw:CARD=USB,DEV=0".into()),
        muted: true,
    };
    s.telemetry = TelemetrySettings {
        outgauge: Some("192.168.1.20:30000".into()),
        outgauge_rate_hz: 30.0,
        outsim: Some("motion.local:4123".into()),
        outsim_rate_hz: 250.0,
        outsim_opts: 0xff,
        id: Some(2),
        stream: Some("10.0.0.5:30002".into()),
        stream_rate_hz: 500.0,
    };
    s.ffb = FfbSettings {
        gain: 0.7,
        max_torque_nm: 2.2,
        min_force_nm: 0.1,
        damping_nm_s_per_rad: 0.02,
        friction_nm: 0.05,
        smoothing_ms: 4.0,
        backend: FfbBackendChoice::HidPid,
        device: Some(g29()),
        devices: vec![FfbDeviceSettings {
            device: g29(),
            invert: true,
            peak_torque_nm: Some(2.3),
            max_rate_hz: Some(500.0),
            backend: FfbBackendChoice::Evdev,
            peak_confirmed_nm: None,
        }],
        ..FfbSettings::default()
    };
    let wheel = DeviceMatch::Device(g29());
    s.bindings.axes.push(AxisBinding {
        control: AxisControl::Steering,
        device: wheel.clone(),
        axis: 0,
        calibration: AxisCalibration {
            raw_range: Some(RawRange { min: 0, max: 65535 }),
            centre: Some(32767),
            ..AxisCalibration::default()
        },
        rotation_deg: 900.0,
    });
    s.bindings.axes.push(AxisBinding {
        control: AxisControl::Brake,
        device: wheel.clone(),
        axis: 5,
        calibration: AxisCalibration {
            raw_range: Some(RawRange { min: 0, max: 255 }),
            invert: true,
            dead_zone: 0.03,
            saturation: 0.05,
            anti_dead_zone: 0.1,
            curve: ResponseCurve::Points(vec![
                CurvePoint { x: 0.0, y: 0.0 },
                CurvePoint { x: 0.4, y: 0.2 },
                CurvePoint { x: 1.0, y: 1.0 },
            ]),
            rest_raw: Some(255),
            ..AxisCalibration::default()
        },
        rotation_deg: 900.0,
    });
    for gear in [-1i8, 1, 2, 3, 4, 5, 6] {
        s.bindings.buttons.push(ButtonBinding {
            action: ButtonAction::Gear(gear),
            device: DeviceMatch::Device(shifter()),
            button: 300 + u32::from(gear.unsigned_abs()),
        });
    }
    s.bindings
        .buttons
        .retain(|b| b.action != ButtonAction::Starter);
    s.bindings.digital.steer_rate_per_s = 3.0;
    s.bindings.device_lost.clutch = 0.0;
    assert!(s.check().is_ok(), "{:?}", s.check());
    s
}

fn ron_round_trip<T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug>(value: &T) {
    let text = ron_text::to_pretty(value).unwrap();
    let back: T = ron_text::parse_strict(&text, Path::new("t.ron")).unwrap();
    assert_eq!(&back, value, "{text}");
}

#[test]
fn every_type_round_trips_through_ron() {
    let s = sample();
    ron_round_trip(&s.session);
    ron_round_trip(&s.session.aids);
    ron_round_trip(&s.graphics);
    ron_round_trip(&s.ffb);
    ron_round_trip(&s.ffb.devices[0]);
    ron_round_trip(&s.bindings);
    ron_round_trip(&s.bindings.axes[1].calibration);
    ron_round_trip(&s.bindings.digital);
    ron_round_trip(&s.bindings.device_lost);
    ron_round_trip(&SettingsFile::from_settings(&s));
    for group in [
        DeviceGroup::defaults(DeviceMatch::Keyboard),
        DeviceGroup::defaults(DeviceMatch::AnyGamepad),
    ] {
        ron_round_trip(&group.to_file());
        assert_eq!(DeviceGroup::from_file(group.to_file()), group);
    }
    for present in [
        PresentMode::Vsync,
        PresentMode::NoVsync,
        PresentMode::Mailbox,
    ] {
        ron_round_trip(&present);
    }
    for camera in [CameraView::Chase, CameraView::Cockpit, CameraView::Bonnet] {
        ron_round_trip(&camera);
    }
    for full in [
        Fullscreen::Windowed,
        Fullscreen::Borderless,
        Fullscreen::Exclusive,
    ] {
        ron_round_trip(&full);
    }
}

#[test]
fn store_round_trip_of_every_setting() {
    let dir = tempfile::tempdir().unwrap();
    let store = SettingsStore::new(dir.path());
    let s = sample();
    assert!(store.save(&s).unwrap().is_empty());
    let loaded = store.load();
    assert!(loaded.messages.is_empty(), "{:?}", loaded.messages);
    assert!(loaded.kept_broken.is_empty());
    assert_eq!(loaded.settings, canonical(&s));
    // Saving what was loaded changes nothing.
    let before = std::fs::read(store.settings_path()).unwrap();
    store.save(&loaded.settings).unwrap();
    assert_eq!(std::fs::read(store.settings_path()).unwrap(), before);
    assert_eq!(store.load().settings, loaded.settings);
}

#[test]
fn files_are_laid_out_per_device() {
    let dir = tempfile::tempdir().unwrap();
    let store = SettingsStore::new(dir.path());
    store.save(&sample()).unwrap();
    let mut names: Vec<String> = std::fs::read_dir(store.devices_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "046d-c24f-g29-driving-force-racing-wheel.ron",
            "046d-c266-driving-force-shifter-usb-0000-00-14-0-2.ron",
            "gamepad.ron",
            "keyboard.ron",
        ]
    );
    let main = std::fs::read_to_string(store.settings_path()).unwrap();
    assert!(main.contains("schema_version: 2"), "{main}");
    assert!(
        !main.contains("axes"),
        "bindings are in the device files: {main}"
    );
    let wheel = std::fs::read_to_string(
        store
            .devices_dir()
            .join("046d-c24f-g29-driving-force-racing-wheel.ron"),
    )
    .unwrap();
    assert!(
        wheel.contains("peak_torque_nm") && wheel.contains("Steering"),
        "{wheel}"
    );
}

#[test]
fn an_empty_folder_gives_the_defaults_and_defaults_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let store = SettingsStore::new(dir.path().join("not-yet-created"));
    let loaded = store.load();
    assert_eq!(loaded.settings, Settings::default());
    assert!(loaded.messages.is_empty());
    store.save(&loaded.settings).unwrap();
    let again = store.load();
    assert_eq!(again.settings, Settings::default());
    assert!(again.messages.is_empty(), "{:?}", again.messages);
}

#[test]
fn removed_devices_and_bindings_stay_removed() {
    let dir = tempfile::tempdir().unwrap();
    let store = SettingsStore::new(dir.path());
    let mut s = sample();
    store.save(&s).unwrap();
    // The user unbinds the shifter and every keyboard key.
    s.bindings
        .buttons
        .retain(|b| b.device == DeviceMatch::AnyGamepad);
    store.save(&s).unwrap();
    let loaded = store.load().settings;
    assert!(
        loaded
            .bindings
            .buttons
            .iter()
            .all(|b| b.device == DeviceMatch::AnyGamepad),
        "{:?}",
        loaded.bindings.buttons
    );
    assert!(
        !store
            .devices_dir()
            .join("046d-c266-driving-force-shifter-usb-0000-00-14-0-2.ron")
            .exists()
    );
    assert_eq!(loaded, canonical(&s));
}

#[test]
fn a_missing_keyboard_file_brings_back_the_keyboard_defaults() {
    let dir = tempfile::tempdir().unwrap();
    let store = SettingsStore::new(dir.path());
    store.save(&sample()).unwrap();
    std::fs::remove_file(store.devices_dir().join("keyboard.ron")).unwrap();
    let loaded = store.load().settings;
    let defaults = Bindings::default();
    let keys: Vec<_> = loaded
        .bindings
        .buttons
        .iter()
        .filter(|b| b.device == DeviceMatch::Keyboard)
        .collect();
    let default_keys: Vec<_> = defaults
        .buttons
        .iter()
        .filter(|b| b.device == DeviceMatch::Keyboard)
        .collect();
    assert_eq!(keys, default_keys);
}

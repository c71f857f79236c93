//! Fuzzed, truncated and mutated settings files never panic and always give valid settings;
//! arbitrary values are always repaired into valid settings.

use std::fs;
use std::path::Path;

use gripline_config::device_file::DeviceGroup;
use gripline_config::settings_file::{
    decode_device, decode_settings, encode_device, encode_settings,
};
use gripline_config::{Settings, SettingsStore};
use gripline_input::settings::device_identity::DeviceMatch;
use gripline_physics::validate::Validate;
use proptest::prelude::*;

/// A full settings file and a gamepad device file, as saved.
fn valid_files() -> (String, String) {
    let mut s = Settings::default();
    s.graphics.fov_deg = 70.0;
    (
        encode_settings(&s).unwrap(),
        encode_device(&DeviceGroup::defaults(DeviceMatch::AnyGamepad)).unwrap(),
    )
}

/// Loads `main` and `gamepad` through a store and checks the result is usable.
fn load_is_usable(main: &[u8], gamepad: &[u8]) {
    let dir = tempfile::tempdir().unwrap();
    let store = SettingsStore::new(dir.path());
    fs::create_dir_all(store.devices_dir()).unwrap();
    fs::write(store.settings_path(), main).unwrap();
    fs::write(store.devices_dir().join("gamepad.ron"), gamepad).unwrap();
    let out = store.load();
    assert!(out.settings.check().is_ok(), "{:?}", out.settings.check());
    // Every message is printable and names its file or field.
    for m in &out.messages {
        assert!(!m.to_string().is_empty());
    }
    // Whatever was loaded can be saved and loads back the same.
    store.save(&out.settings).unwrap();
    let again = store.load();
    assert_eq!(again.settings, out.settings);
    assert!(again.messages.is_empty(), "{:?}", again.messages);
}

#[test]
fn every_truncation_of_a_valid_file_loads() {
    let (main, gamepad) = valid_files();
    for end in (0..=main.len()).filter(|&i| main.is_char_boundary(i)) {
        let d = decode_settings(&main.as_bytes()[..end], Path::new("settings.ron"));
        if let Ok(d) = d {
            let mut s = d.settings;
            s.sanitize();
            assert!(s.check().is_ok());
        }
    }
    for end in (0..=gamepad.len()).step_by(7) {
        let _ = decode_device(&gamepad.as_bytes()[..end], Path::new("gamepad.ron"));
    }
    // Through the store for a sample of cut points (file I/O is slower).
    for end in (0..main.len()).step_by(97) {
        load_is_usable(
            &main.as_bytes()[..end],
            &gamepad.as_bytes()[..gamepad.len() / 2],
        );
    }
}

fn finite_or_not() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<f64>(),
        Just(f64::NAN),
        Just(f64::INFINITY),
        Just(f64::NEG_INFINITY),
        -1.0e4..1.0e4f64,
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let _ = decode_settings(&bytes, Path::new("settings.ron"));
        let _ = decode_device(&bytes, Path::new("gamepad.ron"));
    }

    #[test]
    fn mutated_valid_files_load_to_valid_settings(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8),
        cut in any::<prop::sample::Index>(),
    ) {
        let (main, gamepad) = valid_files();
        let mut main = main.into_bytes();
        let mut pad = gamepad.into_bytes();
        for (at, byte) in &edits {
            let i = at.index(main.len());
            main[i] = *byte;
            let j = at.index(pad.len());
            pad[j] = byte.wrapping_add(1);
        }
        let d = decode_settings(&main, Path::new("settings.ron"));
        if let Ok(d) = d {
            let mut s = d.settings;
            s.sanitize();
            prop_assert!(s.check().is_ok());
        }
        if cut.index(8) == 0 {
            load_is_usable(&main, &pad);
        }
    }

    #[test]
    fn arbitrary_values_are_repaired_to_valid_settings(
        floats in proptest::collection::vec(finite_or_not(), 24),
        ints in proptest::collection::vec(any::<u32>(), 4),
    ) {
        let mut s = Settings::default();
        let g = &mut s.graphics;
        g.fov_deg = floats[0];
        g.width = ints[0];
        g.height = ints[1];
        g.frame_latency = ints[2];
        g.msaa_samples = ints[3];
        let f = &mut s.ffb;
        for (field, value) in [
            &mut f.gain, &mut f.max_torque_nm, &mut f.soft_clip_knee, &mut f.min_force_nm,
            &mut f.min_force_ramp_nm, &mut f.damping_nm_s_per_rad, &mut f.friction_nm,
            &mut f.inertia_kg_m2, &mut f.slew_limit_nm_per_s, &mut f.watchdog_ms,
            &mut f.fade_in_s, &mut f.smoothing_ms,
        ].into_iter().zip(&floats[1..]) {
            *field = *value;
        }
        let axis = &mut s.bindings.axes[0];
        axis.rotation_deg = floats[13];
        axis.calibration.dead_zone = floats[14];
        axis.calibration.saturation = floats[15];
        axis.calibration.anti_dead_zone = floats[16];
        axis.calibration.curve = gripline_input::settings::axis_calibration::ResponseCurve::Gamma(floats[17]);
        let d = &mut s.bindings.digital;
        d.steer_rate_per_s = floats[18];
        d.steer_return_rate_per_s = floats[19];
        d.steer_rotation_deg = floats[20];
        d.pedal_rise_per_s = floats[21];
        s.bindings.device_lost.brake = floats[22];
        s.bindings.device_lost.clutch = floats[23];

        let messages = s.sanitize();
        prop_assert!(s.check().is_ok(), "{:?}", s.check());
        prop_assert!(messages.iter().all(|m| !m.field.is_empty()));
        let mut again = s.clone();
        prop_assert!(again.sanitize().is_empty(), "sanitising is idempotent");
        prop_assert_eq!(again, s);
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    for open in ["(", "[", "Some(", "(a: "] {
        let text = open.repeat(100_000);
        let e = decode_settings(text.as_bytes(), Path::new("settings.ron")).unwrap_err();
        assert!(e.position.is_some(), "{e}");
        let _ = decode_device(text.as_bytes(), Path::new("gamepad.ron"));
    }
}

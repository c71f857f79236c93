//! Broken, unreadable and out-of-range settings files: the defaults are used, the user is
//! told where the problem is, and the broken file is kept beside, never overwritten.

use std::fs;
use std::path::{Path, PathBuf};

use gripline_config::store::LoadOutcome;
use gripline_config::{Settings, SettingsStore, Severity};
use gripline_physics::validate::Validate;

fn store() -> (tempfile::TempDir, SettingsStore) {
    let dir = tempfile::tempdir().unwrap();
    let store = SettingsStore::new(dir.path());
    (dir, store)
}

/// Writes `bytes` as `settings.ron`, loads, and checks the common promises: defaults in
/// use, one error naming the file, the file kept beside with its exact bytes.
fn load_broken(bytes: &[u8]) -> LoadOutcome {
    let (_dir, store) = store();
    fs::write(store.settings_path(), bytes).unwrap();
    let out = store.load();
    assert_eq!(out.settings, Settings::default());
    let errors: Vec<_> = out
        .messages
        .iter()
        .filter(|m| m.severity == Severity::Error)
        .collect();
    assert_eq!(errors.len(), 1, "{:?}", out.messages);
    assert_eq!(
        errors[0].file.as_deref(),
        Some(store.settings_path().as_path())
    );
    assert_eq!(out.kept_broken.len(), 1);
    let kept = &out.kept_broken[0];
    assert_eq!(
        fs::read(kept).unwrap(),
        bytes,
        "the broken file is kept as it was"
    );
    assert_eq!(kept.parent(), store.settings_path().parent());
    let name = kept.file_name().unwrap().to_str().unwrap();
    assert!(name.starts_with("settings.ron.broken-"), "{name}");
    assert!(errors[0].message.contains(name), "{}", errors[0]);
    assert!(!store.settings_path().exists());
    // The next save writes a fresh file and leaves the kept one alone; the next load is clean.
    store.save(&out.settings).unwrap();
    assert_eq!(fs::read(kept).unwrap(), bytes);
    let again = store.load();
    assert!(again.messages.is_empty(), "{:?}", again.messages);
    out
}

#[test]
fn bad_ron_gives_file_line_and_column() {
    let out =
        load_broken(b"(\n    graphics: (\n        fov_deg: 70.0\n        width: 800,\n    ),\n)\n");
    let m = &out.messages[0];
    assert_eq!(m.position.map(|p| p.0), Some(4), "{m}");
    let text = m.to_string();
    assert!(text.contains("settings.ron:4:"), "{text}");
    assert!(text.contains("the default settings are used"), "{text}");
}

#[test]
fn wrong_types_give_line_and_column() {
    let out = load_broken(b"(\n  session: (\n    vehicle_id: 42,\n  ),\n)");
    assert_eq!(
        out.messages[0].position.map(|p| p.0),
        Some(3),
        "{}",
        out.messages[0]
    );
}

#[test]
fn binary_garbage_and_not_utf8() {
    let out = load_broken(&[0x89, b'P', b'N', b'G', 0, 0, 0xff, 0xfe]);
    assert!(
        out.messages[0].message.contains("not a text file"),
        "{}",
        out.messages[0]
    );
    assert_eq!(out.messages[0].position, Some((1, 1)));
    let out = load_broken(b"(session: (vehicle_id: \"caf\xe9\"))");
    assert_eq!(
        out.messages[0].position,
        Some((1, 28)),
        "{}",
        out.messages[0]
    );
    // Valid UTF-8 but not RON at all.
    let out = load_broken("\u{feff}\u{1F697}\u{0}".as_bytes());
    assert!(out.messages[0].position.is_some(), "{}", out.messages[0]);
}

#[test]
fn empty_file() {
    let out = load_broken(b"");
    assert!(
        out.messages[0].message.contains("empty"),
        "{}",
        out.messages[0]
    );
    load_broken(b"  \n\t\n");
}

#[test]
fn unknown_schema_version() {
    let out = load_broken(b"(schema_version: 0)");
    assert!(
        out.messages[0].message.contains("schema version 0"),
        "{}",
        out.messages[0]
    );
}

#[test]
fn a_folder_instead_of_the_file() {
    let (_dir, store) = store();
    fs::create_dir(store.settings_path()).unwrap();
    fs::write(store.settings_path().join("inside.txt"), "x").unwrap();
    let out = store.load();
    assert_eq!(out.settings, Settings::default());
    assert_eq!(out.worst(), Some(Severity::Error));
    assert!(
        out.messages[0].message.contains("folder"),
        "{}",
        out.messages[0]
    );
    assert!(
        out.kept_broken[0].join("inside.txt").exists(),
        "kept with its content"
    );
    store.save(&out.settings).unwrap();
    assert!(store.settings_path().is_file());
}

#[cfg(unix)]
fn running_as_root() -> bool {
    // Root ignores file permissions: probe instead of guessing.
    let dir = tempfile::tempdir().unwrap();
    let probe = dir.path().join("probe");
    fs::write(&probe, "x").unwrap();
    let mut perms = fs::metadata(&probe).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o000);
    fs::set_permissions(&probe, perms).unwrap();
    fs::read(&probe).is_ok()
}

#[cfg(unix)]
#[test]
fn permission_denied_is_reported_and_the_file_kept() {
    if running_as_root() {
        eprintln!("skipped: file permissions do not apply to this user (root)");
        return;
    }
    let (_dir, store) = store();
    fs::write(store.settings_path(), "(graphics: (fov_deg: 80.0))").unwrap();
    let mut perms = fs::metadata(store.settings_path()).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o000);
    fs::set_permissions(store.settings_path(), perms).unwrap();
    let out = store.load();
    assert_eq!(out.settings, Settings::default());
    assert!(
        out.messages[0].message.contains("cannot read"),
        "{}",
        out.messages[0]
    );
    assert_eq!(out.kept_broken.len(), 1);
}

#[test]
fn out_of_range_values_are_clamped_with_messages_and_the_rest_kept() {
    let (_dir, store) = store();
    fs::write(
        store.settings_path(),
        "(\n  graphics: (fov_deg: 500.0, msaa_samples: 3, width: 1920, height: 10, frame_latency: 9),\n  \
         ffb: (gain: NaN, max_torque_nm: 8.0),\n  session: (track_id: \"circuit\"),\n)",
    )
    .unwrap();
    let out = store.load();
    assert!(out.kept_broken.is_empty());
    let g = &out.settings.graphics;
    assert_eq!(g.fov_deg.to_bits(), 120f64.to_bits());
    assert_eq!(
        (g.msaa_samples, g.width, g.height, g.frame_latency),
        (2, 1920, 320, 3)
    );
    assert_eq!(out.settings.ffb.gain.to_bits(), 1f64.to_bits());
    assert_eq!(out.settings.ffb.max_torque_nm.to_bits(), 8f64.to_bits());
    assert_eq!(out.settings.session.track_id, "circuit");
    let fields: Vec<_> = out.messages.iter().map(|m| m.field.as_str()).collect();
    assert_eq!(
        fields,
        [
            "graphics.height",
            "graphics.frame_latency",
            "graphics.fov_deg",
            "graphics.msaa_samples",
            "ffb.gain"
        ]
    );
    assert!(out.messages.iter().all(|m| m.severity == Severity::Warning));
    let fov = out.messages[2].to_string();
    assert!(
        fov.ends_with("warning: graphics.fov_deg: 500 is out of range (10 to 120); clamped to 120"),
        "{fov}"
    );
    assert!(
        fov.starts_with(&store.settings_path().display().to_string()),
        "{fov}"
    );
    assert!(out.settings.check().is_ok());
}

#[test]
fn unknown_fields_warn_with_position_and_the_rest_loads() {
    let (_dir, store) = store();
    fs::write(
        store.settings_path(),
        "(\n  schema_version: 3,\n  graphics: (fov_deg: 75.0, hdr: true),\n  weather: Rain,\n)",
    )
    .unwrap();
    let out = store.load();
    assert!(out.kept_broken.is_empty());
    assert_eq!(out.settings.graphics.fov_deg.to_bits(), 75f64.to_bits());
    let got: Vec<_> = out
        .messages
        .iter()
        .map(|m| (m.severity, m.field.as_str(), m.position))
        .collect();
    assert_eq!(
        got,
        [
            (Severity::Warning, "schema_version", None),
            (Severity::Warning, "graphics.hdr", Some((3, 29))),
            (Severity::Warning, "weather", Some((4, 3))),
        ]
    );
}

fn device_file(store: &SettingsStore, name: &str) -> PathBuf {
    store.devices_dir().join(name)
}

#[test]
fn a_broken_device_file_loses_only_that_device() {
    let (_dir, store) = store();
    fs::create_dir_all(store.devices_dir()).unwrap();
    let wheel = "(\n  device: Device((vendor_id: 0x046d, product_id: 0xc24f, name: \"G29\")),\n  \
                 axes: [(control: Steering, axis: 0, calibration: (dead_zone: 0.9))],\n  \
                 ffb: (invert: true),\n)";
    fs::write(device_file(&store, "046d-c24f-g29.ron"), wheel).unwrap();
    fs::write(
        device_file(&store, "keyboard.ron"),
        "(device: Keyboard, buttons: [(action: ",
    )
    .unwrap();
    let out = store.load();
    // The wheel loaded, with its dead zone clamped (message about the wheel's file).
    let steering = &out.settings.bindings.axes[out.settings.bindings.axes.len() - 1];
    assert_eq!(steering.calibration.dead_zone.to_bits(), 0.5f64.to_bits());
    assert!(out.settings.ffb.devices[0].invert);
    let clamp = out
        .messages
        .iter()
        .find(|m| m.field == "axes[0].calibration.dead_zone")
        .expect("clamp message");
    assert_eq!(
        clamp.file.as_deref(),
        Some(device_file(&store, "046d-c24f-g29.ron").as_path())
    );
    // The keyboard file was broken: kept aside, keyboard defaults in use.
    let error = out
        .messages
        .iter()
        .find(|m| m.severity == Severity::Error)
        .unwrap();
    assert_eq!(
        error.file.as_deref(),
        Some(device_file(&store, "keyboard.ron").as_path())
    );
    assert_eq!(error.position.map(|p| p.0), Some(1), "{error}");
    assert!(
        error.message.contains("this device's default bindings"),
        "{error}"
    );
    assert_eq!(out.kept_broken.len(), 1);
    let defaults = Settings::default();
    let keys = |s: &Settings| {
        s.bindings
            .buttons
            .iter()
            .filter(|b| {
                b.device == gripline_input::settings::device_identity::DeviceMatch::Keyboard
            })
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(keys(&out.settings), keys(&defaults));
    assert!(out.settings.check().is_ok());
}

#[test]
fn save_moves_a_broken_file_in_the_way_aside() {
    let (_dir, store) = store();
    store.save(&Settings::default()).unwrap();
    // Something wrote garbage after the load (another program, a disk error).
    fs::write(store.settings_path(), b"\x00\x01garbage").unwrap();
    let messages = store.save(&Settings::default()).unwrap();
    assert_eq!(messages.len(), 1, "{messages:?}");
    let kept: Vec<PathBuf> = fs::read_dir(store.dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().contains(".broken-"))
        .collect();
    assert_eq!(kept.len(), 1);
    assert_eq!(fs::read(&kept[0]).unwrap(), b"\x00\x01garbage");
    assert!(Path::new(&store.settings_path()).is_file());
}

#[test]
fn a_huge_file_is_not_read() {
    let (_dir, store) = store();
    let huge = vec![b' '; 5 * 1024 * 1024];
    fs::write(store.settings_path(), &huge).unwrap();
    let out = store.load();
    assert_eq!(out.settings, Settings::default());
    assert!(
        out.messages[0].message.contains("too large"),
        "{}",
        out.messages[0]
    );
    assert_eq!(
        fs::metadata(&out.kept_broken[0]).unwrap().len(),
        huge.len() as u64
    );
}

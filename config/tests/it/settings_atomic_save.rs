//! Saving never loses the previous file: a write that fails midway, a crash that leaves a
//! temporary file, a folder that cannot be written.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::Path;

use gripline_config::{Settings, SettingsError, SettingsStore, Severity};
use gripline_formats::atomic_file::write_atomic_with;

/// Writes the first half of the bytes, then fails like a full disk.
fn half_then_fail(file: &mut File, bytes: &[u8]) -> io::Result<()> {
    file.write_all(&bytes[..bytes.len() / 2])?;
    Err(io::Error::new(
        io::ErrorKind::StorageFull,
        "injected: no space left",
    ))
}

fn changed() -> Settings {
    let mut s = Settings::default();
    s.graphics.fov_deg = 85.0;
    s.session.track_id = "circuit".into();
    s
}

fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    for entry in walk(dir) {
        files.push((
            entry.strip_prefix(dir).unwrap().display().to_string(),
            fs::read(&entry).unwrap(),
        ));
    }
    files.sort();
    files
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn a_write_failing_midway_leaves_every_previous_file_intact() {
    let dir = tempfile::tempdir().unwrap();
    let store = SettingsStore::new(dir.path());
    store.save(&Settings::default()).unwrap();
    let before = snapshot(dir.path());

    let failing = SettingsStore::new(dir.path()).with_write_fn(half_then_fail);
    let err = failing.save(&changed()).unwrap_err();
    let SettingsError::Io { path, source } = &err else {
        panic!("expected an I/O error, got {err}");
    };
    assert_eq!(source.kind(), io::ErrorKind::StorageFull);
    assert!(path.starts_with(dir.path()));
    assert!(err.to_string().contains("cannot save"), "{err}");

    assert_eq!(
        snapshot(dir.path()),
        before,
        "no file changed, no temporary file left"
    );
    let loaded = store.load();
    assert_eq!(loaded.settings, Settings::default());
    assert!(loaded.messages.is_empty(), "{:?}", loaded.messages);
}

#[test]
fn the_atomic_write_itself_keeps_the_old_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.ron");
    fs::write(&path, b"old content").unwrap();
    assert!(write_atomic_with(&path, b"new content that is longer", half_then_fail).is_err());
    assert_eq!(fs::read(&path).unwrap(), b"old content");
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    write_atomic_with(&path, b"new", gripline_formats::atomic_file::write_all).unwrap();
    assert_eq!(fs::read(&path).unwrap(), b"new");
}

#[test]
fn a_leftover_temporary_file_from_a_crash_is_removed_and_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let store = SettingsStore::new(dir.path());
    let s = changed();
    store.save(&s).unwrap();
    // A save crashed after writing part of its temporary files (before the rename).
    let leftover = dir.path().join("settings.ron.tmp-4242-0");
    fs::write(&leftover, "(\n    schema_version: 2,\n    session: (vehic").unwrap();
    let device_leftover = store.devices_dir().join("keyboard.ron.tmp-4242-1");
    fs::write(&device_leftover, "(device: Keyb").unwrap();

    let out = store.load();
    assert_eq!(out.settings, s, "the previous files are intact");
    assert!(!leftover.exists() && !device_leftover.exists());
    assert_eq!(out.messages.len(), 2, "{:?}", out.messages);
    assert!(
        out.messages
            .iter()
            .all(|m| m.severity == Severity::Warning && m.message.contains("interrupted save"))
    );
    assert!(out.kept_broken.is_empty());
}

#[test]
fn a_folder_that_cannot_be_created_gives_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let blocker = dir.path().join("a-file");
    fs::write(&blocker, "not a folder").unwrap();
    let store = SettingsStore::new(blocker.join("gripline"));
    let s = changed();
    let kept = s.clone();
    let err = store.save(&s).unwrap_err();
    assert!(matches!(err, SettingsError::Io { .. }), "{err}");
    let text = err.to_string();
    assert!(
        text.contains("a-file") && text.contains("cannot save"),
        "{text}"
    );
    assert_eq!(s, kept, "the settings in memory stay");
    assert_eq!(fs::read(&blocker).unwrap(), b"not a folder");
    // Loading from there still works (defaults).
    assert_eq!(store.load().settings, Settings::default());
}

#[cfg(unix)]
#[test]
fn a_read_only_folder_gives_a_clear_error_and_keeps_the_file() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let store = SettingsStore::new(dir.path());
    store.save(&Settings::default()).unwrap();
    let before = snapshot(dir.path());
    for d in [store.devices_dir(), dir.path().to_owned()] {
        fs::set_permissions(&d, fs::Permissions::from_mode(0o555)).unwrap();
    }
    if File::create(dir.path().join("probe")).is_ok() {
        eprintln!("skipped: folder permissions do not apply to this user (root)");
        return;
    }
    let err = store.save(&changed()).unwrap_err();
    let SettingsError::Io { source, .. } = &err else {
        panic!("expected an I/O error, got {err}");
    };
    assert_eq!(source.kind(), io::ErrorKind::PermissionDenied, "{err}");
    for d in [dir.path().to_owned(), store.devices_dir()] {
        fs::set_permissions(&d, fs::Permissions::from_mode(0o755)).unwrap();
    }
    assert_eq!(snapshot(dir.path()), before);
}

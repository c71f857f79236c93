//! [`SettingsStore`]: loading that never fails and saving that never loses a file.
//!
//! Layout of the settings folder:
//!
//! ```text
//! <config dir>/settings.ron                         schema version, session, graphics, ffb, input
//! <config dir>/devices/keyboard.ron                 keyboard bindings
//! <config dir>/devices/gamepad.ron                  any-gamepad bindings and stick/trigger calibration
//! <config dir>/devices/046d-c24f-g29-....ron        one per device identity: bindings, calibration, FFB
//! <config dir>/settings.ron.broken-1763780000       a file that could not be used, kept
//! <config dir>/settings.ron.schema1.bak             the schema-1 file, copied before migration
//! ```
//!
//! [`SettingsStore::load`] always returns usable settings: a missing file takes the
//! defaults; a file that cannot be used (not readable, a folder, not UTF-8, empty, not RON,
//! wrong types, unknown schema) takes the defaults with an error message giving the file,
//! line and column, and is renamed aside (`.broken-<unix time>`); values out of range are
//! clamped with a warning each; unknown fields are ignored with a warning. Temporary files
//! left by a save that was interrupted are removed (with a warning).
//!
//! [`SettingsStore::save`] writes every file atomically (see [`gripline_formats::atomic_file`]): the
//! device files first, then `settings.ron`. A file already there that does not read back
//! as valid settings is moved aside before it is replaced, never overwritten. Device files
//! of devices the settings no longer have are removed (only when they read back as valid, so
//! they were part of the settings loaded).

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::device_file::{
    DEVICES_DIR, DeviceGroup, add_group, canonical_groups, merge_into, split,
};
use crate::message::{SettingsMessage, Severity};
use crate::model::Settings;
use crate::platform_dir::{CONFIG_DIR_ENV, config_dir};
use crate::sanitize::{Sanitize, Sanitizer};
use crate::sanitize_input::{sanitize_axes, sanitize_buttons};
use crate::settings_file::{decode_device, decode_settings, encode_device, encode_settings};
use gripline_formats::atomic_file::{self, BROKEN_MARKER, WriteFn, is_temp_file, keep_aside};
use gripline_input::settings::device_identity::DeviceMatch;

/// Name of the main settings file.
pub const SETTINGS_FILE: &str = "settings.ron";
/// Suffix of the copy of a schema-1 settings file made before its migration.
pub const SCHEMA1_BACKUP_SUFFIX: &str = ".schema1.bak";
/// Largest settings file read (bytes); anything larger is not a settings file.
pub const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// Why settings could not be saved. The settings in memory are unchanged, and every file on
/// disk is either as before or completely written.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    /// There is no configuration folder (no home folder).
    #[error("no settings folder: the home folder is unknown (set {CONFIG_DIR_ENV} to choose one)")]
    NoConfigDir,
    /// A file or folder could not be written.
    #[error("{}: cannot save: {source}", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The operating system's reason.
        #[source]
        source: io::Error,
    },
    /// The settings could not be written as RON (not expected).
    #[error("{}: cannot write the settings as RON: {message}", path.display())]
    Encode {
        /// The file.
        path: PathBuf,
        /// The serialiser's message.
        message: String,
    },
    /// A file in the way could not be read as settings and could not be moved aside, so it
    /// was not replaced.
    #[error("{}: not saved: the file there is not valid settings and could not be moved aside ({source})", path.display())]
    Blocked {
        /// The file.
        path: PathBuf,
        /// Why it could not be moved.
        #[source]
        source: io::Error,
    },
}

/// What [`SettingsStore::load`] found.
#[derive(Clone, Debug)]
pub struct LoadOutcome {
    /// The settings to use: valid (sanitised), the defaults where a file was missing or
    /// broken.
    pub settings: Settings,
    /// Everything worth telling the user, in the order found.
    pub messages: Vec<SettingsMessage>,
    /// Where files that could not be used were moved.
    pub kept_broken: Vec<PathBuf>,
}

impl LoadOutcome {
    /// The most severe message's severity, if there is any message.
    pub fn worst(&self) -> Option<Severity> {
        self.messages.iter().map(|m| m.severity).max()
    }
}

/// The settings folder and how to read and write it.
#[derive(Clone, Debug)]
pub struct SettingsStore {
    dir: PathBuf,
    write: WriteFn,
}

impl SettingsStore {
    /// A store in `dir` (created on the first save).
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self {
            dir: dir.into(),
            write: atomic_file::write_all,
        }
    }

    /// A store in the platform's configuration folder ([`crate::platform_dir`]).
    ///
    /// # Errors
    /// [`SettingsError::NoConfigDir`] when no home folder is known and no override is set.
    pub fn platform() -> Result<Self, SettingsError> {
        config_dir()
            .map(Self::new)
            .ok_or(SettingsError::NoConfigDir)
    }

    /// The same store with the bytes of every save written by `write`: for tests that
    /// inject a failure midway. Production code never calls it.
    #[must_use]
    pub fn with_write_fn(mut self, write: WriteFn) -> Self {
        self.write = write;
        self
    }

    /// The settings folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// `settings.ron`.
    pub fn settings_path(&self) -> PathBuf {
        self.dir.join(SETTINGS_FILE)
    }

    /// The folder of the device files.
    pub fn devices_dir(&self) -> PathBuf {
        self.dir.join(DEVICES_DIR)
    }

    /// Loads the settings; never fails (see the module documentation).
    pub fn load(&self) -> LoadOutcome {
        let mut out = LoadOutcome {
            settings: Settings::default(),
            messages: Vec::new(),
            kept_broken: Vec::new(),
        };
        remove_temp_files(&self.dir, &mut out);
        remove_temp_files(&self.devices_dir(), &mut out);

        let path = self.settings_path();
        let mut inline_groups = Vec::new();
        let decoded = match read_file(&path) {
            Ok(None) => None,
            Ok(Some(bytes)) => match decode_settings(&bytes, &path) {
                Ok(d) => Some(d),
                Err(m) => {
                    reject(&path, m, "the default settings are used", &mut out);
                    None
                }
            },
            Err(m) => {
                reject(&path, m, "the default settings are used", &mut out);
                None
            }
        };
        if let Some(mut d) = decoded {
            out.messages.append(&mut d.messages);
            if d.schema == 1 {
                backup_schema1(&path, &mut out.messages);
            }
            let mut s = Sanitizer::new(Some(&path));
            Sanitize::sanitize(&mut d.settings, &mut s);
            out.messages.extend(s.into_messages());
            if d.inline_bindings {
                inline_groups = split(&d.settings).into_iter().map(|(_, g)| g).collect();
            } else {
                inline_groups = d
                    .settings
                    .ffb
                    .devices
                    .iter()
                    .map(|f| DeviceGroup {
                        ffb: Some(f.clone()),
                        ..DeviceGroup::empty(DeviceMatch::Device(f.device.clone()))
                    })
                    .collect();
            }
            out.settings = d.settings;
        }

        let mut groups = self.load_device_files(&mut out);
        for inline in inline_groups {
            match groups.iter_mut().find(|g| g.device == inline.device) {
                Some(g) => {
                    if g.ffb.is_none() {
                        g.ffb = inline.ffb;
                    }
                }
                None => groups.push(inline),
            }
        }
        for device in [DeviceMatch::Keyboard, DeviceMatch::AnyGamepad] {
            if !groups.iter().any(|g| g.device == device) {
                groups.push(DeviceGroup::defaults(device));
            }
        }
        merge_into(&mut out.settings, canonical_groups(groups));
        // Limits over all files together (binding counts).
        out.messages.extend(out.settings.sanitize());
        out
    }

    /// Reads every device file, sanitising each on its own.
    fn load_device_files(&self, out: &mut LoadOutcome) -> Vec<DeviceGroup> {
        let mut groups = Vec::new();
        for path in device_files(&self.devices_dir()) {
            let decoded = match read_file(&path) {
                Ok(Some(bytes)) => decode_device(&bytes, &path),
                Ok(None) => continue,
                Err(m) => Err(m),
            };
            match decoded {
                Ok((mut group, messages)) => {
                    out.messages.extend(messages);
                    let mut s = Sanitizer::new(Some(&path));
                    sanitize_axes(&mut s, &mut group.axes);
                    sanitize_buttons(&mut s, &mut group.buttons);
                    if let Some(ffb) = &mut group.ffb {
                        s.nested("ffb", ffb);
                    }
                    out.messages.extend(s.into_messages());
                    add_group(&mut groups, group);
                }
                Err(m) => reject(&path, m, "this device's default bindings are used", out),
            }
        }
        groups
    }

    /// Saves `settings` (as given: call [`Settings::sanitize`] first for values typed by
    /// the user). Returns warnings about files that were in the way and had to be moved
    /// aside.
    ///
    /// # Errors
    /// [`SettingsError`] naming the file; files written before the failure are complete
    /// (new), the others unchanged (old).
    pub fn save(&self, settings: &Settings) -> Result<Vec<SettingsMessage>, SettingsError> {
        let devices_dir = self.devices_dir();
        for dir in [&self.dir, &devices_dir] {
            fs::create_dir_all(dir).map_err(|source| SettingsError::Io {
                path: dir.clone(),
                source,
            })?;
        }
        let encode_error = |path: &Path, e: ron::Error| SettingsError::Encode {
            path: path.to_owned(),
            message: e.to_string(),
        };
        let mut files = Vec::new();
        let mut stems = Vec::new();
        for (stem, group) in split(settings) {
            let path = devices_dir.join(format!("{stem}.ron"));
            let text = encode_device(&group).map_err(|e| encode_error(&path, e))?;
            stems.push(format!("{stem}.ron"));
            files.push((path, text, false));
        }
        let path = self.settings_path();
        let text = encode_settings(settings).map_err(|e| encode_error(&path, e))?;
        files.push((path, text, true));

        let mut messages = Vec::new();
        for (path, text, is_main) in &files {
            make_way(path, *is_main, &mut messages)?;
            atomic_file::write_atomic_with(path, text.as_bytes(), self.write).map_err(
                |source| SettingsError::Io {
                    path: path.clone(),
                    source,
                },
            )?;
        }
        for path in device_files(&devices_dir) {
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            if !stems.iter().any(|s| s == name)
                && matches!(read_file(&path), Ok(Some(bytes)) if decode_device(&bytes, &path).is_ok())
            {
                // Best effort: a stale file left behind only re-adds a device's bindings.
                let _ = fs::remove_file(&path);
            }
        }
        Ok(messages)
    }
}

/// The device files in `dir` (`*.ron`, not temporary or kept copies), sorted by name.
fn device_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().to_str()?.to_owned();
            let is_ron = Path::new(&name)
                .extension()
                .is_some_and(|x| x.eq_ignore_ascii_case("ron"));
            (is_ron && !is_temp_file(&name) && !name.contains(BROKEN_MARKER)).then(|| e.path())
        })
        .collect();
    files.sort();
    files
}

/// The bytes of `path`, `None` when it does not exist.
fn read_file(path: &Path) -> Result<Option<Vec<u8>>, SettingsMessage> {
    let error = |message: String| SettingsMessage {
        severity: Severity::Error,
        file: Some(path.to_owned()),
        position: None,
        field: String::new(),
        message,
    };
    let meta = match fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(error(format!("cannot read: {e}"))),
    };
    if meta.is_dir() {
        return Err(error("is a folder, not a file".to_owned()));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(error(format!(
            "is {} bytes, too large for a settings file",
            meta.len()
        )));
    }
    fs::read(path)
        .map(Some)
        .map_err(|e| error(format!("cannot read: {e}")))
}

/// Reports a file that cannot be used and moves it aside.
fn reject(path: &Path, mut message: SettingsMessage, fallback: &str, out: &mut LoadOutcome) {
    match keep_aside(path) {
        Ok(kept) => {
            message.message = format!(
                "{}; {fallback}, and the file is kept as {}",
                message.message,
                kept.file_name().unwrap_or_default().to_string_lossy()
            );
            out.kept_broken.push(kept);
        }
        Err(e) => {
            message.message = format!(
                "{}; {fallback}; the file could not be moved aside ({e}) and is not \
                 overwritten",
                message.message
            );
        }
    }
    out.messages.push(message);
}

/// Copies a schema-1 `settings.ron` to `settings.ron.schema1.bak`, once.
fn backup_schema1(path: &Path, messages: &mut Vec<SettingsMessage>) {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(SCHEMA1_BACKUP_SUFFIX);
    let backup = path.with_file_name(name);
    if backup.exists() {
        return;
    }
    if let Err(e) = fs::copy(path, &backup) {
        messages.push(
            SettingsMessage::new(
                Severity::Warning,
                "",
                format!("could not keep a copy of the schema-1 file ({e})"),
            )
            .in_file(path),
        );
    }
}

/// Removes the temporary files of interrupted saves in `dir`.
fn remove_temp_files(dir: &Path, out: &mut LoadOutcome) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let is_file = entry.file_type().is_ok_and(|t| t.is_file());
        let name = entry.file_name();
        if !is_file || !name.to_str().is_some_and(is_temp_file) {
            continue;
        }
        let path = entry.path();
        let message = match fs::remove_file(&path) {
            Ok(()) => "removed the temporary file of an interrupted save".to_owned(),
            Err(e) => {
                format!("temporary file of an interrupted save, ignored (cannot remove: {e})")
            }
        };
        out.messages
            .push(SettingsMessage::new(Severity::Warning, "", message).in_file(path));
    }
}

/// Before `path` is replaced: a file there that does not read back as valid settings is
/// moved aside, so that saving never destroys a file the user could still recover.
fn make_way(
    path: &Path,
    is_main: bool,
    messages: &mut Vec<SettingsMessage>,
) -> Result<(), SettingsError> {
    let valid = match read_file(path) {
        Ok(None) => return Ok(()),
        Ok(Some(bytes)) if is_main => match decode_settings(&bytes, path) {
            Ok(d) => {
                if d.schema == 1 {
                    backup_schema1(path, messages);
                }
                true
            }
            Err(_) => false,
        },
        Ok(Some(bytes)) => decode_device(&bytes, path).is_ok(),
        Err(_) => false,
    };
    if valid {
        return Ok(());
    }
    let kept = keep_aside(path).map_err(|source| SettingsError::Blocked {
        path: path.to_owned(),
        source,
    })?;
    messages.push(
        SettingsMessage::new(
            Severity::Warning,
            "",
            format!(
                "the file there was not valid settings; kept as {} before saving",
                kept.file_name().unwrap_or_default().to_string_lossy()
            ),
        )
        .in_file(path),
    );
    Ok(())
}

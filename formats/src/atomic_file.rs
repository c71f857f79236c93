//! Writing a file so that a crash never loses it, and keeping broken files aside.
//!
//! [`write_atomic`] writes a temporary file in the same folder (`<name>.tmp-<pid>-<n>`),
//! flushes it to disk (`fsync`), renames it over the target (atomic on every platform
//! Gripline runs on) and flushes the folder (Unix), so after a crash the target is either
//! the old file or the new one, complete. A crash can leave the temporary file behind;
//! [`is_temp_file`] recognises it and the store removes it on the next load.
//!
//! [`keep_aside`] renames a file that could not be used to `<name>.broken-<unix time>`
//! (with `-2`, `-3`... if that exists), so it is never overwritten silently.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// Marker between a file's name and the suffix of its temporary files.
pub const TEMP_MARKER: &str = ".tmp-";
/// Marker between a file's name and the suffix of the copies of broken files.
pub const BROKEN_MARKER: &str = ".broken-";

/// How the bytes reach the temporary file: `File::write_all` in production; tests pass a
/// writer that fails midway.
pub type WriteFn = fn(&mut File, &[u8]) -> io::Result<()>;

/// The production [`WriteFn`].
///
/// # Errors
/// The operating system's.
pub fn write_all(file: &mut File, bytes: &[u8]) -> io::Result<()> {
    file.write_all(bytes)
}

/// A temporary file name beside `path`, distinct within this process and from other
/// processes.
fn temp_path(path: &Path) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!("{TEMP_MARKER}{}-{n}", std::process::id()));
    path.with_file_name(name)
}

/// Whether `name` is a temporary file of an atomic write.
pub fn is_temp_file(name: &str) -> bool {
    name.contains(TEMP_MARKER)
}

/// Writes `bytes` to `path` atomically (see the module documentation).
///
/// # Errors
/// The operating system's, from creating, writing, flushing or renaming the temporary file;
/// `path` is then unchanged and the temporary file removed.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomic_with(path, bytes, write_all)
}

/// [`write_atomic`] with the bytes written by `write` (fault injection in tests).
///
/// # Errors
/// As [`write_atomic`], including `write`'s.
pub fn write_atomic_with(path: &Path, bytes: &[u8], write: WriteFn) -> io::Result<()> {
    let temp = temp_path(path);
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temp)?;
    let written = write(&mut file, bytes).and_then(|()| file.sync_all());
    drop(file);
    if let Err(e) = written.and_then(|()| fs::rename(&temp, path)) {
        // Best effort: the temporary file is also recognised and removed on the next load.
        let _ = fs::remove_file(&temp);
        return Err(e);
    }
    sync_dir(path.parent().unwrap_or(Path::new(".")));
    Ok(())
}

/// Flushes a folder's entries (the rename) to disk. Unix only; errors are ignored, since the
/// new file is already in place and complete and only its durability is in question.
fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

/// Renames `path` (a file or a folder) beside itself to `<name>.broken-<unix time>[-n]`
/// and returns the new path.
///
/// # Errors
/// The operating system's when the rename fails.
pub fn keep_aside(path: &Path) -> io::Result<PathBuf> {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let name = path.file_name().unwrap_or_default().to_os_string();
    for n in 1..1000 {
        let mut new_name = name.clone();
        new_name.push(format!("{BROKEN_MARKER}{secs}"));
        if n > 1 {
            new_name.push(format!("-{n}"));
        }
        let target = path.with_file_name(new_name);
        if fs::symlink_metadata(&target).is_err() {
            fs::rename(path, &target)?;
            return Ok(target);
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "too many kept copies of broken files",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temp_names_are_recognised_and_distinct() {
        let a = temp_path(Path::new("/x/settings.ron"));
        let b = temp_path(Path::new("/x/settings.ron"));
        assert_ne!(a, b);
        let name = a.file_name().unwrap().to_str().unwrap();
        assert!(name.starts_with("settings.ron.tmp-") && is_temp_file(name));
        assert!(!is_temp_file("settings.ron"));
    }
}

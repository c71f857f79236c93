//! Every drive in the window is recorded as a replay: each session (the first and every car
//! or track change) starts a recording in `replays/recent/` of the settings folder, streamed
//! by a writer thread; the last few are kept there (older ones removed when a new one
//! starts), and "Save replay" in the pause menu copies the one in progress, complete, to
//! `replays/`, where nothing is ever removed.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use gripline_sim::laps::file_safe;
use gripline_sim::replay::{Overflow, ReplayHandle, ReplayHeader, start_recording};
use gripline_sim::session::Session;

/// The extension of replay files.
pub const EXTENSION: &str = "gripline-replay";
/// Automatic recordings kept in `replays/recent/` (this session's included).
pub const RECENT_KEPT: usize = 3;

/// The window's recordings (see the module docs).
#[derive(Debug, Default)]
pub struct Recordings {
    dir: Option<PathBuf>,
    current: Option<ReplayHandle>,
    /// Recordings of earlier sessions, ending as their sessions are freed.
    ending: Vec<ReplayHandle>,
}

impl Recordings {
    /// Recordings kept under `data_dir/replays` (none without a folder).
    pub fn new(data_dir: Option<PathBuf>) -> Self {
        Self {
            dir: data_dir.map(|d| d.join("replays")),
            current: None,
            ending: Vec::new(),
        }
    }

    /// Where saved replays go.
    pub fn saved_dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// Starts recording `session` (fresh: before it is sent to the sim thread). Returns the
    /// line to print: where it records, or why it does not (the drive goes on unrecorded).
    pub fn start(&mut self, session: &mut Session) -> String {
        match self.try_start(session) {
            Ok(path) => format!("gripline: replay: recording to {}", path.display()),
            Err(error) => format!("gripline: replay: not recorded: {error:#}"),
        }
    }

    fn try_start(&mut self, session: &mut Session) -> Result<PathBuf> {
        let dir = self
            .dir
            .as_ref()
            .context("no settings folder to keep replays in")?
            .join("recent");
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("{}: cannot create the folder", dir.display()))?;
        prune(&dir, RECENT_KEPT.saturating_sub(1));
        let identity = session.identity();
        let name = format!(
            "{}-{}-{}.{EXTENSION}",
            timestamp(),
            file_safe(&identity.vehicle.spec),
            file_safe(&identity.track.spec)
        );
        let path = dir.join(name);
        let header = ReplayHeader::for_session(session);
        let (journal, handle) = start_recording(&path, &header, Overflow::Stop)?;
        session.record_to(Box::new(journal))?;
        if let Some(previous) = self.current.replace(handle) {
            self.ending.push(previous);
        }
        Ok(path)
    }

    /// Saves the drive so far, complete, to `replays/` under a name with the date, car
    /// and track.
    ///
    /// # Errors
    /// Nothing is being recorded; the copy cannot be written.
    pub fn save(&self) -> Result<PathBuf> {
        let current = self
            .current
            .as_ref()
            .context("this drive is not being recorded")?;
        let dir = self
            .dir
            .as_ref()
            .context("no settings folder to keep replays in")?;
        let name = current.path().file_name().map_or_else(
            || format!("{}.{EXTENSION}", timestamp()),
            |n| n.to_string_lossy().into_owned(),
        );
        let saved = current.save_as(&dir.join(name))?;
        Ok(saved.path)
    }

    /// Waits for every recording's writer to finish its file (the sim thread has stopped
    /// and freed its session).
    pub fn finish(&mut self) {
        for handle in self.ending.drain(..).chain(self.current.take()) {
            let path = handle.path().to_owned();
            if let Err(error) = handle.finish() {
                eprintln!("gripline: replay: {}: {error:#}", path.display());
            }
        }
    }
}

/// Removes all but the newest `keep` replays in `dir` (names start with the time).
fn prune(dir: &Path, keep: usize) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == EXTENSION))
        .collect();
    files.sort();
    let excess = files.len().saturating_sub(keep);
    for old in &files[..excess] {
        let _ = std::fs::remove_file(old);
    }
}

/// The time now (UTC) as `YYYYMMDD-HHMMSS`, which sorts as it reads.
pub fn timestamp() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rem = secs % 86_400;
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}{m:02}{d:02}-{:02}{:02}{:02}",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

/// The proleptic Gregorian date of `days` since 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (
        y,
        u32::try_from(m).unwrap_or(1),
        u32::try_from(d).unwrap_or(1),
    )
}

/// Replay files in `dir` (saved) and `dir/recent` (automatic), newest first.
pub fn list_replays(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for d in [dir.to_owned(), dir.join("recent")] {
        if let Ok(entries) = std::fs::read_dir(&d) {
            files.extend(
                entries
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|e| e == EXTENSION)),
            );
        }
    }
    files.sort_by_key(|p| std::cmp::Reverse(p.file_name().map(std::ffi::OsStr::to_os_string)));
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_gregorian() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(20_417), (2025, 11, 25));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }

    #[test]
    fn pruning_keeps_the_newest() {
        let dir = tempfile::tempdir().unwrap();
        for name in [
            "20250101-000000-a",
            "20250102-000000-a",
            "20250103-000000-a",
        ] {
            std::fs::write(dir.path().join(format!("{name}.{EXTENSION}")), b"x").unwrap();
        }
        std::fs::write(dir.path().join("notes.txt"), b"mine").unwrap();
        prune(dir.path(), 2);
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(
            left,
            [
                "20250102-000000-a.gripline-replay",
                "20250103-000000-a.gripline-replay",
                "notes.txt"
            ]
        );
    }
}

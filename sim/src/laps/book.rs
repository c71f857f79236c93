//! [`LapBook`]: the laps a driver compares against: the last lap, the session's best, and
//! the best ever driven with this car on this track (kept in a lap file per pair, loaded at
//! the start and replaced when beaten). The reference for the ghost and the delta is the
//! best of these.

use std::path::{Path, PathBuf};

use super::lap::CompletedLap;
use super::lap_file::{LapFacts, load_lap};

/// What happened to a completed lap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LapVerdict {
    /// Slower than the session's best.
    Slower,
    /// The session's best, not the best ever.
    SessionBest,
    /// The best ever with this car on this track (to be saved).
    PersonalBest,
}

/// The laps to compare against (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct LapBook {
    last: Option<CompletedLap>,
    session_best: Option<CompletedLap>,
    saved_best: Option<CompletedLap>,
    /// Where the best ever is kept for this car and track.
    file: Option<PathBuf>,
}

impl LapBook {
    /// An empty book whose best ever lives in `file` (loaded now if it exists; a damaged
    /// file is reported and left alone, to be replaced by the next best lap).
    pub fn open(file: Option<PathBuf>, facts: &LapFacts) -> (Self, Option<String>) {
        let mut warning = None;
        let saved_best = file
            .as_deref()
            .filter(|f| f.exists())
            .and_then(|f| match load_lap(f) {
                Ok((lap, saved))
                    if saved.vehicle == facts.vehicle && saved.track == facts.track =>
                {
                    Some(lap)
                }
                Ok(_) => {
                    warning = Some(format!(
                        "{}: a lap of another car or track; not used",
                        f.display()
                    ));
                    None
                }
                Err(error) => {
                    warning = Some(format!("{error:#}; the best lap will be saved afresh"));
                    None
                }
            });
        (
            Self {
                last: None,
                session_best: None,
                saved_best,
                file,
            },
            warning,
        )
    }

    /// Files the lap just completed and says what it was.
    pub fn add(&mut self, lap: CompletedLap) -> LapVerdict {
        let beats = |other: &Option<CompletedLap>| {
            other
                .as_ref()
                .is_none_or(|best| lap.lap_time_s < best.lap_time_s)
        };
        let verdict = if beats(&self.saved_best) {
            LapVerdict::PersonalBest
        } else if beats(&self.session_best) {
            LapVerdict::SessionBest
        } else {
            LapVerdict::Slower
        };
        if verdict != LapVerdict::Slower {
            self.session_best = Some(lap.clone());
        }
        if verdict == LapVerdict::PersonalBest {
            self.saved_best = Some(lap.clone());
        }
        self.last = Some(lap);
        verdict
    }

    /// The last completed lap.
    pub fn last(&self) -> Option<&CompletedLap> {
        self.last.as_ref()
    }

    /// The session's best lap.
    pub fn session_best(&self) -> Option<&CompletedLap> {
        self.session_best.as_ref()
    }

    /// The best lap ever with this car on this track (this session's included).
    pub fn best(&self) -> Option<&CompletedLap> {
        self.saved_best.as_ref().or(self.session_best.as_ref())
    }

    /// Where the best ever is kept.
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }
}

/// The file name of the best lap of `vehicle` on `track` (their specs, made safe for a file
/// name) in `dir`.
pub fn best_lap_file(dir: &Path, vehicle: &str, track: &str) -> PathBuf {
    dir.join(format!("{}@{}.csv", file_safe(vehicle), file_safe(track)))
}

/// `spec` (a shipped asset's name or a path) as part of a file name: a path's file stem,
/// other characters than ASCII letters, digits, `-` and `_` replaced by `_`.
pub fn file_safe(spec: &str) -> String {
    let stem = Path::new(spec)
        .file_stem()
        .map_or_else(|| spec.to_owned(), |n| n.to_string_lossy().into_owned());
    stem.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

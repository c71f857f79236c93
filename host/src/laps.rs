//! The laps of a drive: every timed lap recorded from the snapshots the UI receives, the book
//! of last, session-best and best-ever laps (the best ever per car and track saved in
//! `laps/` of the settings folder, off the UI thread), the live delta and the ghost against
//! the best, and lap export for the analysis screen.

use std::path::PathBuf;

use anyhow::{Context, Result};
use gripline_sim::lap_timer::LapTimes;
use gripline_sim::laps::{
    CompletedLap, LapBook, LapFacts, LapRecorder, LapSample, LapVerdict, best_lap_file, file_safe,
    save_lap,
};
use gripline_sim::realtime::snapshot_ring::Stamped;
use gripline_sim::session::Session;

/// Which lap to export.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WhichLap {
    /// The last completed lap.
    Last,
    /// The best lap ever on this car and track.
    Best,
}

/// The laps of a drive (see the module docs).
#[derive(Debug)]
pub struct DriveLaps {
    recorder: LapRecorder,
    book: LapBook,
    facts: LapFacts,
    laps_dir: Option<PathBuf>,
    /// Draw the ghost of the best lap.
    pub ghost_on: bool,
}

impl DriveLaps {
    /// The laps of `session`'s car and track, the best ever loaded from `data_dir/laps`.
    /// Returns a warning to show for a best-lap file that could not be used.
    pub fn new(data_dir: Option<PathBuf>, session: &Session) -> (Self, Option<String>) {
        let identity = session.identity();
        let facts = LapFacts {
            vehicle: identity.vehicle.name.clone(),
            track: identity.track.name.clone(),
            build: gripline_sim::replay::build_id(),
        };
        let laps_dir = data_dir.map(|d| d.join("laps"));
        let file = laps_dir.as_ref().map(|d| {
            best_lap_file(
                &d.join("best"),
                &identity.vehicle.spec,
                &identity.track.spec,
            )
        });
        let (book, warning) = LapBook::open(file, &facts);
        (
            Self {
                recorder: LapRecorder::new(),
                book,
                facts,
                laps_dir,
                ghost_on: true,
            },
            warning,
        )
    }

    /// The same setting (the ghost) for a new car or track.
    pub fn for_session(
        &self,
        data_dir: Option<PathBuf>,
        session: &Session,
    ) -> (Self, Option<String>) {
        let (mut next, warning) = Self::new(data_dir, session);
        next.ghost_on = self.ghost_on;
        (next, warning)
    }

    /// Feeds one snapshot; returns the notice of a lap just completed.
    pub fn feed(&mut self, stamped: &Stamped) -> Option<String> {
        let lap = self.recorder.feed(
            &stamped.snapshot,
            &stamped.hud.laps,
            &stamped.wheel_rotation_rad,
        )?;
        let time = lap_time_label(Some(lap.lap_time_s));
        let verdict = self.book.add(lap);
        Some(match verdict {
            LapVerdict::PersonalBest => {
                self.save_best();
                format!("Lap {time}: best ever on this car and track")
            }
            LapVerdict::SessionBest => format!("Lap {time}: session best"),
            LapVerdict::Slower => format!("Lap {time}"),
        })
    }

    /// Writes the best lap to its file on a thread of its own (a lap file is a few MB).
    fn save_best(&self) {
        let (Some(best), Some(file)) = (self.book.best().cloned(), self.book.file()) else {
            return;
        };
        let (file, facts) = (file.to_owned(), self.facts.clone());
        let spawned = std::thread::Builder::new()
            .name("gripline-lap-save".to_owned())
            .spawn(move || {
                if let Err(error) = save_lap(&file, &best, &facts) {
                    eprintln!("gripline: laps: the best lap was not saved: {error:#}");
                }
            });
        if let Err(error) = spawned {
            eprintln!("gripline: laps: the best lap was not saved: {error}");
        }
    }

    /// The book of laps.
    pub fn book(&self) -> &LapBook {
        &self.book
    }

    /// Live delta (s) to the best lap, while a lap is being timed from the line.
    pub fn delta_s(&self, laps: &LapTimes) -> Option<f64> {
        let best = self.book.best()?;
        let current = laps.current_lap_s?;
        let last = self.recorder.in_progress().last()?;
        // The station as the recorder counts it (from 0 at the line, never backwards).
        let mut station = laps.station_m;
        if station > 0.5 * laps.length_m && current < 5.0 {
            station -= laps.length_m;
        }
        let station = station.max(last.station_m);
        Some(best.delta_s(station, current))
    }

    /// The ghost: the best lap's car at the same time into the lap.
    pub fn ghost(&self, laps: &LapTimes) -> Option<LapSample> {
        if !self.ghost_on || self.recorder.in_progress().is_empty() {
            return None;
        }
        self.book.best()?.sample_at_time(laps.current_lap_s?)
    }

    /// Saves `which` lap as CSV in `laps/exports/` (named by car, track, lap time and
    /// date) and returns where.
    ///
    /// # Errors
    /// No such lap yet; no settings folder; the file cannot be written.
    pub fn export(&self, which: WhichLap) -> Result<PathBuf> {
        let lap: &CompletedLap = match which {
            WhichLap::Last => self.book.last(),
            WhichLap::Best => self.book.best(),
        }
        .context("no lap completed yet")?;
        let dir = self
            .laps_dir
            .as_ref()
            .context("no settings folder to save laps in")?
            .join("exports");
        let name = format!(
            "{}-{}-{}-{:.3}s.csv",
            crate::recordings::timestamp(),
            file_safe(&self.facts.vehicle),
            file_safe(&self.facts.track),
            lap.lap_time_s
        );
        let path = dir.join(name);
        save_lap(&path, lap, &self.facts)?;
        Ok(path)
    }
}

/// `m:ss.mmm`, or `-:--.---` when there is none.
pub fn lap_time_label(seconds: Option<f64>) -> String {
    match seconds {
        Some(t) if t.is_finite() && t >= 0.0 => {
            let millis = (t * 1000.0).round();
            let minutes = (millis / 60_000.0).floor();
            let rest = (millis - minutes * 60_000.0) / 1000.0;
            format!("{minutes:.0}:{rest:06.3}")
        }
        _ => "-:--.---".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::lap_time_label;

    #[test]
    fn lap_times_format_with_milliseconds() {
        assert_eq!(lap_time_label(Some(115.1234)), "1:55.123");
        assert_eq!(lap_time_label(Some(59.9996)), "1:00.000");
        assert_eq!(lap_time_label(Some(0.0)), "0:00.000");
        assert_eq!(lap_time_label(None), "-:--.---");
        assert_eq!(lap_time_label(Some(f64::NAN)), "-:--.---");
    }
}

//! [`LapRecorder`]: samples the car every 10 ms of simulated time through each timed lap
//! and hands back each lap completed from line to line.

use gripline_physics::vehicle::Snapshot;

use super::lap::CompletedLap;
use super::sample::LapSample;
use crate::lap_timer::LapTimes;

/// Simulated time between samples (s): 100 Hz, finer than any driver input matters for
/// analysis and smooth enough for the ghost (interpolated between samples).
pub const SAMPLE_INTERVAL_S: f64 = 0.01;

/// Records laps (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct LapRecorder {
    samples: Vec<LapSample>,
    /// Whether the lap in progress was recorded from its start.
    from_the_line: bool,
    laps_seen: u32,
}

impl LapRecorder {
    /// A recorder that has seen nothing yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// The lap in progress so far (empty before the first crossing of the line).
    pub fn in_progress(&self) -> &[LapSample] {
        &self.samples
    }

    /// Feeds the state after a tick, with the lap timer's figures and the wheels' spin
    /// angles. Returns the lap just completed, if this tick crossed the line at the end of
    /// a lap recorded from its start.
    pub fn feed(
        &mut self,
        snapshot: &Snapshot,
        laps: &LapTimes,
        spin_angles_rad: &[f64; 4],
    ) -> Option<CompletedLap> {
        if laps.length_m <= 0.0 || !laps.length_m.is_finite() {
            return None;
        }
        let mut completed = None;
        if laps.laps_completed > self.laps_seen {
            if let (true, Some(lap_time_s)) = (self.from_the_line, laps.last_lap_s)
                && !self.samples.is_empty()
            {
                let mut end = LapSample::of(snapshot, lap_time_s, laps.length_m, spin_angles_rad);
                let last = self.samples[self.samples.len() - 1];
                end.lap_time_s = end.lap_time_s.max(last.lap_time_s);
                self.samples.push(end);
                completed = Some(CompletedLap {
                    lap_time_s,
                    length_m: laps.length_m,
                    samples: std::mem::take(&mut self.samples),
                });
            }
            self.samples.clear();
            self.from_the_line = true;
        } else if laps.laps_completed < self.laps_seen {
            // A new session: everything restarts.
            self.samples.clear();
            self.from_the_line = false;
        }
        self.laps_seen = laps.laps_completed;

        let Some(lap_time_s) = laps.current_lap_s else {
            // Before the first crossing, or the lap was voided (a reset).
            self.samples.clear();
            self.from_the_line = false;
            return completed;
        };
        if !self.from_the_line {
            // Timing starts at the first crossing of the line (after the out lap or a
            // reset); joining a lap already under way records nothing until the next.
            if lap_time_s > 0.05 {
                return completed;
            }
            self.samples.clear();
            self.from_the_line = true;
        }
        // Just after the line the station can still read a lap's length: count it from 0.
        let mut station_m = laps.station_m;
        if station_m > 0.5 * laps.length_m && lap_time_s < 5.0 {
            station_m -= laps.length_m;
        }
        let due = self
            .samples
            .last()
            .is_none_or(|last| lap_time_s >= last.lap_time_s + SAMPLE_INTERVAL_S - 1e-9);
        if due {
            let floor = self.samples.last().map_or(0.0, |last| last.station_m);
            let sample = LapSample::of(snapshot, lap_time_s, station_m.max(floor), spin_angles_rad);
            self.samples.push(sample);
        }
        completed
    }
}

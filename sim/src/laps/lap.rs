//! A completed lap: its samples at a steady rate from the start/finish line to the line,
//! and what is read from them: the time at any distance (for the delta), the car at any
//! time (for the ghost), sector times.

use super::sample::LapSample;

/// Sectors a lap is split into (equal thirds of its length).
pub const SECTORS: usize = 3;

/// A lap from line to line (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct CompletedLap {
    /// The lap time (s), as the lap timer measured it.
    pub lap_time_s: f64,
    /// Length of the lap (m).
    pub length_m: f64,
    /// The samples: lap time and station never decrease; the first at the line, the last at
    /// the line again.
    pub samples: Vec<LapSample>,
}

impl CompletedLap {
    /// Lap time (s) at `station_m` along the lap, interpolated between samples (0 before the
    /// first, the lap time after the last).
    pub fn time_at_station(&self, station_m: f64) -> f64 {
        let s = &self.samples;
        if s.is_empty() || !station_m.is_finite() {
            return 0.0;
        }
        let i = s.partition_point(|x| x.station_m <= station_m);
        if i == 0 {
            return s[0].lap_time_s;
        }
        if i == s.len() {
            return s[s.len() - 1].lap_time_s;
        }
        let (a, b) = (&s[i - 1], &s[i]);
        let span = b.station_m - a.station_m;
        if span <= 0.0 {
            return a.lap_time_s;
        }
        a.lap_time_s + (b.lap_time_s - a.lap_time_s) * (station_m - a.station_m) / span
    }

    /// The car `lap_time_s` into the lap, interpolated (the first or last sample outside
    /// the lap); `None` for a lap without samples.
    pub fn sample_at_time(&self, lap_time_s: f64) -> Option<LapSample> {
        let s = &self.samples;
        let first = s.first()?;
        if !lap_time_s.is_finite() {
            return Some(*first);
        }
        let i = s.partition_point(|x| x.lap_time_s <= lap_time_s);
        if i == 0 {
            return Some(*first);
        }
        if i == s.len() {
            return s.last().copied();
        }
        let (a, b) = (&s[i - 1], &s[i]);
        let span = b.lap_time_s - a.lap_time_s;
        let t = if span > 0.0 {
            (lap_time_s - a.lap_time_s) / span
        } else {
            0.0
        };
        Some(a.lerp(b, t))
    }

    /// The time (s) of each sector: equal thirds of the lap's length.
    pub fn sector_times_s(&self) -> [f64; SECTORS] {
        let mut out = [0.0; SECTORS];
        let mut previous = 0.0;
        for (k, slot) in out.iter_mut().enumerate() {
            let end = if k + 1 == SECTORS {
                self.lap_time_s
            } else {
                self.time_at_station(self.length_m * (k + 1) as f64 / SECTORS as f64)
            };
            *slot = end - previous;
            previous = end;
        }
        out
    }

    /// Live delta (s) of a lap in progress against this one: `lap_time_s` at `station_m`
    /// minus this lap's time there. Negative: faster.
    pub fn delta_s(&self, station_m: f64, lap_time_s: f64) -> f64 {
        lap_time_s - self.time_at_station(station_m)
    }
}

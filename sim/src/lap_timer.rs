//! Lap timing on a closed centre line: the start/finish line is station 0.
//!
//! Each tick the car's reference point (the rear axle, as in the headless `laps` procedure)
//! is projected onto the centre line; a crossing is the station wrapping from the last tenth
//! of the lap to the first tenth. The first crossing starts timing (the car starts just behind
//! the line), each further one completes a lap. Crossing backwards (the station wrapping the
//! other way) voids the lap in progress. Time is the simulated time, so a paused or
//! stalled sim does not count.

use glam::DVec2;
use gripline_physics::driver::{PROJECTION_WINDOW, Path, Projection};

/// The lap times the HUD shows.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LapTimes {
    /// Time into the lap in progress (s), `None` before the first crossing or after a void.
    pub current_lap_s: Option<f64>,
    /// The last completed lap (s).
    pub last_lap_s: Option<f64>,
    /// The best completed lap (s).
    pub best_lap_s: Option<f64>,
    /// Laps completed.
    pub laps_completed: u32,
    /// Where the car is along the centre line (m from the line).
    pub station_m: f64,
    /// Length of a lap along the centre line (m); 0 without a lap timer.
    pub length_m: f64,
}

/// Segments searched either side of the last answer each tick: the driver model's, so that
/// an autopilot on the same line can reuse the answer ([`LapTimer::near_projection`]).
const SEARCH_WINDOW: usize = PROJECTION_WINDOW;
/// Farther than this from the line (m), the car is searched for on the whole line again.
const LOST_OFFSET_M: f64 = 30.0;

/// Times laps on a closed path (see the module docs).
#[derive(Clone, Debug)]
pub struct LapTimer {
    path: Path,
    hint: Option<usize>,
    /// The last point fed, when it was projected near a hint: `(point, hint, projection)`.
    near: Option<(DVec2, usize, Projection)>,
    previous_station: Option<f64>,
    lap_start_s: Option<f64>,
    times: LapTimes,
}

impl LapTimer {
    /// A timer on `path`, whose station 0 is the line. `None` for an open path.
    pub fn new(path: Path) -> Option<Self> {
        path.is_closed().then(|| Self {
            times: LapTimes {
                length_m: path.length(),
                ..LapTimes::default()
            },
            path,
            hint: None,
            near: None,
            previous_station: None,
            lap_start_s: None,
        })
    }

    /// `(hint, projection)` when the last point fed was `point` (the same bits) and was
    /// projected with `project_near(point, hint, PROJECTION_WINDOW)` on the timer's path: what
    /// [`gripline_physics::driver::DriverModel::drive_projected`] can reuse.
    pub fn near_projection(&self, point: DVec2) -> Option<(usize, Projection)> {
        let (fed, hint, projection) = self.near?;
        (fed.x.to_bits() == point.x.to_bits() && fed.y.to_bits() == point.y.to_bits())
            .then_some((hint, projection))
    }

    /// The times so far.
    pub fn times(&self) -> LapTimes {
        self.times
    }

    /// Forgets the lap in progress and where the car was (after a reset); completed laps and
    /// the best lap stay.
    pub fn restart(&mut self) {
        self.hint = None;
        self.near = None;
        self.previous_station = None;
        self.lap_start_s = None;
        self.times.current_lap_s = None;
    }

    /// Forgets everything, best lap included (another car or track).
    pub fn clear(&mut self) {
        self.restart();
        self.times = LapTimes {
            length_m: self.path.length(),
            ..LapTimes::default()
        };
    }

    /// Feeds the car's reference point `point` at simulated time `time_s`. Allocation-free.
    pub fn update(&mut self, point: DVec2, time_s: f64) {
        if !(point.is_finite() && time_s.is_finite()) {
            return;
        }
        let mut projection = if let Some(hint) = self.hint {
            let near = self.path.project_near(point, hint, SEARCH_WINDOW);
            self.near = Some((point, hint, near));
            near
        } else {
            self.near = None;
            self.path.project(point)
        };
        if projection.lateral_offset.abs() > LOST_OFFSET_M {
            projection = self.path.project(point);
        }
        self.hint = Some(projection.segment);
        let length = self.path.length();
        let station = projection.station;
        if let Some(previous) = self.previous_station {
            if previous > 0.9 * length && station < 0.1 * length {
                if let Some(start) = self.lap_start_s {
                    let lap = time_s - start;
                    self.times.last_lap_s = Some(lap);
                    self.times.best_lap_s =
                        Some(self.times.best_lap_s.map_or(lap, |best| best.min(lap)));
                    self.times.laps_completed += 1;
                }
                self.lap_start_s = Some(time_s);
            } else if previous < 0.1 * length && station > 0.9 * length {
                self.lap_start_s = None;
            }
        }
        self.previous_station = Some(station);
        self.times.station_m = station;
        self.times.current_lap_s = self.lap_start_s.map(|start| time_s - start);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A circle of radius 100 m, station 0 at (100, 0), counter-clockwise.
    fn timer() -> LapTimer {
        let path = Path::circle(DVec2::ZERO, 100.0, 360, 0.0, true).unwrap();
        LapTimer::new(path).unwrap()
    }

    /// A timer's figures before any lap: nothing but the lap's length (the 360-segment
    /// polygon of the 100 m circle, a little under 2π · 100 m).
    fn fresh(t: &LapTimer) -> LapTimes {
        let length_m = t.times().length_m;
        assert!(
            (length_m - std::f64::consts::TAU * 100.0).abs() < 0.1,
            "{length_m}"
        );
        LapTimes {
            length_m,
            ..LapTimes::default()
        }
    }

    fn at_angle(rad: f64) -> DVec2 {
        DVec2::new(rad.cos(), rad.sin()) * 100.0
    }

    /// Drives round the circle at `rad_per_s` from angle `start_rad` for `seconds`, 1 ms per
    /// tick, the clock starting at `t0`.
    fn drive(timer: &mut LapTimer, start_rad: f64, rad_per_s: f64, seconds: f64, t0: f64) {
        let mut i = 0u32;
        while f64::from(i) * 0.001 <= seconds {
            let t = f64::from(i) * 0.001;
            i += 1;
            timer.update(at_angle(start_rad + rad_per_s * t), t0 + t);
        }
    }

    #[test]
    fn open_paths_have_no_timer() {
        let path = Path::new(&[DVec2::ZERO, DVec2::X * 100.0], false).unwrap();
        assert!(LapTimer::new(path).is_none());
    }

    #[test]
    fn first_crossing_starts_then_each_crossing_completes_a_lap() {
        let mut t = timer();
        // Start 0.1 rad behind the line; one lap takes 2π / 0.5 s.
        let lap = std::f64::consts::TAU / 0.5;
        drive(&mut t, -0.1, 0.5, 2.5 * lap, 0.0);
        let times = t.times();
        assert_eq!(times.laps_completed, 2);
        let last = times.last_lap_s.unwrap();
        assert!((last - lap).abs() < 0.01, "{last} vs {lap}");
        assert!((times.best_lap_s.unwrap() - lap).abs() < 0.01);
        // Half a lap into the third.
        let current = times.current_lap_s.unwrap();
        assert!((current - 0.5 * lap + 0.2).abs() < 0.05, "{current}");
    }

    #[test]
    fn best_lap_is_the_fastest_and_restart_keeps_it() {
        let mut t = timer();
        let slow = std::f64::consts::TAU / 0.5;
        drive(&mut t, -0.1, 0.5, slow + 0.5, 0.0);
        assert_eq!(t.times().laps_completed, 1);
        // A faster lap follows on from where the car is.
        let here = -0.1 + 0.5 * (slow + 0.5);
        let fast = std::f64::consts::TAU / 1.0;
        drive(&mut t, here, 1.0, fast + 0.2, slow + 0.5);
        let times = t.times();
        assert_eq!(times.laps_completed, 2);
        // Lap 2: 0.3 s at the slow rate (0.15 rad), the rest of the circle at 1 rad/s.
        let second = 0.3 + (std::f64::consts::TAU - 0.15) / 1.0;
        assert!(second < slow);
        assert!((times.best_lap_s.unwrap() - second).abs() < 0.01);
        assert!(times.last_lap_s.unwrap() <= times.best_lap_s.unwrap() + 1e-9);
        t.restart();
        assert_eq!(t.times().current_lap_s, None);
        assert!(t.times().best_lap_s.is_some());
        t.clear();
        assert_eq!(t.times(), fresh(&t));
    }

    #[test]
    fn crossing_backwards_voids_the_lap() {
        let mut t = timer();
        drive(&mut t, -0.1, 0.5, 1.0, 0.0);
        assert!(t.times().current_lap_s.is_some());
        // Reverse back over the line.
        drive(&mut t, 0.4, -0.5, 2.0, 1.0);
        assert_eq!(t.times().current_lap_s, None);
        assert_eq!(t.times().laps_completed, 0);
    }

    #[test]
    fn non_finite_points_are_ignored() {
        let mut t = timer();
        t.update(DVec2::NAN, 0.0);
        t.update(at_angle(0.2), f64::NAN);
        assert_eq!(t.times(), fresh(&t));
    }

    /// The timer offers its projection of a point only for that point, once it has a hint,
    /// and the projection is the one the driver's search would find from that hint.
    #[test]
    fn near_projection_is_the_drivers_search() {
        let mut t = timer();
        let path = Path::circle(DVec2::ZERO, 100.0, 360, 0.0, true).unwrap();
        let first = at_angle(0.3);
        t.update(first, 0.0);
        // The first point is searched on the whole line: nothing to share.
        assert_eq!(t.near_projection(first), None);
        let second = at_angle(0.301);
        t.update(second, 0.001);
        let (hint, projection) = t.near_projection(second).expect("projected near a hint");
        assert_eq!(
            projection,
            path.project_near(second, hint, PROJECTION_WINDOW)
        );
        assert_eq!(t.near_projection(at_angle(0.302)), None);
        t.restart();
        assert_eq!(t.near_projection(second), None);
    }
}

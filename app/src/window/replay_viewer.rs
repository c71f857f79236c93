//! The replay viewer: a replay's timeline of states (re-simulated off the UI thread by
//! `gripline_host::replay_timeline`) played in the window with play/pause, speed from 0.25x
//! to 4x, scrubbing, and every camera. The live session stays paused underneath.
//!
//! A replay recorded by another build, or with a car or track file changed since, is not
//! played at once: the viewer says what differs and offers to play it anyway (it may
//! diverge; where it did is shown once known).

use gripline_host::replay_timeline::{Timeline, TimelineFrame};
use gripline_render::pose::{SpinAngles, VehiclePose};

/// Playback speeds offered.
pub const SPEEDS: [f64; 5] = [0.25, 0.5, 1.0, 2.0, 4.0];

/// A timeline being watched.
#[derive(Debug)]
pub struct ReplayViewer {
    /// What is played.
    pub timeline: Timeline,
    /// Where the playhead is (s).
    pub cursor_s: f64,
    /// Playing or paused.
    pub playing: bool,
    /// Playback speed (one of [`SPEEDS`]).
    pub speed: f64,
}

impl ReplayViewer {
    /// Starts watching `timeline` from its start.
    pub fn new(timeline: Timeline) -> Self {
        Self {
            timeline,
            cursor_s: 0.0,
            playing: true,
            speed: 1.0,
        }
    }

    /// Advances the playhead by a frame of `dt_s` wall-clock seconds.
    pub fn advance(&mut self, dt_s: f64) {
        if self.playing && dt_s.is_finite() && dt_s > 0.0 {
            self.cursor_s += dt_s.min(0.25) * self.speed;
        }
        let end = self.timeline.duration_s();
        if self.cursor_s >= end {
            self.cursor_s = end;
            self.playing = false;
        }
        self.cursor_s = self.cursor_s.max(0.0);
    }

    /// Moves the playhead by `seconds` (scrubbing keys).
    pub fn seek_by(&mut self, seconds: f64) {
        self.cursor_s = (self.cursor_s + seconds).clamp(0.0, self.timeline.duration_s());
    }

    /// One speed step faster (`+1`) or slower (`-1`).
    pub fn change_speed(&mut self, steps: i32) {
        let i = SPEEDS
            .iter()
            .position(|s| (s - self.speed).abs() < 1e-9)
            .unwrap_or(2);
        let j = i
            .saturating_add_signed(steps as isize)
            .min(SPEEDS.len() - 1);
        self.speed = SPEEDS[j];
    }

    /// Toggles play and pause (from the end: plays again from the start).
    pub fn toggle(&mut self) {
        if !self.playing && self.cursor_s >= self.timeline.duration_s() {
            self.cursor_s = 0.0;
        }
        self.playing = !self.playing;
    }

    /// The car at the playhead (interpolated between kept states) and the nearer state.
    pub fn frame(&self) -> Option<(VehiclePose, &TimelineFrame)> {
        let (a, b, t) = self.timeline.around(self.cursor_s)?;
        let pa = VehiclePose::from_snapshot(
            &a.snapshot,
            &SpinAngles {
                angles_rad: a.wheel_rotation_rad,
            },
        );
        let pb = VehiclePose::from_snapshot(
            &b.snapshot,
            &SpinAngles {
                angles_rad: b.wheel_rotation_rad,
            },
        );
        // States of a reset are not blended into each other.
        let t = if a.snapshot.position.distance(b.snapshot.position) > 20.0 {
            0.0
        } else {
            t
        };
        let near = if t < 0.5 { a } else { b };
        Some((lerp_pose(&pa, &pb, t), near))
    }
}

/// The pose between two replay states: [`VehiclePose::interpolate`], except that the wheels
/// keep the nearer state's spin angles (a replay's angles are sampled, not continuous).
fn lerp_pose(a: &VehiclePose, b: &VehiclePose, t: f64) -> VehiclePose {
    let near = if t < 0.5 { a } else { b };
    let mut pose = VehiclePose::interpolate(a, b, t);
    for (wheel, nearest) in pose.wheels.iter_mut().zip(&near.wheels) {
        wheel.spin_angle_rad = nearest.spin_angle_rad;
    }
    pose
}

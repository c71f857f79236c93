//! The replay viewer: a replay re-simulated on a loader thread into a timeline of states
//! (every 10 ms of the drive, more sparsely for very long ones), then played in the window
//! with play/pause, speed from 0.25x to 4x, scrubbing, and every camera. The live session
//! stays paused underneath.
//!
//! A replay recorded by another build, or with a car or track file changed since, is not
//! played at once: the viewer says what differs and offers to play it anyway (it may
//! diverge; where it did is shown once known).

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, TryRecvError};

use anyhow::{Context, Result};
use gripline_physics::vehicle::Snapshot;
use gripline_render::pose::{SpinAngles, VehiclePose};
use gripline_render::vehicle_visual::VehicleVisual;
use gripline_sim::lap_timer::LapTimes;
use gripline_sim::replay::{ReplayFile, ReplayPlayer};

/// Frames a timeline keeps at most (about 60 MB of states).
pub const MAX_FRAMES: usize = 40_000;
/// Playback speeds offered.
pub const SPEEDS: [f64; 5] = [0.25, 0.5, 1.0, 2.0, 4.0];

/// One kept state of a replay.
#[derive(Clone, Copy, Debug)]
pub struct TimelineFrame {
    /// Time into the replay (s).
    pub time_s: f64,
    /// The car.
    pub snapshot: Snapshot,
    /// The wheels' rotation angles (rad), integrated as the sim thread does.
    pub wheel_rotation_rad: [f64; 4],
    /// The lap timer.
    pub laps: LapTimes,
}

/// A re-simulated replay, ready to play.
pub struct Timeline {
    /// The file.
    pub path: PathBuf,
    /// "car on track, recorded …".
    pub title: String,
    /// The states.
    pub frames: Vec<TimelineFrame>,
    /// What differs from the recording (played anyway).
    pub mismatches: Vec<String>,
    /// Where the re-simulation left the recording (s), if it did.
    pub diverged_at_s: Option<f64>,
    /// The track to draw.
    pub track: gripline_physics::track::TrackMesh,
    /// The car to draw.
    pub visual: VehicleVisual,
}

impl std::fmt::Debug for Timeline {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Timeline")
            .field("path", &self.path)
            .field("frames", &self.frames.len())
            .finish_non_exhaustive()
    }
}

impl Timeline {
    /// Length (s).
    pub fn duration_s(&self) -> f64 {
        self.frames.last().map_or(0.0, |f| f.time_s)
    }

    /// The frames either side of `t` and the fraction between them.
    fn around(&self, t: f64) -> Option<(&TimelineFrame, &TimelineFrame, f64)> {
        let first = self.frames.first()?;
        let i = self.frames.partition_point(|f| f.time_s <= t);
        if i == 0 {
            return Some((first, first, 0.0));
        }
        if i == self.frames.len() {
            let last = self.frames.last()?;
            return Some((last, last, 0.0));
        }
        let (a, b) = (&self.frames[i - 1], &self.frames[i]);
        let span = b.time_s - a.time_s;
        Some((
            a,
            b,
            if span > 0.0 {
                (t - a.time_s) / span
            } else {
                0.0
            },
        ))
    }
}

/// Why a replay did not load.
#[derive(Debug)]
pub enum LoadFailure {
    /// It differs from this build or these files: play anyway?
    Differs(Vec<String>),
    /// It cannot be played.
    Error(anyhow::Error),
}

/// Re-simulates `path` into a timeline (heavy: on the loader thread).
///
/// # Errors
/// [`LoadFailure::Differs`] when the build or the files differ and `force` is off; any
/// error of the file or the re-simulation.
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // a capacity hint
pub fn build_timeline(path: &Path, force: bool) -> Result<Timeline, LoadFailure> {
    let file = ReplayFile::open_intact(path).map_err(|e| LoadFailure::Error(e.into()))?;
    let mut player = ReplayPlayer::open(&file).map_err(LoadFailure::Error)?;
    let mut mismatches = player.mismatches().to_vec();
    if !file.complete {
        mismatches.push(format!(
            "the recording stopped early: {:.1} s are intact",
            file.duration_s
        ));
    }
    if !mismatches.is_empty() && !force {
        return Err(LoadFailure::Differs(mismatches));
    }
    let session = player.session();
    let track = session
        .world()
        .track()
        .map(|t| t.mesh.clone())
        .context("the replay's world has no track to draw")
        .map_err(LoadFailure::Error)?;
    let visual = VehicleVisual::from_params(session.vehicle().params());
    let title = format!(
        "{} on {}",
        file.header.identity.vehicle.name, file.header.identity.track.name
    );
    // Keep every 10 ms, or sparser for a long replay.
    let interval_s = (file.duration_s / MAX_FRAMES as f64).max(0.01);
    let mut frames =
        Vec::with_capacity(((file.duration_s / interval_s) as usize + 2).min(MAX_FRAMES + 2));
    let mut rotation = [0.0f64; 4];
    let (mut time_s, mut next_keep) = (0.0, 0.0);
    let tau = std::f64::consts::TAU;
    loop {
        let stepped = player.step().map_err(LoadFailure::Error)?;
        let Some(in_world) = stepped else { break };
        let s = player.session().snapshot();
        let dt = player.session().step_s();
        time_s += dt;
        if in_world {
            for (angle, w) in rotation.iter_mut().zip(&s.wheels) {
                let next = *angle + w.spin_rad_per_s * dt;
                *angle = if next.is_finite() {
                    next.rem_euclid(tau)
                } else {
                    0.0
                };
            }
        } else {
            rotation = [0.0; 4];
        }
        if time_s >= next_keep {
            frames.push(TimelineFrame {
                time_s,
                snapshot: *s,
                wheel_rotation_rad: rotation,
                laps: player.session().lap_times(),
            });
            next_keep += interval_s;
        }
    }
    if frames.is_empty() {
        return Err(LoadFailure::Error(anyhow::anyhow!(
            "{}: the replay holds no steps",
            path.display()
        )));
    }
    Ok(Timeline {
        path: path.to_owned(),
        title,
        frames,
        mismatches,
        diverged_at_s: player
            .diverged_at_tick()
            .map(|t| t as f64 * player.session().step_s()),
        track,
        visual,
    })
}

/// A timeline being built on a thread of its own.
pub struct TimelineLoader {
    /// The file.
    pub path: PathBuf,
    result: Receiver<Result<Timeline, LoadFailure>>,
}

impl TimelineLoader {
    /// Starts re-simulating `path`.
    ///
    /// # Errors
    /// The thread cannot start.
    pub fn spawn(path: &Path, force: bool) -> std::io::Result<Self> {
        let (tx, rx) = std::sync::mpsc::channel();
        let file = path.to_owned();
        std::thread::Builder::new()
            .name("gripline-replay-load".to_owned())
            .spawn(move || {
                let _ = tx.send(build_timeline(&file, force));
            })?;
        Ok(Self {
            path: path.to_owned(),
            result: rx,
        })
    }

    /// The result once ready.
    pub fn poll(&self) -> Option<Result<Timeline, LoadFailure>> {
        match self.result.try_recv() {
            Ok(result) => Some(result),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Err(LoadFailure::Error(anyhow::anyhow!(
                "the replay loader stopped without a result"
            )))),
        }
    }
}

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

/// Replay files in `dir` (saved) and `dir/recent` (automatic), newest first.
pub fn list_replays(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for d in [dir.to_owned(), dir.join("recent")] {
        if let Ok(entries) = std::fs::read_dir(&d) {
            files.extend(
                entries
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| {
                        p.extension()
                            .is_some_and(|e| e == gripline_host::recordings::EXTENSION)
                    }),
            );
        }
    }
    files.sort_by_key(|p| std::cmp::Reverse(p.file_name().map(std::ffi::OsStr::to_os_string)));
    files
}

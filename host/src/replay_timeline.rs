//! A replay re-simulated into a timeline of states to watch: every 10 ms of the drive (more
//! sparsely for very long ones), built on a loader thread of its own. A replay recorded by
//! another build, or with a car or track file changed since, is not re-simulated unless
//! asked: the loader says what differs (it may diverge; where it did is known once built).

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, TryRecvError};

use anyhow::Context as _;
use gripline_physics::vehicle::{Snapshot, VehicleParams};
use gripline_sim::lap_timer::LapTimes;
use gripline_sim::replay::{ReplayFile, ReplayPlayer};

/// Frames a timeline keeps at most (about 60 MB of states).
pub const MAX_FRAMES: usize = 40_000;

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
    /// The car (its dimensions, to draw it).
    pub params: VehicleParams,
    /// The car as the recording names it (`--vehicle`'s name or path), to draw its model.
    pub vehicle: String,
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

    /// The frames either side of `t` (s) and the fraction between them.
    pub fn around(&self, t: f64) -> Option<(&TimelineFrame, &TimelineFrame, f64)> {
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
    let params = session.vehicle().params().clone();
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
        params,
        vehicle: file.header.identity.vehicle.spec.clone(),
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

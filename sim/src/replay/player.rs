//! Playing a replay: a fresh session of the recorded car and world, and the recorded events
//! applied to it in order, each step exactly as it was taken. The recording's state
//! checkpoints are compared as it goes, so a re-simulation that diverges (another build,
//! changed files) is noticed at the step it happens.

use anyhow::{Context, Result, bail};

use super::codec::{Record, state_hash};
use super::event::JournalEvent;
use super::identity::build_id;
use super::reader::{Records, ReplayFile};
use crate::session::Session;

/// A replay being re-simulated (see the module docs).
pub struct ReplayPlayer {
    session: Session,
    records: Records,
    ticks: u64,
    diverged_at_tick: Option<u64>,
    mismatches: Vec<String>,
}

impl std::fmt::Debug for ReplayPlayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReplayPlayer")
            .field("ticks", &self.ticks)
            .field("diverged_at_tick", &self.diverged_at_tick)
            .finish_non_exhaustive()
    }
}

impl ReplayPlayer {
    /// Loads the replay's car and world (heavy: off the sim and UI threads) and gets ready
    /// to play from its first step. What differs from the recording (the build, a car or
    /// track file changed since) is listed in [`ReplayPlayer::mismatches`]: the caller
    /// decides whether to play anyway.
    ///
    /// # Errors
    /// The replay names no loadable car or world; they cannot be loaded.
    pub fn open(file: &ReplayFile) -> Result<Self> {
        let identity = &file.header.identity;
        if !identity.is_loadable() {
            bail!(
                "{}: the replay does not say which files its car and track came from",
                file.path.display()
            );
        }
        let setup = identity
            .setup
            .as_ref()
            .map(|s| std::path::PathBuf::from(&s.spec));
        let session = Session::load_with_setup(
            &identity.vehicle.spec,
            &identity.track.spec,
            setup.as_deref(),
        )
        .with_context(|| {
            format!(
                "{}: loading the replay's car, track and set-up",
                file.path.display()
            )
        })?;
        let mut mismatches = Vec::new();
        let build = build_id();
        if file.header.build != build {
            mismatches.push(format!(
                "it was recorded by {}, and this is {build}",
                file.header.build
            ));
        }
        let now = session.identity();
        for (what, then, now) in [
            ("car", &identity.vehicle, &now.vehicle),
            ("track", &identity.track, &now.track),
        ] {
            if then.content_hash != now.content_hash {
                mismatches.push(format!("the {what} files of {now} have changed since"));
            }
        }
        match (&identity.setup, &now.setup) {
            (Some(then), Some(now)) if then.content_hash != now.content_hash => {
                mismatches.push(format!("the set-up file {now} has changed since"));
            }
            (Some(then), None) => {
                mismatches.push(format!("the set-up file {then} cannot be read"));
            }
            _ => {}
        }
        let mut session = session;
        session.set_environment(file.header.environment)?;
        session.apply(&JournalEvent::StepSize(file.header.step_s))?;
        Ok(Self {
            session,
            records: file.records()?,
            ticks: 0,
            diverged_at_tick: None,
            mismatches,
        })
    }

    /// What differs from the recording (empty: it replays bit for bit).
    pub fn mismatches(&self) -> &[String] {
        &self.mismatches
    }

    /// The session being played.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// Steps played.
    pub fn ticks(&self) -> u64 {
        self.ticks
    }

    /// The first checkpoint (in steps) where the re-simulation differed from the recording.
    pub fn diverged_at_tick(&self) -> Option<u64> {
        self.diverged_at_tick
    }

    /// Applies the events up to and including the next step. Returns `Ok(None)` at the end,
    /// otherwise `false` when the step recovered the car (as [`Session::step`], which makes
    /// the same recoveries as when it was recorded), `true` otherwise.
    ///
    /// # Errors
    /// A damaged record; an event the session refuses (a start with no ground under it).
    pub fn step(&mut self) -> Result<Option<bool>> {
        for record in self.records.by_ref() {
            match record? {
                Record::Event(JournalEvent::Step(controls)) => {
                    self.ticks += 1;
                    return Ok(Some(self.session.step(&controls)));
                }
                Record::Event(event) => self.session.apply(&event)?,
                Record::Checkpoint {
                    tick,
                    state_hash: hash,
                } => {
                    if self.diverged_at_tick.is_none()
                        && (tick != self.ticks || state_hash(self.session.snapshot()) != hash)
                    {
                        self.diverged_at_tick = Some(tick);
                    }
                }
                Record::End { .. } => break,
            }
        }
        Ok(None)
    }
}

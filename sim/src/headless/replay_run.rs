//! `gripline replay FILE`: re-simulates a replay without a window, as fast as the CPU
//! allows, writing the same telemetry CSV as a headless run, and says whether it reproduced
//! the recording (its state checkpoints) and what differs from when it was recorded.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use serde_json::json;

use super::recorder::Recorder;
use crate::observer::TickObserver;
use crate::replay::{ReplayFile, ReplayPlayer};

/// What `gripline replay` does (its command line, parsed by the binary).
#[derive(Clone, Debug, Default)]
pub struct ReplayOptions {
    /// The replay file.
    pub file: PathBuf,
    /// Telemetry CSV to write.
    pub out: Option<PathBuf>,
    /// Record every N-th tick only.
    pub decimate: u64,
    /// Play even when the build or the files differ from the recording's, or the recording
    /// is incomplete (it may diverge).
    pub force: bool,
}

/// Re-simulates a replay (see the module docs); prints and returns the summary.
///
/// # Errors
/// A file that is not a playable replay ([`crate::replay::ReplayError`]); a build or files
/// that differ without `force`; a damaged record; the telemetry cannot be written.
pub fn replay(args: &ReplayOptions) -> Result<serde_json::Value> {
    let file = if args.force {
        ReplayFile::open_intact(&args.file)?
    } else {
        ReplayFile::open(&args.file)
            .map_err(|e| anyhow::Error::new(e).context("--force plays the intact part"))?
    };
    if !file.complete {
        eprintln!(
            "gripline: warning: {}: incomplete recording; playing its {} intact steps",
            file.path.display(),
            file.ticks
        );
    }
    let mut player = ReplayPlayer::open(&file)?;
    if !player.mismatches().is_empty() {
        let list = player.mismatches().join("; ");
        if !args.force {
            bail!(
                "{}: {list}: it may not replay as it was driven (--force plays it anyway)",
                file.path.display()
            );
        }
        eprintln!(
            "gripline: warning: {}: {list}: it may diverge",
            file.path.display()
        );
    }
    let mut recorder = match &args.out {
        Some(path) => Some(Recorder::create(path, args.decimate)?),
        None => None,
    };
    if let Some(recorder) = &mut recorder {
        recorder.start(
            player.session().vehicle(),
            player.session().sound(),
            player.session().step_s(),
        )?;
    }
    let started = Instant::now();
    let mut simulated_s = 0.0;
    let mut recoveries = 0u32;
    while let Some(stayed) = player.step()? {
        simulated_s += player.session().step_s();
        if !stayed {
            recoveries += 1;
        }
        if let Some(recorder) = &mut recorder {
            let session = player.session();
            recorder.tick(session.snapshot(), session.step_s(), false)?;
        }
    }
    if let Some(recorder) = &mut recorder {
        recorder.finish()?;
    }
    let wall_s = started.elapsed().as_secs_f64();
    let diverged_at_s = player
        .diverged_at_tick()
        .map(|tick| tick as f64 * player.session().step_s());
    if let Some(t) = diverged_at_s {
        eprintln!(
            "gripline: warning: {}: the re-simulation diverged from the recording by t = {t:.3} s",
            file.path.display()
        );
    }
    let laps = player.session().lap_times();
    let header = &file.header;
    let summary = json!({
        "replay": file.path.display().to_string(),
        "recorded_by": header.build,
        "vehicle": header.identity.vehicle.name,
        "track": header.identity.track.name,
        "ticks": player.ticks(),
        "simulated_total_s": simulated_s,
        "complete": file.complete,
        "mismatches": player.mismatches(),
        "reproduced": diverged_at_s.is_none(),
        "diverged_at_s": diverged_at_s,
        "recoveries": recoveries,
        "laps_completed": laps.laps_completed,
        "best_lap_s": laps.best_lap_s,
        "wall_s": wall_s,
    });
    let text = serde_json::to_string_pretty(&summary).context("cannot format the summary")?;
    println!("{text}");
    Ok(summary)
}

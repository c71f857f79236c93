//! The headless runner (`gripline headless`): runs a scenario's test procedure with a vehicle
//! on a track as fast as the CPU allows, stepping the same [`Session`] as the real-time
//! simulator ([`Session::step`]), at its rate or another (`--rate-hz`), and writes telemetry
//! and a summary of named metrics.

mod ffb_trace;
mod line_keeper;
mod metrics;
mod procedures;
mod recorder;
mod replay_run;
mod run;
mod steady_state_gradients;

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use gripline_formats::assets;
use gripline_formats::scenario_file::{
    ScenarioFile, ScenarioTest, check_duration_s, load_scenario,
};
use gripline_input::settings::ffb_profile::{FfbProfile, load_ffb_profile};
use serde_json::json;

use crate::observer::TickObserver;
use crate::replay::{Overflow, ReplayHandle, ReplayHeader, SessionIdentity};
use crate::session::{Session, load_car};
use crate::world::World;
use ffb_trace::FfbTrace;
use recorder::Recorder;
pub use replay_run::{ReplayOptions, replay};
pub use run::Run;

/// What `gripline headless` runs (its command line, parsed by the binary).
#[derive(Clone, Debug, Default)]
pub struct HeadlessOptions {
    /// Vehicle file, or the name of a shipped vehicle.
    pub vehicle: String,
    /// Track file or name; `None`: the scenario's track.
    pub track: Option<String>,
    /// Scenario file, or the name of a shipped scenario.
    pub scenario: String,
    /// Simulated seconds, for the scenarios that run for a time (`Laps`, `Script`); the
    /// measurement scenarios end by their own rule and refuse it.
    pub duration: Option<f64>,
    /// The physics rate (Hz); `None`: [`gripline_physics::STEP_RATE_HZ`].
    pub rate_hz: Option<f64>,
    /// Telemetry CSV to write.
    pub out: Option<PathBuf>,
    /// Record every N-th tick only.
    pub decimate: u64,
    /// Summary JSON to write as well as print.
    pub summary: Option<PathBuf>,
    /// Force-feedback trace CSV to write.
    pub ffb_trace: Option<PathBuf>,
    /// The wheel and force-feedback settings of the trace.
    pub ffb_profile: Option<PathBuf>,
    /// Replay file to record the run to.
    pub record: Option<PathBuf>,
    /// Set-up file to run the car in.
    pub setup: Option<PathBuf>,
    /// Air and track temperatures; `None`: the defaults (20 °C, 25 °C).
    pub environment: Option<gripline_physics::environment::Environment>,
}

/// The run length `--duration` asks of `scenario` (s), checked: a run length of at most 24 h,
/// and only for the scenarios that run for a time (`Laps`, `Script`).
///
/// # Errors
/// Either problem, naming the duration (and the scenario).
pub fn run_length(scenario: &ScenarioFile, duration: Option<f64>) -> Result<Option<f64>> {
    let Some(seconds) = duration else {
        return Ok(None);
    };
    check_duration_s(seconds).map_err(|m| anyhow::anyhow!("--duration {m}"))?;
    match scenario.test {
        ScenarioTest::Script(_) | ScenarioTest::Laps(_) => Ok(Some(seconds)),
        _ => anyhow::bail!(
            "--duration {seconds} s: scenario '{}' is a measurement that ends by its own rule; \
             --duration sets the length of laps and scripted scenarios",
            scenario.name
        ),
    }
}

/// Runs `gripline headless`: prints the summary (JSON) and returns it.
///
/// # Errors
/// Any problem with the files, the procedure (a missing track reference; in a measurement
/// scenario, a recovery of the car) or the outputs, each named.
pub fn run(args: &HeadlessOptions) -> Result<serde_json::Value> {
    run_observed(args, None)
}

/// Runs `gripline headless` with `observer` following every tick (see [`run`]).
///
/// # Errors
/// As [`run`], and the observer's.
pub fn run_observed(
    args: &HeadlessOptions,
    observer: Option<Box<dyn TickObserver>>,
) -> Result<serde_json::Value> {
    let scenario_path = assets::resolve_scenario(&args.scenario)?;
    let scenario = load_scenario(&scenario_path)?;
    let duration = run_length(&scenario, args.duration)?;
    let car = load_car(&args.vehicle, args.setup.as_deref())?;
    for warning in &car.warnings {
        eprintln!("gripline: warning: {warning}");
    }
    let track_name = args.track.as_deref().unwrap_or(&scenario.track);
    let world = World::load(track_name)?;
    let recorder = match &args.out {
        Some(path) => Some(Recorder::create(path, args.decimate)?),
        None => None,
    };
    let world_name = world.name().to_owned();
    let identity = SessionIdentity {
        vehicle: car.identity,
        track: world.identity(track_name)?,
        setup: car.setup,
    };
    let mut session = Session::new(car.vehicle, world)?;
    session.set_sound(car.sound);
    session.set_identity(identity);
    if let Some(environment) = args.environment {
        session.set_environment(environment)?;
    }
    let replay = match &args.record {
        Some(path) => Some(record_replay(&mut session, path)?),
        None => None,
    };
    if let Some(rate_hz) = args.rate_hz {
        session.set_rate_hz(rate_hz)?;
    }
    let mut sim = Run::new(session);
    // The measurements must never include a recovery; laps and scripts count them.
    sim.set_strict(!matches!(
        scenario.test,
        ScenarioTest::Script(_) | ScenarioTest::Laps(_)
    ));
    if let Some(recorder) = recorder {
        sim.observe(Box::new(recorder))?;
    }
    if let Some(path) = &args.ffb_trace {
        let profile = match &args.ffb_profile {
            Some(file) => load_ffb_profile(file)?,
            None => FfbProfile::default(),
        };
        sim.observe(Box::new(FfbTrace::create(path, &profile)?))?;
    } else if args.ffb_profile.is_some() {
        anyhow::bail!("--ffb-profile needs --ffb-trace FILE (the profile shapes the trace)");
    }
    if let Some(observer) = observer {
        sim.observe(observer)?;
    }

    let started = Instant::now();
    let metrics = match &scenario.test {
        ScenarioTest::Launch(t) => procedures::launch(&mut sim, t),
        ScenarioTest::Braking(t) => procedures::braking(&mut sim, t),
        ScenarioTest::TopSpeed(t) => procedures::top_speed(&mut sim, t),
        ScenarioTest::Skidpad(t) => procedures::skidpad(&mut sim, t),
        ScenarioTest::LaneChange(t) => procedures::lane_change(&mut sim, t),
        ScenarioTest::StepSteer(t) => procedures::step_steer(&mut sim, t),
        ScenarioTest::Coastdown(t) => procedures::coastdown(&mut sim, t),
        ScenarioTest::Script(t) => {
            procedures::script(&mut sim, t, duration.unwrap_or(t.duration_s))
        }
        ScenarioTest::Laps(t) => {
            procedures::laps(&mut sim, t, duration.unwrap_or(t.default_duration_s))
        }
    }
    .with_context(|| format!("scenario '{}'", scenario.name))?;
    let wall_s = started.elapsed().as_secs_f64();
    let simulated_s = sim.simulated_s();
    let vehicle_name = sim.vehicle().params().name.clone();
    let ticks = sim.ticks;
    let recoveries = recoveries_summary(&sim.recoveries);
    let rate_hz = 1.0 / sim.step_s();
    sim.finish()?;
    if let Some(replay) = replay {
        let path = replay.path().to_owned();
        replay
            .finish()
            .with_context(|| format!("{}: recording the replay", path.display()))?;
    }

    let summary = json!({
        "scenario": scenario.name,
        "vehicle": vehicle_name,
        "track": world_name,
        "metrics": metrics,
        "recoveries": recoveries,
        "rate_hz": rate_hz,
        "ticks": ticks,
        "simulated_total_s": simulated_s,
        "wall_s": wall_s,
        "real_time_factor": if wall_s > 0.0 { simulated_s / wall_s } else { 0.0 },
    });
    let text = serde_json::to_string_pretty(&summary).context("cannot format the summary")?;
    if let Some(path) = &args.summary {
        std::fs::write(path, format!("{text}\n"))
            .with_context(|| format!("{}: cannot write", path.display()))?;
    }
    println!("{text}");
    Ok(summary)
}

/// The summary's `recoveries`: how many, and each one's time, reason and places.
fn recoveries_summary(recoveries: &[crate::recovery::Recovery]) -> serde_json::Value {
    let events: Vec<serde_json::Value> = recoveries
        .iter()
        .map(|r| {
            let finite = |x: f64| if x.is_finite() { Some(x) } else { None };
            json!({
                "t_s": r.time_s,
                "reason": r.reason.name(),
                "from_m": [finite(r.from.x), finite(r.from.y), finite(r.from.z)],
                "to_m": [r.to.x, r.to.y, r.to.z],
            })
        })
        .collect();
    json!({ "count": recoveries.len(), "events": events })
}

/// Starts recording `session` (as built, before any change) to the replay file `path`, at
/// the pace of the run: a headless run waits for the writer rather than lose a step.
///
/// # Errors
/// The file cannot be created; the session has already changed.
pub fn record_replay(session: &mut Session, path: &std::path::Path) -> Result<ReplayHandle> {
    let header = ReplayHeader::for_session(session);
    let (journal, handle) = crate::replay::start_recording(path, &header, Overflow::Wait)?;
    session.record_to(Box::new(journal))?;
    Ok(handle)
}

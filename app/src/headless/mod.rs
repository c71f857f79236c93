//! The headless runner (`gripline headless`): runs a scenario's test procedure with a vehicle
//! on a track as fast as the CPU allows, through the same `Vehicle::step` as the real-time
//! simulator, writes telemetry and a summary of named metrics.

mod ffb_trace;
mod metrics;
mod procedures;
mod recorder;
mod sim;

use std::time::Instant;

use anyhow::{Context, Result};
use gripline_config::ffb_profile::{FfbProfile, load_ffb_profile};
use gripline_config::scenario_file::{ScenarioTest, load_scenario};
use gripline_config::{assets, vehicle_file::load_vehicle};
use serde_json::json;

use crate::cli::HeadlessArgs;
use gripline_app::world::{self, World};
use recorder::Recorder;
use sim::Sim;

/// Runs `gripline headless`.
///
/// # Errors
/// Any problem with the files, the procedure (a missing track reference, a car that leaves
/// the world) or the outputs, each named.
pub fn run(args: &HeadlessArgs) -> Result<()> {
    let scenario_path = assets::resolve_scenario(&args.scenario)?;
    let scenario = load_scenario(&scenario_path)?;
    let vehicle_path = assets::resolve_vehicle(&args.vehicle)?;
    let loaded = load_vehicle(&vehicle_path)?;
    for warning in &loaded.warnings {
        eprintln!("gripline: warning: {warning}");
    }
    let track_name = args.track.as_deref().unwrap_or(&scenario.track);
    let world = World::load(track_name)?;
    let recorder = match &args.out {
        Some(path) => Some(Recorder::create(path, args.decimate)?),
        None => None,
    };
    let mut sim = Sim::new(loaded.build()?, &world, recorder);
    if let Some(path) = &args.ffb_trace {
        let profile = match &args.ffb_profile {
            Some(file) => load_ffb_profile(file)?,
            None => FfbProfile::default(),
        };
        sim.trace_ffb(ffb_trace::FfbTrace::create(path, &profile, &sim.vehicle)?);
    } else if args.ffb_profile.is_some() {
        anyhow::bail!("--ffb-profile needs --ffb-trace FILE (the profile shapes the trace)");
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
        ScenarioTest::Script(t) => procedures::script(&mut sim, t),
        ScenarioTest::Laps(t) => {
            procedures::laps(&mut sim, t, args.duration.unwrap_or(t.default_duration_s))
        }
    }
    .with_context(|| format!("scenario '{}'", scenario.name))?;
    let wall_s = started.elapsed().as_secs_f64();
    let simulated_s = sim.simulated_s();
    let vehicle_name = sim.vehicle.params().name.clone();
    sim.finish()?;

    let summary = json!({
        "scenario": scenario.name,
        "vehicle": vehicle_name,
        "track": world.name(),
        "metrics": metrics,
        "ticks": simulated_s / sim::DT,
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
    Ok(())
}

//! Runs the real sim thread with the autopilot lapping the circuit for a few seconds, a
//! renderer-like consumer draining and interpolating at 60 Hz, and prints the sim thread's
//! figures (tick lateness, missed and dropped ticks, step cost) once per second and at the
//! end: the same figures `gripline --stats` shows, without a window.
//!
//! Run: `cargo run --release -p gripline --example sim_stats -- [SECONDS] [VEHICLE] [TRACK]`
//! (defaults: 5, `corvette-c5`, `circuit`).

use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use gripline_input::settings::bindings::Bindings;
use gripline_sim::realtime::{Interpolator, Rig, Session, SimConfig, SimEvent, SimThread};

fn main() -> Result<()> {
    let mut args = std::env::args().skip(1);
    let seconds: f64 = args
        .next()
        .map(|s| s.parse())
        .transpose()
        .context("SECONDS must be a number")?
        .unwrap_or(5.0);
    let vehicle = args.next().unwrap_or_else(|| "corvette-c5".to_owned());
    let track = args.next().unwrap_or_else(|| "circuit".to_owned());
    let session = Session::load(&vehicle, &track)?;
    let rig = Rig::without_ffb(&Bindings::default());
    let mut sim = SimThread::spawn(
        session,
        rig,
        SimConfig {
            autopilot: true,
            ..SimConfig::default()
        },
    )?;
    let start = Instant::now();
    let mut interp = Interpolator::new(1.5);
    let mut next_print = Duration::from_secs(1);
    let frame = Duration::from_micros(16_667);
    while start.elapsed().as_secs_f64() < seconds {
        std::thread::sleep(frame);
        interp.drain(sim.snapshots());
        let drawn = interp.sample(start.elapsed());
        while let Some(event) = sim.next_event() {
            if !matches!(event, SimEvent::Retired(_)) {
                println!("event: {event:?}");
            }
        }
        if start.elapsed() >= next_print {
            next_print += Duration::from_secs(1);
            if let Some(d) = drawn {
                println!(
                    "t {:5.1} s  speed {:5.1} m/s  lap {:?}  |  {}",
                    d.stamped.snapshot.time_s,
                    d.stamped.snapshot.speed_m_per_s,
                    d.stamped
                        .hud
                        .laps
                        .current_lap_s
                        .map(|t| (t * 10.0).round() / 10.0),
                    sim.stats()
                );
            }
        }
    }
    let stats = sim.stats();
    sim.shutdown()?;
    println!("final: {stats}");
    Ok(())
}

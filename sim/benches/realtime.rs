//! The real-time loop's overheads around the physics step:
//!
//! - `scheduler_poll`: one [`TickScheduler::poll`] (the decision of each wake-up);
//! - `snapshot_push_pop`: one tick-stamped snapshot through the ring and out again;
//! - `interpolate_frame`: one render frame's drain of 16 snapshots (a 60 Hz frame at 1 kHz)
//!   plus the interpolation;
//! - `sim_tick_*`: one whole [`SimCore::tick`] (commands, keyboard input, physics, lap timer,
//!   force feedback, publishing) on the flat plane with the keyboard, and on the circuit with
//!   the autopilot; the physics step alone is in `gripline-tests`' `vehicle_step` bench.
//!
//! Run: `cargo bench -p gripline --bench realtime`.

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use gripline_input::settings::bindings::Bindings;
use gripline_sim::realtime::Interpolator;
use gripline_sim::realtime::rig::Rig;
use gripline_sim::realtime::scheduler::{TickDecision, TickScheduler};
use gripline_sim::realtime::sim_core::{SimCore, UiRings, core_rings};
use gripline_sim::realtime::snapshot_ring::{Stamped, snapshot_ring};
use gripline_sim::realtime::stats::SharedStats;
use gripline_sim::session::Session;

fn overheads(c: &mut Criterion) {
    let mut scheduler = TickScheduler::new(Duration::from_millis(1), 5, Duration::ZERO);
    let mut now = Duration::ZERO;
    c.bench_function("scheduler_poll", |b| {
        b.iter(|| {
            now += Duration::from_millis(1);
            let decision = scheduler.poll(black_box(now));
            debug_assert!(matches!(decision, TickDecision::Tick { .. }));
            black_box(decision)
        });
    });

    let (mut tx, mut rx) = snapshot_ring(256);
    let mut stamped = Stamped::default();
    c.bench_function("snapshot_push_pop", |b| {
        b.iter(|| {
            stamped.tick += 1;
            tx.push(black_box(stamped));
            black_box(rx.pop())
        });
    });

    let (mut tx, mut rx) = snapshot_ring(256);
    let mut interp = Interpolator::new(1.5);
    let mut tick = 0u64;
    let mut frame = Duration::ZERO;
    c.bench_function("interpolate_frame", |b| {
        b.iter(|| {
            for _ in 0..16 {
                tick += 1;
                let mut s = Stamped {
                    tick,
                    ..Stamped::default()
                };
                s.snapshot.position.x = tick as f64 * 0.03;
                tx.push(s);
            }
            frame += Duration::from_millis(16);
            interp.drain(&mut rx);
            black_box(interp.sample(frame))
        });
    });
}

/// A core whose session is recorded as a replay into `replay`, if given.
fn core_recorded(
    track: &str,
    autopilot: bool,
    replay: Option<&std::path::Path>,
) -> (SimCore, UiRings) {
    let mut session = Session::load("corvette-c5", track).expect("shipped assets load");
    if let Some(path) = replay {
        let header = gripline_sim::replay::ReplayHeader::for_session(&session);
        let (journal, handle) = gripline_sim::replay::start_recording(
            path,
            &header,
            gripline_sim::replay::Overflow::Stop,
        )
        .expect("recording");
        session.record_to(Box::new(journal)).expect("fresh session");
        // The writer ends with the session; the handle is not needed in a bench.
        std::mem::forget(handle);
    }
    let mut rig = Rig::without_ffb(&Bindings::default());
    let _keys = rig.add_keyboard();
    let (rings, ui) = core_rings(256);
    let core = SimCore::new(
        session,
        rig,
        rings,
        Arc::new(SharedStats::default()),
        autopilot,
    );
    (core, ui)
}

fn whole_tick(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("gripline-bench-{}", std::process::id()));
    let replay = dir.join("bench.gripline-replay");
    for (name, track, autopilot, recorded) in [
        ("sim_tick_flat_keyboard", "flat", false, false),
        ("sim_tick_circuit_autopilot", "circuit", true, false),
        (
            "sim_tick_circuit_autopilot_recording_replay",
            "circuit",
            true,
            true,
        ),
    ] {
        let (mut core, mut ui) = core_recorded(track, autopilot, recorded.then_some(&*replay));
        let mut now = Duration::ZERO;
        let mut ticks = 0u64;
        c.bench_function(name, |b| {
            b.iter(|| {
                now += Duration::from_millis(1);
                core.tick(black_box(now));
                ticks += 1;
                // The renderer's side, so the ring never fills.
                if ticks.is_multiple_of(64) {
                    while ui.snapshots.pop().is_some() {}
                }
                // Laps of 60 s, so the car stays on the track's well-trodden part.
                if ticks.is_multiple_of(60_000) {
                    let _ = ui.commands.push(gripline_sim::realtime::Command::Reset);
                }
            });
        });
    }
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, overheads, whole_tick);
criterion_main!(benches);

//! The sim tick allocates nothing in steady state: every call to the allocator from the
//! checked closures is counted by `assert_no_alloc`'s global allocator (its `warn_debug`
//! mode counts instead of aborting; the check is active in builds with debug assertions,
//! which tests are).
//!
//! Steady state includes driving, the autopilot, telemetry out (OutGauge and OutSim to an
//! address nobody answers), pause, reset, FFB kill and enable, gearbox
//! changes, keyboard input and the render side's drain and interpolation. Not included, and
//! documented as allocating: a device connecting (the first tick announces the keyboard),
//! `Command::ApplyBindings` and `Command::Swap` (the latter only frees on the sim thread when
//! the event ring is full).

use std::sync::Arc;
use std::time::Duration;

use assert_no_alloc::{AllocDisabler, assert_no_alloc, reset_violation_count, violation_count};
use gripline_input::settings::bindings::Bindings;
use gripline_input::settings::input_codes::key;
use gripline_physics::powertrain::GearboxMode;
use gripline_sim::realtime::Interpolator;
use gripline_sim::realtime::commands::Command;
use gripline_sim::realtime::rig::Rig;
use gripline_sim::realtime::sim_core::{SimCore, core_rings};
use gripline_sim::realtime::stats::SharedStats;
use gripline_sim::session::Session;
use gripline_sim::telemetry_out::{TelemetrySender, TelemetryTargets};

#[global_allocator]
static ALLOCATOR: AllocDisabler = AllocDisabler;

#[test]
fn steady_state_ticks_do_not_allocate() {
    // Sanity: the checker does count.
    reset_violation_count();
    assert_no_alloc(|| drop(std::hint::black_box(vec![1u8; 16])));
    assert!(
        violation_count() > 0,
        "the allocation checker is not active"
    );
    reset_violation_count();

    let session = Session::load("corvette-c5", "circuit").unwrap();
    let mut rig = Rig::without_ffb(&Bindings::default());
    let mut keys = rig.add_keyboard();
    let (rings, mut ui) = core_rings(64);
    let mut core = SimCore::new(session, rig, rings, Arc::new(SharedStats::default()), true);
    // Telemetry out to an address nobody answers (TEST-NET-1): the tick only hands snapshots
    // to the sender thread.
    let targets = TelemetryTargets {
        outgauge: Some("192.0.2.1:30000".parse().unwrap()),
        outsim: Some("192.0.2.1:30001".parse().unwrap()),
        outsim_opts: 0xff,
        ..TelemetryTargets::default()
    };
    let (telemetry, tap) = TelemetrySender::spawn(targets, core.session().vehicle()).unwrap();
    core.set_observer(Box::new(tap));
    let mut interp = Interpolator::new(1.5);
    let mut now = Duration::ZERO;
    // Warm-up: the keyboard connects (allocates its slot once).
    for _ in 0..10 {
        now += Duration::from_millis(1);
        core.tick(now);
    }
    interp.drain(&mut ui.snapshots);

    let commands = [
        (500, Command::Pause),
        (600, Command::Resume),
        (700, Command::KillFfb),
        (800, Command::EnableFfb),
        (1500, Command::SetAutopilot(false)),
        (1600, Command::SetGearboxMode(GearboxMode::Sequential)),
        (1950, Command::Recover),
        (2000, Command::Reset),
        (2100, Command::SetGearboxMode(GearboxMode::Automatic)),
        (2200, Command::SetAutopilot(true)),
    ];
    // Queued between the checked ticks (the UI side may allocate).
    let mut schedule: Vec<(u32, Option<Command>)> =
        commands.into_iter().map(|(t, c)| (t, Some(c))).collect();
    let mut allocating_ticks = Vec::with_capacity(3000);
    for tick in 0..3000u32 {
        for (at, command) in &mut schedule {
            if *at == tick
                && let Some(c) = command.take()
            {
                ui.commands.push(c).unwrap();
            }
        }
        let before = violation_count();
        assert_no_alloc(|| {
            if tick == 1550 {
                keys.key(key::UP, true);
                keys.key(key::LEFT, true);
            }
            if tick == 1900 {
                keys.key(key::UP, false);
                keys.key(key::LEFT, false);
            }
            now += Duration::from_millis(1);
            core.tick(now);
            if tick.is_multiple_of(16) {
                interp.drain(&mut ui.snapshots);
                std::hint::black_box(interp.sample(now));
            }
        });
        if violation_count() > before {
            allocating_ticks.push(tick);
        }
    }
    assert!(core.session().vehicle().snapshot().speed_m_per_s > 1.0);
    std::thread::sleep(Duration::from_millis(50));
    let (sent, failed) = telemetry.counts();
    assert!(
        sent + failed > 100,
        "the tap fed the sender: {sent} sent, {failed} failed"
    );
    assert!(
        allocating_ticks.is_empty(),
        "ticks that allocated: {allocating_ticks:?}"
    );
}

/// The scene's solids on TORCS's forza (needs Debian's `torcs-data`): a car sent off the
/// road at 200 km/h, 25 degrees left of the start straight, strikes the barrier and then the
/// pit wall's solids (the walls' and solids' contacts, their memories and the BVH queries)
/// without allocating.
#[test]
fn solid_contacts_do_not_allocate() {
    use gripline_physics::controls::Controls;
    let Ok(mut session) = Session::load("corvette-c5", "torcs:forza") else {
        println!("skipped: torcs:forza is not installed (Debian's torcs-data)");
        return;
    };
    let path = session.autopilot().expect("a centre line").path().clone();
    let (p, t) = path.point_at(5.0);
    session
        .place(
            p,
            t.y.atan2(t.x) + 25f64.to_radians(),
            GearboxMode::Automatic,
        )
        .expect("on the road");
    session.set_gear(0);
    session.set_forward_speed(200.0 / 3.6);
    // The first tick measures what it may keep (clearances); it is outside the check.
    session.step(&Controls::default());
    let mut solid_ticks = 0;
    reset_violation_count();
    for _ in 0..session.ticks_in(4.0) {
        assert_no_alloc(|| session.step(&Controls::default()));
        if session.snapshot().solid_contacts > 0 {
            solid_ticks += 1;
        }
    }
    assert_eq!(
        violation_count(),
        0,
        "a tick with walls and solids allocated"
    );
    assert!(solid_ticks > 0, "the car never touched a solid");
    println!("{solid_ticks} ticks in contact with solids, none allocated");
}

//! The runaway trip through the real force-feedback path (`Rig::ffb_tick`, `FfbOutput`, a
//! recording backend): a simulated rim turned by the torque the device really applies, on a
//! 1080° base with a car lock of 450° each side (the C5's).
//!
//! A wrong invert makes the soft lock push the rim into its end stop instead of back: the
//! trip must cut force feedback before the rim gets there, and hold it off until the user
//! re-enables. A correctly wired rim that the soft lock returns from past its lock, a rim
//! flung into the lock, and hard driving inside the lock must never trip it.

use crate::support::ffb as ffb_support;
use crate::support::rim;

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use ffb_support::{MAX_NM, exact_settings};
use gripline_input::ffb::device_facts::FfbDeviceFacts;
use gripline_input::ffb::output::FfbTick;
use gripline_input::ffb::recording::{Clock, ManualClock, Recording, RecordingBackend};
use gripline_input::ffb::runaway::{RUNAWAY_TICKS, RunawayCause};
use gripline_input::ffb::safety::StopReason;
use gripline_input::settings::axis_calibration::AxisCalibration;
use gripline_input::settings::bindings::{AxisBinding, AxisControl, Bindings};
use gripline_input::settings::device_identity::{DeviceIdentity, DeviceMatch};
use gripline_input::settings::ffb_settings::FfbSettings;
use gripline_input::settings::input_codes::key;
use gripline_physics::vehicle::SteeringFeel;
use gripline_sim::realtime::commands::{Command, SimEvent};
use gripline_sim::realtime::rig::{FfbLink, Rig, RigTorque};
use gripline_sim::realtime::sim_core::{SimCore, core_rings};
use gripline_sim::realtime::stats::SharedStats;
use gripline_sim::session::Session;
use rim::{Rim, RimDevice};

const PEAK_NM: f64 = 9.0;
const LOCK_DEG: f64 = 450.0;
const DT: f64 = 0.001;

fn feel() -> SteeringFeel {
    SteeringFeel {
        front_peak_slip_angle_rad: 0.1,
        front_peak_slip_ratio: 0.1,
        rear_peak_slip_ratio: 0.1,
        peak_column_torque_nm: 10.0,
        driven: [false, false, true, true],
    }
}

/// A rig on a recording backend of a `PEAK_NM` base, driven with `invert`, the car's lock at
/// `LOCK_DEG`, force feedback started at 0.
fn new_rig(settings: &FfbSettings, invert: bool) -> (Rig, Recording) {
    new_rig_of(settings, invert, PEAK_NM)
}

/// The same on a base of `peak_nm`.
fn new_rig_of(settings: &FfbSettings, invert: bool, peak_nm: f64) -> (Rig, Recording) {
    let backend = RecordingBackend::new(Clock::Manual(ManualClock::new()));
    let recording = backend.recording();
    let facts = FfbDeviceFacts {
        peak_torque_nm: peak_nm,
        invert,
        rotation_deg: 1080.0,
        ..FfbDeviceFacts::no_device(settings)
    };
    let mut rig = Rig::new(
        &Bindings::default(),
        settings,
        FfbLink {
            backend: Box::new(backend),
            facts,
        },
    );
    rig.set_car(LOCK_DEG, &feel());
    rig.start_ffb(Duration::ZERO);
    (rig, recording)
}

/// What a run saw.
#[derive(Debug)]
struct Run {
    /// The tick the trip fired (1-based) and why.
    tripped: Option<(usize, RunawayCause)>,
    /// The rim's angle (deg) each tick, after the tick's torque.
    angles_deg: Vec<f64>,
    /// The level sent each tick.
    levels: Vec<f64>,
    /// The rim's speed when it hit its end stop (rad/s), if it did.
    impact_rad_s: Option<f64>,
}

/// Runs `ticks` ticks of `torque(tick)` on `rim` through `rig`, the first at `from_ms` + 1
/// ms: the rig sees the rim's angle, sends a level, and the rim moves by what the device
/// applies.
fn run(
    rig: &mut Rig,
    recording: &Recording,
    rim: &mut Rim,
    (from_ms, ticks): (u64, usize),
    torque: impl Fn(usize) -> RigTorque,
) -> Run {
    let mut out = Run {
        tripped: None,
        angles_deg: Vec::with_capacity(ticks),
        levels: Vec::with_capacity(ticks),
        impact_rad_s: None,
    };
    for i in 1..=ticks {
        let now = Duration::from_millis(from_ms + i as u64);
        let tick: FfbTick = rig
            .ffb_tick(now, Some(torque(i)), rim.angle_rad, DT)
            .expect("the recording backend accepts");
        if let (None, Some(cause)) = (out.tripped, tick.tripped) {
            out.tripped = Some((i, cause));
        }
        let level = recording.last_level().expect("a level each tick");
        assert_eq!(level.to_bits(), tick.level.to_bits());
        rim.step(level, DT);
        out.angles_deg.push(rim.angle_rad.to_degrees());
        out.levels.push(level);
    }
    out.impact_rad_s = rim.impact_rad_s;
    out
}

fn no_torque(_: usize) -> RigTorque {
    RigTorque::AtWheel(0.0)
}

/// The wrongly inverted rim of a `peak_nm` base at a user maximum of `max_nm`, resting half a
/// degree past the left lock, hands off, for 1.5 s; with `user_re_enables` the user turns
/// force feedback back on every tick, so the trip cannot hold it off (the control
/// experiment).
fn wrong_invert(peak_nm: f64, max_nm: f64, reversed: bool, user_re_enables: bool) -> Run {
    let settings = FfbSettings {
        max_torque_nm: max_nm,
        ..exact_settings()
    };
    let (mut rig, recording) = new_rig_of(&settings, !reversed, peak_nm);
    let mut rim = Rim::new(peak_nm, reversed, LOCK_DEG + 0.5);
    if !user_re_enables {
        return run(&mut rig, &recording, &mut rim, (0, 1500), no_torque);
    }
    let mut r = Run {
        tripped: None,
        angles_deg: Vec::new(),
        levels: Vec::new(),
        impact_rad_s: None,
    };
    for i in 1..=1500u64 {
        let now = Duration::from_millis(i);
        rig.set_ffb_killed(false, now).expect("re-enable");
        rig.ffb_tick(now, Some(no_torque(0)), rim.angle_rad, DT)
            .expect("recording");
        rim.step(recording.last_level().unwrap(), DT);
        r.angles_deg.push(rim.angle_rad.to_degrees());
    }
    r.impact_rad_s = rim.impact_rad_s;
    r
}

#[test]
fn a_wrong_invert_runs_away_and_the_trip_cuts_it_before_the_end_stop() {
    // Both ways of getting it wrong (a base that needs invert driven without, one that does
    // not driven with), on a 9 N·m base at 5 N·m and on a 2.5 N·m geared wheel at its peak.
    for (peak, max) in [(PEAK_NM, MAX_NM), (2.5, 2.5)] {
        for reversed in [true, false] {
            let case = format!("{peak} N·m base at {max} N·m, reversed {reversed}");
            let control = wrong_invert(peak, max, reversed, true);
            let runaway_impact = control
                .impact_rad_s
                .unwrap_or_else(|| panic!("{case}: the wrong invert drives the rim into its stop"));
            let r = wrong_invert(peak, max, reversed, false);
            let (at, cause) = r
                .tripped
                .unwrap_or_else(|| panic!("{case}: no trip; rim at {:?}", r.angles_deg.last()));
            assert_eq!(cause, RunawayCause::UnexplainedAcceleration, "{case}");
            // It really was running away: the soft lock pushed it further out than it
            // started, and the level on the trip's tick and every tick after is zero.
            let at_trip = r.angles_deg[at - 1];
            assert!(at_trip > LOCK_DEG + 0.6, "{case}: tripped at {at_trip}°");
            assert!(
                r.levels[at - 1..]
                    .iter()
                    .all(|l| l.to_bits() == 0f64.to_bits()),
                "{case}: not zero from the trip on"
            );
            assert!(
                r.levels[..at - 1].iter().any(|l| l.abs() > 0.05),
                "{case}: the soft lock did push before"
            );
            // Cut long before the end stop (540°); the rim coasts on hands-off, but reaches
            // the stop, if at all, at a fraction of the speed the runaway gives it.
            assert!(at_trip < LOCK_DEG + 20.0, "{case}: tripped at {at_trip}°");
            let impact = r.impact_rad_s.unwrap_or(0.0);
            assert!(
                impact < 0.25 * runaway_impact,
                "{case}: hit the stop at {impact} rad/s (untripped {runaway_impact})"
            );
        }
    }
    // On the 9 N·m base, the untripped runaway slams into the stop within a quarter second.
    let control = wrong_invert(PEAK_NM, MAX_NM, true, true);
    let hit = control.angles_deg.iter().position(|a| a.abs() >= 539.999);
    assert!(hit.is_some_and(|ms| ms < 250), "{hit:?}");
    assert!(control.impact_rad_s.unwrap() > 12.0, "{control:?}");
}

#[test]
fn the_cut_holds_through_pause_and_resume_until_the_user_re_enables() {
    let (mut rig, recording) = new_rig(&exact_settings(), false);
    let mut rim = Rim::new(PEAK_NM, true, LOCK_DEG + 0.5);
    let r = run(&mut rig, &recording, &mut rim, (0, 1000), no_torque);
    assert!(r.tripped.is_some());
    // Pause and resume: still cut.
    rig.stop_ffb(StopReason::Pause).expect("recording");
    rig.start_ffb(Duration::from_millis(1001));
    let mut held = Rim::new(PEAK_NM, false, 0.0);
    let r = run(&mut rig, &recording, &mut held, (1001, 200), |_| {
        RigTorque::AtWheel(2.0)
    });
    assert!(r.levels.iter().all(|l| l.to_bits() == 0f64.to_bits()));
    assert!(rig.ffb_cut_reason().is_some());
    // The user turns it back on: torque again, and the cut is forgotten.
    rig.set_ffb_killed(false, Duration::from_millis(1201))
        .expect("re-enable");
    assert_eq!(rig.ffb_cut_reason(), None);
    let mut centre = Rim::new(PEAK_NM, false, 0.0);
    let r = run(&mut rig, &recording, &mut centre, (1201, 50), |_| {
        RigTorque::AtWheel(2.0)
    });
    assert!(
        (r.levels.last().unwrap() - 2.0 / PEAK_NM).abs() < 1e-9,
        "{:?}",
        r.levels.last()
    );
}

/// A hand that grabs the rim as the soft lock returns it, within 10° of the lock: a hard
/// brake on any motion towards centre (the rim decelerates outward while past the lock).
fn hand_grabs_the_return(angle_rad: f64, speed_rad_s: f64) -> f64 {
    let near = angle_rad.abs() < (LOCK_DEG + 10.0).to_radians();
    if near && speed_rad_s * angle_rad.signum() < 0.0 {
        -20.0 * speed_rad_s
    } else {
        0.0
    }
}

#[test]
fn the_soft_lock_returns_a_correctly_wired_rim_without_tripping() {
    for (invert, reversed) in [(false, false), (true, true)] {
        for start_deg in [LOCK_DEG + 2.0, LOCK_DEG + 40.0, -(LOCK_DEG + 40.0)] {
            for (hand, name) in [
                (rim::hands_off as fn(f64, f64) -> f64, "hands off"),
                (hand_grabs_the_return, "a hand grabbing it on the way back"),
            ] {
                let (mut rig, recording) = new_rig(&exact_settings(), invert);
                let mut rim = Rim::new(PEAK_NM, reversed, start_deg);
                rim.hand = hand;
                let r = run(&mut rig, &recording, &mut rim, (0, 2000), no_torque);
                let case = format!("invert {invert}, from {start_deg}°, {name}");
                assert_eq!(r.tripped, None, "{case}");
                // It was returned: back to the lock (the hand holds it where the spring
                // ends), and the soft lock pushed to do it.
                let end = *r.angles_deg.last().unwrap();
                assert!(end.abs() < LOCK_DEG + 0.01, "{case}: ended at {end}°");
                assert!(r.levels.iter().any(|l| l.abs() > 0.1), "{case}");
                assert_eq!(r.impact_rad_s, None, "{case}");
            }
        }
    }
}

#[test]
fn a_rim_flung_into_the_lock_is_caught_without_tripping() {
    // Hands off at 10 rad/s (570°/s) from 350°: the soft lock and its damper catch it.
    let (mut rig, recording) = new_rig(&exact_settings(), false);
    let mut rim = Rim::new(PEAK_NM, false, 350.0);
    rim.speed_rad_s = 10.0;
    let r = run(&mut rig, &recording, &mut rim, (0, 2000), no_torque);
    assert_eq!(r.tripped, None);
    let furthest = r.angles_deg.iter().copied().fold(0.0, f64::max);
    assert!(
        furthest > LOCK_DEG + 3.0,
        "it did go past the lock: {furthest}°"
    );
    assert_eq!(r.impact_rad_s, None);
}

#[test]
fn force_feedback_throwing_the_rim_into_the_soft_lock_is_caught_without_tripping() {
    // The car's torque pulling the wheel to opposite lock (a drift's caster, hands off) at
    // 4 N·m: the rim reaches the lock at about 12 rad/s and the soft lock stops it. For some
    // milliseconds after the torque has turned round, the wheel's acceleration estimate
    // still shows the push that threw it: that push explains it. With the default slew
    // limit the torque takes 9 ms to turn round.
    for slew in [1.0e5, 1000.0] {
        let settings = FfbSettings {
            slew_limit_nm_per_s: slew,
            ..exact_settings()
        };
        for (invert, reversed) in [(false, false), (true, true)] {
            let (mut rig, recording) = new_rig(&settings, invert);
            let mut rim = Rim::new(PEAK_NM, reversed, 400.0);
            let r = run(&mut rig, &recording, &mut rim, (0, 1500), |_| {
                RigTorque::AtWheel(4.0)
            });
            let case = format!("slew {slew}, invert {invert}");
            assert_eq!(r.tripped, None, "{case}");
            let furthest = r.angles_deg.iter().copied().fold(0.0, f64::max);
            assert!(furthest > LOCK_DEG + 3.0, "{case}: {furthest}°");
            assert_eq!(r.impact_rad_s, None, "{case}");
        }
    }
}

#[test]
fn hard_driving_inside_the_lock_never_trips() {
    // A hand swinging the wheel ±400° (inside the 450° lock) at 0.5 Hz against full torque
    // pulses both ways: the hand sets the rim's motion, force feedback fights it.
    let (mut rig, recording) = new_rig(&exact_settings(), false);
    let mut rim = Rim::new(PEAK_NM, false, 0.0);
    let mut tripped = None;
    for i in 1..=6000u64 {
        let now = Duration::from_millis(i);
        let t = i as f64 * DT;
        let torque = if (i / 150) % 2 == 0 { MAX_NM } else { -MAX_NM };
        let tick = rig
            .ffb_tick(now, Some(RigTorque::AtWheel(torque)), rim.angle_rad, DT)
            .expect("recording");
        tripped = tripped.or(tick.tripped);
        rim.angle_rad = 400f64.to_radians() * (std::f64::consts::PI * t).sin();
    }
    assert_eq!(tripped, None);
    assert!(recording.levels().iter().any(|(_, l)| l.abs() > 0.5));
}

#[test]
fn force_feedback_pushing_the_rim_out_past_the_lock_trips_within_a_few_ticks() {
    // The soft lock off and a test push of 3 N·m to the left with the rim already moving
    // out past the car's lock and its ramp: nothing stops it but the trip.
    let mut settings = exact_settings();
    settings.soft_lock.enabled = false;
    let (mut rig, recording) = new_rig(&settings, false);
    let mut rim = Rim::new(PEAK_NM, false, LOCK_DEG + 5.0);
    rim.speed_rad_s = 1.0;
    let r = run(&mut rig, &recording, &mut rim, (0, 500), |_| {
        RigTorque::AtWheel(3.0)
    });
    let (at, cause) = r.tripped.expect("trips");
    assert_eq!(cause, RunawayCause::PushedOut);
    // The speed estimate needs a few ticks to see the motion; then more than five ticks.
    assert!(at <= 3 * (RUNAWAY_TICKS as usize + 1), "tick {at}");
    assert!(r.levels[at - 1..].iter().all(|l| *l == 0.0));
    // The same push inside the lock is just a push.
    let (mut rig, recording) = new_rig(&settings, false);
    let mut rim = Rim::new(PEAK_NM, false, 0.0);
    let r = run(&mut rig, &recording, &mut rim, (0, 300), |_| {
        RigTorque::AtWheel(3.0)
    });
    assert_eq!(r.tripped, None);
}

#[test]
fn the_user_is_told_through_the_sim_core() {
    // The whole loop: the rim as the steering device of a sim core with the C5 parked, the
    // base wired backwards and driven without invert; the user left the wheel half a degree
    // past the lock. The UI gets the event and the HUD the cut; re-enabling clears it.
    let settings = exact_settings();
    let backend = RecordingBackend::new(Clock::Manual(ManualClock::new()));
    let recording = backend.recording();
    let identity = DeviceIdentity::new(0x346e, 0x0002, "Moza R9", "");
    let bindings = Bindings {
        axes: vec![AxisBinding {
            control: AxisControl::Steering,
            device: DeviceMatch::Device(identity.clone()),
            axis: 0,
            calibration: AxisCalibration::default(),
            rotation_deg: 1080.0,
        }],
        ..Bindings::default()
    };
    let facts = FfbDeviceFacts {
        peak_torque_nm: PEAK_NM,
        rotation_deg: 1080.0,
        ..FfbDeviceFacts::no_device(&settings)
    };
    let mut rig = Rig::new(
        &bindings,
        &settings,
        FfbLink {
            backend: Box::new(backend),
            facts,
        },
    );
    let mut keys = rig.add_keyboard();
    let shared = Arc::new(Mutex::new(Rim::new(PEAK_NM, true, LOCK_DEG + 0.5)));
    rig.add_input(Box::new(RimDevice::new(
        shared.clone(),
        recording.clone(),
        identity,
    )));
    let (rings, mut ui) = core_rings(64);
    let session = Session::load("corvette-c5", "flat").expect("shipped car");
    let mut core = SimCore::new(session, rig, rings, Arc::new(SharedStats::default()), false);
    let mut events = Vec::new();
    let mut cut = None;
    for t in 1..=1500u64 {
        core.tick(Duration::from_millis(t));
        while let Some(s) = ui.snapshots.pop() {
            cut = s.hud.ffb_cut;
        }
        while let Ok(e) = ui.events.pop() {
            events.push(e);
        }
    }
    assert!(
        events.iter().any(|e| matches!(
            e,
            SimEvent::FfbRunaway(RunawayCause::UnexplainedAcceleration)
        )),
        "{events:?}"
    );
    assert_eq!(
        cut,
        Some(StopReason::Runaway(RunawayCause::UnexplainedAcceleration))
    );
    let rim = shared
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    let impact = rim.impact_rad_s.unwrap_or(0.0);
    assert!(impact < 3.0, "{rim:?}");
    assert_eq!(recording.last_level(), Some(0.0));
    let mut hud_at = |core: &mut SimCore, t: u64| {
        core.tick(Duration::from_millis(t));
        let mut last = None;
        while let Some(s) = ui.snapshots.pop() {
            last = Some(s.hud);
        }
        last.expect("a snapshot")
    };
    // The kill switch binding (F12) counts a cut as off: it turns force feedback back on.
    keys.key(key::F12, true);
    let hud = hud_at(&mut core, 1501);
    keys.key(key::F12, false);
    assert_eq!((hud.ffb_cut, hud.ffb_killed), (None, false));
    // Pressed again, it kills; the settings screen's "back on" enables again.
    hud_at(&mut core, 1502);
    keys.key(key::F12, true);
    assert!(hud_at(&mut core, 1503).ffb_killed);
    ui.commands.push(Command::EnableFfb).expect("room");
    let hud = hud_at(&mut core, 1504);
    assert_eq!((hud.ffb_cut, hud.ffb_killed), (None, false));
}

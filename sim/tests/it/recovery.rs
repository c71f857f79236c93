//! Recovery: a car upside down, stuck or out of the world is put back on the road, on the
//! centre line at the station nearest it, heading along the track, at rest; the reset key
//! does the same at once; a measurement run fails on a recovery instead; recoveries replay
//! exactly.

use anyhow::Result;
use glam::{DQuat, DVec2, DVec3};
use gripline_physics::controls::Controls;
use gripline_physics::powertrain::GearboxMode;
use gripline_physics::track::CentreLineSample;
use gripline_physics::vehicle::Pose;
use gripline_sim::headless::Run;
use gripline_sim::recovery::{
    OUT_OF_WORLD_S, OVERTURNED_S, Recovery, RecoveryReason, STUCK_S, safe_placement,
};
use gripline_sim::replay::codec::state_hash;
use gripline_sim::replay::{Overflow, ReplayFile, ReplayHeader, ReplayPlayer, start_recording};
use gripline_sim::session::Session;

use crate::support::barrier::place_short_of_the_right_barrier;

/// Steps `session` with `controls` until it recovers the car, at most `seconds`; the
/// recovery and the time it took (s).
fn until_recovered(session: &mut Session, controls: &Controls, seconds: f64) -> (Recovery, f64) {
    let start = session.snapshot().time_s;
    for _ in 0..session.ticks_in(seconds) {
        if !session.step(controls) {
            let recovery = session
                .last_recovery()
                .expect("a recovery when step says so");
            return (recovery, recovery.time_s - start);
        }
    }
    panic!(
        "no recovery within {seconds} s: {:?}",
        session.snapshot().position
    );
}

/// The sample of the session's centre line at `station_m`.
fn line_sample(session: &Session, station_m: f64) -> CentreLineSample {
    let line = &session.world().track().expect("a track").mesh.centre_line;
    line.sample_at(station_m).expect("on the line")
}

/// Checks that the car stands on the circuit's road, on the centre line, heading along it
/// (within 0.5 degrees), at rest, on the ground; returns the station (m).
fn on_the_road_at_rest(session: &Session, recovery: &Recovery) -> f64 {
    let line = &session.world().track().expect("a track").mesh.centre_line;
    let s = session.snapshot();
    assert_eq!(s.position, recovery.to);
    assert!(s.speed_m_per_s == 0.0, "moving at {} m/s", s.speed_m_per_s);
    let p = line.project(s.position).expect("a line");
    // Placed on a sample of the line itself: the offset is rounding only.
    assert!(
        p.lateral_m.abs() < 0.05,
        "{} m off the centre line",
        p.lateral_m
    );
    let tangent = p.tangent.y.atan2(p.tangent.x);
    let heading = recovery.heading_rad;
    let off_deg = (heading - tangent + std::f64::consts::PI)
        .rem_euclid(std::f64::consts::TAU)
        .to_degrees()
        - 180.0;
    assert!(
        off_deg.abs() < 0.5,
        "heading {off_deg} degrees off the track"
    );
    let up = s.orientation.mul_vec3(DVec3::Z).z;
    assert!(up > 0.99, "not upright: {up}");
    // Its centre of mass at its static height above the road (the pose at rest's rule).
    let (ground, _) = session
        .world()
        .ground_at(s.position.truncate())
        .expect("ground");
    let h = session.vehicle().params().chassis.cg_height_m;
    assert!(
        (s.position.z - ground.z - h).abs() < 0.05,
        "cg {} m above the ground, {h} m at rest",
        s.position.z - ground.z
    );
    p.distance_m
}

/// Puts the car at `pose`, behind the session's back (a state no control reaches at once).
fn put(session: &mut Session, pose: Pose) {
    session.vehicle_mut_unrecorded().recover_to(pose);
}

#[test]
fn an_upside_down_car_is_put_back_on_the_road_after_two_seconds() -> Result<()> {
    let mut session = Session::load("corvette-c5", "circuit")?;
    // On its roof on the grass 10 m left of the road at station 1000, heading across it.
    let sample = line_sample(&session, 1000.0);
    let at = sample.position + sample.left * 12.0;
    let (ground, _) = session.world().ground_at(at.truncate())?;
    put(
        &mut session,
        Pose {
            position: ground + DVec3::Z * 1.0,
            orientation: DQuat::from_rotation_x(std::f64::consts::PI) * DQuat::from_rotation_z(1.0),
        },
    );
    let (recovery, after_s) = until_recovered(&mut session, &Controls::default(), 5.0);
    println!(
        "upside down: recovered after {after_s:.3} s at {:?}",
        recovery.to
    );
    assert_eq!(recovery.reason, RecoveryReason::UpsideDown);
    // The rule: 2 s on its roof and slow; the drop onto the roof takes a few tenths.
    assert!(
        (OVERTURNED_S..OVERTURNED_S + 0.5).contains(&after_s),
        "{after_s}"
    );
    let station = on_the_road_at_rest(&session, &recovery);
    // The nearest station: the car was beside station 1000 (± the line's curvature).
    assert!((station - 1000.0).abs() < 2.0, "station {station}");
    Ok(())
}

#[test]
fn a_car_pushing_against_a_barrier_is_stuck_after_five_seconds() -> Result<()> {
    let mut session = Session::load("hatchback-fwd", "circuit")?;
    // Nose 5 cm off the right barrier of the main straight, square to it, in first gear.
    place_short_of_the_right_barrier(&mut session, 300.0, 0.05, 90.0)?;
    session.set_forward_speed(0.0);
    session.set_gearbox_mode(GearboxMode::Automatic);
    let full = Controls {
        throttle: 1.0,
        ..Controls::default()
    };
    let (recovery, after_s) = until_recovered(&mut session, &full, 10.0);
    println!("stuck: recovered after {after_s:.3} s at {:?}", recovery.to);
    assert_eq!(recovery.reason, RecoveryReason::Stuck);
    // 5 s under 1 km/h with the throttle down, from a start at rest (it may creep for a
    // moment before the nose meets the face).
    assert!((STUCK_S..STUCK_S + 1.0).contains(&after_s), "{after_s}");
    let station = on_the_road_at_rest(&session, &recovery);
    assert!((station - 300.0).abs() < 3.0, "station {station}");
    Ok(())
}

#[test]
fn a_car_under_the_ground_or_outside_it_is_put_back_on_the_road() -> Result<()> {
    let mut session = Session::load("rally-awd", "circuit")?;
    let sample = line_sample(&session, 2000.0);
    // Five metres under the road (fallen through it).
    put(
        &mut session,
        Pose {
            position: sample.position - DVec3::Z * 5.0,
            orientation: DQuat::from_rotation_z(0.3),
        },
    );
    let (recovery, after_s) = until_recovered(&mut session, &Controls::default(), 2.0);
    assert_eq!(recovery.reason, RecoveryReason::OutOfWorld);
    // Without ground under it for the rule's quarter second.
    assert!(
        (OUT_OF_WORLD_S - 0.002..OUT_OF_WORLD_S + 0.01).contains(&after_s),
        "{after_s}"
    );
    let station = on_the_road_at_rest(&session, &recovery);
    assert!((station - 2000.0).abs() < 1.0, "station {station}");

    // Beyond the boundary wall, where there is no ground at all: back on the road nearest.
    let boundary = session
        .world()
        .track()
        .expect("a track")
        .mesh
        .barriers
        .last()
        .expect("the boundary")
        .points
        .iter()
        .fold(f64::NEG_INFINITY, |x, p| x.max(p.x));
    put(
        &mut session,
        Pose {
            position: DVec3::new(boundary + 50.0, 100.0, 0.0),
            orientation: DQuat::IDENTITY,
        },
    );
    let (recovery, _) = until_recovered(&mut session, &Controls::default(), 2.0);
    assert_eq!(recovery.reason, RecoveryReason::OutOfWorld);
    on_the_road_at_rest(&session, &recovery);
    Ok(())
}

#[test]
fn the_reset_key_recovers_at_once_and_the_start_is_still_there() -> Result<()> {
    let mut session = Session::load("corvette-c5", "circuit")?;
    let start = session.start_pose();
    let sample = line_sample(&session, 500.0);
    let (ground, _) = session
        .world()
        .ground_at((sample.position + sample.left * 8.0).truncate())?;
    // On the verge, heading backwards, moving.
    put(
        &mut session,
        Pose {
            position: ground + DVec3::Z * 0.5,
            orientation: DQuat::from_rotation_z(sample.tangent.y.atan2(sample.tangent.x) + 3.0),
        },
    );
    session.set_forward_speed(10.0);
    for _ in 0..100 {
        session.step(&Controls::default());
    }
    let clock = session.snapshot().time_s;
    let recovery = session.recover();
    assert_eq!(recovery.reason, RecoveryReason::Requested);
    on_the_road_at_rest(&session, &recovery);
    // The clock runs on through a recovery.
    assert_eq!(session.snapshot().time_s.to_bits(), clock.to_bits());
    session.reset_to_start();
    assert_eq!(session.snapshot().position, start.position);
    assert_eq!(session.snapshot().time_s.to_bits(), 0.0_f64.to_bits());
    Ok(())
}

#[test]
fn on_the_endless_plane_a_car_is_recovered_where_it_is_upright() -> Result<()> {
    let mut session = Session::load("corvette-c5", "flat")?;
    put(
        &mut session,
        Pose {
            position: DVec3::new(120.0, -40.0, 1.0),
            orientation: DQuat::from_rotation_z(0.7) * DQuat::from_rotation_x(std::f64::consts::PI),
        },
    );
    let (recovery, _) = until_recovered(&mut session, &Controls::default(), 5.0);
    assert_eq!(recovery.reason, RecoveryReason::UpsideDown);
    let s = session.snapshot();
    // Where it lay (it may roll a little while it falls), at its height at rest, upright.
    let moved = (s.position.truncate() - DVec2::new(120.0, -40.0)).length();
    assert!(moved < 2.0, "{moved} m");
    let h = session.vehicle().params().chassis.cg_height_m;
    assert!((s.position.z - h).abs() < 1e-9, "{}", s.position.z);
    assert!(s.orientation.mul_vec3(DVec3::Z).z > 1.0 - 1e-9);
    assert!(s.speed_m_per_s.abs() < 1e-12, "{}", s.speed_m_per_s);
    // No placement for a non-finite position without a line: the session falls back to the
    // start.
    assert!(
        safe_placement(session.world(), None, DVec3::NAN, 0.0).is_none(),
        "a placement for NaN"
    );
    Ok(())
}

#[test]
fn a_measurement_run_fails_on_a_recovery_and_a_drive_counts_it() -> Result<()> {
    for strict in [true, false] {
        let mut run = Run::new(Session::load("corvette-c5", "circuit")?);
        run.set_strict(strict);
        let at = line_sample(&run, 700.0).position;
        run.vehicle_mut_unrecorded().recover_to(Pose {
            position: at + DVec3::Z * 1.0,
            orientation: DQuat::from_rotation_x(std::f64::consts::PI),
        });
        let mut outcome = Ok(());
        for _ in 0..4000 {
            outcome = run.step(&Controls::default());
            if outcome.is_err() {
                break;
            }
        }
        if strict {
            let message = format!("{:#}", outcome.expect_err("a strict run fails"));
            assert!(
                message.contains("recovered") && message.contains("upside-down"),
                "{message}"
            );
        } else {
            outcome?;
            assert_eq!(run.recoveries.len(), 1, "{:?}", run.recoveries);
            assert_eq!(run.recoveries[0].reason, RecoveryReason::UpsideDown);
        }
    }
    Ok(())
}

#[test]
fn a_car_held_on_the_brake_with_the_throttle_down_is_not_stuck() -> Result<()> {
    let mut session = Session::load("corvette-c5", "proving-ground")?;
    let held = Controls {
        throttle: 1.0,
        brake: 1.0,
        ..Controls::default()
    };
    for tick in 0..session.ticks_in(STUCK_S + 2.0) {
        assert!(session.step(&held), "recovered at tick {tick}");
    }
    Ok(())
}

#[test]
fn recoveries_replay_exactly() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("recoveries.gripline-replay");
    // Level ground: a car in neutral does not roll away.
    let mut session = Session::load("corvette-c5", "proving-ground")?;
    let header = ReplayHeader::for_session(&session);
    let (journal, handle) = start_recording(&path, &header, Overflow::Stop)?;
    session.record_to(Box::new(journal))?;
    let mut log = (Vec::new(), Vec::new());
    // Steps with `controls` for `seconds`, logging each state's hash and the recoveries.
    let drive = |session: &mut Session,
                 controls: &Controls,
                 seconds: f64,
                 (states, recovered_at): &mut (Vec<u64>, Vec<usize>)| {
        for _ in 0..session.ticks_in(seconds) {
            if !session.step(controls) {
                recovered_at.push(states.len());
            }
            states.push(state_hash(session.snapshot()));
        }
    };
    // Revving in neutral: stuck after 5 s (recovered by the step itself).
    session.set_powertrain_mode(GearboxMode::Sequential);
    session.set_gear(0);
    let revving = Controls {
        throttle: 1.0,
        ..Controls::default()
    };
    drive(&mut session, &revving, STUCK_S + 1.0, &mut log);
    assert_eq!(log.1.len(), 1, "{:?}", log.1);
    let cruise = Controls {
        throttle: 0.4,
        steering_wheel_rad: 0.5,
        ..Controls::default()
    };
    drive(&mut session, &cruise, 3.0, &mut log);
    // The reset key (recorded).
    session.recover();
    drive(&mut session, &cruise, 1.0, &mut log);
    drop(session);
    let (states, recovered_at) = log;
    assert_eq!(handle.finish()?, states.len() as u64);

    let file = ReplayFile::open(&path)?;
    let mut player = ReplayPlayer::open(&file)?;
    let mut replayed = Vec::new();
    let mut replayed_recoveries = Vec::new();
    while let Some(stayed) = player.step()? {
        if !stayed {
            replayed_recoveries.push(replayed.len());
        }
        replayed.push(state_hash(player.session().snapshot()));
    }
    assert_eq!(replayed_recoveries, recovered_at);
    assert!(replayed == states, "the re-simulation differs");
    assert_eq!(player.diverged_at_tick(), None);
    Ok(())
}

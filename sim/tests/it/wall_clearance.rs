//! Skipping the wall look-ups of body points that the walls' clearance shows to be out of
//! reach changes nothing: a car stepped on the shipped circuit with the skip and a copy of
//! it stepped on the same world with every point looked up every tick
//! (`Walls::exhaustive`) stay the same, bit for bit, on every tick of a lap and of runs
//! into the circuit's barrier head-on and at a glancing angle.

use crate::support::barrier as barrier_support;
use crate::support::lap as lap_support;

use anyhow::Result;
use gripline_physics::controls::Controls;
use gripline_physics::vehicle::Vehicle;
use gripline_sim::session::Session;

use barrier_support::place_short_of_the_right_barrier;
use gripline_sim::world::World;
use lap_support::for_each_tick_of_a_lap;

/// A copy of `world` whose walls look up every point every tick.
fn exhaustive(world: &World) -> World {
    let mut world = world.clone();
    match &mut world {
        World::Track(track) => {
            assert!(!track.mesh.walls.is_empty(), "the circuit has walls");
            track.mesh.walls = track.mesh.walls.clone().exhaustive();
        }
        World::Flat(_) => panic!("a track with walls"),
    }
    world
}

/// Whether two cars are in the same state and last touched the same number of wall points.
fn same(a: &Vehicle, b: &Vehicle) -> bool {
    let bits = |v: &Vehicle| {
        let body = v.body();
        let mut xs = Vec::with_capacity(13);
        xs.extend(body.pose.position.to_array());
        xs.extend(body.pose.orientation.to_array());
        xs.extend(body.velocity.to_array());
        xs.extend(body.angular_velocity.to_array());
        xs.into_iter().map(f64::to_bits).collect::<Vec<_>>()
    };
    bits(a) == bits(b)
        && a.snapshot().wall_contacts == b.snapshot().wall_contacts
        && a.snapshot().body_contacts == b.snapshot().body_contacts
}

#[test]
fn the_wall_skip_changes_nothing_on_any_tick_of_a_lap() {
    let mut session = Session::load("corvette-c5", "circuit").expect("shipped car and track");
    let world = session.world().clone();
    let exhaustive = exhaustive(&world);
    let mut copy = session.vehicle().clone();
    let ticks = for_each_tick_of_a_lap(&mut session, |session, controls, dt, tick| {
        session.vehicle_mut_unrecorded().step(controls, &world, dt);
        copy.step(controls, &exhaustive, dt);
        assert!(same(session.vehicle(), &copy), "tick {tick}");
    });
    eprintln!("{ticks} ticks the same");
}

/// Drives into the right-hand barrier beside station 300 m from `gap_m` short of it, heading
/// `angle_deg` to the right of the road, at 50 km/h in neutral, braking after 1.5 s, for 8 s,
/// both ways; returns the most wall contacts in a tick.
fn into_the_barrier_both_ways(gap_m: f64, angle_deg: f64) -> Result<u32> {
    let mut session = Session::load("corvette-c5", "circuit")?;
    let approach = place_short_of_the_right_barrier(&mut session, 300.0, gap_m, angle_deg)?;
    let world = session.world().clone();
    let exhaustive = exhaustive(&world);
    let mut copy = session.vehicle().clone();
    let dt = session.step_s();
    let mut most_contacts = 0;
    for tick in 0..8000 {
        let controls = Controls {
            brake: if tick > 1500 { 1.0 } else { 0.0 },
            ..Controls::default()
        };
        session.vehicle_mut_unrecorded().step(&controls, &world, dt);
        copy.step(&controls, &exhaustive, dt);
        assert!(same(session.vehicle(), &copy), "tick {tick}");
        most_contacts = most_contacts.max(copy.snapshot().wall_contacts);
    }
    // The run met the barrier and the car stayed on the road's side of it.
    let lateral = (copy.snapshot().position - approach.centre).dot(approach.right);
    assert!(
        lateral < approach.barrier_m,
        "{lateral} {}",
        approach.barrier_m
    );
    Ok(most_contacts)
}

#[test]
fn the_wall_skip_changes_nothing_head_on_into_the_barrier() -> Result<()> {
    let contacts = into_the_barrier_both_ways(3.0, 90.0)?;
    assert!(contacts >= 2, "{contacts}");
    Ok(())
}

#[test]
fn the_wall_skip_changes_nothing_glancing_off_the_barrier() -> Result<()> {
    let contacts = into_the_barrier_both_ways(3.0, 20.0)?;
    assert!(contacts >= 1, "{contacts}");
    Ok(())
}

//! A session on the shipped circuit, whose barriers stand at the outer edge of its run-off:
//! a car driven into them head-on and at a glancing angle at 50 km/h stops or glances off on
//! its side of the barrier, stays finite, and comes to rest.

use crate::support::barrier as barrier_support;

use anyhow::Result;
use glam::DVec3;
use gripline_physics::controls::Controls;
use gripline_sim::session::Session;

use barrier_support::{BarrierApproach, place_short_of_the_right_barrier};

/// What a run into the right-hand barrier of the main straight records.
struct Run {
    /// Most wall contacts in one tick.
    most_contacts: u32,
    /// Largest distance of any body corner to the right of the centre line (m).
    farthest_right_m: f64,
    /// Distance of the right barrier's face from the centre line there (m).
    barrier_m: f64,
    /// Speed at the end (m/s).
    final_speed: f64,
}

/// Starts `gap_m` short of the right barrier beside station `station_m`, heading
/// `angle_deg` to the right of the road's direction, at 50 km/h in neutral; brakes after
/// 1.5 s; runs 8 s.
fn into_the_barrier(station_m: f64, gap_m: f64, angle_deg: f64) -> Result<Run> {
    let mut session = Session::load("corvette-c5", "circuit")?;
    let BarrierApproach {
        centre,
        right,
        barrier_m,
    } = place_short_of_the_right_barrier(&mut session, station_m, gap_m, angle_deg)?;
    assert!(barrier_m > 15.0, "{barrier_m}");
    let mut run = Run {
        most_contacts: 0,
        farthest_right_m: f64::MIN,
        barrier_m,
        final_speed: 0.0,
    };
    let p = session.vehicle().params().clone();
    let h = p.chassis.cg_height_m;
    let front = p.cg_to_front_axle_m() + p.body.front_overhang_m;
    for tick in 0..8000 {
        let controls = Controls {
            brake: if tick > 1500 { 1.0 } else { 0.0 },
            ..Controls::default()
        };
        assert!(session.step(&controls), "left the world at tick {tick}");
        let s = session.snapshot();
        assert!(s.position.is_finite() && s.velocity_world.is_finite());
        run.most_contacts = run.most_contacts.max(s.wall_contacts);
        let pose = session.vehicle().pose();
        for x in [front, front - p.body.length_m] {
            for y in [0.5 * p.body.width_m, -0.5 * p.body.width_m] {
                let corner = pose.world_point(DVec3::new(x, y, p.body.ground_clearance_m - h));
                let lateral = (corner - centre).truncate().dot(right.truncate());
                run.farthest_right_m = run.farthest_right_m.max(lateral);
            }
        }
    }
    run.final_speed = session.snapshot().speed_m_per_s;
    Ok(run)
}

#[test]
fn head_on_into_the_circuit_barrier_stops_the_car_on_the_track_side() -> Result<()> {
    let run = into_the_barrier(300.0, 3.0, 90.0)?;
    println!(
        "head-on: {} points touched, corners reached {:.3} m right of the centre line (barrier at {:.3} m), final speed {:.4} m/s",
        run.most_contacts, run.farthest_right_m, run.barrier_m, run.final_speed
    );
    assert!(run.most_contacts >= 2, "{}", run.most_contacts);
    // The lower front corners crush into the barrier by the spring-mass depth (about 0.4 m
    // at 50 km/h, see the physics tests) and no farther.
    assert!(
        run.farthest_right_m < run.barrier_m + 0.5,
        "{}",
        run.farthest_right_m
    );
    assert!(run.final_speed < 0.1, "{}", run.final_speed);
    Ok(())
}

#[test]
fn glancing_into_the_circuit_barrier_at_20_degrees_slides_off() -> Result<()> {
    let run = into_the_barrier(300.0, 3.0, 20.0)?;
    println!(
        "20 deg: {} points touched, corners reached {:.3} m right of the centre line (barrier at {:.3} m), final speed {:.4} m/s",
        run.most_contacts, run.farthest_right_m, run.barrier_m, run.final_speed
    );
    assert!(run.most_contacts >= 1);
    // Into the face at 50 sin 20° = 17 km/h: a few centimetres of crush.
    assert!(
        run.farthest_right_m < run.barrier_m + 0.3,
        "{}",
        run.farthest_right_m
    );
    assert!(run.final_speed < 0.1, "{}", run.final_speed);
    Ok(())
}

//! Setting a car up to drive into the shipped circuit's right-hand barrier, shared by the
//! wall tests.

use anyhow::Result;
use glam::{DVec2, DVec3};
use gripline_physics::powertrain::GearboxMode;
use gripline_physics::track::Side;
use gripline_sim::session::Session;

/// Where a car was put beside the barrier.
pub struct BarrierApproach {
    /// The centre line's point at the station (m).
    pub centre: DVec3,
    /// Unit vector to the right of the road there.
    pub right: DVec3,
    /// Distance of the barrier's face from the centre line there (m).
    pub barrier_m: f64,
}

/// Puts the session's car `gap_m` short of the right barrier beside station `station_m`,
/// heading `angle_deg` to the right of the road's direction, at 50 km/h in neutral (sequential
/// gearbox).
pub fn place_short_of_the_right_barrier(
    session: &mut Session,
    station_m: f64,
    gap_m: f64,
    angle_deg: f64,
) -> Result<BarrierApproach> {
    let track = session.world().track().expect("a track");
    let sample = track
        .mesh
        .centre_line
        .sample_at(station_m)
        .expect("on the line");
    let barrier = track
        .mesh
        .barriers
        .iter()
        .find(|b| b.side == Side::Right)
        .expect("a right barrier");
    let right = -DVec3::Z.cross(sample.tangent).normalize();
    let barrier_m = barrier
        .points
        .iter()
        .map(|p| (*p - sample.position).truncate())
        .filter(|d| d.dot(sample.tangent.truncate()).abs() < 1.5)
        .map(|d| d.dot(right.truncate()))
        .fold(f64::NAN, f64::max);
    let width = session.vehicle().params().body.width_m;
    let length = session.vehicle().params().body.length_m;
    // The car's centre, far enough in that its nose or side stands `gap_m` off the face.
    let reach =
        0.5 * (length * angle_deg.to_radians().sin() + width * angle_deg.to_radians().cos());
    let start = sample.position + right * (barrier_m - gap_m - reach);
    let heading = sample.tangent.y.atan2(sample.tangent.x) - angle_deg.to_radians();
    session.place(
        DVec2::new(start.x, start.y),
        heading,
        GearboxMode::Sequential,
    )?;
    session.set_gear(0);
    session.set_forward_speed(50.0 / 3.6);
    Ok(BarrierApproach {
        centre: sample.position,
        right,
        barrier_m,
    })
}

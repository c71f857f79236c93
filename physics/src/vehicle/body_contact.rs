//! Body-ground contact: keeps a car that bottoms out, rolls over or lands on its roof from
//! falling through the world.
//!
//! The body is a box (length, width, height, ground clearance, front overhang). Twelve points
//! stand for it: its eight corners and the midpoints of its four long edges. Each point that
//! may touch casts a short ray straight down from [`PROBE_HEIGHT_M`] above itself; a hit
//! closer than the probe height means penetration `depth = (probe - d) * n_z` along the
//! ground normal `n`. The point then gets a penalty force
//!
//! ```text
//! Fn = max(0, k * depth - c * (v . n))                     along n
//! Ft = -mu * mu_surface * Fn * v_t / max(|v_t|, v_eps)     in the ground plane
//! ```
//!
//! (regularised Coulomb friction, viscous below [`FRICTION_REGULARISATION_M_PER_S`]).
//! A point buried deeper than the probe height is lost, which only leaves the state finite
//! and the car falling: no force can become infinite.
//!
//! To spend no ray casts on a car standing on its wheels, points whose height above the
//! plane through the wheels' contact points exceeds [`CULL_HEIGHT_M`] are skipped while at
//! least three wheels touch the ground.

use glam::DVec3;

use super::chassis::RigidBody;
use super::params::BodyParams;
use super::wheel::ContactGeometry;
use crate::ground::{Ground, RayHint};

/// Number of body contact points.
pub const BODY_POINTS: usize = 12;

/// Height above a body point from which its ray starts (m).
pub const PROBE_HEIGHT_M: f64 = 0.5;

/// Sliding speed below which body friction is viscous (m/s).
pub const FRICTION_REGULARISATION_M_PER_S: f64 = 0.05;

/// Points this far above the wheels' contact plane are not tested (m).
pub const CULL_HEIGHT_M: f64 = 0.1;

/// The body-frame contact points of a body box whose underside is `clearance` above the
/// ground and whose front is `front_overhang` ahead of the front axle, for a CG at height
/// `cg_height` a distance `cg_to_front_axle` behind the front axle.
pub fn body_points(
    body: &BodyParams,
    cg_height: f64,
    cg_to_front_axle: f64,
) -> [DVec3; BODY_POINTS] {
    let front = cg_to_front_axle + body.front_overhang_m;
    let rear = front - body.length_m;
    let half_width = 0.5 * body.width_m;
    let bottom = body.ground_clearance_m - cg_height;
    let top = body.height_m - cg_height;
    let mid = 0.5 * (front + rear);
    let mut points = [DVec3::ZERO; BODY_POINTS];
    let mut i = 0;
    for z in [bottom, top] {
        for y in [half_width, -half_width] {
            for x in [front, mid, rear] {
                points[i] = DVec3::new(x, y, z);
                i += 1;
            }
        }
    }
    points
}

/// The points of the box's underside are the first half of [`body_points`], each under the
/// top point `BODY_POINTS / 2` further on (the same `x` and `y`).
pub const UNDERSIDE_POINTS: usize = BODY_POINTS / 2;

/// Where an obstacle's push on body point `i` acts (world frame): the body's side is a face
/// between an underside point and the top point above it, and an obstacle that reaches up to
/// `obstacle_top_z` (world height, m) but not to the top point presses the part of that edge
/// below its top, at the same depth all along for an upright body, so the resultant acts
/// midway up that part. Applied at the underside corner instead, a barrier's push on a car
/// at 200 km/h has a lever of the whole centre of mass height and rolls it over the wall.
/// An underside point whose top point touches too (`top_touches`: the obstacle is taller
/// than the body), and a top point, keep their own point: each stands for its half of the side.
pub fn side_push_point(
    world_points: &[DVec3; BODY_POINTS],
    i: usize,
    obstacle_top_z: f64,
    top_touches: bool,
) -> DVec3 {
    let p = world_points[i];
    if i >= UNDERSIDE_POINTS || top_touches {
        return p;
    }
    let edge = world_points[i + UNDERSIDE_POINTS] - p;
    if !(edge.z > 1e-6 && obstacle_top_z.is_finite()) {
        return p;
    }
    let below = ((obstacle_top_z - p.z) / edge.z).clamp(0.0, 1.0);
    p + edge * (0.5 * below)
}

/// Running sum of the wheels' contact points and normals.
#[derive(Clone, Copy, Default)]
struct Vec3Sum {
    point: DVec3,
    normal: DVec3,
    count: u32,
}

/// A point and the upward unit normal of the plane through the wheels' contact points
/// (their mean point and mean normal) when at least three wheels touch the ground, for
/// [`body_contact_loads`]'s culling; `None` otherwise.
pub fn wheel_contact_plane(contacts: &[ContactGeometry; 4]) -> Option<(DVec3, DVec3)> {
    let touching: Vec3Sum =
        contacts
            .iter()
            .filter(|c| c.contact)
            .fold(Vec3Sum::default(), |acc, c| Vec3Sum {
                point: acc.point + c.point,
                normal: acc.normal + c.normal,
                count: acc.count + 1,
            });
    (touching.count >= 3).then(|| {
        let count = f64::from(touching.count);
        (
            touching.point / count,
            touching.normal.try_normalize().unwrap_or(DVec3::Z),
        )
    })
}

/// Force and moment about the CG (world frame) of the body's contacts with the ground, for the
/// contact points where `body` has them now (`world_points`, world frame: [`body_points`]
/// through [`crate::vehicle::Pose::world_points`]). `wheel_plane` is a point and a normal of
/// the plane through the wheels' contact points when at least three wheels touch, for culling.
pub fn body_contact_loads(
    params: &BodyParams,
    world_points: &[DVec3; BODY_POINTS],
    body: &RigidBody,
    ground: &impl Ground,
    wheel_plane: Option<(DVec3, DVec3)>,
    hints: &mut [RayHint; BODY_POINTS],
) -> (DVec3, DVec3, usize) {
    let mut force = DVec3::ZERO;
    let mut torque = DVec3::ZERO;
    let mut touching = 0;
    for (&world, hint) in world_points.iter().zip(hints) {
        if let Some((origin, normal)) = wheel_plane
            && (world - origin).dot(normal) > CULL_HEIGHT_M
        {
            continue;
        }
        let Some(hit) = ground.ray_cast_hinted(
            world + DVec3::Z * PROBE_HEIGHT_M,
            -DVec3::Z,
            PROBE_HEIGHT_M,
            hint,
        ) else {
            continue;
        };
        let n = hit.normal;
        let depth = (PROBE_HEIGHT_M - hit.distance) * n.z;
        if depth.is_nan() || depth <= 0.0 {
            continue;
        }
        let v = body.point_velocity(world);
        let vn = v.dot(n);
        let fn_ = (params.contact_stiffness_n_per_m * depth
            - params.contact_damping_n_s_per_m * vn)
            .max(0.0);
        if fn_ == 0.0 {
            continue;
        }
        touching += 1;
        let vt = v - n * vn;
        let mu = params.contact_friction * hit.surface.properties().friction_scale;
        let ft = vt * (-mu * fn_ / vt.length().max(FRICTION_REGULARISATION_M_PER_S));
        let f = n * fn_ + ft;
        force += f;
        torque += (world - body.pose.position).cross(f);
    }
    (force, torque, touching)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ground::FlatGround;
    use crate::vehicle::params::VehicleParams;

    #[test]
    fn points_span_the_box() {
        let p = VehicleParams::default();
        let pts = body_points(&p.body, 0.45, p.cg_to_front_axle_m());
        let max_x = pts.iter().map(|p| p.x).fold(f64::MIN, f64::max);
        let min_z = pts.iter().map(|p| p.z).fold(f64::MAX, f64::min);
        assert!((max_x - (p.cg_to_front_axle_m() + 1.0)).abs() < 1e-12);
        assert!((min_z - (0.12 - 0.45)).abs() < 1e-12);
    }

    #[test]
    fn a_buried_corner_is_pushed_out() {
        let p = VehicleParams::default();
        let pts = body_points(&p.body, 0.45, p.cg_to_front_axle_m());
        let mut body = RigidBody::default();
        // Underside 1 cm below the ground.
        body.pose.position.z = 0.45 - 0.12 - 0.01;
        let (f, _, n) = body_contact_loads(
            &p.body,
            &body.pose.world_points(&pts),
            &body,
            &FlatGround::default(),
            None,
            &mut [RayHint::default(); BODY_POINTS],
        );
        assert_eq!(n, 6);
        assert!((f.z - 6.0 * 1.0e6 * 0.01).abs() < 1e-6, "{f}");
    }
}

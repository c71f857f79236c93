//! Body-wall contact: the car body striking and sliding along walls and barriers
//! ([`crate::ground::Walls`]).
//!
//! The body's twelve contact points (see [`super::body_contact`]) are tested against the
//! walls' faces. A point that comes to lie behind a face by at most [`ENTRY_DEPTH_M`] starts a
//! contact (no point moves farther than that in a tick below 900 km/h, so a point crossing a
//! face is always caught); from then on the point keeps to its side of the wall: it stays in
//! contact with that face, followed along its polyline, at whatever depth, until it is back in
//! front of it, above its top or past an open end. So nothing tunnels, at any speed: a fast
//! point only goes deeper and meets a stiffer push.
//!
//! The response (a penalty spring with restitution by hysteresis, and Coulomb friction that
//! never reverses a sliding velocity) is [`super::contact_response`]'s, shared with the solid
//! objects ([`super::solid_contact`]).
//!
//! Walls far from the car cost one grid look-up per point and tick, and less when they are
//! farther: the memory keeps where the walls' clearance ([`Walls::clearance_m`], up to
//! [`CLEARANCE_REACH_M`]) was last measured and how much it was, and a point not in contact
//! that lies, horizontally, within that clearance less [`CELL_MARGIN_M`] (and a micrometre)
//! of where it was measured is farther than [`CELL_MARGIN_M`] from every face: its look-up
//! would find nothing, so it is skipped. The clearance is measured again, at the body's
//! centre of mass, when a free point is not covered and the centre has moved more than
//! [`CLEARANCE_REFRESH_M`] since. The results are the same bits either way.

use glam::{DVec2, DVec3};

use super::body_contact::{BODY_POINTS, UNDERSIDE_POINTS, side_push_point};
use super::body_shape::BodyShape;
use super::chassis::RigidBody;
use super::contact_set::{ContactSet, PenaltyContact, penalty_normal_force_n};
use crate::ground::walls::{CELL_MARGIN_M, NO_SEGMENT};
use crate::ground::{WallHit, Walls};

pub use super::contact_set::LOADING_BLEND_M_PER_S;

/// Deepest a point may lie behind a face when its contact starts (m): more than any point
/// moves in a tick (200 km/h is 5.6 cm per tick at 1 kHz).
pub const ENTRY_DEPTH_M: f64 = 0.25;

/// How far (m) the walls' clearance is measured from the body's centre of mass: beyond the
/// body's reach plus the distance it covers in many ticks.
pub const CLEARANCE_REACH_M: f64 = 12.0;

/// How far (m) the centre of mass moves before a clearance that no longer covers every free
/// point is measured again (near a wall the points are looked up as before, and the
/// clearance is not measured every tick).
pub const CLEARANCE_REFRESH_M: f64 = 1.0;

/// What the covered radius leaves for rounding (m).
const CLEARANCE_SLACK_M: f64 = 1e-6;

/// Which wall segment each body point touched last tick ([`NO_SEGMENT`]: none). The contact
/// memory that keeps each point on its side of a wall; with it, where the walls' clearance
/// was last measured (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WallMemory {
    segments: [u32; BODY_POINTS],
    /// Where (horizontal, world frame) the clearance was measured, and the squared radius
    /// (m²) around it within which a point is farther than [`CELL_MARGIN_M`] from every
    /// face (negative: none).
    clear: Option<(DVec2, f64)>,
}

impl Default for WallMemory {
    fn default() -> Self {
        Self {
            segments: [NO_SEGMENT; BODY_POINTS],
            clear: None,
        }
    }
}

impl WallMemory {
    /// The number of points in contact with a wall.
    pub fn contacts(&self) -> usize {
        self.segments.iter().filter(|&&s| s != NO_SEGMENT).count()
    }
}

/// Which of `points` are free (not in contact) and within the clearance `memory` keeps, the
/// clearance measured again at `centre` when a free point is not and `centre` has moved more
/// than [`CLEARANCE_REFRESH_M`] since it was.
fn covered_points(
    points: &[DVec3; BODY_POINTS],
    centre: DVec3,
    walls: &Walls,
    memory: &mut WallMemory,
) -> [bool; BODY_POINTS] {
    let test = |clear: Option<(DVec2, f64)>| {
        let mut covered = [false; BODY_POINTS];
        let mut all = true;
        for ((p, &segment), c) in points.iter().zip(&memory.segments).zip(&mut covered) {
            if segment != NO_SEGMENT {
                continue;
            }
            *c = clear.is_some_and(|(at, r2)| (p.truncate() - at).length_squared() < r2);
            all &= *c;
        }
        (covered, all)
    };
    let (covered, all) = test(memory.clear);
    if all {
        return covered;
    }
    let stale = memory.clear.is_none_or(|(at, _)| {
        (centre.truncate() - at).length_squared() > CLEARANCE_REFRESH_M * CLEARANCE_REFRESH_M
    });
    if !stale {
        return covered;
    }
    let radius = walls.clearance_m(centre, CLEARANCE_REACH_M) - CELL_MARGIN_M - CLEARANCE_SLACK_M;
    let r2 = if radius > 0.0 { radius * radius } else { -1.0 };
    memory.clear = centre.is_finite().then_some((centre.truncate(), r2));
    test(memory.clear).0
}

/// Adds to `contacts` the body points that touch `walls` (see the module docs), keeping
/// `memory` for the next tick, and returns how many it added.
pub fn collect_wall_contacts(
    shape: &BodyShape<'_>,
    body: &RigidBody,
    walls: &Walls,
    memory: &mut WallMemory,
    contacts: &mut ContactSet,
) -> usize {
    let (params, points) = (shape.params, shape.world_points);
    // The usual case, far from any wall: no point in contact, all within the clearance.
    if !walls.is_exhaustive()
        && let Some((at, r2)) = memory.clear
        && memory.segments.iter().all(|&s| s == NO_SEGMENT)
        && points
            .iter()
            .all(|p| (p.truncate() - at).length_squared() < r2)
    {
        return 0;
    }
    // Which free points the clearance shows to be out of reach.
    let covered = if walls.is_exhaustive() {
        [false; BODY_POINTS]
    } else {
        covered_points(points, body.pose.position, walls, memory)
    };
    let mut hits: [Option<WallHit>; BODY_POINTS] = [None; BODY_POINTS];
    for (((&world, segment), &covered), found) in points
        .iter()
        .zip(memory.segments.iter_mut())
        .zip(&covered)
        .zip(&mut hits)
    {
        let hit = if *segment == NO_SEGMENT {
            if covered {
                continue;
            }
            walls.find_entry(world, ENTRY_DEPTH_M)
        } else {
            walls.follow(world, *segment)
        };
        let Some(hit) = hit.filter(|h| h.depth_m.is_finite()) else {
            *segment = NO_SEGMENT;
            continue;
        };
        *segment = hit.segment;
        *found = Some(hit);
    }
    let mut count = 0_usize;
    for (i, hit) in hits.iter().enumerate() {
        let Some(hit) = hit else { continue };
        let world = points[i];
        let n = hit.normal;
        let vn = body.point_velocity(world).dot(n);
        let fn_ = penalty_normal_force_n(
            params.contact_stiffness_n_per_m,
            hit.depth_m,
            vn,
            hit.restitution,
        );
        if !(fn_.is_finite() && fn_ >= 0.0) {
            continue;
        }
        let top_touches = hits.get(i + UNDERSIDE_POINTS).is_some_and(Option::is_some);
        if contacts.push(PenaltyContact {
            point: side_push_point(points, i, hit.top_z_m, top_touches),
            normal: n,
            normal_force_n: fn_,
            friction: hit.friction,
        }) {
            count += 1;
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ground::WallRun;
    use crate::vehicle::body_contact::body_points;
    use crate::vehicle::body_mass::BodyMass;
    use crate::vehicle::body_shape::MassProperties;
    use crate::vehicle::params::VehicleParams;

    /// Force and moment about the CG (world frame) of the walls on the body, and the number of
    /// points touching them; `None`, with nothing to add, when no point touches a wall (the
    /// walls alone, as `contact_response::add_obstacle_loads` adds them with the solids).
    fn wall_contact_loads(
        shape: &BodyShape<'_>,
        body: &RigidBody,
        walls: &Walls,
        memory: &mut WallMemory,
        dt: f64,
    ) -> Option<(DVec3, DVec3, usize)> {
        let mut contacts = ContactSet::default();
        let count = collect_wall_contacts(shape, body, walls, memory, &mut contacts);
        if count == 0 {
            return None;
        }
        let (force, torque) = contacts.loads(body, shape.mass, dt);
        Some((force, torque, count))
    }

    fn wall_ahead(x: f64, restitution: f64) -> Walls {
        // A wall across the x axis at `x`, facing -x (the car comes from there).
        let points = [DVec3::new(x, 50.0, -1.0), DVec3::new(x, -50.0, -1.0)];
        Walls::new(&[WallRun {
            points: &points,
            closed: false,
            height_m: 3.0,
            // Going -y, the left is +x: the wall's open side is -x, on the right.
            open_to_left: false,
            friction: 0.0,
            restitution,
        }])
    }

    /// A point mass on the penalty contact leaves at `e` times its speed in.
    #[test]
    fn a_sliding_block_rebounds_at_the_restitution_times_its_speed() {
        let p = VehicleParams::default();
        let points = body_points(&p.body, 0.45, p.cg_to_front_axle_m());
        let front = points.iter().map(|q| q.x).fold(f64::MIN, f64::max);
        for e in [0.0, 0.2, 0.5, 1.0] {
            let walls = wall_ahead(front + 0.01, e);
            // No rotation: huge inertia. Mass 1500 kg at 10 m/s into the wall.
            let mass = MassProperties {
                mass_kg: 1500.0,
                inertia_kg_m2: DVec3::splat(1e12),
            };
            let mut body = RigidBody {
                velocity: DVec3::new(10.0, 0.0, 0.0),
                ..RigidBody::default()
            };
            let mut memory = WallMemory::default();
            let mut deepest: f64 = 0.0;
            for _ in 0..2000 {
                let shape = BodyShape {
                    params: &p.body,
                    world_points: &body.pose.world_points(&points),
                    mass,
                };
                let (f, t, _) = wall_contact_loads(&shape, &body, &walls, &mut memory, 0.001)
                    .unwrap_or_default();
                body.integrate(
                    f,
                    t,
                    &BodyMass::rigid(mass.mass_kg, mass.inertia_kg_m2),
                    0.001,
                );
                deepest = deepest.max(body.pose.position.x - 0.01);
            }
            let out = -body.velocity.x;
            eprintln!("e {e}: out at {out:.3} m/s, deepest {deepest:.3} m");
            // The front face's four corners at k = 1e6 N/m each: the block stops within
            // u sqrt(m / (4 k)).
            // Within 3 %, plus what the blend zone pushes out at (up to about twice its
            // width: a fully plastic contact still lets go at a few cm/s).
            let slack = 2.0 * LOADING_BLEND_M_PER_S;
            assert!((out - 10.0 * e).abs() < 0.03 * 10.0 + slack, "e {e}: {out}");
            assert!(out <= 10.0 * e + slack, "no energy gain: {out}");
            assert!(deepest > 0.0 && deepest < 10.0 * (1500.0 / 4.0e6_f64).sqrt() * 1.05);
        }
    }
}

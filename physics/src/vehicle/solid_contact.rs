//! Body-solid contact: the car body striking and sliding along solid objects of any shape
//! ([`crate::ground::Solids`]: a scene's stands, buildings, tyre stacks, tree trunks).
//!
//! The body is the box its twelve contact points span (see [`super::body_contact`]). Two
//! kinds of contact together cover a box meeting a soup of triangles:
//!
//! - **A body point in a face.** A point not in contact starts one when the segment it swept
//!   since the last tick crosses a solid triangle (continuous: no point passes a face
//!   however fast it moves). The face's normal is turned towards where the point came from
//!   (a scene's faces are not consistently wound), and a crossing is only taken when the
//!   body's centre of mass lies on that side too, so a point leaving a solid it was lost in
//!   is not held inside. From then on the point keeps to its side: it stays in contact, at
//!   whatever depth, with the triangle nearest it within [`FOLLOW_MARGIN_M`] whose normal
//!   lies within 60° of the first one ([`FOLLOW_MIN_COS`]) and that it lies behind, so a
//!   contact slides across the triangles of a wall and round a tyre stack's facets, until
//!   the point is back in front, or past the end of the object.
//! - **A solid's edge in the body.** A feature edge ([`crate::ground::SolidEdge`]) that
//!   comes to lie inside the box (a building's corner, a pole, a board narrower than the car
//!   between its points) starts a contact on the box face it came through: the face whose
//!   plane it lay outside of at the last tick (the one it is least deep behind when several
//!   or none are). It pushes the body along that face's normal, by how far its deepest point
//!   lies behind the face, at that point, until it leaves the box. An edge inside the body
//!   deeper than [`ENTRY_DEPTH_M`] behind every face when first seen (a car put down inside
//!   an object) starts nothing.
//!
//! Both kinds of contact give [`PenaltyContact`]s for [`super::contact_response`], the walls'
//! law (penalty spring, restitution by hysteresis, Coulomb friction) with the solids' friction
//! and restitution, so a car meets a stand as it meets a barrier.
//!
//! Cost: on the road, nothing solid is near. The memory keeps a box known to hold no solid
//! ([`CLEAR_MARGIN_M`] round the body when it was measured); while no contact is on and the
//! body's swept box (grown by [`NEAR_MARGIN_M`]) lies inside it, the tick costs a few
//! comparisons. Otherwise the solids' BVH is asked for the triangles and edges near the body
//! (at most [`CANDIDATES`] of each: more are left out). The world's data is shared by every
//! car; each car's [`SolidMemory`] is a few hundred bytes.

use glam::{DQuat, DVec3};

use super::body_contact::{BODY_POINTS, UNDERSIDE_POINTS, side_push_point};
use super::body_shape::BodyShape;
use super::chassis::{Pose, RigidBody};
use super::contact_set::{ContactSet, PenaltyContact, penalty_normal_force_n};
use crate::ground::{SolidTriangle, Solids};

pub use super::wall_contact::ENTRY_DEPTH_M;

/// Most solid edges in contact with the body at once; more are left out.
pub const EDGE_SLOTS: usize = super::contact_set::SOLID_EDGE_SLOTS;

/// Most triangles and most edges asked about in one tick.
pub const CANDIDATES: usize = 256;

/// How far (m) beyond its triangle's edges a point's contact goes on (a point sliding off
/// the end of a wall lets go this much later).
pub const FOLLOW_MARGIN_M: f64 = 0.1;

/// A continuing contact moves only to a triangle whose normal is within 60° of the one it
/// started on (cosine).
pub const FOLLOW_MIN_COS: f64 = 0.5;

/// How far (m) beyond the box swept by the body's points a triangle or edge is asked about.
pub const NEAR_MARGIN_M: f64 = 0.3;

/// How far (m) round the body's swept box the solids' absence is measured and remembered.
pub const CLEAR_MARGIN_M: f64 = 3.0;

/// No triangle.
const NO_TRIANGLE: u32 = u32::MAX;

/// A body point's contact: the triangle and the normal along which it pushes the body.
#[derive(Clone, Copy, Debug, PartialEq)]
struct PointContact {
    triangle: u32,
    normal: DVec3,
}

const FREE: PointContact = PointContact {
    triangle: NO_TRIANGLE,
    normal: DVec3::ZERO,
};

/// A solid edge inside the body and the box face (0..6: +x, -x, +y, -y, +z, -z) it came
/// through.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct EdgeContact {
    edge: u32,
    face: u8,
}

/// What one car remembers of the solids between ticks (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolidMemory {
    points: [PointContact; BODY_POINTS],
    edges: [EdgeContact; EDGE_SLOTS],
    edge_count: usize,
    /// The body's points and pose at the last tick; `None` before the first.
    previous: Option<([DVec3; BODY_POINTS], Pose)>,
    /// A box (world frame) that holds no solid.
    clear: Option<(DVec3, DVec3)>,
}

impl Default for SolidMemory {
    fn default() -> Self {
        Self {
            points: [FREE; BODY_POINTS],
            edges: [EdgeContact::default(); EDGE_SLOTS],
            edge_count: 0,
            previous: None,
            clear: None,
        }
    }
}

impl SolidMemory {
    /// The number of body points and solid edges in contact.
    pub fn contacts(&self) -> usize {
        self.points
            .iter()
            .filter(|c| c.triangle != NO_TRIANGLE)
            .count()
            + self.edge_count
    }
}

/// Up to [`CANDIDATES`] indices.
struct Candidates {
    items: [u32; CANDIDATES],
    len: usize,
}

impl Candidates {
    fn new() -> Self {
        Self {
            items: [0; CANDIDATES],
            len: 0,
        }
    }

    fn push(&mut self, i: u32) {
        if let Some(slot) = self.items.get_mut(self.len) {
            *slot = i;
            self.len += 1;
        }
    }

    fn as_slice(&self) -> &[u32] {
        &self.items[..self.len]
    }
}

/// The part `[t0, t1]` of the segment from `a` to `b` inside the box from `lo` to `hi`, the
/// slab of axis `skip` left out (`3`: none).
fn clip(a: DVec3, b: DVec3, lo: DVec3, hi: DVec3, skip: usize) -> Option<(f64, f64)> {
    let d = b - a;
    let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
    for axis in 0..3 {
        if axis == skip {
            continue;
        }
        let (p, v) = (a[axis], d[axis]);
        if v.abs() < 1e-15 {
            if p < lo[axis] || p > hi[axis] {
                return None;
            }
            continue;
        }
        let (mut ta, mut tb) = ((lo[axis] - p) / v, (hi[axis] - p) / v);
        if ta > tb {
            std::mem::swap(&mut ta, &mut tb);
        }
        t0 = t0.max(ta);
        t1 = t1.min(tb);
        if t0 > t1 {
            return None;
        }
    }
    Some((t0, t1))
}

/// How deep (m) the segment `c0`-`c1` (inside the box) lies behind box face `face`, and its
/// deepest point there.
fn face_depth(face: u8, c0: DVec3, c1: DVec3, lo: DVec3, hi: DVec3) -> (f64, DVec3) {
    let axis = usize::from(face / 2);
    if face.is_multiple_of(2) {
        let deepest = if c0[axis] <= c1[axis] { c0 } else { c1 };
        (hi[axis] - deepest[axis], deepest)
    } else {
        let deepest = if c0[axis] >= c1[axis] { c0 } else { c1 };
        (deepest[axis] - lo[axis], deepest)
    }
}

/// The face an edge from `a` to `b` (body frame, now) entered the box through, given where
/// it lay at the last tick (`a0`, `b0`, body frame then): one whose plane it lay wholly
/// outside of within the face's cross-section, the least deep of those, else the least deep
/// of all. With its depth.
fn entry_face(
    (c0, c1): (DVec3, DVec3),
    before: Option<(DVec3, DVec3)>,
    lo: DVec3,
    hi: DVec3,
) -> (u8, f64) {
    let mut best: Option<(bool, f64, u8)> = None;
    for face in 0..6_u8 {
        let (depth, _) = face_depth(face, c0, c1, lo, hi);
        let axis = usize::from(face / 2);
        let was_outside = before.is_some_and(|(a0, b0)| {
            clip(a0, b0, lo, hi, axis).is_some_and(|(t0, t1)| {
                let (p, q) = (a0.lerp(b0, t0), a0.lerp(b0, t1));
                if face.is_multiple_of(2) {
                    p[axis].min(q[axis]) >= hi[axis]
                } else {
                    p[axis].max(q[axis]) <= lo[axis]
                }
            })
        });
        let better =
            best.is_none_or(|(o, d, _)| (was_outside && !o) || (was_outside == o && depth < d));
        if better {
            best = Some((was_outside, depth, face));
        }
    }
    best.map_or((0, f64::INFINITY), |(_, d, f)| (f, d))
}

/// The height of the highest corner of `triangle` (world frame, m).
fn top_z(triangle: &SolidTriangle) -> f64 {
    triangle
        .corners
        .iter()
        .map(|c| c.z)
        .fold(f64::NEG_INFINITY, f64::max)
}

/// The unit vector (body frame) of box face `face`'s outward normal.
fn face_normal(face: u8) -> DVec3 {
    let axis = [DVec3::X, DVec3::Y, DVec3::Z][usize::from(face / 2) % 3];
    if face.is_multiple_of(2) { axis } else { -axis }
}

/// Adds to `contacts` the body's contacts with `solids` (see the module docs), keeping
/// `memory` for the next tick, and returns how many it added.
pub fn collect_solid_contacts(
    shape: &BodyShape<'_>,
    body: &RigidBody,
    solids: &Solids,
    memory: &mut SolidMemory,
    contacts: &mut ContactSet,
) -> usize {
    let points = shape.world_points;
    let previous = memory.previous.replace((*points, body.pose));
    let swept_from = previous.map_or(*points, |(p, _)| p);
    let (mut lo, mut hi) = (DVec3::INFINITY, DVec3::NEG_INFINITY);
    for p in points.iter().chain(&swept_from) {
        lo = lo.min(*p);
        hi = hi.max(*p);
    }
    if !(lo.is_finite() && hi.is_finite()) {
        *memory = SolidMemory::default();
        return 0;
    }
    let (near_lo, near_hi) = (
        lo - DVec3::splat(NEAR_MARGIN_M),
        hi + DVec3::splat(NEAR_MARGIN_M),
    );
    let in_contact = memory.contacts() > 0;
    // The usual case, far from any solid.
    if !in_contact
        && memory
            .clear
            .is_some_and(|(a, b)| near_lo.cmpge(a).all() && near_hi.cmple(b).all())
    {
        return 0;
    }
    let mut triangles = Candidates::new();
    solids.triangles_in(near_lo, near_hi, |t| triangles.push(t));
    if triangles.len == 0 && !in_contact {
        let (clear_lo, clear_hi) = (
            lo - DVec3::splat(CLEAR_MARGIN_M),
            hi + DVec3::splat(CLEAR_MARGIN_M),
        );
        memory.clear = (!solids.any_in(clear_lo, clear_hi)).then_some((clear_lo, clear_hi));
        return 0;
    }
    memory.clear = None;
    let (k, e) = (shape.params.contact_stiffness_n_per_m, solids.restitution());
    let mu = solids.friction();
    let mut count = 0;
    // A contact `depth` deep at `at`, its push acting at `push_at`.
    let mut add_at =
        |at: DVec3, push_at: DVec3, normal: DVec3, depth: f64, contacts: &mut ContactSet| {
            let vn = body.point_velocity(at).dot(normal);
            let fn_ = penalty_normal_force_n(k, depth, vn, e);
            if fn_.is_finite()
                && fn_ >= 0.0
                && contacts.push(PenaltyContact {
                    point: push_at,
                    normal,
                    normal_force_n: fn_,
                    friction: mu,
                })
            {
                count += 1;
            }
        };

    // Body points in faces: each one's normal, depth and the top of its triangle, pushed
    // once all are known (an underside point's push acts up the side, see
    // `side_push_point`, unless the top point above it touches too).
    let mut in_face: [Option<(DVec3, f64, f64)>; BODY_POINTS] = [None; BODY_POINTS];
    let all = solids.triangles();
    for (i, &p) in points.iter().enumerate() {
        let contact = memory.points[i];
        if contact.triangle != NO_TRIANGLE {
            // Follow: the nearest triangle it lies behind, facing the same way.
            let mut best: Option<(f64, f64, u32, DVec3)> = None;
            for &t in std::iter::once(&contact.triangle).chain(triangles.as_slice()) {
                let Some(tri) = all.get(t as usize) else {
                    continue;
                };
                let n = if tri.normal.dot(contact.normal) >= 0.0 {
                    tri.normal
                } else {
                    -tri.normal
                };
                if n.dot(contact.normal) < FOLLOW_MIN_COS {
                    continue;
                }
                let depth = (tri.corners[0] - p).dot(n);
                // (A NaN depth is no contact either.)
                if depth.is_nan() || depth <= 0.0 {
                    continue;
                }
                let (_, lateral) = tri.nearest_in_plane(p);
                if lateral > FOLLOW_MARGIN_M {
                    continue;
                }
                if best.is_none_or(|(l, d, _, _)| {
                    lateral.total_cmp(&l).then(depth.total_cmp(&d)).is_lt()
                }) {
                    best = Some((lateral, depth, t, n));
                }
            }
            memory.points[i] = match best {
                Some((_, depth, triangle, normal)) => {
                    in_face[i] = Some((normal, depth, top_z(&all[triangle as usize])));
                    PointContact { triangle, normal }
                }
                None => FREE,
            };
            continue;
        }
        // Entry: the first face the swept segment crosses, from the body's side.
        let Some((before, _)) = previous else {
            continue;
        };
        let q = before[i];
        let mut first: Option<(f64, u32)> = None;
        for &t in triangles.as_slice() {
            if let Some(s) = all[t as usize].segment_crossing(q, p)
                && first.is_none_or(|(f, _)| s < f)
            {
                first = Some((s, t));
            }
        }
        let Some((_, t)) = first else {
            continue;
        };
        let tri = &all[t as usize];
        let side = (q - tri.corners[0]).dot(tri.normal);
        let normal = if side >= 0.0 { tri.normal } else { -tri.normal };
        let depth = (tri.corners[0] - p).dot(normal);
        let body_side = (body.pose.position - tri.corners[0]).dot(normal) > 0.0;
        if side != 0.0 && depth > 0.0 && body_side {
            in_face[i] = Some((normal, depth, top_z(tri)));
            memory.points[i] = PointContact {
                triangle: t,
                normal,
            };
        }
    }

    for (i, contact) in in_face.iter().enumerate() {
        if let Some((normal, depth, top)) = *contact {
            let top_touches = in_face
                .get(i + UNDERSIDE_POINTS)
                .is_some_and(Option::is_some);
            // The depth is the corner's; the push acts up the side.
            add_at(
                points[i],
                side_push_point(points, i, top, top_touches),
                normal,
                depth,
                contacts,
            );
        }
    }

    // Solid edges in the body.
    let mut edges = Candidates::new();
    solids.edges_in(near_lo, near_hi, |e| edges.push(e));
    let to_body = body.pose.orientation.inverse();
    let (mut box_lo, mut box_hi) = (DVec3::INFINITY, DVec3::NEG_INFINITY);
    for p in points {
        let b = to_body * (*p - body.pose.position);
        box_lo = box_lo.min(b);
        box_hi = box_hi.max(b);
    }
    let before_pose: Option<(DQuat, DVec3)> =
        previous.map(|(_, pose)| (pose.orientation.inverse(), pose.position));
    let mut kept = [EdgeContact::default(); EDGE_SLOTS];
    let mut kept_count = 0;
    for &edge in edges.as_slice() {
        let Some(solid_edge) = solids.edges().get(edge as usize) else {
            continue;
        };
        let (a, b) = (
            to_body * (solid_edge.a - body.pose.position),
            to_body * (solid_edge.b - body.pose.position),
        );
        let Some((t0, t1)) = clip(a, b, box_lo, box_hi, 3) else {
            continue;
        };
        let inside = (a.lerp(b, t0), a.lerp(b, t1));
        let remembered = memory.edges[..memory.edge_count]
            .iter()
            .find(|c| c.edge == edge)
            .map(|c| c.face);
        let (face, depth) = if let Some(face) = remembered {
            (face, face_depth(face, inside.0, inside.1, box_lo, box_hi).0)
        } else {
            let before =
                before_pose.map(|(r, at)| (r * (solid_edge.a - at), r * (solid_edge.b - at)));
            let (face, depth) = entry_face(inside, before, box_lo, box_hi);
            if depth > ENTRY_DEPTH_M {
                continue;
            }
            (face, depth)
        };
        if kept_count == EDGE_SLOTS {
            break;
        }
        kept[kept_count] = EdgeContact { edge, face };
        kept_count += 1;
        let (_, deepest) = face_depth(face, inside.0, inside.1, box_lo, box_hi);
        let point = body.pose.position + body.pose.orientation * deepest;
        let normal = body.pose.orientation * -face_normal(face);
        add_at(point, point, normal, depth, contacts);
    }
    memory.edges = kept;
    memory.edge_count = kept_count;
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_segment_is_clipped_to_the_box() {
        let (lo, hi) = (DVec3::splat(-1.0), DVec3::splat(1.0));
        let (t0, t1) = clip(
            DVec3::new(-3.0, 0.0, 0.0),
            DVec3::new(3.0, 0.0, 0.0),
            lo,
            hi,
            3,
        )
        .expect("through");
        assert!((t0 - 1.0 / 3.0).abs() < 1e-12 && (t1 - 2.0 / 3.0).abs() < 1e-12);
        assert!(
            clip(
                DVec3::new(-3.0, 2.0, 0.0),
                DVec3::new(3.0, 2.0, 0.0),
                lo,
                hi,
                3
            )
            .is_none()
        );
        // Without the y slab, the same segment lies in the box's x and z slabs.
        assert!(
            clip(
                DVec3::new(-3.0, 2.0, 0.0),
                DVec3::new(3.0, 2.0, 0.0),
                lo,
                hi,
                1
            )
            .is_some()
        );
    }

    #[test]
    fn an_edge_that_came_through_the_front_is_pushed_back_through_it() {
        // A vertical pole 10 cm inside the front face, 5 cm inside the left one: it came
        // from ahead (it lay 3 cm in front of the front face at the last tick).
        let (lo, hi) = (DVec3::new(-2.0, -0.9, -0.3), DVec3::new(2.0, 0.9, 0.8));
        let now = (DVec3::new(1.9, 0.85, -0.3), DVec3::new(1.9, 0.85, 0.8));
        let before = (DVec3::new(2.03, 0.85, -5.0), DVec3::new(2.03, 0.85, 5.0));
        let (face, depth) = entry_face(now, Some(before), lo, hi);
        assert_eq!(face, 0);
        assert!((depth - 0.1).abs() < 1e-12);
        assert_eq!(face_normal(face), DVec3::X);
        // Without a last tick: the least deep face, the left one.
        let (face, depth) = entry_face(now, None, lo, hi);
        assert_eq!(face, 2);
        assert!((depth - 0.05).abs() < 1e-12);
    }
}

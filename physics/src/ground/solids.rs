//! Solid objects as collision geometry for the car body: a scene's stands, buildings, walls,
//! tyre stacks and tree trunks, as a soup of triangles of any shape.
//!
//! [`Solids`] holds the triangles (each with its unit normal, in its own winding: a scene's
//! faces are not oriented consistently, so which side is *out* is decided by where a body
//! point comes from, see `vehicle::solid_contact`) and their *feature edges*: every edge of
//! a triangle except one shared by exactly two coplanar triangles on either side of it (the
//! diagonal of a flat quad), which nothing can strike that does not also strike a face. Both
//! are indexed by a bounding-volume hierarchy (`parry3d-f64`'s [`Bvh`]) for box queries
//! that allocate nothing (the traversal's stack lives on the call stack).
//!
//! The world's data is static and shared: every car of a grid asks the same [`Solids`]; what
//! each car keeps between ticks is its own, small contact memory.

use std::collections::HashMap;
use std::fmt;

use glam::DVec3;
use parry3d_f64::bounding_volume::Aabb;
use parry3d_f64::partitioning::{Bvh, BvhBuildStrategy};

/// Two triangles sharing an edge are coplanar (the edge is no feature) when the far corner of
/// each lies this close to the other's plane (m).
pub const COPLANAR_M: f64 = 1e-3;

/// How far outside a triangle (in barycentric coordinates) a crossing still counts, so that
/// a segment through the edge shared by two triangles meets at least one of them.
const BARYCENTRIC_SLACK: f64 = 1e-9;

/// Vertices closer than this (m) are one vertex when edges are matched between triangles.
pub const WELD_M: f64 = 1e-3;

/// One solid triangle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolidTriangle {
    /// Corners (world frame, m).
    pub corners: [DVec3; 3],
    /// Unit normal in the corners' winding (either side may be the outside).
    pub normal: DVec3,
}

impl SolidTriangle {
    /// The point of the triangle nearest `p` when `p` is projected onto its plane, and the
    /// distance (m) from the projection to it (zero when the projection lies inside).
    pub fn nearest_in_plane(&self, p: DVec3) -> (DVec3, f64) {
        let [a, b, c] = self.corners;
        let q = p - self.normal * (p - a).dot(self.normal);
        let nearest = closest_point_on_triangle(q, a, b, c);
        (nearest, (nearest - q).length())
    }

    /// Where the segment from `p0` to `p1` crosses the triangle, as the fraction of the way
    /// along it (in `[0, 1]`, either side), or `None`. Boundaries count as inside, so a
    /// point crossing the edge shared by two triangles meets at least one of them.
    pub fn segment_crossing(&self, p0: DVec3, p1: DVec3) -> Option<f64> {
        let [a, b, c] = self.corners;
        let d = p1 - p0;
        let ab = b - a;
        let ac = c - a;
        let n = ab.cross(ac);
        let denom = n.dot(d);
        if denom == 0.0 || !denom.is_finite() {
            return None;
        }
        let s = n.dot(a - p0) / denom;
        if !(0.0..=1.0).contains(&s) {
            return None;
        }
        let x = p0 + d * s;
        // Barycentric coordinates of x, by areas against the (unnormalised) normal.
        let nn = n.length_squared();
        let u = (b - x).cross(c - x).dot(n) / nn;
        let v = (c - x).cross(a - x).dot(n) / nn;
        let w = 1.0 - u - v;
        (u >= -BARYCENTRIC_SLACK && v >= -BARYCENTRIC_SLACK && w >= -BARYCENTRIC_SLACK).then_some(s)
    }
}

/// The point of triangle `a, b, c` nearest `p` (Ericson, *Real-Time Collision Detection*,
/// 5.1.5).
fn closest_point_on_triangle(p: DVec3, a: DVec3, b: DVec3, c: DVec3) -> DVec3 {
    let ab = b - a;
    let ac = c - a;
    let ap = p - a;
    let d1 = ab.dot(ap);
    let d2 = ac.dot(ap);
    if d1 <= 0.0 && d2 <= 0.0 {
        return a;
    }
    let bp = p - b;
    let d3 = ab.dot(bp);
    let d4 = ac.dot(bp);
    if d3 >= 0.0 && d4 <= d3 {
        return b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return a + ab * (d1 / (d1 - d3));
    }
    let cp = p - c;
    let d5 = ab.dot(cp);
    let d6 = ac.dot(cp);
    if d6 >= 0.0 && d5 <= d6 {
        return c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return a + ac * (d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    let denom = 1.0 / (va + vb + vc);
    a + ab * (vb * denom) + ac * (vc * denom)
}

/// One feature edge of the solids.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolidEdge {
    /// One end (world frame, m).
    pub a: DVec3,
    /// The other end.
    pub b: DVec3,
}

/// All the solid objects of a world, indexed for box queries.
#[derive(Clone, Default)]
pub struct Solids {
    triangles: Vec<SolidTriangle>,
    triangle_bvh: Bvh,
    edges: Vec<SolidEdge>,
    edge_bvh: Bvh,
    friction: f64,
    restitution: f64,
    objects: usize,
}

impl fmt::Debug for Solids {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Solids")
            .field("triangles", &self.triangles.len())
            .field("edges", &self.edges.len())
            .field("objects", &self.objects)
            .field("friction", &self.friction)
            .field("restitution", &self.restitution)
            .finish_non_exhaustive()
    }
}

impl PartialEq for Solids {
    /// The same triangles, objects, friction and restitution (the rest is built from them).
    fn eq(&self, other: &Self) -> bool {
        self.triangles == other.triangles
            && self.objects == other.objects
            && self.friction == other.friction
            && self.restitution == other.restitution
    }
}

/// The box around `points` (none for no points).
fn aabb_of(points: &[DVec3]) -> Aabb {
    let lo = points.iter().fold(DVec3::INFINITY, |m, p| m.min(*p));
    let hi = points.iter().fold(DVec3::NEG_INFINITY, |m, p| m.max(*p));
    Aabb::new(lo, hi)
}

impl Solids {
    /// Builds the solids of `triangles` (world frame, m), which belong to `objects` objects
    /// (a figure for reports), with one Coulomb friction coefficient and one coefficient of
    /// restitution for all. A triangle with a non-finite corner or no area is dropped, and
    /// non-finite friction or restitution leaves no solids at all: a solid only ever stops
    /// a car.
    pub fn new(triangles: &[[DVec3; 3]], objects: usize, friction: f64, restitution: f64) -> Self {
        if !(friction.is_finite() && restitution.is_finite()) {
            return Self::default();
        }
        let triangles: Vec<SolidTriangle> = triangles
            .iter()
            .filter(|c| c.iter().all(|p| p.is_finite()))
            .filter_map(|&corners| {
                let normal = (corners[1] - corners[0])
                    .cross(corners[2] - corners[0])
                    .try_normalize()?;
                Some(SolidTriangle { corners, normal })
            })
            .collect();
        if triangles.is_empty() || u32::try_from(triangles.len()).is_err() {
            return Self::default();
        }
        let edges = feature_edges(&triangles);
        let triangle_boxes: Vec<Aabb> = triangles.iter().map(|t| aabb_of(&t.corners)).collect();
        let edge_boxes: Vec<Aabb> = edges.iter().map(|e| aabb_of(&[e.a, e.b])).collect();
        Self {
            triangle_bvh: Bvh::from_leaves(BvhBuildStrategy::Binned, &triangle_boxes),
            edge_bvh: Bvh::from_leaves(BvhBuildStrategy::Binned, &edge_boxes),
            triangles,
            edges,
            friction,
            restitution,
            objects,
        }
    }

    /// Whether there are no solids at all.
    pub fn is_empty(&self) -> bool {
        self.triangles.is_empty()
    }

    /// The triangles.
    pub fn triangles(&self) -> &[SolidTriangle] {
        &self.triangles
    }

    /// The feature edges.
    pub fn edges(&self) -> &[SolidEdge] {
        &self.edges
    }

    /// Number of objects the triangles belong to (as given to [`Solids::new`]).
    pub fn objects(&self) -> usize {
        self.objects
    }

    /// Coulomb friction coefficient of the body sliding on a solid (-).
    pub fn friction(&self) -> f64 {
        self.friction
    }

    /// Coefficient of restitution of the body striking a solid (-).
    pub fn restitution(&self) -> f64 {
        self.restitution
    }

    /// Calls `f` with the index of every triangle whose bounding box meets the box from `lo`
    /// to `hi`. Allocates nothing.
    pub fn triangles_in(&self, lo: DVec3, hi: DVec3, mut f: impl FnMut(u32)) {
        if self.triangles.is_empty() || !(lo.is_finite() && hi.is_finite()) {
            return;
        }
        let aabb = Aabb::new(lo, hi);
        for i in self.triangle_bvh.intersect_aabb(&aabb) {
            f(i);
        }
    }

    /// Calls `f` with the index of every feature edge whose bounding box meets the box from
    /// `lo` to `hi`. Allocates nothing.
    pub fn edges_in(&self, lo: DVec3, hi: DVec3, mut f: impl FnMut(u32)) {
        if self.edges.is_empty() || !(lo.is_finite() && hi.is_finite()) {
            return;
        }
        let aabb = Aabb::new(lo, hi);
        for i in self.edge_bvh.intersect_aabb(&aabb) {
            f(i);
        }
    }

    /// Whether any triangle's bounding box meets the box from `lo` to `hi` (every feature
    /// edge lies on a triangle, so none of theirs does either when this is false).
    pub fn any_in(&self, lo: DVec3, hi: DVec3) -> bool {
        if self.triangles.is_empty() || !(lo.is_finite() && hi.is_finite()) {
            return false;
        }
        let aabb = Aabb::new(lo, hi);
        self.triangle_bvh.intersect_aabb(&aabb).next().is_some()
    }
}

/// The feature edges of `triangles` (see the module docs).
fn feature_edges(triangles: &[SolidTriangle]) -> Vec<SolidEdge> {
    // Weld the corners so that edges can be matched between triangles.
    let mut ids: HashMap<[i64; 3], u32> = HashMap::new();
    #[allow(clippy::cast_possible_truncation)]
    let key = |p: DVec3| (p / WELD_M).round().to_array().map(|v| v as i64);
    let mut id = |p: DVec3| {
        let next = u32::try_from(ids.len()).unwrap_or(u32::MAX);
        *ids.entry(key(p)).or_insert(next)
    };
    // Each edge (by its welded ends) and the triangles (and their far corner) along it.
    let mut along: HashMap<(u32, u32), Vec<(usize, usize)>> = HashMap::new();
    let mut order: Vec<(u32, u32)> = Vec::new();
    for (t, tri) in triangles.iter().enumerate() {
        let v = tri.corners.map(&mut id);
        for k in 0..3 {
            let (i, j) = (v[k], v[(k + 1) % 3]);
            if i == j {
                continue;
            }
            let e = (i.min(j), i.max(j));
            let list = along.entry(e).or_default();
            if list.is_empty() {
                order.push(e);
            }
            list.push((t, (k + 2) % 3));
        }
    }
    let mut edges = Vec::with_capacity(order.len());
    for e in order {
        let list = &along[&e];
        let (t, far) = list[0];
        let tri = &triangles[t];
        let (a, b) = (tri.corners[(far + 1) % 3], tri.corners[(far + 2) % 3]);
        let flat = list.len() == 2 && {
            let (u, far_u) = list[1];
            let other = &triangles[u];
            let c0 = tri.corners[far];
            let c1 = other.corners[far_u];
            let in_plane = tri.normal.dot(c1 - a).abs() < COPLANAR_M
                && other.normal.dot(c0 - a).abs() < COPLANAR_M;
            let across = tri.normal.cross(b - a);
            in_plane && across.dot(c0 - a) * across.dot(c1 - a) < 0.0
        };
        if !flat {
            edges.push(SolidEdge { a, b });
        }
    }
    edges
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A closed box from `lo` to `hi`, two triangles a face.
    pub(crate) fn box_triangles(lo: DVec3, hi: DVec3) -> Vec<[DVec3; 3]> {
        let c = |i: usize| {
            DVec3::new(
                if i & 1 == 0 { lo.x } else { hi.x },
                if i & 2 == 0 { lo.y } else { hi.y },
                if i & 4 == 0 { lo.z } else { hi.z },
            )
        };
        let quads = [
            [0, 1, 3, 2],
            [4, 6, 7, 5],
            [0, 4, 5, 1],
            [2, 3, 7, 6],
            [0, 2, 6, 4],
            [1, 5, 7, 3],
        ];
        quads
            .iter()
            .flat_map(|q| [[c(q[0]), c(q[1]), c(q[2])], [c(q[0]), c(q[2]), c(q[3])]])
            .collect()
    }

    #[test]
    fn a_box_has_its_twelve_edges_and_no_diagonals() {
        let solids = Solids::new(
            &box_triangles(DVec3::ZERO, DVec3::new(4.0, 2.0, 3.0)),
            1,
            0.5,
            0.2,
        );
        assert_eq!(solids.triangles().len(), 12);
        assert_eq!(solids.edges().len(), 12);
        // Every edge runs along an axis (a diagonal would not).
        for e in solids.edges() {
            let d = (e.b - e.a).abs();
            let along = [d.x, d.y, d.z].iter().filter(|v| **v > 1e-9).count();
            assert_eq!(along, 1, "{e:?}");
        }
        // A single quad keeps its four sides; a folded one (two faces at 90°) keeps the fold.
        let quad = [
            [DVec3::ZERO, DVec3::X, DVec3::new(1.0, 0.0, 1.0)],
            [DVec3::ZERO, DVec3::new(1.0, 0.0, 1.0), DVec3::Z],
        ];
        assert_eq!(Solids::new(&quad, 1, 0.5, 0.2).edges().len(), 4);
        let folded = [
            [DVec3::ZERO, DVec3::X, DVec3::Z],
            [DVec3::ZERO, DVec3::X, DVec3::Y],
        ];
        assert_eq!(Solids::new(&folded, 1, 0.5, 0.2).edges().len(), 5);
    }

    #[test]
    fn box_queries_find_what_a_scan_finds() {
        let mut tris = Vec::new();
        for i in 0..20 {
            let x = f64::from(i) * 10.0;
            tris.extend(box_triangles(
                DVec3::new(x, 0.0, 0.0),
                DVec3::new(x + 3.0, 2.0, 2.0),
            ));
        }
        let solids = Solids::new(&tris, 20, 0.5, 0.2);
        for i in 0..200 {
            let x = f64::from(i) * 1.03 - 5.0;
            let (lo, hi) = (DVec3::new(x, -1.0, 0.5), DVec3::new(x + 2.0, 1.0, 1.0));
            let mut found = Vec::new();
            solids.triangles_in(lo, hi, |t| found.push(t));
            found.sort_unstable();
            let scan: Vec<u32> = (0..u32::try_from(solids.triangles().len()).unwrap_or(0))
                .filter(|&t| {
                    let b = aabb_of(&solids.triangles()[t as usize].corners);
                    b.mins.cmple(hi).all() && b.maxs.cmpge(lo).all()
                })
                .collect();
            assert_eq!(found, scan, "{x}");
            assert_eq!(solids.any_in(lo, hi), !scan.is_empty());
        }
    }

    #[test]
    fn a_segment_crosses_a_triangle_from_either_side_and_the_shared_edge_is_covered() {
        let t = SolidTriangle {
            corners: [DVec3::ZERO, DVec3::Y, DVec3::Z],
            normal: DVec3::X,
        };
        let p = DVec3::new(-0.5, 0.2, 0.2);
        let q = DVec3::new(0.5, 0.2, 0.2);
        assert!((t.segment_crossing(p, q).expect("crosses") - 0.5).abs() < 1e-12);
        assert!((t.segment_crossing(q, p).expect("crosses back") - 0.5).abs() < 1e-12);
        assert!(t.segment_crossing(p, p + DVec3::X * 0.4).is_none());
        // On the hypotenuse: counted.
        let on = DVec3::new(0.0, 0.5, 0.5);
        assert!(t.segment_crossing(on - DVec3::X, on + DVec3::X).is_some());
        assert!(
            t.segment_crossing(
                on + DVec3::new(-1.0, 0.01, 0.0),
                on + DVec3::new(1.0, 0.01, 0.0)
            )
            .is_none()
        );
        let (nearest, d) = t.nearest_in_plane(DVec3::new(3.0, -1.0, 0.5));
        assert!((nearest - DVec3::new(0.0, 0.0, 0.5)).length() < 1e-12);
        assert!((d - 1.0).abs() < 1e-12);
    }

    #[test]
    fn bad_input_gives_no_solids() {
        assert!(Solids::new(&[], 0, 0.5, 0.2).is_empty());
        let nan = [[DVec3::NAN, DVec3::X, DVec3::Y]];
        assert!(Solids::new(&nan, 1, 0.5, 0.2).is_empty());
        let flat = [[DVec3::ZERO, DVec3::X, DVec3::X * 2.0]];
        assert!(Solids::new(&flat, 1, 0.5, 0.2).is_empty());
        let ok = [[DVec3::ZERO, DVec3::X, DVec3::Y]];
        assert!(Solids::new(&ok, 1, f64::NAN, 0.2).is_empty());
        assert!(!Solids::default().any_in(DVec3::splat(-1e9), DVec3::splat(1e9)));
    }
}

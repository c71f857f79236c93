//! Triangles alone in their column, for the hinted ray cast's shortest path.
//!
//! A triangle is *sole* when no other triangle that may be tested beside it (its
//! neighbourhood row, [`super::neighbourhood`]) reaches over the inside of its horizontal
//! projection shrunk by [`SOLE_MARGIN_M`]: a road's or a run-off's triangle with nothing
//! above or below it within the row's reach (no bridge, no overhang, no stacked surface).
//! Neighbours that share an edge or a corner only touch its boundary and do not count.
//!
//! A ray segment inside the triangle's cover box whose two ends lie, horizontally, inside
//! that shrunk projection can then meet no triangle but this one: any other it met would
//! overlap the projection's inside at the meeting point. So the hinted query tests this one
//! triangle with the same ray-triangle test, and its answer (hit or miss, triangle, distance)
//! is the one the whole row gives: the same bits. On a road a tyre's probes lie on one or
//! two large triangles almost every tick, so most of the wheel's five rays take this path.
//!
//! The separation test is the separating-axis test in the plane, on the shrunk projection's
//! three edge normals (against which a neighbour must lie wholly outside, touching allowed
//! up to the margin) and then on the other triangle's own edge normals (against the whole
//! projection, which holds the shrunk one: conservative). A triangle that is not proven
//! separated from every other in its row is not sole, and its queries take the row's path.

use glam::{DVec2, DVec3};

/// How far (m) inside its horizontal projection's edges a triangle's sole area ends: the
/// clearance that keeps a neighbour touching an edge, and rounding, away from a ray taking
/// the shortest path.
pub const SOLE_MARGIN_M: f64 = 1e-3;

/// Each triangle's sole area (see the module docs), `None` for a triangle that is not sole.
#[derive(Clone, Debug, Default)]
pub(crate) struct SoleColumns {
    lines: Vec<Option<SoleArea>>,
}

/// A triangle's sole area as three inward edge lines `(n, c)`: a point `p` lies inside when
/// `n . p >= c` for all three.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct SoleArea {
    lines: [(DVec2, f64); 3],
}

impl SoleArea {
    /// Whether the horizontal projections of `a` and `b` both lie inside.
    #[inline]
    pub(crate) fn holds(&self, a: DVec3, b: DVec3) -> bool {
        self.lines
            .iter()
            .all(|&(n, c)| n.dot(a.truncate()) >= c && n.dot(b.truncate()) >= c)
    }
}

/// The three inward unit normals and offsets of a triangle's projected edges, moved inwards
/// by `margin`; `None` for a projection with (nearly) no area: a wall seen from above.
fn inward_lines(corners: [DVec2; 3], margin: f64) -> Option<[(DVec2, f64); 3]> {
    let area2 = (corners[1] - corners[0]).perp_dot(corners[2] - corners[0]);
    // (A NaN area is no area either.)
    if area2.is_nan() || area2.abs() <= 1e-9 {
        return None;
    }
    let mut lines = [(DVec2::ZERO, 0.0); 3];
    for (i, line) in lines.iter_mut().enumerate() {
        let (a, b) = (corners[i], corners[(i + 1) % 3]);
        // The left normal of a counter-clockwise edge points inwards.
        let n = (b - a).perp().try_normalize()? * area2.signum();
        *line = (n, n.dot(a) + margin);
    }
    Some(lines)
}

/// Whether `other` lies wholly outside the shrunk projection `lines` or the projection
/// `corners` holding it (see the module docs).
fn separated(lines: &[(DVec2, f64); 3], corners: [DVec2; 3], other: [DVec2; 3]) -> bool {
    // The shrunk projection's edges: `other` wholly on the outer side of one.
    if lines
        .iter()
        .any(|&(n, c)| other.iter().all(|p| n.dot(*p) <= c))
    {
        return true;
    }
    // The other triangle's edges, against the whole projection.
    (0..3).any(|i| {
        let axis = (other[(i + 1) % 3] - other[i]).perp();
        if axis.length_squared() < 1e-18 {
            return false;
        }
        let span = |points: &[DVec2; 3]| {
            points
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
                    let d = axis.dot(*p);
                    (lo.min(d), hi.max(d))
                })
        };
        let ((a_lo, a_hi), (b_lo, b_hi)) = (span(&corners), span(&other));
        a_hi <= b_lo || b_hi <= a_lo
    })
}

impl SoleColumns {
    /// Finds which of `count` triangles (`corners(t)`, world frame) are sole among the
    /// members of their rows (`row(t)`, which may include `t` itself).
    pub(crate) fn build<'a>(
        count: usize,
        corners: impl Fn(usize) -> [DVec3; 3],
        row: impl Fn(usize) -> &'a [u32],
    ) -> Self {
        let flat = |t: usize| corners(t).map(DVec3::truncate);
        let lines = (0..count)
            .map(|t| {
                let own = flat(t);
                let lines = inward_lines(own, SOLE_MARGIN_M)?;
                row(t)
                    .iter()
                    .filter(|&&u| u as usize != t)
                    .all(|&u| separated(&lines, own, flat(u as usize)))
                    .then_some(SoleArea { lines })
            })
            .collect();
        Self { lines }
    }

    /// Whether the horizontal projections of `a` and `b` both lie in triangle `t`'s sole
    /// area (`false` for a triangle that is not sole).
    pub(crate) fn holds(&self, t: usize, a: DVec3, b: DVec3) -> bool {
        self.area(t).is_some_and(|area| area.holds(a, b))
    }

    /// Triangle `t`'s sole area, `None` for a triangle that is not sole.
    pub(crate) fn area(&self, t: usize) -> Option<&SoleArea> {
        self.lines.get(t).and_then(Option::as_ref)
    }

    /// Number of sole triangles.
    pub(crate) fn count(&self) -> usize {
        self.lines.iter().filter(|l| l.is_some()).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tri(a: (f64, f64, f64), b: (f64, f64, f64), c: (f64, f64, f64)) -> [DVec3; 3] {
        [a, b, c].map(DVec3::from)
    }

    #[test]
    fn neighbours_sharing_edges_leave_a_triangle_sole_and_one_above_does_not() {
        // A unit square as two triangles, a third beside it, and a small one hovering 1 m
        // over the first triangle's inside.
        let triangles = [
            tri((0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (1.0, 1.0, 0.0)),
            tri((0.0, 0.0, 0.0), (1.0, 1.0, 0.0), (0.0, 1.0, 0.0)),
            tri((1.0, 0.0, 0.0), (2.0, 0.0, 0.0), (1.0, 1.0, 0.0)),
            tri((0.7, 0.1, 1.0), (0.9, 0.1, 1.0), (0.9, 0.3, 1.0)),
        ];
        let all: Vec<u32> = (0..4).collect();
        let sole = SoleColumns::build(4, |t| triangles[t], |_| &all);
        assert!(!sole.holds(0, DVec3::new(0.8, 0.2, 2.0), DVec3::new(0.8, 0.2, -1.0)));
        assert!(sole.holds(1, DVec3::new(0.2, 0.8, 2.0), DVec3::new(0.21, 0.8, -1.0)));
        assert!(sole.holds(2, DVec3::new(1.2, 0.2, 2.0), DVec3::new(1.2, 0.2, -1.0)));
        // The hovering one has the first triangle under it.
        assert!(!sole.holds(3, DVec3::new(0.85, 0.15, 2.0), DVec3::new(0.85, 0.15, -1.0)));
        assert_eq!(sole.count(), 2);
        // Within the margin of an edge, or outside, a point is not held.
        assert!(!sole.holds(1, DVec3::new(0.0005, 0.5, 0.0), DVec3::new(0.2, 0.5, 0.0)));
        assert!(!sole.holds(2, DVec3::new(1.9, 0.9, 0.0), DVec3::new(1.2, 0.2, 0.0)));
    }

    #[test]
    fn a_wall_seen_from_above_is_never_sole_and_a_wall_across_a_triangle_spoils_it() {
        let floor = tri((0.0, 0.0, 0.0), (4.0, 0.0, 0.0), (0.0, 4.0, 0.0));
        // A vertical triangle standing on the floor, across its inside.
        let wall = tri((1.0, 0.5, 0.0), (1.0, 2.0, 0.0), (1.0, 1.0, 1.0));
        let triangles = [floor, wall];
        let all: Vec<u32> = vec![0, 1];
        let sole = SoleColumns::build(2, |t| triangles[t], |_| &all);
        assert_eq!(sole.count(), 0);
        // The same wall outside the floor's projection leaves the floor sole.
        let wall = tri((5.0, 0.5, 0.0), (5.0, 2.0, 0.0), (5.0, 1.0, 1.0));
        let triangles = [floor, wall];
        let sole = SoleColumns::build(2, |t| triangles[t], |_| &all);
        assert_eq!(sole.count(), 1);
        assert!(sole.holds(0, DVec3::new(1.0, 1.0, 1.0), DVec3::new(1.0, 1.0, -1.0)));
    }
}

//! Temporal coherence for ground queries: each triangle's neighbourhood, and the hint a caller
//! keeps between ticks.
//!
//! A wheel moves a few centimetres per tick, so its ray nearly always meets the triangle it met
//! last tick or one beside it. [`Neighbourhoods`] stores, for every triangle, its *cover box*
//! (the triangle's bounding box grown by [`COVER_MARGIN_M`] on every side) and every triangle
//! whose bounding box touches that cover box. A ray whose whole segment (origin to
//! `origin + direction * max_distance`) lies inside the cover box of the hinted triangle can
//! only meet triangles whose bounding boxes touch the segment's box, hence the cover box: all
//! of them are in the list. Testing that list with the same ray-triangle test as the BVH, and
//! keeping the nearest hit, therefore gives exactly the BVH's answer (including "no hit"),
//! without visiting the tree. Outside the cover box the query falls back to the BVH and moves
//! the hint to the triangle it hit.
//!
//! The hint is only a cache: a stale, wrong or default hint never changes a result, only the
//! time it takes (see the tests and `tests/ground_coherence.rs`).

use glam::DVec3;

/// How far (m) each triangle's cover box reaches beyond the triangle's bounding box. A wheel's
/// ray is about a metre long; with 2 m of margin a car at 80 m/s (8 cm per tick) stays inside
/// the same cover box for dozens of ticks, while neighbourhoods stay a few dozen triangles.
pub const COVER_MARGIN_M: f64 = 2.0;

/// What one query remembers for the next: the triangle it hit last. Keep one per ray source
/// (each wheel, each body probe). [`RayHint::default`] is "nothing yet".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RayHint {
    triangle: u32,
}

impl Default for RayHint {
    fn default() -> Self {
        Self { triangle: NONE }
    }
}

/// No triangle remembered.
const NONE: u32 = u32::MAX;

impl RayHint {
    /// The triangle remembered, if any.
    pub fn triangle(self) -> Option<usize> {
        (self.triangle != NONE).then_some(self.triangle as usize)
    }

    /// Remembers `triangle`.
    pub(crate) fn remember(&mut self, triangle: usize) {
        self.triangle = u32::try_from(triangle).unwrap_or(NONE);
    }
}

/// Every triangle's cover box and the triangles that may be hit inside it (compressed rows).
#[derive(Clone, Debug, Default)]
pub(crate) struct Neighbourhoods {
    /// Each triangle's own bounding box, to skip most candidates before the exact test.
    box_min: Vec<DVec3>,
    box_max: Vec<DVec3>,
    cover_min: Vec<DVec3>,
    cover_max: Vec<DVec3>,
    /// Row `t` of `members` is `members[start[t]..start[t + 1]]`.
    start: Vec<u32>,
    members: Vec<u32>,
}

impl Neighbourhoods {
    /// Builds the neighbourhoods of triangles whose bounding boxes are `boxes` (min, max),
    /// finding the boxes that touch each cover box with `touching` (a BVH query).
    pub(crate) fn build(
        boxes: &[(DVec3, DVec3)],
        mut touching: impl FnMut(DVec3, DVec3, &mut Vec<u32>),
    ) -> Self {
        let margin = DVec3::splat(COVER_MARGIN_M);
        let mut n = Self {
            box_min: boxes.iter().map(|b| b.0).collect(),
            box_max: boxes.iter().map(|b| b.1).collect(),
            cover_min: Vec::with_capacity(boxes.len()),
            cover_max: Vec::with_capacity(boxes.len()),
            start: Vec::with_capacity(boxes.len() + 1),
            members: Vec::new(),
        };
        let mut row = Vec::new();
        for &(lo, hi) in boxes {
            let (lo, hi) = (lo - margin, hi + margin);
            row.clear();
            touching(lo, hi, &mut row);
            row.sort_unstable();
            row.dedup();
            n.start
                .push(u32::try_from(n.members.len()).unwrap_or(u32::MAX));
            n.members.extend_from_slice(&row);
            n.cover_min.push(lo);
            n.cover_max.push(hi);
        }
        n.start
            .push(u32::try_from(n.members.len()).unwrap_or(u32::MAX));
        n
    }

    /// The triangles to test for a ray segment from `a` to `b` near `triangle`, or `None`
    /// when the segment leaves that triangle's cover box (then only the BVH is exact).
    pub(crate) fn candidates(&self, triangle: usize, a: DVec3, b: DVec3) -> Option<&[u32]> {
        let (lo, hi) = (
            *self.cover_min.get(triangle)?,
            *self.cover_max.get(triangle)?,
        );
        let inside =
            a.cmpge(lo).all() && a.cmple(hi).all() && b.cmpge(lo).all() && b.cmple(hi).all();
        if !inside {
            return None;
        }
        let from = *self.start.get(triangle)? as usize;
        let to = *self.start.get(triangle + 1)? as usize;
        self.members.get(from..to)
    }

    /// Whether triangle `t`'s bounding box touches the box from `lo` to `hi`: a triangle
    /// that does not cannot meet a segment inside that box.
    #[inline]
    pub(crate) fn box_touches(&self, t: usize, lo: DVec3, hi: DVec3) -> bool {
        match (self.box_min.get(t), self.box_max.get(t)) {
            (Some(min), Some(max)) => min.cmple(hi).all() && max.cmpge(lo).all(),
            _ => false,
        }
    }

    /// Number of triangles in the largest neighbourhood.
    pub(crate) fn largest(&self) -> usize {
        self.start
            .windows(2)
            .map(|w| (w[1] - w[0]) as usize)
            .max()
            .unwrap_or(0)
    }

    /// Mean number of triangles per neighbourhood.
    pub(crate) fn mean(&self) -> f64 {
        if self.cover_min.is_empty() {
            0.0
        } else {
            self.members.len() as f64 / self.cover_min.len() as f64
        }
    }
}

//! Temporal coherence for ground queries: each triangle's neighbourhood, and the hint a caller
//! keeps between ticks.
//!
//! A wheel moves a few centimetres per tick, so its ray nearly always meets the triangle it met
//! last tick or one beside it. `Neighbourhoods` stores, for every triangle, its *cover box*
//! (the triangle's bounding box grown by [`COVER_MARGIN_XY_M`] horizontally and by
//! [`COVER_MARGIN_M`] up and down) and every triangle whose bounding box touches that cover
//! box, with those bounding boxes copied into the row so that a query reads one run of memory. A ray whose whole segment (origin to
//! `origin + direction * max_distance`) lies inside the cover box of the hinted triangle can
//! only meet triangles whose bounding boxes touch the segment's box, hence the cover box: all
//! of them are in the list. Testing that list with the same ray-triangle test as the BVH, and
//! keeping the nearest hit, therefore gives exactly the BVH's answer (including "no hit"),
//! without visiting the tree. Outside the cover box the query falls back to the BVH and moves
//! the hint to the triangle it hit.
//!
//! Each row also keeps the highest top of its members' bounding boxes: a segment wholly above
//! it meets none of them, which answers a body probe above the ground (the usual case) without
//! testing the row's boxes one by one; the answer is the one the loop would give.
//!
//! The hint is only a cache: a stale, wrong or default hint never changes a result, only the
//! time it takes (see the tests and `tests/ground_coherence.rs`).

use glam::DVec3;

/// How far (m) each triangle's cover box reaches above and below the triangle's bounding box.
/// A wheel's ray is about a metre and a half long and nearly vertical, starting above the
/// road: its whole segment lies within this of the road's height.
pub const COVER_MARGIN_M: f64 = 2.0;

/// How far (m) each triangle's cover box reaches beyond the triangle's bounding box
/// horizontally. A wheel's ray spans a few centimetres horizontally and the hint moves to the
/// triangle hit every tick, so even at 80 m/s (8 cm per tick) the next ray lies well inside
/// this margin, while the neighbourhoods stay a handful of triangles (the horizontal margin
/// sets how many triangles beside the hinted one each query tests).
pub const COVER_MARGIN_XY_M: f64 = 0.5;

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

/// A triangle's cover box (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct CoverBox {
    min: DVec3,
    max: DVec3,
}

impl CoverBox {
    /// Whether the segment from `a` to `b` lies inside (both ends do: the box is convex).
    #[inline]
    pub(crate) fn holds(&self, a: DVec3, b: DVec3) -> bool {
        let (lo, hi) = (self.min, self.max);
        a.cmpge(lo).all() && a.cmple(hi).all() && b.cmpge(lo).all() && b.cmple(hi).all()
    }
}

/// Every triangle's cover box and the triangles that may be hit inside it (compressed rows).
#[derive(Clone, Debug, Default)]
pub(crate) struct Neighbourhoods {
    /// The bounding boxes of `members`, in the same order, to skip most candidates before the
    /// exact test (a copy per row, so that a query reads its row's boxes in one run).
    member_min: Vec<DVec3>,
    member_max: Vec<DVec3>,
    /// The highest `member_max.z` of each row (`-inf` for an empty row).
    top: Vec<f64>,
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
        let margin = DVec3::new(COVER_MARGIN_XY_M, COVER_MARGIN_XY_M, COVER_MARGIN_M);
        let mut n = Self {
            member_min: Vec::new(),
            member_max: Vec::new(),
            top: Vec::with_capacity(boxes.len()),
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
            n.member_min
                .extend(row.iter().map(|&t| boxes[t as usize].0));
            n.member_max
                .extend(row.iter().map(|&t| boxes[t as usize].1));
            n.top.push(
                row.iter()
                    .map(|&t| boxes[t as usize].1.z)
                    .fold(f64::NEG_INFINITY, f64::max),
            );
            n.cover_min.push(lo);
            n.cover_max.push(hi);
        }
        n.start
            .push(u32::try_from(n.members.len()).unwrap_or(u32::MAX));
        n
    }

    /// Whether the ray segment from `a` to `b` lies inside `triangle`'s cover box (`false`
    /// for an index out of range).
    #[inline]
    pub(crate) fn covers(&self, triangle: usize, a: DVec3, b: DVec3) -> bool {
        self.cover_box(triangle)
            .is_some_and(|cover| cover.holds(a, b))
    }

    /// `triangle`'s cover box (`None` for an index out of range).
    #[inline]
    pub(crate) fn cover_box(&self, triangle: usize) -> Option<CoverBox> {
        Some(CoverBox {
            min: *self.cover_min.get(triangle)?,
            max: *self.cover_max.get(triangle)?,
        })
    }

    /// The triangles to test for a ray segment from `a` to `b` near `triangle`, with their
    /// bounding boxes `(triangles, mins, maxs)`, or `None` when the segment leaves that
    /// triangle's cover box (then only the BVH is exact). The lists are empty when the
    /// segment lies wholly above every box of the row (none could pass the box test).
    pub(crate) fn candidates(
        &self,
        triangle: usize,
        a: DVec3,
        b: DVec3,
    ) -> Option<(&[u32], &[DVec3], &[DVec3])> {
        if !self.covers(triangle, a, b) {
            return None;
        }
        if a.z.min(b.z) > *self.top.get(triangle)? {
            return Some((&[], &[], &[]));
        }
        let from = *self.start.get(triangle)? as usize;
        let to = *self.start.get(triangle + 1)? as usize;
        Some((
            self.members.get(from..to)?,
            self.member_min.get(from..to)?,
            self.member_max.get(from..to)?,
        ))
    }

    /// The triangles of `triangle`'s row (empty for an index out of range).
    pub(crate) fn row(&self, triangle: usize) -> &[u32] {
        let (Some(&from), Some(&to)) = (self.start.get(triangle), self.start.get(triangle + 1))
        else {
            return &[];
        };
        self.members.get(from as usize..to as usize).unwrap_or(&[])
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

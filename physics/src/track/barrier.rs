//! Barriers and walls beside the road: from what a layout says ([`BarrierSpec`]) to the polylines
//! built from it ([`Barrier`], for the renderer) and the collision geometry the car body
//! meets ([`Walls`]).
//!
//! A barrier stands on one side of the road, at the outer edge of the last band beside it
//! (as TORCS places its barriers, at the outer edge of the outermost side) or at the road's
//! own edge (a wall-style border), moved outwards by `offset_m`. Its face follows the
//! centre line's samples: one point per sample, on the ground mesh's edge vertex moved
//! horizontally outwards, at that vertex's height. The face is what the car meets; the
//! barrier's `thickness_m` extends behind it, away from the road, and only matters for
//! drawing.
//!
//! A layout without cross-sections gives one [`BarrierSpec`] for both sides; a layout with
//! cross-sections gives them per control point and side, and, like surfaces, the strip of
//! road from a sample to the next takes the barriers of the control point it starts from.
//! Consecutive strips with the same barrier form one polyline; where the barrier changes or
//! stops, a polyline ends (a gap in the barrier is a gap in the wall).

use glam::DVec3;

use crate::ground::{WallRun, Walls};

use super::barrier_spec::{BarrierPlacement, BarrierSpec};
use super::centre_line::CentreLine;
use super::layout::TrackLayout;
use super::sample_edges::SampleEdges;
use super::side::Side;

/// A barrier built along the road: one polyline of its face's foot.
#[derive(Clone, Debug, PartialEq)]
pub struct Barrier {
    /// The side of the road it stands on.
    pub side: Side,
    /// Its height, thickness, kind, friction and restitution.
    pub spec: BarrierSpec,
    /// The foot of its face, in driving order (world frame, m); the top is `height_m` above.
    pub points: Vec<DVec3>,
    /// Horizontal unit vector away from the road at each point (the thickness runs along it).
    pub outward: Vec<DVec3>,
    /// Whether the last point joins the first (a barrier all round a closed track).
    pub closed: bool,
}

/// The barrier of strip `strip` on `side` at `placement`.
fn spec_of(
    layout: &TrackLayout,
    sources: &[(usize, f64)],
    strip: usize,
    side: Side,
    placement: BarrierPlacement,
) -> Option<BarrierSpec> {
    let pick = |specs: &[BarrierSpec]| specs.iter().copied().find(|b| b.placement == placement);
    if layout.cross_sections.is_empty() {
        return layout.barriers.filter(|b| b.placement == placement);
    }
    let (seg, _) = *sources.get(strip)?;
    let section = &layout.cross_sections[seg % layout.cross_sections.len()];
    match side {
        Side::Left => pick(&section.left_barriers),
        Side::Right => pick(&section.right_barriers),
    }
}

/// Builds the barriers of `layout` along its sampled `centre_line`; `edges` holds one entry
/// per sample (empty for a layout without road, which has no barriers).
pub(super) fn build_barriers(
    layout: &TrackLayout,
    centre_line: &CentreLine,
    sources: &[(usize, f64)],
    edges: &[SampleEdges],
) -> Vec<Barrier> {
    let n = centre_line.samples().len();
    let mut barriers = Vec::new();
    if n < 2 || edges.len() != n {
        return barriers;
    }
    let closed = centre_line.is_closed();
    let strips = if closed { n } else { n - 1 };
    for side in [Side::Left, Side::Right] {
        for placement in [BarrierPlacement::OuterEdge, BarrierPlacement::RoadEdge] {
            let specs: Vec<Option<BarrierSpec>> = (0..strips)
                .map(|i| spec_of(layout, sources, i, side, placement))
                .collect();
            if specs.iter().all(Option::is_none) {
                continue;
            }
            let everywhere = closed && specs.iter().all(|s| *s == specs[0]);
            // Start where the barrier changes, so that no polyline is cut at the loop's seam.
            let start = if closed && !everywhere {
                (0..strips)
                    .find(|&i| specs[i] != specs[(i + strips - 1) % strips])
                    .unwrap_or(0)
            } else {
                0
            };
            let point = |j: usize, spec: &BarrierSpec| {
                let e = &edges[j % n];
                let (base, sign) = match (placement, side) {
                    (BarrierPlacement::OuterEdge, Side::Left) => (e.outer[0], 1.0),
                    (BarrierPlacement::OuterEdge, Side::Right) => (e.outer[1], -1.0),
                    (BarrierPlacement::RoadEdge, Side::Left) => (e.road[0], 1.0),
                    (BarrierPlacement::RoadEdge, Side::Right) => (e.road[1], -1.0),
                };
                let outward = e.horizontal_left * sign;
                (base + outward * spec.offset_m, outward)
            };
            let mut k = 0;
            while k < strips {
                let i = (start + k) % strips;
                let Some(spec) = specs[i] else {
                    k += 1;
                    continue;
                };
                let mut end = k;
                while end + 1 < strips && specs[(start + end + 1) % strips] == Some(spec) {
                    end += 1;
                }
                let count = if everywhere { strips } else { end - k + 2 };
                let (points, outward) = (0..count).map(|m| point(start + k + m, &spec)).unzip();
                barriers.push(Barrier {
                    side,
                    spec,
                    points,
                    outward,
                    closed: everywhere,
                });
                k = end + 1;
            }
        }
    }
    barriers
}

/// The collision geometry of `barriers`.
pub(super) fn walls_of(barriers: &[Barrier]) -> Walls {
    let runs: Vec<WallRun<'_>> = barriers
        .iter()
        .map(|b| WallRun {
            points: &b.points,
            closed: b.closed,
            height_m: b.spec.height_m,
            // The road lies to the right of a left barrier's direction of travel.
            open_to_left: b.side == Side::Right,
            friction: b.spec.friction,
            restitution: b.spec.restitution,
        })
        .collect();
    Walls::new(&runs)
}

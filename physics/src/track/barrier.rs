//! Barriers and walls beside the road: what a layout says ([`BarrierSpec`]), the polylines
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
use serde::{Deserialize, Serialize};

use crate::ground::{WallRun, Walls};
use crate::validate::Validator;

use super::centre_line::CentreLine;
use super::layout::TrackLayout;

/// What a barrier looks like; both stop a car the same way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BarrierKind {
    /// A solid wall (concrete, tyres, armco on posts).
    #[default]
    Wall,
    /// A fence (catch fence, mesh).
    Fence,
}

/// Where across the road a barrier stands before its offset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BarrierPlacement {
    /// At the outer edge of the last band beside the road.
    #[default]
    OuterEdge,
    /// At the road's own edge (a wall-style border).
    RoadEdge,
}

/// A barrier along one side of the road, as a layout gives it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BarrierSpec {
    /// Where it stands before its offset; the outer edge of the last band when omitted.
    #[serde(default)]
    pub placement: BarrierPlacement,
    /// Horizontal distance of its face beyond the placement's edge, away from the road (m).
    #[serde(default)]
    pub offset_m: f64,
    /// Height of its top above its foot (m).
    pub height_m: f64,
    /// Thickness behind the face, away from the road (m), for drawing; zero for a fence.
    #[serde(default)]
    pub thickness_m: f64,
    /// What it looks like; a wall when omitted.
    #[serde(default)]
    pub kind: BarrierKind,
    /// Coulomb friction coefficient of the car body sliding along it (-); 0.5 when omitted.
    #[serde(default = "default_friction")]
    pub friction: f64,
    /// Coefficient of restitution of the car body striking it (-), 0 to 1: the ratio of the
    /// speeds away from and into the face; 0.2 when omitted.
    #[serde(default = "default_restitution")]
    pub restitution: f64,
}

/// Body-on-barrier friction when a file gives none: steel or plastic on concrete sliding,
/// about 0.4 to 0.6.
pub const DEFAULT_BARRIER_FRICTION: f64 = 0.5;
/// Restitution when a file gives none: a car crushing into a barrier keeps little of its
/// speed into the face (crash tests into rigid barriers rebound at 0.1 to 0.3 of it).
pub const DEFAULT_BARRIER_RESTITUTION: f64 = 0.2;

fn default_friction() -> f64 {
    DEFAULT_BARRIER_FRICTION
}

fn default_restitution() -> f64 {
    DEFAULT_BARRIER_RESTITUTION
}

impl BarrierSpec {
    /// A wall at the outer edge, `height_m` high, with the default friction and restitution.
    pub fn wall(height_m: f64) -> Self {
        Self {
            placement: BarrierPlacement::OuterEdge,
            offset_m: 0.0,
            height_m,
            thickness_m: 0.0,
            kind: BarrierKind::Wall,
            friction: DEFAULT_BARRIER_FRICTION,
            restitution: DEFAULT_BARRIER_RESTITUTION,
        }
    }

    pub(crate) fn validate(&self, v: &mut Validator) {
        v.in_range("offset_m", self.offset_m, 0.0, 1_000.0);
        v.in_range("height_m", self.height_m, 0.01, 100.0);
        v.in_range("thickness_m", self.thickness_m, 0.0, 100.0);
        v.in_range("friction", self.friction, 0.0, 2.0);
        v.in_range("restitution", self.restitution, 0.0, 1.0);
    }
}

/// Which side of the road, looking along the direction of travel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Side {
    /// The left.
    Left,
    /// The right.
    Right,
}

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

/// Per centre-line sample: the road's edges and the outer edges of the bands beside it,
/// `[left, right]`, and the horizontal unit vector to the left.
#[derive(Clone, Copy, Debug)]
pub(super) struct SampleEdges {
    pub(super) road: [DVec3; 2],
    pub(super) outer: [DVec3; 2],
    pub(super) horizontal_left: DVec3,
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

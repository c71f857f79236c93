//! What a layout says of a barrier beside the road ([`BarrierSpec`]): where it stands, how
//! high, what it looks like, and how the car body slides along and rebounds from it. What is
//! built from it is in [`super::barrier`].

use serde::{Deserialize, Serialize};

use crate::validate::Validator;

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

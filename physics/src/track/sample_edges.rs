//! The edges of a built track across each centre-line sample: where the road ends and where
//! the bands beside it (kerbs, verges, run-off) end. The barriers are laid along the outer
//! edges; the renderer places its roadside furniture beyond them.

use glam::DVec3;

/// Per centre-line sample: the road's edges and the outer edges of the bands beside it, each
/// `[left, right]` (world frame, m), and the horizontal unit vector to the left.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SampleEdges {
    /// The road's left and right edges.
    pub road: [DVec3; 2],
    /// The outer edges of the bands beside the road (the run-off's outer edges), left and
    /// right.
    pub outer: [DVec3; 2],
    /// Horizontal unit vector to the left of the direction of travel.
    pub horizontal_left: DVec3,
}

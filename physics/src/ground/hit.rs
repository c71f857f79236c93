//! Where a ray met the ground: the answer of every ground query ([`super::Ground`]).

use glam::DVec3;

use super::surface::Surface;

/// Where a ray met the ground.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GroundHit {
    /// The point hit, in the world frame (m).
    pub point: DVec3,
    /// Unit normal of the ground at that point, pointing up out of the ground.
    pub normal: DVec3,
    /// Distance from the ray's origin along its (unit) direction (m).
    pub distance: f64,
    /// The surface hit.
    pub surface: Surface,
}

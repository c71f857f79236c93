//! A face that alone answers a ray: its plane, for the tyre's patch probes' shortest path.
//!
//! Around a wheel's centre ray the four patch probes ([`crate::vehicle::tyre_envelope`]) lie
//! a few centimetres apart; on a road or a run-off they nearly always meet the face the centre
//! ray met, and where that face is alone in its column ([`super::sole_column`]) no other face
//! can answer them. [`Ground::sole_face`](super::Ground::sole_face) then hands the probe that
//! face's plane, and the probe meets the plane instead of casting a ray: the ground's answer
//! up to rounding (the ray-plane and the ray-triangle tests round differently, by about
//! 1e-16 m), without a lookup, a second containment test or the triangle's barycentric test.

use glam::DVec3;

use super::hit::GroundHit;
use super::neighbourhood::CoverBox;
use super::sole_column::SoleArea;
use super::surface::Surface;

/// One face of the ground alone in its column: its plane, normal and surface, and where it
/// alone answers a ray ([`SoleFace::holds`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SoleFace {
    /// A point of the face (one of its corners), in the world frame (m).
    point: DVec3,
    /// The face's unit normal, pointing up out of the ground.
    normal: DVec3,
    /// The face's surface.
    surface: Surface,
    /// The box a segment must lie in for the face's column to be known.
    cover: CoverBox,
    /// The face's sole area (its projection shrunk by a millimetre).
    area: SoleArea,
}

impl SoleFace {
    /// The face through `point` with unit `normal` and `surface`, alone in its column over
    /// `area` within `cover`.
    pub(crate) fn new(
        point: DVec3,
        normal: DVec3,
        surface: Surface,
        cover: CoverBox,
        area: SoleArea,
    ) -> Self {
        Self {
            point,
            normal,
            surface,
            cover,
            area,
        }
    }

    /// Whether the face is the only one a ray segment from `a` to `b` can meet: the segment
    /// lies in the face's cover box and, seen from above, inside the face's sole area.
    #[inline]
    #[must_use]
    pub fn holds(&self, a: DVec3, b: DVec3) -> bool {
        self.cover.holds(a, b) && self.area.holds(a, b)
    }

    /// Where the ray from `origin` along the unit `direction` crosses the face's plane, from
    /// either side, at a distance in `[0, max_distance)` (the ground's rule), with the face's
    /// own normal; `None` when it does not (parallel, behind, or too far). For a ray that
    /// [`SoleFace::holds`], a crossing is the ground's answer up to rounding; without one the
    /// ground's full query answers it.
    #[inline]
    #[must_use]
    pub fn hit(&self, origin: DVec3, direction: DVec3, max_distance: f64) -> Option<GroundHit> {
        let towards = self.normal.dot(direction);
        let distance = (self.point - origin).dot(self.normal) / towards;
        (distance >= 0.0 && distance < max_distance).then(|| GroundHit {
            point: origin + direction * distance,
            normal: self.normal,
            distance,
            surface: self.surface,
        })
    }
}

//! The one question physics asks the ground: where does this ray first hit you, with which
//! normal, on which surface? ([`Ground`], answered with a [`GroundHit`].)

use glam::DVec3;

pub use super::hit::GroundHit;
use super::neighbourhood::RayHint;
use super::sole_face::SoleFace;
use super::solids::Solids;
use super::walls::Walls;

/// Anything a wheel can stand on. World frame: right-handed, z up.
pub trait Ground {
    /// First hit of the ray from `origin` along the unit vector `direction`, no farther than
    /// `max_distance`, or `None`. Must not allocate: it runs for every wheel at 1 kHz.
    fn ray_cast(&self, origin: DVec3, direction: DVec3, max_distance: f64) -> Option<GroundHit>;

    /// Exactly [`Ground::ray_cast`], possibly faster: `hint` remembers where the previous
    /// query of the same source hit (one hint per wheel or probe, kept between ticks).
    /// A hint never changes the result. The default ignores it.
    fn ray_cast_hinted(
        &self,
        origin: DVec3,
        direction: DVec3,
        max_distance: f64,
        hint: &mut RayHint,
    ) -> Option<GroundHit> {
        let _ = hint;
        self.ray_cast(origin, direction, max_distance)
    }

    /// [`Ground::ray_cast_hinted`]'s point, distance and surface; the normal may be that of
    /// the face hit rather than the ground's smoothed normal there (a mesh skips blending its
    /// corner normals). For probes that need only where the ground is and whether the face
    /// hit could be stood on, as the tyre's patch probes. The default is `ray_cast_hinted`.
    fn ray_cast_face_hinted(
        &self,
        origin: DVec3,
        direction: DVec3,
        max_distance: f64,
        hint: &mut RayHint,
    ) -> Option<GroundHit> {
        self.ray_cast_hinted(origin, direction, max_distance, hint)
    }

    /// The face `hint` remembers (the one a query through it last met) when it is alone in
    /// its column: for a ray segment [`SoleFace::holds`], where the ray crosses the face's
    /// plane ([`SoleFace::hit`]) is [`Ground::ray_cast_face_hinted`]'s answer, up to rounding;
    /// where it does not cross, ask that query. `None` when this is not known. For probes
    /// beside a ray just cast (the tyre's patch probes beside its centre ray). The default
    /// knows nothing.
    fn sole_face(&self, hint: RayHint) -> Option<SoleFace> {
        let _ = hint;
        None
    }

    /// The walls and barriers the car body collides with, if there are any. The default has
    /// none.
    fn walls(&self) -> Option<&Walls> {
        None
    }

    /// The solid objects (of any shape) the car body collides with, if there are any. The
    /// default has none.
    fn solids(&self) -> Option<&Solids> {
        None
    }
}

//! The ground: what a wheel or the body touches, and what it is made of.
//!
//! Physics asks the ground one question, through the [`Ground`] trait: where does this ray
//! first hit you, with which normal, on which [`Surface`]? Implementations: [`FlatGround`]
//! (an infinite plane, for tests) and, in [`mesh`], [`TriangleMesh`]: a triangle mesh with a
//! bounding-volume hierarchy and a surface per triangle, built from a track layout
//! (`crate::track`). Walls and barriers, which only the car body meets, are a second kind of
//! geometry a ground may carry: [`Ground::walls`] gives them ([`walls`]).

pub mod mesh;
pub mod neighbourhood;
mod ray_triangle;
pub mod walls;

pub use mesh::{MeshError, TriangleMesh};
pub use neighbourhood::RayHint;
pub use walls::{WallHit, WallRun, WallSegment, Walls};

use glam::DVec3;
use serde::{Deserialize, Serialize};

/// What the road is made of. Each surface has fixed [`SurfaceProperties`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Surface {
    /// Dry asphalt: the reference surface of tyre data.
    #[default]
    Asphalt,
    /// Wet asphalt.
    WetAsphalt,
    /// Dry concrete.
    Concrete,
    /// Painted kerb stones: grippy but bumpy.
    Kerb,
    /// Grass.
    Grass,
    /// Loose gravel (run-off traps).
    Gravel,
    /// Sand.
    Sand,
    /// Ice.
    Ice,
}

/// How a surface treats a tyre.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SurfaceProperties {
    /// Friction relative to dry asphalt (multiplies the tyre model's friction).
    pub friction_scale: f64,
    /// Rolling-resistance coefficient added to the tyre's own (force per unit load).
    pub extra_rolling_resistance: f64,
    /// Drag of a loose surface on a wheel rolling through it (N per N of load per m/s),
    /// opposing the wheel's velocity.
    pub loose_drag_s_per_m: f64,
}

impl Surface {
    /// Every surface, for tables and tests.
    pub const ALL: [Surface; 8] = [
        Surface::Asphalt,
        Surface::WetAsphalt,
        Surface::Concrete,
        Surface::Kerb,
        Surface::Grass,
        Surface::Gravel,
        Surface::Sand,
        Surface::Ice,
    ];

    /// The surface's properties.
    ///
    /// Friction follows the Buffalo tyre model's road coefficients (`docs/sources.md`: 0.85
    /// dry, 0.3 wet, 0.1 ice), expressed relative to dry asphalt: wet 0.3 / 0.85 = 0.35,
    /// ice 0.1 / 0.85 = 0.12. The others are typical values from the vehicle-dynamics
    /// literature (grass 0.45 to 0.55, gravel 0.5 to 0.6 with strong rolling drag, sand
    /// lower grip and the most drag), chosen to rank as drivers expect.
    pub fn properties(self) -> SurfaceProperties {
        let (friction_scale, extra_rolling_resistance, loose_drag_s_per_m) = match self {
            Surface::Asphalt => (1.0, 0.0, 0.0),
            Surface::WetAsphalt => (0.3 / 0.85, 0.002, 0.0),
            Surface::Concrete => (0.95, 0.0, 0.0),
            Surface::Kerb => (0.9, 0.004, 0.0),
            Surface::Grass => (0.5, 0.03, 0.01),
            Surface::Gravel => (0.55, 0.08, 0.04),
            Surface::Sand => (0.45, 0.15, 0.08),
            Surface::Ice => (0.1 / 0.85, 0.0, 0.0),
        };
        SurfaceProperties {
            friction_scale,
            extra_rolling_resistance,
            loose_drag_s_per_m,
        }
    }
}

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

    /// The walls and barriers the car body collides with, if there are any. The default has
    /// none.
    fn walls(&self) -> Option<&Walls> {
        None
    }
}

/// An infinite horizontal plane at height `z` of one surface: for tests and the empty world.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FlatGround {
    /// Height of the plane (m).
    pub z: f64,
    /// Its surface.
    pub surface: Surface,
}

impl Default for FlatGround {
    fn default() -> Self {
        Self {
            z: 0.0,
            surface: Surface::Asphalt,
        }
    }
}

impl Ground for FlatGround {
    fn ray_cast(&self, origin: DVec3, direction: DVec3, max_distance: f64) -> Option<GroundHit> {
        // Only rays going down can hit the plane from above.
        if direction.z >= -1e-12 || origin.z < self.z {
            return None;
        }
        let distance = (origin.z - self.z) / -direction.z;
        (distance <= max_distance).then(|| GroundHit {
            point: origin + direction * distance,
            normal: DVec3::Z,
            distance,
            surface: self.surface,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_ground_hits_below_and_misses_above() {
        let g = FlatGround::default();
        let hit = g
            .ray_cast(DVec3::new(1.0, 2.0, 0.5), -DVec3::Z, 1.0)
            .expect("hit");
        assert!((hit.distance - 0.5).abs() < 1e-15);
        assert_eq!(hit.normal, DVec3::Z);
        assert!(
            g.ray_cast(DVec3::new(0.0, 0.0, 0.5), -DVec3::Z, 0.4)
                .is_none()
        );
        assert!(
            g.ray_cast(DVec3::new(0.0, 0.0, 0.5), DVec3::Z, 9.0)
                .is_none()
        );
        assert!(
            g.ray_cast(DVec3::new(0.0, 0.0, -0.5), -DVec3::Z, 9.0)
                .is_none()
        );
    }

    #[test]
    fn friction_ranks_as_drivers_expect() {
        let mu = |s: Surface| s.properties().friction_scale;
        assert!((mu(Surface::Asphalt) - 1.0).abs() < 1e-15);
        // The Buffalo tyre model: 0.85 dry, 0.3 wet, 0.1 ice.
        assert!((mu(Surface::WetAsphalt) * 0.85 - 0.3).abs() < 1e-12);
        assert!((mu(Surface::Ice) * 0.85 - 0.1).abs() < 1e-12);
        assert!(mu(Surface::Ice) < mu(Surface::WetAsphalt));
        assert!(mu(Surface::WetAsphalt) < mu(Surface::Grass));
        assert!(mu(Surface::Sand) < mu(Surface::Gravel));
        for s in Surface::ALL {
            let p = s.properties();
            assert!(p.friction_scale > 0.0 && p.extra_rolling_resistance >= 0.0);
        }
    }
}

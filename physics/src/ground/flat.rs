//! [`FlatGround`]: an infinite horizontal plane, for tests and the empty world.

use glam::DVec3;

use super::query::{Ground, GroundHit};
use super::surface::Surface;

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
}

//! The ray-triangle test of the hinted ground queries: `parry3d`'s
//! (`local_ray_intersection_with_triangle`), the same operations in the same order, so the time
//! of impact is the same to the last bit, but only the time of impact. Parry also normalises
//! the triangle's normal and scales the barycentric coordinates of every hit, which the
//! ground does not use (each triangle's upward normal is computed once, at build time).

use glam::DVec3;

/// The time of impact `t` in `[0, max_t]` at which `origin + t * dir` crosses the triangle
/// `a, b, c` (either side), or `None`: exactly what parry's `Triangle::cast_local_ray` gives.
#[inline]
pub(crate) fn ray_triangle_toi(
    [a, b, c]: [DVec3; 3],
    origin: DVec3,
    dir: DVec3,
    max_t: f64,
) -> Option<f64> {
    let ab = b - a;
    let ac = c - a;
    let n = ab.cross(ac);
    let d = n.dot(dir);
    // The ray is parallel to the triangle's plane.
    if d == 0.0 {
        return None;
    }
    let ap = origin - a;
    let t = ap.dot(n);
    // The ray starts beyond the plane, moving away from it.
    if (t < 0.0 && d < 0.0) || (t > 0.0 && d > 0.0) {
        return None;
    }
    let d = d.abs();
    let e = -dir.cross(ap);
    // The barycentric coordinates (scaled by d) must lie inside the triangle.
    let (v, w) = if t < 0.0 {
        (-ac.dot(e), ab.dot(e))
    } else {
        (ac.dot(e), -ab.dot(e))
    };
    if v < 0.0 || v > d || w < 0.0 || v + w > d {
        return None;
    }
    let invd = 1.0 / d;
    let toi = if t < 0.0 { -t * invd } else { t * invd };
    (toi <= max_t).then_some(toi)
}

#[cfg(test)]
mod tests {
    use super::*;
    use parry3d_f64::query::{Ray, RayCast};
    use parry3d_f64::shape::Triangle;

    fn parry(tri: [DVec3; 3], origin: DVec3, dir: DVec3, max_t: f64) -> Option<f64> {
        Triangle::new(tri[0], tri[1], tri[2]).cast_local_ray(&Ray::new(origin, dir), max_t, true)
    }

    /// A small deterministic generator (64-bit LCG), values in [-1, 1).
    struct Lcg(u64);
    impl Lcg {
        fn next(&mut self) -> f64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            #[allow(clippy::cast_precision_loss)]
            let unit = (self.0 >> 11) as f64 / (1u64 << 53) as f64;
            2.0 * unit - 1.0
        }
        fn vec(&mut self, scale: f64) -> DVec3 {
            DVec3::new(self.next(), self.next(), self.next()) * scale
        }
    }

    #[test]
    fn the_same_hits_and_times_of_impact_as_parry_to_the_bit() {
        let mut rng = Lcg(12_345);
        let (mut hits, mut cases) = (0, 0);
        for _ in 0..200_000 {
            // Ground-like triangles (a few metres, nearly flat) and wheel-like rays (mostly
            // down), and arbitrary ones.
            let flat = rng.next() > -0.5;
            let a = rng.vec(20.0);
            let tri = if flat {
                [
                    a,
                    a + DVec3::new(rng.next() * 5.0, rng.next() * 5.0, rng.next() * 0.3),
                    a + DVec3::new(rng.next() * 5.0, rng.next() * 5.0, rng.next() * 0.3),
                ]
            } else {
                [a, rng.vec(20.0), rng.vec(20.0)]
            };
            let centre = (tri[0] + tri[1] + tri[2]) / 3.0;
            let origin = if flat {
                centre + DVec3::new(rng.next() * 2.0, rng.next() * 2.0, 1.0 + rng.next())
            } else {
                centre + rng.vec(4.0)
            };
            let dir = if flat {
                DVec3::new(rng.next() * 0.2, rng.next() * 0.2, -1.0)
            } else {
                rng.vec(1.0)
            };
            let max_t = 4.0 * (rng.next() + 1.0);
            let ours = ray_triangle_toi(tri, origin, dir, max_t);
            let theirs = parry(tri, origin, dir, max_t);
            assert_eq!(
                ours.map(f64::to_bits),
                theirs.map(f64::to_bits),
                "{tri:?} {origin} {dir} {max_t}"
            );
            cases += 1;
            hits += usize::from(ours.is_some());
        }
        // Both outcomes are well represented.
        assert!(
            hits > cases / 5 && hits < cases * 4 / 5,
            "{hits} of {cases}"
        );
    }

    #[test]
    fn edges_vertices_parallel_rays_and_the_limit() {
        let tri = [DVec3::ZERO, DVec3::X, DVec3::Y];
        let down = DVec3::NEG_Z;
        let cases = [
            (DVec3::new(0.25, 0.25, 1.0), down, 2.0),
            (DVec3::new(0.0, 0.0, 1.0), down, 2.0),
            (DVec3::new(0.5, 0.5, 1.0), down, 2.0),
            (DVec3::new(1.0, 0.0, 1.0), down, 2.0),
            (DVec3::new(0.25, 0.25, 1.0), down, 1.0),
            (DVec3::new(0.25, 0.25, 1.0), down, 0.999_999_999),
            (DVec3::new(0.25, 0.25, -1.0), down, 2.0),
            (DVec3::new(0.25, 0.25, -1.0), DVec3::Z, 2.0),
            (DVec3::new(0.25, 0.25, 0.0), down, 2.0),
            (DVec3::new(0.25, 0.25, 1.0), DVec3::X, 2.0),
            (DVec3::new(-0.1, 0.5, 1.0), down, 2.0),
        ];
        for (origin, dir, max_t) in cases {
            assert_eq!(
                ray_triangle_toi(tri, origin, dir, max_t).map(f64::to_bits),
                parry(tri, origin, dir, max_t).map(f64::to_bits),
                "{origin} {dir} {max_t}"
            );
        }
        assert_eq!(
            ray_triangle_toi(tri, DVec3::new(0.25, 0.25, 1.0), down, 2.0),
            Some(1.0)
        );
    }
}

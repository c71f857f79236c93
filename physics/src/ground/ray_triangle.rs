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
    use proptest::prelude::*;

    fn parry(tri: [DVec3; 3], origin: DVec3, dir: DVec3, max_t: f64) -> Option<f64> {
        Triangle::new(tri[0], tri[1], tri[2]).cast_local_ray(&Ray::new(origin, dir), max_t, true)
    }

    fn vec3(scale: f64) -> impl Strategy<Value = DVec3> {
        (-scale..scale, -scale..scale, -scale..scale).prop_map(|(x, y, z)| DVec3::new(x, y, z))
    }

    /// A ground-like triangle (a few metres, nearly flat) and a wheel-like ray (mostly down,
    /// starting above it), or an arbitrary triangle and ray; and the distance limit.
    fn case() -> impl Strategy<Value = ([DVec3; 3], DVec3, DVec3, f64)> {
        let flat = (
            vec3(20.0),
            -5.0..5.0,
            -5.0..5.0,
            -0.3..0.3,
            -5.0..5.0,
            -5.0..5.0,
            -0.3..0.3,
        )
            .prop_flat_map(|(a, x1, y1, z1, x2, y2, z2)| {
                let tri = [a, a + DVec3::new(x1, y1, z1), a + DVec3::new(x2, y2, z2)];
                let centre = (tri[0] + tri[1] + tri[2]) / 3.0;
                (
                    Just(tri),
                    (-2.0..2.0, -2.0..2.0, 0.0..2.0)
                        .prop_map(move |(x, y, z)| centre + DVec3::new(x, y, z)),
                    (-0.2..0.2, -0.2..0.2).prop_map(|(x, y)| DVec3::new(x, y, -1.0)),
                    0.0..8.0,
                )
            });
        let arbitrary = (
            vec3(20.0),
            vec3(20.0),
            vec3(20.0),
            vec3(4.0),
            vec3(1.0),
            0.0..8.0,
        )
            .prop_map(|(a, b, c, offset, dir, max_t)| {
                ([a, b, c], (a + b + c) / 3.0 + offset, dir, max_t)
            });
        prop_oneof![3 => flat, 1 => arbitrary]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        #[test]
        fn the_same_hits_and_times_of_impact_as_parry_to_the_bit(
            (tri, origin, dir, max_t) in case()
        ) {
            prop_assert_eq!(
                ray_triangle_toi(tri, origin, dir, max_t).map(f64::to_bits),
                parry(tri, origin, dir, max_t).map(f64::to_bits)
            );
        }
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

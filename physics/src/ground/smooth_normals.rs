//! Smooth normals for a triangle mesh: one normal per triangle corner, computed once when the
//! mesh is built, and interpolated across a triangle at a hit point.
//!
//! A flat normal per triangle jumps at every edge, and so would a wheel's load. Each corner
//! instead takes the angle-weighted mean of the up-turned normals of the triangles around its
//! vertex (Thürmer & Wüthrich, "Computing vertex normals from polygonal meshes", 1998: weighting
//! by the angle at the vertex makes the result independent of how a surface is cut into
//! triangles, which matters for a track's long thin strips), counting only the triangles whose
//! normal lies within [`CREASE_ANGLE_DEG`] of the corner's own triangle. Folds of the road
//! surface (grade and banking changes between centre-line samples, twisted quads: fractions of
//! a degree to a few degrees) are smoothed; steeper edges are built features — a kerb's face
//! (11 degrees), the foot of a wall or a verge bank — and stay sharp, so a wheel beside them
//! does not lean on a normal borrowed from them.
//!
//! Vertices at the same position are one vertex here even when the mesh lists them twice (an
//! imported scene often does), so two triangles touching at an edge smooth across it whichever
//! way they were indexed.
//!
//! At a hit the three corner normals are blended by the point's barycentric coordinates and
//! normalised: the normal is continuous across every smoothed edge.

use std::collections::HashMap;

use glam::DVec3;

/// Edges between triangles whose normals differ by more than this (degrees) stay sharp.
pub const CREASE_ANGLE_DEG: f64 = 10.0;

/// The normal of each triangle corner (`[a, b, c]` in the triangle's order), pointing up.
/// `face_normals` are the triangles' up-turned unit normals (`+z` for a degenerate one).
pub(super) fn corner_normals(
    vertices: &[DVec3],
    triangles: &[[u32; 3]],
    face_normals: &[DVec3],
) -> Vec<[DVec3; 3]> {
    // Weld: the first index of each distinct position stands for all vertices there.
    let mut first_at: HashMap<[u64; 3], u32> = HashMap::with_capacity(vertices.len());
    let canonical: Vec<u32> = vertices
        .iter()
        .zip(0u32..)
        .map(|(v, i)| {
            // -0.0 and 0.0 are the same place.
            let key = [v.x, v.y, v.z].map(|c| (c + 0.0).to_bits());
            *first_at.entry(key).or_insert(i)
        })
        .collect();
    // Incident (triangle, corner angle) lists per canonical vertex, compressed rows.
    let mut start = vec![0u32; vertices.len() + 1];
    for tri in triangles {
        for &v in tri {
            start[canonical[v as usize] as usize + 1] += 1;
        }
    }
    for i in 0..vertices.len() {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut incident = vec![(0u32, 0.0f64); start[vertices.len()] as usize];
    for (t, tri) in (0u32..).zip(triangles) {
        for k in 0..3 {
            let v = canonical[tri[k] as usize] as usize;
            let angle = corner_angle(vertices, tri, k);
            incident[fill[v] as usize] = (t, angle);
            fill[v] += 1;
        }
    }
    let crease_cos = CREASE_ANGLE_DEG.to_radians().cos();
    triangles
        .iter()
        .zip(face_normals)
        .map(|(tri, &own)| {
            tri.map(|v| {
                let v = canonical[v as usize] as usize;
                let row = &incident[start[v] as usize..start[v + 1] as usize];
                let (sum, all_own) = row
                    .iter()
                    .map(|&(u, angle)| (face_normals[u as usize], angle))
                    .filter(|&(n, _)| n.dot(own) >= crease_cos)
                    .fold((DVec3::ZERO, true), |(sum, all_own), (n, angle)| {
                        (sum + n * angle, all_own && n == own)
                    });
                // Inside a plane the corner keeps the face's normal bit for bit.
                if all_own {
                    own
                } else {
                    sum.try_normalize().unwrap_or(own)
                }
            })
        })
        .collect()
}

/// The angle (rad) of triangle `tri` at its corner `k`; zero for a degenerate corner.
fn corner_angle(vertices: &[DVec3], tri: &[u32; 3], k: usize) -> f64 {
    let p = vertices[tri[k] as usize];
    let a = vertices[tri[(k + 1) % 3] as usize] - p;
    let b = vertices[tri[(k + 2) % 3] as usize] - p;
    let angle = a.angle_between(b);
    if angle.is_finite() { angle } else { 0.0 }
}

/// The smooth normal at `point` on the triangle `[a, b, c]` whose corners have the normals
/// `corner_normals`: barycentric blend, normalised; `fallback` (the flat normal) when the
/// triangle is degenerate or the blend vanishes.
#[inline]
pub(super) fn interpolate(
    [a, b, c]: [DVec3; 3],
    corner_normals: &[DVec3; 3],
    point: DVec3,
    fallback: DVec3,
) -> DVec3 {
    let [na, nb, nc] = *corner_normals;
    // A flat patch (every corner the face's own normal) needs no blend: the same bits.
    if na == nb && nb == nc {
        return na;
    }
    let (e1, e2, p) = (b - a, c - a, point - a);
    let (d11, d12, d22) = (e1.dot(e1), e1.dot(e2), e2.dot(e2));
    let (p1, p2) = (p.dot(e1), p.dot(e2));
    let det = d11 * d22 - d12 * d12;
    if det.abs() <= f64::EPSILON * d11 * d22 || !det.is_finite() {
        return fallback;
    }
    // Clamped to the triangle: a hit reported on an edge may lie a rounding outside it.
    let v = ((d22 * p1 - d12 * p2) / det).clamp(0.0, 1.0);
    let w = ((d11 * p2 - d12 * p1) / det).clamp(0.0, 1.0 - v);
    let u = 1.0 - v - w;
    (na * u + nb * v + nc * w)
        .try_normalize()
        .unwrap_or(fallback)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn up(n: DVec3) -> DVec3 {
        if n.z < 0.0 { -n } else { n }
    }

    fn faces(vertices: &[DVec3], triangles: &[[u32; 3]]) -> Vec<DVec3> {
        triangles
            .iter()
            .map(|&[a, b, c]| {
                let (a, b, c) = (
                    vertices[a as usize],
                    vertices[b as usize],
                    vertices[c as usize],
                );
                up((b - a).cross(c - a).normalize())
            })
            .collect()
    }

    /// Two squares meeting at x = 0 along y: flat for x < 0, rising at `deg` for x > 0. The
    /// right square's vertices on the fold are listed again (welded by position).
    fn fold(deg: f64) -> (Vec<DVec3>, Vec<[u32; 3]>) {
        let (s, c) = deg.to_radians().sin_cos();
        let v = vec![
            DVec3::new(-1.0, 0.0, 0.0),
            DVec3::new(0.0, 0.0, 0.0),
            DVec3::new(0.0, 1.0, 0.0),
            DVec3::new(-1.0, 1.0, 0.0),
            DVec3::new(0.0, 0.0, 0.0),
            DVec3::new(c, 0.0, s),
            DVec3::new(c, 1.0, s),
            DVec3::new(0.0, 1.0, 0.0),
        ];
        let t = vec![[0, 1, 2], [0, 2, 3], [4, 5, 6], [4, 6, 7]];
        (v, t)
    }

    #[test]
    fn a_gentle_fold_is_smoothed_and_a_steep_one_kept() {
        let (v, t) = fold(4.0);
        let f = faces(&v, &t);
        let n = corner_normals(&v, &t, &f);
        // On the fold line both sides share the mean direction, tilted by half the fold
        // (both sides' angles at x = 0 sum to 90 degrees each side of the line at y = 0).
        let on_fold = n[0][1];
        assert!(
            (on_fold - n[2][0]).length() < 1e-12,
            "welded: same normal both sides"
        );
        let tilt = on_fold.angle_between(DVec3::Z).to_degrees();
        assert!((tilt - 2.0).abs() < 1e-9, "{tilt}");
        // Away from the fold the flat side keeps +z.
        assert!((n[0][0] - DVec3::Z).length() < 1e-12);
        // A 30-degree fold (a bank or wall) is a crease: each side keeps its own normal.
        let (v, t) = fold(30.0);
        let f = faces(&v, &t);
        let n = corner_normals(&v, &t, &f);
        assert_eq!(n[0][1], f[0]);
        assert_eq!(n[2][0], f[2]);
    }

    #[test]
    fn interpolation_is_continuous_across_the_fold_and_exact_on_flat_ground() {
        let (v, t) = fold(4.0);
        let f = faces(&v, &t);
        let n = corner_normals(&v, &t, &f);
        let corners = |i: usize| t[i].map(|k| v[k as usize]);
        // Just left and just right of the fold, at y = 0.3 (triangles 0 and 2 or their
        // partners hold that point; use the ones that do).
        let left = interpolate(corners(0), &n[0], DVec3::new(-1e-9, 0.3, 0.0), f[0]);
        let right = interpolate(corners(3), &n[3], DVec3::new(1e-9, 0.3, 0.0), f[3]);
        assert!((left - right).length() < 1e-8, "{left} {right}");
        // A flat patch keeps exactly +z.
        let flat = [DVec3::Z; 3];
        assert_eq!(
            interpolate(corners(0), &flat, DVec3::new(-0.5, 0.2, 0.0), DVec3::Z),
            DVec3::Z
        );
        // A degenerate triangle falls back to the flat normal.
        let line = [DVec3::ZERO, DVec3::X, DVec3::X * 2.0];
        assert_eq!(
            interpolate(line, &n[0], DVec3::X, DVec3::Y),
            DVec3::Y,
            "degenerate"
        );
    }
}

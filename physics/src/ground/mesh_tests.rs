//! Tests of [`super::TriangleMesh`]: hits, build errors, the BVH against brute force, and the
//! hinted queries against the BVH.

use super::*;

/// Two triangles forming the unit square [0,1]^2 at z = 0: the lower-right one asphalt
/// wound clockwise from above (downward normal), the upper-left one ice wound
/// counter-clockwise.
fn square() -> TriangleMesh {
    TriangleMesh::new(
        vec![
            DVec3::new(0.0, 0.0, 0.0),
            DVec3::new(1.0, 0.0, 0.0),
            DVec3::new(1.0, 1.0, 0.0),
            DVec3::new(0.0, 1.0, 0.0),
        ],
        vec![[0, 2, 1], [0, 2, 3]],
        vec![Surface::Asphalt, Surface::Ice],
    )
    .expect("valid mesh")
}

#[test]
fn hits_point_normal_distance_and_surface() {
    let mesh = square();
    let hit = mesh
        .ray_cast(DVec3::new(0.75, 0.25, 2.0), DVec3::NEG_Z, 5.0)
        .expect("hit");
    assert!((hit.distance - 2.0).abs() < 1e-12);
    assert!((hit.point - DVec3::new(0.75, 0.25, 0.0)).length() < 1e-12);
    assert_eq!(hit.normal, DVec3::Z, "downward winding is flipped up");
    assert_eq!(hit.surface, Surface::Asphalt);
    let hit = mesh
        .ray_cast(DVec3::new(0.25, 0.75, 1.0), DVec3::NEG_Z, 5.0)
        .expect("hit");
    assert_eq!(hit.surface, Surface::Ice);
    assert_eq!(hit.normal, DVec3::Z);
}

#[test]
fn misses_outside_beyond_range_and_upward() {
    let mesh = square();
    assert!(
        mesh.ray_cast(DVec3::new(1.5, 0.5, 1.0), DVec3::NEG_Z, 5.0)
            .is_none()
    );
    assert!(
        mesh.ray_cast(DVec3::new(0.5, 0.5, 1.0), DVec3::NEG_Z, 0.9)
            .is_none()
    );
    assert!(
        mesh.ray_cast(DVec3::new(0.5, 0.5, 1.0), DVec3::Z, 5.0)
            .is_none()
    );
    assert!(
        mesh.ray_cast(DVec3::new(f64::NAN, 0.5, 1.0), DVec3::NEG_Z, 5.0)
            .is_none()
    );
}

#[test]
fn slanted_ray_and_tilted_triangle() {
    // A plane z = 0.5 x over [0, 4] x [-1, 1], wound so its raw normal points down.
    let mesh = TriangleMesh::new(
        vec![
            DVec3::new(0.0, -1.0, 0.0),
            DVec3::new(4.0, -1.0, 2.0),
            DVec3::new(4.0, 1.0, 2.0),
            DVec3::new(0.0, 1.0, 0.0),
        ],
        vec![[0, 2, 1], [0, 3, 2]],
        vec![Surface::Grass, Surface::Gravel],
    )
    .expect("valid");
    let dir = DVec3::new(1.0, 0.0, -1.0).normalize();
    let origin = DVec3::new(0.0, 0.2, 3.0);
    let hit = mesh.ray_cast(origin, dir, 10.0).expect("hit");
    // x + 0.5 x = 3 -> x = 2, z = 1.
    assert!((hit.point - DVec3::new(2.0, 0.2, 1.0)).length() < 1e-12);
    assert!((hit.distance - 2.0 * 2f64.sqrt()).abs() < 1e-12);
    let expected = DVec3::new(-0.5, 0.0, 1.0).normalize();
    assert!((hit.normal - expected).length() < 1e-12);
    assert_eq!(hit.surface, Surface::Gravel);
}

#[test]
fn build_errors_do_not_panic() {
    let v = || vec![DVec3::ZERO, DVec3::X, DVec3::Y];
    assert_eq!(
        TriangleMesh::new(vec![], vec![], vec![]).unwrap_err(),
        MeshError::Empty
    );
    assert_eq!(
        TriangleMesh::new(v(), vec![], vec![]).unwrap_err(),
        MeshError::Empty
    );
    assert_eq!(
        TriangleMesh::new(v(), vec![[0, 1, 3]], vec![Surface::Asphalt]).unwrap_err(),
        MeshError::IndexOutOfRange {
            triangle: 0,
            index: 3,
            vertex_count: 3
        }
    );
    let mut bad = v();
    bad[1].y = f64::INFINITY;
    assert_eq!(
        TriangleMesh::new(bad, vec![[0, 1, 2]], vec![Surface::Asphalt]).unwrap_err(),
        MeshError::NonFiniteVertex { index: 1 }
    );
    assert_eq!(
        TriangleMesh::new(v(), vec![[0, 1, 2]], vec![]).unwrap_err(),
        MeshError::SurfaceCountMismatch {
            triangles: 1,
            surfaces: 0
        }
    );
    // A degenerate triangle is accepted and simply never hit.
    let mesh = TriangleMesh::new(
        vec![DVec3::ZERO, DVec3::X, DVec3::X * 2.0],
        vec![[0, 1, 2]],
        vec![Surface::Sand],
    )
    .expect("degenerate but valid");
    assert_eq!(mesh.normals()[0], DVec3::Z);
    assert!(
        mesh.ray_cast(DVec3::new(0.5, 0.0, 1.0), DVec3::NEG_Z, 2.0)
            .is_none()
    );
}

/// Small deterministic generator for the random-ray test.
struct XorShift(u64);
impl XorShift {
    fn unit(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    fn byte(&mut self) -> u8 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0.to_le_bytes()[7]
    }
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
}

/// Möller-Trumbore over every triangle: the reference the BVH must agree with.
fn brute_force(mesh: &TriangleMesh, o: DVec3, d: DVec3, max: f64) -> Option<(usize, f64)> {
    let v = mesh.vertices();
    let mut best: Option<(usize, f64)> = None;
    for (i, &[a, b, c]) in mesh.triangles().iter().enumerate() {
        let (a, b, c) = (v[a as usize], v[b as usize], v[c as usize]);
        let e1 = b - a;
        let e2 = c - a;
        let p = d.cross(e2);
        let det = e1.dot(p);
        if det.abs() < 1e-14 {
            continue;
        }
        let s = o - a;
        let u = s.dot(p) / det;
        let q = s.cross(e1);
        let w = d.dot(q) / det;
        let t = e2.dot(q) / det;
        if u >= 0.0
            && w >= 0.0
            && u + w <= 1.0
            && t >= 0.0
            && t <= max
            && best.is_none_or(|(_, bt)| t < bt)
        {
            best = Some((i, t));
        }
    }
    best
}

#[test]
fn bvh_agrees_with_brute_force_on_random_rays() {
    // A bumpy 20 x 20 grid with random heights and random surfaces.
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let n = 21;
    let mut vertices = Vec::new();
    for j in 0..n {
        for i in 0..n {
            vertices.push(DVec3::new(
                f64::from(i) * 2.0,
                f64::from(j) * 2.0,
                rng.range(-0.5, 0.5),
            ));
        }
    }
    let mut triangles = Vec::new();
    let mut surfaces = Vec::new();
    for j in 0..n - 1 {
        for i in 0..n - 1 {
            let a = j * n + i;
            let (b, c, d) = (a + 1, a + n, a + n + 1);
            triangles.push([a, b, d]);
            triangles.push([a, d, c]);
            for _ in 0..2 {
                surfaces.push(Surface::ALL[usize::from(rng.byte()) % 8]);
            }
        }
    }
    let mesh = TriangleMesh::new(vertices, triangles, surfaces).expect("valid");
    let mut hits = 0;
    for _ in 0..2000 {
        let o = DVec3::new(
            rng.range(-5.0, 45.0),
            rng.range(-5.0, 45.0),
            rng.range(0.6, 5.0),
        );
        let d = DVec3::new(rng.range(-0.5, 0.5), rng.range(-0.5, 0.5), -1.0).normalize();
        let max = rng.range(0.5, 8.0);
        let bvh = mesh.ray_cast_triangle(o, d, max);
        let brute = brute_force(&mesh, o, d, max);
        match (bvh, brute) {
            (Some((i, hit)), Some((j, t))) => {
                hits += 1;
                assert!((hit.distance - t).abs() < 1e-9, "{o} {d}: {hit:?} vs {t}");
                // On a shared edge either neighbour is a correct answer.
                if i == j {
                    assert_eq!(hit.surface, mesh.surfaces()[j]);
                }
                assert!(hit.normal.z > 0.0);
            }
            (None, None) => {}
            (a, b) => {
                // Only a grazing hit within rounding of the range limit may differ.
                let t = a
                    .map(|(_, h)| h.distance)
                    .or(b.map(|(_, t)| t))
                    .unwrap_or(0.0);
                assert!((t - max).abs() < 1e-9, "{o} {d} {max}: {a:?} vs {b:?}");
            }
        }
    }
    assert!(hits > 500, "the test should mostly hit: {hits}");
}

/// The bumpy random grid of the brute-force test, `n` vertices a side, `spacing` m apart.
fn bumpy_grid(rng: &mut XorShift, n: u32, spacing: f64) -> TriangleMesh {
    let mut vertices = Vec::new();
    for j in 0..n {
        for i in 0..n {
            vertices.push(DVec3::new(
                f64::from(i) * spacing,
                f64::from(j) * spacing,
                rng.range(-0.5, 0.5),
            ));
        }
    }
    let mut triangles = Vec::new();
    for j in 0..n - 1 {
        for i in 0..n - 1 {
            let a = j * n + i;
            let (b, c, d) = (a + 1, a + n, a + n + 1);
            triangles.push([a, b, d]);
            triangles.push([a, d, c]);
        }
    }
    let surfaces = (0..triangles.len())
        .map(|_| Surface::ALL[usize::from(rng.byte()) % 8])
        .collect();
    TriangleMesh::new(vertices, triangles, surfaces).expect("valid")
}

#[test]
fn hinted_and_face_queries_equal_the_bvh_along_a_path_and_with_any_hint() {
    let mut rng = XorShift(0x2545_F491_4F6C_DD1D);
    let mesh = bumpy_grid(&mut rng, 41, 1.0);
    let (largest, mean) = mesh.neighbourhood_size();
    assert!(largest >= 1 && mean >= 1.0);
    // Nothing overlaps in the grid: every triangle is alone in its column, and the
    // hinted queries take the shortest path.
    assert_eq!(mesh.sole_triangles(), mesh.triangle_count());
    wander_and_compare(&mesh, &mut rng);
}

#[test]
fn under_a_bridge_the_hinted_queries_still_equal_the_bvh() {
    // The bumpy grid with a 4 m wide deck 0.8 m above its middle rows: the triangles
    // under and of the deck are not alone in their column and take the row's path.
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let grid = bumpy_grid(&mut rng, 41, 1.0);
    let mut vertices = grid.vertices().to_vec();
    let mut triangles = grid.triangles().to_vec();
    let base = u32::try_from(vertices.len()).expect("few vertices");
    for (x, y) in [(-1.0, 18.0), (41.0, 18.0), (41.0, 22.0), (-1.0, 22.0)] {
        vertices.push(DVec3::new(x, y, 0.8));
    }
    triangles.push([base, base + 1, base + 2]);
    triangles.push([base, base + 2, base + 3]);
    let surfaces = (0..triangles.len()).map(|_| Surface::Asphalt).collect();
    let mesh = TriangleMesh::new(vertices, triangles, surfaces).expect("valid");
    let sole = mesh.sole_triangles();
    assert!(sole > 2000 && sole < mesh.triangle_count() - 100, "{sole}");
    wander_and_compare(&mesh, &mut rng);
}

/// A "wheel" wandering over `mesh` (the 41 x 41 m grid's area): every hinted and face
/// query equals the BVH's, with the hint it keeps and with any hint.
fn wander_and_compare(mesh: &TriangleMesh, rng: &mut XorShift) {
    // A "wheel" wandering over the grid: small steps (coherent), with jumps now and then
    // (the hint is stale), rays tilted and of random reach (some miss).
    let mut hint = RayHint::default();
    let mut at = DVec3::new(20.0, 20.0, 1.0);
    let (mut reused, mut misses) = (0, 0);
    for step in 0..20_000 {
        if step % 997 == 0 {
            at.x = rng.range(-3.0, 43.0);
            at.y = rng.range(-3.0, 43.0);
        }
        at.x += rng.range(-0.08, 0.1);
        at.y += rng.range(-0.08, 0.1);
        if at.x > 43.0 || at.y > 43.0 {
            at.x = rng.range(0.0, 5.0);
            at.y = rng.range(0.0, 5.0);
        }
        let d = DVec3::new(rng.range(-0.2, 0.2), rng.range(-0.2, 0.2), -1.0).normalize();
        let max = rng.range(0.2, 2.0);
        let before = hint;
        let hinted = mesh.ray_cast_triangle_hinted(at, d, max, &mut hint);
        let full = mesh.ray_cast_triangle(at, d, max);
        assert_eq!(hinted, full, "step {step}: {at} {d} {max} hint {before:?}");
        if before.triangle().is_some() {
            reused += 1;
        }
        if full.is_none() {
            misses += 1;
        }
        // The face query: the same point, distance and surface, the triangle's own normal.
        let mut face_hint = before;
        let face = mesh.ray_cast_face_hinted(at, d, max, &mut face_hint);
        assert_eq!(face_hint, hint);
        let expected = full.map(|(i, hit)| GroundHit {
            normal: mesh.normals[i],
            ..hit
        });
        assert_eq!(face, expected, "step {step}");
        // Any hint at all, even a wrong one, gives the same answer.
        let mut wrong = RayHint::default();
        wrong.remember(usize::from(rng.byte()) * 12);
        assert_eq!(mesh.ray_cast_triangle_hinted(at, d, max, &mut wrong), full);
    }
    assert!(reused > 15_000 && misses > 100, "{reused} {misses}");
}

#[test]
fn hinted_queries_of_non_finite_rays_or_odd_hints_do_not_panic() {
    let mut rng = XorShift(0x2545_F491_4F6C_DD1D);
    let mesh = bumpy_grid(&mut rng, 41, 1.0);
    // Non-finite rays: no hit, no panic, whatever the hint.
    let mut hint = RayHint::default();
    hint.remember(3);
    assert!(
        mesh.ray_cast_triangle_hinted(DVec3::NAN, DVec3::NEG_Z, 1.0, &mut hint)
            .is_none()
    );
    hint.remember(usize::MAX - 1);
    assert!(
        mesh.ray_cast_triangle_hinted(DVec3::new(5.0, 5.0, 1.0), DVec3::NEG_Z, 2.0, &mut hint)
            .is_some()
    );
}

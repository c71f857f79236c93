//! [`super::SoleFace`] on a real mesh: the plane answers as the mesh's query does, and
//! only where the face is alone.

use glam::DVec3;

use super::{Ground, RayHint, SoleFace, Surface, TriangleMesh};

/// A tilted square of two triangles, 10 m a side (rising 1 m in 10 along y), and a bump
/// of one small triangle 1 m above its first triangle's middle.
fn mesh() -> TriangleMesh {
    let vertices = vec![
        DVec3::new(0.0, 0.0, 0.0),
        DVec3::new(10.0, 0.0, 0.0),
        DVec3::new(10.0, 10.0, 1.0),
        DVec3::new(0.0, 10.0, 1.0),
        DVec3::new(6.0, 1.0, 1.2),
        DVec3::new(7.0, 1.0, 1.2),
        DVec3::new(7.0, 2.0, 1.3),
    ];
    TriangleMesh::new(
        vertices,
        vec![[0, 1, 2], [0, 2, 3], [4, 5, 6]],
        vec![Surface::Asphalt, Surface::Grass, Surface::Asphalt],
    )
    .expect("a valid mesh")
}

/// The face a ray straight down at `(x, y)` meets, with the ray's hint.
fn face_under(mesh: &TriangleMesh, x: f64, y: f64) -> (Option<SoleFace>, RayHint) {
    let mut hint = RayHint::default();
    mesh.ray_cast_hinted(DVec3::new(x, y, 3.0), DVec3::NEG_Z, 5.0, &mut hint)
        .expect("ground below");
    (mesh.sole_face(hint), hint)
}

/// Rays near the one cast meet the face's plane where the mesh's own query meets the
/// face, to rounding, with its normal and surface.
#[test]
fn the_plane_answers_as_the_mesh_does() {
    let mesh = mesh();
    let (face, hint) = face_under(&mesh, 2.0, 8.0);
    let face = face.expect("the second triangle is alone in its column");
    for (dx, dy) in [(0.0, 0.0), (0.05, 0.0), (-0.05, 0.1), (0.3, -0.4)] {
        let origin = DVec3::new(2.0 + dx, 8.0 + dy, 3.0);
        let direction = DVec3::new(0.01, -0.02, -1.0).normalize();
        assert!(face.holds(origin, origin + direction * 5.0));
        let plane = face
            .hit(origin, direction, 5.0)
            .expect("the plane is below");
        let full = mesh
            .ray_cast_face_hinted(origin, direction, 5.0, &mut hint.clone())
            .expect("the mesh is below");
        assert!((plane.point - full.point).length() < 1e-12);
        assert!((plane.distance - full.distance).abs() < 1e-12);
        assert_eq!((plane.normal, plane.surface), (full.normal, full.surface));
    }
}

/// Too short, starting beyond the plane and moving away, or parallel: no crossing.
#[test]
fn no_crossing_where_the_ray_does_not_reach_the_plane() {
    let mesh = mesh();
    let face = face_under(&mesh, 2.0, 8.0).0.expect("sole");
    let above = DVec3::new(2.0, 8.0, 3.0);
    // The plane lies 2.2 m below (z = 0.8 there).
    assert!(face.hit(above, DVec3::NEG_Z, 2.0).is_none());
    assert!(
        face.hit(DVec3::new(2.0, 8.0, 0.0), DVec3::NEG_Z, 5.0)
            .is_none()
    );
    let along = DVec3::new(0.0, 10.0, 1.0).normalize();
    assert!(face.hit(above, along, 5.0).is_none());
    assert!(face.hit(DVec3::NAN, DVec3::NEG_Z, 5.0).is_none());
}

/// The face under the bump is not alone in its column, and a sole face does not hold a
/// segment that leaves its area (across its diagonal edge) or its cover box.
#[test]
fn faces_not_alone_and_segments_outside_get_no_plane() {
    let mesh = mesh();
    assert!(face_under(&mesh, 6.8, 1.5).0.is_none(), "the bump is above");
    let face = face_under(&mesh, 2.0, 8.0).0.expect("sole");
    let across = DVec3::new(6.0, 5.0, 3.0);
    assert!(!face.holds(across, across - DVec3::Z * 5.0));
    let high = DVec3::new(2.0, 8.0, 50.0);
    assert!(!face.holds(high, high - DVec3::Z * 5.0));
    // A stale hint's face still holds only segments in its own column.
    assert!(!face.holds(DVec3::new(8.0, 1.0, 3.0), DVec3::new(8.0, 1.0, -2.0)));
}

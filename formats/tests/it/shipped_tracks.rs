//! The shipped tracks load, build, and have the geometry they promise.

use std::path::PathBuf;

use glam::DVec3;
use gripline_formats::error::ConfigError;
use gripline_formats::track_file::{LoadedTrack, load_track};
use gripline_physics::ground::{Ground, GroundHit, Surface};
use gripline_physics::track::{ReferenceGeometry, TrackMesh};

fn track_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../assets/tracks/{name}.ron"))
}

fn load(name: &str) -> LoadedTrack {
    load_track(&track_path(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn down(mesh: &TrackMesh, x: f64, y: f64) -> GroundHit {
    mesh.ray_cast(DVec3::new(x, y, 500.0), DVec3::NEG_Z, 1000.0)
        .unwrap_or_else(|| panic!("no ground at ({x}, {y})"))
}

/// The flat normal of the generated ground's triangle under `(x, y)`: the geometry as built.
/// A hit's normal is smoothed across gentle edges (`ground/smooth_normals.rs`), so near the
/// end of a ramp or the edge of a road it leans towards the neighbouring triangles.
fn face_normal_below(mesh: &TrackMesh, x: f64, y: f64) -> DVec3 {
    let (triangle, _) = mesh
        .ground
        .ray_cast_triangle(DVec3::new(x, y, 500.0), DVec3::NEG_Z, 1000.0)
        .unwrap_or_else(|| panic!("no generated ground at ({x}, {y})"));
    mesh.ground.normals()[triangle]
}

#[test]
fn both_tracks_load_through_config_and_resolve_by_name() {
    for name in ["proving-ground", "circuit"] {
        let track = load(name);
        assert!(!track.name.is_empty());
        let (v, t) = (
            track.mesh.ground.vertex_count(),
            track.mesh.ground.triangle_count(),
        );
        println!(
            "{name}: {v} vertices, {t} triangles, centre line {:.1} m",
            track.mesh.length_m
        );
        assert!(t < 200_000, "{name}: {t} triangles");
    }
    // A path resolves to itself; a name resolves when an assets folder is found (from the
    // executable or GRIPLINE_ASSETS, which a test binary in a shared target folder may lack).
    let path = track_path("circuit");
    let resolved = gripline_formats::assets::resolve_track(&path.to_string_lossy()).expect("path");
    assert_eq!(resolved, path);
    if let Ok(path) = gripline_formats::assets::resolve_track("circuit") {
        assert!(path.ends_with("tracks/circuit.ron"));
    }
    let missing = gripline_formats::assets::resolve_track("no-such-track").unwrap_err();
    assert!(matches!(
        missing,
        ConfigError::NotFound { kind: "track", .. }
    ));
}

#[test]
fn circuit_is_a_closed_3_to_5_km_loop_with_hills_banking_kerbs_and_run_off() {
    let track = load("circuit");
    let mesh = &track.mesh;
    let line = &mesh.centre_line;
    assert!(line.is_closed());
    assert!(
        (3000.0..=5000.0).contains(&mesh.length_m),
        "{} m",
        mesh.length_m
    );
    let s = line.samples();
    let (first, last) = (&s[0], &s[s.len() - 1]);
    let closing = first.position.distance(last.position);
    assert!(closing < 2.1, "closing segment {closing} m");
    assert!(first.tangent.angle_between(last.tangent) < 0.02);
    let (lo, hi) = s.iter().fold((f64::MAX, f64::MIN), |(lo, hi), x| {
        (lo.min(x.position.z), hi.max(x.position.z))
    });
    assert!(hi - lo > 20.0, "elevation range {} m", hi - lo);
    assert!(s.iter().any(|x| x.banking_rad.to_degrees().abs() > 3.9));
    // Road all the way round, at the control-point elevations.
    for x in s.iter().step_by(5) {
        let hit = down(mesh, x.position.x, x.position.y);
        assert_eq!(hit.surface, Surface::Asphalt, "at {:?}", x.position);
        assert!((hit.point.z - x.position.z).abs() < 0.05);
    }
    for p in &track.layout.centre_line {
        assert!((down(mesh, p.x_m, p.y_m).point.z - p.z_m).abs() < 1e-6);
    }
    let surfaces = mesh.ground.surfaces();
    for wanted in [Surface::Kerb, Surface::Grass, Surface::Gravel] {
        assert!(surfaces.contains(&wanted), "no {wanted:?}");
    }
    // Corner types: a hairpin (radius under 30 m) and a fast sweeper (over 200 m) at least.
    let radii: Vec<f64> = s.iter().map(|x| 1.0 / x.curvature_per_m.abs()).collect();
    assert!(radii.iter().any(|&r| r < 30.0));
    assert!(radii.iter().any(|&r| (200.0..300.0).contains(&r)));
    assert!(mesh.reference("start-finish").is_some());
    // No band folds over itself on the inside of a corner: every triangle keeps the
    // counter-clockwise winding (seen from above) that the generator gives it.
    let v = mesh.ground.vertices();
    for &[a, b, c] in mesh.ground.triangles() {
        let (a, b, c) = (v[a as usize], v[b as usize], v[c as usize]);
        assert!((b - a).truncate().perp_dot((c - a).truncate()) > 0.0);
    }
}

#[test]
fn proving_ground_skidpad_is_a_50_m_circle_marked_with_cones() {
    let track = load("proving-ground");
    let mesh = &track.mesh;
    let Some(ReferenceGeometry::Circle { centre, radius_m }) =
        mesh.reference("skidpad").map(|r| &r.geometry)
    else {
        panic!("no skidpad circle");
    };
    assert!((radius_m - 50.0).abs() < 1e-12);
    let cones: Vec<_> = mesh.objects_in("skidpad").collect();
    assert!(cones.len() >= 16);
    for cone in cones {
        let r = (cone.position - *centre).truncate().length();
        assert!((r - 50.0).abs() < 1e-9, "{r}");
    }
    // The circle (and a margin of 15 m either side) is on asphalt.
    for k in 0..36 {
        let a = f64::from(k) * 10f64.to_radians();
        for r in [35.0, 50.0, 65.0] {
            let p = *centre + DVec3::new(a.cos(), a.sin(), 0.0) * r;
            assert_eq!(down(mesh, p.x, p.y).surface, Surface::Asphalt);
        }
    }
}

#[test]
fn proving_ground_lane_change_cones_follow_iso_3888_1() {
    let track = load("proving-ground");
    let mesh = &track.mesh;
    let Some(ReferenceGeometry::LaneChange(course)) =
        mesh.reference("iso-3888-1").map(|r| &r.geometry)
    else {
        panic!("no lane change");
    };
    // ISO 3888-1 for W = 1.85 m, from the standard's table: section (start, length, width),
    // with sections 1 and 5 sharing their right-hand boundary and section 3's right-hand
    // boundary 3.5 m to the left of it.
    let w = 1.85;
    let lanes = [
        (0.0, 15.0, 0.0, 1.1 * w + 0.25),
        (15.0 + 30.0, 25.0, 3.5, 1.2 * w + 0.25),
        (15.0 + 30.0 + 25.0 + 25.0, 15.0, 0.0, 1.3 * w + 0.25),
    ];
    let (forward, left) = course.axes();
    let origin = DVec3::new(course.start_x_m, course.start_y_m, 0.0);
    let cones: Vec<_> = mesh.objects_in("lane-change").collect();
    assert!(!cones.is_empty());
    let mut ends_seen = [[false; 4]; 3];
    for cone in &cones {
        let d = (cone.position - origin).truncate();
        let (station, lateral) = (d.dot(forward.truncate()), d.dot(left.truncate()));
        let lane = lanes
            .iter()
            .position(|&(start, length, right, width)| {
                station > start - 1e-9
                    && station < start + length + 1e-9
                    && ((lateral - right).abs() < 1e-9 || (lateral - right - width).abs() < 1e-9)
            })
            .unwrap_or_else(|| panic!("cone at ({station}, {lateral}) is on no lane boundary"));
        let (start, length, right, _) = lanes[lane];
        let end = usize::from((station - start - length).abs() < 1e-9);
        let side = usize::from((lateral - right).abs() > 1e-9);
        if (station - start).abs() < 1e-9 || end == 1 {
            ends_seen[lane][end * 2 + side] = true;
        }
        assert!(down(mesh, cone.position.x, cone.position.y).surface == Surface::Asphalt);
    }
    assert_eq!(
        ends_seen, [[true; 4]; 3],
        "a cone at each corner of each lane"
    );
    assert!((course.length_m() - 110.0).abs() < 1e-12);
}

#[test]
fn proving_ground_straight_is_at_least_1500_m_of_asphalt() {
    let track = load("proving-ground");
    let mesh = &track.mesh;
    assert!(mesh.length_m >= 1500.0, "{}", mesh.length_m);
    let s = mesh.centre_line.samples();
    let start = s[0].position;
    let mut x = 0.0;
    while x <= mesh.length_m {
        let p = start + s[0].tangent * x;
        for lateral in [-12.0, 0.0, 12.0] {
            let q = p + s[0].left * lateral;
            let hit = down(mesh, q.x, q.y);
            assert_eq!(hit.surface, Surface::Asphalt);
            assert!(face_normal_below(mesh, q.x, q.y).z > 0.999_999);
        }
        x += 25.0;
    }
    assert!(mesh.reference("quarter-mile").is_some());
}

#[test]
fn proving_ground_grades_measure_10_15_and_20_percent() {
    let track = load("proving-ground");
    let mesh = &track.mesh;
    for pct in [10.0_f64, 15.0, 20.0] {
        let name = format!("grade-{pct:.0}");
        let Some(ReferenceGeometry::Point(mid)) = mesh.reference(&name).map(|r| &r.geometry) else {
            panic!("no {name}");
        };
        // Two ray casts 8 m apart along the ramp, and a slanted ray.
        let a = down(mesh, mid.x - 4.0, mid.y + 1.5);
        let b = down(mesh, mid.x + 4.0, mid.y + 1.5);
        let slope = (b.point.z - a.point.z) / 8.0 * 100.0;
        assert!((slope - pct).abs() < 0.1, "{name}: {slope} %");
        let face = face_normal_below(mesh, mid.x - 4.0, mid.y + 1.5);
        let from_normal = (-face.x / face.z) * 100.0;
        assert!((from_normal - pct).abs() < 0.1, "{name}: {from_normal} %");
        let slanted = mesh
            .ray_cast(
                *mid + DVec3::new(-1.0, 0.0, 2.0),
                DVec3::new(0.6, 0.0, -0.8),
                10.0,
            )
            .expect("slanted ray hits the ramp");
        // The same ramp: its hit lies in the plane of the vertical ray's face.
        assert!((slanted.point - a.point).dot(face).abs() < 1e-9);
        assert_eq!(a.surface, Surface::Asphalt);
    }
}

#[test]
fn proving_ground_patchwork_tiles_have_their_surfaces() {
    let track = load("proving-ground");
    let mesh = &track.mesh;
    let row_a = [
        Surface::Asphalt,
        Surface::WetAsphalt,
        Surface::Gravel,
        Surface::Grass,
        Surface::Ice,
    ];
    let row_b = [
        Surface::Ice,
        Surface::Asphalt,
        Surface::Grass,
        Surface::WetAsphalt,
        Surface::Gravel,
    ];
    for (i, (a, b)) in row_a.into_iter().zip(row_b).enumerate() {
        let x = 1015.0 + 30.0 * i as f64;
        for dx in [-12.0, 0.0, 12.0] {
            let hit_a = down(mesh, x + dx, 135.0);
            let hit_b = down(mesh, x + dx, 165.0);
            assert_eq!(hit_a.surface, a, "tile A{}", i + 1);
            assert_eq!(hit_b.surface, b, "tile B{}", i + 1);
            assert!(hit_a.point.z.abs() < 1e-12 && hit_b.point.z.abs() < 1e-12);
        }
    }
    // Between areas lies the grass base, 5 cm lower.
    let base = down(mesh, 800.0, 300.0);
    assert_eq!(base.surface, Surface::Grass);
    assert!((base.point.z + 0.05).abs() < 1e-12);
}

/// The circuit is walled in: a 1 m barrier all round each side at the outer edge of its
/// run-off (6 m of road, 1.2 m of kerb, 14 m of verge), never on the road.
#[test]
fn circuit_has_barriers_beyond_its_run_off_all_round() {
    use gripline_physics::track::{BarrierPlacement, Side};
    let track = load("circuit");
    let mesh = &track.mesh;
    // The two beside the road, then the boundary wall round the world.
    assert_eq!(mesh.barriers.len(), 3);
    let samples = mesh.centre_line.samples();
    for b in &mesh.barriers[..2] {
        assert!(b.closed);
        assert_eq!(b.spec.placement, BarrierPlacement::OuterEdge);
        assert!((b.spec.height_m - 1.0).abs() < 1e-12);
        assert_eq!(b.points.len(), samples.len());
        let mut full = 0;
        for (p, s) in b.points.iter().zip(samples) {
            let across = (*p - s.position).truncate();
            let lateral = across.length();
            let side = across.dot(s.left.truncate());
            assert_eq!(side > 0.0, b.side == Side::Left);
            // Narrowed on the inside of tight corners, never onto the road or kerb.
            assert!(
                lateral > 6.0 + 1.2 && lateral < 6.0 + 15.2 + 0.05,
                "{p} {lateral}"
            );
            full += usize::from((lateral - 21.2).abs() < 0.05);
        }
        assert!(full * 10 > 8 * samples.len(), "{full} of {}", samples.len());
    }
    assert!(mesh.walls().is_some());
}

/// Both tracks are closed: grass terrain out to 100 m beyond everything built and a 4 m
/// wall all round it (the files' `boundary`), ground everywhere inside, none beyond.
#[test]
fn both_tracks_are_closed_by_a_boundary_wall() {
    for name in ["proving-ground", "circuit"] {
        let track = load(name);
        let mesh = &track.mesh;
        let wall = mesh.barriers.last().expect("the boundary wall");
        assert!(wall.closed, "{name}");
        assert!((wall.spec.height_m - 4.0).abs() < 1e-12, "{name}");
        let (lo, hi) = wall.points.iter().fold(
            (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY)),
            |(lo, hi), p| (lo.min(*p), hi.max(*p)),
        );
        // 100 m beyond the road's and pads' extent: the proving ground's base pad spans
        // x -200 to 2200, y -100 to 400.
        if name == "proving-ground" {
            assert!(
                (lo.x + 300.0).abs() < 1e-6 && (hi.x - 2300.0).abs() < 1e-6,
                "{lo} {hi}"
            );
            assert!(
                (lo.y + 200.0).abs() < 1e-6 && (hi.y - 500.0).abs() < 1e-6,
                "{lo} {hi}"
            );
        }
        for i in 0..=50 {
            for j in 0..=50 {
                let x = lo.x + 0.5 + (hi.x - lo.x - 1.0) * f64::from(i) / 50.0;
                let y = lo.y + 0.5 + (hi.y - lo.y - 1.0) * f64::from(j) / 50.0;
                down(mesh, x, y);
            }
        }
        for (x, y) in [(lo.x - 1.0, lo.y + 10.0), (hi.x + 1.0, hi.y - 10.0)] {
            assert!(
                mesh.ray_cast(DVec3::new(x, y, 500.0), DVec3::NEG_Z, 1000.0)
                    .is_none(),
                "{name}: ground beyond the wall at ({x}, {y})"
            );
        }
        assert!(mesh.walls().is_some());
    }
}

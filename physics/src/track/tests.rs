//! Tests of layouts, their meshes and the centre line.

use std::f64::consts::TAU;

use glam::DVec3;

use super::*;
use crate::ground::Surface;
use crate::validate::Validate;

fn point(x_m: f64, y_m: f64, z_m: f64, banking_deg: f64, width_m: f64) -> ControlPoint {
    ControlPoint {
        x_m,
        y_m,
        z_m,
        banking_deg,
        width_m,
    }
}

fn down(mesh: &TrackMesh, x: f64, y: f64) -> GroundHit {
    mesh.ground
        .height_below(x, y, 1000.0)
        .unwrap_or_else(|| panic!("no ground at ({x}, {y})"))
}

/// A closed circle of `n` control points, counter-clockwise (a left-hand loop).
fn circle(radius: f64, n: u32, banking_deg: f64, width_m: f64) -> Vec<ControlPoint> {
    (0..n)
        .map(|k| {
            let a = TAU * f64::from(k) / f64::from(n);
            point(
                radius * a.cos(),
                radius * a.sin(),
                3.0,
                banking_deg,
                width_m,
            )
        })
        .collect()
}

fn with_bands(centre_line: Vec<ControlPoint>, closed: bool) -> TrackLayout {
    TrackLayout {
        closed,
        centre_line,
        corner_radius_m: 150.0,
        kerb: Some(KerbSpec {
            width_m: 1.0,
            height_m: 0.0,
            straight_surface: Surface::Grass,
        }),
        verge: vec![
            VergeBand {
                surface: Surface::Grass,
                width_m: 4.0,
                slope_pct: -3.0,
                corner_surface: None,
            },
            VergeBand {
                surface: Surface::Grass,
                width_m: 6.0,
                slope_pct: -1.0,
                corner_surface: Some(Surface::Gravel),
            },
        ],
        ..TrackLayout::default()
    }
}

#[test]
fn road_passes_through_control_point_elevations() {
    let layout = with_bands(
        vec![
            point(0.0, 0.0, 0.0, 0.0, 10.0),
            point(100.0, 10.0, 5.0, 0.0, 10.0),
            point(200.0, -10.0, 2.0, 3.0, 12.0),
            point(300.0, 0.0, -4.0, 0.0, 10.0),
        ],
        false,
    );
    let mesh = layout.build_mesh().expect("builds");
    for p in &layout.centre_line {
        let hit = down(&mesh, p.x_m, p.y_m);
        assert!((hit.point.z - p.z_m).abs() < 1e-6, "{p:?}: {hit:?}");
        assert_eq!(hit.surface, Surface::Asphalt);
    }
    // Samples no more than the spacing apart (plus a little for the arc-length table).
    let s = mesh.centre_line.samples();
    for w in s.windows(2) {
        let gap = w[1].distance_m - w[0].distance_m;
        assert!(gap > 0.5 && gap <= 2.05, "{gap}");
    }
    assert!((mesh.length_m - s[s.len() - 1].distance_m).abs() < 1e-9);
}

#[test]
fn banking_tilts_the_normal_by_the_banking_angle() {
    // A straight banked 8 degrees: left edge higher.
    let layout = TrackLayout {
        centre_line: vec![
            point(0.0, 0.0, 0.0, 8.0, 10.0),
            point(200.0, 0.0, 0.0, 8.0, 10.0),
        ],
        ..TrackLayout::default()
    };
    let mesh = layout.build_mesh().expect("builds");
    for x in [20.0, 100.0, 150.3] {
        for y in [-4.0, -1.0, 2.5] {
            let hit = down(&mesh, x, y);
            let tilt = hit.normal.angle_between(DVec3::Z).to_degrees();
            assert!((tilt - 8.0).abs() < 0.5, "{tilt}");
            assert!(hit.normal.y < 0.0, "left edge higher: normal leans right");
            assert!((hit.point.z - y * 8f64.to_radians().tan()).abs() < 1e-6);
        }
    }
    // A left-hand loop banked 10 degrees into the corner (right edge higher: negative).
    let layout = TrackLayout {
        closed: true,
        centre_line: circle(120.0, 12, -10.0, 12.0),
        ..TrackLayout::default()
    };
    let mesh = layout.build_mesh().expect("builds");
    for p in &layout.centre_line {
        let hit = down(&mesh, p.x_m, p.y_m);
        let tilt = hit.normal.angle_between(DVec3::Z).to_degrees();
        assert!((tilt - 10.0).abs() < 0.5, "{tilt}");
        // Leaning towards the centre of the circle.
        let inward = -DVec3::new(p.x_m, p.y_m, 0.0).normalize();
        assert!(hit.normal.dot(inward) > 0.15);
    }
}

#[test]
fn width_and_bands_are_where_they_belong() {
    let layout = with_bands(
        vec![
            point(0.0, 0.0, 0.0, 0.0, 10.0),
            point(300.0, 0.0, 0.0, 0.0, 10.0),
        ],
        false,
    );
    let mesh = layout.build_mesh().expect("builds");
    let at = |y: f64| down(&mesh, 150.0, y);
    assert_eq!(at(4.95).surface, Surface::Asphalt);
    assert_eq!(at(-4.95).surface, Surface::Asphalt);
    // Straight: the kerb strip takes its straight surface.
    assert_eq!(at(5.05).surface, Surface::Grass);
    assert_eq!(at(-5.5).surface, Surface::Grass);
    // Verge falls away at 3 % then 1 %.
    let z = at(8.0).point.z;
    assert!((z - (-0.03 * 2.0)).abs() < 1e-9, "{z}");
    let z = at(-14.0).point.z;
    assert!((z - (-0.03 * 4.0 - 0.01 * 4.0)).abs() < 1e-9, "{z}");
    // Nothing beyond the outer edge at 16 m.
    assert!(mesh.ground.height_below(150.0, 16.1, 10.0).is_none());
    let s = &mesh.centre_line.samples()[10];
    assert!((s.left_edge().distance(s.right_edge()) - 10.0).abs() < 1e-9);
}

#[test]
fn closed_loop_has_no_gap_and_a_smooth_seam() {
    let layout = with_bands(circle(150.0, 9, 0.0, 10.0), true);
    let mesh = layout.build_mesh().expect("builds");
    let line = &mesh.centre_line;
    let s = line.samples();
    let (first, last) = (&s[0], &s[s.len() - 1]);
    // The first sample is the first control point; the last segment closes onto it.
    assert!((first.position - DVec3::new(150.0, 0.0, 3.0)).length() < 1e-9);
    let closing = last.position.distance(first.position);
    assert!(closing > 0.5 && closing < 2.05, "{closing}");
    assert!(last.tangent.angle_between(first.tangent) < 0.03);
    assert!((line.length_m() - last.distance_m - closing).abs() < 1e-9);
    // Circumference of the spline is close to the circle's.
    assert!((line.length_m() - TAU * 150.0).abs() < 0.01 * TAU * 150.0);
    // Across the seam the road is there, at every lateral position.
    let seam = 0.5 * (first.position + last.position);
    for lateral in [-4.9, -2.0, 0.0, 2.0, 4.9] {
        let p = seam + first.left * lateral;
        assert_eq!(down(&mesh, p.x, p.y).surface, Surface::Asphalt);
    }
    // The last strip reuses the first row of vertices: no duplicated seam vertices.
    let columns = mesh.ground.vertex_count() / s.len();
    assert_eq!(columns * s.len(), mesh.ground.vertex_count());
}

#[test]
fn corners_get_kerbs_and_corner_surfaces_straights_do_not() {
    // A stadium: two straights and two 60 m half circles.
    let mut pts = vec![];
    for k in 0..=6 {
        pts.push(point(f64::from(k) * 50.0, 0.0, 0.0, 0.0, 10.0));
    }
    for k in 1..6 {
        let a = -TAU / 4.0 + TAU / 2.0 * f64::from(k) / 6.0;
        pts.push(point(
            300.0 + 60.0 * a.cos(),
            60.0 + 60.0 * a.sin(),
            0.0,
            0.0,
            10.0,
        ));
    }
    for k in (0..=6).rev() {
        pts.push(point(f64::from(k) * 50.0, 120.0, 0.0, 0.0, 10.0));
    }
    for k in 1..6 {
        let a = TAU / 4.0 + TAU / 2.0 * f64::from(k) / 6.0;
        pts.push(point(60.0 * a.cos(), 60.0 + 60.0 * a.sin(), 0.0, 0.0, 10.0));
    }
    let layout = with_bands(pts, true);
    let mesh = layout.build_mesh().expect("builds");
    // Mid-straight, outside of the road: grass strip, grass, grass.
    assert_eq!(down(&mesh, 150.0, -5.5).surface, Surface::Grass);
    assert_eq!(down(&mesh, 150.0, -13.0).surface, Surface::Grass);
    // Apex of the right-hand half circle, outside: kerb then gravel trap.
    let apex = |r: f64| down(&mesh, 300.0 + r, 60.0).surface;
    assert_eq!(apex(65.5), Surface::Kerb);
    assert_eq!(apex(73.0), Surface::Gravel);
    assert_eq!(apex(54.5), Surface::Kerb);
    assert_eq!(down(&mesh, 300.0 + 60.0, 60.0).surface, Surface::Asphalt);
    // The centre line is road all the way round.
    for s in mesh.centre_line.samples() {
        assert_eq!(
            down(&mesh, s.position.x, s.position.y).surface,
            Surface::Asphalt
        );
    }
}

#[test]
fn tight_corner_bands_do_not_fold() {
    // A 15 m hairpin with 16 m of bands each side: the inside must be narrowed.
    let mut pts = vec![
        point(-100.0, -15.0, 0.0, 0.0, 9.0),
        point(0.0, -15.0, 0.0, 0.0, 9.0),
    ];
    for k in 1..6 {
        let a = -TAU / 4.0 + TAU / 2.0 * f64::from(k) / 6.0;
        pts.push(point(15.0 * a.cos(), 15.0 * a.sin(), 0.0, 0.0, 9.0));
    }
    pts.push(point(0.0, 15.0, 0.0, 0.0, 9.0));
    pts.push(point(-100.0, 15.0, 0.0, 0.0, 9.0));
    let layout = with_bands(pts, false);
    let mesh = layout.build_mesh().expect("builds");
    let v = mesh.ground.vertices();
    for (i, &[a, b, c]) in mesh.ground.triangles().iter().enumerate() {
        let (a, b, c) = (v[a as usize], v[b as usize], v[c as usize]);
        let area = (b - a).truncate().perp_dot((c - a).truncate());
        assert!(area > 0.0, "triangle {i} is folded over (area {area})");
    }
}

#[test]
fn centre_line_projection_and_stations() {
    let layout = TrackLayout {
        closed: true,
        centre_line: circle(100.0, 8, 0.0, 10.0),
        ..TrackLayout::default()
    };
    let mesh = layout.build_mesh().expect("builds");
    let line = &mesh.centre_line;
    for station in [0.0, 1.0, 77.7, 300.0, line.length_m() - 0.5] {
        let s = line.sample_at(station).expect("on the loop");
        let p = s.position + s.left * 3.0;
        let proj = line.project(p).expect("projects");
        let off = (proj.distance_m - station).rem_euclid(line.length_m());
        assert!(off.min(line.length_m() - off) < 0.05, "{station}: {proj:?}");
        assert!((proj.lateral_m - 3.0).abs() < 0.05, "{proj:?}");
        let near = line
            .project_near(p, proj.segment + 3, 10)
            .expect("projects");
        assert_eq!(near, proj);
        let right = line.project(s.position - s.left * 2.0).expect("projects");
        assert!((right.lateral_m + 2.0).abs() < 0.05);
    }
    // Wraps on a loop.
    let a = line.sample_at(10.0).expect("a");
    let b = line.sample_at(10.0 + line.length_m()).expect("b");
    assert!((a.position - b.position).length() < 1e-6);
    // An open line refuses stations beyond its ends.
    let open = TrackLayout {
        centre_line: vec![
            point(0.0, 0.0, 0.0, 0.0, 8.0),
            point(50.0, 0.0, 0.0, 0.0, 8.0),
        ],
        ..TrackLayout::default()
    }
    .build_mesh()
    .expect("builds");
    assert!(open.centre_line.sample_at(50.5).is_none());
    assert!((open.length_m - 50.0).abs() < 1e-9);
    let end = open
        .centre_line
        .project(DVec3::new(60.0, 1.0, 0.0))
        .expect("p");
    assert!((end.distance_m - 50.0).abs() < 1e-9);
}

#[test]
fn pads_grades_and_the_higher_pad_wins() {
    let layout = TrackLayout {
        pads: vec![
            Pad {
                name: "base".into(),
                surface: Surface::Grass,
                shape: PadShape::Rectangle {
                    centre_x_m: 0.0,
                    centre_y_m: 0.0,
                    z_m: -0.05,
                    length_m: 400.0,
                    width_m: 400.0,
                    heading_deg: 0.0,
                    rise_pct: 0.0,
                },
            },
            Pad {
                name: "ramp".into(),
                surface: Surface::Concrete,
                shape: PadShape::Rectangle {
                    centre_x_m: 50.0,
                    centre_y_m: 50.0,
                    z_m: 2.0,
                    length_m: 40.0,
                    width_m: 6.0,
                    heading_deg: 90.0,
                    rise_pct: 10.0,
                },
            },
            Pad {
                name: "ice".into(),
                surface: Surface::Ice,
                shape: PadShape::Polygon {
                    points_m: vec![(-10.0, -10.0), (-10.0, 10.0), (10.0, 10.0), (10.0, -10.0)],
                    z_m: 0.0,
                },
            },
        ],
        ..TrackLayout::default()
    };
    let mesh = layout.build_mesh().expect("builds");
    assert_eq!(down(&mesh, 0.0, 0.0).surface, Surface::Ice);
    assert_eq!(down(&mesh, 20.0, 0.0).surface, Surface::Grass);
    let lower = down(&mesh, 50.0, 40.0);
    let upper = down(&mesh, 50.0, 60.0);
    assert_eq!(lower.surface, Surface::Concrete);
    assert!(((upper.point.z - lower.point.z) / 20.0 - 0.10).abs() < 1e-9);
    assert!((lower.normal.angle_between(DVec3::Z) - 0.1f64.atan()).abs() < 1e-9);
}

#[test]
fn objects_and_references_are_placed_on_the_ground() {
    let layout = TrackLayout {
        pads: vec![Pad {
            name: String::new(),
            surface: Surface::Asphalt,
            shape: PadShape::Rectangle {
                centre_x_m: 0.0,
                centre_y_m: 0.0,
                z_m: 1.5,
                length_m: 200.0,
                width_m: 200.0,
                heading_deg: 0.0,
                rise_pct: 0.0,
            },
        }],
        objects: vec![
            ObjectSpec::Ring {
                kind: ObjectKind::Cone,
                group: "ring".into(),
                centre_x_m: 0.0,
                centre_y_m: 0.0,
                radius_m: 50.0,
                count: 16,
            },
            ObjectSpec::Row {
                kind: ObjectKind::Marker,
                group: "row".into(),
                from_x_m: -50.0,
                from_y_m: 80.0,
                to_x_m: 50.0,
                to_y_m: 80.0,
                count: 11,
            },
            ObjectSpec::LaneChangeCones {
                lane_change: "dlc".into(),
                vehicle_width_m: 1.85,
                group: "dlc".into(),
            },
        ],
        references: vec![
            Reference::Circle {
                name: "skidpad".into(),
                centre_x_m: 0.0,
                centre_y_m: 0.0,
                radius_m: 50.0,
            },
            Reference::LaneChange(LaneChange::iso_3888_1("dlc", -60.0, -60.0, 0.0)),
        ],
        ..TrackLayout::default()
    };
    let mesh = layout.build_mesh().expect("builds");
    let ring: Vec<_> = mesh.objects_in("ring").collect();
    assert_eq!(ring.len(), 16);
    for o in ring {
        assert!((o.position.truncate().length() - 50.0).abs() < 1e-9);
        assert!((o.position.z - 1.5).abs() < 1e-9);
    }
    assert_eq!(mesh.objects_in("row").count(), 11);
    assert_eq!(mesh.objects_in("dlc").count(), 2 * (4 + 6 + 4));
    let Some(NamedReference {
        geometry: ReferenceGeometry::Circle { centre, radius_m },
        ..
    }) = mesh.reference("skidpad")
    else {
        panic!("skidpad circle");
    };
    assert!((centre.z - 1.5).abs() < 1e-9 && (*radius_m - 50.0).abs() < 1e-12);

    // An object off the ground is an error, not a cone floating in the air.
    let mut off = layout.clone();
    off.objects.push(ObjectSpec::Single {
        kind: ObjectKind::Cone,
        group: String::new(),
        x_m: 500.0,
        y_m: 0.0,
    });
    assert!(matches!(
        off.build_mesh(),
        Err(TrackError::ObjectOffGround { index: 3, .. })
    ));
}

#[test]
fn iso_3888_1_lanes_follow_the_standard() {
    let w = 1.85;
    let course = LaneChange::iso_3888_1("dlc", 0.0, 0.0, 0.0);
    let lanes: Vec<_> = course.lanes(w).collect();
    assert_eq!(lanes.len(), 3);
    let expect = [
        (0.0, 15.0, 0.0, 1.1 * w + 0.25),
        (45.0, 70.0, 3.5, 3.5 + 1.2 * w + 0.25),
        (95.0, 110.0, 0.0, 1.3 * w + 0.25),
    ];
    for (lane, (start, end, right, left)) in lanes.iter().zip(expect) {
        assert!((lane.start_m - start).abs() < 1e-12);
        assert!((lane.end_m - end).abs() < 1e-12);
        assert!((lane.right_m - right).abs() < 1e-12);
        assert!((lane.left_m - left).abs() < 1e-12);
    }
    assert!((course.length_m() - 110.0).abs() < 1e-12);
}

#[test]
fn mesh_is_deterministic() {
    let layout = with_bands(circle(80.0, 7, 4.0, 11.0), true);
    let a = layout.build_mesh().expect("a");
    let b = layout.build_mesh().expect("b");
    assert_eq!(a.ground.vertices(), b.ground.vertices());
    assert_eq!(a.ground.triangles(), b.ground.triangles());
    assert_eq!(a.ground.surfaces(), b.ground.surfaces());
    assert_eq!(a.centre_line, b.centre_line);
}

#[test]
fn validation_reports_field_paths() {
    let mut layout = with_bands(
        vec![
            point(0.0, 0.0, 0.0, 0.0, 10.0),
            point(0.05, 0.0, 0.0, 60.0, -1.0),
        ],
        false,
    );
    layout.verge[1].width_m = f64::NAN;
    layout.pads.push(Pad {
        name: String::new(),
        surface: Surface::Ice,
        shape: PadShape::Polygon {
            points_m: vec![(0.0, 0.0), (10.0, 10.0), (10.0, 0.0), (0.0, 10.0)],
            z_m: 0.0,
        },
    });
    layout.references.push(Reference::Point {
        name: "a".into(),
        x_m: 0.0,
        y_m: 0.0,
    });
    layout.references.push(Reference::Point {
        name: "a".into(),
        x_m: 1.0,
        y_m: f64::INFINITY,
    });
    let err = layout.check().expect_err("invalid");
    let paths: Vec<_> = err.0.iter().map(|v| v.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "centre_line[1].banking_deg",
            "centre_line[1].width_m",
            "centre_line[1]",
            "verge[1].width_m",
            "pads[0].shape.Polygon.points_m",
            "references[1].Point.name",
            "references[1].Point.y_m",
        ],
        "{err}"
    );
    assert!(matches!(layout.build_mesh(), Err(TrackError::Invalid(_))));
    let empty = TrackLayout::default();
    assert!(empty.build_mesh().is_err());
}

#[test]
fn absurd_sizes_are_refused_before_any_mesh_is_made() {
    let layout = TrackLayout {
        centre_line: vec![
            point(0.0, 0.0, 0.0, 0.0, 10.0),
            point(5.0e6, 0.0, 0.0, 0.0, 10.0),
        ],
        pads: vec![Pad {
            name: String::new(),
            surface: Surface::Grass,
            shape: PadShape::Rectangle {
                centre_x_m: 0.0,
                centre_y_m: 0.0,
                z_m: 0.0,
                length_m: 1.0e6,
                width_m: 10.0,
                heading_deg: 0.0,
                rise_pct: 0.0,
            },
        }],
        ..TrackLayout::default()
    };
    let err = layout.check().expect_err("too big");
    let paths: Vec<_> = err.0.iter().map(|v| v.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "centre_line[1].x_m",
            "centre_line",
            "pads[0].shape.Rectangle.length_m"
        ],
        "{err}"
    );
}

fn sections_loop() -> TrackLayout {
    // A counter-clockwise circle of radius 200 m: left is the inside, right the outside.
    let centre_line = circle(200.0, 48, 0.0, 10.0);
    let cross_sections = (0..48)
        .map(|k| CrossSection {
            road_surface: if k < 24 {
                Surface::Asphalt
            } else {
                Surface::Concrete
            },
            left: vec![
                SideBand {
                    surface: Surface::Kerb,
                    width_m: 1.0,
                    rise_m: 0.05,
                },
                SideBand {
                    surface: Surface::Grass,
                    width_m: 5.0,
                    rise_m: 0.0,
                },
            ],
            right: vec![SideBand {
                surface: Surface::Gravel,
                width_m: 8.0,
                rise_m: -0.8,
            }],
            left_barriers: Vec::new(),
            right_barriers: Vec::new(),
        })
        .collect();
    TrackLayout {
        closed: true,
        centre_line,
        cross_sections,
        ..TrackLayout::default()
    }
}

#[test]
fn cross_sections_give_each_band_its_surface_width_and_rise() {
    let mesh = sections_loop().build_mesh().expect("builds");
    // Along +x from the centre, at angle 0 the road centre is at x = 200 (heading +y).
    // The left (inside) is towards smaller x.
    let road = down(&mesh, 200.0, 1.0);
    assert_eq!(road.surface, Surface::Asphalt);
    assert!((road.point.z - 3.0).abs() < 1e-6, "{}", road.point.z);
    // Kerb from 5 to 6 m inside, rising 5 cm: at 5.5 m it is 2.5 cm up.
    let kerb = down(&mesh, 194.5, 0.0);
    assert_eq!(kerb.surface, Surface::Kerb);
    assert!((kerb.point.z - 3.025).abs() < 2e-3, "{}", kerb.point.z);
    // Grass from 6 to 11 m inside, level with the kerb's top.
    let grass = down(&mesh, 191.0, 0.0);
    assert_eq!(grass.surface, Surface::Grass);
    assert!((grass.point.z - 3.05).abs() < 2e-3, "{}", grass.point.z);
    assert!(mesh.ground.height_below(188.0, 0.0, 1000.0).is_none());
    // Gravel from 5 to 13 m outside, falling 0.8 m: at 9 m it is 0.4 m down.
    let gravel = down(&mesh, 209.0, 0.0);
    assert_eq!(gravel.surface, Surface::Gravel);
    assert!((gravel.point.z - 2.6).abs() < 5e-3, "{}", gravel.point.z);
    // The second half of the loop has a concrete road.
    assert_eq!(down(&mesh, -200.0, -1.0).surface, Surface::Concrete);
    assert_eq!(down(&mesh, -200.0, 1.0).surface, Surface::Asphalt);
}

#[test]
fn cross_sections_are_validated() {
    let mut layout = sections_loop();
    layout.cross_sections[3].right.clear();
    layout.cross_sections[5].left[1].width_m = -1.0;
    layout.verge.push(VergeBand {
        surface: Surface::Grass,
        width_m: 3.0,
        slope_pct: 0.0,
        corner_surface: None,
    });
    let err = layout.check().expect_err("invalid");
    let paths: Vec<_> = err.0.iter().map(|v| v.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "cross_sections[3]",
            "cross_sections[5].left[1].width_m",
            "cross_sections"
        ],
        "{err}"
    );
    layout.cross_sections.pop();
    let err = layout.check().expect_err("invalid");
    assert!(
        err.to_string()
            .contains("must have one entry per centre-line point (48), has 47"),
        "{err}"
    );
}

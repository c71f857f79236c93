//! Tests of barriers: where they stand, how they split into polylines, what validation says,
//! and that they become the walls the ground hands the car.

use std::f64::consts::TAU;

use glam::DVec3;

use super::*;
use crate::ground::Surface;
use crate::validate::Validate;

/// A counter-clockwise circle of `n` control points at height 3 m, 10 m wide.
fn circle(radius: f64, n: u32) -> Vec<ControlPoint> {
    (0..n)
        .map(|k| {
            let a = TAU * f64::from(k) / f64::from(n);
            ControlPoint {
                x_m: radius * a.cos(),
                y_m: radius * a.sin(),
                z_m: 3.0,
                banking_deg: 0.0,
                width_m: 10.0,
            }
        })
        .collect()
}

/// The circle with a 1 m kerb and a level 4 m verge, and `barriers` on both sides.
fn uniform(barriers: Option<BarrierSpec>) -> TrackLayout {
    TrackLayout {
        closed: true,
        centre_line: circle(200.0, 48),
        kerb: Some(KerbSpec {
            width_m: 1.0,
            height_m: 0.0,
            straight_surface: Surface::Grass,
        }),
        verge: vec![VergeBand {
            surface: Surface::Grass,
            width_m: 4.0,
            slope_pct: 0.0,
            corner_surface: None,
        }],
        barriers,
        ..TrackLayout::default()
    }
}

#[test]
fn uniform_barriers_stand_beyond_the_last_verge_all_round() {
    let spec = BarrierSpec {
        offset_m: 1.5,
        ..BarrierSpec::wall(1.2)
    };
    let mesh = uniform(Some(spec)).build_mesh().expect("builds");
    assert_eq!(mesh.barriers.len(), 2);
    let samples = mesh.centre_line.samples().len();
    for b in &mesh.barriers {
        assert!(b.closed);
        assert_eq!(b.points.len(), samples);
        assert_eq!(b.spec, spec);
        // Road half width 5, kerb 1, verge 4, offset 1.5: 11.5 m from the centre line,
        // inside (left) or outside (right) the 200 m circle. The inside bands are not
        // narrowed: 0.85 * 200 m is far beyond them.
        let radius = match b.side {
            Side::Left => 200.0 - 11.5,
            Side::Right => 200.0 + 11.5,
        };
        for (p, out) in b.points.iter().zip(&b.outward) {
            let r = p.truncate().length();
            // The sampled centre line lies within a few cm of the circle through its points.
            assert!((r - radius).abs() < 0.05, "{:?} {r}", b.side);
            assert!((p.z - 3.0).abs() < 1e-9);
            let away = p.truncate().normalize().extend(0.0);
            let expected = if b.side == Side::Left { -away } else { away };
            assert!((*out - expected).length() < 0.02, "{out} {expected}");
        }
    }
    // The ground hands the car the walls; their faces look at the road.
    let walls = mesh.walls().expect("walls");
    assert_eq!(walls.segments().len(), 2 * samples);
    let inside = DVec3::new(200.0 - 11.52, 0.0, 3.2);
    let hit = walls
        .find_entry(inside, 0.25)
        .expect("behind the left wall");
    assert!((hit.depth_m - 0.02).abs() < 0.01, "{hit:?}");
    assert!(hit.normal.x > 0.99, "{hit:?}");
    assert!(
        walls
            .find_entry(DVec3::new(200.0 + 11.52, 0.0, 3.2), 0.25)
            .is_some()
    );
    assert!(
        walls
            .find_entry(DVec3::new(200.0, 0.0, 3.2), 0.25)
            .is_none()
    );
    // Above the 1.2 m top: nothing.
    assert!(walls.find_entry(inside + DVec3::Z * 1.1, 0.25).is_none());
}

#[test]
fn a_layout_without_barriers_has_no_walls() {
    let mesh = uniform(None).build_mesh().expect("builds");
    assert!(mesh.barriers.is_empty() && mesh.walls.is_empty());
    assert!(mesh.walls().is_none());
}

/// Cross-sections with a barrier on the right for the first half of the loop only, and one
/// at the left road edge all round.
fn sections(n: u32) -> TrackLayout {
    let fence = BarrierSpec {
        kind: BarrierKind::Fence,
        restitution: 0.1,
        ..BarrierSpec::wall(2.0)
    };
    let border = BarrierSpec {
        placement: BarrierPlacement::RoadEdge,
        ..BarrierSpec::wall(0.3)
    };
    let cross_sections = (0..n)
        .map(|k| CrossSection {
            road_surface: Surface::Asphalt,
            left: vec![SideBand {
                surface: Surface::Grass,
                width_m: 3.0,
                rise_m: 0.0,
            }],
            right: vec![SideBand {
                surface: Surface::Gravel,
                width_m: 6.0,
                rise_m: -0.6,
            }],
            left_barriers: vec![border],
            right_barriers: if k < n / 2 { vec![fence] } else { Vec::new() },
        })
        .collect();
    TrackLayout {
        closed: true,
        centre_line: circle(200.0, n),
        cross_sections,
        ..TrackLayout::default()
    }
}

#[test]
fn cross_section_barriers_follow_their_control_points() {
    let mesh = sections(48).build_mesh().expect("builds");
    let left: Vec<_> = mesh
        .barriers
        .iter()
        .filter(|b| b.side == Side::Left)
        .collect();
    let right: Vec<_> = mesh
        .barriers
        .iter()
        .filter(|b| b.side == Side::Right)
        .collect();
    assert_eq!((left.len(), right.len()), (1, 1), "{:?}", mesh.barriers);
    // The border wall runs all round at the road's edge, 5 m inside.
    assert!(left[0].closed);
    for p in &left[0].points {
        assert!((p.truncate().length() - 195.0).abs() < 0.05);
    }
    // The fence runs over the first half (open, from station 0), 11 m outside, its foot
    // 0.6 m down where the gravel ends.
    let fence = right[0];
    assert!(!fence.closed);
    assert_eq!(fence.spec.kind, BarrierKind::Fence);
    let first = fence.points[0];
    let last = fence.points[fence.points.len() - 1];
    assert!(
        (first - DVec3::new(211.0, 0.0, 2.4)).length() < 0.05,
        "{first}"
    );
    assert!(
        (last - DVec3::new(-211.0, 0.0, 2.4)).length() < 0.1,
        "{last}"
    );
    for p in &fence.points {
        assert!(p.y >= -1e-3, "{p}");
    }
    // Its walls end where it ends: nothing stops a car on the open half.
    let walls = mesh.walls().expect("walls");
    assert!(
        walls
            .find_entry(DVec3::new(0.0, 211.02, 2.6), 0.25)
            .is_some()
    );
    assert!(
        walls
            .find_entry(DVec3::new(0.0, -211.02, 2.6), 0.25)
            .is_none()
    );
}

#[test]
fn a_barrier_that_starts_mid_loop_is_one_polyline() {
    // Fence over control points 10..34 of 48: a single run, not cut at the seam.
    let mut layout = sections(48);
    for (k, s) in layout.cross_sections.iter_mut().enumerate() {
        if !(10..34).contains(&k) {
            s.right_barriers.clear();
        } else if s.right_barriers.is_empty() {
            s.right_barriers = layout_fence();
        }
    }
    let mesh = layout.build_mesh().expect("builds");
    let right: Vec<_> = mesh
        .barriers
        .iter()
        .filter(|b| b.side == Side::Right)
        .collect();
    assert_eq!(right.len(), 1);
    // And one that wraps over the seam (points 40..48 and 0..8) is one polyline too.
    let mut layout = sections(48);
    for (k, s) in layout.cross_sections.iter_mut().enumerate() {
        s.right_barriers = if (8..40).contains(&k) {
            Vec::new()
        } else {
            layout_fence()
        };
    }
    let mesh = layout.build_mesh().expect("builds");
    let right: Vec<_> = mesh
        .barriers
        .iter()
        .filter(|b| b.side == Side::Right)
        .collect();
    assert_eq!(right.len(), 1);
    assert!(!right[0].closed);
}

fn layout_fence() -> Vec<BarrierSpec> {
    vec![BarrierSpec {
        kind: BarrierKind::Fence,
        restitution: 0.1,
        ..BarrierSpec::wall(2.0)
    }]
}

#[test]
fn barriers_are_validated() {
    let mut layout = uniform(Some(BarrierSpec {
        restitution: 1.5,
        ..BarrierSpec::wall(0.0)
    }));
    let err = layout.check().expect_err("invalid");
    let paths: Vec<_> = err.0.iter().map(|v| v.path.as_str()).collect();
    assert_eq!(
        paths,
        ["barriers.height_m", "barriers.restitution"],
        "{err}"
    );
    layout.barriers = None;
    layout.check().expect("valid");
    let mut layout = sections(48);
    layout.cross_sections[2].left_barriers.push(BarrierSpec {
        placement: BarrierPlacement::RoadEdge,
        ..BarrierSpec::wall(1.0)
    });
    layout.barriers = Some(BarrierSpec::wall(1.0));
    let err = layout.check().expect_err("invalid");
    let paths: Vec<_> = err.0.iter().map(|v| v.path.as_str()).collect();
    assert_eq!(
        paths,
        ["cross_sections[2].left_barriers[1]", "barriers"],
        "{err}"
    );
}

/// Issue 33: on a closed track whose barrier changes along the lap (here its height, over
/// control points 10..30 of 48, so that one run crosses the seam), the runs chain round the
/// loop: each ends within 1 mm of where the next starts, the last joins the first, and the
/// walls link them, so that every wall segment has a neighbour at both ends (no open end for
/// a car to pass) and a contact followed over a joint goes on onto the next run.
#[test]
fn barriers_that_change_along_a_closed_loop_close_it() {
    let mut layout = sections(48);
    for (k, s) in layout.cross_sections.iter_mut().enumerate() {
        s.right_barriers = if (10..30).contains(&k) {
            vec![BarrierSpec::wall(1.0)]
        } else {
            vec![BarrierSpec::wall(2.0)]
        };
    }
    let mesh = layout.build_mesh().expect("builds");
    let right: Vec<_> = mesh
        .barriers
        .iter()
        .filter(|b| b.side == Side::Right)
        .collect();
    assert_eq!(right.len(), 2, "{right:?}");
    for (k, b) in right.iter().enumerate() {
        assert!(!b.closed);
        let next = right[(k + 1) % right.len()];
        let gap = b.points[b.points.len() - 1].distance(next.points[0]);
        assert!(gap < 1e-3, "run {k} ends {gap} m from the next");
    }
    let walls = mesh.walls().expect("walls");
    let ours: Vec<_> = walls
        .segments()
        .iter()
        .enumerate()
        .filter(|(_, s)| s.a.truncate().length() > 205.0)
        .collect();
    assert!(!ours.is_empty());
    for (i, s) in &ours {
        assert!(
            s.prev != crate::ground::walls::NO_SEGMENT
                && s.next != crate::ground::walls::NO_SEGMENT,
            "segment {i} of the right-hand wall has an open end"
        );
    }
    // A point 5 cm behind the face where the runs meet, followed from the segment before
    // the joint, is still behind a face.
    let joint = right[0].points[right[0].points.len() - 1];
    let (before, _) = ours
        .iter()
        .find(|(_, s)| s.b.distance(joint) < 1e-3)
        .expect("a segment ends at the joint");
    let outward = joint.truncate().normalize().extend(0.0);
    let behind = joint + outward * 0.05 + DVec3::Z * 0.5;
    let hit = walls
        .follow(behind, u32::try_from(*before).expect("fits"))
        .expect("still behind the wall");
    assert!((hit.depth_m - 0.05).abs() < 0.01, "{hit:?}");
}

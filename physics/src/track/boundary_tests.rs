//! Tests of the boundary: the terrain never rises through the built ground, reaches the
//! margin on every side, and the wall stands all round it.

use std::f64::consts::TAU;

use glam::DVec2;

use super::*;
use crate::ground::Surface;
use crate::validate::Validate;

/// A hilly closed loop (elevation ±8 m twice round, banked 5 degrees), a verge, a ramp pad
/// beside it: ground whose height varies, with gaps between road and pad.
fn hilly(boundary: Option<BoundarySpec>) -> TrackLayout {
    let centre_line = (0..24)
        .map(|k| {
            let a = TAU * f64::from(k) / 24.0;
            ControlPoint {
                x_m: 200.0 * a.cos(),
                y_m: 120.0 * a.sin(),
                z_m: 8.0 * (2.0 * a).sin(),
                banking_deg: 5.0,
                width_m: 10.0,
            }
        })
        .collect();
    TrackLayout {
        closed: true,
        centre_line,
        verge: vec![VergeBand {
            surface: Surface::Grass,
            width_m: 6.0,
            slope_pct: -10.0,
            corner_surface: None,
        }],
        pads: vec![Pad {
            name: "ramp".into(),
            surface: Surface::Concrete,
            shape: PadShape::Rectangle {
                centre_x_m: 0.0,
                centre_y_m: 0.0,
                z_m: 3.0,
                length_m: 60.0,
                width_m: 8.0,
                heading_deg: 30.0,
                rise_pct: 15.0,
            },
        }],
        boundary,
        ..TrackLayout::default()
    }
}

const SPEC: BoundarySpec = BoundarySpec {
    margin_m: 80.0,
    wall_height_m: 4.0,
    surface: Surface::Grass,
};

#[test]
fn the_terrain_lies_under_the_built_ground_and_fills_the_rest_out_to_the_wall() {
    let open = hilly(None).build_mesh().expect("valid");
    let closed = hilly(Some(SPEC)).build_mesh().expect("valid");
    // The built ground's bounding box, grown by the margin: where the wall must stand.
    let (lo, hi) = open.ground.vertices().iter().fold(
        (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY)),
        |(lo, hi), v| (lo.min(v.truncate()), hi.max(v.truncate())),
    );
    let (lo, hi) = (lo - DVec2::splat(80.0), hi + DVec2::splat(80.0));
    let wall = closed.barriers.last().expect("the boundary wall");
    assert!(wall.closed);
    assert!((wall.spec.height_m - 4.0).abs() < 1e-12);
    let (wall_lo, wall_hi) = wall.points.iter().fold(
        (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY)),
        |(a, b), p| (a.min(p.truncate()), b.max(p.truncate())),
    );
    // The grid spans the rectangle exactly (rounding of the cell steps only).
    assert!((wall_lo - lo).abs().max_element() < 1e-9, "{wall_lo} {lo}");
    assert!((wall_hi - hi).abs().max_element() < 1e-9, "{wall_hi} {hi}");
    assert_eq!(closed.terrain_first_triangle, open.ground.triangle_count());
    assert_eq!(open.terrain_first_triangle, open.ground.triangle_count());
    assert_eq!(
        closed.walls.segments().len(),
        open.walls.segments().len() + wall.points.len()
    );
    let mut built = 0;
    let mut filled = 0;
    for i in 0..=120 {
        for j in 0..=80 {
            let x = lo.x + 0.5 + (hi.x - lo.x - 1.0) * f64::from(i) / 120.0;
            let y = lo.y + 0.5 + (hi.y - lo.y - 1.0) * f64::from(j) / 80.0;
            let terrain = closed
                .ground
                .height_below(x, y, 1000.0)
                .unwrap_or_else(|| panic!("no ground at ({x}, {y}) inside the wall"));
            // Where there was ground, it is still the highest surface, the very same hit.
            if let Some(hit) = open.ground.height_below(x, y, 1000.0) {
                assert_eq!(hit.point, terrain.point, "at ({x}, {y})");
                assert_eq!(hit.surface, terrain.surface);
                built += 1;
            } else {
                assert_eq!(terrain.surface, Surface::Grass);
                filled += 1;
            }
        }
    }
    assert!(built > 500 && filled > 3000, "{built} {filled}");
    // Beyond the wall there is nothing.
    for p in [lo - DVec2::splat(1.0), hi + DVec2::splat(1.0)] {
        assert!(
            closed.ground.height_below(p.x, p.y, 1000.0).is_none(),
            "{p}"
        );
    }
}

#[test]
fn a_boundary_out_of_range_is_refused_by_name() {
    for (margin_m, wall_height_m, field) in [
        (f64::NAN, 4.0, "boundary.margin_m"),
        (0.0, 4.0, "boundary.margin_m"),
        (50.0, 0.0, "boundary.wall_height_m"),
        (50.0, f64::INFINITY, "boundary.wall_height_m"),
    ] {
        let layout = hilly(Some(BoundarySpec {
            margin_m,
            wall_height_m,
            surface: Surface::Grass,
        }));
        let message = layout.check().expect_err("refused").to_string();
        assert!(message.contains(field), "{message}");
    }
}

#[test]
fn the_terrain_continues_the_height_of_the_nearest_ground() {
    // Far from everything (the rectangle's corner), the terrain is no higher than the
    // lowest built point less the drop, and no lower than the lowest terrain vertex.
    let closed = hilly(Some(SPEC)).build_mesh().expect("valid");
    let open = hilly(None).build_mesh().expect("valid");
    let lowest = open
        .ground
        .vertices()
        .iter()
        .fold(f64::INFINITY, |z, v| z.min(v.z));
    let wall = closed.barriers.last().expect("the boundary wall");
    for p in &wall.points {
        assert!(p.z <= open_highest(&open) - boundary::TERRAIN_DROP_M, "{p}");
        assert!(p.z >= lowest - boundary::TERRAIN_DROP_M - 1e-9, "{p}");
        assert!(p.is_finite());
    }
}

fn open_highest(mesh: &TrackMesh) -> f64 {
    mesh.ground
        .vertices()
        .iter()
        .fold(f64::NEG_INFINITY, |z, v| z.max(v.z))
}

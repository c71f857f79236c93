//! The roadside furniture the renderer places by a track's rules: braking boards before
//! every corner on the outside of the approach, trees beyond the run-off, buildings; the same
//! track places the same furniture; a track without rules places none.

use std::path::{Path, PathBuf};

use glam::DVec3;
use gripline_formats::track_file::{LoadedTrack, build_track_ron, load_track};
use gripline_physics::ground::{Ground, GroundHit};
use gripline_physics::track::{Side, TrackMesh};
use gripline_render::roadside_placement::{
    RoadsideKind, TREE_CLEARANCE_M, corner_starts, place_roadside,
};

fn load(name: &str) -> LoadedTrack {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../assets/tracks/{name}.ron"));
    load_track(&path).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn down(mesh: &TrackMesh, x: f64, y: f64) -> GroundHit {
    mesh.ray_cast(DVec3::new(x, y, 500.0), DVec3::NEG_Z, 1000.0)
        .unwrap_or_else(|| panic!("no ground at ({x}, {y})"))
}

/// A small closed track (a rounded square, some 600 m) in the old format: objects are a
/// `Row` of boards and a `Single` cone only.
const OLD: &str = include_str!("../../../formats/tests/data/old-loop-track.ron");

#[test]
fn a_track_without_roadside_rules_places_nothing() {
    let track = build_track_ron(OLD, Path::new("old.ron")).expect("old file loads");
    assert!(place_roadside(&track.mesh).is_empty());
}

/// The rules with their defaults place boards and trees, the same each time (the trees'
/// jitter comes from the rule's seed).
#[test]
fn roadside_rules_place_boards_and_trees_deterministically() {
    let text = OLD.replace(
        "            Single(kind: Cone, x_m: 50.0, y_m: 0.0),",
        "            BrakingBoards(side_offset_m: 3.0),\n            Trees(spacing_m: 12.0, band_from_m: 2.0, band_to_m: 30.0),",
    );
    let track = build_track_ron(&text, Path::new("new.ron")).expect("builds");
    let items = place_roadside(&track.mesh);
    let boards = items
        .iter()
        .filter(|i| matches!(i.kind, RoadsideKind::BrakingBoard { .. }))
        .count();
    // The 200 m straights (between the corners at the square's ends) take 100 and 200 m.
    assert!(boards >= 2, "{boards} boards");
    let trees = items
        .iter()
        .filter(|i| matches!(i.kind, RoadsideKind::Tree { .. }))
        .count();
    assert!(trees > 20, "{trees} trees");
    // The same file builds the same furniture (deterministic seed).
    let again = build_track_ron(&text, Path::new("new.ron")).expect("builds");
    assert_eq!(items, place_roadside(&again.mesh));
}

/// The circuit's braking boards come from its `BrakingBoards` rule: before every corner
/// start, at 100, 200 and 300 m of path distance (those that fit on the straight before
/// it), on the outside of the approach, 4 m beyond the road's edge, standing on the ground.
#[test]
fn circuit_braking_boards_stand_before_every_corner_on_the_outside() {
    let mesh = load("circuit").mesh;
    let line = &mesh.centre_line;
    let corners = corner_starts(line, 160.0);
    println!("corner starts (station, turn, straight before): {corners:.1?}");
    assert!(corners.len() >= 6, "{corners:?}");
    let boards: Vec<_> = place_roadside(&mesh)
        .into_iter()
        .filter_map(|item| match item.kind {
            RoadsideKind::BrakingBoard {
                distance_m,
                corner_station_m,
            } => Some((item.position, distance_m, corner_station_m)),
            _ => None,
        })
        .collect();
    let expected: usize = corners
        .iter()
        .map(|c| [100.0, 200.0, 300.0].iter().filter(|&&d| d <= c.2).count())
        .sum();
    assert_eq!(boards.len(), expected);
    // T1 after the main straight gets all three.
    assert!(corners.iter().any(|c| c.2 > 600.0));
    for (position, distance_m, corner_station_m) in boards {
        let (station, turn, _) = corners
            .iter()
            .copied()
            .find(|c| (c.0 - corner_station_m).abs() < 1e-9)
            .expect("a corner start");
        let p = line.project(position).expect("projection");
        let before = (station - p.distance_m).rem_euclid(mesh.length_m);
        assert!(
            (before - distance_m).abs() < 1.0,
            "{before} vs {distance_m}"
        );
        // Outside of the approach: right of a left-hander.
        assert_eq!(p.lateral_m < 0.0, turn == Side::Left, "{p:?}");
        assert!((p.lateral_m.abs() - 10.0).abs() < 0.5, "{}", p.lateral_m);
        let ground = down(&mesh, position.x, position.y);
        assert!((ground.point.z - position.z).abs() < 1e-6);
    }
}

/// Trees stand beyond the run-off: no ground of the track (road, run-off, pads) under a tree
/// or within its crown's reach, none nearer the centre line than the road's half width plus
/// the kerb strip plus that reach (the run-off is narrowed on the inside of tight corners),
/// and none inside a wall (farther from every barrier point than its thickness).
#[test]
fn shipped_trees_and_buildings_stand_off_the_road_and_run_off() {
    for (name, road_m) in [("circuit", 6.0 + 1.2), ("proving-ground", 15.0)] {
        let mesh = load(name).mesh;
        let trees: Vec<_> = place_roadside(&mesh)
            .into_iter()
            .filter(|i| matches!(i.kind, RoadsideKind::Tree { .. }))
            .collect();
        println!("{name}: {} trees", trees.len());
        assert!(trees.len() > 200, "{name}: {} trees", trees.len());
        for t in &trees {
            let p = mesh.centre_line.project(t.position).expect("projection");
            let off = (t.position - p.point).truncate().length();
            assert!(off > road_m + TREE_CLEARANCE_M, "{name}: {off} at {p:?}");
            for k in 0..16 {
                let a = std::f64::consts::TAU * f64::from(k) / 16.0;
                let probe = t.position
                    + DVec3::new(a.cos(), a.sin(), 0.0) * (TREE_CLEARANCE_M - 0.05)
                    + DVec3::Z * 500.0;
                // The terrain round the track (its boundary) is what trees stand on.
                let built = mesh
                    .ground
                    .ray_cast_triangle(probe, DVec3::NEG_Z, 1000.0)
                    .is_some_and(|(triangle, _)| triangle < mesh.terrain_first_triangle);
                assert!(
                    !built,
                    "{name}: ground under the crown of the tree at {}",
                    t.position
                );
            }
            for b in &mesh.barriers {
                for q in &b.points {
                    let d = (t.position - *q).truncate().length();
                    assert!(d > b.spec.thickness_m, "{name}: a tree in a wall at {q}");
                }
            }
        }
    }
    let mesh = load("circuit").mesh;
    let buildings = place_roadside(&mesh)
        .iter()
        .filter(|i| matches!(i.kind, RoadsideKind::Building { .. }))
        .count();
    assert_eq!(buildings, 2);
}

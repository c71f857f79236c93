//! The roadside rules of a track file (`BrakingBoards`, `Trees`, `Building`): their
//! defaults, their validation, and track files written before them (the shipped circuit as
//! it was, with a `Row` of marker boards and no roadside rules) still load unchanged.

use std::path::Path;

use gripline_formats::track_file::{build_track_ron, parse_track_ron};
use gripline_physics::track::{ObjectKind, ObjectSpec};

/// A small closed track (a rounded square, some 600 m) in the old format: objects are a
/// `Row` of boards and a `Single` cone only.
const OLD: &str = include_str!("../data/old-loop-track.ron");

fn with_objects(objects: &str) -> String {
    OLD.replace(
        "            Single(kind: Cone, x_m: 50.0, y_m: 0.0),",
        objects,
    )
}

#[test]
fn a_track_file_without_roadside_rules_loads_as_before() {
    let track = build_track_ron(OLD, Path::new("old.ron")).expect("old file loads");
    assert_eq!(track.mesh.objects.len(), 3);
    let markers = track
        .mesh
        .objects
        .iter()
        .filter(|o| o.kind == ObjectKind::Marker && o.group == "boards")
        .count();
    assert_eq!(markers, 2, "Row boards still placed");
    assert!(track.mesh.roadside_rules.rules.is_empty());
}

#[test]
fn roadside_rules_take_their_defaults() {
    let text = with_objects(
        "            BrakingBoards(side_offset_m: 3.0),\n            Trees(spacing_m: 12.0, band_from_m: 2.0, band_to_m: 30.0),",
    );
    let file = parse_track_ron(&text, Path::new("new.ron")).expect("parses");
    let objects = &file.layout.objects;
    assert!(objects.iter().any(|o| matches!(
        o,
        ObjectSpec::BrakingBoards { distances_m, .. } if distances_m == &[100.0, 200.0, 300.0]
    )));
    assert!(
        objects
            .iter()
            .any(|o| matches!(o, ObjectSpec::Trees { seed: 0, .. }))
    );
    // The built track carries the rules for the renderer to place
    // (`render/tests/it/roadside_placement.rs` places them).
    let track = build_track_ron(&text, Path::new("new.ron")).expect("builds");
    assert_eq!(track.mesh.roadside_rules.rules.len(), 2);
    assert!((track.mesh.roadside_rules.corner_radius_m - 60.0).abs() < 1e-12);
}

#[test]
fn bad_roadside_rules_are_refused_with_their_field() {
    for (objects, field) in [
        (
            "            Trees(spacing_m: 10.0, band_from_m: 30.0, band_to_m: 5.0),",
            "band_to_m",
        ),
        (
            "            Trees(spacing_m: 0.0, band_from_m: 3.0, band_to_m: 5.0),",
            "spacing_m",
        ),
        (
            "            BrakingBoards(distances_m: [100.0, -5.0], side_offset_m: 3.0),",
            "distances_m",
        ),
        (
            "            Building(style: Grandstand, station_m: 10.0, side: Left, offset_m: 2.0, length_m: 40.0, depth_m: 10.0, height_m: 0.0),",
            "height_m",
        ),
    ] {
        let text = with_objects(objects);
        let e = build_track_ron(&text, Path::new("bad.ron"))
            .expect_err("refused")
            .to_string();
        assert!(e.contains(field), "{objects}: {e}");
    }
}

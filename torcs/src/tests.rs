//! Tests of the TORCS parameter reader on small files written here (the installed tracks are
//! read by the crate's integration tests).

use std::path::Path;

use crate::error::TorcsError;
use crate::params::Value;
use crate::track::convert::import_track;
use crate::xml::{parse_params, read_params};

const TRACK: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE params SYSTEM "../../../src/libs/tgf/params.dtd" [
<!-- general definitions for tracks -->
<!ENTITY default-surfaces SYSTEM "surfaces.xml">
<!ENTITY author "A. N. Author">
]>
<params name="test" type="param" mode="mw">
  <section name="Surfaces">&default-surfaces;
    <section name="local"><attnum name="friction" val="0.5"/></section>
  </section>
  <section name="Header"><attstr name="author" val="x &amp; y"/></section>
  <section name="Main Track">
    <attnum name="width" unit="ft" val="40"/>
    <section name="Track Segments">
      <section name="s1"><attstr name="type" val="str"/><attnum name="lg" unit="km" val="0.5"/></section>
      <section name="t1"><attstr name="type" val="rgt"/><attnum name="arc" unit="deg" val="90"/>
        <attnum name="grade" unit="%" val="2"/></section>
    </section>
  </section>
</params>
"#;

const SURFACES: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<!-- included -->
      <section name="asphalt">
        <attnum name="friction" val="1.2"/>
        <attnum name="rolling resistance" val="0.001"/>
      </section>
      <section name="grass"><attnum name="friction" val="0.4"/></section>
"#;

fn write_pair(dir: &Path) -> std::path::PathBuf {
    std::fs::write(dir.join("surfaces.xml"), SURFACES).expect("write");
    let track = dir.join("t.xml");
    std::fs::write(&track, TRACK).expect("write");
    track
}

#[test]
fn reads_sections_attributes_units_and_entities() {
    let dir = tempfile::tempdir().expect("temp dir");
    let track = write_pair(dir.path());
    let params = read_params(&track).expect("parses");
    assert_eq!(params.root.name, "test");
    // The file read, then the file its entity includes, once.
    assert_eq!(
        params.files(),
        [track.clone(), dir.path().join("surfaces.xml")]
    );
    let surfaces = params.root.section("Surfaces").expect("surfaces");
    let names: Vec<_> = surfaces.sections.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["asphalt", "grass", "local"]);
    let asphalt = surfaces.section("asphalt").expect("included");
    assert_eq!(asphalt.number("friction").unwrap(), Some(1.2));
    assert!(asphalt.file.ends_with("surfaces.xml"));
    assert_eq!(asphalt.line, 3);
    let main = params.root.section("Main Track").expect("main");
    // 40 ft = 12.192 m.
    assert!((main.number("width").unwrap().unwrap() - 12.192).abs() < 1e-12);
    let t1 = params.root.at("Main Track/Track Segments/t1").expect("t1");
    assert!((t1.number("arc").unwrap().unwrap() - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
    assert!((t1.number("grade").unwrap().unwrap() - 0.02).abs() < 1e-15);
    let s1 = params.root.at("Main Track/Track Segments/s1").expect("s1");
    assert_eq!(s1.number("lg").unwrap(), Some(500.0));
    assert_eq!(s1.text("type").unwrap(), Some("str"));
    assert!(s1.number("type").is_err());
    assert_eq!(
        params.root.at("Header").unwrap().attributes[0].value,
        Value::Text("x & y".to_owned())
    );
}

#[test]
fn a_missing_entity_file_is_a_clear_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    let track = write_pair(dir.path());
    std::fs::remove_file(dir.path().join("surfaces.xml")).expect("remove");
    let err = read_params(&track).unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, TorcsError::Entity { .. }), "{text}");
    assert!(
        text.contains("t.xml: entity '&default-surfaces;'"),
        "{text}"
    );
    assert!(
        text.contains("surfaces.xml, which cannot be read"),
        "{text}"
    );
}

#[test]
fn errors_name_the_file_line_and_attribute() {
    let path = Path::new("bad.xml");
    let err = parse_params(
        "<params><section name=\"a\">\n<attnum name=\"lg\" val=\"12x\"/>",
        path,
    )
    .unwrap_err();
    assert!(err.to_string().starts_with("bad.xml:"), "{err}");
    let err = parse_params(
        "<params><section name=\"a\">\n<attnum name=\"lg\" val=\"12x\"/></section></params>",
        path,
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "bad.xml:2: attribute 'lg': value '12x' is not a finite number"
    );
    let err = parse_params(
        "<params>\n\n<attnum name=\"lg\" unit=\"furlong\" val=\"1\"/></params>",
        path,
    )
    .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("bad.xml:3: attribute 'lg': unknown unit 'furlong'"),
        "{err}"
    );
    let err = parse_params("<track/>", path).unwrap_err();
    assert!(
        err.to_string()
            .contains("a TORCS parameter file has <params>"),
        "{err}"
    );
    let err = parse_params("<params><section/></params>", path).unwrap_err();
    assert!(
        err.to_string().contains("<section> without a 'name'"),
        "{err}"
    );
}

#[test]
fn truncated_and_garbage_input_gives_errors_never_panics() {
    let dir = tempfile::tempdir().expect("temp dir");
    let track = write_pair(dir.path());
    let path = track.as_path();
    // Every prefix of a real file: each either parses or fails with an error naming the file.
    for end in (0..TRACK.len()).filter(|&i| TRACK.is_char_boundary(i)) {
        if let Err(err) = parse_params(&TRACK[..end], path) {
            assert!(err.to_string().contains("t.xml"), "{end}: {err}");
        }
    }
    // Garbage: a deterministic pseudo-random byte soup built from XML's own characters.
    let alphabet: Vec<char> = "<>/=\"'&;![]-? abcsectionattnumvalunit%0123456789.\n"
        .chars()
        .collect();
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..2000 {
        let len = usize::try_from(state % 200).unwrap_or(0);
        let text: String = (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                alphabet[usize::try_from(state % alphabet.len() as u64).unwrap_or(0)]
            })
            .collect();
        let _ = parse_params(&format!("<params>{text}"), path);
        let _ = parse_params(&text, path);
    }
}

#[test]
fn surfaces_map_by_friction_and_rolling_resistance() {
    use gripline_physics::ground::Surface;

    use crate::track::geometry::BorderStyle;
    use crate::track::surfaces::{TorcsSurface, map_surface};
    // Friction and rolling resistance of torcs-data 1.3.7's data/tracks/surfaces.xml.
    let s = |friction, rolling_resistance| TorcsSurface {
        friction,
        rolling_resistance,
    };
    assert_eq!(
        map_surface("asphalt", s(1.2, 0.001), None),
        Surface::Asphalt
    );
    assert_eq!(map_surface("road1", s(1.1, 0.002), None), Surface::Concrete);
    // Slippery but paved: concrete (grass before, with loose-surface drag on a hard road).
    assert_eq!(
        map_surface("concrete", s(0.8, 0.0035), None),
        Surface::Concrete
    );
    assert_eq!(
        map_surface("concrete3", s(0.7, 0.003), None),
        Surface::Concrete
    );
    assert_eq!(
        map_surface("b-road1-l2", s(0.8, 0.002), None),
        Surface::Concrete
    );
    // The borders into grass and the softer dirt roll at 0.005 and more: grass.
    assert_eq!(
        map_surface("b-asphalt-grass7", s(0.8, 0.005), None),
        Surface::Grass
    );
    assert_eq!(map_surface("dirt-b", s(0.8, 0.006), None), Surface::Grass);
    assert_eq!(
        map_surface("concrete2", s(1.0, 0.002), None),
        Surface::Concrete
    );
    assert_eq!(map_surface("grass", s(0.4, 0.01), None), Surface::Grass);
    assert_eq!(map_surface("sand", s(0.6, 0.1), None), Surface::Sand);
    assert_eq!(map_surface("gravel", s(0.6, 0.15), None), Surface::Gravel);
    assert_eq!(map_surface("dirt", s(0.9, 0.006), None), Surface::Concrete);
    assert_eq!(
        map_surface("curb-5cm-r", s(1.4, 0.0025), Some(BorderStyle::Curb)),
        Surface::Kerb
    );
    assert_eq!(
        map_surface("curb-5cm-r", s(1.4, 0.0025), Some(BorderStyle::Plan)),
        Surface::Asphalt
    );
}

const BARRIERS: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<params name="barriers" type="param" mode="mw">
  <section name="Main Track">
    <attnum name="width" unit="m" val="10"/>
    <section name="Left Side"><attnum name="width" unit="m" val="4"/></section>
    <section name="Left Barrier">
      <attstr name="style" val="wall"/><attnum name="height" unit="m" val="1.0"/>
    </section>
    <section name="Right Border">
      <attnum name="width" unit="m" val="0.5"/><attnum name="height" unit="m" val="0.3"/>
      <attstr name="style" val="wall"/>
    </section>
    <section name="Track Segments">
      <section name="a"><attstr name="type" val="str"/><attnum name="lg" unit="m" val="100"/></section>
      <section name="t1"><attstr name="type" val="lft"/><attnum name="arc" unit="deg" val="180"/>
        <attnum name="radius" unit="m" val="30"/></section>
      <section name="b"><attstr name="type" val="str"/><attnum name="lg" unit="m" val="100"/>
        <section name="Left Barrier"><attstr name="style" val="fence"/></section>
        <section name="Right Barrier"><attstr name="style" val="no barrier"/></section>
      </section>
      <section name="t2"><attstr name="type" val="lft"/><attnum name="arc" unit="deg" val="180"/>
        <attnum name="radius" unit="m" val="30"/>
        <section name="Left Barrier"><attstr name="style" val="wall"/><attnum name="height" unit="m" val="2"/></section>
      </section>
    </section>
  </section>
</params>
"#;

/// Barriers carry over from segment to segment as TORCS's `AddSides` carries them: the main
/// track's wall takes TORCS's 0.5 m width, a fence has none, a wall after a fence keeps the
/// fence's zero width unless given one; the right side's default fence gives way to `no
/// barrier`; a wall border becomes a wall at the road's edge.
#[test]
fn barriers_follow_torcs_and_become_walls_beside_the_road() {
    use gripline_physics::track::{BarrierKind, BarrierPlacement, Side};

    use crate::track::geometry::{BarrierStyle, DEFAULT_BARRIER_HEIGHT_M, main_track};

    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("b.xml");
    std::fs::write(&path, BARRIERS).expect("write");
    let params = read_params(&path).expect("parses");
    let main = main_track(&params).expect("builds");
    let at = |d: f64| {
        main.samples
            .iter()
            .find(|s| (s.distance_m - d).abs() < 1.0)
            .expect("sample")
    };
    let half_turn = std::f64::consts::PI * 30.0;
    let (a, b, c) = (at(50.0), at(150.0 + half_turn), at(200.0 + 1.5 * half_turn));
    // Left (index 1).
    assert_eq!(a.sides[1].barrier.style, BarrierStyle::Wall);
    assert!((a.sides[1].barrier.width_m - 0.5).abs() < 1e-12);
    assert!((a.sides[1].barrier.height_m - 1.0).abs() < 1e-12);
    assert_eq!(b.sides[1].barrier.style, BarrierStyle::Fence);
    assert!(b.sides[1].barrier.width_m == 0.0 && (b.sides[1].barrier.height_m - 1.0).abs() < 1e-12);
    assert_eq!(c.sides[1].barrier.style, BarrierStyle::Wall);
    assert!(c.sides[1].barrier.width_m == 0.0 && (c.sides[1].barrier.height_m - 2.0).abs() < 1e-12);
    // Right (index 0): TORCS's default fence, then none.
    assert_eq!(a.sides[0].barrier.style, BarrierStyle::Fence);
    assert!((a.sides[0].barrier.height_m - DEFAULT_BARRIER_HEIGHT_M).abs() < 1e-12);
    assert_eq!(a.sides[0].barrier.surface, "barrier");
    assert_eq!(b.sides[0].barrier.style, BarrierStyle::None);

    let imported = import_track(&path).expect("imports");
    let mesh = imported.layout.build_mesh().expect("builds");
    let left: Vec<_> = mesh
        .barriers
        .iter()
        .filter(|b| b.side == Side::Left)
        .collect();
    let kinds: Vec<_> = left.iter().map(|b| b.spec.kind).collect();
    assert_eq!(
        kinds,
        [BarrierKind::Wall, BarrierKind::Fence, BarrierKind::Wall],
        "{left:?}"
    );
    // Along the first straight the left barrier stands at the side's outer edge: the centre
    // line at y = 5, 5 m of road, 4 m of side. The spline through the 1 m rows rounds the
    // joins with the arcs by millimetres over their first metres, so the ends are left out.
    let on_a: Vec<_> = left[0]
        .points
        .iter()
        .filter(|p| p.x > 3.0 && p.x < 97.0 && p.y < 30.0)
        .collect();
    assert!(on_a.len() > 40);
    for p in on_a {
        assert!((p.y - 14.0).abs() < 1e-6, "{p}");
    }
    let right: Vec<_> = mesh
        .barriers
        .iter()
        .filter(|b| b.side == Side::Right)
        .collect();
    let outer = right
        .iter()
        .filter(|b| b.spec.placement == BarrierPlacement::OuterEdge)
        .count();
    let border = right
        .iter()
        .find(|b| b.spec.placement == BarrierPlacement::RoadEdge)
        .expect("a wall border");
    // TORCS's default fence on a and t1; `no barrier` from b on.
    assert_eq!(outer, 1, "{right:?}");
    assert!(border.closed);
    assert!((border.spec.height_m - 0.3).abs() < 1e-12);
    assert!((border.spec.thickness_m - 0.5).abs() < 1e-12);
    assert!(mesh.walls.segments().len() > 200);
}

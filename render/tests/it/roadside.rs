//! The shipped circuit's roadside drawn offscreen on the software adapter: from the road on
//! the approach to T1, the wall, the braking boards and the trees are where physics puts
//! them (their projected pixels have the wall's grey, a board's white and black, the trees'
//! green), and are absent from the same frame with the roadside taken away. The frames are
//! written as PNGs for a person to look at. Over an imported TORCS scene the generated
//! barriers are not drawn (the scene has its own walls).
//!
//! The adapter rule is the golden tests' (`GRIPLINE_SKIP_GPU_TESTS=1` skips).

use crate::common;
use crate::common::gpu;
use std::path::PathBuf;

use glam::DVec3;
use gripline_formats::assets;
use gripline_formats::track_file::load_track;
use gripline_formats::vehicle_file::load_vehicle;
use gripline_physics::track::TrackMesh;
use gripline_render::roadside_placement::{RoadsideKind, place_roadside};
use gripline_render::{
    CameraView, FrameInput, GpuContext, OffscreenRenderer, RenderSettings, RgbaImage, VehiclePose,
    VehicleVisual,
};

const W: u32 = 480;
const H: u32 = 270;

fn out_dir() -> PathBuf {
    common::out_dir("render-roadside")
}

fn visual() -> VehicleVisual {
    let params = load_vehicle(&assets::resolve_vehicle("corvette-c5").expect("vehicle"))
        .expect("load vehicle")
        .params;
    VehicleVisual::from_params(&params)
}

/// A view from `eye` towards `target`.
fn look(eye: DVec3, target: DVec3) -> CameraView {
    let view_from_world = glam::dcamera::rh::view::look_at_mat4(eye, target, DVec3::Z);
    let (_, rotation, _) = view_from_world.inverse().to_scale_rotation_translation();
    CameraView {
        eye_world: eye,
        world_from_view: rotation.normalize(),
        fov_y_rad: 50f64.to_radians(),
        near_m: 0.1,
    }
}

fn render(
    gpu: GpuContext,
    track: &TrackMesh,
    visual: &VehicleVisual,
    pose: &VehiclePose,
    view: CameraView,
) -> RgbaImage {
    let mut r = OffscreenRenderer::new(gpu, &RenderSettings::default(), track, visual, W, H)
        .expect("offscreen renderer");
    let frame = FrameInput {
        pose: *pose,
        view,
        show_cockpit: false,
        ghost: None,
        width: W,
        height: H,
    };
    r.render_frame(&frame).expect("render")
}

/// Pixel of a world point, `None` when off screen or behind the eye.
fn pixel_of(view: &CameraView, p: DVec3) -> Option<(u32, u32)> {
    let ndc = view.project(p, f64::from(W) / f64::from(H))?;
    let x = (f64::from(ndc.x) + 1.0) * 0.5 * f64::from(W);
    let y = (1.0 - f64::from(ndc.y)) * 0.5 * f64::from(H);
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    ((2.0..f64::from(W) - 2.0).contains(&x) && (2.0..f64::from(H) - 2.0).contains(&y))
        .then_some((x as u32, y as u32))
}

fn rgb(image: &RgbaImage, (x, y): (u32, u32)) -> [f64; 3] {
    let p = image.pixel(x, y);
    [0, 1, 2].map(|c| f64::from(p[c]))
}

fn greyish(p: [f64; 3]) -> bool {
    let (lo, hi) = (p[0].min(p[1]).min(p[2]), p[0].max(p[1]).max(p[2]));
    hi - lo < 25.0 && hi > 60.0
}

/// Concrete, lit by the sun or, in the shade, by the blue sky: not green, not dark.
fn concrete(p: [f64; 3]) -> bool {
    p[1] <= p[0].max(p[2]) + 5.0 && p[0].min(p[1]).min(p[2]) > 60.0
}

/// Whether two pixels differ clearly.
fn differs(p: [f64; 3], q: [f64; 3]) -> bool {
    (0..3).map(|c| (p[c] - q[c]).abs()).sum::<f64>() > 60.0
}

fn green(p: [f64; 3]) -> bool {
    p[1] > p[0] + 5.0 && p[1] > p[2] + 5.0
}

#[test]
fn circuit_walls_boards_and_trees_are_drawn_where_they_are_placed() {
    let Some(gpu) = gpu() else { return };
    let track = load_track(&assets::resolve_track("circuit").expect("circuit")).expect("load");
    let mesh = &track.mesh;
    let visual = visual();
    // On the main straight 130 m before T1's boards, 1.3 m above the road, looking ahead.
    let line = &mesh.centre_line;
    let boards: Vec<_> = place_roadside(mesh)
        .into_iter()
        .filter(|i| matches!(i.kind, RoadsideKind::BrakingBoard { .. }))
        .filter(|i| {
            line.project(i.position)
                .is_some_and(|p| p.distance_m < 800.0)
        })
        .collect();
    assert_eq!(boards.len(), 3, "T1's three boards");
    let at = |station: f64| line.sample_at(station).expect("on the line");
    let s = at(470.0);
    let eye = s.position + DVec3::Z * 1.3 - s.left * 2.0;
    let view = look(eye, at(560.0).position + DVec3::Z * 1.0);
    let pose = VehiclePose::on_centre_line(mesh, &visual, 20.0, 0.0).expect("pose");
    let image = render(gpu.clone(), mesh, &visual, &pose, view);
    image
        .write_png(&out_dir().join("t1_approach.png"))
        .expect("png");
    let roadside = gripline_render::track_geometry::TrackGeometry::new(mesh).roadside;
    println!(
        "circuit roadside: {} triangles ({} barriers, {} items)",
        roadside.triangle_count(),
        mesh.barriers.len(),
        place_roadside(mesh).len()
    );
    let mut bare_mesh = mesh.clone();
    bare_mesh.roadside_rules.rules.clear();
    bare_mesh.barriers.clear();
    let bare = render(gpu, &bare_mesh, &visual, &pose, view);
    bare.write_png(&out_dir().join("t1_approach_bare.png"))
        .expect("png");

    // The wall on the right, 50 to 90 m ahead, 0.6 m up its face (above the foot stripe):
    // concrete where the bare frame has the grass beyond.
    let right_wall = mesh
        .barriers
        .iter()
        .find(|b| b.side == gripline_physics::track::Side::Right)
        .expect("right wall");
    let mut wall_px = 0;
    let mut wall_checked = 0;
    for p in &right_wall.points {
        let station = line.project(*p).map_or(0.0, |q| q.distance_m);
        if !(520.0..560.0).contains(&station) {
            continue;
        }
        let Some(px) = pixel_of(&view, *p + DVec3::Z * 0.6) else {
            continue;
        };
        wall_checked += 1;
        let (p, q) = (rgb(&image, px), rgb(&bare, px));
        if concrete(p) && differs(p, q) {
            wall_px += 1;
        }
    }
    assert!(wall_checked > 10, "{wall_checked} wall points on screen");
    assert!(
        wall_px * 10 >= wall_checked * 8,
        "{wall_px} of {wall_checked} wall points drawn as concrete"
    );

    // Each board on screen: white board pixels where the bare frame has none.
    for board in &boards {
        let centre = board.position + DVec3::Z * 1.5;
        let Some((cx, cy)) = pixel_of(&view, centre) else {
            panic!("board at {} off screen", board.position);
        };
        let mut white = 0;
        for y in cy.saturating_sub(3)..=cy + 3 {
            for x in cx.saturating_sub(6)..=cx + 6 {
                let (p, q) = (rgb(&image, (x, y)), rgb(&bare, (x, y)));
                white += usize::from(p.iter().all(|&c| c > 170.0) && differs(p, q));
            }
        }
        println!("board at {:.0}: {white} white pixels", board.position);
        assert!(white > 0, "board at {} not white", board.position);
    }

    // Trees in view, 40 to 200 m away: green at 5 m up their axis, unlike the bare frame.
    let (mut trees, mut drawn) = (0, 0);
    for t in place_roadside(mesh)
        .iter()
        .filter(|i| matches!(i.kind, RoadsideKind::Tree { .. }))
    {
        let d = (t.position - eye).length();
        if !(40.0..200.0).contains(&d) {
            continue;
        }
        let Some(px) = pixel_of(&view, t.position + DVec3::Z * 5.0) else {
            continue;
        };
        trees += 1;
        let (p, q) = (rgb(&image, px), rgb(&bare, px));
        drawn += usize::from(green(p) && differs(p, q));
    }
    println!("{drawn} of {trees} trees in view drawn green");
    assert!(trees >= 10, "{trees} trees in view");
    assert!(drawn * 10 >= trees * 6, "{drawn} of {trees} trees drawn");
}

/// T1's 100 m board from 15 m down the road, 1.5 m up: a white board with black digits
/// (dark pixels, where the bare frame has none) in the middle of it.
#[test]
fn a_braking_board_shows_its_distance_in_digits() {
    let Some(gpu) = gpu() else { return };
    let track = load_track(&assets::resolve_track("circuit").expect("circuit")).expect("load");
    let mesh = &track.mesh;
    let visual = visual();
    let line = &mesh.centre_line;
    let board = place_roadside(mesh)
        .into_iter()
        .find(|i| {
            matches!(i.kind, RoadsideKind::BrakingBoard { distance_m, .. } if (distance_m - 100.0).abs() < 1e-9)
        })
        .expect("a 100 m board");
    let station = line.project(board.position).expect("on").distance_m;
    let s = line.sample_at(station - 15.0).expect("on the line");
    let across = board.position - line.sample_at(station).expect("on").position;
    let eye = s.position + across * 0.7 + DVec3::Z * 1.5;
    let view = look(eye, board.position + DVec3::Z * 1.5);
    let pose = VehiclePose::on_centre_line(mesh, &visual, 20.0, 0.0).expect("pose");
    let image = render(gpu.clone(), mesh, &visual, &pose, view);
    image
        .write_png(&out_dir().join("board_close.png"))
        .expect("png");
    let mut bare_mesh = mesh.clone();
    bare_mesh.roadside_rules.rules.clear();
    let bare = render(gpu, &bare_mesh, &visual, &pose, view);
    let (cx, cy) = pixel_of(&view, board.position + DVec3::Z * 1.5).expect("on screen");
    let (mut white, mut dark) = (0, 0);
    for y in cy.saturating_sub(20)..=cy + 20 {
        for x in cx.saturating_sub(30)..=cx + 30 {
            let (p, q) = (rgb(&image, (x, y)), rgb(&bare, (x, y)));
            if differs(p, q) {
                white += usize::from(p.iter().all(|&c| c > 170.0));
                dark += usize::from(p.iter().all(|&c| c < 60.0));
            }
        }
    }
    println!("close board: {white} white, {dark} dark pixels");
    assert!(white > 100 && dark > 50, "{white} white, {dark} dark");
}

/// A view from above the main straight for a person to look at: the pit building, the
/// grandstand, the walls and the woods.
#[test]
fn circuit_pit_straight_from_above() {
    let Some(gpu) = gpu() else { return };
    let track = load_track(&assets::resolve_track("circuit").expect("circuit")).expect("load");
    let mesh = &track.mesh;
    let visual = visual();
    let line = &mesh.centre_line;
    let s = line.sample_at(250.0).expect("on the line");
    let eye = s.position + DVec3::Z * 25.0 - s.left * 60.0 - s.tangent * 30.0;
    let view = look(eye, line.sample_at(420.0).expect("on").position);
    let pose = VehiclePose::on_centre_line(mesh, &visual, 380.0, 0.0).expect("pose");
    let image = render(gpu, mesh, &visual, &pose, view);
    image
        .write_png(&out_dir().join("pit_straight.png"))
        .expect("png");
    // The pit building's face (light grey) is on screen where physics puts it.
    let pits = place_roadside(mesh)
        .into_iter()
        .find(|i| matches!(i.kind, RoadsideKind::Building { .. }))
        .expect("pit building");
    let px = pixel_of(&view, pits.position + DVec3::Z * 5.0).expect("pit building on screen");
    assert!(greyish(rgb(&image, px)), "{:?}", rgb(&image, px));
}

/// Over an imported TORCS scene (forza, where Debian's `torcs-data` is installed), which
/// models its own walls, the generated barriers and roadside are not drawn: the frame is
/// the same, pixel for pixel, as with them taken away; over the generated ground they are
/// drawn (the frames differ).
#[test]
fn imported_scenes_are_not_drawn_over_with_generated_barriers() {
    use gripline_render::{Camera, CameraMode, QualityTier};
    use gripline_torcs::track::load::load_torcs_track;
    use gripline_torcs::track::scene_file::scene_for_track;
    const FORZA: &str = "/usr/share/games/torcs/tracks/road/forza/forza.xml";
    if !std::path::Path::new(FORZA).is_file() {
        println!("skipped: {FORZA} is absent (install Debian's torcs-data)");
        return;
    }
    let Some(gpu) = gpu() else { return };
    let track = load_torcs_track(std::path::Path::new(FORZA)).expect("forza imports");
    assert!(!track.mesh.barriers.is_empty(), "forza has barriers");
    let scene = scene_for_track(&track)
        .expect("forza has a scene")
        .expect("loads");
    let mut bare_mesh = track.mesh.clone();
    bare_mesh.barriers.clear();
    bare_mesh.roadside_rules.rules.clear();
    let visual = visual();
    let settings = QualityTier::Low.settings(1);
    let pose = VehiclePose::on_centre_line(&track.mesh, &visual, 8.0, 0.0).expect("pose");
    let mut camera = Camera::new(CameraMode::Chase);
    camera.update(&pose, 0.0);
    let frame = FrameInput::new(&pose, &camera, &visual, W / 2, H / 2);
    let frames = [&track.mesh, &bare_mesh].map(|mesh| {
        let mut r = OffscreenRenderer::new(gpu.clone(), &settings, mesh, &visual, W / 2, H / 2)
            .expect("renderer");
        let ground = r.render_frame(&frame).expect("frame");
        r.scene_mut().set_track_scene(Some(&scene));
        assert!(r.scene().track_scene().is_some());
        let scened = r.render_frame(&frame).expect("frame");
        (ground, scened)
    });
    frames[0]
        .0
        .write_png(&out_dir().join("forza_ground.png"))
        .expect("png");
    frames[0]
        .1
        .write_png(&out_dir().join("forza_scene.png"))
        .expect("png");
    assert!(
        frames[0].0.data != frames[1].0.data,
        "barriers drawn over the generated ground"
    );
    assert!(
        frames[0].1.data == frames[1].1.data,
        "the generated barriers show over the imported scene"
    );
}

/// No GPU: the drawn braking boards of the circuit stand 100, 200 and 300 m of path
/// distance (within 1 m) before the corner start each announces, found by the rule from the
/// centre line, on the outside; and no vertex of a drawn tree or building comes over the
/// road or the run-off (none has the track's ground under it, none is within the road's
/// half width and the kerb strip of the centre line).
#[test]
fn circuit_boards_and_trees_are_drawn_where_the_rules_put_them() {
    use gripline_physics::track::Side;
    use gripline_render::mesh::MeshBuilder;
    use gripline_render::roadside::{Detail, add_roadside};
    use gripline_render::roadside_placement::RoadsideItem;
    use gripline_render::roadside_placement::corner_starts;
    let track = load_track(&assets::resolve_track("circuit").expect("circuit")).expect("load");
    let mesh = &track.mesh;
    let line = &mesh.centre_line;
    let corners = corner_starts(line, 160.0);
    // Both levels of detail: near and far trees stand in the same places.
    let drawn = |item: &RoadsideItem| {
        let mut m = MeshBuilder::new();
        for detail in [Detail::Near, Detail::Far] {
            add_roadside(
                &mut m,
                std::slice::from_ref(item),
                &|p: DVec3| p.as_vec3(),
                detail,
            );
        }
        m.vertices
            .iter()
            .map(|v| DVec3::from(glam::Vec3::from(v.position)))
            .collect::<Vec<_>>()
    };
    let mut boards = 0;
    for item in &place_roadside(mesh) {
        match item.kind {
            RoadsideKind::BrakingBoard { distance_m, .. } => {
                boards += 1;
                let vertices = drawn(item);
                // The board's middle: the mean of its vertices, horizontally.
                #[allow(clippy::cast_precision_loss)]
                let centre = vertices.iter().sum::<DVec3>() / vertices.len() as f64;
                let p = line.project(centre).expect("on the line");
                let ok = corners.iter().any(|&(start, turn, _)| {
                    let before = (start - p.distance_m).rem_euclid(mesh.length_m);
                    (before - distance_m).abs() < 1.0 && (p.lateral_m < 0.0) == (turn == Side::Left)
                });
                assert!(ok, "board {distance_m} m at {centre}: {p:?}");
            }
            RoadsideKind::Tree { .. } | RoadsideKind::Building { .. } => {
                for v in drawn(item) {
                    // Over the terrain round the track (its boundary), never over what is built.
                    let over = mesh
                        .ground
                        .ray_cast_triangle(DVec3::new(v.x, v.y, 1000.0), DVec3::NEG_Z, 2000.0)
                        .is_some_and(|(triangle, _)| triangle < mesh.terrain_first_triangle);
                    assert!(!over, "{v} over the track's ground");
                    let p = line.project(v).expect("on the line");
                    assert!((v - p.point).truncate().length() > 7.2, "{v} over the road");
                }
            }
        }
    }
    assert_eq!(boards, 12);
}

/// The proving ground's trees line the south edge of its grass base: seen from the straight
/// looking south, most trees in view are drawn green where physics puts them (the sky
/// behind them is not green).
#[test]
fn proving_ground_trees_line_the_edge_of_its_base() {
    let Some(gpu) = gpu() else { return };
    let track = load_track(&assets::resolve_track("proving-ground").expect("track")).expect("load");
    let mesh = &track.mesh;
    let visual = visual();
    let eye = DVec3::new(1000.0, -12.0, 1.6);
    let view = look(eye, DVec3::new(1000.0, -120.0, 4.0));
    let pose = VehiclePose::on_centre_line(mesh, &visual, 1000.0, 0.0).expect("pose");
    let image = render(gpu, mesh, &visual, &pose, view);
    image
        .write_png(&out_dir().join("proving_ground_south.png"))
        .expect("png");
    let (mut trees, mut drawn) = (0, 0);
    for t in place_roadside(mesh)
        .iter()
        .filter(|i| matches!(i.kind, RoadsideKind::Tree { .. }))
    {
        if (t.position - eye).length() > 200.0 {
            continue;
        }
        let Some(px) = pixel_of(&view, t.position + DVec3::Z * 5.0) else {
            continue;
        };
        trees += 1;
        // A thin crown far away covers a pixel only in part: any green in a 3 x 3 block
        // (well above the horizon, clear of the grass).
        let (x, y) = px;
        let any = (y - 1..=y + 1).any(|y| (x - 1..=x + 1).any(|x| green(rgb(&image, (x, y)))));
        drawn += usize::from(any);
    }
    println!("{drawn} of {trees} trees in view drawn green");
    assert!(trees >= 10 && drawn * 10 >= trees * 6, "{drawn} of {trees}");
}

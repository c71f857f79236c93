//! An imported TORCS track's textured scene drawn offscreen on the software adapter: forza
//! from its start line, checked as a picture (not uniform, the road ahead drawn from the
//! scene, objects standing above the horizon at the roadside), written next to the same
//! frame with the generated ground for a person to look at.
//!
//! Skips with a printed reason when Debian's `torcs-data` is not installed; the adapter rule
//! is the golden tests' (`GRIPLINE_SKIP_GPU_TESTS=1` skips).

use crate::common;
use crate::common::gpu;
use std::path::{Path, PathBuf};
use std::time::Instant;

use gripline_formats::assets;
use gripline_formats::vehicle_file::load_vehicle;
use gripline_render::{
    Camera, CameraMode, FrameInput, OffscreenRenderer, QualityTier, RgbaImage, VehiclePose,
    VehicleVisual,
};
use gripline_torcs::track::load::load_torcs_track;
use gripline_torcs::track::scene_file::scene_for_track;

const FORZA: &str = "/usr/share/games/torcs/tracks/road/forza/forza.xml";
const W: u32 = 480;
const H: u32 = 270;

fn out_dir() -> PathBuf {
    common::out_dir("render-torcs")
}

fn pixel(image: &RgbaImage, x: u32, y: u32) -> [f64; 3] {
    let i = 4 * (y * image.width + x) as usize;
    [0, 1, 2].map(|c| f64::from(image.data[i + c]))
}

fn luminance(p: [f64; 3]) -> f64 {
    0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2]
}

/// Pixels of a region given in fractions of the frame.
fn region(image: &RgbaImage, x0: f64, x1: f64, y0: f64, y1: f64) -> Vec<(u32, u32)> {
    let (w, h) = (f64::from(image.width), f64::from(image.height));
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let span = |a: f64, b: f64, n: f64| (a * n) as u32..(b * n) as u32;
    span(y0, y1, h)
        .flat_map(|y| span(x0, x1, w).map(move |x| (x, y)))
        .collect()
}

fn std_dev(values: &[f64]) -> f64 {
    let n = values.len().max(1) as f64;
    let mean = values.iter().sum::<f64>() / n;
    (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n).sqrt()
}

#[test]
fn forza_scene_is_drawn_textured_with_objects_at_the_roadside() {
    if !Path::new(FORZA).is_file() {
        println!("skipped: {FORZA} is absent (install Debian's torcs-data)");
        return;
    }
    let Some(gpu) = gpu() else { return };
    let track = load_torcs_track(Path::new(FORZA)).expect("forza imports");
    let started = Instant::now();
    let scene = scene_for_track(&track)
        .expect("forza has a scene")
        .expect("loads");
    println!(
        "forza scene: {} batches, {} triangles, {} textures, loaded in {:.2} s; missing {:?}",
        scene.batches.len(),
        scene.triangle_count(),
        scene.textures.len(),
        started.elapsed().as_secs_f64(),
        scene.missing_textures
    );
    let params = load_vehicle(&assets::resolve_vehicle("corvette-c5").expect("vehicle"))
        .expect("load vehicle")
        .params;
    let visual = VehicleVisual::from_params(&params);
    // The tier the window picks on a software adapter (no MSAA, half resolution inside).
    let settings = QualityTier::Low.settings(1);
    let mut renderer = OffscreenRenderer::new(gpu, &settings, &track.mesh, &visual, W, H)
        .expect("offscreen renderer");
    let pose = VehiclePose::on_centre_line(&track.mesh, &visual, 8.0, 0.0).expect("pose");
    let frame = |mode: CameraMode| {
        let mut camera = Camera::new(mode);
        camera.update(&pose, 0.0);
        FrameInput::new(&pose, &camera, &visual, W, H)
    };
    let mut frames = Vec::new();
    for (with_scene, mode, name) in [
        (false, CameraMode::Bonnet, "forza-bonnet-ground"),
        (true, CameraMode::Bonnet, "forza-bonnet-scene"),
        (true, CameraMode::Chase, "forza-chase-scene"),
    ] {
        let upload = Instant::now();
        renderer
            .scene_mut()
            .set_track_scene(with_scene.then_some(&scene));
        let upload_s = upload.elapsed().as_secs_f64();
        let drawn = Instant::now();
        let image = renderer.render_frame(&frame(mode)).expect("frame");
        println!(
            "{name}: frame drawn and read back in {:.2} s",
            drawn.elapsed().as_secs_f64()
        );
        let path = out_dir().join(format!("{name}.png"));
        image.write_png(&path).expect("write");
        if let Some(gpu_scene) = renderer.scene().track_scene() {
            let (drawn, total) = gpu_scene.chunk_counts();
            println!(
                "{}: upload {upload_s:.2} s, {drawn} of {total} chunks drawn",
                path.display()
            );
            assert!(
                0 < drawn && drawn < total,
                "frustum culling keeps some chunks out"
            );
        } else {
            println!("{}", path.display());
        }
        frames.push(image);
    }
    let (plain, textured) = (&frames[0], &frames[1]);
    // Not uniform.
    let all: Vec<f64> = region(textured, 0.0, 1.0, 0.0, 1.0)
        .into_iter()
        .map(|(x, y)| luminance(pixel(textured, x, y)))
        .collect();
    assert!(std_dev(&all) > 12.0, "the frame is nearly uniform");
    // The road ahead, low in the middle of the frame: drawn from the scene (it differs from
    // the generated ground) and textured (it varies from pixel to pixel).
    let road = region(textured, 0.4, 0.6, 0.62, 0.75);
    let road_l: Vec<f64> = road
        .iter()
        .map(|&(x, y)| luminance(pixel(textured, x, y)))
        .collect();
    let differs = road
        .iter()
        .filter(|&&(x, y)| {
            let (a, b) = (pixel(textured, x, y), pixel(plain, x, y));
            (0..3).map(|c| (a[c] - b[c]).abs()).fold(0.0, f64::max) > 6.0
        })
        .count();
    println!(
        "road region: luminance spread {:.1}, {differs} of {} pixels differ from the generated ground",
        std_dev(&road_l),
        road.len()
    );
    assert!(
        differs * 2 > road.len(),
        "the road ahead is not the scene's"
    );
    assert!(std_dev(&road_l) > 1.0, "the road ahead is flat colour");
    // Above the horizon at the roadside the generated ground shows sky; the scene puts
    // trees, stands, buildings or fences there.
    let mut objects = 0;
    let mut checked = 0;
    for side in [(0.0, 0.3), (0.7, 1.0)] {
        for (x, y) in region(textured, side.0, side.1, 0.3, 0.45) {
            let sky = pixel(plain, x, y);
            if sky[2] <= sky[0] {
                continue; // not sky in the plain frame
            }
            checked += 1;
            let p = pixel(textured, x, y);
            if (0..3).map(|c| (p[c] - sky[c]).abs()).fold(0.0, f64::max) > 25.0 {
                objects += 1;
            }
        }
    }
    println!("roadside above the horizon: {objects} of {checked} sky pixels covered by objects");
    assert!(
        checked > 0 && objects * 20 > checked,
        "nothing stands at the roadside"
    );
}

/// The tracks the default check draws: road, oval and dirt, the one scene refused (dirt-4,
/// the only track of torcs-data 1.3.7 not read in full) and the scene of most batches and
/// textures (brondehach: 255 and 212). Every track is drawn with `GRIPLINE_FULL_CHECK=1`
/// (`scripts/check.sh --full`): about two seconds a track on the software adapter, 80 s for
/// all 38 against about 10 s for these five.
const DEFAULT_TRACKS: [&str; 5] = ["dirt-1", "dirt-4", "michigan", "brondehach", "g-track-3"];

/// Every installed TORCS track loads, builds its physics mesh and draws a frame from its start
/// line with its scene on the software adapter. Tracks whose scene cannot be fully read (a
/// missing texture, an object skipped, a scene that does not lie on its road and is replaced
/// by the generated ground) are listed with the reason; a track whose scene file cannot be
/// read at all, or whose frame comes out blank, fails the test. The default check draws
/// [`DEFAULT_TRACKS`] only (every track's ground is built by `gripline-torcs`'s tests).
#[test]
fn every_installed_track_renders_a_frame_with_its_scene() {
    let root = Path::new("/usr/share/games/torcs");
    if !root.join("tracks").is_dir() {
        println!(
            "skipped: {} is absent (install Debian's torcs-data)",
            root.display()
        );
        return;
    }
    if gpu().is_none() {
        return;
    }
    let tracks = gripline_torcs::track::discover::tracks_in(&[root.to_owned()]);
    assert_eq!(tracks.len(), 38, "torcs-data installs 38 tracks");
    let full = common::full_check();
    let tracks: Vec<_> = tracks
        .into_iter()
        .filter(|t| full || DEFAULT_TRACKS.contains(&t.name.as_str()))
        .collect();
    assert_eq!(tracks.len(), if full { 38 } else { DEFAULT_TRACKS.len() });
    let params = load_vehicle(&assets::resolve_vehicle("corvette-c5").expect("vehicle"))
        .expect("load vehicle")
        .params;
    let visual = VehicleVisual::from_params(&params);
    let settings = QualityTier::Low.settings(1);
    let (w, h) = (160, 90);
    let mut incomplete = Vec::new();
    let mut refused = Vec::new();
    for t in &tracks {
        let track = load_torcs_track(&t.xml).unwrap_or_else(|e| panic!("{}: {e}", t.name));
        let started = Instant::now();
        let scene =
            match scene_for_track(&track).unwrap_or_else(|| panic!("{}: no scene file", t.name)) {
                Ok(scene) => Some(scene),
                Err(e @ gripline_torcs::error::TorcsError::SceneMisplaced { .. }) => {
                    refused.push(t.name.clone());
                    incomplete.push(format!(
                        "{}/{}: scene refused, the generated ground drawn: {e}",
                        t.category, t.name
                    ));
                    None
                }
                Err(e) => panic!("{}: {e}", t.name),
            };
        let load_s = started.elapsed().as_secs_f64();
        if let Some(scene) = scene
            .as_ref()
            .filter(|s| !s.missing_textures.is_empty() || !s.warnings.is_empty())
        {
            incomplete.push(format!(
                "{}/{}: missing textures {:?}; {}",
                t.category,
                t.name,
                scene.missing_textures,
                scene.warnings.join("; ")
            ));
        }
        let mut r = OffscreenRenderer::new(
            gpu().expect("adapter"),
            &settings,
            &track.mesh,
            &visual,
            w,
            h,
        )
        .expect("offscreen renderer");
        r.scene_mut().set_track_scene(scene.as_ref());
        let pose = VehiclePose::on_centre_line(&track.mesh, &visual, 8.0, 0.0).expect("pose");
        let mut camera = Camera::new(CameraMode::Chase);
        camera.update(&pose, 0.0);
        let image = r
            .render_frame(&FrameInput::new(&pose, &camera, &visual, w, h))
            .unwrap_or_else(|e| panic!("{}: {e}", t.name));
        let lum: Vec<f64> = region(&image, 0.0, 1.0, 0.0, 1.0)
            .into_iter()
            .map(|(x, y)| luminance(pixel(&image, x, y)))
            .collect();
        println!(
            "{}/{}: {} triangles in {} batches, {} textures, scene read in {load_s:.2} s, frame spread {:.1}",
            t.category,
            t.name,
            scene.as_ref().map_or(
                0,
                gripline_torcs::track::scene_file::TrackScene::triangle_count
            ),
            scene.as_ref().map_or(0, |s| s.batches.len()),
            scene.as_ref().map_or(0, |s| s.textures.len()),
            std_dev(&lum)
        );
        image
            .write_png(&out_dir().join(format!("start-{}.png", t.name)))
            .expect("write");
        assert!(
            std_dev(&lum) > 8.0,
            "{}: the frame is nearly uniform",
            t.name
        );
    }
    println!("not fully read ({} of {}):", incomplete.len(), tracks.len());
    for line in &incomplete {
        println!("  {line}");
    }
    // dirt-4's `.ac` lies 705 m north of the road its XML describes (a version 3 track); every
    // other scene lies on its road.
    assert_eq!(
        refused,
        ["dirt-4"],
        "scenes refused as not lying on their road"
    );
}

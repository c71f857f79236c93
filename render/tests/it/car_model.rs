//! Cars drawn from model files (a vehicle file's `model`): a glTF box written here and named
//! by a temporary vehicle file draws in place of the procedural body; a TORCS car (p406,
//! skipped without Debian's `torcs-data`) loads with its levels of detail, textures, lamps
//! and driver, sits on the car's axles, and draws a textured picture unlike the procedural
//! body (every installed TORCS car in the full check); broken model files are errors naming
//! the file, never panics.

use crate::common;
use crate::common::gpu;
use std::path::Path;

use glam::DVec3;
use gripline_formats::assets;
use gripline_formats::track_file::load_track;
use gripline_formats::vehicle_file::load_vehicle;
use gripline_render::{
    Camera, CameraMode, CarModel, FrameInput, OffscreenRenderer, QualityTier, RgbaImage,
    VehiclePose, VehicleVisual,
};

const P406: &str = "/usr/share/games/torcs/cars/p406/p406.acc";
const W: u32 = 192;
const H: u32 = 108;

fn pixel(image: &RgbaImage, x: u32, y: u32) -> [f64; 3] {
    let i = 4 * (y * image.width + x) as usize;
    [0, 1, 2].map(|c| f64::from(image.data[i + c]))
}

/// The glTF (JSON, buffer in a `.bin` beside it) of a box from `lo` to `hi` in glTF's frame
/// (y up, +z the front, +x the left), in one base colour (linear RGB).
fn write_gltf_box(dir: &Path, lo: [f32; 3], hi: [f32; 3], rgb: [f32; 3]) {
    let corners: Vec<[f32; 3]> = (0..8)
        .map(|i| {
            [
                if i & 1 == 0 { lo[0] } else { hi[0] },
                if i & 2 == 0 { lo[1] } else { hi[1] },
                if i & 4 == 0 { lo[2] } else { hi[2] },
            ]
        })
        .collect();
    // Six faces, counter-clockwise seen from outside (corner index bits: x, y, z).
    let faces: [[u16; 4]; 6] = [
        [0, 4, 6, 2], // -x
        [1, 3, 7, 5], // +x
        [0, 1, 5, 4], // -y
        [2, 6, 7, 3], // +y
        [0, 2, 3, 1], // -z
        [4, 5, 7, 6], // +z
    ];
    let indices: Vec<u16> = faces
        .iter()
        .flat_map(|f| [f[0], f[1], f[2], f[0], f[2], f[3]])
        .collect();
    let mut bin: Vec<u8> = corners
        .iter()
        .flat_map(|c| c.iter().flat_map(|v| v.to_le_bytes()))
        .collect();
    let positions_len = bin.len();
    bin.extend(indices.iter().flat_map(|i| i.to_le_bytes()));
    std::fs::write(dir.join("box.bin"), &bin).expect("write bin");
    let json = format!(
        r#"{{
  "asset": {{"version": "2.0"}},
  "scene": 0,
  "scenes": [{{"nodes": [0, 1]}}],
  "nodes": [{{"mesh": 0}}, {{"name": "driver", "translation": [0.35, 1.1, -0.3]}}],
  "meshes": [{{"primitives": [{{"attributes": {{"POSITION": 0}}, "indices": 1, "material": 0}}]}}],
  "materials": [{{"pbrMetallicRoughness": {{"baseColorFactor": [{}, {}, {}, 1.0]}}}}],
  "buffers": [{{"uri": "box.bin", "byteLength": {}}}],
  "bufferViews": [
    {{"buffer": 0, "byteOffset": 0, "byteLength": {positions_len}}},
    {{"buffer": 0, "byteOffset": {positions_len}, "byteLength": {}}}
  ],
  "accessors": [
    {{"bufferView": 0, "componentType": 5126, "count": 8, "type": "VEC3",
      "min": [{}, {}, {}], "max": [{}, {}, {}]}},
    {{"bufferView": 1, "componentType": 5123, "count": {}, "type": "SCALAR"}}
  ]
}}"#,
        rgb[0],
        rgb[1],
        rgb[2],
        bin.len(),
        indices.len() * 2,
        lo[0],
        lo[1],
        lo[2],
        hi[0],
        hi[1],
        hi[2],
        indices.len()
    );
    std::fs::write(dir.join("box.gltf"), json).expect("write gltf");
}

/// A copy of the shipped C5's vehicle file in `dir` naming `model`.
fn vehicle_naming(dir: &Path, model: &str) -> std::path::PathBuf {
    let own = std::fs::read_to_string(assets::resolve_vehicle("corvette-c5").expect("c5"))
        .expect("read c5");
    let text = own.replacen(
        "(\n    name:",
        &format!("(\n    model: \"{model}\",\n    name:"),
        1,
    );
    assert_ne!(text, own, "the model field was added");
    let path = dir.join("car.ron");
    std::fs::write(&path, text).expect("write vehicle");
    path
}

/// How a model drawn over the procedural body's place shows in the box behind the car (the
/// middle 20 % across, 30 % up): the pixels that changed by over 40 levels summed over the
/// channels, the pixels in the box, and the standard deviation of the drawn luminance.
fn model_over_body(plain: &RgbaImage, drawn: &RgbaImage) -> (usize, usize, f64) {
    let mut changed = 0;
    let mut lum = Vec::new();
    for y in H * 35 / 100..H * 65 / 100 {
        for x in W * 40 / 100..W * 60 / 100 {
            let (p, d) = (pixel(plain, x, y), pixel(drawn, x, y));
            changed += usize::from((0..3).map(|c| (p[c] - d[c]).abs()).sum::<f64>() > 40.0);
            lum.push(0.2126 * d[0] + 0.7152 * d[1] + 0.0722 * d[2]);
        }
    }
    let n = lum.len();
    let mean = lum.iter().sum::<f64>() / n as f64;
    let sd = (lum.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / n as f64).sqrt();
    (changed, n, sd)
}

/// The chase view of the car at rest on the circuit, with and without `model`.
fn frames(visual: &VehicleVisual, model: &CarModel, mode: CameraMode) -> [RgbaImage; 2] {
    let gpu = gpu().expect("checked by the caller");
    let track = load_track(&assets::resolve_track("circuit").expect("circuit")).expect("track");
    let settings = QualityTier::Low.settings(1);
    let mut renderer = OffscreenRenderer::new(gpu, &settings, &track.mesh, visual, W, H)
        .expect("offscreen renderer");
    let pose = VehiclePose::on_centre_line(&track.mesh, visual, 30.0, 0.0).expect("pose");
    let mut camera = Camera::new(mode);
    camera.update(&pose, 0.0);
    let frame = FrameInput::new(&pose, &camera, visual, W, H);
    let plain = renderer.render_frame(&frame).expect("frame");
    assert!(renderer.scene_mut().set_car_model(Some(model)));
    let drawn = renderer.render_frame(&frame).expect("frame");
    [plain, drawn]
}

/// A blue glTF box named by a temporary vehicle file is what the chase camera sees of the
/// car: the pixels over the car turn from the procedural body's red paint to blue.
#[test]
fn a_gltf_model_named_by_the_vehicle_file_draws_in_place_of_the_body() {
    if gpu().is_none() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    // Car frame x -2.2..2.2, y -0.9..0.9, z 0.35..1.3 in glTF's axes (x left, y up, z front).
    write_gltf_box(
        dir.path(),
        [-0.9, 0.35, -2.2],
        [0.9, 1.3, 2.2],
        [0.02, 0.05, 0.9],
    );
    let loaded = load_vehicle(&vehicle_naming(dir.path(), "box.gltf")).expect("vehicle");
    assert_eq!(loaded.model, Some(dir.path().join("box.gltf")));
    let visual = VehicleVisual::from_params(&loaded.params);
    let model = CarModel::load(loaded.model.as_deref().unwrap(), &visual).expect("model");
    assert_eq!(model.triangle_count(), 12);
    // The driver node, in the car frame (x = glTF z, y = glTF x, z = glTF y), moved onto the
    // body frame by the axle midpoint and the ground.
    let mid = 0.5 * (visual.axle_x_m(0) + visual.axle_x_m(1));
    let eye = model.driver_eye_body().expect("driver node");
    let expected = DVec3::new(-0.3 + mid, 0.35, 1.1 + visual.ground_z_m());
    assert!((eye - expected).length() < 1e-6, "{eye} vs {expected}");
    let [plain, drawn] = frames(&visual, &model, CameraMode::Chase);
    drawn
        .write_png(&common::out_dir("render-car-model").join("gltf-box-chase.png"))
        .expect("png");
    // The car's rear, below the middle of the frame (x 42-58 %, y 50-70 % of the frame).
    let (mut red, mut blue, mut n) = (0, 0, 0);
    for y in H * 50 / 100..H * 70 / 100 {
        for x in W * 42 / 100..W * 58 / 100 {
            n += 1;
            let [pr, pg, pb] = pixel(&plain, x, y);
            let [dr, dg, db] = pixel(&drawn, x, y);
            red += usize::from(pr > pg + 20.0 && pr > pb + 20.0);
            blue += usize::from(db > dr + 30.0 && db > dg + 20.0);
        }
    }
    println!("car region: {red} red pixels without the model, {blue} blue with it, of {n}");
    assert!(red > n / 3, "the procedural body is red: {red} of {n}");
    assert!(blue > n / 2, "the glTF box is drawn instead: {blue} of {n}");
}

/// p406 with its XML: eight levels of detail with TORCS's thresholds, its texture, the
/// wheel texture, two brake lamps and the driver; its axles (XML: x = +1.37 and -1.37 m)
/// land on the axles of a car with its wheelbase; drawn textured from the chase camera
/// (unlike the procedural body), and the level of detail follows TORCS's rule (unit-tested in `car_model.rs`).
#[test]
fn a_torcs_car_model_loads_with_its_levels_of_detail_and_renders() {
    if !Path::new(P406).is_file() {
        println!("skipped: {P406} is absent (install Debian's torcs-data)");
        return;
    }
    let mut params = load_vehicle(&assets::resolve_vehicle("corvette-c5").expect("c5"))
        .expect("c5")
        .params;
    params.chassis.wheelbase_m = 2.74;
    let visual = VehicleVisual::from_params(&params);
    let model = CarModel::load(Path::new(P406), &visual).expect("p406 loads");
    println!("{}; warnings {:?}", model.summary(), model.warnings);
    let thresholds: Vec<f64> = model.lods.iter().map(|l| l.threshold_px_per_m).collect();
    assert_eq!(thresholds, [50.0, 40.0, 30.0, 20.0, 10.0, 5.0, 3.0, 0.0]);
    assert!(model.triangle_count() > 5_000, "{}", model.triangle_count());
    assert!(model.lods[7].scene.triangle_count() < model.triangle_count() / 4);
    assert!(model.texture_count() >= 2, "body and wheel textures");
    assert!(model.wheel_texture.is_some());
    assert_eq!(model.brake_lamps.len(), 2);
    // Front axle of the XML (x = 1.37 in the model frame) on the car's front axle.
    let front = model.body_from_model.x + 1.37;
    assert!((front - visual.axle_x_m(0)).abs() < 1e-9, "{front}");
    assert!((model.body_from_model.z - visual.ground_z_m()).abs() < 1e-12);
    // The model's length (4.64 m in the XML) about the axle midpoint: bumpers 2.32 m out.
    let xs = model.lods[0]
        .scene
        .batches
        .iter()
        .flat_map(|b| &b.vertices)
        .map(|v| f64::from(v.position[0]) + model.lods[0].scene.origin[0]);
    let (lo, hi) = xs.fold((f64::MAX, f64::MIN), |(a, b), x| (a.min(x), b.max(x)));
    assert!(
        (hi - lo - 4.64).abs() < 0.05 && (hi + lo).abs() < 0.05,
        "{lo}..{hi}"
    );
    let eye = model.driver_eye_body().expect("driver");
    assert!((eye.z - (1.1 + visual.ground_z_m())).abs() < 1e-9);
    if gpu().is_none() {
        return;
    }
    let [plain, drawn] = frames(&visual, &model, CameraMode::Chase);
    drawn
        .write_png(&common::out_dir("render-car-model").join("p406-chase.png"))
        .expect("png");
    let (changed, n, sd) = model_over_body(&plain, &drawn);
    println!("p406 over the box body: {changed} of {n} pixels changed, luminance sd {sd:.1}");
    assert!(changed > n / 4, "{changed} of {n}");
    assert!(sd > 10.0, "a textured, shaded car is not flat: {sd}");
}

/// Malformed, empty, missing and unknown model files are errors naming the file.
#[test]
fn broken_model_files_are_errors_not_panics() {
    let dir = tempfile::tempdir().expect("temp dir");
    let visual = VehicleVisual::from_params(
        &load_vehicle(&assets::resolve_vehicle("corvette-c5").expect("c5"))
            .expect("c5")
            .params,
    );
    let cases: [(&str, &[u8]); 6] = [
        ("garbage.acc", b"not an AC3D file\n"),
        ("empty.ac", b"AC3Db\nOBJECT world\nkids 0\n"),
        (
            "cut.ac",
            b"AC3Db\nOBJECT world\nkids 1\nOBJECT poly\nnumvert 3\n0 0 0\n",
        ),
        ("garbage.glb", b"glTF\x02\x00\x00\x00\xff\xff"),
        (
            "nothing.gltf",
            br#"{"asset": {"version": "2.0"}, "scenes": [{"nodes": []}]}"#,
        ),
        ("car.obj", b"v 0 0 0\n"),
    ];
    for (name, bytes) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).expect("write");
        let err = CarModel::load(&path, &visual).expect_err(name);
        println!("{err}");
        assert!(err.to_string().contains(name), "{err}");
    }
    let err = CarModel::load(&dir.path().join("absent.glb"), &visual).expect_err("absent");
    assert!(err.to_string().contains("absent.glb"), "{err}");
}

/// Every installed TORCS car (full check; the default check draws p406 above) loads its own
/// model through `--vehicle torcs:NAME`'s loader and draws it in the chase view: a textured,
/// shaded car over the procedural body's place. Prints each car's file, triangles and textures.
#[test]
fn every_installed_torcs_car_draws_its_own_model() {
    if !common::full_check() {
        println!("skipped: set GRIPLINE_FULL_CHECK=1 (draws every installed TORCS car)");
        return;
    }
    let cars = gripline_torcs::car::discover::installed_cars();
    if cars.is_empty() {
        println!("skipped: no TORCS cars installed (install Debian's torcs-data)");
        return;
    }
    let mut failures = Vec::new();
    for car in &cars {
        let loaded = gripline_torcs::car::load::load_any_vehicle(&format!("torcs:{}", car.name))
            .unwrap_or_else(|e| panic!("{}: {e}", car.name));
        let visual = VehicleVisual::from_params(&loaded.params);
        let Some(path) = loaded.model else {
            failures.push(format!("{}: names no model", car.name));
            continue;
        };
        let model = match CarModel::load(&path, &visual) {
            Ok(model) => model,
            Err(e) => {
                failures.push(format!("{}: {e}", car.name));
                continue;
            }
        };
        println!("{:>12}: {}", car.name, model.summary());
        if gpu().is_none() {
            continue;
        }
        let [plain, drawn] = frames(&visual, &model, CameraMode::Chase);
        let (changed, n, sd) = model_over_body(&plain, &drawn);
        println!("              {changed} of {n} pixels changed, luminance sd {sd:.1}");
        // Over a quarter of the box behind the car changes (the p406's case above), and the
        // model is textured and shaded, not one flat colour.
        if changed <= n / 4 || sd <= 10.0 {
            failures.push(format!(
                "{}: {changed} of {n} changed, sd {sd:.1}",
                car.name
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// A model casts its own shadow, not the procedural body's: a glTF model that is a thin
/// pole (10 cm square, as tall as the body) leaves the ground beside the car, where the
/// procedural body's shadow falls (left of the car from the chase camera, the sun being on
/// the right), lit.
#[test]
fn a_model_casts_its_own_shadow() {
    if gpu().is_none() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    write_gltf_box(
        dir.path(),
        [-0.05, 0.0, -0.05],
        [0.05, 1.3, 0.05],
        [0.9, 0.9, 0.9],
    );
    let loaded = load_vehicle(&vehicle_naming(dir.path(), "box.gltf")).expect("vehicle");
    let visual = VehicleVisual::from_params(&loaded.params);
    let model = CarModel::load(loaded.model.as_deref().unwrap(), &visual).expect("model");
    let [plain, pole] = frames(&visual, &model, CameraMode::Chase);
    pole.write_png(&common::out_dir("render-car-model").join("pole-shadow.png"))
        .expect("png");
    // The ground left of the car where the body's shadow falls: x 34-44 %, y 56-75 % of
    // the frame (where the two frames differ, the body aside, the shadow lies in x 34-56 %,
    // y 52-75 %).
    let luma = |image: &RgbaImage| {
        let (mut sum, mut n) = (0.0, 0.0);
        for y in H * 56 / 100..H * 75 / 100 {
            for x in W * 34 / 100..W * 44 / 100 {
                let [r, g, b] = pixel(image, x, y);
                sum += 0.2126 * r + 0.7152 * g + 0.0722 * b;
                n += 1.0;
            }
        }
        sum / n
    };
    let (shaded, lit) = (luma(&plain), luma(&pole));
    println!(
        "ground left of the car: luminance {shaded:.1} in the body's shadow, {lit:.1} beside the pole"
    );
    assert!(lit > shaded + 12.0, "{shaded:.1} vs {lit:.1}");
}

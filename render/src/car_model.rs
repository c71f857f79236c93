//! A car drawn from a model file (a vehicle file's `model`): an AC3D `.ac` / TORCS `.acc`
//! model with its levels of detail, or a glTF 2.0 model, as plain data ready to upload
//! ([`CarModel`]); [`crate::SceneRenderer::set_car_model`] draws it in place of the
//! procedural body, with wheels of its own (TORCS's cars have none in their models either),
//! brake lamps and the driver's eye point.
//!
//! ## Frames
//!
//! The *model frame* is x forward, y left, z up (m), with `z = 0` on the ground at static
//! ride height and `x = 0` midway between the axles:
//! - AC3D is y up; TORCS turns a file point `(x, y, z)` into `(x, -z, y)` (the conversion of
//!   its track scenes, [`gripline_torcs::track::scene_file`]), which makes its car models x
//!   forward, y left, z up with the ground at `z = 0`. The XML beside a TORCS model
//!   (`NAME.xml`) gives the axles' `xpos` in that frame (p406: +1.37 and -1.37 m), so the
//!   model frame's origin is moved to their midpoint; without an XML the file's own origin
//!   is taken as that midpoint.
//! - glTF is y up with +z the front (`car_model_gltf.rs`); its origin is taken as the
//!   ground point midway between the axles.
//!
//! The model frame is placed in the body frame (origin at the CG) by a translation: its axle
//! midpoint onto the vehicle's (`(x_front + x_rear) / 2` of [`VehicleVisual::axle_x_m`]) and
//! its ground onto the vehicle's ([`VehicleVisual::ground_z_m`]). A model of the same car as
//! the physics therefore has its wheel arches over the drawn wheels.
//!
//! ## TORCS's XML
//!
//! From `Graphic Objects`: `Ranges` (the levels of detail: a model file and a `threshold`
//! each), `Light` (lamps: `type`, `xpos`/`ypos`/`zpos`, `size`; the `brake...` ones are drawn
//! lit when braking), `wheel texture` (`tex-wheel.rgb`); from `Driver`: the driver's eye
//! point. TORCS picks the first range whose threshold is at most the car's size on the
//! screen in pixels per metre, `(screen height / 2) / (distance x tan(fov_y / 2))`
//! (`cGrPerspCamera::getLODFactor`, `grDrawCar`), as [`CarModel::lod_for`] does.

use std::path::{Path, PathBuf};

use glam::DVec3;
use gripline_torcs::image::TextureImage;
use gripline_torcs::params::Section;
use gripline_torcs::texture_image::{find_texture, load_image};
use gripline_torcs::track::scene_file::{TrackScene, load_scene};
use gripline_torcs::xml::read_params;

use crate::car_model_gltf::load_gltf;
use crate::vehicle_visual::VehicleVisual;

/// One level of detail.
pub struct ModelLod {
    /// Smallest on-screen size it is drawn at (pixels per metre; 0 for the last).
    pub threshold_px_per_m: f64,
    /// Its triangles and textures, in the model frame (plus the scene's origin).
    pub scene: TrackScene,
}

/// A lamp of the model (model frame).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ModelLamp {
    /// Centre (m).
    pub position: DVec3,
    /// Side of the lit square (m).
    pub size_m: f64,
}

/// A car model ready to upload. See the module docs.
pub struct CarModel {
    /// The file named by the vehicle.
    pub source: PathBuf,
    /// The levels of detail, most detailed first (at least one).
    pub lods: Vec<ModelLod>,
    /// Where the model frame's origin is in the body frame (m).
    pub body_from_model: DVec3,
    /// Brake lamps (model frame).
    pub brake_lamps: Vec<ModelLamp>,
    /// The driver's eyes (model frame), when the model says.
    pub driver_eye: Option<DVec3>,
    /// The wheels' texture (TORCS's `tex-wheel.rgb`: four wheel faces, the top left one
    /// still), when there is one.
    pub wheel_texture: Option<TextureImage>,
    /// What was left out or replaced while loading.
    pub warnings: Vec<String>,
}

impl std::fmt::Debug for CarModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CarModel")
            .field("source", &self.source)
            .field("lods", &self.lods.len())
            .field("triangles", &self.triangle_count())
            .field("body_from_model", &self.body_from_model)
            .finish_non_exhaustive()
    }
}

/// Why a model cannot be drawn.
#[derive(Debug, thiserror::Error)]
#[error("car model {path}: {message}")]
pub struct CarModelError {
    /// The model file.
    pub path: PathBuf,
    /// What is wrong.
    pub message: String,
}

impl CarModel {
    /// Loads the model file `path` (`.ac`, `.acc`, `.gltf`, `.glb`) for the car `visual`.
    ///
    /// # Errors
    /// [`CarModelError`] when the file is missing, malformed or has no triangles. Missing
    /// textures and levels of detail are warnings.
    pub fn load(path: &Path, visual: &VehicleVisual) -> Result<Self, CarModelError> {
        let fail = |message: String| CarModelError {
            path: path.to_owned(),
            message,
        };
        let ext = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        let axle_mid_body = 0.5 * (visual.axle_x_m(0) + visual.axle_x_m(1));
        let place = |axle_mid_model: f64| {
            DVec3::new(axle_mid_body - axle_mid_model, 0.0, visual.ground_z_m())
        };
        match ext.as_str() {
            "gltf" | "glb" => {
                let model = load_gltf(path).map_err(fail)?;
                let warnings = model.scene.warnings.clone();
                Ok(Self {
                    source: path.to_owned(),
                    lods: vec![ModelLod {
                        threshold_px_per_m: 0.0,
                        scene: model.scene,
                    }],
                    body_from_model: place(0.0),
                    brake_lamps: model
                        .brake_lamps
                        .iter()
                        .map(|&position| ModelLamp {
                            position,
                            size_m: 0.12,
                        })
                        .collect(),
                    driver_eye: model.driver_eye,
                    wheel_texture: None,
                    warnings,
                })
            }
            "ac" | "acc" => {
                let first = car_scene(load_scene(path).map_err(|e| fail(e.to_string()))?);
                if first.triangle_count() == 0 {
                    return Err(fail("no triangles".into()));
                }
                let mut warnings = first.warnings.clone();
                let xml = path.with_file_name(format!(
                    "{}.xml",
                    path.parent()
                        .and_then(Path::file_name)
                        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
                ));
                let torcs = xml
                    .is_file()
                    .then(|| read_params(&xml))
                    .transpose()
                    .unwrap_or_else(|e| {
                        warnings.push(format!("{}: {e}; read without it", xml.display()));
                        None
                    });
                let Some(params) = torcs else {
                    return Ok(Self {
                        source: path.to_owned(),
                        lods: vec![ModelLod {
                            threshold_px_per_m: 0.0,
                            scene: first,
                        }],
                        body_from_model: place(0.0),
                        brake_lamps: Vec::new(),
                        driver_eye: None,
                        wheel_texture: None,
                        warnings,
                    });
                };
                let root = &params.root;
                let number = |s: Option<&Section>, name: &str| {
                    s.and_then(|s| s.number(name).ok().flatten())
                        .filter(|v| v.is_finite())
                };
                let axle_mid = match (
                    number(root.section("Front Axle"), "xpos"),
                    number(root.section("Rear Axle"), "xpos"),
                ) {
                    (Some(f), Some(r)) => 0.5 * (f + r),
                    _ => 0.0,
                };
                let graphic = root.section("Graphic Objects");
                let lods = torcs_lods(path, first, graphic, &mut warnings);
                let brake_lamps = graphic
                    .and_then(|g| g.section("Light"))
                    .map(|lights| {
                        lights
                            .sections
                            .iter()
                            .filter(|l| {
                                l.text("type")
                                    .ok()
                                    .flatten()
                                    .is_some_and(|t| t.starts_with("brake"))
                            })
                            .filter_map(|l| {
                                let p = DVec3::new(
                                    number(Some(l), "xpos")?,
                                    number(Some(l), "ypos")?,
                                    number(Some(l), "zpos")?,
                                );
                                Some(ModelLamp {
                                    position: p - DVec3::X * axle_mid,
                                    size_m: number(Some(l), "size").unwrap_or(0.3).clamp(0.02, 1.0),
                                })
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                let driver = root.section("Driver");
                let driver_eye = match (
                    number(driver, "xpos"),
                    number(driver, "ypos"),
                    number(driver, "zpos"),
                ) {
                    (Some(x), Some(y), Some(z)) => Some(DVec3::new(x - axle_mid, y, z)),
                    _ => None,
                };
                let wheel_texture = graphic
                    .and_then(|g| g.text("wheel texture").ok().flatten())
                    .and_then(|name| {
                        let dirs = [path.parent()?.to_owned()];
                        let found = find_texture(name, &dirs)?;
                        load_image(&found)
                            .map_err(|e| warnings.push(format!("wheel texture: {e}")))
                            .ok()
                    });
                // The scenes are in TORCS's frame, the ranges' origin; move the axle midpoint.
                let mut lods = lods;
                for lod in &mut lods {
                    lod.scene.origin[0] -= axle_mid;
                }
                Ok(Self {
                    source: path.to_owned(),
                    lods,
                    body_from_model: place(0.0),
                    brake_lamps,
                    driver_eye,
                    wheel_texture,
                    warnings,
                })
            }
            _ => Err(fail(
                "not a model file (.ac, .acc, .gltf or .glb expected)".into(),
            )),
        }
    }

    /// Triangles of the most detailed level.
    pub fn triangle_count(&self) -> usize {
        self.lods.first().map_or(0, |l| l.scene.triangle_count())
    }

    /// Textures of the most detailed level that were found (and the wheels').
    pub fn texture_count(&self) -> usize {
        self.lods.first().map_or(0, |l| {
            l.scene
                .textures
                .iter()
                .filter(|t| t.image.is_some())
                .count()
        }) + usize::from(self.wheel_texture.is_some())
    }

    /// One line for the user: file, triangles, textures, levels of detail.
    pub fn summary(&self) -> String {
        format!(
            "car model {}: {} triangles, {} textures, {} levels of detail",
            self.source.display(),
            self.triangle_count(),
            self.texture_count(),
            self.lods.len()
        )
    }

    /// The level of detail for a car `px_per_m` pixels per metre on the screen: the first
    /// whose threshold it reaches, else the last (TORCS's rule, see the module docs).
    pub fn lod_for(&self, px_per_m: f64) -> usize {
        lod_index(
            self.lods.iter().map(|l| l.threshold_px_per_m),
            self.lods.len(),
            px_per_m,
        )
    }

    /// The driver's eye point in the body frame, when the model gives one.
    pub fn driver_eye_body(&self) -> Option<DVec3> {
        self.driver_eye.map(|e| e + self.body_from_model)
    }
}

/// The index of the first threshold at most `px_per_m` among `count` levels, else the last.
/// A non-finite `px_per_m` picks the most detailed level.
pub fn lod_index(thresholds: impl Iterator<Item = f64>, count: usize, px_per_m: f64) -> usize {
    if !px_per_m.is_finite() {
        return 0;
    }
    thresholds
        .enumerate()
        .find(|(_, t)| px_per_m >= *t)
        .map_or(count.saturating_sub(1), |(i, _)| i)
}

/// The car's size on the screen (pixels per metre) at `distance_m` with a vertical field of
/// view `fov_y_rad` on a target `height_px` high (TORCS's `getLODFactor`).
pub fn screen_px_per_m(height_px: u32, distance_m: f64, fov_y_rad: f64) -> f64 {
    let d = distance_m.max(1e-3);
    0.5 * f64::from(height_px) / (d * (0.5 * fov_y_rad).tan().max(1e-6))
}

/// A TORCS car's scene with its base texture only: TORCS's `.acc` car files name the car's
/// texture for every layer, and the other layers' UVs point at the shadow silhouette in its
/// corner (TORCS draws cars with the base layer alone).
fn car_scene(mut scene: TrackScene) -> TrackScene {
    for batch in &mut scene.batches {
        batch.tiled = None;
    }
    scene
}

/// The levels of detail of a TORCS car: the `Ranges` from the one that names `path`'s file
/// on (`first` is that file, loaded); `first` alone when the ranges do not name it.
fn torcs_lods(
    path: &Path,
    first: TrackScene,
    graphic: Option<&Section>,
    warnings: &mut Vec<String>,
) -> Vec<ModelLod> {
    let own = path.file_name().map(|n| n.to_string_lossy().into_owned());
    let ranges: Vec<(String, f64)> = graphic
        .and_then(|g| g.section("Ranges"))
        .map(|r| {
            r.sections
                .iter()
                .filter_map(|s| {
                    let file = s.text("car").ok().flatten()?.to_owned();
                    let threshold = s.number("threshold").ok().flatten()?;
                    threshold.is_finite().then_some((file, threshold.max(0.0)))
                })
                .collect()
        })
        .unwrap_or_default();
    let Some(start) = ranges.iter().position(|(f, _)| Some(f) == own.as_ref()) else {
        return vec![ModelLod {
            threshold_px_per_m: 0.0,
            scene: first,
        }];
    };
    let mut lods = vec![ModelLod {
        threshold_px_per_m: ranges[start].1,
        scene: first,
    }];
    for (file, threshold) in &ranges[start + 1..] {
        match load_scene(&path.with_file_name(file)).map(car_scene) {
            Ok(scene) if scene.triangle_count() > 0 => lods.push(ModelLod {
                threshold_px_per_m: *threshold,
                scene,
            }),
            Ok(_) => warnings.push(format!("level of detail {file}: no triangles; left out")),
            Err(e) => warnings.push(format!("level of detail {file}: {e}; left out")),
        }
    }
    if let Some(last) = lods.last_mut() {
        last.threshold_px_per_m = 0.0;
    }
    lods
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn torcs_lod_rule() {
        // p406's thresholds: 50, 40, 30, 20, 10, 5, 3, 0 pixels per metre.
        let t = [50.0, 40.0, 30.0, 20.0, 10.0, 5.0, 3.0, 0.0];
        let pick = |px: f64| lod_index(t.iter().copied(), t.len(), px);
        assert_eq!(pick(400.0), 0);
        assert_eq!(pick(50.0), 0);
        assert_eq!(pick(49.9), 1);
        assert_eq!(pick(4.0), 6);
        assert_eq!(pick(0.1), 7);
        assert_eq!(pick(f64::NAN), 0);
        // 1080 pixels high, 60 degrees: 540 / (d tan 30°); at 18.7 m that is 50 px/m.
        let px = screen_px_per_m(
            1080,
            540.0 / (50.0 * 30f64.to_radians().tan()),
            60f64.to_radians(),
        );
        assert!((px - 50.0).abs() < 1e-9, "{px}");
    }
}

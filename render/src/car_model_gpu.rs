//! A [`CarModel`] on the GPU: each level of detail as a textured scene (the imported track
//! scenes' path, [`GpuTrackScene`]), textured wheels built from the car's wheel radius and
//! width, and the brake lamps. Drawn by [`crate::SceneRenderer`] in place of the procedural
//! body and wheels (which still cast the car's shadow: the textured path has no shadow
//! pipeline).
//!
//! Wheels, as TORCS draws its own: a tread cylinder and an inner disc in a plain dark
//! colour, and an outer disc textured with the top left quarter of the wheel texture
//! (TORCS's `tex-wheel.rgb` holds four faces, the top left one for a still or slow wheel),
//! or a plain grey face without one. Wheel frame as [`crate::pose`]'s: axle along y, outer
//! face at +y.

use std::f32::consts::TAU;

use glam::{DVec3, Mat4, Vec3, Vec4};
use gripline_torcs::image::TextureImage;
use gripline_torcs::track::scene_file::{
    SceneBatch, SceneChunk, SceneTexture, SceneVertex, TrackScene,
};

use crate::car_model::{CarModel, screen_px_per_m};
use crate::gpu_mesh::GpuMesh;
use crate::mesh::{MeshBuilder, material};
use crate::track_scene::{GpuTrackScene, SceneDrawContext};
use crate::vehicle_visual::VehicleVisual;

/// Lit brake lamp (linear RGB, unlit), as the procedural body's.
const BRAKE_LAMP: [f32; 3] = [1.0, 0.012, 0.006];
/// Tyre rubber (linear RGB).
const TYRE: [f32; 3] = [0.02, 0.02, 0.022];
/// A wheel face without a texture (linear RGB).
const PLAIN_FACE: [f32; 3] = [0.35, 0.35, 0.37];
/// Sides of the wheel's cylinder.
const WHEEL_SEGMENTS: u32 = 28;

/// The car model on the GPU. See the module docs.
pub(crate) struct GpuCarModel {
    /// (threshold in pixels per metre, level), most detailed first.
    lods: Vec<(f64, GpuTrackScene)>,
    /// Front and rear wheel.
    wheels: [Option<GpuTrackScene>; 2],
    /// Brake lamps in the body frame, drawn lit when braking.
    brake_lamps: Option<GpuMesh>,
    /// The coarsest level's triangles in the body frame, drawn into the sun's shadow map.
    shadow_caster: Option<GpuMesh>,
    /// The model frame's origin in the body frame (m).
    body_from_model: DVec3,
}

impl GpuCarModel {
    /// Uploads `model` for the car `visual`; `None` when nothing of it can be drawn.
    pub(crate) fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        ctx: &SceneDrawContext<'_>,
        model: &CarModel,
        visual: &VehicleVisual,
    ) -> Option<Self> {
        let lods: Vec<(f64, GpuTrackScene)> = model
            .lods
            .iter()
            .filter_map(|lod| {
                let gpu = GpuTrackScene::new(device, queue, ctx, &lod.scene, DVec3::ZERO)?;
                Some((lod.threshold_px_per_m, gpu))
            })
            .collect();
        if lods.is_empty() {
            return None;
        }
        let wheels = [0, 1].map(|axle| {
            let scene = wheel_scene(
                visual.wheel_radius_m[axle],
                visual.tyre_width_m[axle],
                model.wheel_texture.as_ref(),
            );
            GpuTrackScene::new(device, queue, ctx, &scene, DVec3::ZERO)
        });
        let lamps = brake_lamps_mesh(model);
        Some(Self {
            lods,
            wheels,
            brake_lamps: GpuMesh::new(device, "model brake lamps", &lamps),
            shadow_caster: GpuMesh::new(device, "model shadow caster", &shadow_caster_mesh(model)),
            body_from_model: model.body_from_model,
        })
    }

    /// The body's shadow caster (body frame), if the model has triangles.
    pub(crate) fn shadow_caster(&self) -> Option<&GpuMesh> {
        self.shadow_caster.as_ref()
    }

    /// `body_from_model` as a matrix.
    pub(crate) fn body_from_model(&self) -> glam::DMat4 {
        glam::DMat4::from_translation(self.body_from_model)
    }

    /// The level to draw for a car `distance_m` away, seen with `fov_y_rad` on a target
    /// `height_px` high.
    pub(crate) fn lod_for(&self, height_px: u32, distance_m: f64, fov_y_rad: f64) -> usize {
        let px = screen_px_per_m(height_px, distance_m, fov_y_rad);
        crate::car_model::lod_index(self.lods.iter().map(|l| l.0), self.lods.len(), px)
    }

    /// Draws level `lod` of the body and the four wheels, with the globals bound; `bind`
    /// binds the model matrix of a slot (body: `body_slot`, wheels: `wheel_slots`), `planes`
    /// gives the frustum in a slot's frame. Leaves a textured pipeline set.
    pub(crate) fn draw(
        &mut self,
        pass: &mut wgpu::RenderPass<'_>,
        lod: usize,
        slots: (usize, [usize; 4]),
        bind: &impl Fn(&mut wgpu::RenderPass<'_>, usize),
        planes: &impl Fn(usize) -> [Vec4; 5],
    ) {
        let lod = lod.min(self.lods.len() - 1);
        let (body_slot, wheel_slots) = slots;
        bind(pass, body_slot);
        self.lods[lod].1.draw(pass, &planes(body_slot));
        for (i, slot) in wheel_slots.into_iter().enumerate() {
            if let Some(wheel) = self.wheels[i / 2].as_mut() {
                bind(pass, slot);
                wheel.draw(pass, &planes(slot));
            }
        }
    }

    /// The brake lamps (body frame; the solid pipeline and the body's slot bound).
    pub(crate) fn draw_brake_lamps(&self, pass: &mut wgpu::RenderPass<'_>) {
        if let Some(lamps) = &self.brake_lamps {
            lamps.draw(pass);
        }
    }
}

/// The brake lamps as small lit squares facing back, in the body frame, each moved onto
/// the rear surface of the most detailed level (the XML's points may lie inside the shell).
/// The triangles of `model`'s coarsest level of detail in the body frame, for the shadow
/// pass (which needs no texture, and the coarsest level's outline is the car's).
fn shadow_caster_mesh(model: &CarModel) -> MeshBuilder {
    let mut m = MeshBuilder::new();
    let Some(lod) = model.lods.last() else {
        return m;
    };
    let origin = DVec3::from_array(lod.scene.origin) + model.body_from_model;
    for batch in &lod.scene.batches {
        let corner = |i: u32| {
            batch
                .vertices
                .get(i as usize)
                .map(|v| (DVec3::from_array(v.position.map(f64::from)) + origin).as_vec3())
        };
        for tri in batch.indices.chunks_exact(3) {
            if let (Some(a), Some(b), Some(c)) = (corner(tri[0]), corner(tri[1]), corner(tri[2])) {
                m.triangle([a, b, c], batch.colour, material::MATTE);
            }
        }
    }
    m
}

#[allow(clippy::cast_possible_truncation)]
fn brake_lamps_mesh(model: &CarModel) -> MeshBuilder {
    let mut m = MeshBuilder::new();
    let Some(lod) = model.lods.first() else {
        return m;
    };
    let origin = DVec3::from_array(lod.scene.origin);
    for lamp in &model.brake_lamps {
        let half = 0.25 * lamp.size_m;
        let p = lamp.position;
        // The rearmost surface point around the lamp (model frame).
        let rear = lod
            .scene
            .batches
            .iter()
            .flat_map(|b| &b.vertices)
            .map(|v| DVec3::from_array(v.position.map(f64::from)) + origin)
            .filter(|v| (v.y - p.y).abs() < half && (v.z - p.z).abs() < half && v.x < p.x + 0.3)
            .map(|v| v.x)
            .fold(p.x, f64::min);
        let c = (DVec3::new(rear - 0.008, p.y, p.z) + model.body_from_model).as_vec3();
        let h = half as f32;
        m.cuboid(
            c - Vec3::new(0.01, h, 0.6 * h),
            c + Vec3::new(0.01, h, 0.6 * h),
            BRAKE_LAMP,
            material::EMISSIVE,
        );
    }
    m
}

/// A wheel of `radius_m` and `width_m` as scene data in the wheel frame (see the module
/// docs), its outer face textured with `texture`'s top left quarter.
#[allow(clippy::cast_possible_truncation)]
pub fn wheel_scene(radius_m: f64, width_m: f64, texture: Option<&TextureImage>) -> TrackScene {
    let r = radius_m as f32;
    let hw = 0.5 * width_m as f32;
    let n = WHEEL_SEGMENTS;
    let ring = |k: u32| {
        let a = TAU * k as f32 / n as f32;
        (a.cos(), a.sin())
    };
    let vertex = |p: Vec3, normal: Vec3, uv: [f32; 2]| SceneVertex {
        position: p.to_array(),
        normal: normal.to_array(),
        uv,
        uv_tiled: [0.0; 2],
    };
    // Tread and inner disc.
    let mut rubber = Vec::new();
    for k in 0..n {
        let ((c0, s0), (c1, s1)) = (ring(k), ring(k + 1));
        let (n0, n1) = (Vec3::new(c0, 0.0, s0), Vec3::new(c1, 0.0, s1));
        let (a0, a1) = (n0 * r - Vec3::Y * hw, n1 * r - Vec3::Y * hw);
        let (b0, b1) = (n0 * r + Vec3::Y * hw, n1 * r + Vec3::Y * hw);
        // Counter-clockwise seen from outside, as `MeshBuilder::cylinder_y`.
        for (p, nn) in [(a0, n0), (b0, n0), (b1, n1), (a0, n0), (b1, n1), (a1, n1)] {
            rubber.push(vertex(p, nn, [0.0; 2]));
        }
        for p in [-Vec3::Y * hw, a0, a1] {
            rubber.push(vertex(p, -Vec3::Y, [0.0; 2]));
        }
    }
    // Outer face: the texture's top left quarter, centred at (0.25, 0.25), v down.
    let mut face = Vec::new();
    let uv = |c: f32, s: f32| [0.25 + 0.245 * c, 0.25 - 0.245 * s];
    for k in 0..n {
        let ((c0, s0), (c1, s1)) = (ring(k), ring(k + 1));
        let centre = Vec3::Y * hw;
        let p0 = Vec3::new(c0 * r, hw, s0 * r);
        let p1 = Vec3::new(c1 * r, hw, s1 * r);
        face.push(vertex(centre, Vec3::Y, [0.25, 0.25]));
        face.push(vertex(p1, Vec3::Y, uv(c1, s1)));
        face.push(vertex(p0, Vec3::Y, uv(c0, s0)));
    }
    let batch = |vertices: Vec<SceneVertex>, texture: Option<usize>, colour: [f32; 3]| {
        let count = u32::try_from(vertices.len()).unwrap_or(0);
        SceneBatch {
            texture,
            tiled: None,
            colour,
            two_sided: false,
            indices: (0..count).collect(),
            chunks: vec![SceneChunk {
                first_index: 0,
                index_count: count,
                min: [-r, -hw, -r],
                max: [r, hw, r],
            }],
            vertices,
        }
    };
    let textures: Vec<SceneTexture> = texture
        .map(|image| SceneTexture {
            name: "wheel".into(),
            path: None,
            image: Some(image.clone()),
        })
        .into_iter()
        .collect();
    TrackScene {
        source: "wheel".into(),
        origin: [0.0; 3],
        batches: vec![
            batch(rubber, None, TYRE),
            batch(face, texture.map(|_| 0), PLAIN_FACE),
        ],
        textures,
        missing_textures: Vec::new(),
        warnings: Vec::new(),
    }
}

/// The frustum planes of a slot's frame, from the camera-relative `clip_from_world` and the
/// slot's model matrix.
pub(crate) fn slot_planes(clip_from_world: Mat4, model: Mat4) -> [Vec4; 5] {
    crate::tiles::frustum_planes(clip_from_world * model)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every triangle of the wheel faces away from the axle's centre (its winding agrees
    /// with its normal, so back-face culling keeps the outside), and the wheel has the
    /// radius and width asked for.
    #[test]
    fn the_textured_wheel_is_closed_outward_and_sized() {
        let scene = wheel_scene(0.32, 0.24, None);
        let mut max_r = 0.0f32;
        for batch in &scene.batches {
            for tri in batch.indices.chunks_exact(3) {
                let p = [0, 1, 2].map(|k| Vec3::from(batch.vertices[tri[k] as usize].position));
                let wound = (p[1] - p[0]).cross(p[2] - p[0]);
                let normal = Vec3::from(batch.vertices[tri[0] as usize].normal);
                assert!(wound.dot(normal) > 0.0, "{p:?}");
                for q in p {
                    max_r = max_r.max(Vec3::new(q.x, 0.0, q.z).length());
                    assert!(q.y.abs() <= 0.12 + 1e-6);
                }
            }
        }
        assert!((max_r - 0.32).abs() < 1e-5);
        // The face's UVs stay inside the top left quarter.
        assert!(
            scene.batches[1]
                .vertices
                .iter()
                .all(|v| v.uv.iter().all(|c| (0.0..=0.5).contains(c)))
        );
    }
}

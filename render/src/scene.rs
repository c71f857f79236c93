//! The scene renderer: sky, sun with a shadow map following the car, the track, its objects,
//! the car and its wheels, and the cockpit in the cockpit view.
//!
//! One [`SceneRenderer::render`] call records a shadow pass and a main pass into the caller's
//! encoder. The main pass renders into a multisampled texture (when MSAA is on) and resolves
//! into the caller's target, so the caller can draw a HUD on top with `LoadOp::Load`.
//! Per-frame uniforms are written with `Queue::write_buffer`: record at most one frame per
//! submission.

use std::num::NonZeroU64;

use bytemuck::{Pod, Zeroable};
use glam::{DMat4, DVec3, Mat4, Vec3};
use gripline_physics::track::TrackMesh;
use gripline_torcs::track::scene_file::TrackScene;

use crate::car_mesh;
use crate::car_model::CarModel;
use crate::car_model_gpu::{GpuCarModel, slot_planes};
use crate::frame_input::FrameInput;
use crate::gpu::GpuContext;
use crate::gpu_mesh::GpuMesh;
use crate::mesh::MeshBuilder;
use crate::procedural_car_gpu::ProceduralCar;
use crate::scene_pipelines::{DEPTH_FORMAT, SceneLayouts, ScenePipelines};
use crate::settings::{RenderSettings, choose_msaa_samples};
use crate::shadow_light::{light_matrix, sun_direction};
use crate::tiles::{
    Tile, frustum_planes, is_near_cell, tile_mesh, visible_ranges, visible_ranges_where,
};
use crate::track_geometry::{TrackGeometry, split_props};
use crate::track_scene::{GpuTrackScene, SceneDrawContext};
use crate::upscale::{Upscaler, scaled_size};
use crate::vehicle_visual::VehicleVisual;

/// Model slots: the `SLOT_` constants (the ghost's wheels at 8-11).
const MODEL_SLOTS: usize = 15;
const SLOT_TRACK: usize = 0;
const SLOT_BODY: usize = 1;
const SLOT_WHEEL0: usize = 2;
const SLOT_STEERING: usize = 6;
const SLOT_GHOST_BODY: usize = 7;
const SLOT_GHOST_WHEEL0: usize = 8;
const SLOT_CAR_MODEL: usize = 12;
const SLOT_NEEDLE0: usize = 13;
/// Fog density (1/m): about a quarter of the colour is haze at one kilometre.
const FOG_DENSITY_PER_M: f32 = 0.00028;

#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
struct Globals {
    clip_from_world: [[f32; 4]; 4],
    light_clip_from_world: [[f32; 4]; 4],
    world_dir_from_clip: [[f32; 4]; 4],
    sun_dir: [f32; 4],
    sun_color: [f32; 4],
    sky_zenith: [f32; 4],
    sky_horizon: [f32; 4],
    ground_tint: [f32; 4],
    params: [f32; 4],
}

struct Targets {
    width: u32,
    height: u32,
    depth: wgpu::TextureView,
    msaa: Option<wgpu::TextureView>,
}

/// Draws the scene into a colour target. See the module documentation.
pub struct SceneRenderer {
    device: wgpu::Device,
    queue: wgpu::Queue,
    format: wgpu::TextureFormat,
    sample_count: u32,
    settings: RenderSettings,
    visual: VehicleVisual,
    track_origin: DVec3,
    globals_buffer: wgpu::Buffer,
    model_buffer: wgpu::Buffer,
    model_stride: u64,
    main_globals: wgpu::BindGroup,
    shadow_globals: wgpu::BindGroup,
    models: wgpu::BindGroup,
    sky_pipeline: wgpu::RenderPipeline,
    ground_pipeline: wgpu::RenderPipeline,
    solid_pipeline: wgpu::RenderPipeline,
    /// See-through, depth-tested without writing depth: the ghost car.
    ghost_pipeline: wgpu::RenderPipeline,
    shadow_pipeline: wgpu::RenderPipeline,
    shadow_view: wgpu::TextureView,
    shadow_size: u32,
    ground: Option<GpuMesh>,
    /// An imported track's textured scene, drawn in place of `ground`, and the layouts
    /// its pipelines are built against.
    track_scene: Option<GpuTrackScene>,
    layouts: [wgpu::BindGroupLayout; 2],
    /// The ground's tiles for frustum culling, and this frame's visible vertex ranges.
    ground_tiles: Vec<Tile>,
    visible_ground: Vec<(u32, u32)>,
    props: Option<GpuMesh>,
    /// The generated track's barriers, boards, trees and buildings (props, grouped into
    /// tiles), not drawn over an imported scene; this frame's visible ranges in the main
    /// view and in the sun's.
    roadside: Option<GpuMesh>,
    roadside_tiles: Vec<Tile>,
    visible_roadside: Vec<(u32, u32)>,
    shadowed_roadside: Vec<(u32, u32)>,
    /// The roadside with far trees, drawn in the tiles beyond `detail_distance_m`.
    roadside_far: Option<GpuMesh>,
    roadside_far_tiles: Vec<Tile>,
    visible_roadside_far: Vec<(u32, u32)>,
    detail_distance_m: f32,
    /// The procedural body, lamps, wheels and cockpit of `visual`.
    car: ProceduralCar,
    steering: Option<GpuMesh>,
    needle: Option<GpuMesh>,
    /// A car model drawn in place of the procedural body and wheels ([`Self::set_car_model`]).
    car_model: Option<GpuCarModel>,
    targets: Option<Targets>,
    /// Present when the scene is drawn at a lower internal resolution.
    upscaler: Option<Upscaler>,
    sun_dir: Vec3,
}

impl std::fmt::Debug for SceneRenderer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SceneRenderer")
            .field("format", &self.format)
            .field("sample_count", &self.sample_count)
            .field("settings", &self.settings)
            .finish_non_exhaustive()
    }
}

impl SceneRenderer {
    /// Builds the GPU resources for `track` and the car `visual`, rendering into targets of
    /// `target_format`. The MSAA sample count of `settings` falls back to what the adapter
    /// supports for that format (see [`SceneRenderer::sample_count`]).
    pub fn new(
        gpu: &GpuContext,
        target_format: wgpu::TextureFormat,
        settings: &RenderSettings,
        track: &TrackMesh,
        visual: &VehicleVisual,
    ) -> Self {
        let device = &gpu.device;
        let colour_features = gpu.adapter.get_texture_format_features(target_format);
        let depth_features = gpu.adapter.get_texture_format_features(DEPTH_FORMAT);
        let sample_count = choose_msaa_samples(settings.msaa_samples, |n| {
            colour_features.flags.sample_count_supported(n)
                && depth_features.flags.sample_count_supported(n)
                && colour_features
                    .allowed_usages
                    .contains(wgpu::TextureUsages::RENDER_ATTACHMENT)
        });
        let shadow_size = if settings.shadows {
            settings
                .shadow_map_size_clamped()
                .min(device.limits().max_texture_dimension_2d)
        } else {
            1
        };

        let globals_buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("scene globals"),
            size: std::mem::size_of::<Globals>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let align = u64::from(device.limits().min_uniform_buffer_offset_alignment);
        let model_stride = 64u64.div_ceil(align) * align;
        let model_buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("scene models"),
            size: model_stride * MODEL_SLOTS as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });

        let globals_entry = wgpu::BindGroupLayoutEntry {
            binding: 0,
            visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: false,
                min_binding_size: NonZeroU64::new(std::mem::size_of::<Globals>() as u64),
            },
            count: None,
        };
        let main_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("scene globals layout"),
            entries: &[
                globals_entry,
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Depth,
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 2,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Comparison),
                    count: None,
                },
            ],
        });
        let shadow_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("shadow globals layout"),
            entries: &[globals_entry],
        });
        let model_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("model layout"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::VERTEX,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: true,
                    min_binding_size: NonZeroU64::new(64),
                },
                count: None,
            }],
        });

        let shadow_texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("shadow map"),
            size: wgpu::Extent3d {
                width: shadow_size,
                height: shadow_size,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: DEPTH_FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
            view_formats: &[],
        });
        let shadow_view = shadow_texture.create_view(&wgpu::TextureViewDescriptor::default());
        let shadow_sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("shadow sampler"),
            address_mode_u: wgpu::AddressMode::ClampToEdge,
            address_mode_v: wgpu::AddressMode::ClampToEdge,
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            compare: Some(wgpu::CompareFunction::LessEqual),
            ..Default::default()
        });

        let main_globals = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("scene globals"),
            layout: &main_layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: globals_buffer.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::TextureView(&shadow_view),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: wgpu::BindingResource::Sampler(&shadow_sampler),
                },
            ],
        });
        let shadow_globals = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("shadow globals"),
            layout: &shadow_layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: globals_buffer.as_entire_binding(),
            }],
        });
        let models = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("models"),
            layout: &model_layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                    buffer: &model_buffer,
                    offset: 0,
                    size: NonZeroU64::new(64),
                }),
            }],
        });

        let ScenePipelines {
            ground: ground_pipeline,
            solid: solid_pipeline,
            ghost: ghost_pipeline,
            sky: sky_pipeline,
            shadow: shadow_pipeline,
        } = ScenePipelines::new(
            device,
            &SceneLayouts {
                main: &main_layout,
                shadow: &shadow_layout,
                model: &model_layout,
            },
            target_format,
            sample_count,
            settings,
        );

        // The track's big meshes, drawn in batches (see `RenderSettings::draw_batch_vertices`).
        let big_mesh = |label: &str, mesh: &MeshBuilder| {
            GpuMesh::new(device, label, mesh)
                .map(|m| m.with_draw_batch(settings.draw_batch_vertices))
        };
        let mut geometry = TrackGeometry::new(track);
        let (mut ground_mesh, props_mesh) = split_props(&geometry.mesh);
        let ground_tiles = tile_mesh(&mut ground_mesh);
        let mut roadside_mesh = std::mem::take(&mut geometry.roadside);
        let roadside_tiles = tile_mesh(&mut roadside_mesh);
        let mut roadside_far_mesh = std::mem::take(&mut geometry.roadside_far);
        let roadside_far_tiles = tile_mesh(&mut roadside_far_mesh);
        let sun_dir = sun_direction();
        Self {
            device: device.clone(),
            queue: gpu.queue.clone(),
            format: target_format,
            sample_count,
            settings: *settings,
            visual: visual.clone(),
            track_origin: geometry.origin,
            globals_buffer,
            model_buffer,
            model_stride,
            main_globals,
            shadow_globals,
            models,
            sky_pipeline,
            ground_pipeline,
            solid_pipeline,
            ghost_pipeline,
            shadow_pipeline,
            shadow_view,
            shadow_size,
            ground: big_mesh("track ground", &ground_mesh),
            track_scene: None,
            layouts: [main_layout, model_layout],
            visible_ground: Vec::with_capacity(ground_tiles.len()),
            ground_tiles,
            props: big_mesh("track objects", &props_mesh),
            roadside: big_mesh("roadside", &roadside_mesh),
            visible_roadside: Vec::with_capacity(roadside_tiles.len()),
            shadowed_roadside: Vec::with_capacity(roadside_tiles.len()),
            roadside_tiles,
            roadside_far: big_mesh("roadside far", &roadside_far_mesh),
            visible_roadside_far: Vec::with_capacity(roadside_far_tiles.len()),
            roadside_far_tiles,
            detail_distance_m: settings.detail_distance_m,
            car: ProceduralCar::new(device, visual),
            steering: GpuMesh::new(device, "steering wheel", &car_mesh::steering_wheel_mesh()),
            needle: GpuMesh::new(device, "needle", &car_mesh::needle_mesh()),
            car_model: None,
            targets: None,
            upscaler: (settings.render_scale < 1.0).then(|| Upscaler::new(device, target_format)),
            sun_dir,
        }
    }

    /// Draws `scene` (an imported track's textured model, in the same world frame as the
    /// track mesh) in place of the generated ground and its roadside (the barriers, boards,
    /// trees and buildings: the scene models its own walls), or the generated ones again
    /// (`None`). The track's objects (cones, markers) and the physics are unchanged.
    pub fn set_track_scene(&mut self, scene: Option<&TrackScene>) {
        let ctx = self.draw_context();
        self.track_scene = scene.and_then(|scene| {
            GpuTrackScene::new(&self.device, &self.queue, &ctx, scene, self.track_origin)
        });
    }

    /// Draws the car `visual` (its procedural body, wheels and cockpit, rebuilt) with `model`
    /// in place of the procedural body and wheels, or without one (`None`); whether the model
    /// was uploaded. For a car whose model or driver's eye point arrives after the scene was
    /// built; the track stays as it is.
    pub fn set_car(&mut self, visual: &VehicleVisual, model: Option<&CarModel>) -> bool {
        self.visual = visual.clone();
        self.car = ProceduralCar::new(&self.device, visual);
        self.set_car_model(model)
    }

    /// Whether a car model is drawn in place of the procedural body.
    pub fn draws_car_model(&self) -> bool {
        self.car_model.is_some()
    }

    /// Draws the car with `model` in place of the procedural body and wheels, or those again
    /// (`None`); whether it was uploaded. The model's coarsest level casts the body's shadow;
    /// the cockpit's dashboard and steering wheel stay procedural, and the model is drawn
    /// from the cockpit too (docs/rendering.md).
    pub fn set_car_model(&mut self, model: Option<&CarModel>) -> bool {
        let ctx = self.draw_context();
        self.car_model = model.and_then(|model| {
            GpuCarModel::new(&self.device, &self.queue, &ctx, model, &self.visual)
        });
        self.car_model.is_some()
    }

    /// The layouts and settings the textured pipelines are built with.
    fn draw_context(&self) -> SceneDrawContext<'_> {
        SceneDrawContext {
            main_layout: &self.layouts[0],
            model_layout: &self.layouts[1],
            format: self.format,
            sample_count: self.sample_count,
            fine_detail: self.settings.fine_detail,
            draw_batch_indices: self.settings.draw_batch_vertices,
        }
    }

    /// The imported scene on the GPU, if one is drawn.
    pub fn track_scene(&self) -> Option<&GpuTrackScene> {
        self.track_scene.as_ref()
    }

    /// The MSAA sample count in use (1, 2 or 4).
    pub fn sample_count(&self) -> u32 {
        self.sample_count
    }

    /// The colour format this renderer draws into.
    pub fn target_format(&self) -> wgpu::TextureFormat {
        self.format
    }

    /// The car model's dimensions.
    pub fn visual(&self) -> &VehicleVisual {
        &self.visual
    }

    /// (Re)creates the depth and MSAA textures for a `width` x `height` target. A zero size
    /// (a minimised window) is ignored; sizes beyond the device's limit are clamped.
    pub fn resize(&mut self, width: u32, height: u32) {
        if width == 0 || height == 0 {
            return;
        }
        let max = self.device.limits().max_texture_dimension_2d;
        let (width, height) = (width.min(max), height.min(max));
        if self
            .targets
            .as_ref()
            .is_some_and(|t| t.width == width && t.height == height)
        {
            return;
        }
        let size = wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        };
        let texture = |label: &str, format: wgpu::TextureFormat| {
            self.device
                .create_texture(&wgpu::TextureDescriptor {
                    label: Some(label),
                    size,
                    mip_level_count: 1,
                    sample_count: self.sample_count,
                    dimension: wgpu::TextureDimension::D2,
                    format,
                    usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
                    view_formats: &[],
                })
                .create_view(&wgpu::TextureViewDescriptor::default())
        };
        let depth = texture("scene depth", DEPTH_FORMAT);
        let msaa = (self.sample_count > 1).then(|| texture("scene msaa colour", self.format));
        self.targets = Some(Targets {
            width,
            height,
            depth,
            msaa,
        });
    }

    /// Records the frame into `encoder`, drawing into `target` (a view of a texture of the
    /// renderer's format and `frame`'s size). A frame of zero size records nothing.
    pub fn render(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        frame: &FrameInput,
    ) {
        self.render_timed(encoder, target, frame, None);
    }

    /// As [`SceneRenderer::render`], writing GPU timestamps into `timestamps` (a query set of
    /// at least two timestamp queries): index 0 at the start of the first pass, 1 at the end
    /// of the last.
    pub fn render_timed(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        frame: &FrameInput,
        timestamps: Option<&wgpu::QuerySet>,
    ) {
        if frame.width == 0 || frame.height == 0 {
            return;
        }
        let (width, height) = if self.upscaler.is_some() {
            scaled_size(frame.width, frame.height, self.settings.render_scale)
        } else {
            (frame.width, frame.height)
        };
        self.resize(width, height);
        let final_target = target;
        if let Some(upscaler) = self.upscaler.as_mut() {
            upscaler.prepare(&self.device, width, height);
        }
        let target = self
            .upscaler
            .as_ref()
            .and_then(Upscaler::target)
            .unwrap_or(target);
        let Some(targets) = self.targets.as_ref() else {
            return;
        };
        let eye = frame.view.eye_world;
        let aspect = f64::from(frame.width) / f64::from(frame.height);
        let clip_from_world = frame.view.clip_from_world_relative(aspect);
        let car = relative(frame.pose.position, eye);
        let light_clip_from_world = light_matrix(self.sun_dir, car, self.shadow_size);
        let shadows_on = self.settings.shadows && self.shadow_size > 1;
        let globals = Globals {
            clip_from_world: clip_from_world.to_cols_array_2d(),
            light_clip_from_world: light_clip_from_world.to_cols_array_2d(),
            world_dir_from_clip: clip_from_world.inverse().to_cols_array_2d(),
            sun_dir: self.sun_dir.extend(0.0).to_array(),
            sun_color: [2.9, 2.7, 2.4, 0.0],
            sky_zenith: [0.16, 0.32, 0.72, 0.0],
            sky_horizon: [0.62, 0.72, 0.86, 0.0],
            ground_tint: [0.12, 0.13, 0.1, 0.0],
            params: [
                FOG_DENSITY_PER_M,
                if self.format.is_srgb() { 0.0 } else { 1.0 },
                1.0 / self.shadow_size as f32,
                if shadows_on { 1.0 } else { 0.0 },
            ],
        };
        self.queue
            .write_buffer(&self.globals_buffer, 0, bytemuck::bytes_of(&globals));

        let pose = &frame.pose;
        let to_eye = DMat4::from_translation(-eye);
        let mut models = [Mat4::IDENTITY; MODEL_SLOTS];
        models[SLOT_TRACK] = Mat4::from_translation(relative(self.track_origin, eye));
        models[SLOT_BODY] = (to_eye * pose.world_from_body()).as_mat4();
        for (i, slot) in models[SLOT_WHEEL0..SLOT_WHEEL0 + 4].iter_mut().enumerate() {
            *slot = (to_eye * pose.world_from_wheel(i)).as_mat4();
        }
        let parts = car_mesh::cockpit_part_transforms(&self.visual, pose);
        let slots = [SLOT_STEERING, SLOT_NEEDLE0, SLOT_NEEDLE0 + 1];
        for (slot, part) in slots.into_iter().zip(parts) {
            models[slot] = (to_eye * pose.world_from_body() * part).as_mat4();
        }
        if let Some(model) = &self.car_model {
            models[SLOT_CAR_MODEL] =
                (to_eye * pose.world_from_body() * model.body_from_model()).as_mat4();
        }
        if let Some(ghost) = &frame.ghost {
            models[SLOT_GHOST_BODY] = (to_eye * ghost.world_from_body()).as_mat4();
            for (i, slot) in models[SLOT_GHOST_WHEEL0..SLOT_GHOST_WHEEL0 + 4]
                .iter_mut()
                .enumerate()
            {
                *slot = (to_eye * ghost.world_from_wheel(i)).as_mat4();
            }
        }
        let stride = usize::try_from(self.model_stride).unwrap_or(256);
        let mut bytes = vec![0u8; stride * MODEL_SLOTS];
        for (i, m) in models.iter().enumerate() {
            let m = if m.is_finite() { *m } else { Mat4::IDENTITY };
            bytes[i * stride..i * stride + 64]
                .copy_from_slice(bytemuck::bytes_of(&m.to_cols_array()));
        }
        self.queue.write_buffer(&self.model_buffer, 0, &bytes);
        let planes = frustum_planes(clip_from_world * models[SLOT_TRACK]);
        visible_ranges(&self.ground_tiles, &planes, &mut self.visible_ground);
        // Each roadside tile at one level of detail, by its cell's distance from the eye.
        let eye_in_mesh = -relative(self.track_origin, eye);
        let detail_m = self.detail_distance_m;
        let near = |t: &Tile| is_near_cell(t.cell, eye_in_mesh, detail_m).is_none_or(|n| n);
        let far = |t: &Tile| is_near_cell(t.cell, eye_in_mesh, detail_m) == Some(false);
        visible_ranges_where(
            &self.roadside_tiles,
            &planes,
            near,
            &mut self.visible_roadside,
        );
        visible_ranges_where(
            &self.roadside_far_tiles,
            &planes,
            far,
            &mut self.visible_roadside_far,
        );
        let sun_planes = frustum_planes(light_clip_from_world * models[SLOT_TRACK]);
        visible_ranges(
            &self.roadside_tiles,
            &sun_planes,
            &mut self.shadowed_roadside,
        );
        let offset = |slot: usize| u32::try_from(self.model_stride * slot as u64).unwrap_or(0);

        if shadows_on {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("shadow pass"),
                color_attachments: &[],
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                    view: &self.shadow_view,
                    depth_ops: Some(wgpu::Operations {
                        load: wgpu::LoadOp::Clear(1.0),
                        store: wgpu::StoreOp::Store,
                    }),
                    stencil_ops: None,
                }),
                timestamp_writes: timestamps.map(|query_set| wgpu::RenderPassTimestampWrites {
                    query_set,
                    beginning_of_pass_write_index: Some(0),
                    end_of_pass_write_index: None,
                }),
                occlusion_query_set: None,
                multiview_mask: None,
            });
            pass.set_pipeline(&self.shadow_pipeline);
            pass.set_bind_group(0, &self.shadow_globals, &[]);
            self.draw_casters(&mut pass, &offset, &self.shadowed_roadside, true);
        }

        let (view, resolve_target, store) = match &targets.msaa {
            Some(msaa) => (msaa, Some(target), wgpu::StoreOp::Discard),
            None => (target, None, wgpu::StoreOp::Store),
        };
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("scene pass"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view,
                depth_slice: None,
                resolve_target,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                    store,
                },
            })],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: &targets.depth,
                depth_ops: Some(wgpu::Operations {
                    load: wgpu::LoadOp::Clear(0.0),
                    store: wgpu::StoreOp::Discard,
                }),
                stencil_ops: None,
            }),
            // Between a shadow pass that wrote the start and an upscale pass that writes the
            // end this pass writes neither, and wgpu refuses an empty set of writes.
            timestamp_writes: timestamps
                .filter(|_| !shadows_on || self.upscaler.is_none())
                .map(|query_set| wgpu::RenderPassTimestampWrites {
                    query_set,
                    beginning_of_pass_write_index: (!shadows_on).then_some(0),
                    end_of_pass_write_index: self.upscaler.is_none().then_some(1),
                }),
            occlusion_query_set: None,
            multiview_mask: None,
        });
        pass.set_bind_group(0, &self.main_globals, &[]);
        pass.set_bind_group(1, &self.models, &[0]);
        // Roughly front to back, so that hidden pixels fail the depth test before they are
        // shaded: the cockpit, the car and the objects, then the ground under them (a
        // software rasteriser pays for every pixel shaded).
        pass.set_pipeline(&self.solid_pipeline);
        if frame.show_cockpit {
            if let Some(cockpit) = &self.car.cockpit {
                pass.set_bind_group(1, &self.models, &[offset(SLOT_BODY)]);
                cockpit.draw(&mut pass);
            }
            if let Some(steering) = &self.steering {
                pass.set_bind_group(1, &self.models, &[offset(SLOT_STEERING)]);
                steering.draw(&mut pass);
            }
            if let Some(needle) = &self.needle {
                for slot in [SLOT_NEEDLE0, SLOT_NEEDLE0 + 1] {
                    pass.set_bind_group(1, &self.models, &[offset(slot)]);
                    needle.draw(&mut pass);
                }
            }
        }
        let procedural_car = self.car_model.is_none();
        self.draw_casters(&mut pass, &offset, &self.visible_roadside, procedural_car);
        if let Some(lamps) = &self.car.tail_lamps[usize::from(frame.pose.brake_lamps_lit)]
            && procedural_car
        {
            pass.set_bind_group(1, &self.models, &[offset(SLOT_BODY)]);
            lamps.draw(&mut pass);
        }
        if let Some(model) = self.car_model.as_mut() {
            let distance = (frame.pose.position - eye).length();
            let lod = model.lod_for(frame.height, distance, frame.view.fov_y_rad);
            let bind = |pass: &mut wgpu::RenderPass<'_>, slot: usize| {
                pass.set_bind_group(1, &self.models, &[offset(slot)]);
            };
            let wheel_slots = [0, 1, 2, 3].map(|i| SLOT_WHEEL0 + i);
            let planes = |slot: usize| slot_planes(clip_from_world, models[slot]);
            let slots = (SLOT_CAR_MODEL, wheel_slots);
            model.draw(&mut pass, lod, slots, &bind, &planes);
            if frame.pose.brake_lamps_lit {
                pass.set_pipeline(&self.solid_pipeline);
                pass.set_bind_group(1, &self.models, &[offset(SLOT_BODY)]);
                model.draw_brake_lamps(&mut pass);
            }
        }
        if let Some(scene) = self.track_scene.as_mut() {
            pass.set_bind_group(1, &self.models, &[offset(SLOT_TRACK)]);
            scene.draw(&mut pass, &planes);
        } else if let Some(ground) = &self.ground {
            pass.set_pipeline(&self.ground_pipeline);
            pass.set_bind_group(1, &self.models, &[offset(SLOT_TRACK)]);
            ground.draw_ranges(&mut pass, &self.visible_ground);
        }
        pass.set_pipeline(&self.solid_pipeline);
        if let (Some(far), None) = (&self.roadside_far, &self.track_scene) {
            pass.set_bind_group(1, &self.models, &[offset(SLOT_TRACK)]);
            far.draw_ranges(&mut pass, &self.visible_roadside_far);
        }
        // The sky next, at depth 0 (infinity in reverse-Z): only the pixels nothing covered
        // are shaded (the depth test rejects the rest before the fragment shader).
        pass.set_pipeline(&self.sky_pipeline);
        pass.set_bind_group(1, &self.models, &[0]);
        pass.draw(0..3, 0..1);
        // The ghost last, blended over everything it is in front of.
        if frame.ghost.is_some() {
            pass.set_pipeline(&self.ghost_pipeline);
            if let Some(body) = &self.car.body {
                pass.set_bind_group(1, &self.models, &[offset(SLOT_GHOST_BODY)]);
                body.draw(&mut pass);
            }
            for i in 0..4 {
                if let Some(wheel) = &self.car.wheels[i / 2] {
                    pass.set_bind_group(1, &self.models, &[offset(SLOT_GHOST_WHEEL0 + i)]);
                    wheel.draw(&mut pass);
                }
            }
        }
        drop(pass);
        if let Some(upscaler) = &self.upscaler {
            upscaler.draw(encoder, final_target, timestamps.map(|q| (q, 1)));
        }
    }

    /// Track objects, the roadside's `roadside_ranges` (unless an imported scene, which has
    /// its own walls, replaces the generated ground), body and wheels (when `car`): everything
    /// that casts a shadow. The car first: it is nearest the camera.
    fn draw_casters(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        offset: &impl Fn(usize) -> u32,
        roadside_ranges: &[(u32, u32)],
        car: bool,
    ) {
        // A car model's body casts its own shadow (its coarsest level), else the generated
        // body's.
        let body = match &self.car_model {
            Some(model) => model.shadow_caster(),
            None => self.car.body.as_ref(),
        };
        if let Some(body) = body.filter(|_| car) {
            pass.set_bind_group(1, &self.models, &[offset(SLOT_BODY)]);
            body.draw(pass);
        }
        for i in (0..4).filter(|_| car) {
            if let Some(wheel) = &self.car.wheels[i / 2] {
                pass.set_bind_group(1, &self.models, &[offset(SLOT_WHEEL0 + i)]);
                wheel.draw(pass);
            }
        }
        if let Some(props) = &self.props {
            pass.set_bind_group(1, &self.models, &[offset(SLOT_TRACK)]);
            props.draw(pass);
        }
        if let (Some(roadside), None) = (&self.roadside, &self.track_scene) {
            pass.set_bind_group(1, &self.models, &[offset(SLOT_TRACK)]);
            roadside.draw_ranges(pass, roadside_ranges);
        }
    }
}

/// `p - eye` as `f32`, computed in `f64`.
#[allow(clippy::cast_possible_truncation)]
fn relative(p: DVec3, eye: DVec3) -> Vec3 {
    (p - eye).as_vec3()
}

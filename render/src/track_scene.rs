//! An imported track's textured scene (a TORCS `.acc` model, loaded by
//! [`gripline_torcs::track::scene_file`]) on the GPU: one vertex and one index buffer for
//! every batch, a bind group per batch (base texture, second layer, sampler), and three
//! pipelines: opaque with back faces culled, opaque two-sided, and alpha-tested two-sided
//! (foliage: fragments under half alpha are discarded). Each frame draws only the chunks
//! whose boxes meet the view frustum.
//!
//! Lighting is the scene's (`shaders/scene.wgsl`'s `lit`): sun with the shadow map, sky
//! hemisphere, fog; the texture is the albedo, times the second layer (TORCS's `tiled` layer,
//! a baked shadow map of the whole track) where there is one.

use bytemuck::{Pod, Zeroable};
use glam::{DVec3, Vec3, Vec4};
use gripline_torcs::track::scene_file::TrackScene;
use wgpu::util::DeviceExt;

use crate::gpu_mesh::triangle_batches;
use crate::scene_pipelines::DEPTH_FORMAT;
use crate::scene_textures::{mip_chain, plain_texture, upload_texture};
use crate::texture_binding::{filtering_sampler_entry, texture_entry};
use crate::tiles::box_visible;

/// Largest texture side uploaded with fine detail on, and off (Low tier).
const MAX_TEXTURE_SIDE: u32 = 2048;
const MAX_TEXTURE_SIDE_LOW: u32 = 1024;

/// One vertex of the scene: 40 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct SceneGpuVertex {
    /// Position relative to the track's origin (m).
    pub position: [f32; 3],
    /// Unit normal.
    pub normal: [f32; 3],
    /// Base layer UV.
    pub uv: [f32; 2],
    /// Second layer UV.
    pub uv_tiled: [f32; 2],
}

impl SceneGpuVertex {
    const ATTRIBUTES: [wgpu::VertexAttribute; 4] = wgpu::vertex_attr_array![
        0 => Float32x3, 1 => Float32x3, 2 => Float32x2, 3 => Float32x2
    ];

    fn layout() -> wgpu::VertexBufferLayout<'static> {
        wgpu::VertexBufferLayout {
            array_stride: std::mem::size_of::<Self>() as wgpu::BufferAddress,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &Self::ATTRIBUTES,
        }
    }
}

/// How a batch is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Culled,
    TwoSided,
    AlphaTested,
}

struct Chunk {
    first_index: u32,
    index_count: u32,
    min: Vec3,
    max: Vec3,
}

struct Batch {
    mode: Mode,
    bind_group: wgpu::BindGroup,
    base_vertex: i32,
    chunks: Vec<Chunk>,
}

/// The pipeline layouts' shared parts, from the scene renderer.
pub(crate) struct SceneDrawContext<'a> {
    /// Globals and the shadow map.
    pub main_layout: &'a wgpu::BindGroupLayout,
    /// One model matrix.
    pub model_layout: &'a wgpu::BindGroupLayout,
    /// Colour target format.
    pub format: wgpu::TextureFormat,
    /// MSAA samples.
    pub sample_count: u32,
    /// Fine detail (full-size textures, anisotropic filtering).
    pub fine_detail: bool,
    /// Most indices one draw takes ([`crate::RenderSettings::draw_batch_vertices`]).
    pub draw_batch_indices: u32,
}

/// The scene on the GPU. See the module docs.
pub struct GpuTrackScene {
    vertices: wgpu::Buffer,
    indices: wgpu::Buffer,
    batches: Vec<Batch>,
    /// Most indices one draw takes (see `triangle_batches`).
    draw_batch_indices: u32,
    pipelines: [wgpu::RenderPipeline; 3],
    /// Chunks drawn in the last frame, and in all.
    drawn_chunks: usize,
    total_chunks: usize,
}

impl std::fmt::Debug for GpuTrackScene {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GpuTrackScene")
            .field("batches", &self.batches.len())
            .field("total_chunks", &self.total_chunks)
            .finish_non_exhaustive()
    }
}

impl GpuTrackScene {
    /// Uploads `scene`, its positions made relative to `track_origin` (the origin of the
    /// track's model matrix). `None` when it has no triangles.
    pub(crate) fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        ctx: &SceneDrawContext<'_>,
        scene: &TrackScene,
        track_origin: DVec3,
    ) -> Option<Self> {
        let offset = DVec3::from_array(scene.origin) - track_origin;
        let mut vertices: Vec<SceneGpuVertex> = Vec::new();
        let mut indices: Vec<u32> = Vec::new();
        let texture_layout = texture_layout(device);
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("scene texture sampler"),
            address_mode_u: wgpu::AddressMode::Repeat,
            address_mode_v: wgpu::AddressMode::Repeat,
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            mipmap_filter: wgpu::MipmapFilterMode::Linear,
            anisotropy_clamp: if ctx.fine_detail { 8 } else { 1 },
            ..Default::default()
        });
        let max_side = if ctx.fine_detail {
            MAX_TEXTURE_SIDE
        } else {
            MAX_TEXTURE_SIDE_LOW
        }
        .min(device.limits().max_texture_dimension_2d);
        // Each texture once; `None` where the image is absent.
        let textures: Vec<Option<(wgpu::TextureView, bool)>> = scene
            .textures
            .iter()
            .map(|t| {
                let image = t.image.as_ref()?;
                let texture = upload_texture(device, queue, &t.name, &mip_chain(image, max_side))?;
                Some((
                    texture.create_view(&wgpu::TextureViewDescriptor::default()),
                    image.has_alpha,
                ))
            })
            .collect();
        let white = plain_texture(device, queue, "white", [1.0; 3])?
            .create_view(&wgpu::TextureViewDescriptor::default());
        let mut batches = Vec::with_capacity(scene.batches.len());
        for batch in &scene.batches {
            if batch.indices.is_empty() {
                continue;
            }
            let base = batch.texture.and_then(|i| textures.get(i)?.as_ref());
            let plain;
            let (base_view, alpha) = if let Some((view, alpha)) = base {
                (view, *alpha)
            } else {
                plain = plain_texture(device, queue, "plain colour", batch.colour)?
                    .create_view(&wgpu::TextureViewDescriptor::default());
                (&plain, false)
            };
            let tiled_view = batch
                .tiled
                .and_then(|i| textures.get(i)?.as_ref())
                .map_or(&white, |(view, _)| view);
            let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("scene batch"),
                layout: &texture_layout,
                entries: &[
                    wgpu::BindGroupEntry {
                        binding: 0,
                        resource: wgpu::BindingResource::TextureView(base_view),
                    },
                    wgpu::BindGroupEntry {
                        binding: 1,
                        resource: wgpu::BindingResource::TextureView(tiled_view),
                    },
                    wgpu::BindGroupEntry {
                        binding: 2,
                        resource: wgpu::BindingResource::Sampler(&sampler),
                    },
                ],
            });
            let base_vertex = i32::try_from(vertices.len()).ok()?;
            let first = u32::try_from(indices.len()).ok()?;
            vertices.extend(batch.vertices.iter().map(|v| {
                let p = DVec3::from_array(v.position.map(f64::from)) + offset;
                SceneGpuVertex {
                    position: p.as_vec3().to_array(),
                    normal: v.normal,
                    uv: v.uv,
                    uv_tiled: v.uv_tiled,
                }
            }));
            indices.extend_from_slice(&batch.indices);
            let shift = offset.as_vec3();
            batches.push(Batch {
                mode: if alpha {
                    Mode::AlphaTested
                } else if batch.two_sided {
                    Mode::TwoSided
                } else {
                    Mode::Culled
                },
                bind_group,
                base_vertex,
                chunks: batch
                    .chunks
                    .iter()
                    .map(|c| Chunk {
                        first_index: first + c.first_index,
                        index_count: c.index_count,
                        min: Vec3::from_array(c.min) + shift,
                        max: Vec3::from_array(c.max) + shift,
                    })
                    .collect(),
            });
        }
        if batches.is_empty() {
            return None;
        }
        // Opaque batches first, the alpha-tested ones last.
        batches.sort_by_key(|b| b.mode == Mode::AlphaTested);
        let total_chunks = batches.iter().map(|b| b.chunks.len()).sum();
        Some(Self {
            vertices: device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("scene vertices"),
                contents: bytemuck::cast_slice(&vertices),
                usage: wgpu::BufferUsages::VERTEX,
            }),
            indices: device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("scene indices"),
                contents: bytemuck::cast_slice(&indices),
                usage: wgpu::BufferUsages::INDEX,
            }),
            batches,
            draw_batch_indices: ctx.draw_batch_indices,
            pipelines: pipelines(device, ctx, &texture_layout),
            drawn_chunks: 0,
            total_chunks,
        })
    }

    /// Draws the chunks inside the frustum `planes` (in the track model's frame), with the
    /// globals (group 0) and the track's model matrix (group 1) already bound.
    pub(crate) fn draw(&mut self, pass: &mut wgpu::RenderPass<'_>, planes: &[Vec4; 5]) {
        pass.set_vertex_buffer(0, self.vertices.slice(..));
        pass.set_index_buffer(self.indices.slice(..), wgpu::IndexFormat::Uint32);
        let mut current = None;
        let mut drawn = 0;
        for batch in &self.batches {
            let mut bound = false;
            for chunk in &batch.chunks {
                if !box_visible(planes, chunk.min, chunk.max) {
                    continue;
                }
                if !bound {
                    if current != Some(batch.mode) {
                        pass.set_pipeline(&self.pipelines[batch.mode as usize]);
                        current = Some(batch.mode);
                    }
                    pass.set_bind_group(2, &batch.bind_group, &[]);
                    bound = true;
                }
                drawn += 1;
                for indices in triangle_batches(
                    chunk.first_index..chunk.first_index + chunk.index_count,
                    self.draw_batch_indices,
                ) {
                    pass.draw_indexed(indices, batch.base_vertex, 0..1);
                }
            }
        }
        self.drawn_chunks = drawn;
    }

    /// Chunks drawn in the last frame and in the whole scene.
    pub fn chunk_counts(&self) -> (usize, usize) {
        (self.drawn_chunks, self.total_chunks)
    }
}

fn texture_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("scene textures layout"),
        entries: &[
            texture_entry(0),
            texture_entry(1),
            filtering_sampler_entry(2),
        ],
    })
}

/// The three pipelines, indexed by [`Mode`].
fn pipelines(
    device: &wgpu::Device,
    ctx: &SceneDrawContext<'_>,
    texture_layout: &wgpu::BindGroupLayout,
) -> [wgpu::RenderPipeline; 3] {
    let source = format!(
        "{}\n{}\n{}",
        include_str!("shaders/common.wgsl"),
        include_str!("shaders/scene.wgsl"),
        include_str!("shaders/track_scene.wgsl")
    );
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("track scene shader"),
        source: wgpu::ShaderSource::Wgsl(source.into()),
    });
    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("track scene pipeline layout"),
        bind_group_layouts: &[
            Some(ctx.main_layout),
            Some(ctx.model_layout),
            Some(texture_layout),
        ],
        immediate_size: 0,
    });
    let targets = [Some(wgpu::ColorTargetState {
        format: ctx.format,
        blend: None,
        write_mask: wgpu::ColorWrites::ALL,
    })];
    let make = |mode: Mode| {
        let constants = [
            ("FINE_DETAIL", f64::from(u8::from(ctx.fine_detail))),
            ("ALPHA_TEST", f64::from(u8::from(mode == Mode::AlphaTested))),
        ];
        device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some(match mode {
                Mode::Culled => "track scene pipeline",
                Mode::TwoSided => "track scene two-sided pipeline",
                Mode::AlphaTested => "track scene alpha-tested pipeline",
            }),
            layout: Some(&layout),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs_track_scene"),
                compilation_options: wgpu::PipelineCompilationOptions::default(),
                buffers: &[Some(SceneGpuVertex::layout())],
            },
            primitive: wgpu::PrimitiveState {
                cull_mode: (mode == Mode::Culled).then_some(wgpu::Face::Back),
                ..Default::default()
            },
            depth_stencil: Some(wgpu::DepthStencilState {
                format: DEPTH_FORMAT,
                depth_write_enabled: Some(true),
                depth_compare: Some(wgpu::CompareFunction::GreaterEqual),
                stencil: wgpu::StencilState::default(),
                bias: wgpu::DepthBiasState::default(),
            }),
            multisample: wgpu::MultisampleState {
                count: ctx.sample_count,
                mask: !0,
                alpha_to_coverage_enabled: false,
            },
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("fs_track_scene"),
                compilation_options: wgpu::PipelineCompilationOptions {
                    constants: &constants,
                    ..Default::default()
                },
                targets: &targets,
            }),
            multiview_mask: None,
            cache: None,
        })
    };
    [
        make(Mode::Culled),
        make(Mode::TwoSided),
        make(Mode::AlphaTested),
    ]
}

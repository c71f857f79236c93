//! egui's painter on a software adapter: egui's meshes and textures drawn with a shader
//! without branches (`shaders/software_ui.wgsl`).
//!
//! egui-wgpu's shader chooses, per draw, between hardware and manual texture filtering,
//! between wrap modes and whether to dither. A GPU skips the branches not taken; a software
//! rasteriser (Mesa's llvmpipe under lavapipe) runs both sides of every branch on every
//! pixel. Over the HUD's panels that made egui the most expensive pass of a frame after the
//! scene. This painter does the sums egui-wgpu does with hardware filtering and no
//! dithering, so the picture is the same; `tests/software_ui_painter.rs` compares the two.

use std::collections::HashMap;

use egui::epaint::{Primitive, TextureId, Vertex};
use egui::{TextureFilter, TextureOptions, TextureWrapMode};

use crate::texture_binding::texture_and_sampler_layout;

/// Bytes of one vertex: position (2 x f32, points), uv (2 x f32), colour (4 x u8).
const VERTEX_BYTES: u64 = 20;

/// A texture egui allocated, and its bind group.
struct UiTexture {
    texture: wgpu::Texture,
    options: TextureOptions,
    bind_group: wgpu::BindGroup,
}

/// One mesh's draw: its indices in this frame's index buffer, its first vertex, its
/// texture and its scissor rectangle in pixels (x, y, width, height).
struct Draw {
    indices: std::ops::Range<u32>,
    base_vertex: i32,
    texture: TextureId,
    scissor: [u32; 4],
}

/// The painter: its pipeline, egui's textures and this frame's buffers.
pub struct SoftwareUiPainter {
    pipeline: wgpu::RenderPipeline,
    screen_buffer: wgpu::Buffer,
    screen_bind_group: wgpu::BindGroup,
    texture_layout: wgpu::BindGroupLayout,
    samplers: HashMap<TextureOptions, wgpu::Sampler>,
    textures: HashMap<TextureId, UiTexture>,
    vertex_buffer: Option<wgpu::Buffer>,
    index_buffer: Option<wgpu::Buffer>,
    draws: Vec<Draw>,
    /// This frame's vertex and index bytes, kept between frames so painting allocates nothing
    /// once they have grown.
    vertex_bytes: Vec<u8>,
    index_bytes: Vec<u8>,
}

impl SoftwareUiPainter {
    /// A painter into targets of `format`: best a plain (non-sRGB) one, where blending
    /// happens in gamma space as egui expects; into an sRGB one the colours are written
    /// linear, as egui-wgpu does.
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat) -> Self {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("software egui shader"),
            source: wgpu::ShaderSource::Wgsl(include_str!("shaders/software_ui.wgsl").into()),
        });
        let screen_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("software egui screen layout"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::VERTEX,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            }],
        });
        let texture_layout = texture_and_sampler_layout(device, "software egui texture layout");
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("software egui pipeline layout"),
            bind_group_layouts: &[Some(&screen_layout), Some(&texture_layout)],
            immediate_size: 0,
        });
        let attributes = wgpu::vertex_attr_array![0 => Float32x2, 1 => Float32x2, 2 => Uint32];
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("software egui pipeline"),
            layout: Some(&layout),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs_ui"),
                compilation_options: wgpu::PipelineCompilationOptions::default(),
                buffers: &[Some(wgpu::VertexBufferLayout {
                    array_stride: VERTEX_BYTES,
                    step_mode: wgpu::VertexStepMode::Vertex,
                    attributes: &attributes,
                })],
            },
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil: None,
            multisample: wgpu::MultisampleState::default(),
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some(if format.is_srgb() {
                    "fs_ui_srgb_target"
                } else {
                    "fs_ui"
                }),
                compilation_options: wgpu::PipelineCompilationOptions::default(),
                // egui's premultiplied blending, as egui-wgpu sets it.
                targets: &[Some(wgpu::ColorTargetState {
                    format,
                    blend: Some(wgpu::BlendState {
                        color: wgpu::BlendComponent {
                            src_factor: wgpu::BlendFactor::One,
                            dst_factor: wgpu::BlendFactor::OneMinusSrcAlpha,
                            operation: wgpu::BlendOperation::Add,
                        },
                        alpha: wgpu::BlendComponent {
                            src_factor: wgpu::BlendFactor::OneMinusDstAlpha,
                            dst_factor: wgpu::BlendFactor::One,
                            operation: wgpu::BlendOperation::Add,
                        },
                    }),
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            multiview_mask: None,
            cache: None,
        });
        let screen_buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("software egui screen"),
            size: 16,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let screen_bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("software egui screen"),
            layout: &screen_layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: screen_buffer.as_entire_binding(),
            }],
        });
        Self {
            pipeline,
            screen_buffer,
            screen_bind_group,
            texture_layout,
            samplers: HashMap::new(),
            textures: HashMap::new(),
            vertex_buffer: None,
            index_buffer: None,
            draws: Vec::new(),
            vertex_bytes: Vec::new(),
            index_bytes: Vec::new(),
        }
    }

    /// Creates, replaces or patches texture `id` as egui's `delta` says. A patch of a texture
    /// that does not exist, or one that does not fit inside it, is ignored.
    pub fn update_texture(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        id: TextureId,
        delta: &egui::epaint::ImageDelta,
    ) {
        let egui::ImageData::Color(image) = &delta.image;
        let [width, height] = image.size.map(|n| u32::try_from(n).unwrap_or(u32::MAX));
        if width == 0 || height == 0 || image.pixels.len() != image.size[0] * image.size[1] {
            return;
        }
        let origin = if let Some([x, y]) = delta.pos {
            let Some(existing) = self.textures.get(&id) else {
                return;
            };
            let (x, y) = (
                u32::try_from(x).unwrap_or(u32::MAX),
                u32::try_from(y).unwrap_or(u32::MAX),
            );
            let size = existing.texture.size();
            if x.saturating_add(width) > size.width || y.saturating_add(height) > size.height {
                return;
            }
            wgpu::Origin3d { x, y, z: 0 }
        } else {
            let texture = device.create_texture(&wgpu::TextureDescriptor {
                label: Some("software egui texture"),
                size: wgpu::Extent3d {
                    width,
                    height,
                    depth_or_array_layers: 1,
                },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                // Premultiplied sRGB values stored as they are: sampled and blended in
                // gamma space, as egui-wgpu does.
                format: wgpu::TextureFormat::Rgba8Unorm,
                usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
                view_formats: &[],
            });
            let bind_group = texture_bind_group(
                &mut self.samplers,
                &self.texture_layout,
                device,
                &texture,
                delta.options,
            );
            if let Some(old) = self.textures.insert(
                id,
                UiTexture {
                    texture,
                    options: delta.options,
                    bind_group,
                },
            ) {
                old.texture.destroy();
            }
            wgpu::Origin3d::ZERO
        };
        let Some(target) = self.textures.get_mut(&id) else {
            return;
        };
        if target.options != delta.options {
            target.bind_group = texture_bind_group(
                &mut self.samplers,
                &self.texture_layout,
                device,
                &target.texture,
                delta.options,
            );
            target.options = delta.options;
        }
        let bytes: Vec<u8> = image
            .pixels
            .iter()
            .flat_map(egui::Color32::to_array)
            .collect();
        queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture: &target.texture,
                mip_level: 0,
                origin,
                aspect: wgpu::TextureAspect::All,
            },
            &bytes,
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(4 * width),
                rows_per_image: Some(height),
            },
            wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: 1,
            },
        );
    }

    /// Frees texture `id` (nothing happens for an unknown one).
    pub fn free_texture(&mut self, id: TextureId) {
        if let Some(old) = self.textures.remove(&id) {
            old.texture.destroy();
        }
    }

    /// Uploads this frame's meshes of `primitives` (egui points; `size_px` pixels at
    /// `pixels_per_point`) and the screen size; to call before [`SoftwareUiPainter::render`].
    /// Callbacks are not drawn: the application adds none.
    pub fn prepare(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        primitives: &[egui::ClippedPrimitive],
        size_px: [u32; 2],
        pixels_per_point: f32,
    ) {
        #[allow(clippy::cast_precision_loss)]
        let size_points = size_px.map(|n| n as f32 / pixels_per_point.max(1e-3));
        let screen = [size_points[0], size_points[1], 0.0f32, 0.0];
        queue.write_buffer(&self.screen_buffer, 0, bytemuck::bytes_of(&screen));
        self.draws.clear();
        let (vertices, indices) = (&mut self.vertex_bytes, &mut self.index_bytes);
        vertices.clear();
        indices.clear();
        let (mut vertex_count, mut index_count) = (0u32, 0u32);
        for clipped in primitives {
            let Primitive::Mesh(mesh) = &clipped.primitive else {
                continue;
            };
            let scissor = scissor_px(clipped.clip_rect, pixels_per_point, size_px);
            let Ok(mesh_indices) = u32::try_from(mesh.indices.len()) else {
                continue;
            };
            if scissor[2] == 0 || scissor[3] == 0 || mesh_indices == 0 {
                continue;
            }
            let Ok(base_vertex) = i32::try_from(vertex_count) else {
                break;
            };
            vertices.extend(mesh.vertices.iter().flat_map(vertex_bytes));
            indices.extend(mesh.indices.iter().flat_map(|i| i.to_le_bytes()));
            self.draws.push(Draw {
                indices: index_count..index_count.saturating_add(mesh_indices),
                base_vertex,
                texture: mesh.texture_id,
                scissor,
            });
            vertex_count =
                vertex_count.saturating_add(u32::try_from(mesh.vertices.len()).unwrap_or(0));
            index_count = index_count.saturating_add(mesh_indices);
        }
        // wgpu copies in multiples of 4 bytes: indices are, vertices (20 bytes) are too.
        upload(
            device,
            queue,
            &mut self.vertex_buffer,
            &self.vertex_bytes,
            wgpu::BufferUsages::VERTEX,
        );
        upload(
            device,
            queue,
            &mut self.index_buffer,
            &self.index_bytes,
            wgpu::BufferUsages::INDEX,
        );
    }

    /// Draws the prepared meshes into `pass` (its target `size_px` pixels).
    pub fn render(&self, pass: &mut wgpu::RenderPass<'_>, size_px: [u32; 2]) {
        let (Some(vertices), Some(indices)) = (&self.vertex_buffer, &self.index_buffer) else {
            return;
        };
        if self.draws.is_empty() {
            return;
        }
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &self.screen_bind_group, &[]);
        pass.set_vertex_buffer(0, vertices.slice(..));
        pass.set_index_buffer(indices.slice(..), wgpu::IndexFormat::Uint32);
        for draw in &self.draws {
            let Some(texture) = self.textures.get(&draw.texture) else {
                continue;
            };
            let [x, y, w, h] = draw.scissor;
            pass.set_scissor_rect(x, y, w, h);
            pass.set_bind_group(1, &texture.bind_group, &[]);
            pass.draw_indexed(draw.indices.clone(), draw.base_vertex, 0..1);
        }
        pass.set_scissor_rect(0, 0, size_px[0], size_px[1]);
    }
}

/// The bind group of `texture` with the sampler for `options` (made once per options).
fn texture_bind_group(
    samplers: &mut HashMap<TextureOptions, wgpu::Sampler>,
    layout: &wgpu::BindGroupLayout,
    device: &wgpu::Device,
    texture: &wgpu::Texture,
    options: TextureOptions,
) -> wgpu::BindGroup {
    let sampler = samplers
        .entry(options)
        .or_insert_with(|| sampler(device, options));
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("software egui texture"),
        layout,
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::TextureView(
                    &texture.create_view(&wgpu::TextureViewDescriptor::default()),
                ),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: wgpu::BindingResource::Sampler(sampler),
            },
        ],
    })
}

/// A vertex as the pipeline reads it.
fn vertex_bytes(v: &Vertex) -> impl Iterator<Item = u8> {
    [v.pos.x, v.pos.y, v.uv.x, v.uv.y]
        .into_iter()
        .flat_map(f32::to_le_bytes)
        .chain(v.color.to_array())
}

/// Writes `bytes` into `buffer`, growing it (to the next power of two) when too small.
fn upload(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    buffer: &mut Option<wgpu::Buffer>,
    bytes: &[u8],
    usage: wgpu::BufferUsages,
) {
    let needed = (bytes.len() as u64).max(4).next_power_of_two();
    if buffer.as_ref().is_none_or(|b| b.size() < needed) {
        *buffer = Some(device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("software egui meshes"),
            size: needed,
            usage: usage | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        }));
    }
    if let Some(buffer) = buffer.as_ref().filter(|_| !bytes.is_empty()) {
        queue.write_buffer(buffer, 0, bytes);
    }
}

/// The sampler egui asks for with `options` (no mipmaps: egui's textures have none here).
fn sampler(device: &wgpu::Device, options: TextureOptions) -> wgpu::Sampler {
    let filter = |f: TextureFilter| match f {
        TextureFilter::Nearest => wgpu::FilterMode::Nearest,
        TextureFilter::Linear => wgpu::FilterMode::Linear,
    };
    let address_mode = match options.wrap_mode {
        TextureWrapMode::ClampToEdge => wgpu::AddressMode::ClampToEdge,
        TextureWrapMode::Repeat => wgpu::AddressMode::Repeat,
        TextureWrapMode::MirroredRepeat => wgpu::AddressMode::MirrorRepeat,
    };
    device.create_sampler(&wgpu::SamplerDescriptor {
        label: Some("software egui sampler"),
        mag_filter: filter(options.magnification),
        min_filter: filter(options.minification),
        address_mode_u: address_mode,
        address_mode_v: address_mode,
        ..Default::default()
    })
}

/// egui's clip rectangle (points) as a scissor rectangle `[x, y, width, height]` in pixels,
/// rounded and clamped to the target as egui-wgpu does.
fn scissor_px(clip: egui::Rect, pixels_per_point: f32, size_px: [u32; 2]) -> [u32; 4] {
    // `as` saturates: negative and NaN give 0, beyond the range u32::MAX.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let px = |v: f32| (v * pixels_per_point).round() as u32;
    let x0 = px(clip.min.x).min(size_px[0]);
    let y0 = px(clip.min.y).min(size_px[1]);
    let x1 = px(clip.max.x).clamp(x0, size_px[0]);
    let y1 = px(clip.max.y).clamp(y0, size_px[1]);
    [x0, y0, x1 - x0, y1 - y0]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scissors_are_rounded_to_pixels_and_kept_inside_the_target() {
        let rect =
            |x0, y0, x1, y1| egui::Rect::from_min_max(egui::pos2(x0, y0), egui::pos2(x1, y1));
        assert_eq!(
            scissor_px(rect(10.2, 20.6, 100.4, 50.5), 1.0, [1280, 720]),
            [10, 21, 90, 30]
        );
        assert_eq!(
            scissor_px(rect(10.0, 20.0, 100.0, 50.0), 2.0, [1280, 720]),
            [20, 40, 180, 60]
        );
        assert_eq!(
            scissor_px(rect(-50.0, -5.0, 2000.0, 900.0), 1.0, [1280, 720]),
            [0, 0, 1280, 720]
        );
        assert_eq!(
            scissor_px(rect(1500.0, 10.0, 1600.0, 20.0), 1.0, [1280, 720]),
            [1280, 10, 0, 10],
            "outside the target: empty"
        );
        assert_eq!(
            scissor_px(rect(f32::NAN, 0.0, f32::INFINITY, 10.0), 1.0, [1280, 720]),
            [0, 0, 1280, 10],
            "NaN and infinite corners never panic"
        );
    }

    #[test]
    fn vertices_are_laid_out_as_the_pipeline_reads_them() {
        let v = Vertex {
            pos: egui::pos2(1.5, -2.0),
            uv: egui::pos2(0.25, 1.0),
            color: egui::Color32::from_rgba_premultiplied(1, 2, 3, 4),
        };
        let bytes: Vec<u8> = vertex_bytes(&v).collect();
        assert_eq!(bytes.len() as u64, VERTEX_BYTES);
        assert_eq!(&bytes[0..4], &1.5f32.to_le_bytes());
        assert_eq!(&bytes[4..8], &(-2.0f32).to_le_bytes());
        assert_eq!(&bytes[8..12], &0.25f32.to_le_bytes());
        assert_eq!(&bytes[12..16], &1.0f32.to_le_bytes());
        assert_eq!(&bytes[16..20], &[1, 2, 3, 4]);
    }
}

//! Rendering at a lower internal resolution: the scene is drawn into a smaller colour texture,
//! then stretched over the caller's target with bilinear filtering. It is the quality tiers'
//! main lever on a software adapter, where the cost is per pixel shaded.

use crate::texture_binding::texture_and_sampler_layout;

/// Smallest and largest internal resolution scale (fraction of the target's width/height).
pub const RENDER_SCALE_RANGE: (f32, f32) = (0.25, 1.0);

/// The internal size for a `width` x `height` target at `scale` (each side at least 1).
pub fn scaled_size(width: u32, height: u32, scale: f32) -> (u32, u32) {
    let scale = if scale.is_finite() {
        scale.clamp(RENDER_SCALE_RANGE.0, RENDER_SCALE_RANGE.1)
    } else {
        1.0
    };
    let side = |n: u32| {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let scaled = (f64::from(n) * f64::from(scale)).round() as u32;
        scaled.clamp(1, n.max(1))
    };
    (side(width), side(height))
}

/// The low-resolution colour target and the pass that stretches it over the real one.
pub(crate) struct Upscaler {
    pipeline: wgpu::RenderPipeline,
    layout: wgpu::BindGroupLayout,
    sampler: wgpu::Sampler,
    format: wgpu::TextureFormat,
    /// `(width, height, view, bind group)` of the current low-resolution texture.
    current: Option<(u32, u32, wgpu::TextureView, wgpu::BindGroup)>,
}

impl Upscaler {
    /// An upscaler writing into targets of `format`.
    pub(crate) fn new(device: &wgpu::Device, format: wgpu::TextureFormat) -> Self {
        let layout = texture_and_sampler_layout(device, "upscale layout");
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("upscale shader"),
            source: wgpu::ShaderSource::Wgsl(include_str!("shaders/upscale.wgsl").into()),
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("upscale pipeline layout"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("upscale pipeline"),
            layout: Some(&pipeline_layout),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs_upscale"),
                compilation_options: wgpu::PipelineCompilationOptions::default(),
                buffers: &[],
            },
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil: None,
            multisample: wgpu::MultisampleState::default(),
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("fs_upscale"),
                compilation_options: wgpu::PipelineCompilationOptions::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format,
                    blend: None,
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            multiview_mask: None,
            cache: None,
        });
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("upscale sampler"),
            address_mode_u: wgpu::AddressMode::ClampToEdge,
            address_mode_v: wgpu::AddressMode::ClampToEdge,
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            ..Default::default()
        });
        Self {
            pipeline,
            layout,
            sampler,
            format,
            current: None,
        }
    }

    /// The low-resolution colour target, once [`Upscaler::prepare`] made it.
    pub(crate) fn target(&self) -> Option<&wgpu::TextureView> {
        self.current.as_ref().map(|(_, _, view, _)| view)
    }

    /// Makes the low-resolution colour target of `width` x `height` on first use or when the
    /// size changes.
    pub(crate) fn prepare(&mut self, device: &wgpu::Device, width: u32, height: u32) {
        let stale = self
            .current
            .as_ref()
            .is_none_or(|(w, h, _, _)| (*w, *h) != (width, height));
        if stale {
            self.current = None;
        }
        let (layout, sampler, format) = (&self.layout, &self.sampler, self.format);
        self.current.get_or_insert_with(|| {
            let view = device
                .create_texture(&wgpu::TextureDescriptor {
                    label: Some("scene low-resolution colour"),
                    size: wgpu::Extent3d {
                        width,
                        height,
                        depth_or_array_layers: 1,
                    },
                    mip_level_count: 1,
                    sample_count: 1,
                    dimension: wgpu::TextureDimension::D2,
                    format,
                    usage: wgpu::TextureUsages::RENDER_ATTACHMENT
                        | wgpu::TextureUsages::TEXTURE_BINDING,
                    view_formats: &[],
                })
                .create_view(&wgpu::TextureViewDescriptor::default());
            let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("upscale bind group"),
                layout,
                entries: &[
                    wgpu::BindGroupEntry {
                        binding: 0,
                        resource: wgpu::BindingResource::TextureView(&view),
                    },
                    wgpu::BindGroupEntry {
                        binding: 1,
                        resource: wgpu::BindingResource::Sampler(sampler),
                    },
                ],
            });
            (width, height, view, bind_group)
        });
    }

    /// Records the pass that stretches the low-resolution target over `target`.
    pub(crate) fn draw(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        timestamps: Option<(&wgpu::QuerySet, u32)>,
    ) {
        let Some((_, _, _, bind_group)) = &self.current else {
            return;
        };
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("upscale pass"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: target,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                    store: wgpu::StoreOp::Store,
                },
            })],
            depth_stencil_attachment: None,
            timestamp_writes: timestamps.map(|(query_set, index)| {
                wgpu::RenderPassTimestampWrites {
                    query_set,
                    beginning_of_pass_write_index: None,
                    end_of_pass_write_index: Some(index),
                }
            }),
            occlusion_query_set: None,
            multiview_mask: None,
        });
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, bind_group, &[]);
        pass.draw(0..3, 0..1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scaled_sizes_are_rounded_clamped_and_never_zero() {
        assert_eq!(scaled_size(1280, 720, 0.5), (640, 360));
        assert_eq!(scaled_size(1280, 720, 1.0), (1280, 720));
        assert_eq!(scaled_size(1280, 720, 2.0), (1280, 720));
        assert_eq!(scaled_size(1280, 720, 0.0), (320, 180));
        assert_eq!(scaled_size(1280, 720, f32::NAN), (1280, 720));
        assert_eq!(scaled_size(1, 1, 0.25), (1, 1));
        assert_eq!(scaled_size(0, 0, 0.5), (1, 1));
    }
}

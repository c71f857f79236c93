//! Painting an egui UI over a drawn frame (egui-wgpu): the HUD and menus lie on top of the
//! scene, in a render pass that loads what is there. The application runs egui itself (its
//! context and window input); this module only paints what it tessellated.

use egui_wgpu::ScreenDescriptor;

/// One UI pass, tessellated and ready to paint.
pub struct PreparedUi {
    /// The shapes, tessellated.
    pub primitives: Vec<egui::ClippedPrimitive>,
    /// Textures to upload or free.
    pub textures: egui::TexturesDelta,
    /// Physical pixels per egui point.
    pub pixels_per_point: f32,
}

/// egui's wgpu renderer.
pub struct UiPainter {
    renderer: egui_wgpu::Renderer,
}

impl UiPainter {
    /// A painter into targets of `format`.
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat) -> Self {
        let renderer = egui_wgpu::Renderer::new(
            device,
            format,
            egui_wgpu::RendererOptions {
                msaa_samples: 1,
                depth_stencil_format: None,
                dithering: true,
                ..Default::default()
            },
        );
        Self { renderer }
    }

    /// Paints a prepared UI over each of `targets` (their contents are kept), all of
    /// `size_px`; returns the command buffers of egui's paint callbacks, to submit before
    /// `encoder`.
    pub fn paint(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        encoder: &mut wgpu::CommandEncoder,
        targets: &[&wgpu::TextureView],
        size_px: [u32; 2],
        ui: PreparedUi,
    ) -> Vec<wgpu::CommandBuffer> {
        let screen = ScreenDescriptor {
            size_in_pixels: size_px,
            pixels_per_point: ui.pixels_per_point,
        };
        for (id, deltas) in &ui.textures.set {
            for delta in deltas {
                self.renderer.update_texture(device, queue, *id, delta);
            }
        }
        let user_buffers =
            self.renderer
                .update_buffers(device, queue, encoder, &ui.primitives, &screen);
        for target in targets {
            let pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("egui"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: target,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Load,
                        store: wgpu::StoreOp::Store,
                    },
                })],
                depth_stencil_attachment: None,
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            let mut pass = pass.forget_lifetime();
            self.renderer.render(&mut pass, &ui.primitives, &screen);
        }
        for id in &ui.textures.free {
            self.renderer.free_texture(id);
        }
        // Applied above: tell epaint so it does not complain when the delta is dropped.
        let mut textures = ui.textures;
        textures.clear();
        user_buffers
    }
}

//! Painting an egui UI over a drawn frame: the HUD and menus lie on top of the scene, in a
//! render pass that loads what is there. The application runs egui itself (its context and
//! window input); this module only paints what it tessellated, with egui-wgpu on a GPU and
//! with [`crate::software_ui_painter`] on a software adapter, where egui-wgpu's shader is
//! slow (see there).

use egui_wgpu::ScreenDescriptor;

use crate::gpu::GpuContext;
use crate::software_ui_painter::SoftwareUiPainter;

/// One UI pass, tessellated and ready to paint.
pub struct PreparedUi {
    /// The shapes, tessellated.
    pub primitives: Vec<egui::ClippedPrimitive>,
    /// Textures to upload or free.
    pub textures: egui::TexturesDelta,
    /// Physical pixels per egui point.
    pub pixels_per_point: f32,
}

/// Which painter draws egui's meshes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UiPaintPath {
    /// egui-wgpu's renderer (GPUs).
    EguiWgpu,
    /// [`SoftwareUiPainter`]: the same sums without branches (software rasterisers).
    Software,
}

impl UiPaintPath {
    /// The painter for `gpu`'s adapter.
    pub fn for_gpu(gpu: &GpuContext) -> Self {
        if gpu.is_software() {
            UiPaintPath::Software
        } else {
            UiPaintPath::EguiWgpu
        }
    }
}

enum Painter {
    EguiWgpu(Box<egui_wgpu::Renderer>),
    Software(Box<SoftwareUiPainter>),
}

/// egui's painter.
pub struct UiPainter {
    painter: Painter,
}

impl UiPainter {
    /// The painter `path` into targets of `format` (a plain, non-sRGB format: egui blends
    /// in gamma space).
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat, path: UiPaintPath) -> Self {
        let painter = match path {
            UiPaintPath::EguiWgpu => Painter::EguiWgpu(Box::new(egui_wgpu::Renderer::new(
                device,
                format,
                egui_wgpu::RendererOptions {
                    msaa_samples: 1,
                    depth_stencil_format: None,
                    dithering: true,
                    ..Default::default()
                },
            ))),
            UiPaintPath::Software => {
                Painter::Software(Box::new(SoftwareUiPainter::new(device, format)))
            }
        };
        Self { painter }
    }

    /// Which painter this is.
    pub fn path(&self) -> UiPaintPath {
        match self.painter {
            Painter::EguiWgpu(_) => UiPaintPath::EguiWgpu,
            Painter::Software(_) => UiPaintPath::Software,
        }
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
                match &mut self.painter {
                    Painter::EguiWgpu(r) => r.update_texture(device, queue, *id, delta),
                    Painter::Software(r) => r.update_texture(device, queue, *id, delta),
                }
            }
        }
        let user_buffers = match &mut self.painter {
            Painter::EguiWgpu(r) => {
                r.update_buffers(device, queue, encoder, &ui.primitives, &screen)
            }
            Painter::Software(r) => {
                r.prepare(device, queue, &ui.primitives, size_px, ui.pixels_per_point);
                Vec::new()
            }
        };
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
            match &self.painter {
                Painter::EguiWgpu(r) => r.render(&mut pass, &ui.primitives, &screen),
                Painter::Software(r) => r.render(&mut pass, size_px),
            }
        }
        for id in &ui.textures.free {
            match &mut self.painter {
                Painter::EguiWgpu(r) => r.free_texture(id),
                Painter::Software(r) => r.free_texture(*id),
            }
        }
        // Applied above: tell epaint so it does not complain when the delta is dropped.
        let mut textures = ui.textures;
        textures.clear();
        user_buffers
    }
}

//! The egui layer of the window: input from winit, the UI pass, and painting over the scene.
//!
//! The scene is drawn first into the frame's texture; egui then paints in a second render
//! pass that loads what is there (`LoadOp::Load`), so the HUD and the menus lie on top.

use egui_wgpu::ScreenDescriptor;
use winit::window::Window;

#[allow(clippy::cast_possible_truncation)]
fn scale_factor(window: &Window) -> f32 {
    window.scale_factor() as f32
}

/// egui's context, its winit glue and its wgpu renderer.
pub struct EguiLayer {
    ctx: egui::Context,
    state: egui_winit::State,
    renderer: egui_wgpu::Renderer,
}

/// One UI pass, tessellated and ready to paint.
pub struct PreparedUi {
    primitives: Vec<egui::ClippedPrimitive>,
    textures: egui::TexturesDelta,
    pixels_per_point: f32,
}

impl EguiLayer {
    /// A layer for `window`, painting into textures of `format`.
    pub fn new(window: &Window, device: &wgpu::Device, format: wgpu::TextureFormat) -> Self {
        let ctx = egui::Context::default();
        ctx.set_visuals(egui::Visuals::dark());
        let state = egui_winit::State::new(
            ctx.clone(),
            egui::ViewportId::ROOT,
            window,
            Some(scale_factor(window)),
            None,
            Some(device.limits().max_texture_dimension_2d as usize),
        );
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
        Self {
            ctx,
            state,
            renderer,
        }
    }

    /// Passes a window event to egui; `true` when egui used it (a click on a menu button,
    /// typing in a field), so the simulator should not also act on it.
    pub fn on_window_event(&mut self, window: &Window, event: &winit::event::WindowEvent) -> bool {
        self.state.on_window_event(window, event).consumed
    }

    /// Whether egui currently wants the keyboard (a focused text field).
    pub fn wants_keyboard(&self) -> bool {
        self.ctx.egui_wants_keyboard_input()
    }

    /// Runs one UI pass with `build` and tessellates it.
    pub fn run(&mut self, window: &Window, build: impl FnMut(&egui::Context)) -> PreparedUi {
        let raw = self.state.take_egui_input(window);
        let output = self.ctx.run_pass(raw, build);
        self.state
            .handle_platform_output(window, output.platform_output);
        let pixels_per_point = output.pixels_per_point;
        let primitives = self.ctx.tessellate(output.shapes, pixels_per_point);
        PreparedUi {
            primitives,
            textures: output.textures_delta,
            pixels_per_point,
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

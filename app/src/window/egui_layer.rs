//! The egui layer of the window: input from winit and the UI pass; the painting over the
//! scene is the renderer's ([`UiPainter`]).

use gripline_render::GpuContext;
use gripline_render::ui_painter::{PreparedUi, UiPaintPath, UiPainter};
use winit::window::Window;

#[allow(clippy::cast_possible_truncation)]
fn scale_factor(window: &Window) -> f32 {
    window.scale_factor() as f32
}

/// egui's context, its winit glue and the renderer's painter.
pub struct EguiLayer {
    ctx: egui::Context,
    state: egui_winit::State,
    /// Paints the prepared UI over the frame.
    pub painter: UiPainter,
}

impl EguiLayer {
    /// A layer for `window`, painting into textures of `format` with the painter for
    /// `gpu`'s adapter.
    pub fn new(window: &Window, gpu: &GpuContext, format: wgpu::TextureFormat) -> Self {
        let device = &gpu.device;
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
        Self {
            ctx,
            state,
            painter: UiPainter::new(device, format, UiPaintPath::for_gpu(gpu)),
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
}

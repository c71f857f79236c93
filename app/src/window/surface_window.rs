//! The winit window as the renderer's [`SurfaceWindow`], and the settings' present mode as
//! the renderer's [`PresentChoice`].

use std::sync::Arc;

use gripline_config::PresentMode;
use gripline_render::window_surface::{PresentChoice, SurfaceWindow};
use winit::window::Window;

/// A winit window, for the renderer's window surface.
pub struct WinitWindow(pub Arc<Window>);

impl SurfaceWindow for WinitWindow {
    fn size_px(&self) -> [u32; 2] {
        let size = self.0.inner_size();
        [size.width, size.height]
    }

    fn create_surface(
        &self,
        instance: &wgpu::Instance,
    ) -> Result<wgpu::Surface<'static>, wgpu::CreateSurfaceError> {
        instance.create_surface(self.0.clone())
    }
}

/// The renderer's present choice for the settings' present mode.
pub fn present_choice(mode: PresentMode) -> PresentChoice {
    match mode {
        PresentMode::Vsync => PresentChoice::Vsync,
        PresentMode::NoVsync => PresentChoice::NoVsync,
        PresentMode::Mailbox => PresentChoice::Mailbox,
    }
}

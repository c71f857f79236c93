//! A window's wgpu surface: configuration, resizing and every outcome of acquiring a frame.
//! The window itself stays with the caller, behind [`SurfaceWindow`] (no windowing library
//! here).
//!
//! - A zero-sized window (minimised) is never configured; frames are skipped until it has a
//!   size again.
//! - `Suboptimal` frames are drawn and presented, then the surface is reconfigured.
//! - `Timeout` and `Occluded` skip the frame; `Outdated` reconfigures and tries once more;
//!   `Lost` recreates the surface from the window; `Validation` skips the frame and is
//!   counted. None of them panics.

use crate::error::RenderError;

/// What the surface needs of the window it presents to.
pub trait SurfaceWindow {
    /// The window's inner size (pixels; zero while minimised).
    fn size_px(&self) -> [u32; 2];

    /// A new surface for the window, after the old one was lost.
    ///
    /// # Errors
    /// wgpu's, when the surface cannot be made.
    fn create_surface(
        &self,
        instance: &wgpu::Instance,
    ) -> Result<wgpu::Surface<'static>, wgpu::CreateSurfaceError>;
}

/// How frames reach the display.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PresentChoice {
    /// Wait for vertical blank: no tearing, supported everywhere.
    #[default]
    Vsync,
    /// Present at once: lowest latency, may tear.
    NoVsync,
    /// Newest frame at vertical blank; vsync where unsupported.
    Mailbox,
}

/// The surface and the device that draws into it.
pub struct WindowSurface {
    window: Box<dyn SurfaceWindow>,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    /// Whether `config` is applied to the surface (false while minimised).
    configured: bool,
    /// Format the scene renders into: the surface format with the sRGB suffix.
    view_format: wgpu::TextureFormat,
    /// Frames skipped because the surface could not give a texture, by reason.
    pub skipped: SkipCounts,
    /// Present modes the surface supports.
    supported_present_modes: Vec<wgpu::PresentMode>,
}

/// Frames skipped, by reason.
#[derive(Clone, Copy, Debug, Default)]
pub struct SkipCounts {
    /// The acquire timed out.
    pub timeout: u64,
    /// The window was occluded.
    pub occluded: u64,
    /// The surface was outdated twice in a row.
    pub outdated: u64,
    /// The surface was lost and recreated.
    pub lost: u64,
    /// A validation error.
    pub validation: u64,
    /// The window had no area.
    pub zero_size: u64,
}

/// One acquired frame.
pub struct Frame {
    /// The texture to present.
    pub texture: wgpu::SurfaceTexture,
    /// A view in the sRGB format (for the scene).
    pub scene_view: wgpu::TextureView,
    /// A view in the surface's own format (for egui, which blends in gamma space).
    pub ui_view: wgpu::TextureView,
    /// The surface should be reconfigured after presenting.
    pub suboptimal: bool,
}

impl WindowSurface {
    /// Configures `surface`, made for `window`, on `adapter`'s `device`.
    ///
    /// # Errors
    /// [`RenderError::Invalid`] when the adapter cannot present to the window.
    pub fn new(
        surface: wgpu::Surface<'static>,
        window: Box<dyn SurfaceWindow>,
        adapter: &wgpu::Adapter,
        device: &wgpu::Device,
        present: PresentChoice,
        frame_latency: u32,
    ) -> Result<Self, RenderError> {
        let caps = surface.get_capabilities(adapter);
        if caps.formats.is_empty() {
            return Err(RenderError::Invalid(
                "the graphics adapter cannot present to this window".to_owned(),
            ));
        }
        // egui blends in gamma space: give the surface a plain format and view it as sRGB
        // for the scene, whose shaders output linear colour.
        let format = caps
            .formats
            .iter()
            .copied()
            .find(|f| !f.is_srgb() && f.add_srgb_suffix() != *f)
            .unwrap_or(caps.formats[0]);
        let view_format = format.add_srgb_suffix();
        let usage = wgpu::TextureUsages::RENDER_ATTACHMENT;
        let [width, height] = window.size_px();
        let config = wgpu::SurfaceConfiguration {
            usage,
            format,
            color_space: wgpu::SurfaceColorSpace::Auto,
            width: width.max(1),
            height: height.max(1),
            present_mode: present_mode(present, &caps.present_modes),
            desired_maximum_frame_latency: frame_latency.clamp(1, 3),
            alpha_mode: caps.alpha_modes[0],
            view_formats: if view_format == format {
                vec![]
            } else {
                vec![view_format]
            },
        };
        let mut this = Self {
            window,
            surface,
            config,
            configured: false,
            view_format,
            skipped: SkipCounts::default(),
            supported_present_modes: caps.present_modes.clone(),
        };
        this.resize(device, width, height);
        Ok(this)
    }

    /// The format the scene renders into.
    pub fn scene_format(&self) -> wgpu::TextureFormat {
        self.view_format
    }

    /// The surface's own format (egui paints in it).
    pub fn ui_format(&self) -> wgpu::TextureFormat {
        self.config.format
    }

    /// Current size in pixels (at least 1 × 1).
    pub fn size(&self) -> [u32; 2] {
        [self.config.width, self.config.height]
    }

    /// The present mode in use.
    pub fn present_mode(&self) -> wgpu::PresentMode {
        self.config.present_mode
    }

    /// Changes the present mode and frames in flight (takes effect at once).
    pub fn set_presentation(
        &mut self,
        device: &wgpu::Device,
        present: PresentChoice,
        frame_latency: u32,
    ) {
        self.config.present_mode = present_mode(present, &self.supported_present_modes);
        self.config.desired_maximum_frame_latency = frame_latency.clamp(1, 3);
        if self.configured {
            self.surface.configure(device, &self.config);
        }
    }

    /// Applies a new window size; a zero size leaves the surface unconfigured until the
    /// window has an area again.
    pub fn resize(&mut self, device: &wgpu::Device, width: u32, height: u32) {
        if width == 0 || height == 0 {
            self.configured = false;
            return;
        }
        self.config.width = width;
        self.config.height = height;
        self.surface.configure(device, &self.config);
        self.configured = true;
    }

    /// Acquires the next frame, or `None` when this frame must be skipped (the reason is
    /// counted in [`WindowSurface::skipped`]).
    pub fn acquire(&mut self, instance: &wgpu::Instance, device: &wgpu::Device) -> Option<Frame> {
        if !self.configured {
            self.skipped.zero_size += 1;
            return None;
        }
        for attempt in 0..2 {
            match self.surface.get_current_texture() {
                wgpu::CurrentSurfaceTexture::Success(texture) => {
                    return Some(self.frame(texture, false));
                }
                wgpu::CurrentSurfaceTexture::Suboptimal(texture) => {
                    return Some(self.frame(texture, true));
                }
                wgpu::CurrentSurfaceTexture::Timeout => {
                    self.skipped.timeout += 1;
                    return None;
                }
                wgpu::CurrentSurfaceTexture::Occluded => {
                    self.skipped.occluded += 1;
                    return None;
                }
                wgpu::CurrentSurfaceTexture::Outdated => {
                    if attempt == 1 {
                        self.skipped.outdated += 1;
                        return None;
                    }
                    let [width, height] = self.window.size_px();
                    self.resize(device, width, height);
                    if !self.configured {
                        self.skipped.zero_size += 1;
                        return None;
                    }
                }
                wgpu::CurrentSurfaceTexture::Lost => {
                    self.skipped.lost += 1;
                    match self.window.create_surface(instance) {
                        Ok(surface) => {
                            self.surface = surface;
                            let [width, height] = self.window.size_px();
                            self.resize(device, width, height);
                        }
                        Err(error) => {
                            eprintln!("gripline: cannot recreate the lost surface: {error}");
                            self.configured = false;
                        }
                    }
                    return None;
                }
                wgpu::CurrentSurfaceTexture::Validation => {
                    self.skipped.validation += 1;
                    return None;
                }
            }
        }
        None
    }

    /// Reconfigures the surface after a suboptimal frame was presented.
    pub fn refresh(&mut self, device: &wgpu::Device) {
        let [width, height] = self.window.size_px();
        self.resize(device, width, height);
    }

    fn frame(&self, texture: wgpu::SurfaceTexture, suboptimal: bool) -> Frame {
        let scene_view = texture.texture.create_view(&wgpu::TextureViewDescriptor {
            format: Some(self.view_format),
            ..Default::default()
        });
        let ui_view = texture
            .texture
            .create_view(&wgpu::TextureViewDescriptor::default());
        Frame {
            texture,
            scene_view,
            ui_view,
            suboptimal,
        }
    }
}

/// The wgpu present mode for a choice, given what the surface supports.
pub fn present_mode(choice: PresentChoice, supported: &[wgpu::PresentMode]) -> wgpu::PresentMode {
    match choice {
        PresentChoice::Vsync => wgpu::PresentMode::AutoVsync,
        PresentChoice::NoVsync => wgpu::PresentMode::AutoNoVsync,
        PresentChoice::Mailbox => {
            if supported.contains(&wgpu::PresentMode::Mailbox) {
                wgpu::PresentMode::Mailbox
            } else {
                wgpu::PresentMode::AutoVsync
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mailbox_falls_back_to_vsync_when_unsupported() {
        let fifo_only = [wgpu::PresentMode::Fifo];
        assert_eq!(
            present_mode(PresentChoice::Mailbox, &fifo_only),
            wgpu::PresentMode::AutoVsync
        );
        let with_mailbox = [wgpu::PresentMode::Fifo, wgpu::PresentMode::Mailbox];
        assert_eq!(
            present_mode(PresentChoice::Mailbox, &with_mailbox),
            wgpu::PresentMode::Mailbox
        );
        assert_eq!(
            present_mode(PresentChoice::NoVsync, &fifo_only),
            wgpu::PresentMode::AutoNoVsync
        );
    }
}

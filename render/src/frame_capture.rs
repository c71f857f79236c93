//! Capturing what the window shows (scene and HUD): the frame drawn once more into a private
//! texture, copied to the CPU through [`crate::readback`].
//!
//! A private texture rather than the swap-chain image, because not every surface allows
//! copying out of its images, and the picture must not depend on that.

use crate::error::RenderError;
use crate::readback::{read_image, readback_buffer, record_copy};
use crate::rgba_image::RgbaImage;

/// A texture to draw a screenshot frame into, with views like the surface's.
pub struct FrameCapture {
    texture: wgpu::Texture,
    /// View in the scene's (sRGB) format.
    pub scene_view: wgpu::TextureView,
    /// View in the UI's format.
    pub ui_view: wgpu::TextureView,
    width: u32,
    height: u32,
    format: wgpu::TextureFormat,
}

impl FrameCapture {
    /// A `width` × `height` target whose texture has `ui_format` and is also viewable as
    /// `scene_format`.
    pub fn new(
        device: &wgpu::Device,
        width: u32,
        height: u32,
        ui_format: wgpu::TextureFormat,
        scene_format: wgpu::TextureFormat,
    ) -> Self {
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("screenshot"),
            size: wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: ui_format,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[scene_format],
        });
        let scene_view = texture.create_view(&wgpu::TextureViewDescriptor {
            format: Some(scene_format),
            ..Default::default()
        });
        let ui_view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        Self {
            texture,
            scene_view,
            ui_view,
            width,
            height,
            format: ui_format,
        }
    }

    /// Records the copy of the drawn frame into a new read-back buffer; submit `encoder`,
    /// then call [`PendingCapture::finish`].
    pub fn copy_out(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
    ) -> PendingCapture {
        let buffer = readback_buffer(device, self.width, self.height);
        record_copy(encoder, &self.texture, &buffer, self.width, self.height);
        PendingCapture {
            buffer,
            width: self.width,
            height: self.height,
            bgra: matches!(
                self.format,
                wgpu::TextureFormat::Bgra8Unorm | wgpu::TextureFormat::Bgra8UnormSrgb
            ),
        }
    }
}

/// A copy recorded but not read yet.
pub struct PendingCapture {
    buffer: wgpu::Buffer,
    width: u32,
    height: u32,
    bgra: bool,
}

impl PendingCapture {
    /// Waits for the GPU and reads the pixels (opaque: the swap chain's alpha means nothing
    /// in a picture on disk).
    ///
    /// # Errors
    /// [`RenderError::Readback`] when the GPU does not finish in time or the buffer cannot
    /// be mapped.
    pub fn finish(self, device: &wgpu::Device) -> Result<RgbaImage, RenderError> {
        let mut image = read_image(
            device,
            &self.buffer,
            None,
            self.width,
            self.height,
            self.bgra,
        )?;
        for px in image.data.chunks_exact_mut(4) {
            px[3] = 255;
        }
        Ok(image)
    }
}

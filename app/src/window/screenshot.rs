//! Screenshots of the window: the last frame (scene and HUD) drawn once more into a private
//! texture, copied to the CPU and written as PNG.
//!
//! A private texture rather than the swap-chain image, because not every surface allows
//! copying out of its images, and the picture must not depend on that.

use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

use anyhow::{Context as _, Result, anyhow};
use gripline_render::RgbaImage;
use gripline_render::offscreen::padded_bytes_per_row;

/// A texture to draw a screenshot frame into, with views like the surface's.
pub struct ScreenshotTarget {
    texture: wgpu::Texture,
    /// View in the scene's (sRGB) format.
    pub scene_view: wgpu::TextureView,
    /// View in the UI's format.
    pub ui_view: wgpu::TextureView,
    width: u32,
    height: u32,
    format: wgpu::TextureFormat,
}

impl ScreenshotTarget {
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
    /// then call [`PendingShot::finish`].
    pub fn copy_out(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
    ) -> PendingShot {
        let bytes_per_row = padded_bytes_per_row(self.width);
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("screenshot read-back"),
            size: u64::from(bytes_per_row) * u64::from(self.height),
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        encoder.copy_texture_to_buffer(
            wgpu::TexelCopyTextureInfo {
                texture: &self.texture,
                mip_level: 0,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            wgpu::TexelCopyBufferInfo {
                buffer: &buffer,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(bytes_per_row),
                    rows_per_image: Some(self.height),
                },
            },
            wgpu::Extent3d {
                width: self.width,
                height: self.height,
                depth_or_array_layers: 1,
            },
        );
        PendingShot {
            buffer,
            bytes_per_row,
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
pub struct PendingShot {
    buffer: wgpu::Buffer,
    bytes_per_row: u32,
    width: u32,
    height: u32,
    bgra: bool,
}

impl PendingShot {
    /// Waits for the GPU, reads the pixels and writes the PNG to `path`.
    ///
    /// # Errors
    /// When the GPU does not finish in time, the buffer cannot be mapped or the file cannot
    /// be written.
    pub fn finish(self, device: &wgpu::Device, path: &Path) -> Result<RgbaImage> {
        let slice = self.buffer.slice(..);
        let (sender, receiver) = mpsc::channel();
        slice.map_async(wgpu::MapMode::Read, move |result| {
            let _ = sender.send(result);
        });
        device
            .poll(wgpu::PollType::Wait {
                submission_index: None,
                timeout: Some(Duration::from_secs(30)),
            })
            .map_err(|e| anyhow!("waiting for the screenshot: {e}"))?;
        receiver
            .recv_timeout(Duration::from_secs(30))
            .map_err(|e| anyhow!("waiting for the screenshot: {e}"))?
            .map_err(|e| anyhow!("reading the screenshot back: {e}"))?;
        let row = 4 * self.width as usize;
        let mut data = Vec::with_capacity(row * self.height as usize);
        {
            let mapped = slice
                .get_mapped_range()
                .map_err(|e| anyhow!("reading the screenshot back: {e}"))?;
            for chunk in mapped
                .chunks(self.bytes_per_row as usize)
                .take(self.height as usize)
            {
                data.extend_from_slice(&chunk[..row]);
            }
        }
        self.buffer.unmap();
        if self.bgra {
            for px in data.chunks_exact_mut(4) {
                px.swap(0, 2);
            }
        }
        // The swap chain's alpha is not meaningful for a picture on disk.
        for px in data.chunks_exact_mut(4) {
            px[3] = 255;
        }
        let image = RgbaImage {
            width: self.width,
            height: self.height,
            data,
        };
        image
            .write_png(path)
            .with_context(|| format!("writing the screenshot {}", path.display()))?;
        Ok(image)
    }
}

//! Reading an RGBA8/BGRA8 texture back to the CPU: the copy into a mappable buffer (rows
//! padded to wgpu's alignment) and the wait, map and unpadding. Shared by the offscreen
//! renderer and the window's screenshots.

use std::sync::mpsc;
use std::time::Duration;

use crate::error::RenderError;
use crate::rgba_image::RgbaImage;

/// How long a read-back may wait for the GPU (a software adapter on a busy machine is slow).
pub const READBACK_TIMEOUT: Duration = Duration::from_mins(1);

/// Bytes per row of a read-back buffer for `width` RGBA8 pixels, rounded up to wgpu's
/// 256-byte copy alignment.
pub fn padded_bytes_per_row(width: u32) -> u32 {
    let unpadded = width.saturating_mul(4);
    let align = wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
    unpadded.div_ceil(align).saturating_mul(align)
}

/// A mappable buffer for `width` x `height` pixels of 4 bytes, rows padded.
pub fn readback_buffer(device: &wgpu::Device, width: u32, height: u32) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("read-back"),
        size: u64::from(padded_bytes_per_row(width)) * u64::from(height),
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    })
}

/// Records the copy of `texture` (mip 0, `width` x `height`) into `buffer`.
pub fn record_copy(
    encoder: &mut wgpu::CommandEncoder,
    texture: &wgpu::Texture,
    buffer: &wgpu::Buffer,
    width: u32,
    height: u32,
) {
    encoder.copy_texture_to_buffer(
        wgpu::TexelCopyTextureInfo {
            texture,
            mip_level: 0,
            origin: wgpu::Origin3d::ZERO,
            aspect: wgpu::TextureAspect::All,
        },
        wgpu::TexelCopyBufferInfo {
            buffer,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(padded_bytes_per_row(width)),
                rows_per_image: Some(height),
            },
        },
        wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
    );
}

/// Waits for `submission` (or all work), maps `buffer` and returns its pixels without the row
/// padding, as RGBA: `bgra` swaps the channels of a BGRA texture.
///
/// # Errors
/// [`RenderError::Readback`] when the GPU does not finish in time or the buffer cannot be
/// mapped.
pub fn read_image(
    device: &wgpu::Device,
    buffer: &wgpu::Buffer,
    submission: Option<wgpu::SubmissionIndex>,
    width: u32,
    height: u32,
    bgra: bool,
) -> Result<RgbaImage, RenderError> {
    let slice = buffer.slice(..);
    let (sender, receiver) = mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |result| {
        // The receiver waits below; if it has gone, nobody needs the answer.
        let _ = sender.send(result);
    });
    device
        .poll(wgpu::PollType::Wait {
            submission_index: submission,
            timeout: Some(READBACK_TIMEOUT),
        })
        .map_err(|e| RenderError::Readback(e.to_string()))?;
    receiver
        .recv_timeout(READBACK_TIMEOUT)
        .map_err(|e| RenderError::Readback(e.to_string()))?
        .map_err(|e| RenderError::Readback(e.to_string()))?;
    let row = 4 * width as usize;
    let mut data = Vec::with_capacity(row * height as usize);
    {
        let mapped = slice
            .get_mapped_range()
            .map_err(|e| RenderError::Readback(e.to_string()))?;
        for chunk in mapped
            .chunks(padded_bytes_per_row(width) as usize)
            .take(height as usize)
        {
            data.extend_from_slice(&chunk[..row]);
        }
    }
    buffer.unmap();
    if bgra {
        for px in data.chunks_exact_mut(4) {
            px.swap(0, 2);
        }
    }
    Ok(RgbaImage {
        width,
        height,
        data,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_padded_to_256_bytes() {
        assert_eq!(padded_bytes_per_row(64), 256);
        assert_eq!(padded_bytes_per_row(65), 512);
        assert_eq!(padded_bytes_per_row(1280), 5120);
    }
}

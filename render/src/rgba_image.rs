//! [`RgbaImage`]: an 8-bit sRGB RGBA image in memory, as read back from the GPU (offscreen
//! frames, screenshots), with its PNG encoding and decoding.

use std::io::BufWriter;
use std::path::Path;

use crate::error::RenderError;

/// An 8-bit sRGB RGBA image, rows top to bottom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RgbaImage {
    /// Width (pixels).
    pub width: u32,
    /// Height (pixels).
    pub height: u32,
    /// `width * height * 4` bytes.
    pub data: Vec<u8>,
}

impl RgbaImage {
    /// The pixel at (`x`, `y`), or transparent black outside the image.
    pub fn pixel(&self, x: u32, y: u32) -> [u8; 4] {
        if x >= self.width || y >= self.height {
            return [0; 4];
        }
        let i = 4 * (y as usize * self.width as usize + x as usize);
        [
            self.data[i],
            self.data[i + 1],
            self.data[i + 2],
            self.data[i + 3],
        ]
    }

    /// Writes the image as an 8-bit RGBA PNG.
    ///
    /// # Errors
    /// [`RenderError::Png`] naming the file.
    pub fn write_png(&self, path: &Path) -> Result<(), RenderError> {
        let err = |detail: String| RenderError::Png {
            path: path.to_owned(),
            detail,
        };
        let file = std::fs::File::create(path).map_err(|e| err(e.to_string()))?;
        let mut encoder = png::Encoder::new(BufWriter::new(file), self.width, self.height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_source_srgb(png::SrgbRenderingIntent::Perceptual);
        let mut writer = encoder.write_header().map_err(|e| err(e.to_string()))?;
        writer
            .write_image_data(&self.data)
            .map_err(|e| err(e.to_string()))?;
        writer.finish().map_err(|e| err(e.to_string()))
    }

    /// Reads an 8-bit RGB or RGBA PNG (as written by [`RgbaImage::write_png`]).
    ///
    /// # Errors
    /// [`RenderError::Png`] naming the file, for a missing file, a broken PNG or another
    /// pixel format.
    pub fn read_png(path: &Path) -> Result<Self, RenderError> {
        let err = |detail: String| RenderError::Png {
            path: path.to_owned(),
            detail,
        };
        let file = std::fs::File::open(path).map_err(|e| err(e.to_string()))?;
        let decoder = png::Decoder::new(std::io::BufReader::new(file));
        let mut reader = decoder.read_info().map_err(|e| err(e.to_string()))?;
        let size = reader
            .output_buffer_size()
            .ok_or_else(|| err("image too large".to_owned()))?;
        let mut buf = vec![0; size];
        let info = reader
            .next_frame(&mut buf)
            .map_err(|e| err(e.to_string()))?;
        if info.bit_depth != png::BitDepth::Eight {
            return Err(err(format!("unsupported bit depth {:?}", info.bit_depth)));
        }
        let pixels = &buf[..info.buffer_size()];
        let data = match info.color_type {
            png::ColorType::Rgba => pixels.to_vec(),
            png::ColorType::Rgb => pixels
                .chunks_exact(3)
                .flat_map(|p| [p[0], p[1], p[2], 255])
                .collect(),
            other => return Err(err(format!("unsupported colour type {other:?}"))),
        };
        Ok(Self {
            width: info.width,
            height: info.height,
            data,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn png_round_trips_and_reports_missing_files() {
        let dir = std::env::temp_dir().join(format!("gripline-render-png-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.png");
        let image = RgbaImage {
            width: 3,
            height: 2,
            data: (0..24u8).map(|i| i * 10).collect(),
        };
        image.write_png(&path).unwrap();
        assert_eq!(RgbaImage::read_png(&path).unwrap(), image);
        assert_eq!(image.pixel(1, 1), [160, 170, 180, 190]);
        assert_eq!(image.pixel(9, 9), [0; 4]);
        let missing = RgbaImage::read_png(&dir.join("missing.png")).unwrap_err();
        assert!(missing.to_string().contains("missing.png"), "{missing}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

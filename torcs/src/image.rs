//! An image in 8-bit RGBA, what every texture decoder here produces (PNG and SGI alike).

/// An image in 8-bit RGBA (sRGB colour, straight alpha), the top row first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextureImage {
    /// Width (pixels).
    pub width: u32,
    /// Height (pixels).
    pub height: u32,
    /// Whether any pixel is not fully opaque (the texture is then alpha-tested).
    pub has_alpha: bool,
    /// `width * height` pixels of 4 bytes, rows top to bottom.
    pub rgba: Vec<u8>,
}

impl TextureImage {
    /// An image of `width` x `height` pixels from `rgba` (4 bytes a pixel, top row first);
    /// [`TextureImage::has_alpha`] is found from the pixels.
    pub fn new(width: u32, height: u32, rgba: Vec<u8>) -> Self {
        let has_alpha = rgba.chunks_exact(4).any(|p| p[3] < 255);
        Self {
            width,
            height,
            has_alpha,
            rgba,
        }
    }

    /// The mean colour of the image (RGBA, 0..1, averaged in sRGB): a stand-in colour.
    pub fn mean_colour(&self) -> [f32; 4] {
        let mut sum = [0u64; 4];
        for p in self.rgba.chunks_exact(4) {
            for (s, v) in sum.iter_mut().zip(p) {
                *s += u64::from(*v);
            }
        }
        let n = (self.rgba.len() / 4).max(1) as f64;
        #[allow(clippy::cast_possible_truncation)]
        sum.map(|s| (s as f64 / n / 255.0) as f32)
    }
}

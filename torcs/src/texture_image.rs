//! Texture images of TORCS scenes: PNG and SGI (`.rgb`, `.rgba`) files decoded to 8-bit RGBA
//! ([`TextureImage`]), and the folders searched for a texture the way TORCS searches them:
//! the track's own folder, then the data root's `data/textures` and `data/img`.

use std::io::Cursor;
use std::path::{Path, PathBuf};

use crate::image::TextureImage;
use crate::sgi::{decode_sgi, is_sgi};

/// Largest side accepted for a PNG texture (pixels).
const MAX_PNG_SIDE: u32 = 16_384;

/// Why a texture file cannot be decoded.
#[derive(Debug, thiserror::Error)]
pub enum TextureError {
    /// The file cannot be read.
    #[error("{path}: cannot read: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        #[source]
        source: std::io::Error,
    },
    /// The file is not a PNG or SGI image this decoder reads, or is damaged.
    #[error("{path}: {message}")]
    Decode {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
}

/// Decodes a PNG or SGI image from its bytes (the format is told by the content, not the
/// name: some TORCS files carry the other format's extension).
///
/// # Errors
/// A message saying what is wrong when the bytes are neither a well-formed PNG nor SGI image.
pub fn decode_image(bytes: &[u8]) -> Result<TextureImage, String> {
    if is_sgi(bytes) {
        return decode_sgi(bytes).map_err(|e| format!("SGI image: {e}"));
    }
    if bytes.starts_with(b"\x89PNG") {
        return decode_png(bytes).map_err(|e| format!("PNG image: {e}"));
    }
    Err("neither a PNG nor an SGI image".into())
}

fn decode_png(bytes: &[u8]) -> Result<TextureImage, String> {
    let mut decoder = png::Decoder::new(Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().map_err(|e| e.to_string())?;
    let (width, height) = (reader.info().width, reader.info().height);
    if width == 0 || height == 0 || width > MAX_PNG_SIDE || height > MAX_PNG_SIDE {
        return Err(format!(
            "size {width} x {height} (1 to {MAX_PNG_SIDE} pixels a side)"
        ));
    }
    let size = reader
        .output_buffer_size()
        .ok_or("the image is too large")?;
    let mut buf = vec![0; size];
    let frame = reader.next_frame(&mut buf).map_err(|e| e.to_string())?;
    let line = frame.line_size;
    let pixels = (width as usize) * (height as usize);
    let mut rgba = Vec::with_capacity(pixels * 4);
    for row in buf.chunks_exact(line).take(height as usize) {
        match frame.color_type {
            png::ColorType::Grayscale => {
                for &g in &row[..width as usize] {
                    rgba.extend_from_slice(&[g, g, g, 255]);
                }
            }
            png::ColorType::GrayscaleAlpha => {
                for p in row.chunks_exact(2).take(width as usize) {
                    rgba.extend_from_slice(&[p[0], p[0], p[0], p[1]]);
                }
            }
            png::ColorType::Rgb => {
                for p in row.chunks_exact(3).take(width as usize) {
                    rgba.extend_from_slice(&[p[0], p[1], p[2], 255]);
                }
            }
            png::ColorType::Rgba => rgba.extend_from_slice(&row[..4 * width as usize]),
            png::ColorType::Indexed => return Err("a palette was not expanded".into()),
        }
    }
    if rgba.len() != pixels * 4 {
        return Err("the decoded rows do not fill the image".into());
    }
    Ok(TextureImage::new(width, height, rgba))
}

/// Reads and decodes the image file at `path`.
///
/// # Errors
/// [`TextureError`] naming the file when it cannot be read or decoded.
pub fn load_image(path: &Path) -> Result<TextureImage, TextureError> {
    let bytes = std::fs::read(path).map_err(|source| TextureError::Io {
        path: path.to_owned(),
        source,
    })?;
    decode_image(&bytes).map_err(|message| TextureError::Decode {
        path: path.to_owned(),
        message,
    })
}

/// The folders TORCS searches for a track's textures, in order: the track's folder, then
/// `data/textures` and `data/img` under the data root that holds the track (the folder above
/// `tracks/CATEGORY/NAME`), where they exist.
pub fn texture_dirs(track_dir: &Path) -> Vec<PathBuf> {
    let mut dirs = vec![track_dir.to_owned()];
    if let Some(root) = track_dir.ancestors().nth(3) {
        for sub in ["data/textures", "data/img"] {
            let dir = root.join(sub);
            if dir.is_dir() {
                dirs.push(dir);
            }
        }
    }
    dirs
}

/// The first file named `name` in `dirs` (`name` is a bare file name as AC3D files give it;
/// a name with folders keeps only its last part).
pub fn find_texture(name: &str, dirs: &[PathBuf]) -> Option<PathBuf> {
    let file = Path::new(name).file_name()?;
    dirs.iter().map(|d| d.join(file)).find(|p| p.is_file())
}

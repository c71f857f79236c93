//! SGI (IRIS) image files, `.rgb`, `.rgba`, `.bw`, `.sgi`: the texture format of TORCS's
//! older tracks and cars, decoded to 8-bit RGBA.
//!
//! The format (Paul Haeberli's "The SGI Image File Format", version 1.00): a 512-byte
//! big-endian header (magic 474, storage 0 = verbatim or 1 = RLE, bytes per channel 1 or 2,
//! dimension, x size, y size, z size = channels, pixel range, name, colour map), then the
//! channels one after another as planes of rows, the bottom row first. RLE images begin
//! with two tables of `ysize * zsize` big-endian `u32`s, the offset and the length of each
//! row's run-length code, indexed `y + z * ysize`. A code unit's low 7 bits are a count `n`:
//! zero ends the row; with the high bit set the next `n` units are copied, otherwise the next
//! unit is repeated `n` times. A unit is one byte, or two with two bytes per channel.
//!
//! One or two channels are grey (with alpha); three are RGB; four RGBA. Two-byte channels
//! keep their high byte. Every malformed file (short, wrong magic, runs past a row or the
//! file) is an [`SgiError`], never a panic.

use crate::image::TextureImage;

/// The magic number that opens an SGI image.
pub const SGI_MAGIC: u16 = 474;
/// The size of the header (bytes).
const HEADER_LEN: usize = 512;
/// Largest side accepted (pixels): beyond any texture and far below memory trouble.
const MAX_SIDE: usize = 16_384;

/// Why an SGI image cannot be decoded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SgiError {
    /// Shorter than the header, or data past the end of the file.
    #[error("the file ends early ({0})")]
    Truncated(&'static str),
    /// Not an SGI image, or a variant this decoder does not read.
    #[error("{0}")]
    Unsupported(String),
    /// A run-length code that overruns its row or the file.
    #[error("bad run-length data in row {row} of channel {channel}: {reason}")]
    BadRle {
        /// The row (0 = bottom).
        row: usize,
        /// The channel.
        channel: usize,
        /// What is wrong.
        reason: &'static str,
    },
}

/// Whether `bytes` start like an SGI image.
pub fn is_sgi(bytes: &[u8]) -> bool {
    bytes.len() >= 2 && u16::from_be_bytes([bytes[0], bytes[1]]) == SGI_MAGIC
}

/// Decodes an SGI image into RGBA, top row first.
///
/// # Errors
/// [`SgiError`] for anything that is not a well-formed SGI image (see the module docs).
pub fn decode_sgi(bytes: &[u8]) -> Result<TextureImage, SgiError> {
    if bytes.len() < HEADER_LEN {
        return Err(SgiError::Truncated("header"));
    }
    if !is_sgi(bytes) {
        return Err(SgiError::Unsupported(
            "not an SGI image (wrong magic)".into(),
        ));
    }
    let u16_at = |i: usize| usize::from(u16::from_be_bytes([bytes[i], bytes[i + 1]]));
    let rle = match bytes[2] {
        0 => false,
        1 => true,
        other => return Err(SgiError::Unsupported(format!("storage type {other}"))),
    };
    let bpc = usize::from(bytes[3]);
    if bpc != 1 && bpc != 2 {
        return Err(SgiError::Unsupported(format!("{bpc} bytes per channel")));
    }
    let dimension = u16_at(4);
    let width = u16_at(6);
    let (height, channels) = match dimension {
        1 => (1, 1),
        2 => (u16_at(8), 1),
        3 => (u16_at(8), u16_at(10)),
        other => return Err(SgiError::Unsupported(format!("dimension {other}"))),
    };
    let colormap = u32::from_be_bytes([bytes[104], bytes[105], bytes[106], bytes[107]]);
    if colormap != 0 {
        return Err(SgiError::Unsupported(format!(
            "colour map type {colormap} (only normal images are read)"
        )));
    }
    if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
        return Err(SgiError::Unsupported(format!(
            "size {width} x {height} (1 to {MAX_SIDE} pixels a side)"
        )));
    }
    if !(1..=4).contains(&channels) {
        return Err(SgiError::Unsupported(format!(
            "{channels} channels (1 to 4 are read)"
        )));
    }
    // Planes of channel values, bottom row first.
    let mut planes = vec![0u8; width * height * channels];
    if rle {
        decode_rle(bytes, bpc, width, height, channels, &mut planes)?;
    } else {
        let needed = HEADER_LEN + width * height * channels * bpc;
        if bytes.len() < needed {
            return Err(SgiError::Truncated("verbatim pixel data"));
        }
        for (value, unit) in planes
            .iter_mut()
            .zip(bytes[HEADER_LEN..needed].chunks_exact(bpc))
        {
            *value = unit[0];
        }
    }
    Ok(to_rgba(&planes, width, height, channels))
}

fn decode_rle(
    bytes: &[u8],
    bpc: usize,
    width: usize,
    height: usize,
    channels: usize,
    planes: &mut [u8],
) -> Result<(), SgiError> {
    let rows = height * channels;
    let tables_end = HEADER_LEN + 8 * rows;
    if bytes.len() < tables_end {
        return Err(SgiError::Truncated("run-length tables"));
    }
    let table = |base: usize, i: usize| {
        let p = base + 4 * i;
        u32::from_be_bytes([bytes[p], bytes[p + 1], bytes[p + 2], bytes[p + 3]]) as usize
    };
    for channel in 0..channels {
        for row in 0..height {
            let index = row + channel * height;
            let start = table(HEADER_LEN, index);
            let length = table(HEADER_LEN + 4 * rows, index);
            let bad = |reason| SgiError::BadRle {
                row,
                channel,
                reason,
            };
            let end = start
                .checked_add(length)
                .filter(|&e| e <= bytes.len())
                .ok_or(bad("the row's code lies past the end of the file"))?;
            let code = &bytes[start..end];
            let out_start = index * width;
            let out = &mut planes[out_start..out_start + width];
            decode_rle_row(code, bpc, out).map_err(bad)?;
        }
    }
    Ok(())
}

/// Decodes one row's code into `out` (one byte per pixel). A unit is `bpc` bytes, big-endian:
/// its last byte carries a count, its first byte is the value kept.
fn decode_rle_row(code: &[u8], bpc: usize, out: &mut [u8]) -> Result<(), &'static str> {
    let units = code.len() / bpc;
    let mut i = 0;
    let mut x = 0;
    while i < units {
        let control = code[i * bpc + bpc - 1];
        i += 1;
        let count = usize::from(control & 0x7f);
        if count == 0 {
            break;
        }
        if x + count > out.len() {
            return Err("a run passes the end of the row");
        }
        if control & 0x80 != 0 {
            if i + count > units {
                return Err("a copied run passes the end of the code");
            }
            for (k, slot) in out[x..x + count].iter_mut().enumerate() {
                *slot = code[(i + k) * bpc];
            }
            i += count;
        } else {
            if i >= units {
                return Err("a repeated run has no value");
            }
            out[x..x + count].fill(code[i * bpc]);
            i += 1;
        }
        x += count;
    }
    // A full row may end without its terminating zero.
    if x == out.len() {
        Ok(())
    } else {
        Err("the code ends before the row is full")
    }
}

/// Interleaves the planes (bottom row first) into RGBA, top row first.
fn to_rgba(planes: &[u8], width: usize, height: usize, channels: usize) -> TextureImage {
    let plane = width * height;
    let mut rgba = Vec::with_capacity(plane * 4);
    for row in (0..height).rev() {
        for x in 0..width {
            let at = |c: usize| planes[c * plane + row * width + x];
            let px = match channels {
                1 => [at(0), at(0), at(0), 255],
                2 => [at(0), at(0), at(0), at(1)],
                3 => [at(0), at(1), at(2), 255],
                _ => [at(0), at(1), at(2), at(3)],
            };
            rgba.extend_from_slice(&px);
        }
    }
    TextureImage::new(
        u32::try_from(width).unwrap_or(0),
        u32::try_from(height).unwrap_or(0),
        rgba,
    )
}

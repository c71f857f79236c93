//! Textures of imported scenes on the GPU: an 8-bit sRGB RGBA image with its full mipmap
//! chain, made on the CPU. Each level halves the one above with a 2 x 2 box filter in linear
//! light, colours weighted by alpha (so the transparent texels around foliage do not bleed a
//! dark fringe into the smaller levels). Images larger than a cap start at the first level
//! that fits it.

use std::sync::OnceLock;

use gripline_torcs::image::TextureImage;

/// The colour format of scene textures: sRGB, so sampling returns linear colour.
pub const SCENE_TEXTURE_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

/// One mip level: size and pixels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MipLevel {
    /// Width (pixels).
    pub width: u32,
    /// Height (pixels).
    pub height: u32,
    /// RGBA8 sRGB pixels, rows top down.
    pub rgba: Vec<u8>,
}

/// The mip chain of `image`, down to 1 x 1, leaving out the levels with a side above
/// `max_side` (but always keeping at least the 1 x 1 level).
pub fn mip_chain(image: &TextureImage, max_side: u32) -> Vec<MipLevel> {
    let mut levels = Vec::new();
    let mut current = MipLevel {
        width: image.width.max(1),
        height: image.height.max(1),
        rgba: image.rgba.clone(),
    };
    loop {
        let last = current.width == 1 && current.height == 1;
        let next = (!last).then(|| half(&current));
        if current.width.max(current.height) <= max_side.max(1) {
            levels.push(current);
        }
        match next {
            Some(n) => current = n,
            None => break,
        }
    }
    levels
}

/// Linear value (0..1) of each sRGB byte.
fn to_linear() -> &'static [f32; 256] {
    static TABLE: OnceLock<[f32; 256]> = OnceLock::new();
    TABLE.get_or_init(|| {
        std::array::from_fn(|i| {
            let c = i as f32 / 255.0;
            if c <= 0.04045 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        })
    })
}

/// sRGB byte of a linear value, by a 4096-entry table.
fn to_srgb(linear: f32) -> u8 {
    static TABLE: OnceLock<Vec<u8>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        (0..4096)
            .map(|i| {
                let l = i as f32 / 4095.0;
                let s = if l <= 0.003_130_8 {
                    l * 12.92
                } else {
                    1.055 * l.powf(1.0 / 2.4) - 0.055
                };
                #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                let b = (s * 255.0 + 0.5).clamp(0.0, 255.0) as u8;
                b
            })
            .collect()
    });
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let i = (linear.clamp(0.0, 1.0) * 4095.0 + 0.5) as usize;
    table[i.min(4095)]
}

/// The next level: each texel the alpha-weighted mean of (up to) 2 x 2 texels above.
fn half(level: &MipLevel) -> MipLevel {
    let (w, h) = (level.width as usize, level.height as usize);
    let (nw, nh) = ((w / 2).max(1), (h / 2).max(1));
    let lin = to_linear();
    let mut rgba = Vec::with_capacity(nw * nh * 4);
    for y in 0..nh {
        for x in 0..nw {
            let mut colour = [0.0f32; 3];
            let mut alpha = 0.0f32;
            let mut plain = [0.0f32; 3];
            let mut n = 0.0f32;
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                let (sx, sy) = ((2 * x + dx).min(w - 1), (2 * y + dy).min(h - 1));
                let p = &level.rgba[(sy * w + sx) * 4..(sy * w + sx) * 4 + 4];
                let a = f32::from(p[3]) / 255.0;
                for k in 0..3 {
                    let c = lin[usize::from(p[k])];
                    colour[k] += c * a;
                    plain[k] += c;
                }
                alpha += a;
                n += 1.0;
            }
            for k in 0..3 {
                let c = if alpha > 1e-6 {
                    colour[k] / alpha
                } else {
                    plain[k] / n
                };
                rgba.push(to_srgb(c));
            }
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            rgba.push((alpha / n * 255.0 + 0.5).clamp(0.0, 255.0) as u8);
        }
    }
    MipLevel {
        #[allow(clippy::cast_possible_truncation)]
        width: nw as u32,
        #[allow(clippy::cast_possible_truncation)]
        height: nh as u32,
        rgba,
    }
}

/// Uploads `levels` (a chain from [`mip_chain`]) as a sampled texture.
pub fn upload_texture(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    label: &str,
    levels: &[MipLevel],
) -> Option<wgpu::Texture> {
    let first = levels.first()?;
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d {
            width: first.width,
            height: first.height,
            depth_or_array_layers: 1,
        },
        mip_level_count: u32::try_from(levels.len()).ok()?,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: SCENE_TEXTURE_FORMAT,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    for (mip, level) in levels.iter().enumerate() {
        queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture: &texture,
                mip_level: u32::try_from(mip).ok()?,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            &level.rgba,
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(4 * level.width),
                rows_per_image: Some(level.height),
            },
            wgpu::Extent3d {
                width: level.width,
                height: level.height,
                depth_or_array_layers: 1,
            },
        );
    }
    Some(texture)
}

/// A 1 x 1 texture of a linear colour (plain-coloured batches, the absent second layer).
pub fn plain_texture(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    label: &str,
    linear: [f32; 3],
) -> Option<wgpu::Texture> {
    let [r, g, b] = linear.map(to_srgb);
    upload_texture(
        device,
        queue,
        label,
        &[MipLevel {
            width: 1,
            height: 1,
            rgba: vec![r, g, b, 255],
        }],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chains_halve_down_to_one_texel_and_respect_the_cap() {
        let image = TextureImage::new(8, 2, vec![200; 8 * 2 * 4]);
        let chain = mip_chain(&image, 4096);
        let sizes: Vec<(u32, u32)> = chain.iter().map(|l| (l.width, l.height)).collect();
        assert_eq!(sizes, [(8, 2), (4, 1), (2, 1), (1, 1)]);
        // A flat colour stays that colour (to within the sRGB round trip).
        assert!(chain[3].rgba.iter().all(|&b| b.abs_diff(200) <= 1));
        let capped = mip_chain(&image, 4);
        assert_eq!((capped[0].width, capped[0].height), (4, 1));
        assert_eq!(mip_chain(&image, 0).len(), 1);
    }

    #[test]
    fn averages_in_linear_light_weighted_by_alpha() {
        // Black and white average to mid grey in linear light: sRGB 188, not 128.
        let image = TextureImage::new(2, 1, vec![0, 0, 0, 255, 255, 255, 255, 255]);
        let level = &mip_chain(&image, 4096)[1];
        assert_eq!(&level.rgba[..3], &[188, 188, 188]);
        // A transparent black texel does not darken its opaque green neighbour.
        let leaf = TextureImage::new(2, 1, vec![0, 0, 0, 0, 0, 200, 0, 255]);
        let level = &mip_chain(&leaf, 4096)[1];
        assert_eq!(level.rgba, [0, 200, 0, 128]);
    }
}

//! Test helper: paints egui's output on the CPU (no window, no GPU), so tests can check that
//! the screen draws a real picture and can save it as a PNG for people to look at.
//!
//! A plain triangle rasteriser: pixel centres inside each triangle (clipped to the
//! primitive's clip rectangle) get the interpolated vertex colour times the texture
//! (nearest texel), blended premultiplied-over onto the picture, as egui's GPU painters do
//! in gamma space.

use std::collections::HashMap;

use egui::epaint::{ImageData, Primitive, Vertex};
use egui::{Color32, ColorImage, FullOutput, TextureId};
use resvg::tiny_skia::Pixmap;

/// Textures egui has uploaded so far, kept across frames.
#[derive(Default)]
pub struct Textures(HashMap<TextureId, ColorImage>);

impl Textures {
    fn update(&mut self, out: &mut FullOutput) {
        for (id, delta) in out
            .textures_delta
            .set
            .iter()
            .flat_map(|(id, ds)| ds.iter().map(move |d| (id, d)))
        {
            let ImageData::Color(image) = &delta.image;
            match delta.pos {
                None => {
                    self.0.insert(*id, (**image).clone());
                }
                Some([x0, y0]) => {
                    if let Some(t) = self.0.get_mut(id) {
                        for y in 0..image.size[1] {
                            for x in 0..image.size[0] {
                                let (tx, ty) = (x0 + x, y0 + y);
                                if tx < t.size[0] && ty < t.size[1] {
                                    t.pixels[ty * t.size[0] + tx] =
                                        image.pixels[y * image.size[0] + x];
                                }
                            }
                        }
                    }
                }
            }
        }
        for id in &out.textures_delta.free {
            self.0.remove(id);
        }
        out.textures_delta.clear();
    }

    fn sample(&self, id: TextureId, u: f32, v: f32) -> Color32 {
        let Some(t) = self.0.get(&id) else {
            return Color32::WHITE;
        };
        // Texel indices from normalised coordinates; the casts saturate at the edges.
        #[allow(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            clippy::cast_precision_loss
        )]
        let (x, y) = (
            ((u * t.size[0] as f32) as usize).min(t.size[0].saturating_sub(1)),
            ((v * t.size[1] as f32) as usize).min(t.size[1].saturating_sub(1)),
        );
        t.pixels
            .get(y * t.size[0] + x)
            .copied()
            .unwrap_or(Color32::WHITE)
    }
}

fn mul(a: Color32, b: Color32) -> [f32; 4] {
    let c = |x: u8, y: u8| f32::from(x) * f32::from(y) / (255.0 * 255.0);
    [
        c(a.r(), b.r()),
        c(a.g(), b.g()),
        c(a.b(), b.b()),
        c(a.a(), b.a()),
    ]
}

fn lerp_colour(v: [&Vertex; 3], w: [f32; 3]) -> Color32 {
    let ch = |f: fn(&Color32) -> u8| {
        let x = w[0] * f32::from(f(&v[0].color))
            + w[1] * f32::from(f(&v[1].color))
            + w[2] * f32::from(f(&v[2].color));
        // Rounded and clamped to a byte.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let b = x.round().clamp(0.0, 255.0) as u8;
        b
    };
    Color32::from_rgba_premultiplied(
        ch(Color32::r),
        ch(Color32::g),
        ch(Color32::b),
        ch(Color32::a),
    )
}

/// Paints `out` (one frame of `ctx`) onto a picture of `width` x `height` pixels at one
/// pixel per point, over a dark background.
pub fn paint(
    ctx: &egui::Context,
    mut out: FullOutput,
    textures: &mut Textures,
    width: u32,
    height: u32,
) -> Option<Pixmap> {
    textures.update(&mut out);
    let mut pixmap = Pixmap::new(width, height)?;
    pixmap.fill(resvg::tiny_skia::Color::from_rgba8(10, 10, 12, 255));
    let primitives = ctx.tessellate(out.shapes, 1.0);
    let (w, h) = (width as usize, height as usize);
    let data = pixmap.data_mut();
    for p in primitives {
        let Primitive::Mesh(mesh) = p.primitive else {
            continue;
        };
        let clip = p.clip_rect;
        for tri in mesh.indices.chunks_exact(3) {
            let idx = |i: u32| mesh.vertices.get(i as usize);
            let (Some(a), Some(b), Some(c)) = (idx(tri[0]), idx(tri[1]), idx(tri[2])) else {
                continue;
            };
            let area = (b.pos.x - a.pos.x) * (c.pos.y - a.pos.y)
                - (c.pos.x - a.pos.x) * (b.pos.y - a.pos.y);
            if area.abs() < 1e-6 {
                continue;
            }
            let min_x = a.pos.x.min(b.pos.x).min(c.pos.x).max(clip.min.x).max(0.0);
            let max_x = a
                .pos
                .x
                .max(b.pos.x)
                .max(c.pos.x)
                .min(clip.max.x)
                .min(width as f32);
            let min_y = a.pos.y.min(b.pos.y).min(c.pos.y).max(clip.min.y).max(0.0);
            let max_y = a
                .pos
                .y
                .max(b.pos.y)
                .max(c.pos.y)
                .min(clip.max.y)
                .min(height as f32);
            if min_x >= max_x || min_y >= max_y {
                continue;
            }
            // Pixel ranges of the clipped bounding box (non-negative, inside the picture).
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let (x0, x1, y0, y1) = (
                min_x.floor() as usize,
                (max_x.ceil() as usize).min(w),
                min_y.floor() as usize,
                (max_y.ceil() as usize).min(h),
            );
            for py in y0..y1 {
                for px in x0..x1 {
                    #[allow(clippy::cast_precision_loss)]
                    let (x, y) = (px as f32 + 0.5, py as f32 + 0.5);
                    let w0 = ((b.pos.x - x) * (c.pos.y - y) - (c.pos.x - x) * (b.pos.y - y)) / area;
                    let w1 = ((c.pos.x - x) * (a.pos.y - y) - (a.pos.x - x) * (c.pos.y - y)) / area;
                    let w2 = 1.0 - w0 - w1;
                    if w0 < -1e-4 || w1 < -1e-4 || w2 < -1e-4 {
                        continue;
                    }
                    let u = w0 * a.uv.x + w1 * b.uv.x + w2 * c.uv.x;
                    let v = w0 * a.uv.y + w1 * b.uv.y + w2 * c.uv.y;
                    let src = mul(
                        lerp_colour([a, b, c], [w0, w1, w2]),
                        textures.sample(mesh.texture_id, u, v),
                    );
                    let i = 4 * (py * w + px);
                    for k in 0..4 {
                        let d = f32::from(data[i + k]) / 255.0;
                        let o = src[k] + d * (1.0 - src[3]);
                        // A blend of two bytes stays a byte.
                        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                        let byte = (o * 255.0).round().clamp(0.0, 255.0) as u8;
                        data[i + k] = byte;
                    }
                }
            }
        }
    }
    Some(pixmap)
}

/// Number of distinct colours in a picture (a blank or single-colour frame has 1 or 2).
pub fn distinct_colours(pixmap: &Pixmap) -> usize {
    let mut seen = std::collections::HashSet::new();
    for px in pixmap.data().chunks_exact(4) {
        seen.insert([px[0], px[1], px[2]]);
    }
    seen.len()
}

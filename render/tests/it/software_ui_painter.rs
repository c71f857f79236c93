//! The software adapter's egui painter draws what egui-wgpu draws: one UI (translucent
//! panels with rounded corners, text in several sizes, bars, a circle, lines, a window with
//! its shadow) painted by both `UiPainter` paths over the same background in two frames (the
//! second adds glyphs to egui's font atlas, a patch of its texture), compared pixel by pixel,
//! into a plain and into an sRGB target. egui-wgpu dithers (as the window asks it to), the software painter does not:
//! dithering moves a channel by at most one level per blended layer, so that is the
//! tolerance (two where a corner lies over another shape, in no more than 0.1 % of pixels).

use crate::common;

use egui::{Color32, Pos2, Rect, Stroke, Vec2};
use gripline_render::RgbaImage;
use gripline_render::readback::{read_image, readback_buffer, record_copy};
use gripline_render::ui_painter::{PreparedUi, UiPaintPath, UiPainter};

const W: u32 = 480;
const H: u32 = 270;

/// A HUD-like UI, run and tessellated: a first frame, then a second with a new text size
/// whose glyphs egui adds to its font atlas (a patch of the texture, not a new one).
fn prepared_uis() -> [PreparedUi; 2] {
    let ctx = egui::Context::default();
    ctx.set_visuals(egui::Visuals::dark());
    // No fade-in: the areas at full opacity at once.
    ctx.global_style_mut(|style| style.animation_time = 0.0);
    #[allow(clippy::cast_precision_loss)]
    let input = egui::RawInput {
        screen_rect: Some(Rect::from_min_size(
            Pos2::ZERO,
            Vec2::new(W as f32, H as f32),
        )),
        ..Default::default()
    };
    // The first frame runs twice: egui lays areas out unseen in their first pass. The font
    // atlas comes with the first pass's textures.
    let mut textures = egui::TexturesDelta::default();
    let mut frames = Vec::new();
    for pass_index in 0..3 {
        let mut pass = ctx.run_ui(input.clone(), |ui| {
            let ctx = ui.ctx().clone();
            egui::Area::new(egui::Id::unique("panel"))
                .fixed_pos(Pos2::new(12.0, 150.0))
                .show(&ctx, |ui| {
                    egui::Frame::new()
                        .fill(Color32::from_rgba_premultiplied(10, 12, 16, 200))
                        .corner_radius(6.0)
                        .inner_margin(10.0)
                        .show(ui, |ui| {
                            ui.label(egui::RichText::new("139").size(40.0).color(Color32::WHITE));
                            ui.label("km/h  Automatic  5018 rpm");
                            if pass_index == 2 {
                                ui.label(egui::RichText::new("1:52.417").size(31.0));
                            }
                            let (rect, _) = ui
                                .allocate_exact_size(Vec2::new(200.0, 14.0), egui::Sense::hover());
                            let painter = ui.painter();
                            painter.rect_filled(rect, 3.0, Color32::from_gray(40));
                            painter.rect_filled(
                                Rect::from_min_size(rect.min, Vec2::new(130.0, 14.0)),
                                3.0,
                                Color32::from_rgb(60, 200, 90),
                            );
                            painter.circle_stroke(
                                rect.max + Vec2::new(40.0, -10.0),
                                22.0,
                                Stroke::new(2.0, Color32::from_gray(200)),
                            );
                            painter.line_segment(
                                [
                                    rect.max + Vec2::new(40.0, -10.0),
                                    rect.max + Vec2::new(52.0, -28.0),
                                ],
                                Stroke::new(2.5, Color32::from_rgb(250, 200, 40)),
                            );
                        });
                });
            egui::Window::new("Settings")
                .fixed_pos(Pos2::new(260.0, 20.0))
                .show(&ctx, |ui| {
                    ui.label("Force feedback gain");
                    let mut gain = 0.6f32;
                    ui.add(egui::Slider::new(&mut gain, 0.0..=1.0));
                    let _ = ui.button("Apply");
                });
        });
        textures.append(std::mem::take(&mut pass.textures_delta));
        if pass_index > 0 {
            let pixels_per_point = pass.pixels_per_point;
            frames.push(PreparedUi {
                primitives: ctx.tessellate(pass.shapes, pixels_per_point),
                textures: std::mem::take(&mut textures),
                pixels_per_point,
            });
        }
    }
    let [first, second]: [PreparedUi; 2] = frames.try_into().ok().expect("two frames");
    assert!(
        second
            .textures
            .set
            .iter()
            .any(|(_, deltas)| deltas.iter().any(|d| d.pos.is_some())),
        "the second frame patches the font atlas"
    );
    [first, second]
}

/// The UI painted by `path` over a sky-blue to grass-green background (so translucency
/// shows), read back.
fn paint(
    gpu: &gripline_render::GpuContext,
    path: UiPaintPath,
    format: wgpu::TextureFormat,
) -> RgbaImage {
    let mut painter = UiPainter::new(&gpu.device, format, path);
    assert_eq!(painter.path(), path);
    let texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("ui target"),
        size: wgpu::Extent3d {
            width: W,
            height: H,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT
            | wgpu::TextureUsages::COPY_SRC
            | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    let background: Vec<u8> = (0..H)
        .flat_map(|y| {
            (0..W).flat_map(move |x| {
                let t = f64::from(y) / f64::from(H);
                #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                let mix = |a: f64, b: f64| (a + (b - a) * t).round() as u8;
                [mix(150.0, 60.0), mix(190.0, 140.0), mix(230.0, 50.0), 255]
                    .map(|c| c ^ u8::from(x.is_multiple_of(7)))
            })
        })
        .collect();
    let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
    let buffer = readback_buffer(&gpu.device, W, H);
    let mut index = None;
    // Both frames through the same painter, each over a fresh background; the second one's
    // picture is read back.
    let [first, second] = prepared_uis();
    for (n, ui) in [first, second].into_iter().enumerate() {
        gpu.queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture: &texture,
                mip_level: 0,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            &background,
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(4 * W),
                rows_per_image: Some(H),
            },
            wgpu::Extent3d {
                width: W,
                height: H,
                depth_or_array_layers: 1,
            },
        );
        let mut encoder = gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        let user_buffers =
            painter.paint(&gpu.device, &gpu.queue, &mut encoder, &[&view], [W, H], ui);
        if n == 1 {
            record_copy(&mut encoder, &texture, &buffer, W, H);
        }
        index = Some(
            gpu.queue
                .submit(user_buffers.into_iter().chain([encoder.finish()])),
        );
    }
    read_image(&gpu.device, &buffer, index, W, H, false).expect("read back the UI")
}

#[test]
fn the_software_painter_draws_what_egui_wgpu_draws() {
    let Some(gpu) = common::gpu() else {
        return;
    };
    // The window's plain target (blending in gamma space), and an sRGB one, which some
    // surfaces only offer.
    for (format, name) in [
        (wgpu::TextureFormat::Rgba8Unorm, "plain"),
        (wgpu::TextureFormat::Rgba8UnormSrgb, "srgb"),
    ] {
        compare_painters(&gpu, format, name);
    }
}

fn compare_painters(gpu: &gripline_render::GpuContext, format: wgpu::TextureFormat, name: &str) {
    let reference = paint(gpu, UiPaintPath::EguiWgpu, format);
    let software = paint(gpu, UiPaintPath::Software, format);
    let dir = common::out_dir("software_ui_painter");
    reference
        .write_png(&dir.join(format!("egui-wgpu-{name}.png")))
        .expect("png");
    software
        .write_png(&dir.join(format!("software-{name}.png")))
        .expect("png");

    let (mut max_diff, mut painted, mut worst, mut over_one) = (0u8, 0usize, (0, 0), 0usize);
    let background_at = |x: u32, y: u32| {
        let t = f64::from(y) / f64::from(H);
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let g = (190.0 + (140.0 - 190.0) * t).round() as u8;
        g ^ u8::from(x.is_multiple_of(7))
    };
    for y in 0..H {
        for x in 0..W {
            let (a, b) = (reference.pixel(x, y), software.pixel(x, y));
            let d = (0..4).map(|i| a[i].abs_diff(b[i])).max().unwrap_or(0);
            if d > 1 {
                over_one += 1;
            }
            if d > max_diff {
                max_diff = d;
                worst = (x, y);
            }
            if b[1].abs_diff(background_at(x, y)) > 8 {
                painted += 1;
            }
        }
    }
    // The UI covers a good part of the picture: both painters drew it, not nothing.
    assert!(
        painted > (W * H / 5) as usize,
        "{name}: only {painted} pixels differ from the background"
    );
    // Dithering moves each blended layer by up to one level: two where layers overlap.
    assert!(
        max_diff <= 2,
        "{name}: the painters differ by {max_diff} levels at {worst:?}"
    );
    assert!(
        over_one <= (W * H / 1000) as usize,
        "{name}: {over_one} pixels differ by more than one level"
    );
}

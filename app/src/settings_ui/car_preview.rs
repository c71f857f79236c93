//! The selected car's picture in the car list: one small frame of the car on the shipped
//! circuit from the chase camera, drawn by the offscreen renderer on a thread of its own
//! (at most once per car: pictures are kept) and shown as an egui texture. In the window it
//! is drawn with the window's own graphics device and queue ([`CarPreviews::set_gpu`]);
//! without one (tests) with a headless context of its own.

use std::collections::BTreeMap;
use std::sync::mpsc::{Receiver, TryRecvError};

use anyhow::{Context as _, Result};
use egui::{Color32, RichText, Ui};
use gripline_host::drive::LoadedDrive;
use gripline_render::offscreen::OFFSCREEN_FORMAT;
use gripline_render::{
    AdapterChoice, Camera, CameraMode, FrameInput, GpuContext, OffscreenRenderer, RgbaImage,
    SpinAngles, VehiclePose,
};
use gripline_sim::session::Session;

use crate::car_model_load::car_look;
use crate::scene_world::{SceneWorld, build_scene, render_settings};

/// The picture's size (pixels).
pub const PREVIEW_SIZE: [u32; 2] = [320, 180];

/// The track the car is shown on.
const PREVIEW_TRACK: &str = "circuit";

/// Draws the vehicle `name` standing at the start of the shipped circuit, seen from the
/// chase camera, `PREVIEW_SIZE` pixels, with `gpu` (the window's), or with a headless
/// context of its own when `None`.
///
/// # Errors
/// The car or track failing to load, no graphics adapter, or the frame not drawn.
pub fn render_preview(name: &str, gpu: Option<GpuContext>) -> Result<RgbaImage> {
    let session = Session::load(name, PREVIEW_TRACK).with_context(|| format!("loading {name}"))?;
    let loaded = LoadedDrive::of(&session, name, PREVIEW_TRACK);
    let track = loaded
        .track_mesh
        .as_ref()
        .context("the preview track has no mesh")?;
    // A model that cannot be drawn leaves the procedural body, as in the window.
    let (visual, model) = car_look(name, &loaded.params);
    let pose = VehiclePose::from_snapshot(session.snapshot(), &SpinAngles::default());
    let mut camera = Camera::new(CameraMode::Chase);
    camera.update(&pose, 0.0);
    let gpu = match gpu {
        Some(gpu) => gpu,
        None => GpuContext::headless(AdapterChoice::from_env())
            .context("choosing a graphics adapter")?,
    };
    let (settings, _) = render_settings(&gpu, gripline_config::QualityChoice::Low, 1);
    let world = SceneWorld {
        track_mesh: track,
        track_scene: loaded.track_scene.as_deref(),
        visual: &visual,
        car_model: model.as_ref(),
    };
    let scene = build_scene(&gpu, OFFSCREEN_FORMAT, &settings, &world);
    let [w, h] = PREVIEW_SIZE;
    let mut renderer = OffscreenRenderer::with_scene(gpu, scene, w, h)
        .context("preparing the offscreen renderer")?;
    let frame = FrameInput::new(&pose, &camera, &visual, w, h);
    renderer
        .render_frame(&frame)
        .context("rendering the preview")
}

/// Pictures by car name: drawn ones as textures, failed ones as their error in words.
#[derive(Default)]
pub struct CarPreviews {
    done: BTreeMap<String, Result<egui::TextureHandle, String>>,
    pending: Option<(String, Receiver<Result<RgbaImage, String>>)>,
    /// The window's graphics context, drawn with once known.
    gpu: Option<GpuContext>,
}

impl CarPreviews {
    /// Draws the pictures with `gpu` (the window's device and queue) from now on, rather
    /// than with a graphics context of their own.
    pub fn set_gpu(&mut self, gpu: GpuContext) {
        self.gpu = Some(gpu);
    }

    /// The picture of `name`, once drawn (`Err`: why it could not be).
    pub fn get(&self, name: &str) -> Option<&Result<egui::TextureHandle, String>> {
        self.done.get(name)
    }

    /// Starts drawing `name` if it is neither drawn nor being drawn (one at a time), and
    /// keeps a finished picture as a texture of `ctx`. Whether a drawing is in flight.
    pub fn poll(&mut self, ctx: &egui::Context, name: &str) -> bool {
        if let Some((drawing, rx)) = &self.pending {
            let result = match rx.try_recv() {
                Ok(r) => r,
                Err(TryRecvError::Empty) => return true,
                Err(TryRecvError::Disconnected) => Err("the preview thread stopped".to_owned()),
            };
            let texture = result.map(|img| {
                let size = [img.width as usize, img.height as usize];
                let image = egui::ColorImage::from_rgba_unmultiplied(size, &img.data);
                ctx.load_texture(
                    format!("car-preview-{drawing}"),
                    image,
                    egui::TextureOptions::LINEAR,
                )
            });
            self.done.insert(drawing.clone(), texture);
            self.pending = None;
        }
        if self.done.contains_key(name) || name.is_empty() {
            return false;
        }
        let (tx, rx) = std::sync::mpsc::channel();
        let owned = name.to_owned();
        let gpu = self.gpu.clone();
        let spawned = std::thread::Builder::new()
            .name("car-preview".into())
            .spawn(move || {
                let result = render_preview(&owned, gpu).map_err(|e| format!("{e:#}"));
                let _ = tx.send(result);
            });
        match spawned {
            Ok(_) => {
                self.pending = Some((name.to_owned(), rx));
                true
            }
            Err(e) => {
                let text = format!("the preview thread could not start: {e}");
                self.done.insert(name.to_owned(), Err(text));
                false
            }
        }
    }

    /// Waits for the drawing in flight, if any (tests).
    #[cfg(test)]
    pub fn wait(&mut self, ctx: &egui::Context) {
        if let Some((drawing, _)) = &self.pending {
            let drawing = drawing.clone();
            while self.poll(ctx, &drawing) {
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
        }
    }
}

/// The picture of the `selected` car, "drawing…" while it is drawn, or why it cannot be.
pub fn car_preview(ui: &mut Ui, selected: &str, previews: &mut CarPreviews) {
    if previews.poll(ui.ctx(), selected) {
        ui.ctx()
            .request_repaint_after(std::time::Duration::from_millis(100));
    }
    match previews.get(selected) {
        Some(Ok(texture)) => {
            let [w, h] = PREVIEW_SIZE;
            #[allow(clippy::cast_precision_loss)]
            let size = egui::vec2(w as f32, h as f32);
            ui.image((texture.id(), size));
        }
        Some(Err(e)) => {
            ui.label(RichText::new(format!("No picture: {e}")).color(Color32::LIGHT_RED));
        }
        None => {
            ui.label(RichText::new("drawing the car…").weak());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A car that does not load has no picture, and says why.
    #[test]
    fn a_car_that_does_not_load_has_its_error_for_a_picture() {
        let ctx = egui::Context::default();
        let mut previews = CarPreviews::default();
        assert!(previews.poll(&ctx, "no-such-car"));
        previews.wait(&ctx);
        let err = previews.get("no-such-car").expect("done").as_ref().err();
        assert!(err.is_some_and(|e| e.contains("no-such-car")), "{err:?}");
    }

    /// The shipped Corvette is drawn: a 320x180 picture with more than one colour in it.
    #[test]
    fn the_corvette_is_drawn() {
        let t = std::time::Instant::now();
        let img = render_preview("corvette-c5", None).expect("drawn");
        assert_eq!([img.width, img.height], PREVIEW_SIZE);
        let first = &img.data[0..4];
        assert!(img.data.chunks(4).any(|p| p != first));
        eprintln!("preview in {:?}", t.elapsed());
    }

    /// The pictures draw with a context they are given (the window's), which stays usable:
    /// two cars on one device.
    #[test]
    fn pictures_draw_with_the_context_they_are_given() {
        let gpu = GpuContext::headless(AdapterChoice::from_env()).expect("an adapter");
        for name in ["corvette-c5", "hatchback-fwd"] {
            let img = render_preview(name, Some(gpu.clone())).expect("drawn");
            assert_eq!([img.width, img.height], PREVIEW_SIZE);
            let first = &img.data[0..4];
            assert!(img.data.chunks(4).any(|p| p != first), "{name}");
        }
    }
}

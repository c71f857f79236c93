//! The renderer's world for a car and track, built one way for the window and for
//! `gripline render`: the scene renderer with the track's ground, its imported TORCS scenery
//! where it has one (or the generated ground and roadside furniture), the car, and the
//! settings of the user's quality tier (sky, shadows, MSAA, internal resolution), and the
//! car's own model where it has one.
//!
//! The window builds it into its surface's format (`window/graphics.rs`), `gripline render`
//! into an offscreen texture (`render_frame.rs`); the same car, track, camera and tier
//! therefore give the same picture.

use gripline_config::QualityChoice;
use gripline_physics::track::TrackMesh;
use gripline_render::{
    CarModel, GpuContext, QualityTier, RenderSettings, SceneRenderer, VehicleVisual,
};
use gripline_torcs::track::scene_file::TrackScene;

/// What the renderer draws of a car and track.
#[derive(Clone, Copy, Debug)]
pub struct SceneWorld<'a> {
    /// The track's ground (its objects and, without scenery, the generated roadside).
    pub track_mesh: &'a TrackMesh,
    /// The imported track's textured scenery, drawn in place of the generated ground.
    pub track_scene: Option<&'a TrackScene>,
    /// The car's body and wheels.
    pub visual: &'a VehicleVisual,
    /// The car's own model, drawn in place of the procedural body
    /// ([`crate::car_model_load`]).
    pub car_model: Option<&'a CarModel>,
}

/// The tier the adapter of `gpu` gets automatically.
pub fn automatic_quality(gpu: &GpuContext) -> QualityTier {
    QualityTier::for_adapter(gpu.adapter.get_info().device_type)
}

/// The renderer's settings for the user's quality `choice` and MSAA on `gpu`, and the tier.
pub fn render_settings(
    gpu: &GpuContext,
    choice: QualityChoice,
    msaa_samples: u32,
) -> (RenderSettings, QualityTier) {
    let tier = match choice {
        QualityChoice::Automatic => automatic_quality(gpu),
        QualityChoice::Low => QualityTier::Low,
        QualityChoice::Medium => QualityTier::Medium,
        QualityChoice::High => QualityTier::High,
    };
    (tier.settings(msaa_samples), tier)
}

/// The scene renderer of `world` with `settings`, rendering into targets of `format`.
pub fn build_scene(
    gpu: &GpuContext,
    format: wgpu::TextureFormat,
    settings: &RenderSettings,
    world: &SceneWorld<'_>,
) -> SceneRenderer {
    let mut scene = SceneRenderer::new(gpu, format, settings, world.track_mesh, world.visual);
    scene.set_track_scene(world.track_scene);
    scene.set_car_model(world.car_model);
    scene
}

/// What `scene` draws of the car of `world`, in words: its model with triangles, textures
/// and levels of detail, or the procedural body.
pub fn describe_car(scene: &SceneRenderer, world: &SceneWorld<'_>) -> String {
    match world.car_model {
        Some(model) if scene.draws_car_model() => model.summary(),
        Some(model) => format!(
            "{}: nothing to draw; procedural body",
            model.source.display()
        ),
        None => "procedural body".to_owned(),
    }
}

/// What `scene` draws of `world`, in words: the scenery file with its triangles and
/// textures, or the generated ground with its roadside.
pub fn describe(scene: &SceneRenderer, world: &SceneWorld<'_>) -> String {
    match (scene.track_scene(), world.track_scene) {
        (Some(_), Some(s)) => format!(
            "scenery {} ({} triangles, {} textures)",
            s.source.display(),
            s.triangle_count(),
            s.textures.len()
        ),
        _ => "the generated ground and roadside".to_owned(),
    }
}

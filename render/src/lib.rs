//! # gripline-render
//!
//! The renderer of Gripline (`docs/rendering.md`): wgpu, drawing the track, the car and its
//! wheels from interpolated physics snapshots, with several cameras, and an offscreen mode
//! that writes PNG frames so tests can check pictures on a software adapter (Mesa lavapipe).
//! The application runs the egui UI; [`ui_painter`] paints it on top of the resolved frame.
//!
//! - [`GpuContext`] ([`gpu`]): adapter and device, for a window surface or headless, from
//!   an [`AdapterChoice`] ([`adapter_choice`]; `GRIPLINE_ADAPTER=software` picks lavapipe).
//! - [`SceneRenderer`] ([`scene`]): sky, sun and shadow map, track surfaces and markings,
//!   cones and boards, the roadside, the car with spinning, steering, travelling wheels; MSAA
//!   resolved into the caller's target; it draws a [`FrameInput`] ([`frame_input`]), its
//!   static meshes are vertex buffers drawn whole or by visible tiles.
//! - [`track_geometry`]: the track's triangles; [`barrier_geometry`]: its barriers, drawn
//!   from the physics polylines; [`roadside_placement`]: braking boards, trees and buildings
//!   placed by the track's rules, and [`roadside`]: their triangles (one tiled mesh with the
//!   barriers, left out over an imported scene).
//! - [`CarModel`] ([`car_model`]): a car drawn from a model file (AC3D / TORCS `.acc` with
//!   its levels of detail, glTF), with textured wheels ([`car_model_gpu`]) and brake lamps
//!   ([`SceneRenderer::set_car_model`]).
//! - [`VehicleVisual`] ([`vehicle_visual`]) sizes the generated car from `VehicleParams`;
//!   [`VehiclePose`] ([`pose`]) is what is drawn of a `Snapshot`.
//! - [`Camera`], [`CameraMode`] ([`camera`]): chase, cockpit, bonnet, orbit; camera-relative
//!   `f64` maths so nothing jitters far from the origin.
//! - [`offscreen`]: [`OffscreenRenderer`], [`render_frame_png`]; [`readback`]: the
//!   texture-to-CPU copy they and the window's [`frame_capture`] (screenshots) share, into an
//!   [`RgbaImage`] ([`rgba_image`]).
//! - [`settings`]: [`RenderSettings`] and the [`QualityTier`]s chosen for the adapter;
//!   [`upscale`]: drawing at a lower internal resolution; [`tiles`]: frustum culling of the
//!   track in 100 m tiles.
//! - [`track_scene`]: an imported (TORCS) track's textured scene, drawn in place of the
//!   generated ground ([`SceneRenderer::set_track_scene`]); [`scene_textures`]: its textures
//!   with their mipmaps.
//! - [`window_surface`]: a window's surface and every outcome of acquiring a frame (the window
//!   itself behind [`window_surface::SurfaceWindow`]); [`ui_painter`]: the egui HUD and menus
//!   painted over the frame, by egui-wgpu on a GPU and by [`software_ui_painter`] on a
//!   software adapter.
//!
//! ## Use in a window
//!
//! ```no_run
//! # fn demo(
//! #     instance: wgpu::Instance,
//! #     surface: wgpu::Surface<'static>,
//! #     track: &gripline_physics::track::TrackMesh,
//! #     params: &gripline_physics::vehicle::VehicleParams,
//! #     snapshot: &gripline_physics::vehicle::Snapshot,
//! #     frame: &wgpu::SurfaceTexture,
//! # ) -> Result<(), gripline_render::RenderError> {
//! use gripline_render::*;
//! let gpu = GpuContext::with_instance(instance, Some(&surface), AdapterChoice::from_env())?;
//! let format = wgpu::TextureFormat::Bgra8UnormSrgb; // the surface's configured format
//! let visual = VehicleVisual::from_params(params);
//! let mut scene = SceneRenderer::new(&gpu, format, &RenderSettings::default(), track, &visual);
//! let mut camera = Camera::new(CameraMode::Chase);
//! let mut spin = SpinAngles::default();
//! // Every frame: interpolate the snapshot, advance the wheels and the camera, record.
//! let dt_s = 1.0 / 60.0;
//! spin.advance(snapshot, dt_s);
//! let pose = VehiclePose::from_snapshot(snapshot, &spin);
//! camera.update(&pose, dt_s);
//! let view = frame.texture.create_view(&wgpu::TextureViewDescriptor::default());
//! let input = FrameInput::new(&pose, &camera, &visual, frame.texture.width(), frame.texture.height());
//! let mut encoder = gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
//! scene.render(&mut encoder, &view, &input);
//! // ... then egui-wgpu into the same `view` with LoadOp::Load, submit, present.
//! gpu.queue.submit([encoder.finish()]);
//! # Ok(()) }
//! ```
//!
//! ## Offscreen
//!
//! [`render_frame_png`] renders one frame to a PNG file on a headless adapter; place the car
//! with [`VehiclePose::on_centre_line`] (a station in metres) or [`VehiclePose::at_rest`].
//! [`OffscreenRenderer`] keeps the device and the track on the GPU for many frames.
//!
//! Coordinates: world right-handed, z up; body ISO 8855 (x forward, y left, z up, origin at
//! the CG). Colours are linear inside the shaders; targets are expected in an sRGB format
//! (other formats get the sRGB curve in the shader).

pub mod adapter_choice;
pub mod barrier_geometry;
pub mod camera;
pub mod car_mesh;
pub mod car_model;
mod car_model_gltf;
pub mod car_model_gpu;
pub mod error;
pub mod frame_capture;
pub mod frame_input;
pub mod gpu;
mod gpu_mesh;
pub mod mesh;
pub mod offscreen;
pub mod pose;
mod procedural_car_gpu;
pub mod readback;
pub mod rgba_image;
pub mod roadside;
pub mod roadside_placement;
pub mod scene;
mod scene_pipelines;
pub mod scene_textures;
pub mod settings;
mod shadow_light;
pub mod software_ui_painter;
mod texture_binding;
pub mod tiles;
pub mod track_geometry;
pub mod track_scene;
pub mod ui_painter;
pub mod upscale;
pub mod vehicle_visual;
pub mod window_surface;

pub use adapter_choice::AdapterChoice;
pub use camera::{Camera, CameraMode, CameraView};
pub use car_model::{CarModel, CarModelError};
pub use error::RenderError;
pub use frame_input::FrameInput;
pub use gpu::GpuContext;
pub use offscreen::{OffscreenRenderer, render_frame_png};
pub use pose::{SpinAngles, VehiclePose, WheelPose};
pub use rgba_image::RgbaImage;
pub use scene::SceneRenderer;
pub use settings::{LOW_TIER_DRAW_BATCH_VERTICES, QualityTier, RenderSettings};
pub use vehicle_visual::{BodyStyle, VehicleVisual};

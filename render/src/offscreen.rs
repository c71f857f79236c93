//! Offscreen rendering: one frame into a texture, read back to an RGBA image, written as PNG.
//! Used by `gripline render` and by the golden-image tests on a software adapter.

use std::path::Path;

use gripline_physics::track::TrackMesh;
use gripline_physics::vehicle::VehicleParams;

use crate::adapter_choice::AdapterChoice;
use crate::camera::Camera;
use crate::error::RenderError;
use crate::frame_input::FrameInput;
use crate::gpu::GpuContext;
use crate::pose::VehiclePose;
use crate::readback::{read_image, readback_buffer, record_copy};
use crate::rgba_image::RgbaImage;
use crate::scene::SceneRenderer;
use crate::settings::RenderSettings;
use crate::vehicle_visual::VehicleVisual;

/// The colour format of offscreen frames.
pub const OFFSCREEN_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

/// A scene renderer with its own colour texture and read-back buffer.
#[derive(Debug)]
pub struct OffscreenRenderer {
    gpu: GpuContext,
    scene: SceneRenderer,
    width: u32,
    height: u32,
    texture: wgpu::Texture,
    view: wgpu::TextureView,
    readback: wgpu::Buffer,
}

impl OffscreenRenderer {
    /// An offscreen renderer of `width` x `height` frames of `track` and the car `visual`,
    /// in [`OFFSCREEN_FORMAT`].
    ///
    /// # Errors
    /// [`RenderError::BadSize`] for a zero size or one beyond the device's limit.
    pub fn new(
        gpu: GpuContext,
        settings: &RenderSettings,
        track: &TrackMesh,
        visual: &VehicleVisual,
        width: u32,
        height: u32,
    ) -> Result<Self, RenderError> {
        Self::with_format(
            gpu,
            settings,
            track,
            visual,
            width,
            height,
            OFFSCREEN_FORMAT,
        )
    }

    /// As [`OffscreenRenderer::new`], rendering into `format`: `Rgba8UnormSrgb` or
    /// `Rgba8Unorm` (a target without hardware sRGB encoding, as some window surfaces are;
    /// the shaders then encode sRGB themselves, so both give the same picture).
    ///
    /// # Errors
    /// As [`OffscreenRenderer::new`], and [`RenderError::Invalid`] for another format.
    pub fn with_format(
        gpu: GpuContext,
        settings: &RenderSettings,
        track: &TrackMesh,
        visual: &VehicleVisual,
        width: u32,
        height: u32,
        format: wgpu::TextureFormat,
    ) -> Result<Self, RenderError> {
        check_format(format)?;
        check_size(&gpu.device, width, height)?;
        let scene = SceneRenderer::new(&gpu, format, settings, track, visual);
        Self::with_scene(gpu, scene, width, height)
    }

    /// An offscreen renderer of `width` x `height` frames of a scene renderer built by the
    /// caller (the app builds the window's and `gripline render`'s the same way), rendering
    /// into its target format.
    ///
    /// # Errors
    /// As [`OffscreenRenderer::with_format`], for the scene's target format.
    pub fn with_scene(
        gpu: GpuContext,
        scene: SceneRenderer,
        width: u32,
        height: u32,
    ) -> Result<Self, RenderError> {
        check_size(&gpu.device, width, height)?;
        let format = scene.target_format();
        check_format(format)?;
        let texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("offscreen colour"),
            size: wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        let readback = readback_buffer(&gpu.device, width, height);
        Ok(Self {
            gpu,
            scene,
            width,
            height,
            texture,
            view,
            readback,
        })
    }

    /// The GPU context.
    pub fn gpu(&self) -> &GpuContext {
        &self.gpu
    }

    /// The scene renderer.
    pub fn scene(&self) -> &SceneRenderer {
        &self.scene
    }

    /// Renders `pose` seen by `camera` and reads the frame back.
    ///
    /// # Errors
    /// [`RenderError::Readback`] when the GPU does not finish or the buffer cannot be mapped.
    pub fn render(
        &mut self,
        pose: &VehiclePose,
        camera: &Camera,
    ) -> Result<RgbaImage, RenderError> {
        let frame = FrameInput::new(pose, camera, self.scene.visual(), self.width, self.height);
        self.render_frame(&frame)
    }

    /// Renders `frame` (its size is replaced by this renderer's) and reads it back.
    ///
    /// # Errors
    /// As [`OffscreenRenderer::render`].
    pub fn render_frame(&mut self, frame: &FrameInput) -> Result<RgbaImage, RenderError> {
        let frame = FrameInput {
            width: self.width,
            height: self.height,
            ..*frame
        };
        let mut encoder = self
            .gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("offscreen frame"),
            });
        self.scene.render(&mut encoder, &self.view, &frame);
        record_copy(
            &mut encoder,
            &self.texture,
            &self.readback,
            self.width,
            self.height,
        );
        let submission = self.gpu.queue.submit([encoder.finish()]);
        self.read_back(submission)
    }

    fn read_back(&self, submission: wgpu::SubmissionIndex) -> Result<RgbaImage, RenderError> {
        read_image(
            &self.gpu.device,
            &self.readback,
            Some(submission),
            self.width,
            self.height,
            false,
        )
    }

    /// The colour texture frames are rendered into.
    pub fn texture(&self) -> &wgpu::Texture {
        &self.texture
    }

    /// A view of [`OffscreenRenderer::texture`], for recording frames by hand (benchmarks).
    pub fn target_view(&self) -> &wgpu::TextureView {
        &self.view
    }

    /// The scene renderer, for recording frames by hand.
    pub fn scene_mut(&mut self) -> &mut SceneRenderer {
        &mut self.scene
    }
}

pub use crate::readback::padded_bytes_per_row;

/// Offscreen frames are `Rgba8UnormSrgb` or `Rgba8Unorm` (what [`RgbaImage`] reads back).
fn check_format(format: wgpu::TextureFormat) -> Result<(), RenderError> {
    if matches!(
        format,
        wgpu::TextureFormat::Rgba8UnormSrgb | wgpu::TextureFormat::Rgba8Unorm
    ) {
        Ok(())
    } else {
        Err(RenderError::Invalid(format!(
            "offscreen frames are Rgba8UnormSrgb or Rgba8Unorm, not {format:?}"
        )))
    }
}

/// Renders one frame of the car `params` on `track` at `pose`, seen by `camera`, on a
/// headless adapter chosen by `GRIPLINE_ADAPTER`, and writes it to `path` as PNG.
///
/// # Errors
/// [`RenderError::NoAdapter`] without any adapter, [`RenderError::BadSize`],
/// [`RenderError::Readback`], [`RenderError::Png`].
pub fn render_frame_png(
    track: &TrackMesh,
    params: &VehicleParams,
    pose: &VehiclePose,
    camera: &Camera,
    width: u32,
    height: u32,
    path: &Path,
) -> Result<RgbaImage, RenderError> {
    let gpu = GpuContext::headless(AdapterChoice::from_env())?;
    let visual = VehicleVisual::from_params(params);
    let mut renderer = OffscreenRenderer::new(
        gpu,
        &RenderSettings::default(),
        track,
        &visual,
        width,
        height,
    )?;
    let image = renderer.render(pose, camera)?;
    image.write_png(path)?;
    Ok(image)
}
/// Checks a frame size against the device.
///
/// # Errors
/// [`RenderError::BadSize`] for a zero side or one beyond the device's limit.
pub fn check_size(device: &wgpu::Device, width: u32, height: u32) -> Result<(), RenderError> {
    let max = device.limits().max_texture_dimension_2d;
    if width == 0 || height == 0 || width > max || height > max {
        return Err(RenderError::BadSize { width, height, max });
    }
    Ok(())
}

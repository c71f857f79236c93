//! What one frame shows: the car's pose, the camera's view, the cockpit and the ghost, and
//! the target's size; the input of [`crate::SceneRenderer::render`].

use crate::camera::{Camera, CameraMode, CameraView};
use crate::pose::VehiclePose;
use crate::vehicle_visual::VehicleVisual;

/// What one frame shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameInput {
    /// The car, already interpolated between physics snapshots.
    pub pose: VehiclePose,
    /// Where the camera is.
    pub view: CameraView,
    /// Whether to draw the cockpit (dashboard, pillars, steering wheel).
    pub show_cockpit: bool,
    /// A ghost of the same car (the best lap), drawn see-through, if any.
    pub ghost: Option<VehiclePose>,
    /// Size of the target (pixels); the renderer resizes its textures to it.
    pub width: u32,
    /// Height of the target (pixels).
    pub height: u32,
}

impl FrameInput {
    /// A frame of `pose` seen by `camera` (the cockpit drawn in the cockpit view), for a
    /// `width` x `height` target.
    pub fn new(
        pose: &VehiclePose,
        camera: &Camera,
        visual: &VehicleVisual,
        width: u32,
        height: u32,
    ) -> Self {
        Self {
            pose: *pose,
            view: camera.view(pose, visual),
            show_cockpit: camera.mode == CameraMode::Cockpit,
            ghost: None,
            width,
            height,
        }
    }

    /// The same frame with a ghost car at `pose`.
    #[must_use]
    pub fn with_ghost(mut self, pose: Option<VehiclePose>) -> Self {
        self.ghost = pose;
        self
    }
}

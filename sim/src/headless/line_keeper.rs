//! Keeping the car on a straight or curved line with preview steering, for the procedures
//! that drive a course (straights, lane changes, skidpads).

use anyhow::Result;
use glam::DVec2;
use gripline_physics::driver::{Path, PreviewSteering};

use super::run::Run;

/// Keeps the car on a straight or curved line with preview steering.
pub struct LineKeeper {
    path: Path,
    steering: PreviewSteering,
    hint: Option<usize>,
}

impl LineKeeper {
    /// Follows `path`.
    pub fn new(path: Path) -> Self {
        Self {
            path,
            steering: PreviewSteering::default(),
            hint: None,
        }
    }

    /// The same keeper looking `preview_time_s` ahead (shorter for tight manoeuvres).
    #[must_use]
    pub fn with_preview(mut self, preview_time_s: f64) -> Self {
        self.steering.preview_time_s = preview_time_s;
        self.steering.min_preview_m = self.steering.min_preview_m.min(4.0);
        self
    }

    /// A straight line from `start` along `heading` for `length` metres.
    ///
    /// # Errors
    /// Never for a finite start and heading and a positive length.
    pub fn straight(start: DVec2, heading: f64, length: f64) -> Result<Self> {
        let direction = DVec2::new(heading.cos(), heading.sin());
        Ok(Self::new(Path::new(
            &[start - direction * 50.0, start + direction * length],
            false,
        )?))
    }

    /// Steering-wheel angle for the car's current state; also returns the car's lateral
    /// offset from the line (m, positive left).
    pub fn steer(&mut self, sim: &Run) -> (f64, f64) {
        let rear = sim.rear_axle();
        let projection = match self.hint {
            Some(hint) => self.path.project_near(rear, hint, 8),
            None => self.path.project(rear),
        };
        self.hint = Some(projection.segment);
        let wheel = self.steering.steer(
            &self.path,
            projection.station,
            rear,
            sim.yaw(),
            sim.forward_speed(),
            &sim.steering_geometry(),
        );
        (wheel, projection.lateral_offset)
    }
}

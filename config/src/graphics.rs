//! Window, presentation and image quality.

use gripline_physics::validate::{Validate, Validator};
use serde::{Deserialize, Serialize};

use crate::sanitize::{Sanitize, Sanitizer};

/// Smallest window size accepted (pixels).
pub const MIN_SIZE_PX: u32 = 320;
/// Largest window size accepted (pixels; wgpu's usual texture limit).
pub const MAX_SIZE_PX: u32 = 16384;
/// Narrowest and widest vertical field of view accepted (deg).
pub const FOV_RANGE_DEG: (f64, f64) = (10.0, 120.0);
/// Frames the CPU may prepare ahead of the display (wgpu's `desired_maximum_frame_latency`).
pub const FRAME_LATENCY_RANGE: (u32, u32) = (1, 3);
/// Multisample counts every wgpu backend supports for a colour target.
pub const MSAA_SAMPLES: [u32; 4] = [1, 2, 4, 8];

/// How frames reach the display.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PresentMode {
    /// Wait for vertical blank (`Fifo`): no tearing, supported everywhere.
    #[default]
    Vsync,
    /// Present at once (`Immediate`): lowest latency, may tear; falls back to `Vsync`
    /// where unsupported.
    NoVsync,
    /// Newest frame at vertical blank (`Mailbox`): no tearing, low latency; falls back to
    /// `Vsync` where unsupported.
    Mailbox,
}

/// Windowed or full screen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Fullscreen {
    /// A window of `width` x `height`.
    #[default]
    Windowed,
    /// A borderless window covering the current monitor at its own resolution.
    Borderless,
    /// Exclusive full screen at the video mode closest to `width` x `height`.
    Exclusive,
}

/// How much the renderer draws (the renderer's quality tiers).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum QualityChoice {
    /// Chosen for the graphics adapter: Low on a software renderer, Medium on an integrated
    /// GPU, High on a discrete one.
    #[default]
    Automatic,
    /// No MSAA, a small shadow map, the scene at half resolution: for software renderers.
    Low,
    /// Up to 2x MSAA, full resolution.
    Medium,
    /// The MSAA chosen below, the largest shadow map.
    High,
}

/// Where the camera is when a session starts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CameraView {
    /// Behind and above the car.
    #[default]
    Chase,
    /// The driver's eyes.
    Cockpit,
    /// On the bonnet.
    Bonnet,
}

/// Graphics settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GraphicsSettings {
    /// Window width, or the exclusive full-screen mode's (pixels).
    pub width: u32,
    /// Window height, or the exclusive full-screen mode's (pixels).
    pub height: u32,
    /// Windowed or full screen.
    pub fullscreen: Fullscreen,
    /// How frames reach the display.
    pub present_mode: PresentMode,
    /// Frames the CPU may prepare ahead of the display (1 = lowest latency, 3 = smoothest).
    pub frame_latency: u32,
    /// Vertical field of view (deg).
    pub fov_deg: f64,
    /// Multisample anti-aliasing samples per pixel: 1 (off), 2, 4 or 8 (the quality tier's
    /// ceiling applies).
    pub msaa_samples: u32,
    /// The renderer's quality tier.
    pub quality: QualityChoice,
    /// Camera at the start of a session.
    pub camera: CameraView,
}

impl Default for GraphicsSettings {
    /// 1280 x 720 in a window, vsync, two frames in flight, 60° vertical (about 90°
    /// horizontal at 16:9, a chase-camera view), 4x MSAA, the quality tier for the adapter.
    fn default() -> Self {
        Self {
            width: 1280,
            height: 720,
            fullscreen: Fullscreen::Windowed,
            present_mode: PresentMode::Vsync,
            frame_latency: 2,
            fov_deg: 60.0,
            msaa_samples: 4,
            quality: QualityChoice::Automatic,
            camera: CameraView::Chase,
        }
    }
}

impl Validate for GraphicsSettings {
    fn validate(&self, v: &mut Validator) {
        for (field, value) in [("width", self.width), ("height", self.height)] {
            v.in_range(
                field,
                f64::from(value),
                f64::from(MIN_SIZE_PX),
                f64::from(MAX_SIZE_PX),
            );
        }
        v.in_range(
            "frame_latency",
            f64::from(self.frame_latency),
            f64::from(FRAME_LATENCY_RANGE.0),
            f64::from(FRAME_LATENCY_RANGE.1),
        );
        v.in_range("fov_deg", self.fov_deg, FOV_RANGE_DEG.0, FOV_RANGE_DEG.1);
        v.require(
            MSAA_SAMPLES.contains(&self.msaa_samples),
            "msaa_samples",
            "must be 1, 2, 4 or 8",
        );
    }
}

impl Sanitize for GraphicsSettings {
    fn sanitize(&mut self, s: &mut Sanitizer) {
        let d = Self::default();
        s.range_u32("width", &mut self.width, MIN_SIZE_PX, MAX_SIZE_PX);
        s.range_u32("height", &mut self.height, MIN_SIZE_PX, MAX_SIZE_PX);
        s.range_u32(
            "frame_latency",
            &mut self.frame_latency,
            FRAME_LATENCY_RANGE.0,
            FRAME_LATENCY_RANGE.1,
        );
        s.range(
            "fov_deg",
            &mut self.fov_deg,
            FOV_RANGE_DEG.0,
            FOV_RANGE_DEG.1,
            d.fov_deg,
        );
        if !MSAA_SAMPLES.contains(&self.msaa_samples) {
            // The largest supported count not above the one asked for (1 at least).
            let new = MSAA_SAMPLES
                .iter()
                .copied()
                .filter(|&n| n <= self.msaa_samples)
                .max()
                .unwrap_or(1);
            s.changed(
                "msaa_samples",
                format!("{} is not 1, 2, 4 or 8; set to {new}", self.msaa_samples),
            );
            self.msaa_samples = new;
        }
        s.ensure_valid("", self);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid() {
        assert!(GraphicsSettings::default().check().is_ok());
    }

    #[test]
    fn msaa_rounds_down_to_a_supported_count() {
        for (asked, got) in [(0, 1), (3, 2), (5, 4), (16, 8), (8, 8)] {
            let mut g = GraphicsSettings {
                msaa_samples: asked,
                ..GraphicsSettings::default()
            };
            let m = g.sanitize_all();
            assert_eq!(g.msaa_samples, got, "{asked}");
            assert_eq!(m.len(), usize::from(asked != got));
        }
    }
}

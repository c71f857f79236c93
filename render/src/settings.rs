//! Renderer settings chosen by the user or the caller: anti-aliasing, shadows.

/// Settings of a [`crate::SceneRenderer`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RenderSettings {
    /// Multisample anti-aliasing samples per pixel: 1 (off), 2 or 4. Other values, and counts
    /// the adapter cannot do for the target format, fall back to the nearest supported lower
    /// count.
    pub msaa_samples: u32,
    /// Whether the sun casts shadows (one shadow map following the car).
    pub shadows: bool,
    /// Side of the square shadow map (texels), clamped to 256..=4096.
    pub shadow_map_size: u32,
    /// Internal resolution as a fraction of the target's sides (0.25 to 1): below 1 the scene
    /// is drawn smaller and stretched over the target (see [`crate::upscale`]).
    pub render_scale: f32,
    /// Fine procedural surface detail (tarmac grain, grass blades, gravel) and the 3x3 shadow
    /// filter; without them surfaces keep their coarse variation and shadows a 2x2 filter.
    pub fine_detail: bool,
    /// Distance (m) within which repeated roadside objects (trees) are drawn in full; beyond
    /// it each is a few triangles (see [`crate::roadside::Detail`]).
    pub detail_distance_m: f32,
    /// Most vertices (or indices) one draw of the track's big meshes takes; larger visible
    /// ranges are drawn in several draws. Mesa's llvmpipe walks all of a draw's vertices
    /// again each time it flushes a few clipped triangles, so near the camera a big draw
    /// costs it the square of its size; small draws avoid that. `u32::MAX` for GPUs.
    pub draw_batch_vertices: u32,
}

impl Default for RenderSettings {
    fn default() -> Self {
        Self {
            msaa_samples: 4,
            shadows: true,
            shadow_map_size: 2048,
            render_scale: 1.0,
            fine_detail: true,
            detail_distance_m: 1000.0,
            draw_batch_vertices: u32::MAX,
        }
    }
}

/// The Low tier's [`RenderSettings::draw_batch_vertices`]: on lavapipe at 1280x720 batches
/// of 192 took a frame of the circuit from 37 to 33 ms (96 and 384 were slower).
pub const LOW_TIER_DRAW_BATCH_VERTICES: u32 = 192;

/// How much the renderer draws: a preset of [`RenderSettings`] for the adapter's speed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QualityTier {
    /// For software rasterisers (Mesa lavapipe/llvmpipe) and the weakest GPUs: no MSAA, a
    /// 1024-texel shadow map with a 2x2 filter, no fine surface detail, the scene drawn at
    /// half resolution and stretched, big meshes drawn in batches of 192 vertices.
    Low,
    /// Integrated GPUs: up to 2x MSAA, a 2048-texel shadow map, full resolution.
    Medium,
    /// Discrete GPUs: the MSAA asked for (up to 8x), a 4096-texel shadow map, full resolution.
    High,
}

impl QualityTier {
    /// Every tier, lowest first.
    pub const ALL: [QualityTier; 3] = [QualityTier::Low, QualityTier::Medium, QualityTier::High];

    /// The tier for an adapter of `device_type`: software (CPU) adapters get
    /// [`QualityTier::Low`], integrated GPUs [`QualityTier::Medium`], the rest
    /// [`QualityTier::High`].
    pub fn for_adapter(device_type: wgpu::DeviceType) -> Self {
        match device_type {
            wgpu::DeviceType::Cpu => QualityTier::Low,
            wgpu::DeviceType::IntegratedGpu | wgpu::DeviceType::Other => QualityTier::Medium,
            wgpu::DeviceType::DiscreteGpu | wgpu::DeviceType::VirtualGpu => QualityTier::High,
        }
    }

    /// The settings of this tier, with the user's MSAA choice `msaa_samples` as the ceiling.
    pub fn settings(self, msaa_samples: u32) -> RenderSettings {
        let (msaa_cap, shadow_map_size, render_scale, detail_distance_m) = match self {
            QualityTier::Low => (1, 1024, 0.5, 150.0),
            QualityTier::Medium => (2, 2048, 1.0, 400.0),
            QualityTier::High => (8, 4096, 1.0, 1000.0),
        };
        RenderSettings {
            msaa_samples: msaa_samples.clamp(1, msaa_cap),
            shadows: true,
            shadow_map_size,
            render_scale,
            fine_detail: self != QualityTier::Low,
            detail_distance_m,
            draw_batch_vertices: if self == QualityTier::Low {
                LOW_TIER_DRAW_BATCH_VERTICES
            } else {
                u32::MAX
            },
        }
    }

    /// The tier's name as the settings screen shows it.
    pub fn name(self) -> &'static str {
        match self {
            QualityTier::Low => "Low",
            QualityTier::Medium => "Medium",
            QualityTier::High => "High",
        }
    }
}

impl RenderSettings {
    /// The shadow map side actually used.
    pub fn shadow_map_size_clamped(&self) -> u32 {
        self.shadow_map_size.clamp(256, 4096)
    }
}

/// The sample count to use: the largest of 4, 2, 1 that is at most `requested` and that
/// `supported` accepts. Always at least 1.
pub fn choose_msaa_samples(requested: u32, supported: impl Fn(u32) -> bool) -> u32 {
    [4, 2, 1]
        .into_iter()
        .find(|&n| n <= requested.max(1) && (n == 1 || supported(n)))
        .unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiers_follow_the_adapter_and_cap_msaa() {
        assert_eq!(
            QualityTier::for_adapter(wgpu::DeviceType::Cpu),
            QualityTier::Low
        );
        assert_eq!(
            QualityTier::for_adapter(wgpu::DeviceType::DiscreteGpu),
            QualityTier::High
        );
        let low = QualityTier::Low.settings(4);
        assert_eq!(low.msaa_samples, 1);
        assert!(low.render_scale < 1.0);
        assert!(low.shadow_map_size_clamped() < QualityTier::High.settings(4).shadow_map_size);
        assert_eq!(QualityTier::Medium.settings(4).msaa_samples, 2);
        assert_eq!(QualityTier::High.settings(4).msaa_samples, 4);
        assert_eq!(QualityTier::High.settings(0).msaa_samples, 1);
        assert_eq!(low.draw_batch_vertices, LOW_TIER_DRAW_BATCH_VERTICES);
        assert_eq!(QualityTier::High.settings(4).draw_batch_vertices, u32::MAX);
    }

    #[test]
    fn msaa_falls_back_to_supported_counts() {
        assert_eq!(choose_msaa_samples(4, |_| true), 4);
        assert_eq!(choose_msaa_samples(8, |_| true), 4);
        assert_eq!(choose_msaa_samples(3, |_| true), 2);
        assert_eq!(choose_msaa_samples(4, |n| n == 2), 2);
        assert_eq!(choose_msaa_samples(4, |_| false), 1);
        assert_eq!(choose_msaa_samples(0, |_| true), 1);
        assert_eq!(choose_msaa_samples(1, |_| true), 1);
    }

    #[test]
    fn shadow_map_size_is_clamped() {
        let mut s = RenderSettings {
            shadow_map_size: 10,
            ..RenderSettings::default()
        };
        assert_eq!(s.shadow_map_size_clamped(), 256);
        s.shadow_map_size = 100_000;
        assert_eq!(s.shadow_map_size_clamped(), 4096);
    }
}

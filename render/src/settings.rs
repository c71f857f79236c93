//! Renderer settings chosen by the user or the caller: anti-aliasing, shadows.

/// Settings of a [`crate::SceneRenderer`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RenderSettings {
    /// Multisample anti-aliasing samples per pixel: 1 (off), 2 or 4. Other values, and counts
    /// the adapter cannot do for the target format, fall back to the nearest supported lower
    /// count.
    pub msaa_samples: u32,
    /// Whether the sun casts shadows (one shadow map following the car).
    pub shadows: bool,
    /// Side of the square shadow map (texels), clamped to 256..=4096.
    pub shadow_map_size: u32,
}

impl Default for RenderSettings {
    fn default() -> Self {
        Self {
            msaa_samples: 4,
            shadows: true,
            shadow_map_size: 2048,
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

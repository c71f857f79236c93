//! The pipeline's parameters ([`PipelineParams`]): the user's force-feedback settings for one
//! device, clamped so that the pipeline ([`crate::ffb::pipeline`]) stays bounded even with
//! unvalidated settings.

use crate::ffb::device_facts::FfbDeviceFacts;
use crate::settings::ffb_effects::FfbEffectSettings;
use crate::settings::ffb_settings::{FfbSettings, MAX_SMOOTHING_MS};

/// The pipeline's parameters, from [`FfbSettings`] and the device.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PipelineParams {
    /// User gain.
    pub gain: f64,
    /// Torque limit (N·m): the user's maximum, never above the device's peak.
    pub max_torque_nm: f64,
    /// Soft-clip knee as a fraction of `max_torque_nm` (1 = hard clip).
    pub knee: f64,
    /// Minimum force (N·m).
    pub min_force_nm: f64,
    /// Ramp width of the minimum force (N·m).
    pub min_force_ramp_nm: f64,
    /// Damping (N·m·s/rad).
    pub damping: f64,
    /// Friction (N·m).
    pub friction_nm: f64,
    /// Inertia (kg·m²).
    pub inertia: f64,
    /// Slew-rate limit (N·m/s).
    pub slew_nm_per_s: f64,
    /// The device's peak torque (N·m): the torque of level 1.
    pub device_peak_nm: f64,
    /// Reverse the device direction.
    pub invert: bool,
    /// Low-pass time constant of the car's torque (s; 0 = off).
    pub smoothing_s: f64,
    /// The effects' strengths.
    pub effects: FfbEffectSettings,
}

/// `x`, or `fallback` when `x` is not finite.
pub(crate) fn finite_or(x: f64, fallback: f64) -> f64 {
    if x.is_finite() { x } else { fallback }
}

impl PipelineParams {
    /// Parameters from the user's `settings` for the device described by `facts` (its peak
    /// torque and direction: see [`FfbDeviceFacts`], their one owner). Out-of-range values
    /// are clamped so that the pipeline stays bounded even with unvalidated settings.
    pub fn new(settings: &FfbSettings, facts: &FfbDeviceFacts) -> Self {
        let peak = finite_or(facts.peak_torque_nm, 1.0).clamp(0.1, 100.0);
        let max = finite_or(settings.max_torque_nm, 1.0).clamp(0.0, peak);
        Self {
            gain: finite_or(settings.gain, 0.0).clamp(0.0, 10.0),
            max_torque_nm: max,
            knee: finite_or(settings.soft_clip_knee, 1.0).clamp(0.1, 1.0),
            min_force_nm: finite_or(settings.min_force_nm, 0.0).clamp(0.0, 0.5 * max),
            min_force_ramp_nm: finite_or(settings.min_force_ramp_nm, 0.1).max(1e-6),
            damping: finite_or(settings.damping_nm_s_per_rad, 0.0).max(0.0),
            friction_nm: finite_or(settings.friction_nm, 0.0).max(0.0),
            inertia: finite_or(settings.inertia_kg_m2, 0.0).max(0.0),
            slew_nm_per_s: finite_or(settings.slew_limit_nm_per_s, 1000.0).max(0.0),
            device_peak_nm: peak,
            invert: facts.invert,
            smoothing_s: finite_or(settings.smoothing_ms, 0.0).clamp(0.0, MAX_SMOOTHING_MS)
                / 1000.0,
            effects: settings.effects,
        }
    }
}

//! Force-feedback settings the FFB integration tests share: a 5 N·m maximum with the
//! fade-in, soft clip and slew limit out of the way, so that torques can be read exactly.

use gripline_input::settings::ffb_settings::FfbSettings;

/// The user's maximum torque in these tests (N·m).
pub const MAX_NM: f64 = 5.0;

/// The settings (see the module docs).
pub fn exact_settings() -> FfbSettings {
    FfbSettings {
        max_torque_nm: MAX_NM,
        fade_in_s: 0.0,
        soft_clip_knee: 1.0,
        slew_limit_nm_per_s: 1.0e5,
        ..FfbSettings::default()
    }
}

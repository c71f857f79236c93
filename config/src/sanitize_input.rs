//! Repairs of the input and force-feedback settings (bindings, calibration, FFB), with the
//! same limits as their `Validate` checks.

use gripline_physics::validate::{Validate, Validator};

use crate::sanitize::{Sanitize, Sanitizer};
use gripline_input::settings::axis_calibration::{AxisCalibration, ResponseCurve};
use gripline_input::settings::bindings::{
    AxisBinding, AxisControl, Bindings, ButtonAction, ButtonBinding, DeviceLostPolicy,
    DigitalResponse, MAX_AXIS_BINDINGS, MAX_BUTTON_BINDINGS,
};
use gripline_input::settings::ffb_effects::{FfbEffectSettings, MAX_EFFECT_NM};
use gripline_input::settings::ffb_settings::{
    FfbDeviceSettings, FfbSettings, MAX_SMOOTHING_MS, MAX_WATCHDOG_MS, MIN_WATCHDOG_MS,
};
use gripline_input::settings::soft_lock::SoftLockSettings;

impl Sanitize for AxisCalibration {
    fn sanitize(&mut self, s: &mut Sanitizer) {
        if let Some(range) = self.raw_range
            && range.max <= range.min
        {
            s.changed(
                "raw_range",
                format!(
                    "max {} is not greater than min {}; the device's own range is used",
                    range.max, range.min
                ),
            );
            self.raw_range = None;
        }
        if let (Some(range), Some(centre)) = (self.raw_range, self.centre)
            && !(centre > range.min && centre < range.max)
        {
            s.changed(
                "centre",
                format!("{centre} is not inside raw_range; the middle of the range is used"),
            );
            self.centre = None;
        }
        s.range("dead_zone", &mut self.dead_zone, 0.0, 0.5, 0.0);
        s.range("saturation", &mut self.saturation, 0.0, 0.5, 0.0);
        if self.dead_zone + self.saturation >= 0.95 {
            let new = (0.94 - self.dead_zone).max(0.0);
            s.changed(
                "saturation",
                format!(
                    "{} plus dead_zone {} leaves less than 5 % of travel; set to {new}",
                    self.saturation, self.dead_zone
                ),
            );
            self.saturation = new;
        }
        s.range("anti_dead_zone", &mut self.anti_dead_zone, 0.0, 0.9, 0.0);
        if let ResponseCurve::Gamma(g) = &mut self.curve {
            s.within("curve", |s| s.range("Gamma", g, 0.1, 10.0, 1.0));
        }
        if let ResponseCurve::Points(points) = &self.curve {
            let mut v = Validator::default();
            self.validate(&mut v);
            if let Err(violations) = v.finish() {
                s.changed(
                    "curve",
                    format!(
                        "the {} points are not a valid curve ({violations}); Linear is used",
                        points.len()
                    ),
                );
                self.curve = ResponseCurve::Linear;
            }
        }
        s.ensure_valid("", self);
    }
}

/// Repairs each axis binding (calibration; rotation of steering axes) and drops the ones
/// beyond [`MAX_AXIS_BINDINGS`].
pub fn sanitize_axes(s: &mut Sanitizer, axes: &mut Vec<AxisBinding>) {
    if axes.len() > MAX_AXIS_BINDINGS {
        s.changed(
            "axes",
            format!(
                "{} bindings are more than {MAX_AXIS_BINDINGS}; the ones after the first \
                 {MAX_AXIS_BINDINGS} are dropped",
                axes.len()
            ),
        );
        axes.truncate(MAX_AXIS_BINDINGS);
    }
    s.within("axes", |s| {
        for (i, axis) in axes.iter_mut().enumerate() {
            s.within(&Validator::index(i), |s| {
                s.nested("calibration", &mut axis.calibration);
                if axis.control == AxisControl::Steering {
                    s.range("rotation_deg", &mut axis.rotation_deg, 1.0, 3600.0, 900.0);
                }
            });
        }
    });
}

/// Drops button bindings with an impossible H-pattern gear and the ones beyond
/// [`MAX_BUTTON_BINDINGS`].
pub fn sanitize_buttons(s: &mut Sanitizer, buttons: &mut Vec<ButtonBinding>) {
    let mut index = 0;
    s.within("buttons", |s| {
        buttons.retain(|b| {
            let i = index;
            index += 1;
            if let ButtonAction::Gear(g) = b.action
                && !(g == -1 || (1..=7).contains(&g))
            {
                s.changed(
                    &format!("[{i}].action"),
                    format!("Gear({g}) is not -1 (reverse) or 1 to 7; the binding is dropped"),
                );
                return false;
            }
            true
        });
    });
    if buttons.len() > MAX_BUTTON_BINDINGS {
        s.changed(
            "buttons",
            format!(
                "{} bindings are more than {MAX_BUTTON_BINDINGS}; the ones after the first \
                 {MAX_BUTTON_BINDINGS} are dropped",
                buttons.len()
            ),
        );
        buttons.truncate(MAX_BUTTON_BINDINGS);
    }
}

impl Sanitize for DigitalResponse {
    fn sanitize(&mut self, s: &mut Sanitizer) {
        let d = Self::default();
        s.positive(
            "steer_rate_per_s",
            &mut self.steer_rate_per_s,
            d.steer_rate_per_s,
        );
        s.positive(
            "steer_return_rate_per_s",
            &mut self.steer_return_rate_per_s,
            d.steer_return_rate_per_s,
        );
        s.range(
            "steer_rotation_deg",
            &mut self.steer_rotation_deg,
            1.0,
            3600.0,
            d.steer_rotation_deg,
        );
        s.positive(
            "pedal_rise_per_s",
            &mut self.pedal_rise_per_s,
            d.pedal_rise_per_s,
        );
        s.positive(
            "pedal_fall_per_s",
            &mut self.pedal_fall_per_s,
            d.pedal_fall_per_s,
        );
        s.ensure_valid("", self);
    }
}

impl Sanitize for DeviceLostPolicy {
    fn sanitize(&mut self, s: &mut Sanitizer) {
        let d = Self::default();
        s.range("brake", &mut self.brake, 0.0, 1.0, d.brake);
        s.range("clutch", &mut self.clutch, 0.0, 1.0, d.clutch);
        s.ensure_valid("", self);
    }
}

impl Sanitize for Bindings {
    fn sanitize(&mut self, s: &mut Sanitizer) {
        sanitize_axes(s, &mut self.axes);
        sanitize_buttons(s, &mut self.buttons);
        s.nested("digital", &mut self.digital);
        s.nested("device_lost", &mut self.device_lost);
        if let Err(violations) = self.check() {
            s.changed("", format!("{violations}; the default bindings are used"));
            *self = Self::default();
        }
    }
}

impl Sanitize for FfbDeviceSettings {
    fn sanitize(&mut self, s: &mut Sanitizer) {
        if let Some(peak) = &mut self.peak_torque_nm {
            if peak.is_nan() {
                s.changed(
                    "peak_torque_nm",
                    "NaN is not a number; the known-wheel estimate is used",
                );
                self.peak_torque_nm = None;
            } else {
                s.range("peak_torque_nm", peak, 0.1, 100.0, 1.0);
            }
        }
        if let Some(rate) = &mut self.max_rate_hz {
            if rate.is_nan() {
                s.changed(
                    "max_rate_hz",
                    "NaN is not a number; the backend's default is used",
                );
                self.max_rate_hz = None;
            } else {
                s.range("max_rate_hz", rate, 1.0, 10_000.0, 500.0);
            }
        }
        if let Err(violations) = self.check() {
            s.changed("", format!("{violations}; the defaults are used"));
            self.peak_torque_nm = None;
            self.max_rate_hz = None;
        }
    }
}

impl Sanitize for FfbSettings {
    fn sanitize(&mut self, s: &mut Sanitizer) {
        let d = Self::default();
        s.range("gain", &mut self.gain, 0.0, 10.0, d.gain);
        s.range(
            "max_torque_nm",
            &mut self.max_torque_nm,
            0.1,
            100.0,
            d.max_torque_nm,
        );
        s.range(
            "soft_clip_knee",
            &mut self.soft_clip_knee,
            0.1,
            1.0,
            d.soft_clip_knee,
        );
        s.non_negative("min_force_nm", &mut self.min_force_nm, d.min_force_nm);
        let min_force_limit = 0.45 * self.max_torque_nm;
        if self.min_force_nm >= 0.5 * self.max_torque_nm {
            s.changed(
                "min_force_nm",
                format!(
                    "{} is not less than half of max_torque_nm ({}); clamped to {min_force_limit}",
                    self.min_force_nm, self.max_torque_nm
                ),
            );
            self.min_force_nm = min_force_limit;
        }
        s.positive(
            "min_force_ramp_nm",
            &mut self.min_force_ramp_nm,
            d.min_force_ramp_nm,
        );
        s.non_negative(
            "damping_nm_s_per_rad",
            &mut self.damping_nm_s_per_rad,
            d.damping_nm_s_per_rad,
        );
        s.non_negative("friction_nm", &mut self.friction_nm, d.friction_nm);
        s.non_negative("inertia_kg_m2", &mut self.inertia_kg_m2, d.inertia_kg_m2);
        s.positive(
            "slew_limit_nm_per_s",
            &mut self.slew_limit_nm_per_s,
            d.slew_limit_nm_per_s,
        );
        s.range(
            "watchdog_ms",
            &mut self.watchdog_ms,
            MIN_WATCHDOG_MS,
            MAX_WATCHDOG_MS,
            d.watchdog_ms,
        );
        s.range("fade_in_s", &mut self.fade_in_s, 0.0, 10.0, d.fade_in_s);
        s.range(
            "smoothing_ms",
            &mut self.smoothing_ms,
            0.0,
            MAX_SMOOTHING_MS,
            d.smoothing_ms,
        );
        s.within("devices", |s| {
            for (i, device) in self.devices.iter_mut().enumerate() {
                s.nested(&Validator::index(i), device);
            }
        });
        s.nested("soft_lock", &mut self.soft_lock);
        s.nested("effects", &mut self.effects);
        s.ensure_valid("", self);
    }
}

impl Sanitize for FfbEffectSettings {
    fn sanitize(&mut self, s: &mut Sanitizer) {
        for (name, value) in self.amplitudes_mut() {
            s.range(name, value, 0.0, MAX_EFFECT_NM, 0.0);
        }
        s.ensure_valid("", self);
    }
}

impl Sanitize for SoftLockSettings {
    fn sanitize(&mut self, s: &mut Sanitizer) {
        let d = Self::default();
        s.range("ramp_deg", &mut self.ramp_deg, 0.5, 45.0, d.ramp_deg);
        s.range("strength", &mut self.strength, 0.0, 1.0, d.strength);
        s.range(
            "damping_nm_s_per_rad",
            &mut self.damping_nm_s_per_rad,
            0.0,
            20.0,
            d.damping_nm_s_per_rad,
        );
        s.ensure_valid("", self);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gripline_input::settings::axis_calibration::{CurvePoint, RawRange};
    use gripline_input::settings::device_identity::DeviceMatch;

    #[test]
    fn calibration_repairs_report_paths() {
        let mut b = Bindings::default();
        b.axes[0].calibration = AxisCalibration {
            raw_range: Some(RawRange { min: 10, max: 5 }),
            dead_zone: 0.5,
            saturation: 0.5,
            curve: ResponseCurve::Points(vec![
                CurvePoint { x: 0.0, y: 0.0 },
                CurvePoint { x: 0.0, y: 1.0 },
            ]),
            ..AxisCalibration::default()
        };
        b.buttons.push(ButtonBinding {
            action: ButtonAction::Gear(9),
            device: DeviceMatch::Keyboard,
            button: 4,
        });
        let n = b.buttons.len();
        let messages = b.sanitize_all();
        let fields: Vec<_> = messages.iter().map(|m| m.field.as_str()).collect();
        assert_eq!(
            fields,
            [
                "axes[0].calibration.raw_range",
                "axes[0].calibration.saturation",
                "axes[0].calibration.curve",
                &format!("buttons[{}].action", n - 1),
            ]
        );
        assert!(b.check().is_ok());
        assert_eq!(b.buttons.len(), n - 1);
        assert!(b.sanitize_all().is_empty(), "idempotent");
    }

    #[test]
    fn ffb_min_force_is_kept_below_half_the_maximum() {
        let mut f = FfbSettings {
            max_torque_nm: 2.0,
            min_force_nm: 5.0,
            smoothing_ms: f64::INFINITY,
            ..FfbSettings::default()
        };
        let messages = f.sanitize_all();
        assert!(f.check().is_ok());
        assert_eq!(f.min_force_nm.to_bits(), 0.9f64.to_bits());
        assert_eq!(f.smoothing_ms.to_bits(), MAX_SMOOTHING_MS.to_bits());
        assert_eq!(messages.len(), 2);
    }

    #[test]
    fn a_saved_watchdog_over_100_ms_is_clamped_to_the_cap() {
        let mut f = FfbSettings {
            watchdog_ms: 1000.0,
            ..FfbSettings::default()
        };
        let messages = f.sanitize_all();
        assert_eq!(f.watchdog_ms.to_bits(), MAX_WATCHDOG_MS.to_bits());
        assert_eq!(messages.len(), 1);
        assert_eq!(messages[0].field, "watchdog_ms");
        assert!(f.check().is_ok());
    }
}

//! Force-feedback settings, as saved in the settings file.
//!
//! The pipeline that uses them lives in [`crate::ffb::pipeline`]: column torque
//! from the physics (N·m) -> gain -> damping, friction, inertia -> soft clip -> minimum force
//! -> slew-rate limit -> clamp to `max_torque_nm` -> the device's units. The safety rules
//! ([`crate::ffb::safety`]) use the watchdog and fade-in times.

use gripline_physics::validate::{Validate, Validator};
use serde::{Deserialize, Serialize};

use crate::settings::device_identity::DeviceIdentity;
use crate::settings::ffb_effects::FfbEffectSettings;
use crate::settings::soft_lock::{SoftLockSettings, SteeringLockMode};

/// Longest torque smoothing time constant allowed (ms): beyond it the wheel feels numb and
/// late.
pub const MAX_SMOOTHING_MS: f64 = 100.0;

/// Shortest watchdog time allowed (ms): below it, a busy machine's scheduling jitter would
/// cut the torque while the simulation runs normally.
pub const MIN_WATCHDOG_MS: f64 = 5.0;

/// Longest watchdog time allowed (ms), and the one owner of that limit: the settings check,
/// the settings file's sanitising and the safety timing (`ffb::safety::SafetyConfig`, which
/// the sim-side gate and the writer thread both take) use it. A simulation that stalls must
/// not leave a force on the wheel for longer than this (plus the watchdog's 20 ms ramp).
pub const MAX_WATCHDOG_MS: f64 = 100.0;

/// Settings of one force-feedback device.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FfbDeviceSettings {
    /// The device.
    pub device: DeviceIdentity,
    /// Reverse the torque direction for this device (conventions differ between brands).
    #[serde(default)]
    pub invert: bool,
    /// The device's peak torque (N·m), which a level of 1.0 commands; `None` uses the
    /// known-wheel table's estimate.
    #[serde(default)]
    pub peak_torque_nm: Option<f64>,
    /// Highest rate at which commands are written (Hz); `None` uses the backend's default.
    #[serde(default)]
    pub max_rate_hz: Option<f64>,
    /// Which force-feedback backend drives this device; [`FfbBackendChoice::Auto`] (the
    /// default) picks one from the known-wheel table and what the device offers.
    #[serde(default)]
    pub backend: FfbBackendChoice,
    /// The peak (N·m) the user confirmed when it was below the known-wheel table's peak for
    /// this product ID. A peak below the table's scales every torque up by table / peak, so
    /// it is used only when it equals this confirmed value **and** the override was saved
    /// for this very unit (same serial number or path); otherwise the table's peak is
    /// assumed ([`FfbDeviceFacts::resolve`](crate::ffb::device_facts::FfbDeviceFacts::resolve)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak_confirmed_nm: Option<f64>,
}

/// The force-feedback backend a user asks for, per device ([`crate::ffb::select`] decides
/// what `Auto` means and whether the choice is possible).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FfbBackendChoice {
    /// Automatic: evdev `FF_CONSTANT` on Linux when the kernel driver offers it, else the raw
    /// HID protocol of the known-wheel table, else none.
    #[default]
    #[serde(alias = "Automatic")]
    Auto,
    /// Linux evdev `FF_CONSTANT` through the kernel driver.
    Evdev,
    /// Logitech classic protocol over raw HID.
    LogitechClassic,
    /// HID PID over raw HID.
    HidPid,
    /// No force feedback for this device.
    Off,
}

impl Validate for FfbDeviceSettings {
    fn validate(&self, v: &mut Validator) {
        if let Some(peak) = self.peak_torque_nm {
            v.in_range("peak_torque_nm", peak, 0.1, 100.0);
        }
        if let Some(rate) = self.max_rate_hz {
            v.in_range("max_rate_hz", rate, 1.0, 10_000.0);
        }
    }
}

/// Force-feedback settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct FfbSettings {
    /// Force feedback on at all.
    pub enabled: bool,
    /// Overall strength: multiplies the column torque (and the car's own strength).
    pub gain: f64,
    /// The most torque ever sent to the wheel (N·m); the soft clip compresses towards it.
    pub max_torque_nm: f64,
    /// Fraction of `max_torque_nm` above which the soft clip starts to compress
    /// (1 = hard clip at the maximum).
    pub soft_clip_knee: f64,
    /// Minimum force (N·m): small forces are lifted to overcome the wheel's own friction
    /// (0 = off). It ramps in over `min_force_ramp_nm`, so zero stays zero.
    pub min_force_nm: f64,
    /// Requested torque over which the minimum force ramps in (N·m).
    pub min_force_ramp_nm: f64,
    /// Damping (N·m per rad/s of steering-wheel speed), opposing motion.
    pub damping_nm_s_per_rad: f64,
    /// Friction (N·m), opposing motion independently of its speed.
    pub friction_nm: f64,
    /// Added inertia (kg·m²), opposing acceleration.
    pub inertia_kg_m2: f64,
    /// Fastest change of torque (N·m/s).
    pub slew_limit_nm_per_s: f64,
    /// Time without a new value after which the output ramps to zero (ms,
    /// [`MIN_WATCHDOG_MS`] to [`MAX_WATCHDOG_MS`]).
    pub watchdog_ms: f64,
    /// Fade-in time on start, resume and reconnect (s).
    pub fade_in_s: f64,
    /// Low-pass smoothing of the column torque (time constant, ms; 0 = off): takes the
    /// edge off road noise on geared wheels at the cost of latency.
    pub smoothing_ms: f64,
    /// Backend that drives the wheel, unless the device's own settings choose one.
    pub backend: FfbBackendChoice,
    /// The device that receives force feedback; `None` picks automatically (the device
    /// bound to steering, if it has force feedback).
    pub device: Option<DeviceIdentity>,
    /// Normalise every car's steering torque: the car's reference column torque (the
    /// largest its front tyres give at static load; `SteeringFeel` in the physics) is scaled
    /// to the soft-clip knee of the maximum torque, so one gain suits every car. Off: the
    /// physics' torque in N·m times the gain.
    pub normalise_car_torque: bool,
    /// Effects on top of the car's torque (all off by default).
    pub effects: FfbEffectSettings,
    /// How the wheel's rotation meets the car's steering lock.
    pub lock_mode: SteeringLockMode,
    /// The soft lock at the car's steering lock.
    pub soft_lock: SoftLockSettings,
    /// Per-device settings. Omitted from the file when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub devices: Vec<FfbDeviceSettings>,
}

impl Default for FfbSettings {
    /// Modest defaults: 4 N·m maximum suits a geared wheel and is a safe start on a
    /// direct-drive base (`docs/force-feedback-protocols.md`, section 4.5, rule 4).
    fn default() -> Self {
        Self {
            enabled: true,
            gain: 1.0,
            max_torque_nm: 4.0,
            soft_clip_knee: 0.8,
            min_force_nm: 0.0,
            min_force_ramp_nm: 0.1,
            damping_nm_s_per_rad: 0.0,
            friction_nm: 0.0,
            inertia_kg_m2: 0.0,
            slew_limit_nm_per_s: 1000.0,
            watchdog_ms: 50.0,
            fade_in_s: 0.5,
            smoothing_ms: 0.0,
            backend: FfbBackendChoice::Auto,
            device: None,
            normalise_car_torque: true,
            effects: FfbEffectSettings::default(),
            lock_mode: SteeringLockMode::default(),
            soft_lock: SoftLockSettings::default(),
            devices: Vec::new(),
        }
    }
}

impl FfbSettings {
    /// The settings of `device`, if it has any.
    pub fn device(&self, device: &DeviceIdentity) -> Option<&FfbDeviceSettings> {
        self.devices.iter().find(|d| d.device.same_device(device))
    }
}

impl Validate for FfbSettings {
    fn validate(&self, v: &mut Validator) {
        v.in_range("gain", self.gain, 0.0, 10.0);
        v.in_range("max_torque_nm", self.max_torque_nm, 0.1, 100.0);
        v.in_range("soft_clip_knee", self.soft_clip_knee, 0.1, 1.0);
        v.non_negative("min_force_nm", self.min_force_nm);
        if self.min_force_nm.is_finite() && self.max_torque_nm.is_finite() {
            v.require(
                self.min_force_nm < 0.5 * self.max_torque_nm,
                "min_force_nm",
                "must be less than half of max_torque_nm",
            );
        }
        v.positive("min_force_ramp_nm", self.min_force_ramp_nm);
        v.non_negative("damping_nm_s_per_rad", self.damping_nm_s_per_rad);
        v.non_negative("friction_nm", self.friction_nm);
        v.non_negative("inertia_kg_m2", self.inertia_kg_m2);
        v.positive("slew_limit_nm_per_s", self.slew_limit_nm_per_s);
        v.in_range(
            "watchdog_ms",
            self.watchdog_ms,
            MIN_WATCHDOG_MS,
            MAX_WATCHDOG_MS,
        );
        v.in_range("fade_in_s", self.fade_in_s, 0.0, 10.0);
        v.in_range("smoothing_ms", self.smoothing_ms, 0.0, MAX_SMOOTHING_MS);
        v.nested("soft_lock", &self.soft_lock);
        v.nested("effects", &self.effects);
        v.within("devices", |v| {
            for (i, d) in self.devices.iter().enumerate() {
                v.nested(&Validator::index(i), d);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid() {
        assert!(FfbSettings::default().check().is_ok());
    }

    #[test]
    fn paths_of_bad_values() {
        let s = FfbSettings {
            gain: f64::NAN,
            max_torque_nm: 2.0,
            min_force_nm: 1.5,
            slew_limit_nm_per_s: 0.0,
            devices: vec![FfbDeviceSettings {
                device: DeviceIdentity::new(0x1209, 0xffb0, "FFBoard", ""),
                invert: true,
                peak_torque_nm: Some(-3.0),
                max_rate_hz: None,
                backend: FfbBackendChoice::Auto,
                peak_confirmed_nm: None,
            }],
            ..FfbSettings::default()
        };
        let err = s.check().unwrap_err();
        let paths: Vec<_> = err.0.iter().map(|v| v.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "gain",
                "min_force_nm",
                "slew_limit_nm_per_s",
                "devices[0].peak_torque_nm"
            ],
            "{err}"
        );
    }

    #[test]
    fn watchdog_is_capped_at_100_ms() {
        let ok = |ms: f64| {
            FfbSettings {
                watchdog_ms: ms,
                ..FfbSettings::default()
            }
            .check()
            .is_ok()
        };
        assert_eq!(MAX_WATCHDOG_MS.to_bits(), 100f64.to_bits());
        assert!(ok(MIN_WATCHDOG_MS) && ok(50.0) && ok(100.0));
        assert!(!ok(100.5), "a stall may hold the force 100 ms at most");
        assert!(!ok(1000.0));
        assert!(!ok(4.0) && !ok(f64::NAN) && !ok(f64::INFINITY));
    }

    #[test]
    fn backend_choice_defaults_to_auto_when_absent() {
        let d: FfbDeviceSettings =
            ron::from_str("(device: (vendor_id: 1133, product_id: 49743), invert: true)").unwrap();
        assert_eq!(d.backend, FfbBackendChoice::Auto);
        let d: FfbDeviceSettings =
            ron::from_str("(device: (vendor_id: 1133, product_id: 49743), backend: HidPid)")
                .unwrap();
        assert_eq!(d.backend, FfbBackendChoice::HidPid);
    }

    #[test]
    fn device_lookup_uses_identity_rules() {
        let mut s = FfbSettings::default();
        s.devices.push(FfbDeviceSettings {
            device: DeviceIdentity::new(0x046d, 0xc24f, "G29", ""),
            invert: true,
            peak_torque_nm: None,
            max_rate_hz: None,
            backend: FfbBackendChoice::default(),
            peak_confirmed_nm: None,
        });
        let plugged = DeviceIdentity::new(0x046d, 0xc24f, "Logitech G29", "usb-1");
        assert!(s.device(&plugged).is_some_and(|d| d.invert));
    }
}

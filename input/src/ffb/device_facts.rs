//! The facts about the force-feedback device that the pipeline depends on: its peak torque
//! (the torque of level 1), its direction and its rotation range.
//!
//! They have **one owner**: [`FfbDeviceFacts::resolve`]. The wheel set-up resolves them when a
//! backend is opened and hands them to the sim thread together with the backend; from then
//! on the settings screen only ever sends the user's settings (gain, maximum, feel), and the
//! pipeline's parameters are rebuilt from those settings *and the facts the sim thread
//! already holds* ([`crate::ffb::params::PipelineParams::new`] takes both). No settings
//! path can therefore put the user's maximum in place of the device's peak, or drop the
//! invert: a 25 N·m base capped at 5 N·m stays capped after every Apply, Cancel and test.
//!
//! The peak comes, in order, from the device's own settings (the user told us), the
//! known-wheel table, or, for a device nobody knows, [`UNKNOWN_DEVICE_PEAK_NM`]. Assuming a
//! high peak is the safe direction: a level is `torque / peak`, so an overestimated peak makes
//! the wheel weaker than asked, never stronger.

use crate::settings::device_identity::DeviceIdentity;
use crate::settings::ffb_settings::FfbSettings;

use crate::known_wheels;

/// Peak torque assumed for a device that is neither in the known-wheel table nor given a peak
/// by the user (N·m): the strongest consumer direct-drive bases (Simucube 2 Ultimate, Simagic
/// Alpha Ultimate, Moza R21) peak at 21 to 32 N·m, so nothing is driven above what the user
/// asked for.
pub const UNKNOWN_DEVICE_PEAK_NM: f64 = 32.0;

/// Rotation range used when neither the binding nor the known-wheel table gives one
/// (degrees lock to lock).
pub const DEFAULT_ROTATION_DEG: f64 = 900.0;

/// Where a device's peak torque came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PeakSource {
    /// The user set it in the device's force-feedback settings.
    User,
    /// The known-wheel table's estimate for this model.
    KnownWheel,
    /// The known-wheel table's entry is shared by several bases; the strongest one's peak is
    /// assumed until the user sets theirs. The string names the family.
    SharedProductId(&'static str),
    /// Nothing is known: [`UNKNOWN_DEVICE_PEAK_NM`] is assumed.
    Unknown,
    /// No device: level 1 is the user's maximum (nothing is driven).
    NoDevice,
}

/// The device facts the pipeline needs (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FfbDeviceFacts {
    /// The device's peak torque (N·m): the torque of level 1.
    pub peak_torque_nm: f64,
    /// Where the peak came from.
    pub peak_source: PeakSource,
    /// Reverse the device's direction.
    pub invert: bool,
    /// The wheel's rotation range, lock to lock (degrees), as calibrated in Gripline.
    pub rotation_deg: f64,
}

/// The user's peak for `device` split by whether it is in force: `(in force, not in force)`.
/// A peak below the known-wheel table's multiplies every torque by table / peak, so it is in
/// force only when the user confirmed that very value (`peak_confirmed_nm`) for this very
/// unit (the override's serial number or path is the device's); a peak at or above the
/// table's can only make the wheel weaker and is always in force.
fn user_peak(settings: &FfbSettings, device: &DeviceIdentity) -> (Option<f64>, Option<f64>) {
    let own = settings.device(device);
    let Some(peak) = own
        .and_then(|d| d.peak_torque_nm)
        .filter(|p| p.is_finite() && *p > 0.0)
    else {
        return (None, None);
    };
    let table = known_wheels::peak_estimate(device.vendor_id, device.product_id);
    let below_table = table.is_some_and(|t| peak < t.peak_torque_nm);
    let confirmed = own.is_some_and(|d| {
        d.peak_confirmed_nm == Some(peak) && d.device.serial_or_path == device.serial_or_path
    });
    if below_table && !confirmed {
        (None, Some(peak))
    } else {
        (Some(peak), None)
    }
}

impl FfbDeviceFacts {
    /// The facts of `device` under `settings`, with the steering binding's rotation range
    /// `rotation_deg` when the device is bound to steering (else the known-wheel default).
    pub fn resolve(
        settings: &FfbSettings,
        device: &DeviceIdentity,
        rotation_deg: Option<f64>,
    ) -> Self {
        let own = settings.device(device);
        let known = known_wheels::lookup(device.vendor_id, device.product_id);
        let (peak_torque_nm, peak_source) = match user_peak(settings, device).0 {
            Some(peak) => (peak, PeakSource::User),
            None => match known_wheels::peak_estimate(device.vendor_id, device.product_id) {
                Some(estimate) => (
                    estimate.peak_torque_nm,
                    estimate
                        .shared_family
                        .map_or(PeakSource::KnownWheel, PeakSource::SharedProductId),
                ),
                None => (UNKNOWN_DEVICE_PEAK_NM, PeakSource::Unknown),
            },
        };
        let rotation_deg = rotation_deg
            .or(known.map(|w| w.default_rotation_deg))
            .filter(|r| r.is_finite() && *r > 0.0)
            .unwrap_or(DEFAULT_ROTATION_DEG);
        Self {
            peak_torque_nm: peak_torque_nm.clamp(0.1, 100.0),
            peak_source,
            invert: own.is_some_and(|d| d.invert),
            rotation_deg: rotation_deg.clamp(1.0, 3600.0),
        }
    }

    /// A peak the user entered for `device` below the known-wheel table's that is **not** in
    /// force (not confirmed, or confirmed for another unit with the same product ID): the
    /// settings screen asks for confirmation while there is one.
    pub fn unconfirmed_peak_nm(settings: &FfbSettings, device: &DeviceIdentity) -> Option<f64> {
        user_peak(settings, device).1
    }

    /// No force-feedback device: level 1 is the user's maximum, not inverted.
    pub fn no_device(settings: &FfbSettings) -> Self {
        let max = if settings.max_torque_nm.is_finite() {
            settings.max_torque_nm.clamp(0.1, 100.0)
        } else {
            1.0
        };
        Self {
            peak_torque_nm: max,
            peak_source: PeakSource::NoDevice,
            invert: false,
            rotation_deg: DEFAULT_ROTATION_DEG,
        }
    }

    /// One line for the force-feedback summary: the peak and where it came from, e.g.
    /// `"23.0 N·m peak (assumed: 0483:0522 is shared by ...; set your base's peak)"`.
    pub fn describe_peak(&self) -> String {
        let peak = self.peak_torque_nm;
        match self.peak_source {
            PeakSource::User => format!("{peak:.1} N·m peak (set by you)"),
            PeakSource::KnownWheel => format!("{peak:.1} N·m peak (known-wheel estimate)"),
            PeakSource::SharedProductId(family) => format!(
                "{peak:.1} N·m peak assumed: this product ID is shared by {family}; set your \
                 base's peak in Settings > Force feedback"
            ),
            PeakSource::Unknown => format!(
                "{peak:.1} N·m peak assumed: unknown device; set its peak in Settings > Force \
                 feedback for full strength"
            ),
            PeakSource::NoDevice => format!("{peak:.1} N·m (no device)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::ffb_settings::{FfbBackendChoice, FfbDeviceSettings};

    fn own(device: &DeviceIdentity, peak: Option<f64>, invert: bool) -> FfbDeviceSettings {
        FfbDeviceSettings {
            device: device.clone(),
            invert,
            peak_torque_nm: peak,
            max_rate_hz: None,
            backend: FfbBackendChoice::Auto,
            peak_confirmed_nm: None,
        }
    }

    #[test]
    fn user_peak_then_table_then_conservative_default() {
        let g29 = DeviceIdentity::new(0x046d, 0xc24f, "G29", "");
        // Not in the known-wheel table (OpenFFBoard is, with the same 32 N·m assumed).
        let ffboard = DeviceIdentity::new(0x1209, 0xfff1, "DIY base", "");
        let mut s = FfbSettings::default();
        let facts = FfbDeviceFacts::resolve(&s, &g29, None);
        assert_eq!(facts.peak_source, PeakSource::KnownWheel);
        assert!((facts.peak_torque_nm - 2.2).abs() < 1e-12);
        assert!((facts.rotation_deg - 900.0).abs() < 1e-12);
        // An unknown device is assumed strong, never weaker than it may be.
        let unknown = FfbDeviceFacts::resolve(&s, &ffboard, Some(1080.0));
        assert_eq!(unknown.peak_source, PeakSource::Unknown);
        assert!((unknown.peak_torque_nm - UNKNOWN_DEVICE_PEAK_NM).abs() < 1e-12);
        assert!((unknown.rotation_deg - 1080.0).abs() < 1e-12);
        s.devices.push(own(&ffboard, Some(12.0), true));
        let set = FfbDeviceFacts::resolve(&s, &ffboard, None);
        assert_eq!(set.peak_source, PeakSource::User);
        assert!((set.peak_torque_nm - 12.0).abs() < 1e-12 && set.invert);
        assert!(set.describe_peak().contains("12.0 N·m"));
        // A product ID shared by bases of 5 to 15 N·m: the strongest is assumed, and said.
        let fanatec = DeviceIdentity::new(0x0eb7, 0x0020, "FANATEC Wheel", "");
        let shared = FfbDeviceFacts::resolve(&FfbSettings::default(), &fanatec, None);
        assert!((shared.peak_torque_nm - 15.0).abs() < 1e-12);
        assert!(matches!(shared.peak_source, PeakSource::SharedProductId(_)));
        assert!(
            shared.describe_peak().contains("assumed"),
            "{}",
            shared.describe_peak()
        );
    }

    #[test]
    fn a_peak_below_the_table_needs_confirmation_for_this_very_unit() {
        // A T248 owner enters 3.5 N·m on the shared b696 ID (10 N·m assumed).
        let t248 = DeviceIdentity::new(0x044f, 0xb696, "Thrustmaster", "SERIAL-A");
        let mut s = FfbSettings::default();
        s.devices.push(own(&t248, Some(3.5), false));
        let facts = FfbDeviceFacts::resolve(&s, &t248, None);
        assert!(
            (facts.peak_torque_nm - 10.0).abs() < 1e-12,
            "unconfirmed: table"
        );
        assert_eq!(FfbDeviceFacts::unconfirmed_peak_nm(&s, &t248), Some(3.5));
        s.devices[0].peak_confirmed_nm = Some(3.5);
        let facts = FfbDeviceFacts::resolve(&s, &t248, None);
        assert_eq!(facts.peak_source, PeakSource::User);
        assert!((facts.peak_torque_nm - 3.5).abs() < 1e-12);
        assert_eq!(FfbDeviceFacts::unconfirmed_peak_nm(&s, &t248), None);
        // A T818 on the same ID with another serial does not inherit it.
        let t818 = DeviceIdentity::new(0x044f, 0xb696, "Thrustmaster", "SERIAL-B");
        let facts = FfbDeviceFacts::resolve(&s, &t818, None);
        assert!((facts.peak_torque_nm - 10.0).abs() < 1e-12);
        // Nor does a unit without a serial, against an override saved without one.
        s.devices[0].device.serial_or_path = String::new();
        let facts = FfbDeviceFacts::resolve(&s, &t818, None);
        assert!((facts.peak_torque_nm - 10.0).abs() < 1e-12);
        // A confirmation is of one value: a changed peak needs a new one.
        s.devices[0].device.serial_or_path = "SERIAL-A".into();
        s.devices[0].peak_torque_nm = Some(2.0);
        assert!((FfbDeviceFacts::resolve(&s, &t248, None).peak_torque_nm - 10.0).abs() < 1e-12);
        // A peak at or above the table's only weakens the wheel: in force at once.
        s.devices[0].peak_torque_nm = Some(12.0);
        assert!((FfbDeviceFacts::resolve(&s, &t248, None).peak_torque_nm - 12.0).abs() < 1e-12);
    }

    #[test]
    fn bad_user_peaks_fall_back_safely() {
        let ffboard = DeviceIdentity::new(0x1209, 0xfff1, "DIY base", "");
        let mut s = FfbSettings::default();
        s.devices.push(own(&ffboard, Some(f64::NAN), false));
        let facts = FfbDeviceFacts::resolve(&s, &ffboard, Some(f64::INFINITY));
        assert!((facts.peak_torque_nm - UNKNOWN_DEVICE_PEAK_NM).abs() < 1e-12);
        assert!((facts.rotation_deg - DEFAULT_ROTATION_DEG).abs() < 1e-12);
        s.max_torque_nm = f64::NAN;
        assert!(FfbDeviceFacts::no_device(&s).peak_torque_nm.is_finite());
    }
}

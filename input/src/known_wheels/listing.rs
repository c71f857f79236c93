//! The known-wheel table as a user or a script reads it (`gripline devices --known`): one
//! row per vendor:product ID, with the peak the rig really assumes for it.

use crate::settings::device_identity::DeviceIdentity;
use crate::settings::ffb_settings::FfbSettings;

use super::{FfbBackendKind, KNOWN_WHEELS, shared};
use crate::ffb::device_facts::FfbDeviceFacts;

/// One row of the listing.
#[derive(Clone, Debug, PartialEq)]
pub struct KnownRow {
    /// USB vendor ID.
    pub vendor_id: u16,
    /// USB product ID.
    pub product_id: u16,
    /// Product name and mode.
    pub model: &'static str,
    /// Whether several bases of different strength share the product ID.
    pub shared: bool,
    /// The peak torque the rig assumes for a device with these IDs and no peak of the
    /// user's (N·m), from [`FfbDeviceFacts::resolve`], the function the rig itself uses.
    pub assumed_peak_nm: f64,
    /// The table's recommended force-feedback backend.
    pub backend: FfbBackendKind,
    /// Default rotation range, lock to lock (degrees).
    pub rotation_deg: f64,
}

impl FfbBackendKind {
    /// A short name for listings: `evdev`, `logitech_classic`, `hid_pid` or `none`.
    pub fn short_name(self) -> &'static str {
        match self {
            FfbBackendKind::EvdevConstant => "evdev",
            FfbBackendKind::LogitechClassic => "logitech_classic",
            FfbBackendKind::HidPid => "hid_pid",
            FfbBackendKind::None => "none",
        }
    }
}

/// Every known wheel, in table order.
pub fn known_rows() -> Vec<KnownRow> {
    let defaults = FfbSettings::default();
    KNOWN_WHEELS
        .iter()
        .map(|w| {
            let identity = DeviceIdentity::new(w.vendor_id, w.product_id, w.name, "");
            KnownRow {
                vendor_id: w.vendor_id,
                product_id: w.product_id,
                model: w.name,
                shared: shared(w.vendor_id, w.product_id).is_some(),
                assumed_peak_nm: FfbDeviceFacts::resolve(&defaults, &identity, None).peak_torque_nm,
                backend: w.backend,
                rotation_deg: w.default_rotation_deg,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_t818_id_is_shared_and_assumed_at_the_t818s_peak() {
        let rows = known_rows();
        let b696 = rows
            .iter()
            .find(|r| r.vendor_id == 0x044f && r.product_id == 0xb696)
            .unwrap();
        assert!(b696.shared);
        assert!(b696.assumed_peak_nm >= 10.0, "{b696:?}");
        assert_eq!(rows.len(), KNOWN_WHEELS.len());
    }
}

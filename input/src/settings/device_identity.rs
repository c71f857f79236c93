//! Stable names for input devices, the key under which bindings and calibration are saved.
//!
//! A device index or an operating-system handle changes every time a device is plugged in,
//! so settings name devices by USB vendor and product ID plus, where known, a serial number
//! or a stable path (`docs/input-devices.md`, "Device identity"). The keyboard and "any gamepad"
//! are matched by kind instead, so the default bindings work with whatever pad is connected.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Who a device is, as far as settings are concerned.
///
/// Written in settings files as
/// `(vendor_id: 1133, product_id: 49743, name: "G29 Driving Force Racing Wheel")`
/// (RON also accepts `0x046d`). Displayed as `046d:c24f "G29 Driving Force Racing Wheel"`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DeviceIdentity {
    /// USB vendor ID (0 when the platform does not report one).
    pub vendor_id: u16,
    /// USB product ID (0 when the platform does not report one).
    pub product_id: u16,
    /// The name the device reports; informational unless both IDs are 0.
    #[serde(default)]
    pub name: String,
    /// Serial number or stable device path, when known; empty means "any device with
    /// these IDs", which is what two identical devices without serials need to avoid.
    #[serde(default)]
    pub serial_or_path: String,
}

impl DeviceIdentity {
    /// An identity from its parts.
    pub fn new(vendor_id: u16, product_id: u16, name: &str, serial_or_path: &str) -> Self {
        Self {
            vendor_id,
            product_id,
            name: name.to_owned(),
            serial_or_path: serial_or_path.to_owned(),
        }
    }

    /// The identity the keyboard reports (no USB IDs; the keyboard is matched by kind).
    pub fn keyboard() -> Self {
        Self::new(0, 0, "Keyboard", "")
    }

    /// Whether `self` and `other` name the same physical device.
    ///
    /// Rules: vendor and product IDs must be equal; the serial/path must be equal when both
    /// sides know one (an empty one matches any); the names must be equal only when neither
    /// side has USB IDs (both 0), since drivers on different platforms name the same device
    /// differently.
    pub fn same_device(&self, other: &Self) -> bool {
        if self.vendor_id != other.vendor_id || self.product_id != other.product_id {
            return false;
        }
        if !self.serial_or_path.is_empty()
            && !other.serial_or_path.is_empty()
            && self.serial_or_path != other.serial_or_path
        {
            return false;
        }
        if self.vendor_id == 0 && self.product_id == 0 {
            return self.name == other.name;
        }
        true
    }
}

impl fmt::Display for DeviceIdentity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:04x}:{:04x} {:?}",
            self.vendor_id, self.product_id, self.name
        )?;
        if !self.serial_or_path.is_empty() {
            write!(f, " [{}]", self.serial_or_path)?;
        }
        Ok(())
    }
}

/// What kind of device a backend found; decides which [`DeviceMatch`]es apply to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DeviceKind {
    /// A steering wheel base (possibly with pedals and shifter attached through it).
    Wheel,
    /// A standalone pedal set, handbrake, shifter or button box.
    Peripheral,
    /// A gamepad with a standard layout: its codes are [`crate::settings::input_codes::gamepad`] codes.
    Gamepad,
    /// The keyboard: its button codes are USB HID keyboard usages
    /// ([`crate::settings::input_codes::key`]).
    Keyboard,
}

/// Which devices a binding applies to.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DeviceMatch {
    /// One particular device, by identity ([`DeviceIdentity::same_device`]).
    Device(DeviceIdentity),
    /// Any device of kind [`DeviceKind::Gamepad`], with standard gamepad codes.
    AnyGamepad,
    /// The keyboard ([`DeviceKind::Keyboard`]).
    Keyboard,
}

impl DeviceMatch {
    /// Whether a device of this identity and kind is meant by `self`.
    pub fn matches(&self, identity: &DeviceIdentity, kind: DeviceKind) -> bool {
        match self {
            DeviceMatch::Device(wanted) => wanted.same_device(identity),
            DeviceMatch::AnyGamepad => kind == DeviceKind::Gamepad,
            DeviceMatch::Keyboard => kind == DeviceKind::Keyboard,
        }
    }
}

impl fmt::Display for DeviceMatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeviceMatch::Device(id) => id.fmt(f),
            DeviceMatch::AnyGamepad => f.write_str("any gamepad"),
            DeviceMatch::Keyboard => f.write_str("keyboard"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_is_vid_pid_and_quoted_name() {
        let g29 = DeviceIdentity::new(0x046d, 0xc24f, "G29 Driving Force Racing Wheel", "");
        assert_eq!(
            g29.to_string(),
            "046d:c24f \"G29 Driving Force Racing Wheel\""
        );
        let with_serial = DeviceIdentity::new(0x1209, 0xffb0, "FFBoard", "ABC123");
        assert_eq!(with_serial.to_string(), "1209:ffb0 \"FFBoard\" [ABC123]");
    }

    #[test]
    fn same_device_rules() {
        let a = DeviceIdentity::new(0x046d, 0xc24f, "G29", "");
        let renamed = DeviceIdentity::new(0x046d, 0xc24f, "Logitech G29 Driving Force", "");
        assert!(a.same_device(&renamed));
        let s1 = DeviceIdentity::new(0x046d, 0xc24f, "G29", "s1");
        let s2 = DeviceIdentity::new(0x046d, 0xc24f, "G29", "s2");
        assert!(!s1.same_device(&s2));
        assert!(
            a.same_device(&s1),
            "a binding without serial matches any serial"
        );
        let other_pid = DeviceIdentity::new(0x046d, 0xc29b, "G29", "");
        assert!(!a.same_device(&other_pid));
        let k = DeviceIdentity::keyboard();
        assert!(k.same_device(&DeviceIdentity::keyboard()));
        assert!(!k.same_device(&DeviceIdentity::new(0, 0, "Mystery box", "")));
    }

    #[test]
    fn matches_by_kind() {
        let pad = DeviceIdentity::new(0x045e, 0x028e, "Xbox 360 pad", "");
        assert!(DeviceMatch::AnyGamepad.matches(&pad, DeviceKind::Gamepad));
        assert!(!DeviceMatch::AnyGamepad.matches(&pad, DeviceKind::Wheel));
        assert!(DeviceMatch::Keyboard.matches(&DeviceIdentity::keyboard(), DeviceKind::Keyboard));
        assert!(DeviceMatch::Device(pad.clone()).matches(&pad, DeviceKind::Gamepad));
    }
}

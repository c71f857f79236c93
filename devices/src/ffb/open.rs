//! Opening the chosen force-feedback backend on a real device, as one boxed
//! [`FfbBackend`] the writer thread can own.
//!
//! [`gripline_input::ffb::select::choose_backend`] decides *which* backend; [`open_backend`] opens
//! it: the evdev node (Linux), or the wheel's HID interface through hidapi with the Logitech
//! classic or HID PID start-up sequence. [`FfbBackendKind::None`] gives a
//! [`NullBackend`], so the caller's pipeline runs the same either way.

use crate::evdev_input::EvdevDeviceInfo;
use crate::ffb::hidapi_device::{HidTarget, open_hid_pid, open_logitech_classic};
use gripline_input::ffb::backend::{FfbBackend, FfbError, NullBackend};
use gripline_input::known_wheels::FfbBackendKind;
use gripline_input::settings::device_identity::DeviceIdentity;

/// Default write rate of the Logitech classic backend over raw HID (new-lg4ff's own 2 ms
/// period, `docs/force-feedback-protocols.md` section 1.5).
pub const LOGITECH_RATE_HZ: f64 = 500.0;
/// Default write rate of the HID PID backend (direct-drive bases take 1 kHz, section 4.3).
pub const HID_PID_RATE_HZ: f64 = 1000.0;

/// A force-feedback backend the writer thread can own.
pub type BoxedBackend = Box<dyn FfbBackend + Send>;

/// What [`open_backend`] needs.
#[derive(Clone, Copy, Debug)]
pub struct OpenRequest<'a> {
    /// The backend to open.
    pub kind: FfbBackendKind,
    /// The device.
    pub identity: &'a DeviceIdentity,
    /// Its evdev event node with `FF_CONSTANT`, for the evdev backend (see [`ff_node`]).
    pub evdev_node: Option<&'a str>,
    /// Rotation range to set (Logitech classic only), degrees lock to lock.
    pub rotation_deg: Option<u16>,
}

/// The event node of `identity` that offers `FF_CONSTANT`, among `devices` (a wheel has one
/// event node with force feedback; other nodes of the same device, e.g. its LEDs, have
/// none). An exact identity match wins; otherwise the first node with the same vendor and
/// product ID, since an identity from gilrs carries a UUID where evdev has `uniq`/`phys`.
pub fn ff_node<'a>(
    devices: &'a [EvdevDeviceInfo],
    identity: &DeviceIdentity,
) -> Option<&'a EvdevDeviceInfo> {
    let with_ff = || devices.iter().filter(|d| d.ff.constant);
    with_ff()
        .find(|d| d.identity().same_device(identity))
        .or_else(|| {
            with_ff()
                .find(|d| d.vendor_id == identity.vendor_id && d.product_id == identity.product_id)
        })
}

/// Opens the backend `request` names.
///
/// # Errors
/// [`FfbError::Protocol`] when the evdev backend is asked for without a node (or off
/// Linux); the device's errors otherwise ([`FfbError::Disconnected`] when it is not
/// plugged in).
pub fn open_backend(request: &OpenRequest<'_>) -> Result<BoxedBackend, FfbError> {
    // By IDs only: the identity's serial/path comes from gilrs (a UUID) or evdev (`uniq` or
    // `phys`), which are not hidapi's serial strings. Two identical raw-HID wheels are not
    // told apart here.
    let target = HidTarget::ids(request.identity.vendor_id, request.identity.product_id);
    match request.kind {
        FfbBackendKind::None => Ok(Box::new(NullBackend)),
        FfbBackendKind::EvdevConstant => open_evdev(request.evdev_node),
        FfbBackendKind::LogitechClassic => Ok(Box::new(open_logitech_classic(
            &target,
            request.rotation_deg,
            LOGITECH_RATE_HZ,
        )?)),
        FfbBackendKind::HidPid => Ok(Box::new(open_hid_pid(&target, HID_PID_RATE_HZ)?)),
    }
}

#[cfg(target_os = "linux")]
fn open_evdev(node: Option<&str>) -> Result<BoxedBackend, FfbError> {
    let node = node.ok_or_else(|| {
        FfbError::Protocol("no evdev node with FF_CONSTANT for this device".to_owned())
    })?;
    Ok(Box::new(crate::ffb::evdev_ff_linux::open_evdev_ff(
        std::path::Path::new(node),
    )?))
}

#[cfg(not(target_os = "linux"))]
fn open_evdev(_node: Option<&str>) -> Result<BoxedBackend, FfbError> {
    Err(FfbError::Protocol(
        "evdev force feedback exists only on Linux".to_owned(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evdev_input::FfCapabilities;

    fn node(path: &str, product_id: u16, constant: bool) -> EvdevDeviceInfo {
        EvdevDeviceInfo {
            path: path.to_owned(),
            name: "Wheel".to_owned(),
            phys: format!("usb-1/{path}"),
            vendor_id: 0x046d,
            product_id,
            ff: FfCapabilities {
                constant,
                ..FfCapabilities::default()
            },
            ..EvdevDeviceInfo::default()
        }
    }

    #[test]
    fn finds_the_node_with_constant_force() {
        let devices = [
            node("/dev/input/event3", 0xc24f, false),
            node("/dev/input/event4", 0xc24f, true),
            node("/dev/input/event5", 0xc262, true),
        ];
        let g29 = DeviceIdentity::new(0x046d, 0xc24f, "G29", "");
        assert_eq!(
            ff_node(&devices, &g29).map(|d| d.path.as_str()),
            Some("/dev/input/event4")
        );
        // Two identical wheels: the exact path wins; a gilrs UUID falls back to the IDs.
        let second = [
            node("/dev/input/event4", 0xc24f, true),
            node("/dev/input/event8", 0xc24f, true),
        ];
        let by_path = DeviceIdentity::new(0x046d, 0xc24f, "G29", "usb-1//dev/input/event8");
        assert_eq!(
            ff_node(&second, &by_path).map(|d| d.path.as_str()),
            Some("/dev/input/event8")
        );
        let by_uuid = DeviceIdentity::new(0x046d, 0xc24f, "G29", "030000006d0400004fc2");
        assert_eq!(
            ff_node(&second, &by_uuid).map(|d| d.path.as_str()),
            Some("/dev/input/event4")
        );
        let other = DeviceIdentity::new(0x046d, 0xc299, "G25", "");
        assert!(ff_node(&devices, &other).is_none());
    }

    #[test]
    fn none_is_a_null_backend_and_missing_devices_are_errors() {
        let id = DeviceIdentity::new(0x1209, 0xfff1, "nothing", "");
        let request = |kind| OpenRequest {
            kind,
            identity: &id,
            evdev_node: None,
            rotation_deg: Some(900),
        };
        let mut null = open_backend(&request(FfbBackendKind::None)).unwrap();
        assert_eq!(null.send_level(0.5), Ok(()));
        assert!(matches!(
            open_backend(&request(FfbBackendKind::EvdevConstant)),
            Err(FfbError::Protocol(_))
        ));
        // Not plugged in (or no hidraw here): a clean error either way.
        assert!(open_backend(&request(FfbBackendKind::HidPid)).is_err());
        assert!(open_backend(&request(FfbBackendKind::LogitechClassic)).is_err());
    }
}

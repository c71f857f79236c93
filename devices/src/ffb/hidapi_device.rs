//! Raw HID force feedback through hidapi: the real [`HidOutput`] under the Logitech classic
//! and HID PID backends, and functions that find a wheel's HID interface and start a backend
//! on it.
//!
//! hidapi writes reports with the report ID first (0 when the device has none,
//! `docs/force-feedback-protocols.md` section 1.6). A device that is unplugged fails its writes;
//! those errors become [`FfbError::Disconnected`] ([`classify_hid_error`]), never a panic.
//!
//! Which interface: a wheel may expose several HID interfaces with the same vendor and
//! product ID. [`choose_interface`] takes an explicit path first, then an explicit interface
//! number, then the interface whose top-level usage is a joystick or gamepad (the one that
//! carries the force-feedback output reports), then the first.
//!
//! On Linux a raw HID writer shares the wheel with its kernel driver; that the two coexist is
//! unverified (`docs/force-feedback-protocols.md`, sections 1.6 and 6), so on Linux the evdev
//! backend is preferred ([`gripline_input::ffb::select`]). Opening needs access to `/dev/hidrawN` (a udev
//! rule).

use std::ffi::CString;

use hidapi::{HidApi, HidDevice, HidError};

use gripline_input::ffb::backend::FfbError;
use gripline_input::ffb::protocol::HidOutput;
use gripline_input::ffb::protocol::hid_pid::{HidPidBackend, PidLayout};
use gripline_input::ffb::protocol::logitech::{LogitechClassicBackend, range_command};

/// Generic Desktop usage page.
pub const USAGE_PAGE_GENERIC_DESKTOP: u16 = 0x01;
/// Generic Desktop: Joystick.
pub const USAGE_JOYSTICK: u16 = 0x04;
/// Generic Desktop: Game Pad.
pub const USAGE_GAMEPAD: u16 = 0x05;
/// Generic Desktop: Multi-axis Controller.
pub const USAGE_MULTI_AXIS: u16 = 0x08;

/// Largest report descriptor hidapi returns (`HID_API_MAX_REPORT_DESCRIPTOR_SIZE`).
pub const MAX_REPORT_DESCRIPTOR_SIZE: usize = 4096;

/// One HID interface as enumeration reports it (plain data, so the choice is testable).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HidCandidate {
    /// Platform path (`/dev/hidraw3`, a Windows device path...).
    pub path: String,
    /// USB vendor ID.
    pub vendor_id: u16,
    /// USB product ID.
    pub product_id: u16,
    /// USB interface number (-1 when unknown).
    pub interface: i32,
    /// Top-level usage page.
    pub usage_page: u16,
    /// Top-level usage.
    pub usage: u16,
    /// Serial number (empty when none).
    pub serial: String,
}

/// Which device to open.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HidTarget {
    /// USB vendor ID.
    pub vendor_id: u16,
    /// USB product ID.
    pub product_id: u16,
    /// Interface number, when the user or the known-wheel logic knows it.
    pub interface: Option<i32>,
    /// Exact platform path; wins over everything else.
    pub path: Option<String>,
    /// Serial number, to pick one of two identical wheels.
    pub serial: Option<String>,
}

impl HidTarget {
    /// Any interface of the device with these IDs.
    pub fn ids(vendor_id: u16, product_id: u16) -> Self {
        Self {
            vendor_id,
            product_id,
            ..Self::default()
        }
    }
}

fn is_game_usage(c: &HidCandidate) -> bool {
    c.usage_page == USAGE_PAGE_GENERIC_DESKTOP
        && matches!(c.usage, USAGE_JOYSTICK | USAGE_GAMEPAD | USAGE_MULTI_AXIS)
}

/// The index in `candidates` of the interface to open for `target` (see the module docs),
/// or `None` when no interface matches.
pub fn choose_interface(candidates: &[HidCandidate], target: &HidTarget) -> Option<usize> {
    if let Some(path) = &target.path {
        return candidates.iter().position(|c| &c.path == path);
    }
    let matching: Vec<usize> = candidates
        .iter()
        .enumerate()
        .filter(|(_, c)| {
            c.vendor_id == target.vendor_id
                && c.product_id == target.product_id
                && target
                    .serial
                    .as_ref()
                    .is_none_or(|s| s.is_empty() || &c.serial == s)
                && target.interface.is_none_or(|i| c.interface == i)
        })
        .map(|(i, _)| i)
        .collect();
    matching
        .iter()
        .copied()
        .find(|&i| is_game_usage(&candidates[i]))
        .or_else(|| matching.first().copied())
}

/// Whether an error message from hidapi says the device is gone: Linux `ENODEV`,
/// `ESHUTDOWN`, `EPIPE` texts, Windows `ERROR_DEVICE_NOT_CONNECTED` and
/// `ERROR_INVALID_HANDLE`, macOS `kIOReturnNotAttached`/`NoDevice`.
pub fn message_means_unplugged(message: &str) -> bool {
    let m = message.to_ascii_lowercase();
    [
        "no such device",
        "transport endpoint shutdown",
        "broken pipe",
        "not connected",
        "handle is invalid",
        "not attached",
        "nodevice",
        "no device",
    ]
    .iter()
    .any(|needle| m.contains(needle))
}

/// A hidapi error as an [`FfbError`]: unplug-like errors are [`FfbError::Disconnected`],
/// the rest [`FfbError::Io`].
pub fn classify_hid_error(error: &HidError) -> FfbError {
    let unplugged = match error {
        HidError::IoError { error } => {
            error.raw_os_error() == Some(crate::ffb::evdev_ff::ENODEV)
                || message_means_unplugged(&error.to_string())
        }
        HidError::HidApiError { message } => message_means_unplugged(message),
        _ => false,
    };
    if unplugged {
        FfbError::Disconnected
    } else {
        FfbError::Io(error.to_string())
    }
}

/// An opened HID interface (see the module docs). `hidapi::HidDevice` is `Send`, so the
/// backends built on it can move to the writer thread.
pub struct HidapiOutput {
    device: HidDevice,
    candidate: HidCandidate,
}

impl std::fmt::Debug for HidapiOutput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HidapiOutput")
            .field("candidate", &self.candidate)
            .finish_non_exhaustive()
    }
}

/// Every HID interface hidapi enumerates.
pub fn candidates(api: &HidApi) -> Vec<HidCandidate> {
    api.device_list()
        .map(|d| HidCandidate {
            path: d.path().to_string_lossy().into_owned(),
            vendor_id: d.vendor_id(),
            product_id: d.product_id(),
            interface: d.interface_number(),
            usage_page: d.usage_page(),
            usage: d.usage(),
            serial: d.serial_number().unwrap_or_default().to_owned(),
        })
        .collect()
}

impl HidapiOutput {
    /// Finds and opens `target`'s interface.
    ///
    /// # Errors
    /// [`FfbError::Disconnected`] when no interface matches (the wheel is not plugged in),
    /// [`FfbError::Io`] when it cannot be opened (permissions).
    pub fn open(api: &HidApi, target: &HidTarget) -> Result<Self, FfbError> {
        let list = candidates(api);
        let index = choose_interface(&list, target).ok_or(FfbError::Disconnected)?;
        let candidate = list[index].clone();
        let path = CString::new(candidate.path.clone())
            .map_err(|_| FfbError::Io("device path contains a NUL byte".to_owned()))?;
        let device = api.open_path(&path).map_err(|e| match e {
            // Opening a node that vanished since enumeration is an unplug too.
            e if matches!(classify_hid_error(&e), FfbError::Disconnected) => FfbError::Disconnected,
            e => FfbError::Io(format!("cannot open {}: {e}", candidate.path)),
        })?;
        Ok(Self { device, candidate })
    }

    /// The interface that was opened.
    pub fn candidate(&self) -> &HidCandidate {
        &self.candidate
    }

    /// The device's report descriptor.
    ///
    /// # Errors
    /// The device's error.
    pub fn report_descriptor(&self) -> Result<Vec<u8>, FfbError> {
        let mut buf = vec![0u8; MAX_REPORT_DESCRIPTOR_SIZE];
        let n = self
            .device
            .get_report_descriptor(&mut buf)
            .map_err(|e| classify_hid_error(&e))?;
        buf.truncate(n);
        Ok(buf)
    }
}

impl HidOutput for HidapiOutput {
    fn write(&mut self, report: &[u8]) -> Result<(), FfbError> {
        let n = self
            .device
            .write(report)
            .map_err(|e| classify_hid_error(&e))?;
        // Windows pads to the output report length, so more is fine; less is not.
        if n < report.len() {
            return Err(FfbError::Io(format!(
                "short write: {n} of {} bytes",
                report.len()
            )));
        }
        Ok(())
    }

    fn send_feature_report(&mut self, report: &[u8]) -> Result<(), FfbError> {
        self.device
            .send_feature_report(report)
            .map_err(|e| classify_hid_error(&e))
    }

    fn get_feature_report(&mut self, buf: &mut [u8]) -> Result<usize, FfbError> {
        self.device
            .get_feature_report(buf)
            .map_err(|e| classify_hid_error(&e))
    }
}

fn hidapi() -> Result<HidApi, FfbError> {
    HidApi::new().map_err(|e| FfbError::Io(format!("hidapi could not start: {e}")))
}

/// Opens a Logitech classic wheel and starts its backend with new-lg4ff's start-up
/// ([`LogitechClassicBackend::start`]): the rotation range `range_deg`, when given, in the
/// form the wheel's product ID takes ([`range_command`]: the Driving Force Pro's two
/// commands, the G25 form, or nothing for wheels with a fixed range).
///
/// # Errors
/// [`FfbError`] when the wheel is not found, cannot be opened or refuses a write.
pub fn open_logitech_classic(
    target: &HidTarget,
    range_deg: Option<u16>,
    rate_hz: f64,
) -> Result<LogitechClassicBackend<HidapiOutput>, FfbError> {
    let hid = HidapiOutput::open(&hidapi()?, target)?;
    LogitechClassicBackend::start(hid, range_command(target.product_id), range_deg, rate_hz)
}

/// Opens a HID PID wheel, reads and parses its report descriptor, and runs the start-up
/// sequence (reset, enable actuators, gain, create and start one constant force).
///
/// # Errors
/// [`FfbError`] when the wheel is not found or cannot be opened, its descriptor lacks the
/// PID reports, or it refuses the effect.
pub fn open_hid_pid(
    target: &HidTarget,
    rate_hz: f64,
) -> Result<HidPidBackend<HidapiOutput>, FfbError> {
    let hid = HidapiOutput::open(&hidapi()?, target)?;
    let layout = PidLayout::from_descriptor(&hid.report_descriptor()?)?;
    HidPidBackend::start(hid, layout, rate_hz)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn candidate(path: &str, interface: i32, usage_page: u16, usage: u16) -> HidCandidate {
        HidCandidate {
            path: path.to_owned(),
            vendor_id: 0x346e,
            product_id: 0x0002,
            interface,
            usage_page,
            usage,
            serial: String::new(),
        }
    }

    #[test]
    fn interface_choice() {
        let list = vec![
            HidCandidate {
                vendor_id: 0x046d,
                ..candidate("/dev/hidraw0", 0, 1, 4)
            },
            candidate("/dev/hidraw1", 1, 0xFF00, 1), // vendor interface
            candidate("/dev/hidraw2", 2, 1, USAGE_JOYSTICK),
            HidCandidate {
                serial: "B".to_owned(),
                ..candidate("/dev/hidraw3", 2, 1, USAGE_JOYSTICK)
            },
        ];
        let ids = HidTarget::ids(0x346e, 0x0002);
        assert_eq!(choose_interface(&list, &ids), Some(2));
        let by_interface = HidTarget {
            interface: Some(1),
            ..ids.clone()
        };
        assert_eq!(choose_interface(&list, &by_interface), Some(1));
        let by_serial = HidTarget {
            serial: Some("B".to_owned()),
            ..ids.clone()
        };
        assert_eq!(choose_interface(&list, &by_serial), Some(3));
        let by_path = HidTarget {
            path: Some("/dev/hidraw0".to_owned()),
            ..ids.clone()
        };
        assert_eq!(choose_interface(&list, &by_path), Some(0));
        // Only a vendor interface: take it.
        assert_eq!(choose_interface(&list[1..2], &ids), Some(0));
        assert_eq!(choose_interface(&list, &HidTarget::ids(0x1234, 1)), None);
        assert_eq!(choose_interface(&[], &ids), None);
    }

    #[test]
    fn unplug_errors_are_disconnections() {
        let api = |m: &str| HidError::HidApiError {
            message: m.to_owned(),
        };
        assert_eq!(
            classify_hid_error(&api("No such device")),
            FfbError::Disconnected
        );
        assert_eq!(
            classify_hid_error(&api("WriteFile: (0x0000048F) The device is not connected.")),
            FfbError::Disconnected
        );
        assert_eq!(
            classify_hid_error(&HidError::IoError {
                error: std::io::Error::from_raw_os_error(19)
            }),
            FfbError::Disconnected
        );
        assert!(matches!(
            classify_hid_error(&api("Permission denied")),
            FfbError::Io(_)
        ));
        assert!(matches!(
            classify_hid_error(&HidError::InvalidZeroSizeData),
            FfbError::Io(_)
        ));
    }

    #[test]
    fn missing_wheels_are_errors_not_panics() {
        // No hidraw devices here (or no such wheel): either way a clean error.
        let target = HidTarget::ids(0x1209, 0xfff0);
        assert!(open_hid_pid(&target, 1000.0).is_err());
        assert!(open_logitech_classic(&target, Some(900), 500.0).is_err());
    }
}

//! Which force-feedback backend drives a device: a pure decision from the known-wheel table,
//! what the device offers and the user's setting.
//!
//! Automatic choice (`docs/force-feedback-protocols.md` section 6):
//! 1. on Linux, evdev `FF_CONSTANT` when the kernel driver exposes it on the device's event
//!    node: it works through every kernel wheel driver and does not fight the driver for
//!    the device;
//! 2. otherwise the raw HID protocol the known-wheel table names (Logitech classic, HID
//!    PID), or HID PID for an unknown device whose report descriptor has the PID reports;
//! 3. otherwise none.
//!
//! A setting other than `Auto` wins, except that evdev cannot be chosen where it does not
//! exist (not Linux, or no `FF_CONSTANT` on the node): then there is no force feedback, and
//! the reason says so.

use crate::settings::ffb_settings::FfbBackendChoice;

use crate::known_wheels::{FfbBackendKind, KnownWheel};

/// The operating system, as far as backends care.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Platform {
    /// Linux: evdev is available.
    Linux,
    /// Anything else (Windows, macOS): raw HID only.
    Other,
}

impl Platform {
    /// The platform this program was built for.
    pub const fn current() -> Self {
        if cfg!(target_os = "linux") {
            Platform::Linux
        } else {
            Platform::Other
        }
    }
}

/// What is known about one device when choosing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SelectionInput<'a> {
    /// The known-wheel entry for its IDs.
    pub wheel: Option<&'a KnownWheel>,
    /// Whether its evdev node offers `FF_CONSTANT` (false when unknown or unreadable).
    pub evdev_constant: bool,
    /// Whether its HID report descriptor has the PID reports (false when not read).
    pub hid_pid_descriptor: bool,
    /// The user's setting.
    pub choice: FfbBackendChoice,
    /// The platform.
    pub platform: Platform,
}

/// The chosen backend and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BackendDecision {
    /// The backend.
    pub kind: FfbBackendKind,
    /// One line for `gripline devices` and the log.
    pub reason: &'static str,
}

const fn decision(kind: FfbBackendKind, reason: &'static str) -> BackendDecision {
    BackendDecision { kind, reason }
}

/// Chooses the backend (see the module docs).
pub fn choose_backend(input: &SelectionInput<'_>) -> BackendDecision {
    let evdev_ok = input.platform == Platform::Linux && input.evdev_constant;
    match input.choice {
        FfbBackendChoice::Off => decision(FfbBackendKind::None, "turned off in the settings"),
        FfbBackendChoice::Evdev if evdev_ok => decision(
            FfbBackendKind::EvdevConstant,
            "evdev chosen in the settings",
        ),
        FfbBackendChoice::Evdev => decision(
            FfbBackendKind::None,
            "evdev chosen in the settings, but the device has no FF_CONSTANT event node",
        ),
        FfbBackendChoice::LogitechClassic => decision(
            FfbBackendKind::LogitechClassic,
            "Logitech classic chosen in the settings",
        ),
        FfbBackendChoice::HidPid => {
            decision(FfbBackendKind::HidPid, "HID PID chosen in the settings")
        }
        FfbBackendChoice::Auto if evdev_ok => decision(
            FfbBackendKind::EvdevConstant,
            "the kernel driver offers FF_CONSTANT",
        ),
        FfbBackendChoice::Auto => match input.wheel.map(|w| w.backend) {
            Some(kind @ (FfbBackendKind::LogitechClassic | FfbBackendKind::HidPid)) => {
                decision(kind, "raw HID protocol of the known-wheel table")
            }
            Some(FfbBackendKind::EvdevConstant) => decision(
                FfbBackendKind::None,
                "this wheel needs its kernel or vendor driver, which offers no FF_CONSTANT here",
            ),
            _ if input.hid_pid_descriptor => decision(
                FfbBackendKind::HidPid,
                "its HID descriptor has the PID force-feedback reports",
            ),
            Some(FfbBackendKind::None) => {
                decision(FfbBackendKind::None, "no force feedback in this mode")
            }
            None => decision(
                FfbBackendKind::None,
                "not a known wheel and no force-feedback interface found",
            ),
        },
    }
}

/// A short name of a backend for listings.
pub fn backend_name(kind: FfbBackendKind) -> &'static str {
    match kind {
        FfbBackendKind::EvdevConstant => "evdev FF_CONSTANT (kernel driver)",
        FfbBackendKind::LogitechClassic => "Logitech classic over raw HID",
        FfbBackendKind::HidPid => "HID PID over raw HID",
        FfbBackendKind::None => "none",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::known_wheels::lookup;

    fn input(
        ids: (u16, u16),
        evdev_constant: bool,
        choice: FfbBackendChoice,
        platform: Platform,
    ) -> SelectionInput<'static> {
        SelectionInput {
            wheel: lookup(ids.0, ids.1),
            evdev_constant,
            hid_pid_descriptor: false,
            choice,
            platform,
        }
    }

    const G29: (u16, u16) = (0x046d, 0xc24f);
    const MOZA_R9: (u16, u16) = (0x346e, 0x0002);
    const T300: (u16, u16) = (0x044f, 0xb66e);
    const G920_XBOX: (u16, u16) = (0x046d, 0xc261);
    const UNKNOWN: (u16, u16) = (0x1234, 0x5678);

    fn kind(ids: (u16, u16), evdev: bool, choice: FfbBackendChoice, p: Platform) -> FfbBackendKind {
        choose_backend(&input(ids, evdev, choice, p)).kind
    }

    use FfbBackendChoice as C;
    use FfbBackendKind as K;
    use Platform::{Linux, Other};

    #[test]
    fn automatic_choice() {
        // Linux with a kernel FF driver: evdev, whatever the wheel.
        assert_eq!(kind(G29, true, C::Auto, Linux), K::EvdevConstant);
        assert_eq!(kind(MOZA_R9, true, C::Auto, Linux), K::EvdevConstant);
        assert_eq!(kind(T300, true, C::Auto, Linux), K::EvdevConstant);
        assert_eq!(kind(UNKNOWN, true, C::Auto, Linux), K::EvdevConstant);
        // No FF_CONSTANT node (no driver, no permission): the table's HID protocol.
        assert_eq!(kind(G29, false, C::Auto, Linux), K::LogitechClassic);
        assert_eq!(kind(MOZA_R9, false, C::Auto, Linux), K::HidPid);
        assert_eq!(kind(T300, false, C::Auto, Linux), K::None);
        // Elsewhere evdev does not exist, even if a caller claims it.
        assert_eq!(kind(G29, true, C::Auto, Other), K::LogitechClassic);
        assert_eq!(kind(MOZA_R9, true, C::Auto, Other), K::HidPid);
        assert_eq!(kind(T300, true, C::Auto, Other), K::None);
        assert_eq!(kind(G920_XBOX, false, C::Auto, Other), K::None);
        assert_eq!(kind(UNKNOWN, false, C::Auto, Other), K::None);
        // An unknown device with a PID descriptor.
        let pid = SelectionInput {
            hid_pid_descriptor: true,
            ..input(UNKNOWN, false, C::Auto, Other)
        };
        assert_eq!(choose_backend(&pid).kind, K::HidPid);
    }

    #[test]
    fn settings_override() {
        assert_eq!(kind(G29, true, C::Off, Linux), K::None);
        assert_eq!(
            kind(G29, true, C::LogitechClassic, Linux),
            K::LogitechClassic
        );
        assert_eq!(kind(G29, true, C::HidPid, Linux), K::HidPid);
        assert_eq!(kind(MOZA_R9, true, C::Evdev, Linux), K::EvdevConstant);
        let impossible = choose_backend(&input(MOZA_R9, false, C::Evdev, Linux));
        assert_eq!(impossible.kind, K::None);
        assert!(impossible.reason.contains("no FF_CONSTANT"));
        assert_eq!(kind(G29, true, C::Evdev, Other), K::None);
    }

    #[test]
    fn reasons_and_names() {
        let d = choose_backend(&input(G29, true, C::Auto, Linux));
        assert_eq!(d.reason, "the kernel driver offers FF_CONSTANT");
        assert_eq!(backend_name(d.kind), "evdev FF_CONSTANT (kernel driver)");
        assert_eq!(backend_name(K::None), "none");
    }
}

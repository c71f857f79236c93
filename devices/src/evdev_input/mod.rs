//! The Linux evdev input backend: wheels, pedal boxes, handbrakes and shifters read straight
//! from `/dev/input/eventN`, including the devices gilrs drops (no buttons, or fewer than two
//! axes: `docs/force-feedback-protocols.md` section 1.2).
//!
//! - this module: what a device is ([`EvdevDeviceInfo`]: identity, axes with their `absinfo`
//!   ranges, buttons, force-feedback capabilities) and which devices count as game
//!   controllers ([`EvdevDeviceInfo::is_game_controller`]);
//! - [`source`]: the raw event model and the two traits the backend reads through
//!   ([`source::EvdevSource`], [`source::EvdevEnumerator`]), with scripted fakes;
//! - [`backend`]: [`backend::EvdevBackend`], the [`gripline_input::device::InputBackend`] that maps raw
//!   events to [`gripline_input::device::InputEvent`]s, resynchronises after `SYN_DROPPED`, and handles
//!   hot-plug;
//! - `linux` (Linux only): the real device over the `evdev` crate and the listing for
//!   `gripline devices`.
//!
//! **Codes.** Axes and buttons are reported as `(type << 16) | code` (`EV_ABS` = 3,
//! `EV_KEY` = 1), the same numbers gilrs's `Code::into_u32` gives on Linux, so a binding made
//! while a device was read through gilrs holds when it is read through evdev and back.
//! Values are the raw integers with the `absinfo` minimum and maximum as the range; the
//! kernel's `fuzz` and `flat` are reported but not applied (calibration does that).

pub mod backend;
#[cfg(target_os = "linux")]
pub mod linux;
pub mod source;

use gripline_input::settings::device_identity::{DeviceIdentity, DeviceKind};

use gripline_input::device::AxisRange;
use gripline_input::known_wheels;

/// `EV_SYN`.
pub const EV_SYN: u16 = 0x00;
/// `EV_KEY`.
pub const EV_KEY: u16 = 0x01;
/// `EV_ABS`.
pub const EV_ABS: u16 = 0x03;
/// `SYN_REPORT`: end of one consistent set of changes.
pub const SYN_REPORT: u16 = 0;
/// `SYN_DROPPED`: the kernel's buffer overflowed and events were lost.
pub const SYN_DROPPED: u16 = 3;

/// `KEY_A`, the first letter key (a device with it is a keyboard).
pub const KEY_A: u16 = 30;
/// `BTN_MOUSE` (`BTN_LEFT`).
pub const BTN_MOUSE: u16 = 0x110;
/// `BTN_JOYSTICK` (`BTN_TRIGGER`), first joystick button.
pub const BTN_JOYSTICK: u16 = 0x120;
/// `BTN_GAMEPAD` (`BTN_SOUTH`).
pub const BTN_GAMEPAD: u16 = 0x130;
/// `BTN_DIGI`, first digitiser code (end of the gamepad range).
pub const BTN_DIGI: u16 = 0x140;
/// `BTN_TOUCH` (touchpads, touchscreens).
pub const BTN_TOUCH: u16 = 0x14a;
/// `BTN_WHEEL` (`BTN_GEAR_DOWN`).
pub const BTN_WHEEL: u16 = 0x150;
/// `BTN_GEAR_UP`.
pub const BTN_GEAR_UP: u16 = 0x151;
/// `BTN_TRIGGER_HAPPY`, first of 40 extra joystick buttons (wheels with many buttons).
pub const BTN_TRIGGER_HAPPY: u16 = 0x2c0;
/// `BTN_TRIGGER_HAPPY40`.
pub const BTN_TRIGGER_HAPPY40: u16 = 0x2e7;
/// `ABS_MISC`, the last single-touch absolute axis.
pub const ABS_MISC: u16 = 0x28;

/// The native code of an evdev event, as gilrs reports it on Linux: `(type << 16) | code`.
pub fn native_code(ev_type: u16, code: u16) -> u32 {
    (u32::from(ev_type) << 16) | u32::from(code)
}

/// One absolute axis and its `absinfo`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvdevAxis {
    /// `ABS_*` code.
    pub code: u16,
    /// Current value.
    pub value: i32,
    /// Declared minimum.
    pub min: i32,
    /// Declared maximum.
    pub max: i32,
    /// Kernel noise filter (changes smaller than this may be dropped by the kernel).
    pub fuzz: i32,
    /// Kernel dead zone around the centre.
    pub flat: i32,
}

impl EvdevAxis {
    /// The raw range to report, with the ends in order even if a driver swapped them.
    pub fn range(&self) -> AxisRange {
        AxisRange::new(self.min.min(self.max), self.min.max(self.max))
    }
}

/// Which force-feedback effects a device offers (`EVIOCGBIT(EV_FF)`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[allow(clippy::struct_excessive_bools)] // one flag per kernel capability bit
pub struct FfCapabilities {
    /// `FF_CONSTANT`: what the evdev backend needs.
    pub constant: bool,
    /// `FF_PERIODIC`.
    pub periodic: bool,
    /// `FF_RUMBLE` (gamepads).
    pub rumble: bool,
    /// `FF_SPRING`, `FF_DAMPER`, `FF_FRICTION` or `FF_INERTIA` (condition effects).
    pub condition: bool,
    /// `FF_GAIN`.
    pub gain: bool,
    /// `FF_AUTOCENTER`.
    pub autocenter: bool,
    /// How many effects the device holds at once.
    pub max_effects: usize,
}

impl FfCapabilities {
    /// Whether the device has any force feedback at all.
    pub fn any(&self) -> bool {
        self.constant || self.periodic || self.rumble || self.condition
    }

    /// A short description for `gripline devices`: `"FF_CONSTANT FF_GAIN ... (16 effects)"`,
    /// or `"none"`.
    pub fn describe(&self) -> String {
        let names: Vec<&str> = [
            (self.constant, "FF_CONSTANT"),
            (self.periodic, "FF_PERIODIC"),
            (self.rumble, "FF_RUMBLE"),
            (self.condition, "conditions"),
            (self.gain, "FF_GAIN"),
            (self.autocenter, "FF_AUTOCENTER"),
        ]
        .iter()
        .filter(|(has, _)| *has)
        .map(|&(_, name)| name)
        .collect();
        if names.is_empty() {
            "none".to_owned()
        } else {
            format!("{} ({} effects)", names.join(" "), self.max_effects)
        }
    }
}

/// What an evdev device is and offers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EvdevDeviceInfo {
    /// Event node (`/dev/input/event5`).
    pub path: String,
    /// Name the driver reports.
    pub name: String,
    /// Physical path (`usb-0000:00:14.0-2/input0`), empty when none.
    pub phys: String,
    /// Unique id (serial), empty when none.
    pub uniq: String,
    /// USB vendor ID.
    pub vendor_id: u16,
    /// USB product ID.
    pub product_id: u16,
    /// Absolute axes, sorted by code.
    pub axes: Vec<EvdevAxis>,
    /// `EV_KEY` codes, sorted.
    pub buttons: Vec<u16>,
    /// Force-feedback capabilities.
    pub ff: FfCapabilities,
    /// `INPUT_PROP_ACCELEROMETER`: a motion sensor (e.g. a gamepad's), not a control.
    pub accelerometer: bool,
}

impl EvdevDeviceInfo {
    /// The stable identity: vendor and product ID, name, and the serial (`uniq`) when the
    /// device has one, otherwise its physical path (stable while it stays in the same port).
    pub fn identity(&self) -> DeviceIdentity {
        let serial_or_path = if self.uniq.is_empty() {
            &self.phys
        } else {
            &self.uniq
        };
        DeviceIdentity::new(self.vendor_id, self.product_id, &self.name, serial_or_path)
    }

    /// A known wheel, or a device with force feedback, is a wheel; everything else a
    /// peripheral (native codes, not the standard gamepad codes).
    pub fn kind(&self) -> DeviceKind {
        if known_wheels::lookup(self.vendor_id, self.product_id).is_some() || self.ff.constant {
            DeviceKind::Wheel
        } else {
            DeviceKind::Peripheral
        }
    }

    /// The axis with this `ABS_*` code.
    pub fn axis(&self, code: u16) -> Option<&EvdevAxis> {
        self.axes
            .binary_search_by_key(&code, |a| a.code)
            .ok()
            .map(|i| &self.axes[i])
    }

    /// Whether this is a game controller worth reading: joystick, gamepad, wheel or
    /// trigger-happy buttons, or `FF_CONSTANT`, or (for button-less pedals and handbrakes)
    /// single-touch absolute axes on a device that is not a keyboard, mouse, touch device or
    /// motion sensor.
    pub fn is_game_controller(&self) -> bool {
        if self.accelerometer {
            return false;
        }
        let has = |lo: u16, hi: u16| self.buttons.iter().any(|&b| (lo..=hi).contains(&b));
        let game_buttons = has(BTN_JOYSTICK, BTN_DIGI - 1)
            || has(BTN_WHEEL, BTN_GEAR_UP)
            || has(BTN_TRIGGER_HAPPY, BTN_TRIGGER_HAPPY40);
        if game_buttons || self.ff.constant {
            return true;
        }
        let pointer_or_keyboard = self.buttons.contains(&BTN_TOUCH)
            || has(BTN_MOUSE, BTN_JOYSTICK - 1)
            || self.buttons.contains(&KEY_A);
        let plain_axes = self.axes.iter().any(|a| a.code <= ABS_MISC);
        plain_axes && !pointer_or_keyboard
    }

    /// Whether gilrs would list this device too (it needs at least one button and two axes:
    /// `docs/force-feedback-protocols.md` section 1.2). Those devices can be left to the gilrs
    /// backend.
    pub fn gilrs_visible(&self) -> bool {
        !self.buttons.is_empty() && self.axes.len() >= 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn axis(code: u16, min: i32, max: i32) -> EvdevAxis {
        EvdevAxis {
            code,
            value: 0,
            min,
            max,
            fuzz: 0,
            flat: 0,
        }
    }

    fn wheel() -> EvdevDeviceInfo {
        EvdevDeviceInfo {
            path: "/dev/input/event7".to_owned(),
            name: "Logitech G29 Driving Force Racing Wheel".to_owned(),
            phys: "usb-0000:00:14.0-2/input0".to_owned(),
            uniq: String::new(),
            vendor_id: 0x046d,
            product_id: 0xc24f,
            axes: vec![axis(0, 0, 65535), axis(1, 0, 255), axis(2, 0, 255)],
            buttons: vec![0x120, 0x121, 0x2c0],
            ff: FfCapabilities {
                constant: true,
                autocenter: true,
                gain: true,
                max_effects: 16,
                ..FfCapabilities::default()
            },
            accelerometer: false,
        }
    }

    #[test]
    fn codes_match_gilrs() {
        assert_eq!(native_code(EV_ABS, 0x00), 0x3_0000);
        assert_eq!(native_code(EV_KEY, 0x120), 0x1_0120);
    }

    #[test]
    fn identity_prefers_serial_then_path() {
        let mut w = wheel();
        assert_eq!(
            w.identity(),
            DeviceIdentity::new(
                0x046d,
                0xc24f,
                "Logitech G29 Driving Force Racing Wheel",
                "usb-0000:00:14.0-2/input0"
            )
        );
        w.uniq = "SN123".to_owned();
        assert_eq!(w.identity().serial_or_path, "SN123");
        assert_eq!(w.kind(), DeviceKind::Wheel);
        assert_eq!(
            w.axis(1).map(EvdevAxis::range),
            Some(AxisRange::new(0, 255))
        );
        assert_eq!(w.axis(5), None);
    }

    #[test]
    fn classification() {
        assert!(wheel().is_game_controller());
        assert!(wheel().gilrs_visible());
        // A standalone handbrake: one axis, no buttons; invisible to gilrs.
        let handbrake = EvdevDeviceInfo {
            name: "Handbrake".to_owned(),
            vendor_id: 0x1dd2,
            product_id: 0x1001,
            axes: vec![axis(0, 0, 4095)],
            ..EvdevDeviceInfo::default()
        };
        assert!(handbrake.is_game_controller());
        assert!(!handbrake.gilrs_visible());
        assert_eq!(handbrake.kind(), DeviceKind::Peripheral);
        // Keyboard, mouse, touchpad, motion sensor: no.
        let keyboard = EvdevDeviceInfo {
            buttons: vec![1, KEY_A, 31],
            ..EvdevDeviceInfo::default()
        };
        assert!(!keyboard.is_game_controller());
        let touchpad = EvdevDeviceInfo {
            axes: vec![axis(0, 0, 1000), axis(1, 0, 1000)],
            buttons: vec![BTN_MOUSE, BTN_TOUCH],
            ..EvdevDeviceInfo::default()
        };
        assert!(!touchpad.is_game_controller());
        let sensor = EvdevDeviceInfo {
            axes: vec![axis(0, -32768, 32767)],
            accelerometer: true,
            ..EvdevDeviceInfo::default()
        };
        assert!(!sensor.is_game_controller());
        // Multitouch-only axes are not controls.
        let mt = EvdevDeviceInfo {
            axes: vec![axis(0x35, 0, 100)],
            ..EvdevDeviceInfo::default()
        };
        assert!(!mt.is_game_controller());
        // A gear-up/down button box with no axes.
        let paddles = EvdevDeviceInfo {
            buttons: vec![BTN_WHEEL, BTN_GEAR_UP],
            ..EvdevDeviceInfo::default()
        };
        assert!(paddles.is_game_controller());
    }

    #[test]
    fn ff_descriptions_and_swapped_ranges() {
        assert_eq!(FfCapabilities::default().describe(), "none");
        assert!(!FfCapabilities::default().any());
        assert_eq!(
            wheel().ff.describe(),
            "FF_CONSTANT FF_GAIN FF_AUTOCENTER (16 effects)"
        );
        assert_eq!(axis(0, 255, 0).range(), AxisRange::new(0, 255));
    }
}

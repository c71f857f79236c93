//! Per-device files: the bindings, calibration and force-feedback device settings of one
//! device, in `devices/<stem>.ron` beside `settings.ron`.
//!
//! One file per [`DeviceMatch`]: `keyboard.ron`, `gamepad.ron` (any standard gamepad) and
//! one per device identity, e.g. `046d-c24f-g29-driving-force-racing-wheel.ron`. A broken
//! file loses only its own device's settings. The file's name is a label for people; the
//! device is the one written inside:
//!
//! ```ron
//! (
//!     schema_version: 2,
//!     device: Device((vendor_id: 1133, product_id: 49743, name: "G29 Driving Force Racing Wheel", serial_or_path: "")),
//!     axes: Some([(control: Steering, axis: 0, calibration: (...), rotation_deg: 900.0)]),
//!     buttons: Some([(action: Gear(1), button: 300)]),
//!     ffb: Some((invert: false, peak_torque_nm: Some(2.2), max_rate_hz: None)),
//! )
//! ```
//!
//! A missing `axes` or `buttons` list takes that device's defaults (the default keyboard
//! and gamepad bindings; none for a particular device); an empty list means none. Missing
//! `keyboard.ron` or `gamepad.ron` files take the defaults too, so a new user can drive.

use serde::{Deserialize, Serialize};

use crate::model::SCHEMA_VERSION;
use crate::model::Settings;
use gripline_input::settings::axis_calibration::AxisCalibration;
use gripline_input::settings::bindings::{
    AxisBinding, AxisControl, Bindings, ButtonAction, ButtonBinding,
};
use gripline_input::settings::device_identity::DeviceMatch;
use gripline_input::settings::ffb_settings::{FfbBackendChoice, FfbDeviceSettings};

/// Folder of the device files, inside the settings folder.
pub const DEVICES_DIR: &str = "devices";
/// Longest slug taken from a device's name or serial in a file name.
const MAX_SLUG_LEN: usize = 48;

/// An axis binding in a device file (the device is the file's).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DeviceAxisBinding {
    /// The control it drives.
    pub control: AxisControl,
    /// The device's axis code.
    pub axis: u32,
    /// Calibration of this axis.
    #[serde(default)]
    pub calibration: AxisCalibration,
    /// Steering only: the wheel's rotation range, lock to lock (deg).
    #[serde(default = "default_rotation_deg")]
    pub rotation_deg: f64,
}

fn default_rotation_deg() -> f64 {
    900.0
}

/// A button binding in a device file.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DeviceButtonBinding {
    /// The action.
    pub action: ButtonAction,
    /// The device's button code.
    pub button: u32,
}

/// Force-feedback settings of the file's device (see [`FfbDeviceSettings`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DeviceFfb {
    /// Reverse the torque direction.
    pub invert: bool,
    /// The device's peak torque (N·m); `None` uses the known-wheel estimate.
    pub peak_torque_nm: Option<f64>,
    /// Highest command rate (Hz); `None` uses the backend's default.
    pub max_rate_hz: Option<f64>,
    /// Backend for this device (automatic unless overridden).
    pub backend: FfbBackendChoice,
    /// The peak the user confirmed below the known-wheel table's (see
    /// [`FfbDeviceSettings::peak_confirmed_nm`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub peak_confirmed_nm: Option<f64>,
}

/// The content of one device file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DeviceFile {
    /// Schema the file follows.
    #[serde(default = "current_schema")]
    pub schema_version: u32,
    /// The device.
    pub device: DeviceMatch,
    /// Axis bindings; `None` (field missing) takes the device's defaults.
    #[serde(default)]
    pub axes: Option<Vec<DeviceAxisBinding>>,
    /// Button bindings; `None` takes the device's defaults.
    #[serde(default)]
    pub buttons: Option<Vec<DeviceButtonBinding>>,
    /// Force-feedback settings (particular devices only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ffb: Option<DeviceFfb>,
}

fn current_schema() -> u32 {
    SCHEMA_VERSION
}

/// Everything saved for one device, in memory.
#[derive(Clone, Debug, PartialEq)]
pub struct DeviceGroup {
    /// The device.
    pub device: DeviceMatch,
    /// Its axis bindings.
    pub axes: Vec<AxisBinding>,
    /// Its button bindings.
    pub buttons: Vec<ButtonBinding>,
    /// Its force-feedback settings.
    pub ffb: Option<FfbDeviceSettings>,
}

impl DeviceGroup {
    /// A group with no bindings.
    pub fn empty(device: DeviceMatch) -> Self {
        Self {
            device,
            axes: Vec::new(),
            buttons: Vec::new(),
            ffb: None,
        }
    }

    /// The default bindings of `device` (keyboard and any gamepad have some).
    pub fn defaults(device: DeviceMatch) -> Self {
        let b = Bindings::default();
        Self {
            axes: b.axes.into_iter().filter(|a| a.device == device).collect(),
            buttons: b
                .buttons
                .into_iter()
                .filter(|x| x.device == device)
                .collect(),
            ffb: None,
            device,
        }
    }

    /// The group a device file describes.
    pub fn from_file(file: DeviceFile) -> Self {
        let defaults = Self::defaults(file.device.clone());
        let device = file.device;
        let axes = file.axes.map_or(defaults.axes, |axes| {
            axes.into_iter()
                .map(|a| AxisBinding {
                    control: a.control,
                    device: device.clone(),
                    axis: a.axis,
                    calibration: a.calibration,
                    rotation_deg: a.rotation_deg,
                })
                .collect()
        });
        let buttons = file.buttons.map_or(defaults.buttons, |buttons| {
            buttons
                .into_iter()
                .map(|b| ButtonBinding {
                    action: b.action,
                    device: device.clone(),
                    button: b.button,
                })
                .collect()
        });
        let ffb = match (&device, file.ffb) {
            (DeviceMatch::Device(id), Some(f)) => Some(FfbDeviceSettings {
                device: id.clone(),
                invert: f.invert,
                peak_torque_nm: f.peak_torque_nm,
                max_rate_hz: f.max_rate_hz,
                backend: f.backend,
                peak_confirmed_nm: f.peak_confirmed_nm,
            }),
            _ => None,
        };
        Self {
            device,
            axes,
            buttons,
            ffb,
        }
    }

    /// The device file of this group (both lists always written, so "none" stays none).
    pub fn to_file(&self) -> DeviceFile {
        DeviceFile {
            schema_version: SCHEMA_VERSION,
            device: self.device.clone(),
            axes: Some(
                self.axes
                    .iter()
                    .map(|a| DeviceAxisBinding {
                        control: a.control,
                        axis: a.axis,
                        calibration: a.calibration.clone(),
                        rotation_deg: a.rotation_deg,
                    })
                    .collect(),
            ),
            buttons: Some(
                self.buttons
                    .iter()
                    .map(|b| DeviceButtonBinding {
                        action: b.action,
                        button: b.button,
                    })
                    .collect(),
            ),
            ffb: self.ffb.as_ref().map(|f| DeviceFfb {
                invert: f.invert,
                peak_torque_nm: f.peak_torque_nm,
                max_rate_hz: f.max_rate_hz,
                backend: f.backend,
                peak_confirmed_nm: f.peak_confirmed_nm,
            }),
        }
    }

    /// Adds `other`'s bindings to this group's (same device); its FFB settings fill in
    /// when this group has none.
    pub fn absorb(&mut self, other: DeviceGroup) {
        self.axes.extend(other.axes);
        self.buttons.extend(other.buttons);
        if self.ffb.is_none() {
            self.ffb = other.ffb;
        }
    }
}

/// `text` reduced to lower-case ASCII letters, digits and single dashes.
fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
        if out.len() >= MAX_SLUG_LEN {
            break;
        }
    }
    out.trim_matches('-').to_owned()
}

/// The file name (without `.ron`) a device's file gets, before any collision suffix.
pub fn file_stem(device: &DeviceMatch) -> String {
    match device {
        DeviceMatch::Keyboard => "keyboard".to_owned(),
        DeviceMatch::AnyGamepad => "gamepad".to_owned(),
        DeviceMatch::Device(id) => {
            let name = slug(&id.name);
            let mut stem = format!(
                "{:04x}-{:04x}-{}",
                id.vendor_id,
                id.product_id,
                if name.is_empty() { "device" } else { &name }
            );
            let serial = slug(&id.serial_or_path);
            if !serial.is_empty() {
                stem.push('-');
                stem.push_str(&serial);
            }
            stem
        }
    }
}

/// The order of groups: keyboard, any gamepad, then devices by file name and identity.
fn sort_key(device: &DeviceMatch) -> (u8, String, String) {
    match device {
        DeviceMatch::Keyboard => (0, String::new(), String::new()),
        DeviceMatch::AnyGamepad => (1, String::new(), String::new()),
        DeviceMatch::Device(id) => (2, file_stem(device), id.to_string()),
    }
}

/// Adds `group` to `groups`, merging it into the group of the same device if there is one.
pub fn add_group(groups: &mut Vec<DeviceGroup>, group: DeviceGroup) {
    match groups.iter_mut().find(|g| g.device == group.device) {
        Some(existing) => existing.absorb(group),
        None => groups.push(group),
    }
}

/// Sorts `groups` into their canonical order and gives each a distinct file stem.
pub fn canonical_groups(mut groups: Vec<DeviceGroup>) -> Vec<(String, DeviceGroup)> {
    groups.sort_by_cached_key(|g| sort_key(&g.device));
    let mut used: Vec<String> = Vec::new();
    groups
        .into_iter()
        .map(|g| {
            let base = file_stem(&g.device);
            let mut stem = base.clone();
            let mut n = 2;
            while used.contains(&stem) {
                stem = format!("{base}-{n}");
                n += 1;
            }
            used.push(stem.clone());
            (stem, g)
        })
        .collect()
}

/// The settings' bindings and FFB device settings grouped by device, in canonical order with
/// file stems; the keyboard and any-gamepad groups are always present (possibly empty).
pub fn split(settings: &Settings) -> Vec<(String, DeviceGroup)> {
    let mut groups = vec![
        DeviceGroup::empty(DeviceMatch::Keyboard),
        DeviceGroup::empty(DeviceMatch::AnyGamepad),
    ];
    for axis in &settings.bindings.axes {
        let mut g = DeviceGroup::empty(axis.device.clone());
        g.axes.push(axis.clone());
        add_group(&mut groups, g);
    }
    for button in &settings.bindings.buttons {
        let mut g = DeviceGroup::empty(button.device.clone());
        g.buttons.push(button.clone());
        add_group(&mut groups, g);
    }
    for ffb in &settings.ffb.devices {
        let mut g = DeviceGroup::empty(DeviceMatch::Device(ffb.device.clone()));
        g.ffb = Some(ffb.clone());
        add_group(&mut groups, g);
    }
    canonical_groups(groups)
}

/// Puts groups (in canonical order) back into `settings`' bindings and FFB device list.
pub fn merge_into(settings: &mut Settings, groups: Vec<(String, DeviceGroup)>) {
    settings.bindings.axes.clear();
    settings.bindings.buttons.clear();
    settings.ffb.devices.clear();
    for (_, g) in groups {
        settings.bindings.axes.extend(g.axes);
        settings.bindings.buttons.extend(g.buttons);
        settings.ffb.devices.extend(g.ffb);
    }
}

/// `settings` with bindings and FFB device settings in the order a load returns them:
/// grouped by device (keyboard, any gamepad, then devices by file name), the order within a
/// device kept. Saving and loading `s` gives `canonical(&s)`.
pub fn canonical(settings: &Settings) -> Settings {
    let mut out = settings.clone();
    merge_into(&mut out, split(settings));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use gripline_input::settings::device_identity::DeviceIdentity;

    #[test]
    fn stems_are_readable_and_distinct() {
        let g29 = DeviceMatch::Device(DeviceIdentity::new(
            0x046d,
            0xc24f,
            "G29 Driving Force Racing Wheel",
            "",
        ));
        assert_eq!(file_stem(&g29), "046d-c24f-g29-driving-force-racing-wheel");
        let odd = DeviceMatch::Device(DeviceIdentity::new(
            1,
            2,
            "../ /\\:*?\u{e9}",
            "/dev/input/event3",
        ));
        assert_eq!(file_stem(&odd), "0001-0002-device-dev-input-event3");
        let a = DeviceGroup::empty(DeviceMatch::Device(DeviceIdentity::new(1, 2, "A b", "")));
        let b = DeviceGroup::empty(DeviceMatch::Device(DeviceIdentity::new(1, 2, "a-B", "")));
        let stems: Vec<_> = canonical_groups(vec![b, a])
            .into_iter()
            .map(|(s, _)| s)
            .collect();
        assert_eq!(stems, ["0001-0002-a-b", "0001-0002-a-b-2"]);
    }

    #[test]
    fn defaults_are_already_canonical() {
        let s = Settings::default();
        assert_eq!(canonical(&s), s);
        let stems: Vec<_> = split(&s).into_iter().map(|(s, _)| s).collect();
        assert_eq!(stems, ["keyboard", "gamepad"]);
    }

    #[test]
    fn file_round_trip_keeps_empty_lists_empty() {
        let g = DeviceGroup::empty(DeviceMatch::Keyboard);
        assert_eq!(DeviceGroup::from_file(g.to_file()), g);
        let mut f = g.to_file();
        f.buttons = None;
        assert!(
            !DeviceGroup::from_file(f).buttons.is_empty(),
            "missing list = defaults"
        );
    }
}

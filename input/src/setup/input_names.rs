//! The names of inputs as the settings screen shows them: keys, gamepad controls, device
//! axes and buttons, and devices.

use crate::settings::device_identity::DeviceMatch;

use super::bind;

/// "G29 axis 2", "keyboard: Space", "any gamepad: right trigger".
pub fn binding_source_text(binding: &bind::Binding) -> String {
    match binding {
        bind::Binding::Axis(a) => code_text(&a.device, a.axis, true),
        bind::Binding::Button(b) => code_text(&b.device, b.button, false),
    }
}

/// A device's axis or button as the user knows it: key names on the keyboard, the standard
/// names on a gamepad, numbers elsewhere.
pub fn code_text(device: &DeviceMatch, code: u32, axis: bool) -> String {
    match device {
        DeviceMatch::Keyboard => format!("keyboard: {}", key_name(code)),
        DeviceMatch::AnyGamepad => format!("any gamepad: {}", gamepad_name(code, axis)),
        d @ DeviceMatch::Device(_) if axis => format!("{} axis {code}", device_text(d)),
        d @ DeviceMatch::Device(_) => format!("{} button {code}", device_text(d)),
    }
}

/// The name of a USB HID keyboard usage.
fn key_name(usage: u32) -> String {
    let letter = |base: u32, first: u8| {
        u8::try_from(usage - base)
            .ok()
            .and_then(|o| first.checked_add(o))
            .map_or_else(
                || format!("key 0x{usage:02x}"),
                |c| char::from(c).to_string(),
            )
    };
    match usage {
        0x04..=0x1D => letter(0x04, b'A'),
        0x1E..=0x26 => letter(0x1E, b'1'),
        0x27 => "0".into(),
        0x28 => "Enter".into(),
        0x29 => "Escape".into(),
        0x2A => "Backspace".into(),
        0x2B => "Tab".into(),
        0x2C => "Space".into(),
        0x3A..=0x45 => format!("F{}", usage - 0x39),
        0x4F => "Right arrow".into(),
        0x50 => "Left arrow".into(),
        0x51 => "Down arrow".into(),
        0x52 => "Up arrow".into(),
        0xE0 => "Left Ctrl".into(),
        0xE1 => "Left Shift".into(),
        0xE2 => "Left Alt".into(),
        0xE4 => "Right Ctrl".into(),
        0xE5 => "Right Shift".into(),
        0xE6 => "Right Alt".into(),
        _ => format!("key 0x{usage:02x}"),
    }
}

/// The name of a standard gamepad code ([`crate::settings::input_codes::gamepad`]).
fn gamepad_name(code: u32, axis: bool) -> String {
    use crate::settings::input_codes::gamepad as g;
    let name = if axis {
        match code {
            g::AXIS_LEFT_STICK_X => "left stick left/right",
            g::AXIS_LEFT_STICK_Y => "left stick up/down",
            g::AXIS_LEFT_TRIGGER => "left trigger",
            g::AXIS_RIGHT_STICK_X => "right stick left/right",
            g::AXIS_RIGHT_STICK_Y => "right stick up/down",
            g::AXIS_RIGHT_TRIGGER => "right trigger",
            _ => return format!("axis {code}"),
        }
    } else {
        match code {
            g::SOUTH => "A / cross",
            g::EAST => "B / circle",
            g::NORTH => "Y / triangle",
            g::WEST => "X / square",
            g::LEFT_SHOULDER => "left shoulder",
            g::RIGHT_SHOULDER => "right shoulder",
            g::SELECT => "select",
            g::START => "start",
            g::DPAD_UP => "d-pad up",
            g::DPAD_DOWN => "d-pad down",
            g::DPAD_LEFT => "d-pad left",
            g::DPAD_RIGHT => "d-pad right",
            _ => return format!("button {code}"),
        }
    };
    name.into()
}

/// A device as the user knows it: its name, else its USB IDs.
pub fn device_text(device: &DeviceMatch) -> String {
    match device {
        DeviceMatch::Device(id) if !id.name.is_empty() => id.name.clone(),
        DeviceMatch::Device(id) => format!("{:04x}:{:04x}", id.vendor_id, id.product_id),
        DeviceMatch::AnyGamepad => "any gamepad".into(),
        DeviceMatch::Keyboard => "keyboard".into(),
    }
}

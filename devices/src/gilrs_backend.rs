//! The gilrs input backend: gamepads, wheels and pedals through the `gilrs` crate (udev/evdev
//! on Linux, `Windows.Gaming.Input` on Windows, `IOKit` on macOS).
//!
//! gilrs is built with its default filters **off** (`docs/force-feedback-protocols.md` section 1.2:
//! its jitter filter and dead zone hide up to 4.5° of steering on a 900° wheel); calibration
//! happens in [`gripline_input::calibration`] instead.
//!
//! Axes and buttons are keyed on gilrs's native [`gilrs::ev::Code`] (`Code::into_u32`: the
//! evdev `ABS_*`/`BTN_*` code on Linux), not on its `Axis`/`Button` enums, which have no wheel,
//! throttle, brake or clutch and report those as `Unknown`.
//!
//! **Raw range:** gilrs does not expose an axis's raw value nor its declared raw range, only a
//! value normalised linearly to \[-1, 1\]. This backend therefore reports every axis as the raw
//! integer `round(value × 32767)` over the range `-32767..=32767` ([`GILRS_AXIS_RANGE`]); the
//! device's true resolution (e.g. 16 bits on a G29 wheel, 10 bits on T300 pedals) is lost to
//! rounding at that scale only when it is finer than 16 bits.
//!
//! Limitations inherited from gilrs: on Linux it only sees devices with `ID_INPUT_JOYSTICK=1`
//! that have at least one button and two axes (standalone pedal boxes and handbrakes may be
//! invisible), and its force feedback is rumble only (useless for steering torque).

use std::fmt::Write as _;
use std::time::Duration;

use gilrs::{EventType, GamepadId, Gilrs, GilrsBuilder};
use gripline_input::settings::device_identity::{DeviceIdentity, DeviceKind};

use gripline_input::device::{AxisRange, DeviceId, DeviceInfo, InputBackend, InputEvent};
use gripline_input::known_wheels::{self, KnownWheel};

/// The range every gilrs axis is reported in (see the module documentation).
pub const GILRS_AXIS_RANGE: AxisRange = AxisRange::new(-32767, 32767);

/// Button values (gilrs: 0..1) at or above this count as pressed.
pub const BUTTON_PRESSED_THRESHOLD: f32 = 0.5;

/// Why the gilrs backend could not start.
#[derive(Debug, thiserror::Error)]
pub enum InputBackendError {
    /// gilrs has no backend for this platform.
    #[error("gilrs does not support this platform")]
    Unsupported,
    /// gilrs failed to start (no udev, no permission to the input devices, ...).
    #[error("gilrs could not start: {0}")]
    Platform(String),
}

/// The raw integer reported for a gilrs axis value in \[-1, 1\], in [`GILRS_AXIS_RANGE`].
/// Values outside \[-1, 1\] are clamped; a non-finite value reads as the centre.
pub fn axis_raw(value: f32) -> i32 {
    if !value.is_finite() {
        return 0;
    }
    // Clamped to [-32767, 32767] first, so the conversion cannot overflow.
    #[allow(clippy::cast_possible_truncation)]
    let raw = (f64::from(value.clamp(-1.0, 1.0)) * 32767.0).round() as i32;
    raw
}

/// Whether a gilrs button value (0..1) counts as pressed ([`BUTTON_PRESSED_THRESHOLD`]).
pub fn button_pressed(value: f32) -> bool {
    value >= BUTTON_PRESSED_THRESHOLD
}

/// A gilrs event reduced to plain data, so its conversion is testable without gilrs
/// (gilrs's `Code` cannot be built outside gilrs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RawGilrsEvent {
    /// An axis moved to a normalised value in \[-1, 1\].
    Axis {
        /// Native code (`Code::into_u32`).
        code: u32,
        /// Normalised value.
        value: f32,
    },
    /// A button's value (0..1) changed.
    Button {
        /// Native code (`Code::into_u32`).
        code: u32,
        /// Value, 1 fully pressed.
        value: f32,
    },
    /// The device went away.
    Disconnected,
}

/// The [`InputEvent`] for a raw gilrs event of `device`.
pub fn convert(device: DeviceId, event: RawGilrsEvent) -> InputEvent {
    match event {
        RawGilrsEvent::Axis { code, value } => InputEvent::Axis {
            device,
            axis: code,
            value: axis_raw(value),
            range: GILRS_AXIS_RANGE,
        },
        RawGilrsEvent::Button { code, value } => InputEvent::Button {
            device,
            button: code,
            pressed: button_pressed(value),
        },
        RawGilrsEvent::Disconnected => InputEvent::Disconnected { device },
    }
}

/// The kind of a device with these IDs: a known wheel is a [`DeviceKind::Wheel`]; anything
/// else is a [`DeviceKind::Peripheral`], since this backend reports native codes, not the
/// standard gamepad codes [`DeviceKind::Gamepad`] promises.
pub fn kind_of(vendor_id: u16, product_id: u16) -> DeviceKind {
    if known_wheels::lookup(vendor_id, product_id).is_some() {
        DeviceKind::Wheel
    } else {
        DeviceKind::Peripheral
    }
}

/// A gilrs UUID as the identity's serial/path: 32 lowercase hex digits, empty when all zero.
///
/// On Linux gilrs derives it from bus, vendor, product and version, so two identical devices
/// share it; it distinguishes models and revisions, not units.
pub fn uuid_string(uuid: [u8; 16]) -> String {
    if uuid.iter().all(|&b| b == 0) {
        return String::new();
    }
    uuid.iter().fold(String::with_capacity(32), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// One axis of a listed device.
#[derive(Clone, Debug, PartialEq)]
pub struct AxisState {
    /// Native code.
    pub code: u32,
    /// Last value gilrs reported, normalised to \[-1, 1\] (0 until the axis first moves).
    pub value: f32,
}

/// One button of a listed device.
#[derive(Clone, Debug, PartialEq)]
pub struct ButtonState {
    /// Native code.
    pub code: u32,
    /// Last value gilrs reported, 0..1.
    pub value: f32,
    /// Whether it counts as pressed ([`BUTTON_PRESSED_THRESHOLD`]).
    pub pressed: bool,
}

/// A device as `gripline devices` lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct DeviceListing {
    /// The backend's handle.
    pub device: DeviceId,
    /// Stable identity.
    pub identity: DeviceIdentity,
    /// Whether it is plugged in.
    pub connected: bool,
    /// Axes gilrs has state for, by code.
    pub axes: Vec<AxisState>,
    /// Buttons gilrs has state for, by code.
    pub buttons: Vec<ButtonState>,
    /// Whether gilrs reports force feedback. gilrs's force feedback is **rumble only**
    /// (`docs/force-feedback-protocols.md` section 1.1): this says nothing about steering torque.
    pub gilrs_ff: bool,
    /// The matching entry of the known-wheel table, with its recommended FFB backend.
    pub known_wheel: Option<&'static KnownWheel>,
}

/// The gilrs input backend. See the module documentation.
pub struct GilrsBackend {
    gilrs: Gilrs,
    announced: bool,
}

impl std::fmt::Debug for GilrsBackend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GilrsBackend")
            .field("announced", &self.announced)
            .finish_non_exhaustive()
    }
}

impl GilrsBackend {
    /// Starts gilrs with its default filters off.
    ///
    /// # Errors
    /// [`InputBackendError`] when gilrs does not support the platform or cannot start (e.g.
    /// no udev in a container). Never panics for missing devices.
    pub fn new() -> Result<Self, InputBackendError> {
        match GilrsBuilder::new().with_default_filters(false).build() {
            Ok(gilrs) => Ok(Self {
                gilrs,
                announced: false,
            }),
            Err(gilrs::Error::NotImplemented(_)) => Err(InputBackendError::Unsupported),
            Err(other) => Err(InputBackendError::Platform(other.to_string())),
        }
    }

    /// Every device gilrs knows (connected or seen earlier), with its current state, sorted
    /// by handle; axes and buttons sorted by code.
    pub fn devices(&self) -> Vec<DeviceListing> {
        let mut list: Vec<DeviceListing> = self
            .gilrs
            .gamepads()
            .map(|(id, _)| self.listing(id))
            .collect();
        list.sort_by_key(|d| d.device.0);
        list
    }

    fn listing(&self, id: GamepadId) -> DeviceListing {
        let pad = self.gilrs.gamepad(id);
        let identity = self.identity(id);
        let state = pad.state();
        let mut axes: Vec<AxisState> = state
            .axes()
            .map(|(code, data)| AxisState {
                code: code.into_u32(),
                value: data.value(),
            })
            .collect();
        axes.sort_by_key(|a| a.code);
        let mut buttons: Vec<ButtonState> = state
            .buttons()
            .map(|(code, data)| ButtonState {
                code: code.into_u32(),
                value: data.value(),
                pressed: button_pressed(data.value()),
            })
            .collect();
        buttons.sort_by_key(|b| b.code);
        DeviceListing {
            device: device_id(id),
            known_wheel: known_wheels::lookup(identity.vendor_id, identity.product_id),
            identity,
            connected: pad.is_connected(),
            axes,
            buttons,
            gilrs_ff: pad.is_ff_supported(),
        }
    }

    fn identity(&self, id: GamepadId) -> DeviceIdentity {
        let pad = self.gilrs.gamepad(id);
        DeviceIdentity::new(
            pad.vendor_id().unwrap_or(0),
            pad.product_id().unwrap_or(0),
            pad.name(),
            &uuid_string(pad.uuid()),
        )
    }

    fn connected_event(&self, id: GamepadId) -> InputEvent {
        let identity = self.identity(id);
        let kind = kind_of(identity.vendor_id, identity.product_id);
        InputEvent::Connected {
            device: device_id(id),
            info: DeviceInfo { identity, kind },
        }
    }
}

/// The handle of a gilrs gamepad (saturating: gilrs never hands out 2³² handles).
fn device_id(id: GamepadId) -> DeviceId {
    DeviceId(u32::try_from(usize::from(id)).unwrap_or(u32::MAX))
}

impl InputBackend for GilrsBackend {
    /// Reports every event gilrs has queued. The gamepads present at start-up are announced
    /// with [`InputEvent::Connected`] on the first poll (gilrs only reports hot-plugs).
    /// `now` is unused: gilrs events are reported as they are drained.
    fn poll(&mut self, _now: Duration, out: &mut Vec<InputEvent>) {
        if !self.announced {
            self.announced = true;
            let ids: Vec<GamepadId> = self.gilrs.gamepads().map(|(id, _)| id).collect();
            for id in ids {
                out.push(self.connected_event(id));
            }
        }
        while let Some(event) = self.gilrs.next_event() {
            let device = device_id(event.id);
            let raw = match event.event {
                EventType::Connected => {
                    out.push(self.connected_event(event.id));
                    continue;
                }
                EventType::Disconnected => RawGilrsEvent::Disconnected,
                EventType::AxisChanged(_, value, code) => RawGilrsEvent::Axis {
                    code: code.into_u32(),
                    value,
                },
                EventType::ButtonChanged(_, value, code) => RawGilrsEvent::Button {
                    code: code.into_u32(),
                    value,
                },
                // Pressed/released duplicate ButtonChanged; the rest carry no input.
                _ => continue,
            };
            out.push(convert(device, raw));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_values_scale_to_the_documented_range() {
        assert_eq!(axis_raw(0.0), 0);
        assert_eq!(axis_raw(1.0), 32767);
        assert_eq!(axis_raw(-1.0), -32767);
        assert_eq!(axis_raw(0.5), 16384); // 16383.5 rounds away from zero
        assert_eq!(axis_raw(-0.5), -16384);
        assert_eq!(axis_raw(2.0), 32767);
        assert_eq!(axis_raw(-7.0), -32767);
        assert_eq!(axis_raw(f32::NAN), 0);
        assert_eq!(axis_raw(f32::INFINITY), 0);
        assert_eq!(GILRS_AXIS_RANGE, AxisRange::new(-32767, 32767));
    }

    #[test]
    fn axis_conversion_is_monotonic_and_symmetric() {
        let mut last = i32::MIN;
        for i in -1000..=1000 {
            let v = i as f32 / 1000.0;
            let raw = axis_raw(v);
            assert!(raw >= last);
            assert_eq!(axis_raw(-v), -raw);
            assert!((GILRS_AXIS_RANGE.min..=GILRS_AXIS_RANGE.max).contains(&raw));
            last = raw;
        }
    }

    #[test]
    fn buttons_press_at_half() {
        assert!(!button_pressed(0.0));
        assert!(!button_pressed(0.49));
        assert!(button_pressed(0.5));
        assert!(button_pressed(1.0));
        assert!(!button_pressed(f32::NAN));
    }

    #[test]
    fn events_convert_with_native_codes() {
        let d = DeviceId(3);
        assert_eq!(
            convert(
                d,
                RawGilrsEvent::Axis {
                    code: 0x02,
                    value: -0.25
                }
            ),
            InputEvent::Axis {
                device: d,
                axis: 0x02,
                value: -8192,
                range: GILRS_AXIS_RANGE
            }
        );
        assert_eq!(
            convert(
                d,
                RawGilrsEvent::Button {
                    code: 0x120,
                    value: 1.0
                }
            ),
            InputEvent::Button {
                device: d,
                button: 0x120,
                pressed: true
            }
        );
        assert_eq!(
            convert(d, RawGilrsEvent::Disconnected),
            InputEvent::Disconnected { device: d }
        );
    }

    #[test]
    fn kinds_and_uuids() {
        assert_eq!(kind_of(0x046d, 0xc24f), DeviceKind::Wheel);
        assert_eq!(kind_of(0x1234, 0x5678), DeviceKind::Peripheral);
        assert_eq!(uuid_string([0; 16]), "");
        let mut uuid = [0u8; 16];
        uuid[0] = 0xab;
        uuid[15] = 1;
        assert_eq!(uuid_string(uuid), "ab000000000000000000000000000001");
    }

    #[test]
    fn backend_starts_or_fails_cleanly_without_hardware() {
        // No hardware (and perhaps no udev) in CI: either outcome is fine, a panic is not.
        match GilrsBackend::new() {
            Ok(mut backend) => {
                let mut out = Vec::new();
                backend.poll(Duration::ZERO, &mut out);
                let _ = backend.devices();
            }
            Err(e) => assert!(!e.to_string().is_empty()),
        }
    }
}

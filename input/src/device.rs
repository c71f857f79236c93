//! The device model: what every input backend (gilrs, evdev, hidapi, the keyboard from the
//! window, or a script) produces, and a scripted device that replays a timeline through the
//! same code path.
//!
//! Backends report raw integer axis values together with the axis's raw range, so that
//! calibration sees exactly what the device sent (no backend-side normalisation, jitter
//! filter or dead zone: `docs/force-feedback-protocols.md` section 1.2). Devices are named by a
//! stable [`DeviceIdentity`]; the [`DeviceId`] handle only lives while the device is plugged in.
//!
//! Time is passed in as a [`Duration`] since the start of the session, never read from a
//! clock here, so scripted runs are deterministic.

use std::time::Duration;

use crate::settings::device_identity::{DeviceIdentity, DeviceKind};

/// A backend's handle for a plugged-in device. A device may get another handle when it is
/// plugged in again; its [`DeviceIdentity`] stays the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DeviceId(pub u32);

/// Inclusive raw range an axis reports (evdev `absinfo` min/max, HID logical min/max).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AxisRange {
    /// Lowest raw value.
    pub min: i32,
    /// Highest raw value.
    pub max: i32,
}

impl AxisRange {
    /// A range from its ends.
    pub const fn new(min: i32, max: i32) -> Self {
        Self { min, max }
    }
}

/// Who a connected device is and what kind it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceInfo {
    /// Stable identity, the key of bindings and calibration.
    pub identity: DeviceIdentity,
    /// Kind, for bindings that match by kind (keyboard, any gamepad).
    pub kind: DeviceKind,
}

/// One thing a device did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputEvent {
    /// A device appeared (at start-up, or plugged in).
    Connected {
        /// Its handle from now on.
        device: DeviceId,
        /// Who it is.
        info: DeviceInfo,
    },
    /// A device went away (unplugged, or failed: a read error counts as a disconnection).
    Disconnected {
        /// Its handle.
        device: DeviceId,
    },
    /// An axis reported a new raw value.
    Axis {
        /// The device.
        device: DeviceId,
        /// Native axis code.
        axis: u32,
        /// Raw value.
        value: i32,
        /// The axis's raw range as the device declares it.
        range: AxisRange,
    },
    /// A button was pressed or released.
    Button {
        /// The device.
        device: DeviceId,
        /// Native button code.
        button: u32,
        /// `true` pressed, `false` released.
        pressed: bool,
    },
}

/// A source of input events: implemented by the gilrs, evdev and hidapi backends, the
/// window's keyboard, and `ScriptedDevice`.
pub trait InputBackend {
    /// Appends to `out`, in order, every event that happened up to `now` and was not
    /// reported yet. Must not block. `out` is reused from tick to tick, so a backend that
    /// reports only axis and button events does not allocate.
    fn poll(&mut self, now: Duration, out: &mut Vec<InputEvent>);
}

#[cfg(any(test, feature = "test-support"))]
/// What a scripted device does at one moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScriptedStep {
    /// Plugged in.
    Connect,
    /// Unplugged.
    Disconnect,
    /// An axis moves to a raw value.
    Axis {
        /// Axis code.
        axis: u32,
        /// Raw value.
        value: i32,
        /// Declared raw range.
        range: AxisRange,
    },
    /// A button changes.
    Button {
        /// Button code.
        button: u32,
        /// Pressed or released.
        pressed: bool,
    },
}

#[cfg(any(test, feature = "test-support"))]
/// A device that replays a timeline of steps, for tests and demos. It produces the same
/// [`InputEvent`]s as a real backend, so the mapper cannot tell the difference.
#[derive(Clone, Debug)]
pub struct ScriptedDevice {
    device: DeviceId,
    info: DeviceInfo,
    timeline: Vec<(Duration, ScriptedStep)>,
    next: usize,
}

#[cfg(any(test, feature = "test-support"))]
impl ScriptedDevice {
    /// A device with an empty timeline (add a [`ScriptedStep::Connect`] to plug it in).
    pub fn new(device: DeviceId, identity: DeviceIdentity, kind: DeviceKind) -> Self {
        Self {
            device,
            info: DeviceInfo { identity, kind },
            timeline: Vec::new(),
            next: 0,
        }
    }

    /// Adds a step at `at`; steps at equal times keep the order they were added in.
    #[must_use]
    pub fn at(mut self, at: Duration, step: ScriptedStep) -> Self {
        let index = self.timeline.partition_point(|(t, _)| *t <= at);
        self.timeline.insert(index, (at, step));
        self
    }

    /// Adds a step `ms` milliseconds after the start.
    #[must_use]
    pub fn at_ms(self, ms: u64, step: ScriptedStep) -> Self {
        self.at(Duration::from_millis(ms), step)
    }

    /// The device's handle.
    pub fn id(&self) -> DeviceId {
        self.device
    }

    /// Who the device is.
    pub fn info(&self) -> &DeviceInfo {
        &self.info
    }

    /// Whether every step has been replayed.
    pub fn finished(&self) -> bool {
        self.next >= self.timeline.len()
    }
}

#[cfg(any(test, feature = "test-support"))]
impl InputBackend for ScriptedDevice {
    fn poll(&mut self, now: Duration, out: &mut Vec<InputEvent>) {
        while let Some(&(at, step)) = self.timeline.get(self.next) {
            if at > now {
                break;
            }
            self.next += 1;
            let device = self.device;
            out.push(match step {
                ScriptedStep::Connect => InputEvent::Connected {
                    device,
                    info: self.info.clone(),
                },
                ScriptedStep::Disconnect => InputEvent::Disconnected { device },
                ScriptedStep::Axis { axis, value, range } => InputEvent::Axis {
                    device,
                    axis,
                    value,
                    range,
                },
                ScriptedStep::Button { button, pressed } => InputEvent::Button {
                    device,
                    button,
                    pressed,
                },
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replays_in_time_order() {
        let range = AxisRange::new(0, 255);
        let mut dev = ScriptedDevice::new(
            DeviceId(7),
            DeviceIdentity::new(0x046d, 0xc29b, "G27", ""),
            DeviceKind::Wheel,
        )
        .at_ms(
            10,
            ScriptedStep::Axis {
                axis: 1,
                value: 3,
                range,
            },
        )
        .at_ms(0, ScriptedStep::Connect)
        .at_ms(
            10,
            ScriptedStep::Button {
                button: 2,
                pressed: true,
            },
        );
        let mut out = Vec::new();
        dev.poll(Duration::from_millis(5), &mut out);
        assert_eq!(out.len(), 1);
        assert!(matches!(
            out[0],
            InputEvent::Connected {
                device: DeviceId(7),
                ..
            }
        ));
        out.clear();
        dev.poll(Duration::from_millis(10), &mut out);
        assert_eq!(
            out,
            [
                InputEvent::Axis {
                    device: DeviceId(7),
                    axis: 1,
                    value: 3,
                    range
                },
                InputEvent::Button {
                    device: DeviceId(7),
                    button: 2,
                    pressed: true
                }
            ]
        );
        assert!(dev.finished());
        out.clear();
        dev.poll(Duration::from_secs(1), &mut out);
        assert!(out.is_empty());
    }
}

//! The control mapper: keeps the newest state of every bound device and produces one
//! [`Controls`] per tick.
//!
//! Bindings ([`Bindings`], from the settings file) name devices by identity or kind. When a
//! device connects, every binding that matches it attaches to it; its events then update
//! those bindings only. Each tick, [`ControlMapper::tick`] evaluates the calibrations and
//! combines the sources:
//!
//! - throttle, brake, clutch, handbrake: the largest value of all their sources (analogue
//!   axes, combined pedals, buttons);
//! - steering: the analogue source furthest from centre plus the button steering. Devices
//!   report steering positive to the right; [`Controls`] is positive to the left (ISO 8855),
//!   so the mapper changes the sign;
//! - H-pattern: `Some(gear)` while any gear binding is attached to a device (neutral when no
//!   gear button is held; the most recent press wins, see [`crate::shifter`]), `None` when
//!   no H-shifter is bound;
//! - sequential shifts, reset, pause, camera and the FFB kill switch: one-tick edges.
//!
//! The keyboard is a device like the others: the app announces it once with
//! [`InputEvent::Connected`] (kind `Keyboard`, identity `DeviceIdentity::keyboard()`) and
//! reports keys as buttons with their USB HID usage codes.
//!
//! Button-driven steering and pedals are rate limited ([`crate::digital`]); analogue axes are
//! not filtered.
//!
//! Hot-plug: when a device disconnects, its controls read their safe values at once
//! (throttle 0, steering centre, handbrake off, gears neutral, brake and clutch per
//! [`DeviceLostPolicy`]) and
//! [`InputNotice::DeviceLost`] tells the app to pause. When a device with the same identity
//! comes back, the same bindings and calibration attach to it again.
//!
//! Per tick and per event the mapper does not allocate: device slots and their caches are
//! reserved when a device connects, and bindings are compiled when they are applied.

use crate::settings::bindings::{
    AxisControl, Bindings, ButtonAction, DeviceLostPolicy, DigitalResponse,
};
use gripline_physics::controls::Controls;

use crate::calibration::{AxisMap, steering_wheel_rad};
use crate::device::{AxisRange, DeviceId, DeviceInfo, InputEvent};
use crate::digital::{DigitalPedal, DigitalSteering};
use crate::settings::device_identity::DeviceMatch;
use crate::shifter::{EdgeLatch, HPattern};

/// Most devices tracked at once (connected or remembered after unplugging).
pub const MAX_DEVICES: usize = 16;
/// Most distinct axis codes remembered per device.
pub const MAX_AXES_PER_DEVICE: usize = 64;
/// Most buttons remembered as held per device.
pub const MAX_HELD_BUTTONS: usize = 64;

/// Something the app must react to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputNotice {
    /// A device was plugged in (or found at start-up).
    DeviceConnected {
        /// Its handle.
        device: DeviceId,
        /// It had been connected before in this session (same identity): its bindings and
        /// calibration apply again.
        returning: bool,
        /// At least one binding is attached to it.
        carries_controls: bool,
    },
    /// A device went away. Its controls already read their safe values; when
    /// `carries_controls` the app should pause the session and say so.
    DeviceLost {
        /// Its handle.
        device: DeviceId,
        /// At least one binding was attached to it.
        carries_controls: bool,
    },
    /// A device connected but the mapper already tracks [`MAX_DEVICES`]; it is ignored.
    TooManyDevices {
        /// Its handle.
        device: DeviceId,
    },
}

/// Commands for the app and the camera that are not driving controls.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[allow(clippy::struct_excessive_bools)] // independent flags, one per action
pub struct UiActions {
    /// Reset the car (one tick per press).
    pub reset: bool,
    /// Toggle pause (one tick per press).
    pub pause: bool,
    /// Next camera (one tick per press).
    pub camera: bool,
    /// Force-feedback kill switch pressed (one tick per press).
    pub ffb_off: bool,
    /// Look left held.
    pub look_left: bool,
    /// Look right held.
    pub look_right: bool,
}

/// What one tick of input produced.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TickOutput {
    /// The driving controls, sanitised ([`Controls::sanitized`]).
    pub controls: Controls,
    /// Everything else.
    pub actions: UiActions,
    /// The physical steering wheel's angle (rad, positive counter-clockwise), before the
    /// car's lock: equal to `controls.steering_wheel_rad` when the wheel maps 1:1 to the car,
    /// the angle the wheel is really at when its full rotation is mapped to the car's lock
    /// ([`ControlMapper::map_rotation_to_lock`]). Force feedback's damping and soft lock
    /// act on this angle.
    pub physical_steering_rad: f64,
}

#[derive(Clone, Debug)]
struct DeviceSlot {
    id: DeviceId,
    info: DeviceInfo,
    connected: bool,
    /// Last raw value of every axis seen: (code, value, range).
    axes: Vec<(u32, i32, AxisRange)>,
    /// Buttons currently held.
    held: Vec<u32>,
}

#[derive(Clone, Debug)]
struct BoundAxis {
    control: AxisControl,
    device: DeviceMatch,
    axis: u32,
    rotation_deg: f64,
    map: AxisMap,
    slot: Option<usize>,
    raw: Option<(i32, AxisRange)>,
    lost: bool,
}

#[derive(Clone, Debug)]
struct BoundButton {
    action: ButtonAction,
    device: DeviceMatch,
    button: u32,
    slot: Option<usize>,
    pressed: bool,
}

/// Turns device events into one [`Controls`] per tick (see the module documentation).
#[derive(Clone, Debug)]
pub struct ControlMapper {
    slots: Vec<DeviceSlot>,
    axes: Vec<BoundAxis>,
    buttons: Vec<BoundButton>,
    digital: DigitalResponse,
    lost: DeviceLostPolicy,
    steer: DigitalSteering,
    throttle: DigitalPedal,
    brake: DigitalPedal,
    clutch: DigitalPedal,
    gears: HPattern,
    shift_up: EdgeLatch,
    shift_down: EdgeLatch,
    reset: EdgeLatch,
    pause: EdgeLatch,
    camera: EdgeLatch,
    ffb_off: EdgeLatch,
    /// When set, a steering axis's full rotation maps to this steering-wheel lock (degrees
    /// each side) instead of 1:1.
    lock_map_deg: Option<f64>,
}

impl ControlMapper {
    /// A mapper with `bindings` and no device connected yet.
    pub fn new(bindings: &Bindings) -> Self {
        let mut mapper = Self {
            slots: Vec::with_capacity(MAX_DEVICES),
            axes: Vec::new(),
            buttons: Vec::new(),
            digital: bindings.digital,
            lost: bindings.device_lost,
            steer: DigitalSteering::default(),
            throttle: DigitalPedal::default(),
            brake: DigitalPedal::default(),
            clutch: DigitalPedal::default(),
            gears: HPattern::new(),
            shift_up: EdgeLatch::default(),
            shift_down: EdgeLatch::default(),
            reset: EdgeLatch::default(),
            pause: EdgeLatch::default(),
            camera: EdgeLatch::default(),
            ffb_off: EdgeLatch::default(),
            lock_map_deg: None,
        };
        mapper.set_bindings(bindings);
        mapper
    }

    /// Applies new bindings or calibration (from the settings screen). Connected devices
    /// keep their state: bound axes read the device's last reported value at once, so
    /// applying a calibration mid-drive does not release the pedals. Allocates; call it from
    /// a command, not every tick.
    pub fn set_bindings(&mut self, bindings: &Bindings) {
        self.digital = bindings.digital;
        self.lost = bindings.device_lost;
        self.axes = bindings
            .axes
            .iter()
            .map(|b| BoundAxis {
                control: b.control,
                device: b.device.clone(),
                axis: b.axis,
                rotation_deg: b.rotation_deg,
                map: AxisMap::new(&b.calibration, b.control.is_centred()),
                slot: None,
                raw: None,
                lost: false,
            })
            .collect();
        self.buttons = bindings
            .buttons
            .iter()
            .map(|b| BoundButton {
                action: b.action,
                device: b.device.clone(),
                button: b.button,
                slot: None,
                pressed: false,
            })
            .collect();
        self.gears.clear();
        for index in 0..self.slots.len() {
            if self.slots[index].connected {
                self.attach(index);
            }
        }
    }

    /// Handles one event from a backend; returns a notice when the app must react.
    pub fn handle(&mut self, event: &InputEvent) -> Option<InputNotice> {
        match event {
            InputEvent::Connected { device, info } => Some(self.connect(*device, info)),
            InputEvent::Disconnected { device } => self.disconnect(*device),
            InputEvent::Axis {
                device,
                axis,
                value,
                range,
            } => {
                self.axis(*device, *axis, *value, *range);
                None
            }
            InputEvent::Button {
                device,
                button,
                pressed,
            } => {
                self.button(*device, *button, *pressed);
                None
            }
        }
    }

    /// The connected device with handle `device`.
    pub fn device(&self, device: DeviceId) -> Option<&DeviceInfo> {
        self.slots
            .iter()
            .find(|s| s.connected && s.id == device)
            .map(|s| &s.info)
    }

    /// Every device seen this session, with whether it is connected now.
    pub fn devices(&self) -> impl Iterator<Item = (&DeviceInfo, bool)> {
        self.slots.iter().map(|s| (&s.info, s.connected))
    }

    /// The last raw value and range of axis `axis` of device `device`, for the calibration
    /// screen (any axis the device has reported, bound or not).
    pub fn raw_axis(&self, device: DeviceId, axis: u32) -> Option<(i32, AxisRange)> {
        let slot = self.slots.iter().find(|s| s.connected && s.id == device)?;
        slot.axes
            .iter()
            .find(|(code, _, _)| *code == axis)
            .map(|&(_, value, range)| (value, range))
    }

    fn slot_of(&self, device: DeviceId) -> Option<usize> {
        self.slots
            .iter()
            .position(|s| s.connected && s.id == device)
    }

    fn connect(&mut self, device: DeviceId, info: &DeviceInfo) -> InputNotice {
        // The same handle announced twice, or a device seen before with this identity.
        let existing = self.slot_of(device).or_else(|| {
            self.slots.iter().position(|s| {
                !s.connected
                    && s.info.kind == info.kind
                    && s.info.identity.same_device(&info.identity)
            })
        });
        let (index, returning) = if let Some(index) = existing {
            (index, true)
        } else if self.slots.len() < MAX_DEVICES {
            self.slots.push(DeviceSlot {
                id: device,
                info: info.clone(),
                connected: false,
                axes: Vec::with_capacity(MAX_AXES_PER_DEVICE),
                held: Vec::with_capacity(MAX_HELD_BUTTONS),
            });
            (self.slots.len() - 1, false)
        } else {
            return InputNotice::TooManyDevices { device };
        };
        let slot = &mut self.slots[index];
        slot.id = device;
        slot.info.clone_from(info);
        slot.connected = true;
        slot.axes.clear();
        slot.held.clear();
        self.attach(index);
        InputNotice::DeviceConnected {
            device,
            returning,
            carries_controls: self.carries_controls(index),
        }
    }

    /// Attaches to slot `index` every binding that matches it and is not attached to another
    /// connected device, seeding it from the slot's remembered state.
    fn attach(&mut self, index: usize) {
        let slots = &self.slots;
        let slot = &slots[index];
        let free =
            |current: Option<usize>| current.is_none_or(|s| s == index || !slots[s].connected);
        for b in &mut self.axes {
            if b.device.matches(&slot.info.identity, slot.info.kind) && free(b.slot) {
                b.slot = Some(index);
                b.lost = false;
                b.raw = slot
                    .axes
                    .iter()
                    .find(|(code, _, _)| *code == b.axis)
                    .map(|&(_, value, range)| (value, range));
            }
        }
        for b in &mut self.buttons {
            if b.device.matches(&slot.info.identity, slot.info.kind) && free(b.slot) {
                b.slot = Some(index);
                b.pressed = slot.held.contains(&b.button);
                if let ButtonAction::Gear(g) = b.action {
                    self.gears.set(g, b.pressed);
                }
            }
        }
    }

    fn carries_controls(&self, index: usize) -> bool {
        self.axes.iter().any(|b| b.slot == Some(index))
            || self.buttons.iter().any(|b| b.slot == Some(index))
    }

    fn disconnect(&mut self, device: DeviceId) -> Option<InputNotice> {
        let index = self.slot_of(device)?;
        self.slots[index].connected = false;
        self.slots[index].held.clear();
        for b in self.axes.iter_mut().filter(|b| b.slot == Some(index)) {
            b.raw = None;
            b.lost = true;
        }
        for b in self.buttons.iter_mut().filter(|b| b.slot == Some(index)) {
            b.pressed = false;
            if let ButtonAction::Gear(g) = b.action {
                self.gears.set(g, false);
            }
        }
        Some(InputNotice::DeviceLost {
            device,
            carries_controls: self.carries_controls(index),
        })
    }

    fn axis(&mut self, device: DeviceId, axis: u32, value: i32, range: AxisRange) {
        let Some(index) = self.slot_of(device) else {
            return;
        };
        let cache = &mut self.slots[index].axes;
        if let Some(entry) = cache.iter_mut().find(|(code, _, _)| *code == axis) {
            *entry = (axis, value, range);
        } else if cache.len() < cache.capacity() {
            cache.push((axis, value, range));
        }
        for b in &mut self.axes {
            if b.slot == Some(index) && b.axis == axis {
                b.raw = Some((value, range));
            }
        }
    }

    fn button(&mut self, device: DeviceId, button: u32, pressed: bool) {
        let Some(index) = self.slot_of(device) else {
            return;
        };
        let held = &mut self.slots[index].held;
        let position = held.iter().position(|&b| b == button);
        match (pressed, position) {
            (true, None) if held.len() < held.capacity() => held.push(button),
            (false, Some(i)) => {
                held.swap_remove(i);
            }
            _ => {}
        }
        for b in &mut self.buttons {
            if b.slot != Some(index) || b.button != button {
                continue;
            }
            let was = b.pressed;
            b.pressed = pressed;
            match b.action {
                ButtonAction::Gear(g) => self.gears.set(g, pressed),
                ButtonAction::ShiftUp => self.shift_up.set(pressed && !was),
                ButtonAction::ShiftDown => self.shift_down.set(pressed && !was),
                ButtonAction::Reset => self.reset.set(pressed && !was),
                ButtonAction::Pause => self.pause.set(pressed && !was),
                ButtonAction::Camera => self.camera.set(pressed && !was),
                ButtonAction::FfbOff => self.ffb_off.set(pressed && !was),
                _ => {}
            }
        }
    }

    fn held(&self, action: ButtonAction) -> bool {
        self.buttons.iter().any(|b| b.action == action && b.pressed)
    }

    /// Maps each steering axis's full rotation onto the car's steering-wheel lock of
    /// `lock_deg` each side (`Some`), or one degree at the wheel to one degree in the car
    /// (`None`, the default). Non-finite or non-positive locks mean `None`.
    pub fn map_rotation_to_lock(&mut self, lock_deg: Option<f64>) {
        self.lock_map_deg = lock_deg.filter(|l| l.is_finite() && *l > 0.0);
    }

    /// Produces the controls of one tick of `dt` seconds from the newest device state.
    pub fn tick(&mut self, dt: f64) -> TickOutput {
        let dt = if dt.is_finite() { dt.max(0.0) } else { 0.0 };
        let mut throttle = 0.0f64;
        let mut brake = 0.0f64;
        let mut clutch = 0.0f64;
        let mut handbrake = 0.0f64;
        let mut steer_right_rad = 0.0f64;
        let mut physical_right_rad = 0.0f64;
        for b in &self.axes {
            if b.slot.is_none() {
                continue;
            }
            if b.lost {
                match b.control {
                    AxisControl::Brake | AxisControl::CombinedPedals => {
                        brake = brake.max(self.lost.brake);
                    }
                    AxisControl::Clutch => clutch = clutch.max(self.lost.clutch),
                    AxisControl::Steering | AxisControl::Throttle | AxisControl::Handbrake => {}
                }
                continue;
            }
            let value = match b.raw {
                Some((raw, range)) => b.map.map_raw(raw, Some(range)),
                None => b.map.rest_output(None),
            };
            match b.control {
                AxisControl::Steering => {
                    let physical = steering_wheel_rad(value, b.rotation_deg);
                    let rad = match self.lock_map_deg {
                        Some(lock_deg) => steering_wheel_rad(value, 2.0 * lock_deg),
                        None => physical,
                    };
                    if rad.abs() > steer_right_rad.abs() {
                        steer_right_rad = rad;
                        physical_right_rad = physical;
                    }
                }
                AxisControl::Throttle => throttle = throttle.max(value),
                AxisControl::Brake => brake = brake.max(value),
                AxisControl::Clutch => clutch = clutch.max(value),
                AxisControl::Handbrake => handbrake = handbrake.max(value),
                AxisControl::CombinedPedals => {
                    throttle = throttle.max(value);
                    brake = brake.max(-value);
                }
            }
        }

        let steer_target = f64::from(u8::from(self.held(ButtonAction::SteerRight)))
            - f64::from(u8::from(self.held(ButtonAction::SteerLeft)));
        let digital = self.digital;
        let steer_digital = self.steer.update(steer_target, dt, &digital);
        let throttle_digital =
            self.throttle
                .update(self.held(ButtonAction::Throttle), dt, &digital);
        let brake_digital = self
            .brake
            .update(self.held(ButtonAction::Brake), dt, &digital);
        let clutch_digital = self
            .clutch
            .update(self.held(ButtonAction::Clutch), dt, &digital);
        let digital_rad = steering_wheel_rad(steer_digital, digital.steer_rotation_deg);
        steer_right_rad += digital_rad;
        physical_right_rad += digital_rad;
        if self.held(ButtonAction::Handbrake) {
            handbrake = 1.0;
        }

        let h_shifter = self
            .buttons
            .iter()
            .any(|b| matches!(b.action, ButtonAction::Gear(_)) && b.slot.is_some());
        let controls = Controls {
            steering_wheel_rad: 0.0 - steer_right_rad,
            throttle: throttle.max(throttle_digital),
            brake: brake.max(brake_digital),
            clutch: clutch.max(clutch_digital),
            handbrake,
            shift_up: self.shift_up.take(),
            shift_down: self.shift_down.take(),
            h_gear: h_shifter.then(|| self.gears.gear()),
            starter: self.held(ButtonAction::Starter),
        }
        .sanitized();
        let actions = UiActions {
            reset: self.reset.take(),
            pause: self.pause.take(),
            camera: self.camera.take(),
            ffb_off: self.ffb_off.take(),
            look_left: self.held(ButtonAction::LookLeft),
            look_right: self.held(ButtonAction::LookRight),
        };
        let physical_steering_rad = 0.0 - physical_right_rad;
        TickOutput {
            controls,
            actions,
            physical_steering_rad: if physical_steering_rad.is_finite() {
                physical_steering_rad
            } else {
                0.0
            },
        }
    }
}

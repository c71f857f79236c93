//! Which device axis or button drives which control, as saved in the settings file.
//!
//! Bindings name devices by [`DeviceMatch`] (a stable identity, or the keyboard / any
//! gamepad), never by index, so they survive replugging. Several bindings may drive the same
//! control: pedals take the largest value of their sources, steering the analogue source
//! furthest from centre plus the digital (button) steering.
//!
//! The default bindings ([`Bindings::default`]) drive the car with the keyboard and with any
//! standard gamepad. Button-driven steering and pedals move at limited rates
//! ([`DigitalResponse`]); analogue axes are never filtered by default.

use gripline_physics::validate::{Validate, Validator};
use serde::{Deserialize, Serialize};

use crate::settings::axis_calibration::{AxisCalibration, ResponseCurve};
use crate::settings::device_identity::DeviceMatch;
use crate::settings::input_codes::{gamepad, key};

/// Most axis bindings a settings file may hold.
pub const MAX_AXIS_BINDINGS: usize = 32;
/// Most button bindings a settings file may hold.
pub const MAX_BUTTON_BINDINGS: usize = 128;

/// The control an analogue axis drives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AxisControl {
    /// Steering wheel (centred axis; see [`AxisBinding::rotation_deg`]).
    Steering,
    /// Throttle pedal.
    Throttle,
    /// Brake pedal.
    Brake,
    /// Clutch pedal.
    Clutch,
    /// Handbrake lever.
    Handbrake,
    /// One axis carrying throttle and brake: a centred axis whose positive side (after
    /// calibration, so `invert` swaps the sides) is throttle and negative side is brake.
    CombinedPedals,
}

impl AxisControl {
    /// Whether the axis is centred (-1..1) rather than one-sided (0..1).
    pub fn is_centred(self) -> bool {
        matches!(self, AxisControl::Steering | AxisControl::CombinedPedals)
    }
}

/// One analogue axis bound to a control.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AxisBinding {
    /// The control it drives.
    pub control: AxisControl,
    /// The device.
    pub device: DeviceMatch,
    /// The device's axis code (evdev `ABS_*` code, HID usage or axis index, or a
    /// [`crate::settings::input_codes::gamepad`] code for gamepads).
    pub axis: u32,
    /// Calibration of this axis.
    #[serde(default)]
    pub calibration: AxisCalibration,
    /// Steering only: the wheel's physical rotation range, lock to lock (deg). The steering
    /// wheel angle in the car follows the physical wheel 1:1: a 900° wheel turned 90° turns
    /// the car's steering wheel 90°, and the car clamps to its own lock.
    #[serde(default = "default_rotation_deg")]
    pub rotation_deg: f64,
}

fn default_rotation_deg() -> f64 {
    900.0
}

/// What a button does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ButtonAction {
    /// Sequential shift up (one shift per press).
    ShiftUp,
    /// Sequential shift down (one shift per press).
    ShiftDown,
    /// H-pattern gate: `Gear(-1)` reverse, `Gear(1..=7)` forward; neutral when no gear button
    /// is held.
    Gear(i8),
    /// Handbrake fully on while held.
    Handbrake,
    /// Starter motor while held.
    Starter,
    /// Steer left while held (digital steering, rate limited).
    SteerLeft,
    /// Steer right while held.
    SteerRight,
    /// Throttle while held (digital pedal, rate limited).
    Throttle,
    /// Brake while held.
    Brake,
    /// Clutch while held.
    Clutch,
    /// Reset the car (one event per press).
    Reset,
    /// Pause (one event per press).
    Pause,
    /// Next camera (one event per press).
    Camera,
    /// Look left while held.
    LookLeft,
    /// Look right while held.
    LookRight,
    /// Force-feedback kill switch (one event per press).
    FfbOff,
}

/// One button bound to an action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ButtonBinding {
    /// The action.
    pub action: ButtonAction,
    /// The device.
    pub device: DeviceMatch,
    /// The device's button code (evdev `BTN_*`/`KEY_*` code, HID usage or button index, a
    /// keyboard usage or a gamepad code).
    pub button: u32,
}

/// How button-driven (digital) steering and pedals move: rates in full travel per second.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DigitalResponse {
    /// Steering towards the held direction (full travel per second).
    pub steer_rate_per_s: f64,
    /// Steering back to centre when released, or across centre.
    pub steer_return_rate_per_s: f64,
    /// Full digital steering input, lock to lock (deg at the steering wheel).
    pub steer_rotation_deg: f64,
    /// Pedal pressing.
    pub pedal_rise_per_s: f64,
    /// Pedal releasing.
    pub pedal_fall_per_s: f64,
}

impl Default for DigitalResponse {
    fn default() -> Self {
        Self {
            steer_rate_per_s: 2.0,
            steer_return_rate_per_s: 4.0,
            steer_rotation_deg: 540.0,
            pedal_rise_per_s: 5.0,
            pedal_fall_per_s: 8.0,
        }
    }
}

impl Validate for DigitalResponse {
    fn validate(&self, v: &mut Validator) {
        v.positive("steer_rate_per_s", self.steer_rate_per_s);
        v.positive("steer_return_rate_per_s", self.steer_return_rate_per_s);
        v.in_range("steer_rotation_deg", self.steer_rotation_deg, 1.0, 3600.0);
        v.positive("pedal_rise_per_s", self.pedal_rise_per_s);
        v.positive("pedal_fall_per_s", self.pedal_fall_per_s);
    }
}

/// What the controls of a device read while it is unplugged. Throttle always reads 0,
/// steering centre, handbrake off, H-pattern neutral.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DeviceLostPolicy {
    /// Brake pedal reading of a lost device (0..1). Default 0: the session pauses anyway.
    pub brake: f64,
    /// Clutch pedal reading of a lost device (0..1). Default 1 (pressed): the engine neither
    /// drives the car nor stalls.
    pub clutch: f64,
}

impl Default for DeviceLostPolicy {
    fn default() -> Self {
        Self {
            brake: 0.0,
            clutch: 1.0,
        }
    }
}

impl Validate for DeviceLostPolicy {
    fn validate(&self, v: &mut Validator) {
        v.in_range("brake", self.brake, 0.0, 1.0);
        v.in_range("clutch", self.clutch, 0.0, 1.0);
    }
}

/// Every binding.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Bindings {
    /// Analogue axes.
    pub axes: Vec<AxisBinding>,
    /// Buttons and keys.
    pub buttons: Vec<ButtonBinding>,
    /// Rates of button-driven steering and pedals.
    pub digital: DigitalResponse,
    /// Readings of controls whose device is unplugged.
    pub device_lost: DeviceLostPolicy,
}

impl Default for Bindings {
    /// Keyboard and gamepad bindings that make the car drivable.
    ///
    /// Keyboard: arrows steer, throttle (up) and brake (down); left Shift / left Ctrl shift
    /// up / down; C clutch; Space handbrake; I starter; Backspace reset; Escape pause;
    /// V camera; Q / E look left / right; F12 kills force feedback.
    ///
    /// Gamepad: left stick steers (dead zone 8 %, gamma 1.5 for finer centre control),
    /// right trigger throttle, left trigger brake, right / left shoulder shift up / down,
    /// east (B) handbrake, west (X) clutch, south (A) starter, select reset, start pause,
    /// north (Y) camera, d-pad left / right look.
    fn default() -> Self {
        let kb = |action, button| ButtonBinding {
            action,
            device: DeviceMatch::Keyboard,
            button,
        };
        let pad = |action, button| ButtonBinding {
            action,
            device: DeviceMatch::AnyGamepad,
            button,
        };
        let buttons = vec![
            kb(ButtonAction::SteerLeft, key::LEFT),
            kb(ButtonAction::SteerRight, key::RIGHT),
            kb(ButtonAction::Throttle, key::UP),
            kb(ButtonAction::Brake, key::DOWN),
            kb(ButtonAction::ShiftUp, key::LEFT_SHIFT),
            kb(ButtonAction::ShiftDown, key::LEFT_CTRL),
            kb(ButtonAction::Clutch, key::C),
            kb(ButtonAction::Handbrake, key::SPACE),
            kb(ButtonAction::Starter, key::I),
            kb(ButtonAction::Reset, key::BACKSPACE),
            kb(ButtonAction::Pause, key::ESCAPE),
            kb(ButtonAction::Camera, key::V),
            kb(ButtonAction::LookLeft, key::Q),
            kb(ButtonAction::LookRight, key::E),
            kb(ButtonAction::FfbOff, key::F12),
            pad(ButtonAction::ShiftUp, gamepad::RIGHT_SHOULDER),
            pad(ButtonAction::ShiftDown, gamepad::LEFT_SHOULDER),
            pad(ButtonAction::Handbrake, gamepad::EAST),
            pad(ButtonAction::Clutch, gamepad::WEST),
            pad(ButtonAction::Starter, gamepad::SOUTH),
            pad(ButtonAction::Reset, gamepad::SELECT),
            pad(ButtonAction::Pause, gamepad::START),
            pad(ButtonAction::Camera, gamepad::NORTH),
            pad(ButtonAction::LookLeft, gamepad::DPAD_LEFT),
            pad(ButtonAction::LookRight, gamepad::DPAD_RIGHT),
        ];
        let pad_axis = |control, axis, calibration| AxisBinding {
            control,
            device: DeviceMatch::AnyGamepad,
            axis,
            calibration,
            rotation_deg: default_rotation_deg(),
        };
        let stick = AxisCalibration {
            dead_zone: 0.08,
            curve: ResponseCurve::Gamma(1.5),
            ..AxisCalibration::default()
        };
        let trigger = AxisCalibration {
            dead_zone: 0.02,
            ..AxisCalibration::default()
        };
        let axes = vec![
            AxisBinding {
                rotation_deg: DigitalResponse::default().steer_rotation_deg,
                ..pad_axis(AxisControl::Steering, gamepad::AXIS_LEFT_STICK_X, stick)
            },
            pad_axis(
                AxisControl::Throttle,
                gamepad::AXIS_RIGHT_TRIGGER,
                trigger.clone(),
            ),
            pad_axis(AxisControl::Brake, gamepad::AXIS_LEFT_TRIGGER, trigger),
        ];
        Self {
            axes,
            buttons,
            digital: DigitalResponse::default(),
            device_lost: DeviceLostPolicy::default(),
        }
    }
}

impl Validate for Bindings {
    fn validate(&self, v: &mut Validator) {
        if self.axes.len() > MAX_AXIS_BINDINGS {
            v.fail(
                "axes",
                format!("must hold at most {MAX_AXIS_BINDINGS} bindings"),
            );
        }
        if self.buttons.len() > MAX_BUTTON_BINDINGS {
            v.fail(
                "buttons",
                format!("must hold at most {MAX_BUTTON_BINDINGS} bindings"),
            );
        }
        v.within("axes", |v| {
            for (i, axis) in self.axes.iter().enumerate() {
                v.within(&Validator::index(i), |v| {
                    v.nested("calibration", &axis.calibration);
                    if axis.control == AxisControl::Steering {
                        v.in_range("rotation_deg", axis.rotation_deg, 1.0, 3600.0);
                    }
                });
            }
        });
        v.within("buttons", |v| {
            for (i, button) in self.buttons.iter().enumerate() {
                if let ButtonAction::Gear(g) = button.action {
                    v.within(&Validator::index(i), |v| {
                        v.require(
                            g == -1 || (1..=7).contains(&g),
                            "action",
                            "Gear must be -1 (reverse) or 1 to 7",
                        );
                    });
                }
            }
        });
        v.nested("digital", &self.digital);
        v.nested("device_lost", &self.device_lost);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::device_identity::DeviceIdentity;

    #[test]
    fn defaults_are_valid_and_drivable() {
        let b = Bindings::default();
        assert!(b.check().is_ok());
        for action in [
            ButtonAction::SteerLeft,
            ButtonAction::SteerRight,
            ButtonAction::Throttle,
            ButtonAction::Brake,
            ButtonAction::ShiftUp,
            ButtonAction::ShiftDown,
        ] {
            assert!(
                b.buttons
                    .iter()
                    .any(|x| x.action == action && x.device == DeviceMatch::Keyboard),
                "{action:?}"
            );
        }
        assert!(b.axes.iter().any(|a| a.control == AxisControl::Steering));
        assert!(
            !b.buttons
                .iter()
                .any(|x| matches!(x.action, ButtonAction::Gear(_))),
            "no H-pattern by default: gears by key would force neutral whenever no key is held"
        );
    }

    #[test]
    fn invalid_bindings_name_their_paths() {
        let wheel = DeviceMatch::Device(DeviceIdentity::new(0x046d, 0xc24f, "G29", ""));
        let b = Bindings {
            axes: vec![AxisBinding {
                control: AxisControl::Steering,
                device: wheel.clone(),
                axis: 0,
                calibration: AxisCalibration {
                    dead_zone: 2.0,
                    ..AxisCalibration::default()
                },
                rotation_deg: 0.0,
            }],
            buttons: vec![ButtonBinding {
                action: ButtonAction::Gear(0),
                device: wheel,
                button: 300,
            }],
            digital: DigitalResponse {
                pedal_rise_per_s: 0.0,
                ..DigitalResponse::default()
            },
            device_lost: DeviceLostPolicy {
                brake: 1.5,
                clutch: 1.0,
            },
        };
        let err = b.check().unwrap_err();
        let paths: Vec<_> = err.0.iter().map(|v| v.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "axes[0].calibration.dead_zone",
                "axes[0].rotation_deg",
                "buttons[0].action",
                "digital.pedal_rise_per_s",
                "device_lost.brake",
            ],
            "{err}"
        );
    }
}

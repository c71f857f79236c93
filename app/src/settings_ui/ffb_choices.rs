//! The force-feedback choices the settings screen offers and shows: the test effects, the
//! direction check's state and its words, and the backends and devices to route to.

use gripline_input::ffb::direction_check::{
    DIRECTION_MIN_MOVE_RAD, DirectionOutcome, Inconclusive,
};
use gripline_input::settings::device_identity::DeviceIdentity;

/// A force-feedback test effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FfbTestKind {
    /// A short push to the left.
    PulseLeft,
    /// A short push to the right.
    PulseRight,
    /// A centring spring whose strength sweeps from zero to the maximum and back.
    SpringSweep,
}

/// The direction check as the Force feedback tab shows it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum DirectionCheckState {
    /// Not run since the screen opened.
    #[default]
    NotRun,
    /// Asked for; the sim thread has not answered yet.
    Running,
    /// The sim thread's answer.
    Done {
        /// What it found.
        outcome: DirectionOutcome,
        /// The invert the device was driven with during the check.
        invert: bool,
    },
}

/// What to tell the user about a direction check's `outcome`, run with the device driven
/// with `invert`: one or two sentences.
pub fn direction_text(outcome: DirectionOutcome, invert: bool) -> String {
    let on_off = |x: bool| if x { "on" } else { "off" };
    match outcome {
        DirectionOutcome::Correct { moved_rad } => format!(
            "Direction OK: a push to the left turned the wheel {:.0}° to the left; invert {} is right.",
            moved_rad.to_degrees().abs(),
            on_off(invert)
        ),
        DirectionOutcome::Reversed { moved_rad } => format!(
            "Wrong direction: a push to the left turned the wheel {:.0}° to the right, so every force \
             (and the soft lock) pushes the wrong way. Set invert {} for this wheel, Apply, and check again.",
            moved_rad.to_degrees().abs(),
            on_off(!invert)
        ),
        DirectionOutcome::Inconclusive(why) => match why {
            Inconclusive::TooLittle { moved_rad } => format!(
                "Inconclusive: the wheel moved {:.1}° (at least {:.0}° needed). Take your hands off \
                 the wheel and check again; make sure the steering axis is bound to this wheel.",
                moved_rad.to_degrees().abs(),
                DIRECTION_MIN_MOVE_RAD.to_degrees()
            ),
            Inconclusive::MovingBefore { .. } => {
                "Inconclusive: the wheel was turning before the pulse. Let go of it and check again."
                    .to_owned()
            }
            Inconclusive::NoForce => "Inconclusive: no force reached the wheel (force feedback \
                 off, cut or killed, or no wheel connected)."
                .to_owned(),
            Inconclusive::NoAngle => {
                "Inconclusive: the wheel's angle could not be read.".to_owned()
            }
        },
    }
}

/// Which force-feedback backend and device to use; `None` means automatic.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FfbRouting {
    /// Backend name, one of [`FfbOptions::backends`].
    pub backend: Option<String>,
    /// Device, one of [`FfbOptions::devices`].
    pub device: Option<DeviceIdentity>,
}

/// A force-feedback device the app can drive.
#[derive(Clone, Debug, PartialEq)]
pub struct FfbDeviceOption {
    /// Its identity.
    pub identity: DeviceIdentity,
    /// What to call it ("Logitech G29 (PS4 mode)").
    pub name: String,
}

/// The force-feedback choices the app offers (input data; the app knows its backends).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FfbOptions {
    /// Backend names, e.g. "evdev `FF_CONSTANT`", "Logitech classic (raw HID)".
    pub backends: Vec<String>,
    /// The backend automatic choice picks now.
    pub automatic_backend: Option<String>,
    /// Devices with force feedback.
    pub devices: Vec<FfbDeviceOption>,
    /// The device automatic choice picks now (the one bound to steering).
    pub automatic_device: Option<DeviceIdentity>,
}

//! The H-shifter wizard: engage each gear in turn and it records which button is which.
//!
//! H-pattern shifters report one button per gear (Logitech's shifters and most USB
//! adapters). The wizard asks for first gear, second, ... up to the number of forward gears
//! the user chose, then reverse, and records the button pressed for each. A button that is
//! already recorded for another gear is refused with a message (a shifter that reports the
//! same button twice is broken, or the user pressed the previous gear again). Releasing a
//! gear is ignored: neutral is "no gear button held".

use crate::settings::bindings::{ButtonAction, ButtonBinding};
use crate::settings::device_identity::{DeviceIdentity, DeviceKind};

use super::bind::{Binding, NewBinding, device_match};

/// One recorded gear.
#[derive(Clone, Debug, PartialEq)]
pub struct GearButton {
    /// -1 reverse, 1..=7 forward.
    pub gear: i8,
    /// Device identity.
    pub identity: DeviceIdentity,
    /// Device kind.
    pub kind: DeviceKind,
    /// Button code.
    pub button: u32,
}

/// The H-shifter wizard (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct ShifterWizard {
    gears: Vec<i8>,
    recorded: Vec<GearButton>,
    message: Option<String>,
}

/// How a gear is spoken of.
pub fn gear_name(gear: i8) -> String {
    match gear {
        -1 => "reverse".into(),
        1 => "1st gear".into(),
        2 => "2nd gear".into(),
        3 => "3rd gear".into(),
        g => format!("{g}th gear"),
    }
}

impl ShifterWizard {
    /// A wizard for `forward_gears` forward gears (clamped to 1..=7), then reverse if
    /// `reverse`.
    pub fn new(forward_gears: u8, reverse: bool) -> Self {
        let n = i8::try_from(forward_gears.clamp(1, 7)).unwrap_or(7);
        let mut gears: Vec<i8> = (1..=n).collect();
        if reverse {
            gears.push(-1);
        }
        Self {
            gears,
            recorded: Vec::new(),
            message: None,
        }
    }

    /// The gear to engage now, or `None` when every gear is recorded.
    pub fn current_gear(&self) -> Option<i8> {
        self.gears.get(self.recorded.len()).copied()
    }

    /// What to tell the user.
    pub fn instruction(&self) -> String {
        match self.current_gear() {
            Some(g) => format!(
                "Engage {} (push the lever into the gate), then return to neutral.",
                gear_name(g)
            ),
            None => "Every gear is recorded. Press \"Use these gears\" to bind them.".into(),
        }
    }

    /// Why the last press was refused, if it was.
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// The gears recorded so far, in order.
    pub fn recorded(&self) -> &[GearButton] {
        &self.recorded
    }

    /// Whether every gear is recorded.
    pub fn finished(&self) -> bool {
        self.current_gear().is_none()
    }

    /// A button was pressed on a device. Records it for the current gear, or refuses it
    /// with a message when it is already recorded for another gear. Returns whether it was
    /// recorded.
    pub fn press(&mut self, identity: &DeviceIdentity, kind: DeviceKind, button: u32) -> bool {
        let Some(gear) = self.current_gear() else {
            return false;
        };
        if let Some(prev) = self
            .recorded
            .iter()
            .find(|r| r.button == button && r.identity.same_device(identity))
        {
            self.message = Some(format!(
                "That button is already {}. Engage {}.",
                gear_name(prev.gear),
                gear_name(gear)
            ));
            return false;
        }
        self.message = None;
        self.recorded.push(GearButton {
            gear,
            identity: identity.clone(),
            kind,
            button,
        });
        true
    }

    /// Skips the current gear (a 5-speed without 6th, or a gate without reverse).
    pub fn skip(&mut self) {
        if let Some(g) = self.current_gear() {
            self.gears.retain(|x| *x != g);
            self.message = None;
        }
    }

    /// Forgets the last recorded gear and asks for it again.
    pub fn undo(&mut self) {
        self.recorded.pop();
        self.message = None;
    }

    /// The recorded gears as bindings.
    pub fn bindings(&self) -> Vec<NewBinding> {
        self.recorded
            .iter()
            .map(|r| NewBinding {
                binding: Binding::Button(ButtonBinding {
                    action: ButtonAction::Gear(r.gear),
                    device: device_match(&r.identity, r.kind),
                    button: r.button,
                }),
                identity: r.identity.clone(),
                kind: r.kind,
            })
            .collect()
    }
}

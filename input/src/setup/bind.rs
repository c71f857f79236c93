//! Bind by doing: press "Bind" next to a control, then move an axis or press a button.
//!
//! [`BindCapture`] watches the events [`LiveInput`] logged since the capture started. An
//! axis binds once it has travelled at least a threshold (a fraction of its declared range)
//! from the value it had when the capture started (or, for a device that only reports
//! changes, from the first value it reported): the axis that travelled furthest wins, and
//! sensor noise stays far below the threshold. A button binds on a press that was not
//! already held at the start. The capture gives up after [`BIND_TIMEOUT`].
//!
//! A new binding may clash with an existing one: the same device and code already driving
//! another control. [`conflicts`] lists those, and [`apply_bindings`] adds the new binding
//! with the user's [`Resolution`]. Rebinding a control replaces its binding on the same
//! device and keeps its bindings on other devices (the keyboard and gamepad defaults keep
//! working beside a wheel).

use std::fmt;
use std::time::Duration;

use crate::device::{DeviceId, InputEvent};
use crate::known_wheels;
use crate::settings::axis_calibration::AxisCalibration;
use crate::settings::bindings::{
    AxisBinding, AxisControl, Bindings, ButtonAction, ButtonBinding, MAX_AXIS_BINDINGS,
    MAX_BUTTON_BINDINGS,
};
use crate::settings::device_identity::{DeviceIdentity, DeviceKind, DeviceMatch};

use super::live_input::{LiveInput, fraction};

/// A capture gives up after this long without a usable movement.
pub const BIND_TIMEOUT: Duration = Duration::from_secs(10);
/// Travel (fraction of the declared range) a steering axis must move to bind: 4 % is 36° on
/// a 900° wheel, far above sensor noise.
pub const STEERING_BIND_TRAVEL: f64 = 0.04;
/// Travel (fraction of the declared range) any other axis must move to bind.
pub const AXIS_BIND_TRAVEL: f64 = 0.2;

/// The analogue controls, in the order the screen lists them.
pub const AXIS_CONTROLS: [AxisControl; 6] = [
    AxisControl::Steering,
    AxisControl::Throttle,
    AxisControl::Brake,
    AxisControl::Clutch,
    AxisControl::Handbrake,
    AxisControl::CombinedPedals,
];

/// Every button action except the H-pattern gears, in the order the screen lists them.
pub const BUTTON_ACTIONS: [ButtonAction; 15] = [
    ButtonAction::ShiftUp,
    ButtonAction::ShiftDown,
    ButtonAction::Handbrake,
    ButtonAction::Starter,
    ButtonAction::SteerLeft,
    ButtonAction::SteerRight,
    ButtonAction::Throttle,
    ButtonAction::Brake,
    ButtonAction::Clutch,
    ButtonAction::Reset,
    ButtonAction::Pause,
    ButtonAction::Camera,
    ButtonAction::LookLeft,
    ButtonAction::LookRight,
    ButtonAction::FfbOff,
];

/// A control a binding drives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BindTarget {
    /// An analogue control.
    Axis(AxisControl),
    /// A button action.
    Button(ButtonAction),
}

impl fmt::Display for BindTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BindTarget::Axis(c) => f.write_str(axis_control_name(*c)),
            BindTarget::Button(a) => f.write_str(&button_action_name(*a)),
        }
    }
}

/// What a sim racer calls an analogue control.
pub fn axis_control_name(control: AxisControl) -> &'static str {
    match control {
        AxisControl::Steering => "Steering",
        AxisControl::Throttle => "Throttle pedal",
        AxisControl::Brake => "Brake pedal",
        AxisControl::Clutch => "Clutch pedal",
        AxisControl::Handbrake => "Handbrake lever",
        AxisControl::CombinedPedals => "Combined pedals (one axis)",
    }
}

/// What a sim racer calls a button action.
pub fn button_action_name(action: ButtonAction) -> String {
    match action {
        ButtonAction::ShiftUp => "Shift up".into(),
        ButtonAction::ShiftDown => "Shift down".into(),
        ButtonAction::Gear(-1) => "Reverse gear".into(),
        ButtonAction::Gear(g) => format!("Gear {g}"),
        ButtonAction::Handbrake => "Handbrake (button)".into(),
        ButtonAction::Starter => "Starter".into(),
        ButtonAction::SteerLeft => "Steer left (button)".into(),
        ButtonAction::SteerRight => "Steer right (button)".into(),
        ButtonAction::Throttle => "Throttle (button)".into(),
        ButtonAction::Brake => "Brake (button)".into(),
        ButtonAction::Clutch => "Clutch (button)".into(),
        ButtonAction::Reset => "Reset car".into(),
        ButtonAction::Pause => "Pause".into(),
        ButtonAction::Camera => "Next camera".into(),
        ButtonAction::LookLeft => "Look left".into(),
        ButtonAction::LookRight => "Look right".into(),
        ButtonAction::FfbOff => "Force feedback kill switch".into(),
    }
}

/// A binding made by doing, with the kind of its device (for conflict checks).
#[derive(Clone, Debug, PartialEq)]
pub struct NewBinding {
    /// The binding.
    pub binding: Binding,
    /// Identity of the device that was moved.
    pub identity: DeviceIdentity,
    /// Kind of that device.
    pub kind: DeviceKind,
}

/// An axis or a button binding.
#[derive(Clone, Debug, PartialEq)]
pub enum Binding {
    /// An axis binding.
    Axis(AxisBinding),
    /// A button binding.
    Button(ButtonBinding),
}

impl Binding {
    /// The control it drives.
    pub fn target(&self) -> BindTarget {
        match self {
            Binding::Axis(a) => BindTarget::Axis(a.control),
            Binding::Button(b) => BindTarget::Button(b.action),
        }
    }

    fn device(&self) -> &DeviceMatch {
        match self {
            Binding::Axis(a) => &a.device,
            Binding::Button(b) => &b.device,
        }
    }
}

/// How the device of a new binding is named in the settings: the keyboard by kind, every
/// other device by identity.
pub fn device_match(identity: &DeviceIdentity, kind: DeviceKind) -> DeviceMatch {
    match kind {
        DeviceKind::Keyboard => DeviceMatch::Keyboard,
        _ => DeviceMatch::Device(identity.clone()),
    }
}

/// The state of a running capture.
#[derive(Clone, Debug, PartialEq)]
pub enum CaptureOutcome {
    /// Still waiting for a movement.
    Waiting,
    /// A control was moved: here is the binding.
    Bound(Box<NewBinding>),
    /// Nothing usable happened within [`BIND_TIMEOUT`].
    TimedOut,
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Baseline {
    device: DeviceId,
    axis: u32,
    start: i32,
    travel: f64,
}

/// A running "bind by doing" capture (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct BindCapture {
    target: BindTarget,
    started: Duration,
    seq: u64,
    baselines: Vec<Baseline>,
    held_at_start: Vec<(DeviceId, u32)>,
}

impl BindCapture {
    /// Starts capturing for `target`; the current axis values of `live` are the baselines.
    pub fn start(target: BindTarget, live: &LiveInput) -> Self {
        let mut baselines = Vec::new();
        let mut held_at_start = Vec::new();
        for d in live.devices().iter().filter(|d| d.connected) {
            for a in &d.axes {
                baselines.push(Baseline {
                    device: d.id,
                    axis: a.code,
                    start: a.raw,
                    travel: 0.0,
                });
            }
            held_at_start.extend(d.held.iter().map(|&b| (d.id, b)));
        }
        Self {
            target,
            started: live.now(),
            seq: live.next_seq(),
            baselines,
            held_at_start,
        }
    }

    /// The control being bound.
    pub fn target(&self) -> BindTarget {
        self.target
    }

    /// Time left before the capture gives up.
    pub fn remaining(&self, now: Duration) -> Duration {
        BIND_TIMEOUT.saturating_sub(now.saturating_sub(self.started))
    }

    /// Minimum travel for this capture's axis to bind.
    pub fn threshold(&self) -> f64 {
        match self.target {
            BindTarget::Axis(AxisControl::Steering) => STEERING_BIND_TRAVEL,
            _ => AXIS_BIND_TRAVEL,
        }
    }

    /// Reads the events logged since the last call and says whether something bound.
    pub fn update(&mut self, live: &LiveInput) -> CaptureOutcome {
        if live.next_seq() < self.seq {
            // A new model: start from its beginning.
            self.seq = 0;
        }
        let threshold = self.threshold();
        let mut best: Option<(DeviceId, u32, i32, i32, f64)> = None;
        let mut pressed: Option<(DeviceId, u32)> = None;
        for (seq, event) in live.events_since(self.seq) {
            self.seq = seq + 1;
            match (event, self.target) {
                (
                    InputEvent::Axis {
                        device,
                        axis,
                        value,
                        range,
                    },
                    BindTarget::Axis(_),
                ) => {
                    let (device, axis, value, range) = (*device, *axis, *value, *range);
                    let base = if let Some(b) = self
                        .baselines
                        .iter_mut()
                        .find(|b| b.device == device && b.axis == axis)
                    {
                        b
                    } else {
                        self.baselines.push(Baseline {
                            device,
                            axis,
                            start: value,
                            travel: 0.0,
                        });
                        let last = self.baselines.len() - 1;
                        &mut self.baselines[last]
                    };
                    let travel = (fraction(value, range) - fraction(base.start, range)).abs();
                    base.travel = base.travel.max(travel);
                    if travel >= threshold && best.is_none_or(|b| travel > b.4) {
                        best = Some((device, axis, base.start, value, travel));
                    }
                }
                (
                    InputEvent::Button {
                        device,
                        button,
                        pressed: true,
                    },
                    BindTarget::Button(_),
                ) if !self.held_at_start.contains(&(*device, *button)) && pressed.is_none() => {
                    pressed = Some((*device, *button));
                }
                (
                    InputEvent::Button {
                        device,
                        button,
                        pressed: false,
                    },
                    _,
                ) => self.held_at_start.retain(|&h| h != (*device, *button)),
                _ => {}
            }
        }
        if let (Some((device, axis, start, value, _)), BindTarget::Axis(control)) =
            (best, self.target)
            && let Some(d) = live.device(device)
        {
            return CaptureOutcome::Bound(Box::new(new_axis_binding(
                control,
                &d.info.identity,
                d.info.kind,
                axis,
                start,
                value,
            )));
        }
        if let (Some((device, button)), BindTarget::Button(action)) = (pressed, self.target)
            && let Some(d) = live.device(device)
        {
            return CaptureOutcome::Bound(Box::new(NewBinding {
                binding: Binding::Button(ButtonBinding {
                    action,
                    device: device_match(&d.info.identity, d.info.kind),
                    button,
                }),
                identity: d.info.identity.clone(),
                kind: d.info.kind,
            }));
        }
        if live.now().saturating_sub(self.started) >= BIND_TIMEOUT {
            CaptureOutcome::TimedOut
        } else {
            CaptureOutcome::Waiting
        }
    }
}

/// The binding of `axis` on a device to `control`, moved from `start` to `moved`.
///
/// A one-sided control (pedal, handbrake) that was pushed towards lower raw values rests at
/// its maximum: it is bound inverted, with its rest value remembered (Logitech pedals read
/// 255 at rest). A steering axis takes the known rotation range of a known wheel.
pub fn new_axis_binding(
    control: AxisControl,
    identity: &DeviceIdentity,
    kind: DeviceKind,
    axis: u32,
    start: i32,
    moved: i32,
) -> NewBinding {
    let mut calibration = AxisCalibration::default();
    if !control.is_centred() && moved < start {
        calibration.invert = true;
        calibration.rest_raw = Some(start);
    }
    let rotation_deg = known_wheels::lookup(identity.vendor_id, identity.product_id)
        .map_or(900.0, |w| w.default_rotation_deg);
    NewBinding {
        binding: Binding::Axis(AxisBinding {
            control,
            device: device_match(identity, kind),
            axis,
            calibration,
            rotation_deg,
        }),
        identity: identity.clone(),
        kind,
    }
}

fn same_device(existing: &DeviceMatch, new: &NewBinding) -> bool {
    existing.matches(&new.identity, new.kind) || existing == new.binding.device()
}

/// The controls already driven by the same device and code as `new` (other than `new`'s
/// own control): the clashes the user must resolve.
pub fn conflicts(bindings: &Bindings, new: &NewBinding) -> Vec<BindTarget> {
    let target = new.binding.target();
    let mut out = Vec::new();
    match &new.binding {
        Binding::Axis(a) => {
            for b in &bindings.axes {
                let t = BindTarget::Axis(b.control);
                if t != target
                    && b.axis == a.axis
                    && same_device(&b.device, new)
                    && !out.contains(&t)
                {
                    out.push(t);
                }
            }
        }
        Binding::Button(n) => {
            for b in &bindings.buttons {
                let t = BindTarget::Button(b.action);
                if t != target
                    && b.button == n.button
                    && same_device(&b.device, new)
                    && !out.contains(&t)
                {
                    out.push(t);
                }
            }
        }
    }
    out
}

/// What to do with the bindings a new one clashes with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resolution {
    /// Remove the clashing bindings: the control now only drives the new one.
    Replace,
    /// Keep them: the device control drives both.
    KeepBoth,
}

/// Adds `news` to `bindings`.
///
/// For each new binding, an existing binding of the same control on the same device is
/// replaced (an axis rebound to the same code keeps its calibration and rotation). With
/// `replace_all_gears`, every H-pattern gear binding is removed first (the shifter wizard
/// records the whole gate). With [`Resolution::Replace`], the bindings [`conflicts`] finds
/// are removed.
///
/// # Errors
/// A message when the lists would exceed the file's limits; `bindings` is then unchanged.
pub fn apply_bindings(
    bindings: &mut Bindings,
    news: &[NewBinding],
    resolution: Resolution,
    replace_all_gears: bool,
) -> Result<(), String> {
    let mut out = bindings.clone();
    if replace_all_gears {
        out.buttons
            .retain(|b| !matches!(b.action, ButtonAction::Gear(_)));
    }
    for new in news {
        if resolution == Resolution::Replace {
            for t in conflicts(&out, new) {
                match (t, &new.binding) {
                    (BindTarget::Axis(c), Binding::Axis(a)) => out.axes.retain(|b| {
                        !(b.control == c && b.axis == a.axis && same_device(&b.device, new))
                    }),
                    (BindTarget::Button(act), Binding::Button(n)) => out.buttons.retain(|b| {
                        !(b.action == act && b.button == n.button && same_device(&b.device, new))
                    }),
                    _ => {}
                }
            }
        }
        match &new.binding {
            Binding::Axis(a) => {
                let mut a = a.clone();
                if let Some(old) = out
                    .axes
                    .iter()
                    .find(|b| b.control == a.control && b.device == a.device && b.axis == a.axis)
                {
                    a.calibration = old.calibration.clone();
                    a.rotation_deg = old.rotation_deg;
                }
                out.axes
                    .retain(|b| !(b.control == a.control && b.device == a.device));
                out.axes.push(a);
            }
            Binding::Button(n) => {
                out.buttons
                    .retain(|b| !(b.action == n.action && b.device == n.device));
                out.buttons.push(n.clone());
            }
        }
    }
    if out.axes.len() > MAX_AXIS_BINDINGS {
        return Err(format!(
            "Too many axis bindings (at most {MAX_AXIS_BINDINGS}); remove some first."
        ));
    }
    if out.buttons.len() > MAX_BUTTON_BINDINGS {
        return Err(format!(
            "Too many button bindings (at most {MAX_BUTTON_BINDINGS}); remove some first."
        ));
    }
    *bindings = out;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::{AxisRange, InputBackend, ScriptedDevice, ScriptedStep};

    const PEDAL: AxisRange = AxisRange::new(0, 255);

    fn pedals() -> ScriptedDevice {
        ScriptedDevice::new(
            DeviceId(3),
            DeviceIdentity::new(0x046d, 0xc24f, "G29 Driving Force Racing Wheel", ""),
            DeviceKind::Wheel,
        )
    }

    fn play(dev: &mut ScriptedDevice, live: &mut LiveInput, from_ms: u64, to_ms: u64) {
        let mut out = Vec::new();
        for ms in from_ms..=to_ms {
            out.clear();
            let now = Duration::from_millis(ms);
            dev.poll(now, &mut out);
            for e in &out {
                live.feed(e, now);
            }
            live.set_now(now);
        }
    }

    fn axis(value: i32) -> ScriptedStep {
        ScriptedStep::Axis {
            axis: 2,
            value,
            range: PEDAL,
        }
    }

    #[test]
    fn noise_does_not_bind_but_a_press_does_and_inverts() {
        // A G29 throttle rests at 255; noise of a few counts, then pressed towards 0.
        let mut dev = pedals().at_ms(0, ScriptedStep::Connect).at_ms(1, axis(255));
        for (i, v) in [252, 255, 250, 254, 249, 255].iter().enumerate() {
            dev = dev.at_ms(100 + 10 * i as u64, axis(*v));
        }
        dev = dev.at_ms(500, axis(180)).at_ms(510, axis(60));
        let mut live = LiveInput::new();
        play(&mut dev, &mut live, 0, 50);
        let mut cap = BindCapture::start(BindTarget::Axis(AxisControl::Throttle), &live);
        play(&mut dev, &mut live, 51, 400);
        assert_eq!(
            cap.update(&live),
            CaptureOutcome::Waiting,
            "noise must not bind"
        );
        play(&mut dev, &mut live, 401, 520);
        let CaptureOutcome::Bound(new) = cap.update(&live) else {
            panic!("a pressed pedal binds")
        };
        let Binding::Axis(a) = &new.binding else {
            panic!("axis expected")
        };
        assert_eq!((a.control, a.axis), (AxisControl::Throttle, 2));
        assert!(a.calibration.invert, "pressed towards 0: inverted");
        assert_eq!(a.calibration.rest_raw, Some(255));
        assert!(matches!(&a.device, DeviceMatch::Device(id) if id.product_id == 0xc24f));
    }

    #[test]
    fn device_that_reports_only_changes_binds_from_its_first_value() {
        let mut dev = pedals()
            .at_ms(0, ScriptedStep::Connect)
            .at_ms(100, axis(3))
            .at_ms(120, axis(200));
        let mut live = LiveInput::new();
        play(&mut dev, &mut live, 0, 10);
        let mut cap = BindCapture::start(BindTarget::Axis(AxisControl::Brake), &live);
        play(&mut dev, &mut live, 11, 130);
        let CaptureOutcome::Bound(new) = cap.update(&live) else {
            panic!("binds")
        };
        let Binding::Axis(a) = new.binding else {
            panic!()
        };
        assert!(!a.calibration.invert);
    }

    #[test]
    fn held_button_does_not_bind_a_new_press_does_and_timeout() {
        let press = |b, p| ScriptedStep::Button {
            button: b,
            pressed: p,
        };
        let mut dev = pedals()
            .at_ms(0, ScriptedStep::Connect)
            .at_ms(1, press(4, true))
            .at_ms(50, press(4, false))
            .at_ms(60, press(4, true));
        let mut live = LiveInput::new();
        play(&mut dev, &mut live, 0, 10);
        let mut cap = BindCapture::start(BindTarget::Button(ButtonAction::ShiftUp), &live);
        play(&mut dev, &mut live, 11, 40);
        assert_eq!(cap.update(&live), CaptureOutcome::Waiting);
        play(&mut dev, &mut live, 41, 70);
        let CaptureOutcome::Bound(new) = cap.update(&live) else {
            panic!("binds")
        };
        assert_eq!(
            new.binding.target(),
            BindTarget::Button(ButtonAction::ShiftUp)
        );
        let mut idle = BindCapture::start(BindTarget::Button(ButtonAction::Reset), &live);
        live.set_now(Duration::from_secs(11));
        assert_eq!(idle.update(&live), CaptureOutcome::TimedOut);
    }

    #[test]
    fn conflicts_found_and_resolved() {
        let id = DeviceIdentity::new(0x046d, 0xc24f, "G29", "");
        let mut b = Bindings::default();
        let brake = new_axis_binding(AxisControl::Brake, &id, DeviceKind::Wheel, 2, 0, 200);
        apply_bindings(&mut b, &[brake], Resolution::Replace, false).unwrap();
        let throttle = new_axis_binding(AxisControl::Throttle, &id, DeviceKind::Wheel, 2, 0, 200);
        assert_eq!(
            conflicts(&b, &throttle),
            [BindTarget::Axis(AxisControl::Brake)]
        );
        let mut keep = b.clone();
        apply_bindings(
            &mut keep,
            std::slice::from_ref(&throttle),
            Resolution::KeepBoth,
            false,
        )
        .unwrap();
        let on_wheel_axis_2 = |b: &Bindings| {
            b.axes
                .iter()
                .filter(|a| a.axis == 2 && a.device != DeviceMatch::AnyGamepad)
                .map(|a| a.control)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            on_wheel_axis_2(&keep),
            [AxisControl::Brake, AxisControl::Throttle]
        );
        apply_bindings(&mut b, &[throttle], Resolution::Replace, false).unwrap();
        assert_eq!(on_wheel_axis_2(&b), [AxisControl::Throttle]);
        assert!(
            b.axes
                .iter()
                .any(|a| a.device == DeviceMatch::AnyGamepad && a.control == AxisControl::Brake),
            "the gamepad's brake on its own axis 2 is another device: kept"
        );
        // The keyboard's Space is the handbrake by default: binding it to Starter clashes.
        let space = NewBinding {
            binding: Binding::Button(ButtonBinding {
                action: ButtonAction::Starter,
                device: DeviceMatch::Keyboard,
                button: crate::settings::input_codes::key::SPACE,
            }),
            identity: DeviceIdentity::keyboard(),
            kind: DeviceKind::Keyboard,
        };
        assert_eq!(
            conflicts(&b, &space),
            [BindTarget::Button(ButtonAction::Handbrake)]
        );
        // Rebinding the starter on the keyboard replaces the old starter key.
        apply_bindings(&mut b, &[space], Resolution::KeepBoth, false).unwrap();
        let starters: Vec<_> = b
            .buttons
            .iter()
            .filter(|x| x.action == ButtonAction::Starter && x.device == DeviceMatch::Keyboard)
            .collect();
        assert_eq!(starters.len(), 1);
    }
}

//! The calibration wizard: a state machine that records an axis's travel step by step.
//!
//! Steering: "turn the wheel fully left, then fully right" records the raw range (and,
//! from the direction of the first large movement, whether the axis reads left as higher
//! values, in which case it is inverted); then "hold the wheel straight" records the centre.
//! Pedals (and the clutch, the handbrake and combined pedals): "release the pedal" records
//! its rest value; then "press it fully" records the far end. A pedal that reads lower when
//! pressed (Logitech, Thrustmaster) is detected and inverted automatically.
//!
//! The wizard does not know about events or egui: the screen hands it each raw value of the
//! axis being calibrated ([`CalibrationWizard::observe`]) and calls
//! [`CalibrationWizard::next`] when the user presses "Next". The result keeps the dead
//! zones and curve of the calibration it started from; the screen then shows them on the
//! response-curve graph for tuning.

use gripline_input::calibration::RangeCapture;
use gripline_input::device::AxisRange;
use gripline_input::settings::axis_calibration::{AxisCalibration, RawRange};
use gripline_input::settings::bindings::AxisControl;

/// Smallest travel accepted, as a fraction of the declared range.
pub const MIN_TRAVEL_FRACTION: f64 = 0.1;
/// Movement from the starting value, as a fraction of the declared range, that tells the
/// direction the user turned first.
pub const DIRECTION_FRACTION: f64 = 0.1;

/// Where the wizard is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WizardStep {
    /// Steering: turn lock to lock.
    SteeringLockToLock,
    /// Steering: hold straight.
    SteeringCentre,
    /// Pedal: released.
    PedalReleased,
    /// Pedal: fully pressed.
    PedalPressed,
    /// Finished: [`CalibrationWizard::result`] holds the calibration.
    Done,
}

/// The calibration wizard (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct CalibrationWizard {
    control: AxisControl,
    base: AxisCalibration,
    step: WizardStep,
    capture: RangeCapture,
    range: Option<AxisRange>,
    latest: Option<i32>,
    first: Option<i32>,
    turned_higher_first: Option<bool>,
    rest: Option<i32>,
    pressed_far: Option<i32>,
    result: Option<AxisCalibration>,
    message: Option<String>,
    notes: Vec<String>,
}

impl CalibrationWizard {
    /// A wizard for an axis driving `control`, starting from calibration `base`.
    pub fn new(control: AxisControl, base: &AxisCalibration) -> Self {
        let step = if control == AxisControl::Steering {
            WizardStep::SteeringLockToLock
        } else {
            WizardStep::PedalReleased
        };
        Self {
            control,
            base: base.clone(),
            step,
            capture: RangeCapture::new(),
            range: None,
            latest: None,
            first: None,
            turned_higher_first: None,
            rest: None,
            pressed_far: None,
            result: None,
            message: None,
            notes: Vec::new(),
        }
    }

    /// The current step.
    pub fn step(&self) -> WizardStep {
        self.step
    }

    /// What to tell the user to do now.
    pub fn instruction(&self) -> String {
        let what = match self.control {
            AxisControl::Handbrake => "handbrake lever",
            AxisControl::Clutch => "clutch pedal",
            AxisControl::Brake => "brake pedal",
            AxisControl::Throttle => "throttle pedal",
            _ => "pedal",
        };
        match self.step {
            WizardStep::SteeringLockToLock => {
                "Turn the wheel slowly all the way to the left, then all the way \
                 to the right, then press Next."
                    .into()
            }
            WizardStep::SteeringCentre => {
                "Hold the wheel straight ahead (centred), then press Next.".into()
            }
            WizardStep::PedalReleased if self.control == AxisControl::CombinedPedals => {
                "Release all pedals, then press Next.".into()
            }
            WizardStep::PedalReleased => {
                format!("Release the {what} completely (take your foot off), then press Next.")
            }
            WizardStep::PedalPressed if self.control == AxisControl::CombinedPedals => {
                "Press the throttle fully and release it, then press the brake fully and \
                 release it, then press Next."
                    .into()
            }
            WizardStep::PedalPressed => {
                format!("Press the {what} all the way down and hold it there, then press Next.")
            }
            WizardStep::Done => "Calibration recorded. Tune the response below, then Apply.".into(),
        }
    }

    /// Why the last "Next" was refused, if it was.
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// What the wizard found out on the way (inverted axis and the like).
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// The newest raw value seen.
    #[cfg(test)]
    pub fn latest(&self) -> Option<i32> {
        self.latest
    }

    /// The raw range observed in the current capture step.
    pub fn captured(&self) -> Option<RawRange> {
        self.capture.range()
    }

    /// The finished calibration.
    pub fn result(&self) -> Option<&AxisCalibration> {
        self.result.as_ref()
    }

    /// One raw value of the axis, with its declared range.
    pub fn observe(&mut self, raw: i32, range: AxisRange) {
        self.range = Some(range);
        self.latest = Some(raw);
        match self.step {
            WizardStep::SteeringLockToLock => {
                self.capture.observe(raw);
                let first = *self.first.get_or_insert(raw);
                if self.turned_higher_first.is_none() {
                    let moved = f64::from(raw) - f64::from(first);
                    if moved.abs() >= DIRECTION_FRACTION * span(range) {
                        self.turned_higher_first = Some(moved > 0.0);
                    }
                }
            }
            WizardStep::PedalPressed => {
                self.capture.observe(raw);
                if let Some(rest) = self.rest {
                    let far = self.pressed_far.unwrap_or(rest);
                    if (i64::from(raw) - i64::from(rest)).abs()
                        > (i64::from(far) - i64::from(rest)).abs()
                    {
                        self.pressed_far = Some(raw);
                    }
                }
            }
            WizardStep::SteeringCentre | WizardStep::PedalReleased | WizardStep::Done => {}
        }
    }

    fn min_span(&self) -> u32 {
        let s = self.range.map_or(1.0, span) * MIN_TRAVEL_FRACTION;
        // A declared span fits in u32 (i32 max - i32 min), and so does a tenth of it.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let s = s.ceil().max(1.0) as u32;
        s
    }

    /// The device was unplugged: its last value is forgotten (it would be stale) and the
    /// user is told. The step stays; the wizard continues when the device reports again.
    pub fn device_lost(&mut self) {
        self.latest = None;
        self.message = Some(
            "The device was unplugged. Plug it back in and move the control to continue.".into(),
        );
    }

    /// The user pressed "Next": records this step and moves on, or says why not.
    pub fn next(&mut self) {
        self.message = None;
        match self.step {
            WizardStep::SteeringLockToLock => {
                match self.capture.apply(&self.base, self.min_span()) {
                    Ok(_) => self.step = WizardStep::SteeringCentre,
                    Err(e) => self.message = Some(format!("Not yet: {e}.")),
                }
            }
            WizardStep::SteeringCentre => {
                let Some(raw) = self.latest else {
                    self.message = Some("The wheel has not reported a position yet.".into());
                    return;
                };
                let mut capture = self.capture;
                capture.mark_centre(raw);
                match capture.apply(&self.base, self.min_span()) {
                    Ok(mut cal) => {
                        if self.turned_higher_first == Some(true) {
                            cal.invert = true;
                            self.notes.push(
                                "Your wheel reports left as higher values: steering is inverted \
                                 so that left is left."
                                    .into(),
                            );
                        } else if self.turned_higher_first == Some(false) {
                            cal.invert = false;
                        }
                        self.result = Some(cal);
                        self.step = WizardStep::Done;
                    }
                    Err(e) => self.message = Some(format!("{e}.")),
                }
            }
            WizardStep::PedalReleased => {
                let Some(raw) = self.latest else {
                    self.message = Some(
                        "The pedal has not reported a value yet: press it once, release it, \
                         then press Next."
                            .into(),
                    );
                    return;
                };
                self.rest = Some(raw);
                self.capture = RangeCapture::new();
                self.capture.observe(raw);
                self.pressed_far = None;
                self.step = WizardStep::PedalPressed;
            }
            WizardStep::PedalPressed => self.finish_pedal(),
            WizardStep::Done => {}
        }
    }

    fn finish_pedal(&mut self) {
        let Some(rest) = self.rest else {
            self.step = WizardStep::PedalReleased;
            return;
        };
        if self.control == AxisControl::CombinedPedals {
            // Both ends were pressed; the rest value between them is the split point.
            match self.capture.apply(&self.base, self.min_span()) {
                Ok(mut cal) => {
                    if cal.raw_range.is_some_and(|r| rest > r.min && rest < r.max) {
                        cal.centre = Some(rest);
                    } else {
                        cal.centre = None;
                        self.notes.push(
                            "The pedals rest at one end of the axis; the split point is the \
                             middle of the travel. Adjust it below if needed."
                                .into(),
                        );
                    }
                    cal.rest_raw = Some(rest);
                    self.result = Some(cal);
                    self.step = WizardStep::Done;
                }
                Err(e) => self.message = Some(format!("Not yet: {e}.")),
            }
            return;
        }
        let far = self.pressed_far.unwrap_or(rest);
        let travel = (i64::from(far) - i64::from(rest)).unsigned_abs();
        let needed = u64::from(self.min_span());
        if travel < needed {
            self.message = Some(format!(
                "Not yet: the pedal moved only {travel} raw units (at least {needed} needed). \
                 Press it all the way down."
            ));
            return;
        }
        let inverted = far < rest;
        let mut cal = self.base.clone();
        cal.raw_range = Some(RawRange {
            min: rest.min(far),
            max: rest.max(far),
        });
        cal.invert = inverted;
        cal.rest_raw = Some(rest);
        if inverted {
            self.notes.push(format!(
                "This pedal reads {rest} released and {far} pressed (it counts down): it is \
                 inverted automatically."
            ));
        }
        self.result = Some(cal);
        self.step = WizardStep::Done;
    }

    /// Goes back one step (the recorded values of that step are taken again).
    pub fn back(&mut self) {
        self.message = None;
        self.result = None;
        self.notes.clear();
        self.step = match self.step {
            WizardStep::SteeringCentre | WizardStep::Done
                if self.control == AxisControl::Steering =>
            {
                self.capture = RangeCapture::new();
                self.first = None;
                self.turned_higher_first = None;
                WizardStep::SteeringLockToLock
            }
            WizardStep::PedalPressed | WizardStep::Done => WizardStep::PedalReleased,
            s => s,
        };
    }
}

fn span(range: AxisRange) -> f64 {
    (f64::from(range.max) - f64::from(range.min)).max(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    const WHEEL: AxisRange = AxisRange::new(0, 65535);
    const PEDAL: AxisRange = AxisRange::new(0, 255);

    #[test]
    fn steering_refuses_too_little_travel_and_bad_centre() {
        let mut w = CalibrationWizard::new(AxisControl::Steering, &AxisCalibration::default());
        w.next();
        assert!(w.message().is_some(), "nothing observed");
        w.observe(32000, WHEEL);
        w.observe(33000, WHEEL);
        w.next();
        assert_eq!(w.step(), WizardStep::SteeringLockToLock);
        assert!(
            w.message().unwrap().contains("moved only"),
            "{:?}",
            w.message()
        );
        w.observe(100, WHEEL);
        w.observe(65000, WHEEL);
        w.next();
        assert_eq!(w.step(), WizardStep::SteeringCentre);
        w.observe(65000, WHEEL); // still at the right lock: not strictly inside
        w.next();
        assert_eq!(w.step(), WizardStep::SteeringCentre);
        assert!(w.message().is_some());
        w.back();
        assert_eq!(w.step(), WizardStep::SteeringLockToLock);
    }

    #[test]
    fn pedal_without_a_value_is_refused() {
        let mut w = CalibrationWizard::new(AxisControl::Clutch, &AxisCalibration::default());
        w.next();
        assert_eq!(w.step(), WizardStep::PedalReleased);
        w.observe(10, PEDAL);
        w.next();
        w.observe(12, PEDAL);
        w.next();
        assert_eq!(
            w.step(),
            WizardStep::PedalPressed,
            "two counts is not a press"
        );
        w.observe(250, PEDAL);
        w.next();
        let cal = w.result().unwrap();
        assert_eq!(cal.raw_range, Some(RawRange { min: 10, max: 250 }));
        assert!(!cal.invert);
    }

    #[test]
    fn combined_pedals_split_at_rest() {
        let mut w =
            CalibrationWizard::new(AxisControl::CombinedPedals, &AxisCalibration::default());
        w.observe(500, AxisRange::new(0, 1000));
        w.next();
        for v in [700, 990, 500, 300, 20, 500] {
            w.observe(v, AxisRange::new(0, 1000));
        }
        w.next();
        let cal = w.result().unwrap();
        assert_eq!(cal.raw_range, Some(RawRange { min: 20, max: 990 }));
        assert_eq!(cal.centre, Some(500));
    }
}

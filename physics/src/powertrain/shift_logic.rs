//! Gear selection and the automatic clutch for the three gearbox modes.
//!
//! - **Shifts** (automatic and sequential): the box goes to neutral for `shift_time_s`, the
//!   engine is throttled toward the new gear's speed (rev matching), then the new gear is
//!   engaged and, with the automatic clutch, the clutch closes over `engage_time_s`.
//! - **Automatic clutch**, start phase: the capacity follows the engine speed, zero below
//!   `launch_start_rpm` and full at `launch_full_rpm` (a smoothstep between), so the car pulls
//!   away smoothly as the driver opens the throttle and the engine can never be stalled; the
//!   start phase ends when the clutch locks. Engaged, it opens again (start phase) if the
//!   engine falls below `declutch_rpm`.
//! - **Automatic**: a selector R - N - D moved by `shift_down` (toward R) and `shift_up`
//!   (toward D); reverse is only selected near standstill. In D or R the box goes to neutral
//!   at standstill while the brake is held without throttle (VR-Design Studio: "when the car stops,
//!   it goes to neutral"). In D the gear is scheduled: upshift at `upshift_rpm`; above the
//!   kickdown throttle the gear of best wheel torque (flywheel torque times ratio) whose speed
//!   leaves room below the upshift point; otherwise downshift when the engine falls below a
//!   throttle-dependent floor and upshift when the next gear stays above it by the hysteresis.
//! - **Sequential**: one gear per `shift_up`/`shift_down` edge; reverse from neutral only
//!   near standstill; changes to and from neutral are immediate.
//! - **H-pattern**: the gear follows the lever (`Controls::h_gear`, or a lever moved by the
//!   shift buttons without an H-shifter). A gear engages when the clutch pedal is pressed
//!   past the bite zone or when the speeds across the gearbox already match within
//!   `sync_tolerance_rpm` (reverse: also only near standstill). Otherwise it grinds: the box
//!   stays in neutral with the grind flag raised until the clutch is pressed.

use super::clutch::{ClutchParams, smoothstep};
use super::engine::{EngineParams, RPM_TO_RAD_S};
use super::gearbox::{GearboxMode, GearboxParams};
use crate::controls::Controls;

/// Wheel speed (rad/s, differential input) below which the car counts as standing still.
pub const STANDSTILL_RAD_S: f64 = 0.5;
/// Brake pedal above which the automatic counts the brake as held.
const BRAKE_HELD: f64 = 0.1;
/// Throttle below which the automatic counts the throttle as released.
const THROTTLE_RELEASED: f64 = 0.05;
/// Rev matching: engine-speed error (rpm) over which the throttle goes from 0 to 1.
const REV_MATCH_RANGE_RPM: f64 = 250.0;

/// Position of the automatic's selector.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Selector {
    /// Reverse.
    Reverse,
    /// Neutral.
    Neutral,
    /// Drive.
    #[default]
    Drive,
}

/// What the shift logic decided for this tick.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ShiftOutput {
    /// Gear engaged (0 while a shift is in its neutral phase).
    pub gear: i8,
    /// Automatic clutch capacity as a fraction of the full capacity, or `None` when the
    /// driver's pedal alone works the clutch.
    pub auto_clutch: Option<f64>,
    /// Throttle the gearbox imposes (rev matching during a shift), replacing the driver's.
    pub throttle_override: Option<f64>,
    /// A shift is in progress (neutral phase or clutch re-engagement).
    pub shifting: bool,
    /// An H-pattern engagement was refused: the gears grind.
    pub grind: bool,
}

/// What the shift logic reads of the powertrain's state.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ShiftInputs {
    /// Engine speed (rad/s).
    pub engine_rad_s: f64,
    /// Gearbox output speed (rad/s): differential input speed times the final drive.
    pub output_rad_s: f64,
    /// Differential input speed (rad/s), the wheels' mean weighted by the drive layout.
    pub wheel_rad_s: f64,
    /// The clutch was locked on the previous tick.
    pub clutch_locked: bool,
}

/// State of the gear selection and automatic clutch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShiftLogic {
    gear: i8,
    target: i8,
    shift_left_s: f64,
    engage_left_s: f64,
    launch: bool,
    since_shift_s: f64,
    selector: Selector,
    grind: bool,
    lever: i8,
}

impl Default for ShiftLogic {
    fn default() -> Self {
        Self {
            gear: 0,
            target: 0,
            shift_left_s: 0.0,
            engage_left_s: 0.0,
            launch: true,
            since_shift_s: f64::INFINITY,
            selector: Selector::Drive,
            grind: false,
            lever: 0,
        }
    }
}

impl ShiftLogic {
    /// Gear engaged now.
    pub fn gear(&self) -> i8 {
        self.gear
    }

    /// The automatic's selector position.
    pub fn selector(&self) -> Selector {
        self.selector
    }

    /// Whether a shift is in progress.
    pub fn shifting(&self) -> bool {
        self.shift_left_s > 0.0 || self.engage_left_s > 0.0
    }

    /// Engages `gear` at once (no shift time), e.g. when a scenario starts in gear.
    pub fn force_gear(&mut self, gear: i8) {
        self.gear = gear;
        self.target = gear;
        self.lever = gear;
        self.shift_left_s = 0.0;
        self.engage_left_s = 0.0;
        self.grind = false;
        self.launch = true;
    }

    /// Decides gear, clutch and throttle override for this tick.
    pub fn update(
        &mut self,
        gearbox: &GearboxParams,
        engine: &EngineParams,
        clutch: &ClutchParams,
        controls: &Controls,
        s: ShiftInputs,
        dt: f64,
    ) -> ShiftOutput {
        self.since_shift_s += dt;
        if !gearbox.has_gear(self.gear) {
            self.force_gear(0);
        }
        let engine_rpm = s.engine_rad_s / RPM_TO_RAD_S;
        let auto_clutch = match gearbox.mode {
            GearboxMode::Automatic => {
                self.automatic(gearbox, engine, controls, s);
                true
            }
            GearboxMode::Sequential => {
                self.sequential(gearbox, controls, s);
                gearbox.sequential_auto_clutch
            }
            GearboxMode::HPattern => {
                self.h_pattern(gearbox, clutch, controls, s);
                false
            }
        };

        // Rev matching while the box is in the neutral phase of a shift.
        let mut throttle_override = None;
        if self.shift_left_s > 0.0 {
            let target_rpm = gearbox
                .engine_rpm_in(self.target, s.output_rad_s)
                .abs()
                .min(engine.redline_rpm);
            throttle_override =
                Some(((target_rpm - engine_rpm) / REV_MATCH_RANGE_RPM).clamp(0.0, 1.0));
            self.shift_left_s -= dt;
            if self.shift_left_s <= 0.0 {
                self.shift_left_s = 0.0;
                self.gear = self.target;
                self.engage_left_s = if auto_clutch {
                    gearbox.auto_clutch.engage_time_s
                } else {
                    0.0
                };
            }
        } else if self.engage_left_s > 0.0 {
            self.engage_left_s = (self.engage_left_s - dt).max(0.0);
        }

        let auto_clutch = auto_clutch.then(|| self.auto_clutch_fraction(gearbox, engine_rpm, s));
        ShiftOutput {
            gear: self.gear,
            auto_clutch,
            throttle_override,
            shifting: self.shifting(),
            grind: self.grind,
        }
    }

    /// Automatic clutch capacity fraction, and the start-phase bookkeeping.
    fn auto_clutch_fraction(
        &mut self,
        gearbox: &GearboxParams,
        engine_rpm: f64,
        s: ShiftInputs,
    ) -> f64 {
        let ac = &gearbox.auto_clutch;
        if self.gear == 0 || self.shift_left_s > 0.0 {
            return 0.0;
        }
        if self.engage_left_s > 0.0 {
            let ramp = if ac.engage_time_s > 0.0 {
                1.0 - self.engage_left_s / ac.engage_time_s
            } else {
                1.0
            };
            return smoothstep(ramp);
        }
        if self.launch {
            if s.clutch_locked && engine_rpm >= ac.declutch_rpm {
                self.launch = false;
            }
        } else if engine_rpm < ac.declutch_rpm {
            self.launch = true;
        }
        if self.launch {
            smoothstep(
                (engine_rpm - ac.launch_start_rpm) / (ac.launch_full_rpm - ac.launch_start_rpm),
            )
        } else {
            1.0
        }
    }

    /// Starts a shift to `target`: immediate to or from neutral, otherwise through neutral
    /// for `shift_time_s`.
    fn start_shift(&mut self, gearbox: &GearboxParams, target: i8) {
        if target == self.gear || !gearbox.has_gear(target) {
            return;
        }
        self.since_shift_s = 0.0;
        if self.gear == 0 || target == 0 || gearbox.shift_time_s <= 0.0 {
            if self.gear == 0 {
                self.launch = true;
            }
            self.gear = target;
            self.target = target;
            self.shift_left_s = 0.0;
            self.engage_left_s = 0.0;
        } else {
            self.target = target;
            self.gear = 0;
            self.shift_left_s = gearbox.shift_time_s;
            self.engage_left_s = 0.0;
            self.launch = false;
        }
    }

    fn automatic(
        &mut self,
        gearbox: &GearboxParams,
        engine: &EngineParams,
        c: &Controls,
        s: ShiftInputs,
    ) {
        let standstill = s.wheel_rad_s.abs() < STANDSTILL_RAD_S;
        if c.shift_up {
            self.selector = match self.selector {
                Selector::Reverse => Selector::Neutral,
                Selector::Neutral | Selector::Drive => Selector::Drive,
            };
        } else if c.shift_down {
            self.selector = match self.selector {
                Selector::Drive => Selector::Neutral,
                Selector::Neutral if standstill => Selector::Reverse,
                other => other,
            };
        }
        if self.shifting() {
            return;
        }
        let parked = standstill && c.brake > BRAKE_HELD && c.throttle < THROTTLE_RELEASED;
        match self.selector {
            Selector::Neutral => self.start_shift(gearbox, 0),
            Selector::Reverse => self.start_shift(gearbox, if parked { 0 } else { -1 }),
            Selector::Drive => {
                if parked {
                    self.start_shift(gearbox, 0);
                } else if self.gear <= 0 {
                    let g = if standstill {
                        1
                    } else {
                        self.scheduled_gear(gearbox, engine, c.throttle, s, true)
                    };
                    self.start_shift(gearbox, g);
                } else {
                    let g = self.scheduled_gear(gearbox, engine, c.throttle, s, false);
                    // Downshifts may follow each other twice as fast as upshifts (braking
                    // hard through the gears); while the clutch is in its start phase only
                    // downshifts make sense.
                    let interval = gearbox.auto_shift.min_shift_interval_s;
                    let ok = if g > self.gear {
                        !self.launch && self.since_shift_s >= interval
                    } else {
                        self.since_shift_s >= 0.5 * interval
                    };
                    if ok {
                        self.start_shift(gearbox, g);
                    }
                }
            }
        }
    }

    /// The gear the automatic's schedule wants. `from_neutral`: pick any gear for the
    /// current speed (coming out of neutral while rolling). Speeds are those of the
    /// driveline (gearbox output times ratio), which the engine has when the clutch is
    /// locked.
    fn scheduled_gear(
        &self,
        gearbox: &GearboxParams,
        engine: &EngineParams,
        throttle: f64,
        s: ShiftInputs,
        from_neutral: bool,
    ) -> i8 {
        let sched = &gearbox.auto_shift;
        let top = gearbox.top_gear();
        let rpm_in = |g: i8| gearbox.engine_rpm_in(g, s.output_rad_s);
        let room = sched.upshift_rpm - sched.hysteresis_rpm;
        let floor = sched.min_rpm_closed_throttle
            + (sched.min_rpm_full_throttle - sched.min_rpm_closed_throttle)
                * throttle.clamp(0.0, 1.0);
        if from_neutral {
            // Highest gear keeping the engine above the floor, or first.
            return (1..=top)
                .rev()
                .find(|&g| rpm_in(g) >= floor && rpm_in(g) <= room)
                .unwrap_or(1);
        }
        let gear = self.gear;
        let cur_rpm = rpm_in(gear);
        if gear < top && cur_rpm >= sched.upshift_rpm {
            return gear + 1;
        }
        if throttle >= sched.kickdown_throttle {
            // Best wheel torque among the gears with room to pull below the upshift point.
            let wheel_torque = |g: i8| engine.flywheel_full_torque(rpm_in(g)) * gearbox.ratio(g);
            let mut best = gear;
            let mut best_torque = wheel_torque(gear);
            for g in 1..=top {
                if g != gear && rpm_in(g) <= room && wheel_torque(g) > best_torque * 1.03 {
                    best = g;
                    best_torque = wheel_torque(g);
                }
            }
            return best;
        }
        if gear > 1 && cur_rpm < floor {
            // The highest lower gear that brings the engine back above the floor (skipping
            // gears when the car slowed quickly), without passing the upshift room.
            return match (1..gear).rev().find(|&g| rpm_in(g) >= floor) {
                Some(g) if rpm_in(g) <= room => g,
                Some(g) if g + 1 < gear => g + 1,
                Some(_) => gear,
                None => 1,
            };
        }
        if gear < top && rpm_in(gear + 1) >= floor + sched.hysteresis_rpm {
            return gear + 1;
        }
        gear
    }

    fn sequential(&mut self, gearbox: &GearboxParams, c: &Controls, s: ShiftInputs) {
        if self.shifting() {
            return;
        }
        let standstill = s.wheel_rad_s.abs() < STANDSTILL_RAD_S;
        if c.shift_up && self.gear < gearbox.top_gear() {
            self.start_shift(gearbox, self.gear + 1);
        } else if c.shift_down && (self.gear > 0 || (self.gear == 0 && standstill)) {
            self.start_shift(gearbox, self.gear - 1);
        }
    }

    fn h_pattern(
        &mut self,
        gearbox: &GearboxParams,
        clutch: &ClutchParams,
        c: &Controls,
        s: ShiftInputs,
    ) {
        match c.h_gear {
            Some(g) => self.lever = g,
            None => {
                if c.shift_up {
                    self.lever = (self.lever + 1).min(gearbox.top_gear());
                } else if c.shift_down {
                    self.lever = (self.lever - 1).max(-1);
                }
            }
        }
        let lever = if gearbox.has_gear(self.lever) {
            self.lever
        } else {
            0
        };
        self.shift_left_s = 0.0;
        self.engage_left_s = 0.0;
        if lever == self.gear {
            self.grind = false;
            return;
        }
        if lever == 0 {
            self.gear = 0;
            self.target = 0;
            self.grind = false;
            return;
        }
        let pressed = clutch.disengaged(c.clutch);
        let mismatch_rpm =
            (s.engine_rad_s - s.output_rad_s * gearbox.ratio(lever)).abs() / RPM_TO_RAD_S;
        let synchronised = mismatch_rpm <= gearbox.sync_tolerance_rpm;
        let reverse_ok = lever != -1 || s.wheel_rad_s.abs() < STANDSTILL_RAD_S;
        if (pressed || synchronised) && reverse_ok {
            self.gear = lever;
            self.target = lever;
            self.grind = false;
            self.since_shift_s = 0.0;
        } else {
            self.gear = 0;
            self.target = 0;
            self.grind = true;
        }
    }
}

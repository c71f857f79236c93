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
//!   it goes to neutral"). In D the gear is scheduled as a driver's automatic does it, from
//!   the engine speed in each gear, the throttle, the brake and the car's motion
//!   ([`VehicleMotion`]), by these rules in order:
//!   1. **Upshift point**: at `upshift_rpm` the box shifts up, always (a full-throttle launch
//!      shifts at the red line, in a corner as well).
//!   2. **Lugging**: below `min_rpm_closed_throttle` it shifts down, always.
//!   3. **Corner hold**: while cornering (smoothed lateral acceleration above
//!      `corner_lateral_m_s2`) or sliding (a slip angle above `corner_slip_rad`) it holds the
//!      gear: no shift mid-corner that would upset the car.
//!   4. **Braking**: with the brake held it never shifts up, and shifts down whenever the
//!      engine falls below `braking_min_rpm`, to the highest lower gear that brings it back
//!      above (without passing the upshift room), so that the engine is in its power band at
//!      the corner exit rather than lugging at 1,500 rpm in a tall gear.
//!   5. **Kick-down**: above `kickdown_throttle` the gear of best wheel torque (flywheel torque
//!      times ratio) whose speed leaves room below the upshift point.
//!   6. **Part throttle**: shift down when the engine falls below a floor that rises with the
//!      smoothed throttle (from `min_rpm_closed_throttle` to `min_rpm_full_throttle`), up
//!      when the next gear stays above the floor by `hysteresis_rpm`; a gear is held for
//!      `hold_s` before this schedule shifts back the way it came (no a-b-a hunting). It
//!      does not shift up on a closed throttle (coasting keeps the gear and its engine
//!      braking), nor for a second after the pedal left the kick-down point ("fast-off":
//!      lifting off a floored pedal announces braking, not cruising).
//!
//!   First gear is only chosen below `walking_pace_m_s`; faster the box goes no lower than
//!   second. Upshifts are at least `min_shift_interval_s` apart, downshifts half that.
//! - **Sequential**: one gear per `shift_up`/`shift_down` edge; reverse from neutral only
//!   near standstill; changes to and from neutral are immediate.
//! - **H-pattern**: the gear follows the lever (`Controls::h_gear`, or a lever moved by the
//!   shift buttons without an H-shifter). A gear engages when the clutch pedal is pressed
//!   past the bite zone or when the speeds across the gearbox already match within
//!   `sync_tolerance_rpm` (reverse: also only near standstill). Otherwise it grinds: the box
//!   stays in neutral with the grind flag raised until the clutch is pressed.

use super::clutch::{ClutchParams, smoothstep};
use super::engine::{EngineParams, RPM_TO_RAD_S};
use super::gearbox::{AutoShiftParams, GearboxMode, GearboxParams};
use super::vehicle_motion::VehicleMotion;
use crate::controls::Controls;

/// Wheel speed (rad/s, differential input) below which the car counts as standing still.
pub const STANDSTILL_RAD_S: f64 = 0.5;
/// Brake pedal above which the automatic counts the brake as held.
const BRAKE_HELD: f64 = 0.1;
/// Throttle below which the automatic counts the throttle as released.
const THROTTLE_RELEASED: f64 = 0.05;
/// Rev matching: engine-speed error (rpm) over which the throttle goes from 0 to 1.
const REV_MATCH_RANGE_RPM: f64 = 250.0;
/// Time constant (s) of the lateral acceleration the corner hold reads: smooths the
/// suspension's and the road's vibration out of the 1 kHz signal.
const LATERAL_FILTER_S: f64 = 0.3;
/// Time constant (s) of the throttle the part-throttle schedule reads, so that a driver
/// modulating the pedal does not move the shift points up and down with it.
const THROTTLE_FILTER_S: f64 = 0.5;
/// "Fast-off": after the throttle was at the kick-down point, the part-throttle schedule
/// does not shift up for this long (s). A driver who lifts off a floored pedal is about to
/// brake for a corner, not to cruise; shifting up there only to shift back down under the
/// brakes is the a-b-a hunting a driver notices.
const LIFT_HOLD_S: f64 = 1.0;

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
    /// How the car moves (speed, lateral acceleration, slide).
    pub motion: VehicleMotion,
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
    /// Direction of the last automatic shift between forward gears: +1 up, -1 down, 0 none.
    last_direction: i8,
    /// Smoothed magnitude of the lateral acceleration (m/s²).
    lateral_m_s2: f64,
    /// Smoothed throttle (0..1).
    throttle: f64,
    /// Time since the throttle was last at or above the kick-down point (s).
    since_kickdown_s: f64,
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
            last_direction: 0,
            lateral_m_s2: 0.0,
            throttle: 0.0,
            since_kickdown_s: f64::INFINITY,
        }
    }
}

impl ShiftLogic {
    /// Gear engaged now.
    pub fn gear(&self) -> i8 {
        self.gear
    }

    /// The gear a driver's display shows: during a shift's neutral phase the gear being
    /// shifted to, otherwise the gear engaged (neutral only when no gear is, or will be).
    pub fn shown_gear(&self) -> i8 {
        if self.shift_left_s > 0.0 {
            self.target
        } else {
            self.gear
        }
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
        let motion = s.motion.sanitized();
        self.lateral_m_s2 +=
            (motion.lateral_accel_m_s2.abs() - self.lateral_m_s2) * (dt / (LATERAL_FILTER_S + dt));
        self.throttle += (controls.throttle - self.throttle) * (dt / (THROTTLE_FILTER_S + dt));
        self.since_kickdown_s = if controls.throttle >= gearbox.auto_shift.kickdown_throttle {
            0.0
        } else {
            self.since_kickdown_s + dt
        };
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
        if self.engage_left_s > 0.0 && engine_rpm < ac.declutch_rpm {
            // A gear engaged at a crawl (first gear as the car stops) would drag the engine
            // below its declutch speed: the clutch goes back to its start phase instead.
            self.engage_left_s = 0.0;
            self.launch = true;
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
        self.last_direction = if self.gear > 0 && target > 0 {
            (target - self.gear).signum()
        } else {
            0
        };
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
                        self.rolling_start_gear(gearbox, s)
                    };
                    self.start_shift(gearbox, g);
                } else {
                    let g = self.scheduled_gear(gearbox, engine, c, s);
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

    /// Lowest forward gear the box may choose at the car's speed: first only at walking pace.
    fn lowest_gear(sched: &AutoShiftParams, top: i8, s: ShiftInputs) -> i8 {
        if s.motion.forward_speed_m_s.abs() > sched.walking_pace_m_s {
            2.min(top)
        } else {
            1
        }
    }

    /// Coming out of neutral while rolling: the highest gear keeping the engine above the
    /// throttle floor without passing the upshift room, or the lowest the speed allows.
    fn rolling_start_gear(&self, gearbox: &GearboxParams, s: ShiftInputs) -> i8 {
        let sched = &gearbox.auto_shift;
        let top = gearbox.top_gear();
        let rpm_in = |g: i8| gearbox.engine_rpm_in(g, s.output_rad_s);
        let room = sched.upshift_rpm - sched.hysteresis_rpm;
        let floor = self.throttle_floor(sched);
        let lowest = Self::lowest_gear(sched, top, s);
        (lowest..=top)
            .rev()
            .find(|&g| rpm_in(g) >= floor && rpm_in(g) <= room)
            .unwrap_or(lowest)
    }

    /// The part-throttle floor (rpm) at the smoothed throttle.
    fn throttle_floor(&self, sched: &AutoShiftParams) -> f64 {
        sched.min_rpm_closed_throttle
            + (sched.min_rpm_full_throttle - sched.min_rpm_closed_throttle)
                * self.throttle.clamp(0.0, 1.0)
    }

    /// Whether the car counts as cornering or sliding (the corner hold).
    fn cornering(&self, sched: &AutoShiftParams, motion: &VehicleMotion) -> bool {
        // Slip angles mean nothing at a crawl (the tyre models regularise them there).
        self.lateral_m_s2 > sched.corner_lateral_m_s2
            || (motion.max_slip_angle_rad.abs() > sched.corner_slip_rad
                && motion.forward_speed_m_s.abs() > sched.walking_pace_m_s)
    }

    /// The gear the automatic's schedule wants while in a forward gear (the rules of the
    /// module docs, in order). Speeds are those of the driveline (gearbox output times
    /// ratio), which the engine has when the clutch is locked.
    fn scheduled_gear(
        &self,
        gearbox: &GearboxParams,
        engine: &EngineParams,
        c: &Controls,
        s: ShiftInputs,
    ) -> i8 {
        let sched = &gearbox.auto_shift;
        let top = gearbox.top_gear();
        let rpm_in = |g: i8| gearbox.engine_rpm_in(g, s.output_rad_s);
        let room = sched.upshift_rpm - sched.hysteresis_rpm;
        let lowest = Self::lowest_gear(sched, top, s);
        let gear = self.gear;
        let cur_rpm = rpm_in(gear);
        // The highest gear below this one that brings the engine up to `floor` without
        // passing the upshift room; when none reaches the floor, the lowest allowed within
        // the room; when even that passes the room, this gear.
        let down_to = |floor: f64| -> i8 {
            let mut best = gear;
            for g in (lowest..gear).rev() {
                if rpm_in(g) > room {
                    break;
                }
                best = g;
                if rpm_in(g) >= floor {
                    break;
                }
            }
            best
        };

        // 1. The upshift point.
        if gear < top && cur_rpm >= sched.upshift_rpm {
            return gear + 1;
        }
        // 2. Lugging.
        if gear > lowest && cur_rpm < sched.min_rpm_closed_throttle {
            return down_to(sched.min_rpm_closed_throttle);
        }
        // 3. Corner hold.
        if self.cornering(sched, &s.motion) {
            return gear;
        }
        // 4. Braking.
        if c.brake > BRAKE_HELD {
            if cur_rpm < sched.braking_min_rpm {
                return down_to(sched.braking_min_rpm);
            }
            return gear;
        }
        // 5. Kick-down.
        if c.throttle >= sched.kickdown_throttle {
            // Best wheel torque among the gears with room to pull below the upshift point.
            let wheel_torque = |g: i8| engine.flywheel_full_torque(rpm_in(g)) * gearbox.ratio(g);
            let mut best = gear;
            let mut best_torque = wheel_torque(gear);
            for g in lowest..=top {
                if g != gear && rpm_in(g) <= room && wheel_torque(g) > best_torque * 1.03 {
                    best = g;
                    best_torque = wheel_torque(g);
                }
            }
            return best;
        }
        // 6. Part throttle, each way only after the hold since a shift the other way.
        let floor = self.throttle_floor(sched);
        let held = self.since_shift_s >= sched.hold_s;
        if gear > lowest && cur_rpm < floor && (held || self.last_direction <= 0) {
            return down_to(floor);
        }
        if gear < top
            && rpm_in(gear + 1) >= floor + sched.hysteresis_rpm
            && (held || self.last_direction >= 0)
            && self.since_kickdown_s >= LIFT_HOLD_S
            && c.throttle >= THROTTLE_RELEASED
        {
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

#[cfg(test)]
mod tests {
    //! The automatic's schedule on its own, fed speeds as a car on 0.33 m wheels with the
    //! Corvette's T56 (2.66, 1.78, 1.30, 1.00, 0.74, 0.50; final drive 3.42) gives them, the
    //! clutch locked. Engine speed in gear g at v m/s: `v / 0.33 * 3.42 * ratio * 60 / 2π`.

    use super::*;

    const RADIUS_M: f64 = 0.33;
    const DT: f64 = 1e-3;

    struct Bench {
        logic: ShiftLogic,
        gearbox: GearboxParams,
        engine: EngineParams,
        clutch: ClutchParams,
    }

    impl Bench {
        /// In `gear`, the throttle filter settled at `throttle`.
        fn in_gear(gear: i8, throttle: f64) -> Self {
            let mut logic = ShiftLogic::default();
            logic.force_gear(gear);
            logic.throttle = throttle;
            Self {
                logic,
                gearbox: GearboxParams::t56(),
                engine: EngineParams::ls1(),
                clutch: ClutchParams::default(),
            }
        }

        /// Road speed (m/s) at which the engine turns `rpm` in `gear`.
        fn speed_at(&self, gear: i8, rpm: f64) -> f64 {
            rpm * RPM_TO_RAD_S / self.gearbox.overall_ratio(gear) * RADIUS_M
        }

        /// Runs `seconds` at `speed_m_s` with `controls` and `motion`'s lateral acceleration
        /// and slip; returns the gear engaged at the end and the lowest engaged on the way.
        fn run(
            &mut self,
            c: &Controls,
            speed_m_s: f64,
            motion: VehicleMotion,
            seconds: f64,
        ) -> (i8, i8) {
            let mut lowest = i8::MAX;
            // Test durations are small positive numbers of milliseconds.
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let n = (seconds / DT).round() as usize;
            for _ in 0..n {
                let wheel = speed_m_s / RADIUS_M;
                let output = wheel * self.gearbox.final_drive;
                let engine = (output * self.gearbox.ratio(self.logic.shown_gear()))
                    .max(self.engine.idle_rpm * RPM_TO_RAD_S);
                let out = self.logic.update(
                    &self.gearbox,
                    &self.engine,
                    &self.clutch,
                    c,
                    ShiftInputs {
                        engine_rad_s: engine,
                        output_rad_s: output,
                        wheel_rad_s: wheel,
                        clutch_locked: !self.logic.shifting(),
                        motion: VehicleMotion {
                            forward_speed_m_s: speed_m_s,
                            ..motion
                        },
                    },
                    DT,
                );
                if out.gear > 0 {
                    lowest = lowest.min(out.gear);
                }
            }
            (self.logic.gear(), lowest)
        }
    }

    fn pedal(throttle: f64, brake: f64) -> Controls {
        Controls {
            throttle,
            brake,
            ..Controls::default()
        }
    }

    const STRAIGHT: VehicleMotion = VehicleMotion {
        forward_speed_m_s: 0.0,
        lateral_accel_m_s2: 0.0,
        max_slip_angle_rad: 0.0,
    };

    #[test]
    fn part_throttle_shifts_have_hysteresis_and_do_not_hunt() {
        // Half throttle: floor 1200 + 0.5 * (3500 - 1200) = 2350 rpm; up when the next gear
        // turns at least 2350 + 400 = 2750 rpm.
        let mut b = Bench::in_gear(3, 0.5);
        let c = pedal(0.5, 0.0);
        assert_eq!(b.run(&c, b.speed_at(4, 2600.0), STRAIGHT, 3.0).0, 3);
        assert_eq!(b.run(&c, b.speed_at(4, 2800.0), STRAIGHT, 0.5).0, 4);
        // Between the two points the gear stays, whichever way the speed moves.
        assert_eq!(b.run(&c, b.speed_at(4, 2450.0), STRAIGHT, 5.0), (4, 4));
        assert_eq!(b.run(&c, b.speed_at(4, 2250.0), STRAIGHT, 0.5).0, 3);
        // Back at the upshift speed at once: held 2 s in third before going up again.
        assert_eq!(b.run(&c, b.speed_at(4, 2800.0), STRAIGHT, 1.5).0, 3);
        assert_eq!(b.run(&c, b.speed_at(4, 2800.0), STRAIGHT, 1.0).0, 4);
    }

    #[test]
    fn kick_down_picks_the_gear_of_best_wheel_torque() {
        // 30 m/s in fifth (2197 rpm). Second turns 5285 rpm, under the 5500 rpm room, with
        // the LS1's 450 N·m there (between 460 at 5000 and 438 at 5600): 450 * 1.78 = 800 N·m
        // at the gearbox output, against 468 * 1.30 = 608 in third (3860 rpm); first would
        // pass the room (7898 rpm).
        let mut b = Bench::in_gear(5, 0.3);
        assert_eq!(b.run(&pedal(0.3, 0.0), 30.0, STRAIGHT, 2.0).0, 5);
        assert_eq!(b.run(&pedal(1.0, 0.0), 30.0, STRAIGHT, 0.5).0, 2);
    }

    #[test]
    fn first_gear_only_at_walking_pace() {
        // Kick-down at 4 m/s in second (705 rpm): first would give more wheel torque (1053
        // rpm, 2.66 against 1.78) but the car is faster than a walk.
        let mut b = Bench::in_gear(2, 1.0);
        assert_eq!(b.run(&pedal(1.0, 0.0), 4.0, STRAIGHT, 2.0), (2, 2));
        // Braking at 3 m/s: still second; at 1.5 m/s (264 rpm in second) first.
        assert_eq!(b.run(&pedal(0.0, 0.5), 3.0, STRAIGHT, 2.0), (2, 2));
        assert_eq!(b.run(&pedal(0.0, 0.5), 1.5, STRAIGHT, 1.0).0, 1);
    }

    #[test]
    fn a_gear_is_held_through_a_corner_and_while_sliding() {
        let mut b = Bench::in_gear(3, 0.5);
        let c = pedal(0.5, 0.0);
        let v = b.speed_at(4, 2800.0); // an upshift on the straight (see the hysteresis test)
        let corner = VehicleMotion {
            lateral_accel_m_s2: 7.0,
            ..STRAIGHT
        };
        let slide = VehicleMotion {
            max_slip_angle_rad: 0.2,
            ..STRAIGHT
        };
        // Into the corner below the upshift speed, then faster in it.
        assert_eq!(b.run(&c, b.speed_at(4, 2600.0), corner, 1.0), (3, 3));
        assert_eq!(b.run(&c, v, corner, 3.0), (3, 3));
        // Out of the corner but sliding: still held.
        assert_eq!(b.run(&c, v, slide, 1.0), (3, 3));
        assert_eq!(b.run(&c, v, STRAIGHT, 1.0).0, 4);
        // At the upshift point the box shifts up even in a corner (5950 rpm in second).
        let mut b = Bench::in_gear(2, 0.5);
        let v = b.speed_at(2, 5950.0);
        assert_eq!(b.run(&c, v, corner, 0.5).0, 3);
    }

    #[test]
    fn braking_shifts_down_into_the_power_band_and_never_up() {
        // 40 m/s in sixth: 1979 rpm. Fifth would give 2929 rpm, under the 3000 rpm braking
        // floor; fourth 3958: the box goes to fourth.
        let mut b = Bench::in_gear(6, 0.0);
        let brake = pedal(0.0, 0.6);
        assert_eq!(b.run(&brake, 40.0, STRAIGHT, 0.5).0, 4);
        // Slowing to 25 m/s: fourth falls to 2474 rpm, third gives 3217.
        let mut v = 40.0;
        let mut lowest = 4;
        while v > 25.0 {
            v -= 6.0 * 0.1;
            lowest = lowest.min(b.run(&brake, v, STRAIGHT, 0.1).1);
        }
        assert_eq!((b.logic.gear(), lowest), (3, 3));
        // Braking at 40 m/s in second (4404 rpm) holds second: no upshift under braking.
        let mut b = Bench::in_gear(2, 0.0);
        assert_eq!(b.run(&brake, b.speed_at(2, 5400.0), STRAIGHT, 2.0), (2, 2));
    }

    #[test]
    fn the_display_shows_the_gear_being_shifted_to() {
        let mut b = Bench::in_gear(3, 1.0);
        let v = b.speed_at(3, 5950.0);
        b.run(&pedal(1.0, 0.0), v, STRAIGHT, 0.01);
        assert!(b.logic.shift_left_s > 0.0, "in the neutral phase");
        assert_eq!((b.logic.gear(), b.logic.shown_gear()), (0, 4));
    }
}

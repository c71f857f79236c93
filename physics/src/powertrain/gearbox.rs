//! The gearbox: ratios, reverse, neutral, final drive, efficiency, shift time, and the
//! parameters of its three operating modes (the logic is in [`super::shift_logic`]).
//!
//! Gears are numbered as the driver sees them: `-1` reverse, `0` neutral, `1..=n` forward.
//! The overall ratio from engine to differential input is `ratio(gear) * final_drive`,
//! negative in reverse so that the wheels turn backwards. Torque passed from the engine to
//! the wheels is multiplied by the ratio and by `efficiency`; torque coming back from the
//! wheels on the overrun reaches the engine multiplied by `efficiency` too, so the loss
//! always opposes the power flow.

use serde::{Deserialize, Serialize};

use super::engine::RPM_TO_RAD_S;
use crate::validate::{Validate, Validator};

/// Most forward gears a gearbox may have.
pub const MAX_FORWARD_GEARS: usize = 9;

/// How gears and clutch are operated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum GearboxMode {
    /// Automatic: the box picks the gear and works the clutch. `shift_up`/`shift_down`
    /// move the selector between reverse, neutral and drive (VR-Design Studio's automatic gearbox,
    /// `docs/sources.md`).
    #[default]
    Automatic,
    /// Sequential: `shift_up`/`shift_down` change one gear at a time; the clutch is automatic
    /// or the driver's, per [`GearboxParams::sequential_auto_clutch`].
    Sequential,
    /// Manual H-pattern: the gear follows `Controls::h_gear` (or the shift buttons without an
    /// H-shifter) and the driver works the clutch.
    HPattern,
}

/// The automatic clutch of the automatic and sequential modes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AutoClutchParams {
    /// Start phase: engine speed at which the clutch begins to bite (rpm).
    pub launch_start_rpm: f64,
    /// Start phase: engine speed at which the clutch has its full capacity (rpm).
    pub launch_full_rpm: f64,
    /// Engaged in gear, the clutch opens again (start phase) when the engine drops below
    /// this speed (rpm), so that the automatic never stalls.
    pub declutch_rpm: f64,
    /// Shift phase: time to re-engage the clutch after the gear is in (s).
    pub engage_time_s: f64,
}

impl Default for AutoClutchParams {
    fn default() -> Self {
        Self {
            launch_start_rpm: 900.0,
            launch_full_rpm: 2200.0,
            declutch_rpm: 750.0,
            engage_time_s: 0.15,
        }
    }
}

impl Validate for AutoClutchParams {
    fn validate(&self, v: &mut Validator) {
        v.positive("launch_start_rpm", self.launch_start_rpm);
        v.positive("launch_full_rpm", self.launch_full_rpm);
        v.positive("declutch_rpm", self.declutch_rpm);
        v.non_negative("engage_time_s", self.engage_time_s);
        v.require(
            self.launch_full_rpm > self.launch_start_rpm,
            "launch_full_rpm",
            "must be above launch_start_rpm",
        );
        v.require(
            self.declutch_rpm < self.launch_full_rpm,
            "declutch_rpm",
            "must be below launch_full_rpm",
        );
    }
}

/// The shift schedule of the automatic mode.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AutoShiftParams {
    /// Upshift whenever the engine reaches this speed (rpm, at most the red line).
    pub upshift_rpm: f64,
    /// Lowest engine speed the box keeps at closed throttle before shifting down (rpm).
    pub min_rpm_closed_throttle: f64,
    /// Lowest engine speed the box keeps at full throttle before shifting down (rpm); the
    /// floor moves linearly between the two with the throttle.
    pub min_rpm_full_throttle: f64,
    /// Margin against hunting (rpm): upshift only when the next gear turns this much above
    /// the floor; downshift only when the lower gear stays this much below `upshift_rpm`.
    pub hysteresis_rpm: f64,
    /// Throttle above which the box picks the gear of best wheel torque (kickdown).
    pub kickdown_throttle: f64,
    /// Least time between two automatic shifts (s).
    pub min_shift_interval_s: f64,
    /// Under braking the box shifts down whenever the engine falls below this speed (rpm),
    /// so that it is in its power band when the driver opens the throttle at the corner
    /// exit. Default 3000 rpm.
    #[serde(default = "default_braking_min_rpm")]
    pub braking_min_rpm: f64,
    /// Lateral acceleration (m/s², magnitude, smoothed) above which the car counts as
    /// cornering: the box holds its gear, shifting only at the upshift point or to keep the
    /// engine above `min_rpm_closed_throttle`. Default 3 m/s² (0.3 g).
    #[serde(default = "default_corner_lateral_m_s2")]
    pub corner_lateral_m_s2: f64,
    /// Slip angle (rad, the largest of the four tyres) above which the car counts as
    /// sliding, which holds the gear as cornering does. Default 0.1 rad (5.7°).
    #[serde(default = "default_corner_slip_rad")]
    pub corner_slip_rad: f64,
    /// First gear is chosen only below this road speed (m/s, walking pace); faster the box
    /// goes no lower than second. Default 2 m/s (7 km/h).
    #[serde(default = "default_walking_pace_m_s")]
    pub walking_pace_m_s: f64,
    /// Least time in a gear (s) before the part-throttle schedule shifts back the way it
    /// came (up after a downshift, down after an upshift): no a-b-a hunting. Default 2 s.
    #[serde(default = "default_hold_s")]
    pub hold_s: f64,
}

fn default_braking_min_rpm() -> f64 {
    3000.0
}

fn default_corner_lateral_m_s2() -> f64 {
    3.0
}

fn default_corner_slip_rad() -> f64 {
    0.1
}

fn default_walking_pace_m_s() -> f64 {
    2.0
}

fn default_hold_s() -> f64 {
    2.0
}

impl Default for AutoShiftParams {
    fn default() -> Self {
        Self {
            upshift_rpm: 5900.0,
            min_rpm_closed_throttle: 1200.0,
            min_rpm_full_throttle: 3500.0,
            hysteresis_rpm: 400.0,
            kickdown_throttle: 0.9,
            min_shift_interval_s: 1.0,
            braking_min_rpm: default_braking_min_rpm(),
            corner_lateral_m_s2: default_corner_lateral_m_s2(),
            corner_slip_rad: default_corner_slip_rad(),
            walking_pace_m_s: default_walking_pace_m_s(),
            hold_s: default_hold_s(),
        }
    }
}

impl Validate for AutoShiftParams {
    fn validate(&self, v: &mut Validator) {
        v.positive("upshift_rpm", self.upshift_rpm);
        v.positive("min_rpm_closed_throttle", self.min_rpm_closed_throttle);
        v.positive("min_rpm_full_throttle", self.min_rpm_full_throttle);
        v.non_negative("hysteresis_rpm", self.hysteresis_rpm);
        v.in_range("kickdown_throttle", self.kickdown_throttle, 0.0, 1.0);
        v.non_negative("min_shift_interval_s", self.min_shift_interval_s);
        v.positive("braking_min_rpm", self.braking_min_rpm);
        v.positive("corner_lateral_m_s2", self.corner_lateral_m_s2);
        v.positive("corner_slip_rad", self.corner_slip_rad);
        v.non_negative("walking_pace_m_s", self.walking_pace_m_s);
        v.non_negative("hold_s", self.hold_s);
        v.require(
            self.braking_min_rpm + self.hysteresis_rpm < self.upshift_rpm,
            "braking_min_rpm",
            "plus hysteresis_rpm must stay below upshift_rpm",
        );
        v.require(
            self.min_rpm_full_throttle + self.hysteresis_rpm < self.upshift_rpm,
            "min_rpm_full_throttle",
            "plus hysteresis_rpm must stay below upshift_rpm",
        );
        v.require(
            self.min_rpm_closed_throttle <= self.min_rpm_full_throttle,
            "min_rpm_closed_throttle",
            "must not exceed min_rpm_full_throttle",
        );
    }
}

/// Gearbox parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GearboxParams {
    /// Forward ratios, first gear first (each > 0, decreasing).
    pub ratios: Vec<f64>,
    /// Reverse ratio (> 0; the sign is applied by the gearbox).
    pub reverse_ratio: f64,
    /// Final drive ratio (> 0).
    pub final_drive: f64,
    /// Share of the torque that gets through gearbox and final drive (0..1].
    pub efficiency: f64,
    /// Duration of a shift in the automatic and sequential modes (s): the drive is in
    /// neutral for this long.
    pub shift_time_s: f64,
    /// How gears and clutch are operated.
    pub mode: GearboxMode,
    /// Sequential mode: the clutch is worked automatically for pulling away and shifting
    /// (the driver's pedal can still open it); otherwise the pedal alone.
    pub sequential_auto_clutch: bool,
    /// H-pattern: a gear engages without the clutch pressed if the speeds across the
    /// gearbox differ by less than this (rpm); otherwise it grinds and is refused.
    pub sync_tolerance_rpm: f64,
    /// The automatic clutch (automatic mode, and sequential with the automatic clutch).
    pub auto_clutch: AutoClutchParams,
    /// The automatic mode's shift schedule.
    pub auto_shift: AutoShiftParams,
}

impl GearboxParams {
    /// The Corvette C5's Tremec T56 six-speed (2.66, 1.78, 1.30, 1.00, 0.74, 0.50, reverse
    /// 2.90) with a 3.42 final drive (Car Physics for Games, `docs/sources.md`), 90 % efficiency.
    pub fn t56() -> Self {
        Self {
            ratios: vec![2.66, 1.78, 1.30, 1.00, 0.74, 0.50],
            reverse_ratio: 2.90,
            final_drive: 3.42,
            efficiency: 0.9,
            shift_time_s: 0.2,
            mode: GearboxMode::Automatic,
            sequential_auto_clutch: true,
            sync_tolerance_rpm: 150.0,
            auto_clutch: AutoClutchParams::default(),
            auto_shift: AutoShiftParams::default(),
        }
    }

    /// Number of forward gears, as a gear number.
    pub fn top_gear(&self) -> i8 {
        i8::try_from(self.ratios.len().min(MAX_FORWARD_GEARS)).unwrap_or(0)
    }

    /// Whether `gear` exists in this box (reverse, neutral or a forward gear).
    pub fn has_gear(&self, gear: i8) -> bool {
        (-1..=self.top_gear()).contains(&gear)
    }

    /// Signed gearbox ratio of `gear` (without the final drive): negative in reverse, zero
    /// in neutral or for a gear the box does not have.
    pub fn ratio(&self, gear: i8) -> f64 {
        match gear {
            -1 => -self.reverse_ratio,
            g if g >= 1 => usize::try_from(g - 1)
                .ok()
                .and_then(|i| self.ratios.get(i))
                .copied()
                .unwrap_or(0.0),
            _ => 0.0,
        }
    }

    /// Overall ratio engine / differential input in `gear` (ratio times final drive).
    pub fn overall_ratio(&self, gear: i8) -> f64 {
        self.ratio(gear) * self.final_drive
    }

    /// Engine speed (rpm) in `gear` with the gearbox output turning at `output_rad_s`.
    pub fn engine_rpm_in(&self, gear: i8, output_rad_s: f64) -> f64 {
        output_rad_s * self.ratio(gear) / RPM_TO_RAD_S
    }
}

impl Default for GearboxParams {
    fn default() -> Self {
        Self::t56()
    }
}

impl Validate for GearboxParams {
    fn validate(&self, v: &mut Validator) {
        v.within("ratios", |v| {
            if self.ratios.is_empty() || self.ratios.len() > MAX_FORWARD_GEARS {
                v.fail("", format!("must hold 1 to {MAX_FORWARD_GEARS} gears"));
            }
            for (i, r) in self.ratios.iter().enumerate() {
                let field = Validator::index(i);
                v.positive(&field, *r);
                if i > 0 && r.is_finite() && *r >= self.ratios[i - 1] {
                    v.fail(&field, "must decrease (first gear has the largest ratio)");
                }
            }
        });
        v.positive("reverse_ratio", self.reverse_ratio);
        v.positive("final_drive", self.final_drive);
        v.require(
            self.efficiency.is_finite() && self.efficiency > 0.0 && self.efficiency <= 1.0,
            "efficiency",
            "must be in (0, 1]",
        );
        v.in_range("shift_time_s", self.shift_time_s, 0.0, 5.0);
        v.non_negative("sync_tolerance_rpm", self.sync_tolerance_rpm);
        v.nested("auto_clutch", &self.auto_clutch);
        v.nested("auto_shift", &self.auto_shift);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_and_signs() {
        let g = GearboxParams::t56();
        assert_eq!(g.top_gear(), 6);
        assert!((g.ratio(1) - 2.66).abs() < 1e-12);
        assert!((g.ratio(6) - 0.50).abs() < 1e-12);
        assert!((g.ratio(-1) + 2.90).abs() < 1e-12);
        assert!(g.ratio(0).abs() < 1e-12);
        assert!(g.ratio(7).abs() < 1e-12);
        assert!((g.overall_ratio(1) - 2.66 * 3.42).abs() < 1e-12);
        assert!(g.has_gear(-1) && g.has_gear(6) && !g.has_gear(7) && !g.has_gear(-2));
        // Car Physics for Games: 4400 rpm in first is 483 wheel rpm.
        let wheel_rpm = 4400.0 / g.overall_ratio(1);
        assert!((wheel_rpm - 483.7).abs() < 0.1, "{wheel_rpm}");
        let rpm = g.engine_rpm_in(1, wheel_rpm * RPM_TO_RAD_S * g.final_drive);
        assert!((rpm - 4400.0).abs() < 1e-9);
    }

    #[test]
    fn validation_paths() {
        let mut g = GearboxParams::t56();
        g.ratios[2] = 2.0;
        g.efficiency = 1.2;
        g.auto_clutch.launch_full_rpm = 100.0;
        let err = g.check().unwrap_err().to_string();
        assert!(err.contains("ratios[2] must decrease"), "{err}");
        assert!(err.contains("efficiency must be in (0, 1]"), "{err}");
        assert!(err.contains("auto_clutch.launch_full_rpm"), "{err}");
        assert!(GearboxParams::t56().check().is_ok());
    }
}

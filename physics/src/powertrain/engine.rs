//! The engine: full-load and resistive torque curves, throttle, idle control, rev limiter,
//! stall and starter.
//!
//! Torque model (VR-Design Studio, `docs/sources.md`: "engine torque + resistive torque"): the
//! engine's output torque at speed `rpm` and throttle `u` is
//!
//! ```text
//! T(rpm, u) = u * T_full(rpm) - T_resist(rpm)
//! ```
//!
//! where `T_full` is the full-load combustion torque and `T_resist` (zero or positive) the
//! friction and pumping loss. At closed throttle the engine brakes with `T_resist`; at full
//! throttle it delivers `T_full - T_resist` at the flywheel. The resistive part acts as a
//! friction: the driveline solver applies it so that it opposes rotation and holds a stopped
//! engine still (see [`super::driveline`]); the combustion part is applied explicitly.

use serde::{Deserialize, Serialize};

use crate::validate::{Validate, Validator};

/// Revolutions per minute to radians per second.
pub const RPM_TO_RAD_S: f64 = std::f64::consts::PI / 30.0;

/// One point of an engine curve.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TorquePoint {
    /// Engine speed (rpm).
    pub rpm: f64,
    /// Torque at that speed (N·m).
    pub torque_nm: f64,
}

impl TorquePoint {
    /// A point of `torque_nm` at `rpm`.
    pub const fn new(rpm: f64, torque_nm: f64) -> Self {
        Self { rpm, torque_nm }
    }
}

impl Validate for TorquePoint {
    fn validate(&self, v: &mut Validator) {
        v.non_negative("rpm", self.rpm);
        v.non_negative("torque_nm", self.torque_nm);
    }
}

/// Linear interpolation over `curve` (sorted by rpm), holding the end values outside it.
/// An empty curve reads zero.
pub fn interpolate(curve: &[TorquePoint], rpm: f64) -> f64 {
    let (Some(first), Some(last)) = (curve.first(), curve.last()) else {
        return 0.0;
    };
    if rpm.is_nan() || rpm <= first.rpm {
        return first.torque_nm;
    }
    if rpm >= last.rpm {
        return last.torque_nm;
    }
    // The curves hold a dozen points or so: a linear scan beats a binary search here.
    for pair in curve.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        if rpm <= b.rpm {
            let span = b.rpm - a.rpm;
            if span <= 0.0 {
                return b.torque_nm;
            }
            let t = (rpm - a.rpm) / span;
            return a.torque_nm + (b.torque_nm - a.torque_nm) * t;
        }
    }
    last.torque_nm
}

/// Engine parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineParams {
    /// Full-load combustion torque by engine speed (rpm strictly increasing). The flywheel
    /// torque at full throttle is this minus [`EngineParams::resistive_curve`].
    pub torque_curve: Vec<TorquePoint>,
    /// Friction and pumping torque by engine speed (magnitudes, zero or positive): the engine
    /// braking at closed throttle.
    pub resistive_curve: Vec<TorquePoint>,
    /// Rotating inertia of crankshaft, flywheel and clutch (kg·m²).
    pub inertia_kg_m2: f64,
    /// Idle speed held by the idle controller (rpm).
    pub idle_rpm: f64,
    /// Speed deficit below idle at which the idle controller adds its full throttle (rpm);
    /// it adds throttle in proportion to the deficit up to that.
    pub idle_control_range_rpm: f64,
    /// Most throttle the idle controller may add (0..1).
    pub idle_max_throttle: f64,
    /// Red line (rpm): the top of the operating range, used by the automatic shift logic.
    pub redline_rpm: f64,
    /// Rev limiter (rpm): combustion is cut at or above this speed.
    pub limiter_rpm: f64,
    /// Combustion resumes once the speed falls this far below the limiter (rpm).
    pub limiter_hysteresis_rpm: f64,
    /// A running engine slower than this dies (rpm).
    pub stall_rpm: f64,
    /// A stopped engine with ignition and fuel fires once it turns at least this fast (rpm),
    /// driven by the starter or by the wheels through the clutch.
    pub start_rpm: f64,
    /// Starter torque at standstill (N·m at the crankshaft); it falls linearly to zero at
    /// [`EngineParams::starter_max_rpm`].
    pub starter_torque_nm: f64,
    /// Speed at which the starter gives no more torque (rpm).
    pub starter_max_rpm: f64,
    /// Brake-specific fuel consumption (g/kWh), applied to the combustion power.
    pub bsfc_g_per_kwh: f64,
}

impl EngineParams {
    /// The same engine with its curves replaced by a flywheel (net) torque curve and a
    /// resistive curve at the same engine speeds: the full-load curve is their sum, so the
    /// engine delivers `flywheel_nm` at full throttle. The three slices have equal lengths
    /// (extra entries of the longer ones are ignored).
    #[must_use]
    pub fn with_flywheel_curve(
        mut self,
        rpm: &[f64],
        flywheel_nm: &[f64],
        resist_nm: &[f64],
    ) -> Self {
        let points = rpm.iter().zip(flywheel_nm).zip(resist_nm);
        self.torque_curve = points
            .clone()
            .map(|((&r, &net), &loss)| TorquePoint::new(r, net + loss))
            .collect();
        self.resistive_curve = points
            .map(|((&r, _), &loss)| TorquePoint::new(r, loss))
            .collect();
        self
    }

    /// A Chevrolet Corvette C5's LS1 (5.7 L V8, 345 hp at 5600 rpm, 350 lb·ft at 4400 rpm).
    ///
    /// The full-load curve is an estimate: it is shaped so that the flywheel torque
    /// (full-load minus resistive) passes through 475 N·m at 4400 rpm, its peak, and gives
    /// 257 kW at 5600 rpm, the power peak, with the flat, broad shape of a pushrod V8 (Car Physics
    /// for Games' LS1 curve). The resistive curve is a friction mean effective pressure of about
    /// 0.55 bar at standstill rising to about 2.4 bar at 7000 rpm, over 5.7 L.
    pub fn ls1() -> Self {
        // Flywheel torque targets (N·m) at each rpm, then the resistive torque at that rpm;
        // the full-load curve is their sum.
        const RPM: [f64; 10] = [
            0.0, 1000.0, 2000.0, 3000.0, 4000.0, 4400.0, 5000.0, 5600.0, 6000.0, 7000.0,
        ];
        const FLYWHEEL_NM: [f64; 10] = [
            300.0, 380.0, 440.0, 455.0, 470.0, 475.0, 460.0, 438.3, 400.0, 300.0,
        ];
        const RESIST_NM: [f64; 10] = [25.0, 40.0, 50.0, 62.0, 75.0, 80.0, 88.0, 97.0, 104.0, 124.0];
        let torque_curve = (0..RPM.len())
            .map(|i| TorquePoint::new(RPM[i], FLYWHEEL_NM[i] + RESIST_NM[i]))
            .collect();
        let resistive_curve = (0..RPM.len())
            .map(|i| TorquePoint::new(RPM[i], RESIST_NM[i]))
            .collect();
        Self {
            torque_curve,
            resistive_curve,
            inertia_kg_m2: 0.22,
            idle_rpm: 600.0,
            idle_control_range_rpm: 200.0,
            idle_max_throttle: 0.5,
            redline_rpm: 6000.0,
            limiter_rpm: 6200.0,
            limiter_hysteresis_rpm: 150.0,
            stall_rpm: 200.0,
            start_rpm: 250.0,
            starter_torque_nm: 150.0,
            starter_max_rpm: 400.0,
            bsfc_g_per_kwh: 270.0,
        }
    }

    /// Full-load combustion torque at `rpm` (N·m).
    pub fn full_load_torque(&self, rpm: f64) -> f64 {
        interpolate(&self.torque_curve, rpm.abs())
    }

    /// Resistive (friction and pumping) torque magnitude at `rpm` (N·m, zero or positive).
    pub fn resistive_torque(&self, rpm: f64) -> f64 {
        interpolate(&self.resistive_curve, rpm.abs()).max(0.0)
    }

    /// Flywheel torque at full throttle: full-load minus resistive (N·m).
    pub fn flywheel_full_torque(&self, rpm: f64) -> f64 {
        self.full_load_torque(rpm) - self.resistive_torque(rpm)
    }

    /// Throttle the idle controller asks for at `rpm` (0..`idle_max_throttle`).
    pub fn idle_throttle(&self, rpm: f64) -> f64 {
        let deficit = (self.idle_rpm - rpm) / self.idle_control_range_rpm;
        if deficit.is_finite() {
            deficit.clamp(0.0, 1.0) * self.idle_max_throttle
        } else {
            0.0
        }
    }

    /// Starter torque at `rpm` when the starter is held (N·m).
    pub fn starter_torque(&self, rpm: f64) -> f64 {
        let fraction = 1.0 - rpm.max(0.0) / self.starter_max_rpm;
        if fraction.is_finite() {
            self.starter_torque_nm * fraction.clamp(0.0, 1.0)
        } else {
            0.0
        }
    }
}

impl Default for EngineParams {
    fn default() -> Self {
        Self::ls1()
    }
}

fn validate_curve(v: &mut Validator, field: &str, curve: &[TorquePoint]) {
    v.within(field, |v| {
        if curve.len() < 2 {
            v.fail("", "must hold at least two points");
        }
        let mut previous: Option<f64> = None;
        for (i, p) in curve.iter().enumerate() {
            v.within(&Validator::index(i), |v| {
                p.validate(v);
                if let Some(prev) = previous
                    && p.rpm.is_finite()
                    && p.rpm <= prev
                {
                    v.fail("rpm", "must increase");
                }
            });
            previous = Some(p.rpm);
        }
    });
}

impl Validate for EngineParams {
    fn validate(&self, v: &mut Validator) {
        validate_curve(v, "torque_curve", &self.torque_curve);
        validate_curve(v, "resistive_curve", &self.resistive_curve);
        v.positive("inertia_kg_m2", self.inertia_kg_m2);
        v.positive("idle_rpm", self.idle_rpm);
        v.positive("idle_control_range_rpm", self.idle_control_range_rpm);
        v.in_range("idle_max_throttle", self.idle_max_throttle, 0.0, 1.0);
        v.positive("redline_rpm", self.redline_rpm);
        v.positive("limiter_rpm", self.limiter_rpm);
        v.positive("limiter_hysteresis_rpm", self.limiter_hysteresis_rpm);
        v.positive("stall_rpm", self.stall_rpm);
        v.positive("start_rpm", self.start_rpm);
        v.non_negative("starter_torque_nm", self.starter_torque_nm);
        v.positive("starter_max_rpm", self.starter_max_rpm);
        v.positive("bsfc_g_per_kwh", self.bsfc_g_per_kwh);
        v.require(
            self.start_rpm > self.stall_rpm,
            "start_rpm",
            "must be above stall_rpm",
        );
        v.require(
            self.idle_rpm > self.start_rpm,
            "idle_rpm",
            "must be above start_rpm",
        );
        v.require(
            self.starter_max_rpm > self.start_rpm,
            "starter_max_rpm",
            "must be above start_rpm",
        );
        v.require(
            self.redline_rpm > self.idle_rpm,
            "redline_rpm",
            "must be above idle_rpm",
        );
        v.require(
            self.limiter_rpm >= self.redline_rpm,
            "limiter_rpm",
            "must be at or above redline_rpm",
        );
        v.require(
            self.limiter_hysteresis_rpm < self.limiter_rpm - self.idle_rpm,
            "limiter_hysteresis_rpm",
            "must be smaller than the span from idle_rpm to limiter_rpm",
        );
    }
}

/// What the engine does this tick, worked out before the driveline is solved.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct EngineDrive {
    /// Throttle actually used, after idle control, rev limiter and fuel (0..1).
    pub throttle: f64,
    /// Combustion torque (N·m), applied explicitly.
    pub combustion_nm: f64,
    /// Starter torque (N·m), applied explicitly.
    pub starter_nm: f64,
    /// Resistive torque magnitude (N·m), applied as a friction by the solver.
    pub resist_nm: f64,
}

/// Engine state: running or stopped, rev-limiter cut.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EngineState {
    /// Combustion is on (the engine has not stalled and has fuel).
    pub running: bool,
    /// The rev limiter currently cuts combustion.
    pub limiter_cut: bool,
}

impl Default for EngineState {
    fn default() -> Self {
        Self {
            running: true,
            limiter_cut: false,
        }
    }
}

impl EngineState {
    /// The drive torques at speed `rpm` for the throttle the driver (or the gearbox logic)
    /// asks for. `can_burn` is false without ignition or fuel.
    pub fn drive(
        &mut self,
        p: &EngineParams,
        rpm: f64,
        requested_throttle: f64,
        starter: bool,
        can_burn: bool,
    ) -> EngineDrive {
        if rpm >= p.limiter_rpm {
            self.limiter_cut = true;
        } else if rpm < p.limiter_rpm - p.limiter_hysteresis_rpm {
            self.limiter_cut = false;
        }
        let resist_nm = p.resistive_torque(rpm);
        let starter_nm = if starter && !self.running {
            p.starter_torque(rpm)
        } else {
            0.0
        };
        let burning = self.running && can_burn && !self.limiter_cut;
        let throttle = if burning {
            requested_throttle.max(p.idle_throttle(rpm)).clamp(0.0, 1.0)
        } else {
            0.0
        };
        EngineDrive {
            throttle,
            combustion_nm: throttle * p.full_load_torque(rpm),
            starter_nm,
            resist_nm,
        }
    }

    /// Updates running/stalled from the new speed: a running engine below `stall_rpm` dies;
    /// a stopped one that is being turned over (`cranking`: by the starter, or by the wheels
    /// through the clutch, a bump start) fires at `start_rpm` or faster when it can burn.
    pub fn update(&mut self, p: &EngineParams, rpm: f64, can_burn: bool, cranking: bool) {
        if !can_burn {
            self.running = false;
        } else if self.running {
            if rpm < p.stall_rpm {
                self.running = false;
            }
        } else if cranking && rpm >= p.start_rpm {
            self.running = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interpolation_is_linear_and_clamped() {
        let c = [
            TorquePoint::new(1000.0, 100.0),
            TorquePoint::new(2000.0, 300.0),
        ];
        assert!((interpolate(&c, 1500.0) - 200.0).abs() < 1e-12);
        assert!((interpolate(&c, 1250.0) - 150.0).abs() < 1e-12);
        assert!((interpolate(&c, 0.0) - 100.0).abs() < 1e-12);
        assert!((interpolate(&c, 9000.0) - 300.0).abs() < 1e-12);
        assert!((interpolate(&c, f64::NAN) - 100.0).abs() < 1e-12);
        assert!(interpolate(&[], 1000.0).abs() < 1e-12);
    }

    #[test]
    fn ls1_matches_published_peaks() {
        // Published: 350 lb·ft (474.6 N·m) at 4400 rpm, 345 hp (257.3 kW) at 5600 rpm.
        let e = EngineParams::ls1();
        let t_peak = e.flywheel_full_torque(4400.0);
        assert!((t_peak - 475.0).abs() < 1.0, "torque at 4400: {t_peak}");
        let p_peak = e.flywheel_full_torque(5600.0) * 5600.0 * RPM_TO_RAD_S;
        assert!(
            (p_peak - 257_000.0).abs() < 500.0,
            "power at 5600: {p_peak}"
        );
        // The peaks are the peaks: scan the operating range in 10 rpm steps.
        let mut best_t = (0.0, 0.0);
        let mut best_p = (0.0, 0.0);
        for i in 100..=620 {
            let rpm = f64::from(i) * 10.0;
            let t = e.flywheel_full_torque(rpm);
            let p = t * rpm * RPM_TO_RAD_S;
            if t > best_t.1 {
                best_t = (rpm, t);
            }
            if p > best_p.1 {
                best_p = (rpm, p);
            }
        }
        assert!(
            (best_t.0 - 4400.0).abs() < 1e-9,
            "torque peak at {}",
            best_t.0
        );
        assert!(
            (best_p.0 - 5600.0).abs() < 1e-9,
            "power peak at {}",
            best_p.0
        );
    }

    #[test]
    fn idle_controller_and_starter_shapes() {
        let e = EngineParams::ls1();
        assert!(e.idle_throttle(700.0).abs() < 1e-12);
        assert!((e.idle_throttle(500.0) - 0.25).abs() < 1e-12);
        assert!((e.idle_throttle(0.0) - 0.5).abs() < 1e-12);
        assert!((e.starter_torque(0.0) - 150.0).abs() < 1e-12);
        assert!((e.starter_torque(200.0) - 75.0).abs() < 1e-12);
        assert!(e.starter_torque(500.0).abs() < 1e-12);
    }

    #[test]
    fn limiter_cuts_with_hysteresis() {
        let e = EngineParams::ls1();
        let mut s = EngineState::default();
        assert!(s.drive(&e, 6100.0, 1.0, false, true).combustion_nm > 0.0);
        assert!(s.drive(&e, 6200.0, 1.0, false, true).combustion_nm.abs() < 1e-12);
        // Still cut inside the hysteresis band, on again below it.
        assert!(s.drive(&e, 6100.0, 1.0, false, true).combustion_nm.abs() < 1e-12);
        assert!(s.drive(&e, 6000.0, 1.0, false, true).combustion_nm > 0.0);
    }

    #[test]
    fn stall_and_start_thresholds() {
        let e = EngineParams::ls1();
        let mut s = EngineState::default();
        s.update(&e, 220.0, true, false);
        assert!(s.running);
        s.update(&e, 150.0, true, false);
        assert!(!s.running);
        s.update(&e, 240.0, true, true);
        assert!(!s.running);
        s.update(&e, 600.0, true, false);
        assert!(!s.running, "not turned over: stays off");
        s.update(&e, 260.0, true, true);
        assert!(s.running);
        s.update(&e, 800.0, false, true);
        assert!(!s.running);
    }

    #[test]
    fn validation_names_the_field() {
        let mut e = EngineParams::ls1();
        e.torque_curve[3].rpm = 500.0;
        e.inertia_kg_m2 = 0.0;
        let err = e.check().unwrap_err().to_string();
        assert!(err.contains("torque_curve[3].rpm must increase"), "{err}");
        assert!(
            err.contains("inertia_kg_m2 must be finite and positive"),
            "{err}"
        );
        assert!(EngineParams::ls1().check().is_ok());
    }
}

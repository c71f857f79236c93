//! The engine's peak power ([`PeakPower`]): the most flywheel power at full throttle between
//! idle and the rev limiter, and the speed where it is reached.
//!
//! The flywheel torque at full throttle ([`EngineParams::flywheel_full_torque`], full-load
//! minus resistive) is linear between the two curves' points, so on each span between
//! neighbouring points the power `P(ω) = T(ω) ω` is a parabola: its maximum lies at a span's
//! end or, for a falling torque `T = a + b ω` (`b < 0`), at the vertex `ω = -a / (2b)`. The
//! peak is the best of those candidates: exact, not sampled.

use super::engine::{EngineParams, RPM_TO_RAD_S};

/// The most flywheel power at full throttle and the speed where it is reached.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PeakPower {
    /// Peak power (W); zero for an engine with no positive power in its range.
    pub power_w: f64,
    /// Engine speed of the peak (rpm).
    pub rpm: f64,
}

/// Watts in one mechanical horsepower (550 ft·lbf/s).
pub const WATTS_PER_HP: f64 = 745.699_871_582_270_2;

impl PeakPower {
    /// The peak power in kilowatts.
    pub fn power_kw(&self) -> f64 {
        self.power_w / 1000.0
    }

    /// The peak power in mechanical horsepower.
    pub fn power_hp(&self) -> f64 {
        self.power_w / WATTS_PER_HP
    }
}

impl EngineParams {
    /// Peak flywheel power at full throttle between idle and the rev limiter (see the module
    /// docs). Non-finite or inverted speed limits give the zero peak.
    pub fn peak_power(&self) -> PeakPower {
        let (lo, hi) = (self.idle_rpm.max(0.0), self.limiter_rpm);
        if !(lo.is_finite() && hi.is_finite() && hi >= lo) {
            return PeakPower::default();
        }
        let mut rpms: Vec<f64> = self
            .torque_curve
            .iter()
            .chain(&self.resistive_curve)
            .map(|p| p.rpm)
            .filter(|r| *r > lo && *r < hi)
            .chain([lo, hi])
            .collect();
        rpms.sort_by(f64::total_cmp);
        rpms.dedup();
        let power = |rpm: f64| self.flywheel_full_torque(rpm) * rpm * RPM_TO_RAD_S;
        let mut best = PeakPower::default();
        let mut consider = |rpm: f64| {
            let p = power(rpm);
            if p.is_finite() && p > best.power_w {
                best = PeakPower { power_w: p, rpm };
            }
        };
        for &r in &rpms {
            consider(r);
        }
        for pair in rpms.windows(2) {
            let (r0, r1) = (pair[0], pair[1]);
            let (t0, t1) = (self.flywheel_full_torque(r0), self.flywheel_full_torque(r1));
            let slope = (t1 - t0) / (r1 - r0);
            if slope < 0.0 {
                // T = t0 + slope (r - r0) = a + slope r; P ∝ r (a + slope r) peaks at -a / 2 slope.
                let vertex = -(t0 - slope * r0) / (2.0 * slope);
                if vertex > r0 && vertex < r1 {
                    consider(vertex);
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::powertrain::engine::TorquePoint;

    fn engine(torque: &[(f64, f64)]) -> EngineParams {
        EngineParams {
            torque_curve: torque
                .iter()
                .map(|&(r, t)| TorquePoint::new(r, t))
                .collect(),
            resistive_curve: Vec::new(),
            idle_rpm: 800.0,
            limiter_rpm: 6000.0,
            ..EngineParams::ls1()
        }
    }

    /// A flat 300 N·m: the peak is at the limiter, 300 · 6000 · π / 30 = 188 495.6 W.
    #[test]
    fn a_flat_curve_peaks_at_the_limiter() {
        let p = engine(&[(0.0, 300.0), (8000.0, 300.0)]).peak_power();
        assert!((p.rpm - 6000.0).abs() < 1e-9, "{p:?}");
        assert!(
            (p.power_w - 300.0 * 6000.0 * RPM_TO_RAD_S).abs() < 1e-9,
            "{p:?}"
        );
    }

    /// Torque falling linearly from 400 N·m at 0 to 0 at 8000 rpm: T ω peaks at 4000 rpm,
    /// between curve points, with 200 N·m: 200 · 4000 · π / 30 = 83 775.8 W.
    #[test]
    fn a_falling_curve_peaks_at_its_vertex() {
        let p = engine(&[(0.0, 400.0), (8000.0, 0.0)]).peak_power();
        assert!((p.rpm - 4000.0).abs() < 1e-9, "{p:?}");
        assert!(
            (p.power_w - 200.0 * 4000.0 * RPM_TO_RAD_S).abs() < 1e-6,
            "{p:?}"
        );
    }

    /// The LS1's flywheel curve is shaped to give 257 kW at 5600 rpm (its doc): the
    /// peak of 438.3 N·m there is 257.0 kW, and no speed between beats it by much.
    #[test]
    fn the_ls1_peaks_near_257_kw_at_5600_rpm() {
        let p = EngineParams::ls1().peak_power();
        assert!((p.power_kw() - 257.0).abs() < 2.0, "{p:?}");
        assert!((5000.0..=6000.0).contains(&p.rpm), "{p:?}");
        assert!((p.power_hp() - p.power_w / 745.7).abs() < 0.1);
    }

    #[test]
    fn bad_limits_give_no_power() {
        let mut e = engine(&[(0.0, 300.0)]);
        e.limiter_rpm = f64::NAN;
        assert_eq!(e.peak_power(), PeakPower::default());
        e.limiter_rpm = 100.0;
        assert_eq!(e.peak_power(), PeakPower::default());
        assert_eq!(engine(&[]).peak_power(), PeakPower::default());
    }
}

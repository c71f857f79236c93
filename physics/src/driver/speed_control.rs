//! Speed control: throttle and brake from the speed error, a PI controller with feed-forward
//! of the planned acceleration and anti-windup, and a dead band between throttle and brake
//! so the two pedals never fight.

use serde::{Deserialize, Serialize};

use crate::validate::{Validate, Validator};

/// Gains of the speed controller.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpeedControlGains {
    /// Pedal per m/s of speed error.
    pub proportional: f64,
    /// Pedal per m of integrated speed error.
    pub integral: f64,
    /// Speed error (m/s) below which neither pedal is pressed hard: brake only below
    /// `-dead_band_m_s`.
    pub dead_band_m_s: f64,
}

impl Default for SpeedControlGains {
    fn default() -> Self {
        Self {
            proportional: 1.0,
            integral: 0.1,
            dead_band_m_s: 0.3,
        }
    }
}

impl Validate for SpeedControlGains {
    fn validate(&self, v: &mut Validator) {
        v.non_negative("proportional", self.proportional);
        v.non_negative("integral", self.integral);
        v.non_negative("dead_band_m_s", self.dead_band_m_s);
    }
}

/// A PI speed controller with state.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SpeedController {
    /// Gains.
    pub gains: SpeedControlGains,
    integral: f64,
}

/// Pedal positions, each 0 to 1.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pedals {
    /// Throttle.
    pub throttle: f64,
    /// Brake.
    pub brake: f64,
}

impl SpeedController {
    /// A controller with `gains` and no history.
    pub fn new(gains: SpeedControlGains) -> Self {
        Self {
            gains,
            integral: 0.0,
        }
    }

    /// Pedals for `target` and `speed` (m/s) over a tick of `dt` seconds.
    pub fn update(&mut self, target: f64, speed: f64, dt: f64) -> Pedals {
        let error = target - speed;
        if !error.is_finite() || !dt.is_finite() {
            return Pedals::default();
        }
        let command_without_integral = self.gains.proportional * error;
        let command = command_without_integral + self.gains.integral * self.integral;
        // Anti-windup: integrate only while the command is not saturated in that direction.
        let saturated = (command >= 1.0 && error > 0.0) || (command <= -1.0 && error < 0.0);
        if !saturated {
            self.integral = (self.integral + error * dt).clamp(-50.0, 50.0);
        }
        let command = command.clamp(-1.0, 1.0);
        if command >= 0.0 {
            Pedals {
                throttle: command,
                brake: 0.0,
            }
        } else if error < -self.gains.dead_band_m_s {
            Pedals {
                throttle: 0.0,
                brake: -command,
            }
        } else {
            Pedals::default()
        }
    }

    /// Forgets the integrated error (after a reset or a new target).
    pub fn reset(&mut self) {
        self.integral = 0.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn throttle_when_slow_brake_when_fast() {
        let mut c = SpeedController::new(SpeedControlGains::default());
        let p = c.update(20.0, 10.0, 0.001);
        assert!((p.throttle - 1.0).abs() < 1e-12 && p.brake == 0.0);
        c.reset();
        let p = c.update(10.0, 20.0, 0.001);
        assert!(p.throttle == 0.0 && (p.brake - 1.0).abs() < 1e-12);
        c.reset();
        let p = c.update(10.0, 10.1, 0.001);
        assert!(p.throttle == 0.0 && p.brake == 0.0, "dead band");
        assert_eq!(c.update(f64::NAN, 1.0, 0.001), Pedals::default());
    }

    #[test]
    fn closes_the_loop_on_a_first_order_car() {
        // dv/dt = 4 m/s² * throttle - 9 m/s² * brake - 0.3 m/s² drag: settles on the target.
        let mut c = SpeedController::new(SpeedControlGains::default());
        let mut v = 0.0;
        for _ in 0..30_000 {
            let p = c.update(25.0, v, 0.001);
            v += (4.0 * p.throttle - 9.0 * p.brake - 0.3) * 0.001;
        }
        assert!((v - 25.0).abs() < 0.05, "v = {v}");
    }
}

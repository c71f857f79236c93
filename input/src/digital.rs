//! Rate limits for button-driven (digital) steering and pedals.
//!
//! A key is either up or down; feeding that straight to the car would jerk the steering
//! from centre to full lock in one tick. These limiters move the value towards its target at
//! the rates of [`DigitalResponse`]. They are applied to buttons only: an analogue wheel or
//! pedal is never filtered by default (`docs/input-devices.md`, "How devices are read").

use crate::settings::bindings::DigitalResponse;

fn approach(current: f64, target: f64, max_step: f64) -> f64 {
    let step = if max_step.is_finite() {
        max_step.max(0.0)
    } else {
        0.0
    };
    if target > current {
        (current + step).min(target)
    } else {
        (current - step).max(target)
    }
}

/// Digital steering, -1 (full left held) to 1 (full right held).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DigitalSteering {
    value: f64,
}

impl DigitalSteering {
    /// Moves towards `target` (-1, 0 or 1, or anything between) over `dt` seconds: outward at
    /// `steer_rate_per_s`, back towards and across the centre at `steer_return_rate_per_s`.
    pub fn update(&mut self, target: f64, dt: f64, rates: &DigitalResponse) -> f64 {
        let target = if target.is_finite() {
            target.clamp(-1.0, 1.0)
        } else {
            0.0
        };
        let outward =
            target != 0.0 && self.value * target >= 0.0 && target.abs() > self.value.abs();
        let rate = if outward {
            rates.steer_rate_per_s
        } else {
            rates.steer_return_rate_per_s
        };
        self.value = approach(self.value, target, rate * dt);
        self.value
    }

    /// The current value.
    pub fn value(&self) -> f64 {
        self.value
    }

    /// Back to centre at once.
    pub fn reset(&mut self) {
        self.value = 0.0;
    }
}

/// A digital pedal, 0 (released) to 1 (held).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DigitalPedal {
    value: f64,
}

impl DigitalPedal {
    /// Moves towards 1 when `held`, else towards 0, over `dt` seconds.
    pub fn update(&mut self, held: bool, dt: f64, rates: &DigitalResponse) -> f64 {
        self.value = if held {
            approach(self.value, 1.0, rates.pedal_rise_per_s * dt)
        } else {
            approach(self.value, 0.0, rates.pedal_fall_per_s * dt)
        };
        self.value
    }

    /// The current value.
    pub fn value(&self) -> f64 {
        self.value
    }

    /// Released at once.
    pub fn reset(&mut self) {
        self.value = 0.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steering_ramps_out_and_returns_faster() {
        let r = DigitalResponse::default(); // 2/s out, 4/s back
        let mut s = DigitalSteering::default();
        for _ in 0..250 {
            s.update(1.0, 0.001, &r);
        }
        assert!((s.value() - 0.5).abs() < 1e-9, "{}", s.value());
        for _ in 0..100 {
            s.update(0.0, 0.001, &r);
        }
        assert!((s.value() - 0.1).abs() < 1e-9, "{}", s.value());
        // Reversing crosses the centre at the return rate, then goes out at the steer rate.
        for _ in 0..25 {
            s.update(-1.0, 0.001, &r);
        }
        assert!(s.value().abs() < 1e-9);
        for _ in 0..1000 {
            s.update(-1.0, 0.001, &r);
        }
        assert_eq!(s.value().to_bits(), (-1.0f64).to_bits());
    }

    #[test]
    fn pedal_rises_and_falls_at_its_rates() {
        let r = DigitalResponse::default(); // 5/s up, 8/s down
        let mut p = DigitalPedal::default();
        for _ in 0..100 {
            p.update(true, 0.001, &r);
        }
        assert!((p.value() - 0.5).abs() < 1e-9);
        for _ in 0..50 {
            p.update(false, 0.001, &r);
        }
        assert!((p.value() - 0.1).abs() < 1e-9);
        p.update(true, f64::NAN, &r);
        assert!(p.value().is_finite());
    }
}

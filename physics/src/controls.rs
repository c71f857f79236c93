//! What the driver does in one tick: the input layer, the keyboard, the driver model and
//! scripted scenarios all produce a [`Controls`] value, and the vehicle consumes it.

use serde::{Deserialize, Serialize};

/// The driver's controls for one physics tick.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Controls {
    /// Steering-wheel angle (rad), positive counter-clockwise (turning left, ISO 8855).
    /// The vehicle clamps it to its own lock.
    pub steering_wheel_rad: f64,
    /// Throttle pedal, 0 released to 1 floored.
    pub throttle: f64,
    /// Brake pedal, 0 released to 1 full pressure.
    pub brake: f64,
    /// Clutch pedal, 0 released (engaged) to 1 pressed (disengaged).
    pub clutch: f64,
    /// Handbrake, 0 off to 1 full.
    pub handbrake: f64,
    /// Sequential shift up: true on the tick the paddle or lever is pressed.
    pub shift_up: bool,
    /// Sequential shift down: true on the tick the paddle or lever is pressed.
    pub shift_down: bool,
    /// H-pattern shifter position when one is connected: `Some(0)` neutral (no gear
    /// engaged), `Some(-1)` reverse, `Some(1..=7)` forward gears; `None` without H-shifter.
    pub h_gear: Option<i8>,
    /// Starter motor held.
    pub starter: bool,
}

impl Controls {
    /// The same controls with every continuous value made finite and clamped to its range
    /// (NaN becomes 0), so that nothing a device sends can poison the physics.
    #[must_use]
    pub fn sanitized(&self) -> Self {
        let unit = |x: f64| {
            if x.is_finite() {
                x.clamp(0.0, 1.0)
            } else {
                0.0
            }
        };
        Self {
            steering_wheel_rad: if self.steering_wheel_rad.is_finite() {
                self.steering_wheel_rad.clamp(-100.0, 100.0)
            } else {
                0.0
            },
            throttle: unit(self.throttle),
            brake: unit(self.brake),
            clutch: unit(self.clutch),
            handbrake: unit(self.handbrake),
            h_gear: self.h_gear.map(|g| g.clamp(-1, 7)),
            ..*self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitized_clamps_and_clears_nan() {
        let c = Controls {
            steering_wheel_rad: f64::NAN,
            throttle: 2.0,
            brake: -1.0,
            clutch: f64::INFINITY,
            handbrake: 0.5,
            h_gear: Some(9),
            ..Controls::default()
        }
        .sanitized();
        assert_eq!(c.steering_wheel_rad.to_bits(), 0f64.to_bits());
        assert_eq!(c.throttle.to_bits(), 1f64.to_bits());
        assert_eq!(c.brake.to_bits(), 0f64.to_bits());
        assert_eq!(c.clutch.to_bits(), 0f64.to_bits());
        assert_eq!(c.handbrake.to_bits(), 0.5f64.to_bits());
        assert_eq!(c.h_gear, Some(7));
    }
}

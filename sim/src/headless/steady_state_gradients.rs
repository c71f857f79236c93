//! The understeer and roll gradients of a constant-radius test (ISO 4138, the slow
//! speed-increase variant): the slopes of the mean road-wheel angle and of the body's roll
//! against the lateral acceleration, fitted by least squares over the linear range.
//!
//! Conventions: lateral acceleration `a_y = v_x r` from the body's own motion (not the
//! accelerometer, which reads `g sin φ` more when the body rolls); the road-wheel angle is
//! the mean of the two front wheels' steer (their toe cancels); both gradients are positive
//! for an understeering car whose body rolls out of the turn, in either direction of turn.
//! On a constant radius the Ackermann angle `L / R` is fixed, so the understeer gradient is
//! the slope of the steer itself (Gillespie, ch. 6; Milliken, ch. 5).

use gripline_physics::vehicle::Snapshot;

use super::metrics::G;

/// The lateral accelerations fitted over (g): the linear range of a road car's tyres.
pub const FIT_RANGE_G: (f64, f64) = (0.25, 0.45);

/// Least-squares sums of two lines against the same lateral acceleration.
#[derive(Clone, Copy, Debug, Default)]
pub struct SteadyStateGradients {
    n: f64,
    sum_x: f64,
    sum_xx: f64,
    sum_steer: f64,
    sum_x_steer: f64,
    sum_roll: f64,
    sum_x_roll: f64,
}

impl SteadyStateGradients {
    /// Adds one tick of a steady turn, if its lateral acceleration lies in [`FIT_RANGE_G`].
    pub fn add(&mut self, s: &Snapshot) {
        let ay = s.velocity_body.x * s.angular_velocity_body.z;
        let x = ay.abs() / G;
        if !(FIT_RANGE_G.0..=FIT_RANGE_G.1).contains(&x) {
            return;
        }
        let turn = ay.signum();
        let steer = 0.5 * (s.wheels[0].steer_angle_rad + s.wheels[1].steer_angle_rad) * turn;
        // Roll out of the turn: about +x, the body's left side rises in a left-hand turn.
        let (_, _, roll) = s.orientation.to_euler(glam::EulerRot::ZYX);
        let roll_out = roll * turn;
        if !(steer.is_finite() && roll_out.is_finite()) {
            return;
        }
        self.n += 1.0;
        self.sum_x += x;
        self.sum_xx += x * x;
        self.sum_steer += steer;
        self.sum_x_steer += x * steer;
        self.sum_roll += roll_out;
        self.sum_x_roll += x * roll_out;
    }

    /// The understeer gradient (deg of mean road-wheel angle per g), `None` without a
    /// spread of samples over the fit range.
    pub fn understeer_deg_per_g(&self) -> Option<f64> {
        self.slope(self.sum_steer, self.sum_x_steer)
            .map(f64::to_degrees)
    }

    /// The roll gradient (deg per g), `None` without a spread of samples.
    pub fn roll_deg_per_g(&self) -> Option<f64> {
        self.slope(self.sum_roll, self.sum_x_roll)
            .map(f64::to_degrees)
    }

    fn slope(&self, sum_y: f64, sum_xy: f64) -> Option<f64> {
        let spread = self.n * self.sum_xx - self.sum_x * self.sum_x;
        // At least a twentieth of a g of spread (n² times the variance).
        (self.n > 100.0 && spread > self.n * self.n * 0.05 * 0.05 / 12.0)
            .then(|| (self.n * sum_xy - self.sum_x * sum_y) / spread)
            .filter(|s| s.is_finite())
    }
}

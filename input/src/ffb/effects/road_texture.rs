//! Road texture: a bump under one front wheel twists the steering. The effect is the
//! high-passed difference of the front tyres' vertical loads (left minus right), so steady
//! load transfer in a corner gives nothing and only the road's detail comes through.

/// Cut-off of the high-pass (Hz): below it is the car's body motion, above it the road.
pub const HIGH_PASS_HZ: f64 = 8.0;

/// The road-texture filter's state.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RoadTexture {
    last_input: Option<f64>,
    output: f64,
}

impl RoadTexture {
    /// One tick: `left_n` and `right_n` are the front loads (N); `nm_per_kn` the strength.
    /// Returns N·m, positive turning the wheel left (a bump under the right wheel).
    pub fn step(&mut self, left_n: f64, right_n: f64, nm_per_kn: f64, dt: f64) -> f64 {
        let x = right_n - left_n;
        if !(x.is_finite() && dt.is_finite() && dt > 0.0) {
            return 0.0;
        }
        let Some(last) = self.last_input.replace(x) else {
            return 0.0;
        };
        // First-order high-pass: y[n] = a (y[n-1] + x[n] - x[n-1]).
        let rc = 1.0 / (std::f64::consts::TAU * HIGH_PASS_HZ);
        let a = rc / (rc + dt);
        self.output = a * (self.output + x - last);
        if self.output.abs() < 1e-9 {
            self.output = 0.0;
        }
        let torque = nm_per_kn * self.output / 1000.0;
        if torque.is_finite() { torque } else { 0.0 }
    }

    /// Forgets the history.
    pub fn reset(&mut self) {
        *self = Self::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steady_loads_give_nothing_a_bump_gives_a_twist() {
        let mut r = RoadTexture::default();
        // Steady load transfer (a long corner): nothing once settled.
        let mut last = 0.0;
        for _ in 0..2000 {
            last = r.step(3000.0, 4000.0, 2.0, 0.001);
        }
        assert!(last.abs() < 1e-6, "{last}");
        // A 1 kN bump under the right wheel: a pulse to the left, then it decays.
        let bump = r.step(3000.0, 5000.0, 2.0, 0.001);
        assert!(bump > 1.5, "{bump}");
        for _ in 0..500 {
            last = r.step(3000.0, 5000.0, 2.0, 0.001);
        }
        assert!(last.abs() < 1e-3);
    }
}

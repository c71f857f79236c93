//! Low-pass smoothing of the car's torque (`FfbSettings::smoothing_ms`), separate from the
//! slew limit: a first-order filter with time constant `tau` takes the edge off road noise on
//! geared wheels at the cost of about `tau` of latency. Zero is an exact pass-through.

/// A first-order low-pass filter (see the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TorqueSmoother {
    state: Option<f64>,
}

impl TorqueSmoother {
    /// Filters `x` over a tick of `dt` seconds with time constant `tau_s` (0: `x` itself).
    pub fn step(&mut self, x: f64, tau_s: f64, dt: f64) -> f64 {
        let x = if x.is_finite() { x } else { 0.0 };
        if !(tau_s.is_finite() && tau_s > 0.0 && dt.is_finite() && dt > 0.0) {
            self.state = Some(x);
            return x;
        }
        // Exact discretisation of dy/dt = (x - y) / tau for a constant x over the tick.
        let alpha = 1.0 - (-dt / tau_s).exp();
        let y = match self.state {
            Some(previous) => previous + alpha * (x - previous),
            None => x,
        };
        self.state = Some(y);
        y
    }

    /// Forgets the history (the next value passes through).
    pub fn reset(&mut self) {
        self.state = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_constant_and_pass_through() {
        let mut s = TorqueSmoother::default();
        s.step(0.0, 0.02, 0.001);
        let mut y = 0.0;
        for _ in 0..20 {
            y = s.step(1.0, 0.02, 0.001);
        }
        // After one time constant: 1 - 1/e.
        assert!((y - (1.0 - (-1.0f64).exp())).abs() < 0.01, "{y}");
        let mut off = TorqueSmoother::default();
        for x in [0.3, -2.0, 7.5] {
            assert_eq!(off.step(x, 0.0, 0.001).to_bits(), x.to_bits());
        }
        // A non-finite input counts as zero: the output heads down from 7.5, finite.
        let y = off.step(f64::NAN, 0.01, 0.001);
        assert!(y.is_finite() && y < 7.5, "{y}");
    }
}

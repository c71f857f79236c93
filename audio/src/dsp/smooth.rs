//! One-pole smoothing of a control parameter at the audio rate: a target that jumps (a gear
//! change, a new physics state every millisecond) is followed exponentially, so the sound
//! never steps (no zipper noise, no clicks).

use super::{finite_or, flush_denormal};

/// A parameter that follows its target with a first-order lag.
#[derive(Clone, Copy, Debug)]
pub struct Smoothed {
    value: f32,
    target: f32,
    coeff: f32,
}

impl Smoothed {
    /// Starts at `value`, following targets with time constant `time_constant_s` at
    /// `sample_rate_hz`.
    pub fn new(value: f32, time_constant_s: f32, sample_rate_hz: f32) -> Self {
        let samples = (time_constant_s * sample_rate_hz).max(1.0);
        Self {
            value,
            target: value,
            coeff: 1.0 - (-1.0 / samples).exp(),
        }
    }

    /// Sets the value to follow; a non-finite target is ignored.
    pub fn set_target(&mut self, target: f32) {
        self.target = finite_or(target, self.target);
    }

    /// The target being followed.
    pub fn target(&self) -> f32 {
        self.target
    }

    /// Advances one sample and returns the new value.
    #[inline]
    pub fn advance(&mut self) -> f32 {
        self.value = flush_denormal(self.value + (self.target - self.value) * self.coeff);
        self.value
    }

    /// The current value.
    pub fn value(&self) -> f32 {
        self.value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn follows_a_step_with_the_time_constant() {
        let fs = 48_000.0;
        let mut s = Smoothed::new(0.0, 0.01, fs);
        s.set_target(1.0);
        // After one time constant a first-order lag has covered 1 - 1/e of the step.
        for _ in 0..480 {
            s.advance();
        }
        assert!(
            (s.value() - (1.0 - (-1.0f32).exp())).abs() < 0.01,
            "{}",
            s.value()
        );
        s.set_target(f32::NAN);
        assert!((s.target() - 1.0).abs() < f32::EPSILON);
    }
}

//! The building blocks of the vibration effects: a phase-accumulating oscillator and an
//! envelope that ramps its amplitude, so that an effect starting or stopping never steps.

use std::f64::consts::TAU;

/// Time constant of the envelope (s): 5 ms, fast enough to follow a kerb stripe, slow enough
/// that an effect switching on is not a step.
pub const ENVELOPE_TAU_S: f64 = 0.005;

/// A sine oscillator whose frequency may change every tick without a phase jump.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Oscillator {
    phase: f64,
}

impl Oscillator {
    /// Advances by `dt` seconds at `hz` and returns `sin(phase)`.
    pub fn step(&mut self, hz: f64, dt: f64) -> f64 {
        if hz.is_finite() && dt.is_finite() && hz > 0.0 && dt > 0.0 {
            self.phase = (self.phase + TAU * hz * dt).rem_euclid(TAU);
        }
        self.phase.sin()
    }

    /// Back to phase zero.
    pub fn reset(&mut self) {
        self.phase = 0.0;
    }
}

/// A first-order follower of a target amplitude (time constant [`ENVELOPE_TAU_S`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Envelope {
    value: f64,
}

impl Envelope {
    /// Moves towards `target` over `dt` seconds; returns the new amplitude.
    pub fn step(&mut self, target: f64, dt: f64) -> f64 {
        let target = if target.is_finite() { target } else { 0.0 };
        if dt.is_finite() && dt > 0.0 {
            let alpha = dt / (ENVELOPE_TAU_S + dt);
            self.value += alpha * (target - self.value);
            if self.value.abs() < 1e-12 {
                // No denormals, and a clean zero once the effect has died away.
                self.value = 0.0;
            }
        }
        self.value
    }

    /// Back to zero.
    pub fn reset(&mut self) {
        self.value = 0.0;
    }
}

/// A vibration: an envelope times an oscillator.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Vibration {
    oscillator: Oscillator,
    envelope: Envelope,
}

impl Vibration {
    /// One tick: amplitude heading for `amplitude_nm`, at `hz`.
    pub fn step(&mut self, amplitude_nm: f64, hz: f64, dt: f64) -> f64 {
        let a = self.envelope.step(amplitude_nm, dt);
        if a == 0.0 {
            // Idle: keep the phase at zero so a restart begins at zero torque.
            self.oscillator.reset();
            return 0.0;
        }
        a * self.oscillator.step(hz, dt)
    }

    /// Silent, at phase zero.
    pub fn reset(&mut self) {
        self.oscillator.reset();
        self.envelope.reset();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oscillator_keeps_its_frequency_and_has_no_phase_jump() {
        let mut o = Oscillator::default();
        let samples: Vec<f64> = (0..1000).map(|_| o.step(40.0, 0.001)).collect();
        // 40 Hz over one second: 80 sign changes.
        let crossings = samples
            .windows(2)
            .filter(|w| (w[0] < 0.0) != (w[1] < 0.0))
            .count();
        assert!((79..=81).contains(&crossings), "{crossings}");
        // A frequency change keeps the waveform continuous.
        let before = o.step(40.0, 0.001);
        let after = o.step(60.0, 0.001);
        assert!((after - before).abs() < 0.4, "{before} -> {after}");
    }

    #[test]
    fn envelope_ramps_and_dies_to_exact_zero() {
        let mut e = Envelope::default();
        let first = e.step(1.0, 0.001);
        assert!(first > 0.0 && first < 0.25, "no step: {first}");
        for _ in 0..50 {
            e.step(1.0, 0.001);
        }
        assert!(e.step(1.0, 0.001) > 0.99);
        for _ in 0..500 {
            e.step(0.0, 0.001);
        }
        assert_eq!(e.step(0.0, 0.001).to_bits(), 0f64.to_bits());
        assert!(e.step(f64::NAN, 0.001).is_finite());
    }
}

//! ABS pulses: while the ABS modulates a brake, the pedal and the steering feel its pressure
//! cycles, about [`PULSE_HZ`] times a second (a typical modulator's cycle rate).

use super::vibration::Vibration;

/// Rate of the ABS pulses (Hz).
pub const PULSE_HZ: f64 = 12.0;

/// The ABS pulses' state.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AbsPulses {
    vibration: Vibration,
}

impl AbsPulses {
    /// One tick: ABS acting or not, strength `nm`.
    pub fn step(&mut self, active: bool, nm: f64, dt: f64) -> f64 {
        let target = if active { nm } else { 0.0 };
        // Symmetric, so the pulses never pull the wheel to one side.
        self.vibration.step(target, PULSE_HZ, dt)
    }

    /// Silent.
    pub fn reset(&mut self) {
        self.vibration.reset();
    }
}

//! The fixed facts of one car's sound, in a `Copy` form the audio thread can receive through
//! a ring without allocating: its firing pattern, its sound character and the engine speeds
//! that scale it.

use gripline_formats::vehicle_sound::{MAX_CYLINDERS, SoundParams};
use gripline_physics::powertrain::engine::EngineParams;

/// One car's sound (from its vehicle file's [`SoundParams`] and its engine).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CarVoice {
    /// Cylinders firing per 720° cycle.
    pub cylinders: usize,
    /// Each firing's place in the cycle (0..1), the first `cylinders` entries used.
    pub firing_phase: [f64; MAX_CYLINDERS],
    /// Cycle-to-cycle variation of the pulses (0..1).
    pub pulse_variation: f32,
    /// Exhaust resonance (Hz).
    pub exhaust_resonance_hz: f32,
    /// Upper-harmonic share of the exhaust (0..1).
    pub exhaust_brightness: f32,
    /// Intake roar level (0..1).
    pub intake_level: f32,
    /// Teeth of the whining gear.
    pub gear_whine_teeth: f32,
    /// Gear whine level (0..1).
    pub gear_whine_level: f32,
    /// Idle speed (rpm).
    pub idle_rpm: f32,
    /// Redline (rpm).
    pub redline_rpm: f32,
}

impl CarVoice {
    /// The voice of a car with the sound `sound` and the engine `engine` (validated
    /// parameters; anything out of range is clamped into a playable one).
    pub fn new(sound: &SoundParams, engine: &EngineParams) -> Self {
        let angles = sound.firing_angles();
        let cylinders = angles.len().clamp(1, MAX_CYLINDERS);
        let mut firing_phase = [0.0; MAX_CYLINDERS];
        for (phase, angle) in firing_phase.iter_mut().zip(&angles) {
            let a = if angle.is_finite() { *angle } else { 0.0 };
            *phase = (a / 720.0).rem_euclid(1.0);
        }
        #[allow(clippy::cast_possible_truncation)]
        Self {
            cylinders,
            firing_phase,
            pulse_variation: sound.pulse_variation.clamp(0.0, 1.0) as f32,
            exhaust_resonance_hz: sound.exhaust_resonance_hz.clamp(40.0, 2000.0) as f32,
            exhaust_brightness: sound.exhaust_brightness.clamp(0.0, 1.0) as f32,
            intake_level: sound.intake_level.clamp(0.0, 1.0) as f32,
            gear_whine_teeth: sound.gear_whine_teeth.clamp(5, 80) as f32,
            gear_whine_level: sound.gear_whine_level.clamp(0.0, 1.0) as f32,
            idle_rpm: engine.idle_rpm.clamp(100.0, 5000.0) as f32,
            redline_rpm: engine.redline_rpm.clamp(1000.0, 25_000.0) as f32,
        }
    }
}

impl Default for CarVoice {
    /// The voice of the physics' default car (a Corvette C5: a V8, the default engine).
    fn default() -> Self {
        let v8 = SoundParams {
            cylinders: 8,
            ..SoundParams::default()
        };
        Self::new(&v8, &EngineParams::default())
    }
}

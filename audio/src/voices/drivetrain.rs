//! The drivetrain: the whine of the gear mesh (tooth-passing frequency of the gearbox output
//! shaft, louder under load), the judder of a slipping clutch, the grind of an H-pattern
//! engagement the synchronisers refuse, and the clunk of a gear going in or out.

use std::f32::consts::TAU;

use crate::car_voice::CarVoice;
use crate::dsp::filters::{Biquad, Response};
use crate::dsp::noise::WhiteNoise;
use crate::dsp::smooth::Smoothed;
use crate::dsp::strike::Strike;
use crate::frame::SoundFrame;

/// The drivetrain voice (see the module docs).
#[derive(Clone, Debug)]
pub struct DrivetrainVoice {
    fs: f32,
    car: CarVoice,
    whine_hz: Smoothed,
    whine_level: Smoothed,
    whine_phase: f32,
    clutch: Smoothed,
    clutch_band: Biquad,
    grind: Smoothed,
    grind_phase: f32,
    grind_rate_hz: f32,
    grind_bands: [Biquad; 2],
    clunk: Strike,
    clunk_phase: f32,
    noise: WhiteNoise,
}

impl DrivetrainVoice {
    /// The voice of `car` at `sample_rate_hz`, silent.
    pub fn new(car: &CarVoice, sample_rate_hz: f32) -> Self {
        let fs = sample_rate_hz;
        Self {
            fs,
            car: *car,
            whine_hz: Smoothed::new(0.0, 0.005, fs),
            whine_level: Smoothed::new(0.0, 0.01, fs),
            whine_phase: 0.0,
            clutch: Smoothed::new(0.0, 0.01, fs),
            clutch_band: Biquad::new(Response::BandPass, 220.0, 2.0, fs),
            grind: Smoothed::new(0.0, 0.004, fs),
            grind_phase: 0.0,
            grind_rate_hz: 40.0,
            grind_bands: [
                Biquad::new(Response::BandPass, 2400.0, 6.0, fs),
                Biquad::new(Response::BandPass, 4100.0, 8.0, fs),
            ],
            clunk: Strike::new(0.002, 0.03, fs),
            clunk_phase: 0.0,
            noise: WhiteNoise::new(0xD21E),
        }
    }

    /// Changes the car.
    pub fn set_car(&mut self, car: &CarVoice) {
        self.car = *car;
    }

    /// Follows `frame`.
    pub fn apply(&mut self, frame: &SoundFrame) {
        let shaft_hz = frame.gearbox_output_rpm / 60.0;
        self.whine_hz
            .set_target(shaft_hz * self.car.gear_whine_teeth);
        let in_gear = frame.gear != 0;
        let level = if in_gear {
            self.car.gear_whine_level
                * (shaft_hz / 40.0).min(1.0)
                * (0.3 + 0.7 * frame.driveline_load.clamp(0.0, 1.0))
        } else {
            0.0
        };
        self.whine_level.set_target(level);
        self.clutch.set_target(frame.clutch_slip.clamp(0.0, 1.0));
        self.grind.set_target(if frame.grind { 1.0 } else { 0.0 });
        // The dogs clash at a rate that rises with the engine speed.
        self.grind_rate_hz = (frame.engine_rpm / 60.0 * 2.0).clamp(25.0, 200.0);
        if frame.gear_changed {
            self.clunk.trigger(1.0);
        }
    }

    /// Adds the voice to `out`.
    pub fn render(&mut self, out: &mut [f32]) {
        for sample in out.iter_mut() {
            let hz = self.whine_hz.advance().min(0.45 * self.fs);
            let level = self.whine_level.advance();
            self.whine_phase = (self.whine_phase + hz / self.fs).fract();
            let p = self.whine_phase * TAU;
            let whine = level * (p.sin() + 0.3 * (2.0 * p).sin());

            let clutch = self.clutch.advance();
            let judder = clutch * self.clutch_band.process(self.noise.sample());

            let grind_level = self.grind.advance();
            let mut grind = 0.0;
            if grind_level > 1e-3 {
                self.grind_phase += self.grind_rate_hz / self.fs;
                // A click at each clash, ringing in the housing's two modes, over rough noise.
                let click = if self.grind_phase >= 1.0 {
                    self.grind_phase -= 1.0;
                    4.0
                } else {
                    0.0
                };
                let rough = self.noise.sample();
                let excitation = click + rough;
                grind = grind_level
                    * (self.grind_bands[0].process(excitation)
                        + 0.7 * self.grind_bands[1].process(excitation));
            }

            let mut clunk = 0.0;
            if self.clunk.active() {
                self.clunk_phase = (self.clunk_phase + 85.0 / self.fs).fract();
                clunk = self.clunk.advance() * (self.clunk_phase * TAU).sin();
            }
            *sample += 0.06 * whine + 0.08 * judder + 0.25 * grind + 0.12 * clunk;
        }
    }
}

//! Wind: noise whose level follows the dynamic pressure (speed squared) and whose colour
//! brightens with speed, with slow gusts.

use crate::dsp::filters::{Biquad, OnePole, Response};
use crate::dsp::noise::{PinkNoise, WhiteNoise};
use crate::dsp::smooth::Smoothed;
use crate::frame::SoundFrame;

/// Speed at which the wind reaches its reference level (m/s, 252 km/h).
const REFERENCE_SPEED_M_PER_S: f32 = 70.0;

/// The wind voice (see the module docs).
#[derive(Clone, Debug)]
pub struct WindVoice {
    fs: f32,
    level: Smoothed,
    speed: f32,
    band: Biquad,
    gust: OnePole,
    gust_noise: WhiteNoise,
    pink: PinkNoise,
    counter: u32,
}

impl WindVoice {
    /// A still wind at `sample_rate_hz`.
    pub fn new(sample_rate_hz: f32) -> Self {
        Self {
            fs: sample_rate_hz,
            level: Smoothed::new(0.0, 0.05, sample_rate_hz),
            speed: 0.0,
            band: Biquad::new(Response::BandPass, 300.0, 0.6, sample_rate_hz),
            gust: OnePole::low_pass(0.7, sample_rate_hz),
            gust_noise: WhiteNoise::new(0x61D5),
            pink: PinkNoise::new(0x3149),
            counter: 0,
        }
    }

    /// Follows `frame`.
    pub fn apply(&mut self, frame: &SoundFrame) {
        self.speed = frame.speed_m_per_s.max(0.0);
        let q = (self.speed / REFERENCE_SPEED_M_PER_S).powi(2).min(2.0);
        self.level.set_target(q);
    }

    /// Adds the voice to `out`.
    pub fn render(&mut self, out: &mut [f32]) {
        for sample in out.iter_mut() {
            if self.counter == 0 {
                self.band.tune(200.0 + 12.0 * self.speed, 0.6, self.fs);
            }
            self.counter = (self.counter + 1) % 64;
            let gust = 1.0 + 8.0 * self.gust.process(self.gust_noise.sample());
            let level = self.level.advance();
            *sample += 0.25 * level * gust.clamp(0.6, 1.4) * self.band.process(self.pink.sample());
        }
    }
}

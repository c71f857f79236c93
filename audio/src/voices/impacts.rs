//! Impacts and scraping: a hit of the body on the ground or a wall is a low thud with a
//! metallic ring and a burst of noise; body points dragging along the ground scrape.

use std::f32::consts::TAU;

use crate::dsp::filters::{Biquad, OnePole, Response};
use crate::dsp::noise::WhiteNoise;
use crate::dsp::smooth::Smoothed;
use crate::dsp::strike::Strike;
use crate::frame::SoundFrame;

/// The impact voice (see the module docs).
#[derive(Clone, Debug)]
pub struct ImpactVoice {
    fs: f32,
    hit: Strike,
    thud_phase: f32,
    ring: Biquad,
    burst: OnePole,
    scrape: Smoothed,
    scrape_band: Biquad,
    noise: WhiteNoise,
}

impl ImpactVoice {
    /// A quiet voice at `sample_rate_hz`.
    pub fn new(sample_rate_hz: f32) -> Self {
        let fs = sample_rate_hz;
        Self {
            fs,
            hit: Strike::new(0.001, 0.15, fs),
            thud_phase: 0.0,
            ring: Biquad::new(Response::BandPass, 900.0, 12.0, fs),
            burst: OnePole::low_pass(1500.0, fs),
            scrape: Smoothed::new(0.0, 0.02, fs),
            scrape_band: Biquad::new(Response::BandPass, 3200.0, 1.2, fs),
            noise: WhiteNoise::new(0x1A9C),
        }
    }

    /// Follows `frame`.
    pub fn apply(&mut self, frame: &SoundFrame) {
        if frame.impact > 0.0 {
            self.hit.trigger(frame.impact);
        }
        let dragging = if frame.body_contacts > 0 {
            (frame.speed_m_per_s / 20.0).min(1.0)
        } else {
            0.0
        };
        self.scrape.set_target(dragging);
    }

    /// Adds the voice to `out`.
    pub fn render(&mut self, out: &mut [f32]) {
        for sample in out.iter_mut() {
            let white = self.noise.sample();
            let mut hit = 0.0;
            if self.hit.active() {
                self.thud_phase = (self.thud_phase + 42.0 / self.fs).fract();
                let thud = (self.thud_phase * TAU).sin();
                let burst = self.burst.process(white);
                let ring = self.ring.process(white * 4.0);
                hit = self.hit.advance() * (0.8 * thud + 0.6 * burst + 0.4 * ring);
            }
            let scrape = self.scrape.advance() * self.scrape_band.process(white);
            *sample += 0.5 * hit + 0.2 * scrape;
        }
    }
}

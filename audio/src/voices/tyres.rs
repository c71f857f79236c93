//! The tyres, one channel per wheel:
//!
//! - squeal: nothing below half the peak slip, rising smoothly to full at the peak and a
//!   little beyond it, scaled by load; a few detuned partials with a chatter, pitched up by
//!   the sliding speed. Only on hard surfaces;
//! - lock-up: a howl about an octave lower, with more scrub, instead of the squeal while the
//!   wheel is locked;
//! - surface noise by speed and surface: a hiss on asphalt, a ribbed rumble on a kerb, a
//!   low swish on grass, the crunch of stones on gravel;
//! - thumps: a low knock when the suspension is hit fast, meets its bump stop, or the tyre
//!   strikes a kerb.

use std::f32::consts::TAU;

use gripline_physics::ground::Surface;

use crate::dsp::filters::{Biquad, OnePole, Response};
use crate::dsp::noise::{PinkNoise, WhiteNoise};
use crate::dsp::smooth::Smoothed;
use crate::dsp::smoothstep;
use crate::dsp::strike::Strike;
use crate::frame::SoundFrame;

/// Slip over peak slip where the squeal starts.
pub const SQUEAL_ONSET: f32 = 0.4;

/// Squeal level for a slip over peak slip `slip_of_peak` (0 up to [`SQUEAL_ONSET`], rising to
/// 1 at the peak and to 1.3 well past it; never falling).
pub fn squeal_level(slip_of_peak: f32) -> f32 {
    if !slip_of_peak.is_finite() {
        return 0.0;
    }
    smoothstep(SQUEAL_ONSET, 1.0, slip_of_peak) + 0.3 * smoothstep(1.0, 2.0, slip_of_peak)
}

/// How loudly a surface squeals (1 on dry asphalt).
fn squeal_of(surface: Surface) -> f32 {
    match surface {
        Surface::Asphalt | Surface::Concrete => 1.0,
        Surface::Kerb => 0.8,
        Surface::WetAsphalt => 0.3,
        Surface::Ice => 0.15,
        Surface::Grass | Surface::Gravel | Surface::Sand => 0.0,
    }
}

/// Rolling noise of a surface: (hiss level, low rumble level, crunch density per metre).
fn surface_of(surface: Surface) -> (f32, f32, f32) {
    match surface {
        Surface::Asphalt => (0.5, 0.2, 0.0),
        Surface::WetAsphalt => (0.9, 0.2, 0.0),
        Surface::Concrete => (0.7, 0.3, 0.0),
        Surface::Kerb => (0.6, 1.0, 0.0),
        Surface::Grass => (0.3, 0.9, 0.0),
        Surface::Gravel => (0.4, 0.8, 60.0),
        Surface::Sand => (0.2, 0.7, 5.0),
        Surface::Ice => (0.2, 0.1, 0.0),
    }
}

/// Spacing of a kerb's ribs (m).
const KERB_RIB_M: f32 = 0.35;

#[derive(Clone, Debug)]
struct Channel {
    squeal: Smoothed,
    lockup: Smoothed,
    pitch: Smoothed,
    hiss: Smoothed,
    rumble: Smoothed,
    crunch: Smoothed,
    rib: Smoothed,
    phase: [f32; 3],
    lock_phase: [f32; 2],
    chatter: OnePole,
    squeal_band: Biquad,
    lock_band: Biquad,
    hiss_filter: Biquad,
    rumble_filter: OnePole,
    crunch_band: Biquad,
    rib_phase: f32,
    rib_filter: OnePole,
    thump: Strike,
    thump_phase: f32,
    detune: f32,
    white: WhiteNoise,
    pink: PinkNoise,
}

/// The tyre voice (see the module docs).
#[derive(Clone, Debug)]
pub struct TyreVoice {
    fs: f32,
    speed: f32,
    channels: [Channel; 4],
}

impl TyreVoice {
    /// Four silent channels at `sample_rate_hz`.
    pub fn new(sample_rate_hz: f32) -> Self {
        let fs = sample_rate_hz;
        let channel = |i: u8| Channel {
            squeal: Smoothed::new(0.0, 0.02, fs),
            lockup: Smoothed::new(0.0, 0.02, fs),
            pitch: Smoothed::new(700.0, 0.03, fs),
            hiss: Smoothed::new(0.0, 0.02, fs),
            rumble: Smoothed::new(0.0, 0.02, fs),
            crunch: Smoothed::new(0.0, 0.02, fs),
            rib: Smoothed::new(0.0, 0.01, fs),
            phase: [0.0; 3],
            lock_phase: [0.0; 2],
            chatter: OnePole::low_pass(25.0, fs),
            squeal_band: Biquad::new(Response::BandPass, 1300.0, 3.0, fs),
            lock_band: Biquad::new(Response::BandPass, 420.0, 2.5, fs),
            hiss_filter: Biquad::new(Response::BandPass, 900.0, 0.7, fs),
            rumble_filter: OnePole::low_pass(120.0, fs),
            crunch_band: Biquad::new(Response::BandPass, 2500.0, 1.5, fs),
            rib_phase: 0.0,
            rib_filter: OnePole::low_pass(150.0, fs),
            thump: Strike::new(0.002, 0.06, fs),
            thump_phase: 0.0,
            detune: 1.0 + 0.031 * f32::from(i),
            white: WhiteNoise::new(0x7A4E_0000 + u64::from(i)),
            pink: PinkNoise::new(0x5E1F_0000 + u64::from(i)),
        };
        Self {
            fs,
            speed: 0.0,
            channels: [channel(0), channel(1), channel(2), channel(3)],
        }
    }

    /// Follows `frame`.
    pub fn apply(&mut self, frame: &SoundFrame) {
        self.speed = frame.speed_m_per_s.max(0.0);
        // A parked or crawling car does not squeal, whatever its slips read.
        let moving = smoothstep(0.5, 3.0, self.speed);
        let speed_level = (self.speed / 30.0).min(1.5);
        for (c, w) in self.channels.iter_mut().zip(&frame.wheels) {
            let load = w.load_ratio.clamp(0.0, 2.0).sqrt();
            let (hiss, rumble, crunch) = if w.contact {
                surface_of(w.surface)
            } else {
                (0.0, 0.0, 0.0)
            };
            let hard = if w.contact { squeal_of(w.surface) } else { 0.0 };
            let locked = w.lockup.clamp(0.0, 1.0);
            c.squeal
                .set_target(squeal_level(w.slip_of_peak) * (1.0 - locked) * hard * load * moving);
            c.lockup.set_target(locked * hard.max(0.3) * load * moving);
            c.pitch
                .set_target((620.0 + 25.0 * w.sliding_m_per_s.min(12.0)) * c.detune);
            c.hiss.set_target(hiss * speed_level);
            c.rumble.set_target(rumble * speed_level);
            c.crunch.set_target(crunch * self.speed);
            c.rib
                .set_target(if w.contact && w.surface == Surface::Kerb {
                    speed_level.min(1.0)
                } else {
                    0.0
                });
            if w.thump > 0.0 {
                c.thump.trigger(w.thump);
            }
        }
        for c in &mut self.channels {
            c.hiss_filter.tune(500.0 + 40.0 * self.speed, 0.7, self.fs);
        }
    }

    /// Adds the voice to `out`.
    pub fn render(&mut self, out: &mut [f32]) {
        let fs = self.fs;
        let rib_hz = self.speed / KERB_RIB_M;
        for sample in out.iter_mut() {
            let mut sum = 0.0;
            for c in &mut self.channels {
                let squeal = c.squeal.advance();
                let lockup = c.lockup.advance();
                let pitch = c.pitch.advance();
                let white = c.white.sample();
                let mut voice = 0.0;
                if squeal > 1e-4 {
                    // Partials at 1, 1.5 and 2.2 times the pitch, with a slow chatter.
                    let mut tone = 0.0;
                    for (phase, (ratio, gain)) in
                        c.phase.iter_mut().zip([(1.0, 1.0), (1.5, 0.5), (2.2, 0.3)])
                    {
                        *phase = (*phase + pitch * ratio / fs).fract();
                        tone += gain * (*phase * TAU).sin();
                    }
                    let chatter = 0.75 + 2.5 * c.chatter.process(white);
                    voice += squeal * (0.8 * tone * chatter + 0.8 * c.squeal_band.process(white));
                }
                if lockup > 1e-4 {
                    // A locked tyre howls about an octave below its cornering squeal, with
                    // more scrub in it.
                    let mut howl = 0.0;
                    for (phase, (ratio, gain)) in
                        c.lock_phase.iter_mut().zip([(0.55, 1.0), (1.1, 0.4)])
                    {
                        *phase = (*phase + pitch * ratio / fs).fract();
                        howl += gain * (*phase * TAU).sin();
                    }
                    let chatter = 0.75 + 2.5 * c.chatter.process(white);
                    voice += lockup * (0.7 * howl * chatter + 4.0 * c.lock_band.process(white));
                }
                let pink = c.pink.sample();
                let hiss = c.hiss.advance() * c.hiss_filter.process(pink);
                let rumble = c.rumble.advance() * c.rumble_filter.process(pink) * 2.0;
                let crunch_rate = c.crunch.advance();
                let crunch = if crunch_rate > 0.0 && c.white.next_unit() < crunch_rate / fs {
                    c.crunch_band.process(white * 6.0)
                } else {
                    c.crunch_band.process(0.0)
                };
                let rib_level = c.rib.advance();
                let mut rib = 0.0;
                if rib_level > 1e-4 {
                    c.rib_phase = (c.rib_phase + rib_hz / fs).fract();
                    let square = if c.rib_phase < 0.5 { 1.0 } else { -1.0 };
                    rib = rib_level * c.rib_filter.process(square);
                }
                let mut thump = 0.0;
                if c.thump.active() {
                    // A knock that drops from 70 to 45 Hz as it decays.
                    let level = c.thump.advance();
                    let hz = 45.0 + 25.0 * level;
                    c.thump_phase = (c.thump_phase + hz / fs).fract();
                    thump = level * (c.thump_phase * TAU).sin();
                }
                sum += 0.12 * voice
                    + 0.05 * hiss
                    + 0.08 * rumble
                    + 0.2 * crunch
                    + 0.15 * rib
                    + 0.3 * thump;
            }
            *sample += sum;
        }
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // the values compared are exact by construction
mod tests {
    use super::*;

    #[test]
    fn squeal_is_silent_at_small_slip_and_never_falls() {
        assert!(squeal_level(0.0) == 0.0 && squeal_level(SQUEAL_ONSET) == 0.0);
        assert!((squeal_level(1.0) - 1.0).abs() < 1e-6);
        let mut last = 0.0;
        for i in 0..=300 {
            let level = squeal_level(i as f32 * 0.01);
            assert!(level >= last, "falls at {i}");
            last = level;
        }
        assert_eq!(squeal_level(f32::NAN), 0.0);
    }
}

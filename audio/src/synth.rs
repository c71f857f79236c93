//! The synthesiser: every voice, mixed into three buses (engine and drivetrain; tyres;
//! wind and impacts) with the player's volumes, faded out while paused, and limited so that
//! no sample reaches full scale. Pure: it renders into any buffer at any rate and allocates
//! nothing after construction.

use crate::car_voice::CarVoice;
use crate::dsp::smooth::Smoothed;
use crate::frame::SoundFrame;
use crate::voices::drivetrain::DrivetrainVoice;
use crate::voices::engine::EngineVoice;
use crate::voices::impacts::ImpactVoice;
use crate::voices::tyres::TyreVoice;
use crate::voices::wind::WindVoice;

/// Most samples rendered per voice pass (longer buffers are rendered in pieces).
pub const BLOCK_SAMPLES: usize = 256;

/// The player's volumes (0..1 each, as linear gains).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mix {
    /// Everything.
    pub master: f32,
    /// Engine and drivetrain.
    pub engine: f32,
    /// Tyres, surfaces and thumps.
    pub tyres: f32,
    /// Wind and impacts.
    pub ambient: f32,
    /// Silence without losing the volumes.
    pub muted: bool,
}

impl Default for Mix {
    /// Unity: every gain 1, not muted. (The player's default volumes belong to the settings,
    /// `gripline_config::AudioSettings`.)
    fn default() -> Self {
        Self {
            master: 1.0,
            engine: 1.0,
            tyres: 1.0,
            ambient: 1.0,
            muted: false,
        }
    }
}

impl Mix {
    /// The gains of the three buses after master and mute, each finite and in 0..1.
    pub fn bus_gains(&self) -> [f32; 3] {
        let unit = |x: f32| {
            if x.is_finite() {
                x.clamp(0.0, 1.0)
            } else {
                0.0
            }
        };
        let master = if self.muted { 0.0 } else { unit(self.master) };
        [
            master * unit(self.engine),
            master * unit(self.tyres),
            master * unit(self.ambient),
        ]
    }
}

/// The synthesiser (see the module docs).
#[derive(Clone, Debug)]
pub struct Synth {
    sample_rate_hz: u32,
    engine: EngineVoice,
    drivetrain: DrivetrainVoice,
    tyres: TyreVoice,
    wind: WindVoice,
    impacts: ImpactVoice,
    gains: [Smoothed; 3],
    running: Smoothed,
    buses: [[f32; BLOCK_SAMPLES]; 3],
}

impl Synth {
    /// A silent synthesiser for `car` at `sample_rate_hz` (clamped to 8 kHz .. 192 kHz).
    pub fn new(car: &CarVoice, sample_rate_hz: u32) -> Self {
        let rate = sample_rate_hz.clamp(8_000, 192_000);
        #[allow(clippy::cast_precision_loss)]
        let fs = rate as f32;
        let gains = Mix::default().bus_gains();
        Self {
            sample_rate_hz: rate,
            engine: EngineVoice::new(car, fs),
            drivetrain: DrivetrainVoice::new(car, fs),
            tyres: TyreVoice::new(fs),
            wind: WindVoice::new(fs),
            impacts: ImpactVoice::new(fs),
            gains: gains.map(|g| Smoothed::new(g, 0.02, fs)),
            running: Smoothed::new(0.0, 0.05, fs),
            buses: [[0.0; BLOCK_SAMPLES]; 3],
        }
    }

    /// The sample rate rendered (Hz).
    pub fn sample_rate_hz(&self) -> u32 {
        self.sample_rate_hz
    }

    /// Changes the car (a swap in the session).
    pub fn set_car(&mut self, car: &CarVoice) {
        self.engine.set_car(car);
        self.drivetrain.set_car(car);
    }

    /// Sets the volumes (followed smoothly).
    pub fn set_mix(&mut self, mix: &Mix) {
        for (gain, target) in self.gains.iter_mut().zip(mix.bus_gains()) {
            gain.set_target(target);
        }
    }

    /// Follows the physics state of `frame` and starts its events.
    pub fn apply(&mut self, frame: &SoundFrame) {
        self.engine.apply(frame);
        self.drivetrain.apply(frame);
        self.tyres.apply(frame);
        self.wind.apply(frame);
        self.impacts.apply(frame);
        self.running
            .set_target(if frame.paused { 0.0 } else { 1.0 });
    }

    /// Fades out (no state arrives: the simulation stopped) or back in.
    pub fn set_silenced(&mut self, silenced: bool) {
        if silenced {
            self.running.set_target(0.0);
        }
    }

    /// Renders the next `out.len()` samples (mono, each in `(-1, 1)`).
    pub fn render(&mut self, out: &mut [f32]) {
        for chunk in out.chunks_mut(BLOCK_SAMPLES) {
            let n = chunk.len();
            for bus in &mut self.buses {
                bus[..n].fill(0.0);
            }
            let [engine, tyres, ambient] = &mut self.buses;
            self.engine.render(&mut engine[..n]);
            self.drivetrain.render(&mut engine[..n]);
            self.tyres.render(&mut tyres[..n]);
            self.wind.render(&mut ambient[..n]);
            self.impacts.render(&mut ambient[..n]);
            for (i, sample) in chunk.iter_mut().enumerate() {
                let running = self.running.advance();
                let mut x = 0.0;
                for (bus, gain) in self.buses.iter().zip(&mut self.gains) {
                    x += bus[i] * gain.advance();
                }
                *sample = limit(x * running);
            }
        }
    }
}

/// The output limiter: linear up to 0.5, then a tanh knee that approaches but never reaches
/// full scale; NaN becomes silence.
#[inline]
pub fn limit(x: f32) -> f32 {
    if !x.is_finite() {
        return 0.0;
    }
    let a = x.abs();
    let y = if a <= 0.5 {
        a
    } else {
        0.5 + 0.499 * ((a - 0.5) / 0.499).tanh()
    };
    y.copysign(x)
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // the values compared are exact by construction
mod tests {
    use super::*;

    #[test]
    fn the_limiter_is_transparent_below_half_scale_and_bounded_above() {
        assert_eq!(limit(0.3), 0.3);
        assert_eq!(limit(-0.5), -0.5);
        assert!(limit(0.6) > 0.59 && limit(0.6) < 0.6);
        for x in [1.0, 10.0, 1e9, f32::INFINITY] {
            assert!(limit(x) < 1.0 && limit(-x) > -1.0);
        }
        assert_eq!(limit(f32::NAN), 0.0);
        let mut last = -1.0;
        for i in -3000..=3000 {
            let y = limit(i as f32 * 0.001);
            assert!(y >= last);
            last = y;
        }
    }

    #[test]
    fn the_mix_sanitises_the_volumes() {
        let mix = Mix {
            master: 2.0,
            engine: f32::NAN,
            tyres: 0.5,
            ambient: -1.0,
            muted: false,
        };
        assert_eq!(mix.bus_gains(), [0.0, 0.5, 0.0]);
        assert_eq!(
            Mix {
                muted: true,
                ..Mix::default()
            }
            .bus_gains(),
            [0.0; 3]
        );
    }
}

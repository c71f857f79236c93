//! Offline rendering: the synthesiser stepped tick by tick with the physics, each tick
//! rendering the samples its time spans (the fraction carried over), so a run's sound is
//! always the same file.

use crate::car_voice::CarVoice;
use crate::frame::SoundFrame;
use crate::synth::{BLOCK_SAMPLES, Mix, Synth};

/// The synthesiser driven by the simulated clock.
#[derive(Clone, Debug)]
pub struct OfflineSynth {
    synth: Synth,
    owed_samples: f64,
    block: [f32; BLOCK_SAMPLES],
}

impl OfflineSynth {
    /// A synthesiser for `car` at `sample_rate_hz` with the volumes `mix`.
    pub fn new(car: &CarVoice, sample_rate_hz: u32, mix: &Mix) -> Self {
        let mut synth = Synth::new(car, sample_rate_hz);
        synth.set_mix(mix);
        Self {
            synth,
            owed_samples: 0.0,
            block: [0.0; BLOCK_SAMPLES],
        }
    }

    /// The sample rate (Hz).
    pub fn sample_rate_hz(&self) -> u32 {
        self.synth.sample_rate_hz()
    }

    /// Follows `frame` for `step_s` seconds, handing the samples rendered to `sink`.
    ///
    /// # Errors
    /// The first error of `sink`.
    pub fn step<E>(
        &mut self,
        frame: &SoundFrame,
        step_s: f64,
        sink: &mut impl FnMut(&[f32]) -> Result<(), E>,
    ) -> Result<(), E> {
        self.synth.apply(frame);
        if step_s.is_finite() && step_s > 0.0 {
            self.owed_samples += step_s * f64::from(self.synth.sample_rate_hz());
        }
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let mut due = self.owed_samples.floor() as usize;
        #[allow(clippy::cast_precision_loss)]
        {
            self.owed_samples -= due as f64;
        }
        while due > 0 {
            let n = due.min(BLOCK_SAMPLES);
            self.synth.render(&mut self.block[..n]);
            sink(&self.block[..n])?;
            due -= n;
        }
        Ok(())
    }
}

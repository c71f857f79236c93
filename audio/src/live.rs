//! The audio callback's side: the synthesiser fed from the [`SoundInbox`] with the player's
//! volumes from [`AudioControls`]. Each callback spreads the ticks that arrived since the last
//! one evenly over its buffer (their events in order), so the sound lags the physics by about
//! one buffer. When no state arrives for [`STARVED_S`] (the sim thread stopped) it fades out.
//! Nothing here allocates, locks or waits.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use crate::car_voice::CarVoice;
use crate::feed::{SoundInbox, SoundMessage};
use crate::synth::{Mix, Synth};

/// Seconds without a state after which the sound fades out.
pub const STARVED_S: f64 = 0.1;

/// The player's volumes, shared between the settings screen and the audio thread (atomics,
/// no lock).
#[derive(Debug)]
pub struct AudioControls {
    master: AtomicU32,
    engine: AtomicU32,
    tyres: AtomicU32,
    ambient: AtomicU32,
    muted: AtomicBool,
}

impl AudioControls {
    /// Controls set to `mix`.
    pub fn new(mix: &Mix) -> Self {
        let controls = Self {
            master: AtomicU32::new(0),
            engine: AtomicU32::new(0),
            tyres: AtomicU32::new(0),
            ambient: AtomicU32::new(0),
            muted: AtomicBool::new(false),
        };
        controls.set(mix);
        controls
    }

    /// Sets the volumes.
    pub fn set(&self, mix: &Mix) {
        self.master.store(mix.master.to_bits(), Ordering::Relaxed);
        self.engine.store(mix.engine.to_bits(), Ordering::Relaxed);
        self.tyres.store(mix.tyres.to_bits(), Ordering::Relaxed);
        self.ambient.store(mix.ambient.to_bits(), Ordering::Relaxed);
        self.muted.store(mix.muted, Ordering::Relaxed);
    }

    /// The volumes.
    pub fn get(&self) -> Mix {
        let load = |a: &AtomicU32| f32::from_bits(a.load(Ordering::Relaxed));
        Mix {
            master: load(&self.master),
            engine: load(&self.engine),
            tyres: load(&self.tyres),
            ambient: load(&self.ambient),
            muted: self.muted.load(Ordering::Relaxed),
        }
    }
}

/// The synthesiser as the audio callback runs it (see the module docs).
#[derive(Debug)]
pub struct LiveSynth {
    synth: Synth,
    inbox: SoundInbox,
    samples_without_state: u64,
    starved_samples: u64,
}

impl LiveSynth {
    /// A synthesiser for `car` at `sample_rate_hz`, fed from `inbox`.
    pub fn new(car: &CarVoice, sample_rate_hz: u32, inbox: SoundInbox) -> Self {
        let synth = Synth::new(car, sample_rate_hz);
        let starved_samples = (STARVED_S * f64::from(synth.sample_rate_hz())) as u64;
        Self {
            synth,
            inbox,
            samples_without_state: 0,
            starved_samples,
        }
    }

    /// The sample rate (Hz).
    pub fn sample_rate_hz(&self) -> u32 {
        self.synth.sample_rate_hz()
    }

    /// Messages the ring dropped.
    pub fn dropped(&self) -> u64 {
        self.inbox.dropped()
    }

    /// Fills `out` (mono) with the next samples, following the states that arrived.
    pub fn fill(&mut self, out: &mut [f32], mix: &Mix) {
        self.synth.set_mix(mix);
        let waiting = self.inbox.waiting();
        if waiting == 0 {
            self.samples_without_state += out.len() as u64;
            if self.samples_without_state >= self.starved_samples {
                self.synth.set_silenced(true);
            }
            self.synth.render(out);
            return;
        }
        self.samples_without_state = 0;
        let n = out.len();
        let mut start = 0;
        for i in 0..waiting {
            match self.inbox.pop() {
                Some(SoundMessage::Frame(frame)) => self.synth.apply(&frame),
                Some(SoundMessage::Car(car)) => self.synth.set_car(&car),
                None => {}
            }
            let end = n * (i + 1) / waiting;
            self.synth.render(&mut out[start..end]);
            start = end;
        }
    }
}

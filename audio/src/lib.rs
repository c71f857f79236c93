//! Gripline's sound: a synthesiser that turns the physics state into the sound of the car,
//! with no samples, so every car and every state sounds consistent with the model.
//!
//! - [`frame`]: a [`SoundFrame`] per physics tick, built from the vehicle's snapshot by a
//!   [`FrameBuilder`] (slip over each tyre's peak slip, thumps, impacts, gear changes);
//! - [`car_voice`]: a car's cylinders, firing pattern and sound character ([`CarVoice`]);
//! - [`voices`]: engine, drivetrain, tyres, wind, impacts; [`dsp`]: their building blocks;
//! - [`synth`]: the [`Synth`] that mixes them with the player's volumes, pure (renders into
//!   any buffer at any rate, no device, no allocation after construction);
//! - [`feed`] and [`live`]: the wait-free ring from the sim thread and the audio callback's
//!   side; [`output`]: the `cpal` stream (no device: an error that says why, never a panic);
//! - [`offline`] and [`wav`]: the same synthesiser stepped by the simulated clock into a WAV
//!   file (`gripline headless --audio`), deterministically; [`analysis`]: spectra for the
//!   tests and the spectrogram tool.

// Sound converts between f64 time and frequency, sample counts and f32 samples everywhere;
// every such value is finite and in range by construction (clamped where it comes in).
#![allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]

pub mod alsa_messages;
pub mod analysis;
pub mod car_voice;
pub mod dsp;
pub mod feed;
pub mod frame;
pub mod live;
pub mod offline;
pub mod output;
pub mod synth;
pub mod voices;
pub mod wav;

pub use car_voice::CarVoice;
pub use feed::{SoundFeed, SoundInbox, SoundMessage, sound_feed};
pub use frame::{FrameBuilder, SoundFrame, WheelSound};
pub use live::{AudioControls, LiveSynth};
pub use offline::OfflineSynth;
pub use output::{AudioOutput, OutputError};
pub use synth::{Mix, Synth};
pub use wav::{WavFormat, WavWriter};

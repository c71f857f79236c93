//! The simulator's sound, wired: the sim thread's [`TickObserver`] that turns each tick into a
//! [`SoundFrame`](gripline_audio::SoundFrame) for the audio thread, the output stream opened
//! from the settings (or a one-line reason for silence), and the headless `--audio` recorder
//! that renders a run into a WAV file with the same synthesiser.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use anyhow::{Context, Result};
use gripline_audio::output::{AudioOutput, OutputError, output_sample_rate_hz};
use gripline_audio::{
    AudioControls, CarVoice, FrameBuilder, LiveSynth, Mix, OfflineSynth, SoundFeed, SoundMessage,
    WavFormat, WavWriter, sound_feed,
};
use gripline_config::AudioSettings;
use gripline_formats::vehicle_sound::SoundParams;
use gripline_physics::vehicle::{Snapshot, Vehicle};
use gripline_sim::observer::TickObserver;

/// The player's audio settings as the synthesiser's volumes.
pub fn mix_of(settings: &AudioSettings) -> Mix {
    #[allow(clippy::cast_possible_truncation)]
    let unit = |x: f64| x.clamp(0.0, 1.0) as f32;
    Mix {
        master: unit(settings.master),
        engine: unit(settings.engine),
        tyres: unit(settings.tyres),
        ambient: unit(settings.ambient),
        muted: settings.muted,
    }
}

/// The sim thread's side of the sound: builds a frame per tick and pushes it into the ring.
pub struct SoundTap {
    feed: SoundFeed,
    builder: Option<FrameBuilder>,
}

impl SoundTap {
    /// A tap feeding `feed`.
    pub fn new(feed: SoundFeed) -> Self {
        Self {
            feed,
            builder: None,
        }
    }
}

impl TickObserver for SoundTap {
    fn start(&mut self, vehicle: &Vehicle, sound: &SoundParams, _step_s: f64) -> Result<()> {
        self.builder = Some(FrameBuilder::new(vehicle));
        self.feed.send(SoundMessage::Car(CarVoice::new(
            sound,
            &vehicle.params().powertrain.engine,
        )));
        Ok(())
    }

    /// Never fails: what the ring cannot take is dropped.
    fn tick(&mut self, snapshot: &Snapshot, step_s: f64, paused: bool) -> Result<()> {
        if let Some(builder) = &mut self.builder {
            let frame = builder.frame(snapshot, step_s, paused);
            self.feed.send(SoundMessage::Frame(frame));
        }
        Ok(())
    }
}

/// The window's sound: the stream, the volumes, and what to tell the player.
pub struct Sound {
    output: Option<AudioOutput>,
    controls: Arc<AudioControls>,
    synth: Arc<Mutex<LiveSynth>>,
    /// Set once the loss of the device has been reported.
    lost_reported: bool,
}

impl std::fmt::Debug for Sound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sound")
            .field("output", &self.output)
            .finish_non_exhaustive()
    }
}

impl Sound {
    /// Opens the output of `settings` for `vehicle` sounding like `sound`; returns the sound
    /// and the tap to give the sim thread. Without a device the sound is silent and the line
    /// says why.
    pub fn start(
        settings: &AudioSettings,
        vehicle: &Vehicle,
        sound: &SoundParams,
    ) -> (Self, Box<dyn TickObserver>, String) {
        let (feed, inbox) = sound_feed();
        let device = settings.device.as_deref();
        let controls = Arc::new(AudioControls::new(&mix_of(settings)));
        let car = CarVoice::new(sound, &vehicle.params().powertrain.engine);
        let rate = output_sample_rate_hz(device).unwrap_or(48_000);
        let synth = Arc::new(Mutex::new(LiveSynth::new(&car, rate, inbox)));
        let (output, line) = match AudioOutput::open(device, &synth, &controls) {
            Ok(output) => {
                let line = format!("gripline: sound: {}", output.describe());
                (Some(output), line)
            }
            Err(error) => (None, silent_line(&error)),
        };
        let sound = Self {
            output,
            controls,
            synth,
            lost_reported: false,
        };
        (sound, Box::new(SoundTap::new(feed)), line)
    }

    /// Applies changed volumes (the device stays).
    pub fn set_mix(&self, settings: &AudioSettings) {
        self.controls.set(&mix_of(settings));
    }

    /// Switches to the device of `settings` (`None`: the default); returns the line to print.
    pub fn set_device(&mut self, settings: &AudioSettings) -> String {
        // The old stream stops (and its callback with it) before the new one starts.
        self.output = None;
        match AudioOutput::open(settings.device.as_deref(), &self.synth, &self.controls) {
            Ok(output) => {
                let line = format!("gripline: sound: {}", output.describe());
                self.output = Some(output);
                self.lost_reported = false;
                line
            }
            Err(error) => silent_line(&error),
        }
    }

    /// The device's name, if one plays.
    pub fn device(&self) -> Option<&str> {
        self.output.as_ref().map(AudioOutput::device)
    }

    /// The host's predicted callback-to-speaker delay (ms).
    pub fn callback_latency_ms(&self) -> Option<f64> {
        self.output
            .as_ref()
            .and_then(AudioOutput::callback_latency_ms)
    }

    /// Once, when the device has been lost: the line to print; the sound goes silent and the
    /// simulator runs on.
    pub fn poll_lost(&mut self) -> Option<String> {
        let reason = self.output.as_ref()?.lost()?;
        if self.lost_reported {
            return None;
        }
        self.lost_reported = true;
        self.output = None;
        Some(format!(
            "gripline: sound: the audio device was lost ({reason}); running on silently"
        ))
    }
}

/// The line printed when there is no sound.
fn silent_line(error: &OutputError) -> String {
    format!("gripline: sound: {error}; running silently")
}

/// `gripline headless --audio`: renders every tick of the run into a WAV file.
pub struct WavRecorder {
    path: PathBuf,
    sample_rate_hz: u32,
    format: WavFormat,
    mix: Mix,
    state: Option<(FrameBuilder, OfflineSynth, WavWriter)>,
}

impl WavRecorder {
    /// A recorder to `path` at `sample_rate_hz` in `format`, with `mix`'s volumes.
    pub fn new(path: &Path, sample_rate_hz: u32, format: WavFormat, mix: Mix) -> Self {
        Self {
            path: path.to_owned(),
            sample_rate_hz,
            format,
            mix,
            state: None,
        }
    }
}

impl TickObserver for WavRecorder {
    fn start(&mut self, vehicle: &Vehicle, sound: &SoundParams, _step_s: f64) -> Result<()> {
        let car = CarVoice::new(sound, &vehicle.params().powertrain.engine);
        let writer =
            WavWriter::create(&self.path, self.sample_rate_hz, self.format).context("--audio")?;
        self.state = Some((
            FrameBuilder::new(vehicle),
            OfflineSynth::new(&car, self.sample_rate_hz, &self.mix),
            writer,
        ));
        Ok(())
    }

    fn tick(&mut self, snapshot: &Snapshot, step_s: f64, paused: bool) -> Result<()> {
        if let Some((builder, synth, writer)) = &mut self.state {
            let frame = builder.frame(snapshot, step_s, paused);
            synth.step(&frame, step_s, &mut |samples| writer.write(samples))?;
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<()> {
        if let Some((_, _, writer)) = self.state.take() {
            writer.finish()?;
        }
        Ok(())
    }
}

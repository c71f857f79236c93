//! `gripline headless` with what a drive sends out beside the physics: the sound rendered to
//! a WAV file by the window's synthesiser, and telemetry out to the destinations asked for.

use std::path::PathBuf;

use anyhow::Result;
use gripline_audio::WavFormat;
use gripline_config::AudioSettings;
use gripline_sim::headless::HeadlessOptions;
use gripline_sim::observer::{ObserverGroup, TickObserver};
use gripline_sim::telemetry_out::{TelemetryObserver, TelemetryTargets};

use crate::sound::{WavRecorder, mix_of};

/// The sound of a headless run, rendered to a WAV file.
#[derive(Clone, Debug)]
pub struct AudioOut {
    /// The WAV file to write.
    pub path: PathBuf,
    /// Its sample rate (Hz).
    pub sample_rate_hz: u32,
    /// Its sample format.
    pub format: WavFormat,
}

/// What a headless run sends out beside its telemetry file.
#[derive(Clone, Debug, Default)]
pub struct HeadlessOutputs {
    /// Render the sound to a WAV file.
    pub audio: Option<AudioOut>,
    /// Telemetry out (UDP) destinations.
    pub telemetry: TelemetryTargets,
}

/// Runs `options` with the sound and telemetry `outputs`; returns the run's JSON summary.
///
/// # Errors
/// The run's own errors (loading, scenario, writing files) and a telemetry socket that
/// cannot be opened.
pub fn run(options: &HeadlessOptions, outputs: &HeadlessOutputs) -> Result<serde_json::Value> {
    let mut observers: Vec<Box<dyn TickObserver>> = Vec::new();
    if let Some(audio) = &outputs.audio {
        observers.push(Box::new(WavRecorder::new(
            &audio.path,
            audio.sample_rate_hz,
            audio.format,
            // The volumes a new player hears in the window.
            mix_of(&AudioSettings::default()),
        )));
    }
    if outputs.telemetry.any() {
        let observer = TelemetryObserver::new(outputs.telemetry)
            .map_err(|e| anyhow::anyhow!("telemetry: {e}"))?;
        observers.push(Box::new(observer));
    }
    let observer: Option<Box<dyn TickObserver>> = (!observers.is_empty())
        .then(|| Box::new(ObserverGroup(observers)) as Box<dyn TickObserver>);
    gripline_sim::headless::run_observed(options, observer)
}

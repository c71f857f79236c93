//! Real-time output through `cpal` (ALSA on Linux): a stream on the host's audio thread whose
//! callback runs the [`LiveSynth`]. Opening reports why there is no sound (no device, a
//! device that is gone, a format it cannot play) as an [`OutputError`]; a device lost while
//! playing is reported by [`AudioOutput::lost`]. Either way the simulator runs on, silent.
//!
//! The callback takes the synthesiser with `try_lock`, which never waits: the lock is only
//! held elsewhere while a stream is replaced (another output device), and a callback that
//! meets it then plays silence.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};
use cpal::{FromSample, SampleFormat, SizedSample, StreamConfig};

use crate::alsa_messages::Quiet;
use crate::live::{AudioControls, LiveSynth};

/// Why there is no sound.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// The system has no audio output device.
    #[error("no audio output device")]
    NoDevice,
    /// The device asked for in the settings is not connected.
    #[error("audio output device '{name}' not found (available: {available})")]
    DeviceNotFound {
        /// The device asked for.
        name: String,
        /// The devices there are.
        available: String,
    },
    /// The device refused a configuration or a stream.
    #[error("audio output device '{device}': {message}")]
    Device {
        /// The device.
        device: String,
        /// What it said.
        message: String,
    },
}

/// Samples rendered per synthesiser call inside the callback (any callback size works).
const CHUNK_FRAMES: usize = 512;

/// The callback period asked for where the device lets us choose (s): 10 ms, so that the
/// sound lags the physics by about 10 ms of ticks plus the device's two periods, under the
/// 30 ms a driver can hear. Devices that do not say what they accept keep their default.
pub const TARGET_PERIOD_S: f64 = 0.010;

/// What the callbacks report back.
#[derive(Debug, Default)]
struct StreamStatus {
    lost: AtomicBool,
    message: Mutex<Option<String>>,
    /// Last callback-to-playback delay the host predicted (µs).
    latency_us: AtomicU64,
    callbacks: AtomicU64,
}

/// An open output stream (see the module docs). Dropping it stops the sound.
pub struct AudioOutput {
    /// Held, never read: dropping it stops the sound.
    _stream: cpal::Stream,
    device: String,
    config: StreamConfig,
    status: Arc<StreamStatus>,
}

impl std::fmt::Debug for AudioOutput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AudioOutput")
            .field("device", &self.device)
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

/// The names of the output devices of the default host.
pub fn output_device_names() -> Vec<String> {
    let _quiet = Quiet::new();
    let host = cpal::default_host();
    host.output_devices()
        .map(|devices| devices.map(|d| d.to_string()).collect())
        .unwrap_or_default()
}

/// The sample rate the output would run at for `device` (the default one for `None`).
///
/// # Errors
/// As [`AudioOutput::open`].
pub fn output_sample_rate_hz(device: Option<&str>) -> Result<u32, OutputError> {
    let _quiet = Quiet::new();
    let device = find_device(device)?;
    let name = device.to_string();
    device
        .default_output_config()
        .map(|c| c.sample_rate())
        .map_err(|e| OutputError::Device {
            device: name,
            message: e.to_string(),
        })
}

fn find_device(name: Option<&str>) -> Result<cpal::Device, OutputError> {
    let host = cpal::default_host();
    match name {
        None => host.default_output_device().ok_or(OutputError::NoDevice),
        Some(name) => {
            let devices: Vec<cpal::Device> = host
                .output_devices()
                .map(Iterator::collect)
                .unwrap_or_default();
            let available = devices
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ");
            devices
                .into_iter()
                .find(|d| d.to_string() == name)
                .ok_or_else(|| OutputError::DeviceNotFound {
                    name: name.to_owned(),
                    available: if available.is_empty() {
                        "none".to_owned()
                    } else {
                        available
                    },
                })
        }
    }
}

impl AudioOutput {
    /// Opens `device` (the system's default for `None`) at its default configuration and
    /// starts playing `synth` with the volumes of `controls`. The synthesiser must have been
    /// made for the device's rate ([`output_sample_rate_hz`]).
    ///
    /// # Errors
    /// [`OutputError`] naming why there will be no sound.
    pub fn open(
        device: Option<&str>,
        synth: &Arc<Mutex<LiveSynth>>,
        controls: &Arc<AudioControls>,
    ) -> Result<Self, OutputError> {
        let quiet = Quiet::new();
        let device = find_device(device)?;
        let name = device.to_string();
        // The device's words, with ALSA's last complaint when it had one.
        let fail = |message: String| OutputError::Device {
            device: name.clone(),
            message: match quiet.last_message() {
                Some(alsa) => format!("{} (ALSA: {alsa})", message.trim_end_matches('.')),
                None => message,
            },
        };
        let supported = device
            .default_output_config()
            .map_err(|e| fail(e.to_string()))?;
        let format = supported.sample_format();
        if !matches!(
            format,
            SampleFormat::F32
                | SampleFormat::I16
                | SampleFormat::U16
                | SampleFormat::I32
                | SampleFormat::F64
        ) {
            return Err(fail(format!("sample format {format} is not supported")));
        }
        let mut config: StreamConfig = supported.config();
        if let cpal::SupportedBufferSize::Range { min, max } = *supported.buffer_size() {
            let target = (TARGET_PERIOD_S * f64::from(config.sample_rate)).round() as u32;
            config.buffer_size = cpal::BufferSize::Fixed(target.clamp(min, max.max(min)));
        }
        let status = Arc::new(StreamStatus::default());
        let build_with = |config: &StreamConfig| match format {
            SampleFormat::F32 => build::<f32>(&device, config, synth, controls, &status),
            SampleFormat::I16 => build::<i16>(&device, config, synth, controls, &status),
            SampleFormat::U16 => build::<u16>(&device, config, synth, controls, &status),
            SampleFormat::I32 => build::<i32>(&device, config, synth, controls, &status),
            SampleFormat::F64 => build::<f64>(&device, config, synth, controls, &status),
            _ => Err(cpal::ErrorKind::UnsupportedConfig.into()),
        };
        let stream = match build_with(&config) {
            Ok(stream) => stream,
            // A device that refuses the period it advertised gets its own default.
            Err(_) if config.buffer_size != cpal::BufferSize::Default => {
                config.buffer_size = cpal::BufferSize::Default;
                build_with(&config).map_err(|e| fail(e.to_string()))?
            }
            Err(e) => return Err(fail(e.to_string())),
        };
        stream.play().map_err(|e| fail(e.to_string()))?;
        Ok(Self {
            _stream: stream,
            device: name,
            config,
            status,
        })
    }

    /// One line describing the stream: device, rate, channels.
    pub fn describe(&self) -> String {
        let period = match self.config.buffer_size {
            cpal::BufferSize::Fixed(frames) => format!(
                ", {frames}-frame periods ({:.1} ms)",
                f64::from(frames) * 1000.0 / f64::from(self.config.sample_rate)
            ),
            cpal::BufferSize::Default => ", the device's default period".to_owned(),
        };
        format!(
            "{}, {} Hz, {} channel(s){period}",
            self.device, self.config.sample_rate, self.config.channels
        )
    }

    /// The device's name.
    pub fn device(&self) -> &str {
        &self.device
    }

    /// The host's predicted delay from the callback to the speaker (ms), once it has played.
    pub fn callback_latency_ms(&self) -> Option<f64> {
        (self.status.callbacks.load(Ordering::Relaxed) > 0)
            .then(|| self.status.latency_us.load(Ordering::Relaxed) as f64 / 1000.0)
    }

    /// Why the device stopped, once it has been lost (unplugged, its server gone).
    pub fn lost(&self) -> Option<String> {
        if !self.status.lost.load(Ordering::Relaxed) {
            return None;
        }
        let message = self
            .status
            .message
            .lock()
            .ok()
            .and_then(|m| m.clone())
            .unwrap_or_else(|| "stream error".to_owned());
        Some(message)
    }
}

fn build<T>(
    device: &cpal::Device,
    config: &StreamConfig,
    synth: &Arc<Mutex<LiveSynth>>,
    controls: &Arc<AudioControls>,
    status: &Arc<StreamStatus>,
) -> Result<cpal::Stream, cpal::Error>
where
    T: SizedSample + FromSample<f32>,
{
    let channels = usize::from(config.channels.max(1));
    let synth = Arc::clone(synth);
    let controls = Arc::clone(controls);
    let data_status = Arc::clone(status);
    let error_status = Arc::clone(status);
    let mut mono = [0.0f32; CHUNK_FRAMES];
    device.build_output_stream(
        *config,
        move |data: &mut [T], info: &cpal::OutputCallbackInfo| {
            let t = info.timestamp();
            let delay = t.playback.saturating_duration_since(t.callback);
            #[allow(clippy::cast_possible_truncation)]
            data_status
                .latency_us
                .store(delay.as_micros() as u64, Ordering::Relaxed);
            data_status.callbacks.fetch_add(1, Ordering::Relaxed);
            let mix = controls.get();
            let Ok(mut synth) = synth.try_lock() else {
                data.fill(T::EQUILIBRIUM);
                return;
            };
            for frames in data.chunks_mut(CHUNK_FRAMES * channels) {
                let n = frames.len() / channels;
                synth.fill(&mut mono[..n], &mix);
                for (frame, &x) in frames.chunks_mut(channels).zip(&mono[..n]) {
                    frame.fill(T::from_sample(x));
                }
            }
        },
        move |error: cpal::Error| {
            use cpal::ErrorKind;
            match error.kind() {
                // Under-runs and device-route changes are not the end of the stream.
                ErrorKind::Xrun | ErrorKind::DeviceChanged | ErrorKind::RealtimeDenied => {}
                _ => {
                    if let Ok(mut m) = error_status.message.lock() {
                        *m = Some(error.to_string());
                    }
                    error_status.lost.store(true, Ordering::Relaxed);
                }
            }
        },
        None,
    )
}

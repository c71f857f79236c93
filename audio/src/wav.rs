//! WAV files: a streaming writer (mono, 16-bit PCM or 32-bit float) whose sizes are filled in
//! when it finishes, and a reader of the same formats for analysis.

use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// Sample format of a WAV file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WavFormat {
    /// 16-bit signed PCM (dithered by rounding; the limiter keeps samples inside full scale).
    #[default]
    Pcm16,
    /// 32-bit IEEE float.
    Float32,
}

impl WavFormat {
    fn bytes_per_sample(self) -> u16 {
        match self {
            WavFormat::Pcm16 => 2,
            WavFormat::Float32 => 4,
        }
    }

    fn format_tag(self) -> u16 {
        match self {
            WavFormat::Pcm16 => 1,
            WavFormat::Float32 => 3,
        }
    }
}

/// A WAV file's problems.
#[derive(Debug, thiserror::Error)]
pub enum WavError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the OS said.
        source: std::io::Error,
    },
    /// The file is not a WAV file this reader knows.
    #[error("{path}: {message}")]
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
}

/// Writes a mono WAV file sample block by sample block.
#[derive(Debug)]
pub struct WavWriter {
    path: PathBuf,
    file: BufWriter<File>,
    format: WavFormat,
    samples: u64,
}

/// The largest data chunk a WAV file can describe (bytes).
const MAX_DATA_BYTES: u64 = u32::MAX as u64 - 36;

impl WavWriter {
    /// Creates `path` for `sample_rate_hz` in `format`.
    ///
    /// # Errors
    /// [`WavError::Io`] when the file cannot be created.
    pub fn create(path: &Path, sample_rate_hz: u32, format: WavFormat) -> Result<Self, WavError> {
        let io = |source| WavError::Io {
            path: path.to_owned(),
            source,
        };
        let mut file = BufWriter::new(File::create(path).map_err(io)?);
        let bytes = format.bytes_per_sample();
        let mut header = Vec::with_capacity(44);
        header.extend_from_slice(b"RIFF");
        header.extend_from_slice(&0u32.to_le_bytes());
        header.extend_from_slice(b"WAVEfmt ");
        header.extend_from_slice(&16u32.to_le_bytes());
        header.extend_from_slice(&format.format_tag().to_le_bytes());
        header.extend_from_slice(&1u16.to_le_bytes()); // mono
        header.extend_from_slice(&sample_rate_hz.to_le_bytes());
        header.extend_from_slice(&(sample_rate_hz * u32::from(bytes)).to_le_bytes());
        header.extend_from_slice(&bytes.to_le_bytes()); // block align
        header.extend_from_slice(&(bytes * 8).to_le_bytes());
        header.extend_from_slice(b"data");
        header.extend_from_slice(&0u32.to_le_bytes());
        file.write_all(&header).map_err(io)?;
        Ok(Self {
            path: path.to_owned(),
            file,
            format,
            samples: 0,
        })
    }

    /// Appends `samples` (each clamped to full scale; NaN written as silence).
    ///
    /// # Errors
    /// [`WavError::Io`] on a write error, [`WavError::Format`] past the 4 GiB a WAV file
    /// can hold.
    pub fn write(&mut self, samples: &[f32]) -> Result<(), WavError> {
        let bytes = u64::from(self.format.bytes_per_sample());
        if (self.samples + samples.len() as u64) * bytes > MAX_DATA_BYTES {
            return Err(WavError::Format {
                path: self.path.clone(),
                message: "the sound is longer than a WAV file can hold (4 GiB)".to_owned(),
            });
        }
        for &x in samples {
            let x = if x.is_finite() {
                x.clamp(-1.0, 1.0)
            } else {
                0.0
            };
            let result = match self.format {
                WavFormat::Pcm16 => {
                    #[allow(clippy::cast_possible_truncation)]
                    let v = (x * 32767.0).round() as i16;
                    self.file.write_all(&v.to_le_bytes())
                }
                WavFormat::Float32 => self.file.write_all(&x.to_le_bytes()),
            };
            result.map_err(|source| WavError::Io {
                path: self.path.clone(),
                source,
            })?;
        }
        self.samples += samples.len() as u64;
        Ok(())
    }

    /// Samples written so far.
    pub fn samples(&self) -> u64 {
        self.samples
    }

    /// Fills in the sizes and closes the file.
    ///
    /// # Errors
    /// [`WavError::Io`] when the file cannot be completed.
    pub fn finish(mut self) -> Result<(), WavError> {
        let io = |source| WavError::Io {
            path: self.path.clone(),
            source,
        };
        let data = self.samples * u64::from(self.format.bytes_per_sample());
        #[allow(clippy::cast_possible_truncation)]
        let (riff, data) = ((data + 36) as u32, data as u32);
        self.file.seek(SeekFrom::Start(4)).map_err(io)?;
        self.file.write_all(&riff.to_le_bytes()).map_err(io)?;
        self.file.seek(SeekFrom::Start(40)).map_err(io)?;
        self.file.write_all(&data.to_le_bytes()).map_err(io)?;
        self.file.flush().map_err(io)
    }
}

/// A WAV file's samples.
#[derive(Clone, Debug, PartialEq)]
pub struct WavData {
    /// Sample rate (Hz).
    pub sample_rate_hz: u32,
    /// The first channel's samples in `[-1, 1]`.
    pub samples: Vec<f32>,
}

/// Reads the first channel of a 16-bit PCM or 32-bit float WAV file.
///
/// # Errors
/// [`WavError::Io`] when it cannot be read, [`WavError::Format`] when it is not such a file.
pub fn read_wav(path: &Path) -> Result<WavData, WavError> {
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(|source| WavError::Io {
            path: path.to_owned(),
            source,
        })?;
    parse_wav(&bytes).map_err(|message| WavError::Format {
        path: path.to_owned(),
        message,
    })
}

fn parse_wav(bytes: &[u8]) -> Result<WavData, String> {
    let u16_at = |i: usize| -> Result<u16, String> {
        bytes
            .get(i..i + 2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .ok_or_else(|| "truncated".to_owned())
    };
    let u32_at = |i: usize| -> Result<u32, String> {
        bytes
            .get(i..i + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .ok_or_else(|| "truncated".to_owned())
    };
    if bytes.get(0..4) != Some(b"RIFF") || bytes.get(8..12) != Some(b"WAVE") {
        return Err("not a RIFF/WAVE file".to_owned());
    }
    let mut at = 12;
    let mut format: Option<(u16, u16, u32, u16)> = None;
    while at + 8 <= bytes.len() {
        let id = &bytes[at..at + 4];
        let size = u32_at(at + 4)? as usize;
        let body = at + 8;
        let end = body.checked_add(size).ok_or("chunk size overflows")?;
        if id == b"fmt " {
            format = Some((
                u16_at(body)?,
                u16_at(body + 2)?,
                u32_at(body + 4)?,
                u16_at(body + 14)?,
            ));
        } else if id == b"data" {
            let (tag, channels, rate, bits) = format.ok_or("data before the fmt chunk")?;
            let data = bytes.get(body..end.min(bytes.len())).unwrap_or(&[]);
            let channels = usize::from(channels.max(1));
            let samples = match (tag, bits) {
                (1, 16) => data
                    .chunks_exact(2 * channels)
                    .map(|c| f32::from(i16::from_le_bytes([c[0], c[1]])) / 32767.0)
                    .collect(),
                (3, 32) => data
                    .chunks_exact(4 * channels)
                    .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect(),
                _ => return Err(format!("unsupported format {tag} with {bits} bits")),
            };
            return Ok(WavData {
                sample_rate_hz: rate,
                samples,
            });
        }
        at = end + (size & 1);
    }
    Err("no data chunk".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_formats_round_trip_and_garbage_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let signal: Vec<f32> = (0..1000).map(|i| ((i as f32) * 0.01).sin() * 0.9).collect();
        for (format, tolerance) in [(WavFormat::Pcm16, 1.0 / 32767.0), (WavFormat::Float32, 0.0)] {
            let path = dir.path().join("x.wav");
            let mut w = WavWriter::create(&path, 48_000, format).unwrap();
            w.write(&signal[..600]).unwrap();
            w.write(&signal[600..]).unwrap();
            w.finish().unwrap();
            let back = read_wav(&path).unwrap();
            assert_eq!(back.sample_rate_hz, 48_000);
            assert_eq!(back.samples.len(), signal.len());
            for (a, b) in back.samples.iter().zip(&signal) {
                assert!((a - b).abs() <= tolerance, "{a} {b}");
            }
            let len = std::fs::metadata(&path).unwrap().len();
            assert_eq!(len, 44 + 1000 * u64::from(format.bytes_per_sample()));
        }
        let bad = dir.path().join("bad.wav");
        std::fs::write(&bad, b"RIFF\0\0\0\0WAVEjunk").unwrap();
        assert!(matches!(read_wav(&bad), Err(WavError::Format { .. })));
        assert!(matches!(
            read_wav(&dir.path().join("missing.wav")),
            Err(WavError::Io { .. })
        ));
    }
}

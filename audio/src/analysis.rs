//! Offline analysis of rendered sound, for the tests and the spectrogram tool: the spectrum
//! of a Hann-windowed stretch on any frequency grid (a direct DFT: exact bins where an FFT
//! would need zero padding), the strongest component in a band, RMS level, a spectrogram,
//! and the largest step between neighbouring samples.

use std::f64::consts::TAU;

/// Magnitude of the Hann-windowed DFT of `samples` at `frequency_hz`.
pub fn magnitude_at(samples: &[f32], sample_rate_hz: f64, frequency_hz: f64) -> f64 {
    let n = samples.len();
    if n < 2 {
        return 0.0;
    }
    let w = TAU * frequency_hz / sample_rate_hz;
    let (step_sin, step_cos) = w.sin_cos();
    let (mut re, mut im) = (0.0f64, 0.0f64);
    let (mut c, mut s) = (1.0f64, 0.0f64);
    let window_step = TAU / (n - 1) as f64;
    for (i, &x) in samples.iter().enumerate() {
        let hann = 0.5 - 0.5 * (window_step * i as f64).cos();
        let v = f64::from(x) * hann;
        re += v * c;
        im -= v * s;
        let next_c = c * step_cos - s * step_sin;
        s = s * step_cos + c * step_sin;
        c = next_c;
    }
    re.hypot(im) * 2.0 / (n as f64 * 0.5)
}

/// The strongest component of `samples` between `low_hz` and `high_hz` searched on a grid of
/// `step_hz` and refined by a parabola through the best bin and its neighbours: (frequency in
/// Hz, amplitude).
pub fn dominant_frequency_hz(
    samples: &[f32],
    sample_rate_hz: f64,
    low_hz: f64,
    high_hz: f64,
    step_hz: f64,
) -> Option<(f64, f64)> {
    if !(step_hz > 0.0 && high_hz > low_hz) {
        return None;
    }
    let bins = ((high_hz - low_hz) / step_hz).floor() as usize + 1;
    let mags: Vec<f64> = (0..bins)
        .map(|k| magnitude_at(samples, sample_rate_hz, low_hz + k as f64 * step_hz))
        .collect();
    let (best, &peak) = mags.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1))?;
    let mut offset = 0.0;
    if best > 0 && best + 1 < bins {
        let (a, b, c) = (mags[best - 1], peak, mags[best + 1]);
        let denominator = a - 2.0 * b + c;
        if denominator.abs() > 1e-30 {
            offset = (0.5 * (a - c) / denominator).clamp(-0.5, 0.5);
        }
    }
    Some((low_hz + (best as f64 + offset) * step_hz, peak))
}

/// Root-mean-square level.
pub fn rms(samples: &[f32]) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    (samples.iter().map(|&x| f64::from(x).powi(2)).sum::<f64>() / samples.len() as f64).sqrt()
}

/// The largest absolute difference between neighbouring samples.
pub fn largest_step(samples: &[f32]) -> f32 {
    samples
        .windows(2)
        .map(|w| (w[1] - w[0]).abs())
        .fold(0.0, f32::max)
}

/// A spectrogram: one column per `hop` samples of `window` samples, each column the level in
/// dB (relative to full scale) at `rows` frequencies spread evenly up to `max_hz`.
pub fn spectrogram(
    samples: &[f32],
    sample_rate_hz: f64,
    window: usize,
    hop: usize,
    rows: usize,
    max_hz: f64,
) -> Vec<Vec<f32>> {
    if window < 2 || hop == 0 || samples.len() < window {
        return Vec::new();
    }
    (0..=(samples.len() - window) / hop)
        .map(|col| {
            let stretch = &samples[col * hop..col * hop + window];
            (0..rows)
                .map(|r| {
                    let hz = max_hz * (r as f64 + 0.5) / rows as f64;
                    let m = magnitude_at(stretch, sample_rate_hz, hz);
                    #[allow(clippy::cast_possible_truncation)]
                    let db = (20.0 * m.max(1e-9).log10()) as f32;
                    db
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_a_sine_among_noise_and_reads_its_amplitude() {
        let fs = 48_000.0;
        let mut noise = crate::dsp::noise::WhiteNoise::new(3);
        let x: Vec<f32> = (0..8192)
            .map(|i| {
                0.5 * (TAU * 123.4 * f64::from(i) / fs).sin() as f32
                    + 0.2 * (TAU * 190.0 * f64::from(i) / fs).sin() as f32
                    + 0.05 * noise.sample()
            })
            .collect();
        let (hz, amplitude) = dominant_frequency_hz(&x, fs, 20.0, 400.0, 1.0).unwrap();
        assert!((hz - 123.4).abs() < 0.3, "{hz}");
        assert!((amplitude - 0.5).abs() < 0.02, "{amplitude}");
        assert!((rms(&[1.0, -1.0]) - 1.0).abs() < 1e-12);
        assert!((largest_step(&[0.0, 0.5, 0.2]) - 0.5).abs() < 1e-6);
    }
}

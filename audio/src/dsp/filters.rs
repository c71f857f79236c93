//! Filters: a one-pole low-pass and the RBJ "Audio EQ Cookbook" biquads (low-pass,
//! high-pass, band-pass with 0 dB peak), transposed direct form II. Coefficients are set
//! per block, the filtering runs per sample.

use std::f32::consts::PI;

use super::flush_denormal;

/// First-order low-pass `y += a (x - y)`.
#[derive(Clone, Copy, Debug, Default)]
pub struct OnePole {
    a: f32,
    y: f32,
}

impl OnePole {
    /// A low-pass with its -3 dB point at `cutoff_hz`.
    pub fn low_pass(cutoff_hz: f32, sample_rate_hz: f32) -> Self {
        let mut f = Self::default();
        f.set_cutoff(cutoff_hz, sample_rate_hz);
        f
    }

    /// Moves the cutoff (clamped below Nyquist).
    pub fn set_cutoff(&mut self, cutoff_hz: f32, sample_rate_hz: f32) {
        let fc = cutoff_hz.clamp(1.0, 0.45 * sample_rate_hz);
        self.a = 1.0 - (-2.0 * PI * fc / sample_rate_hz).exp();
    }

    /// Filters one sample.
    #[inline]
    pub fn process(&mut self, x: f32) -> f32 {
        self.y = flush_denormal(self.y + self.a * (x - self.y));
        self.y
    }
}

/// Which response a [`Biquad`] has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Response {
    /// Second-order low-pass.
    LowPass,
    /// Second-order high-pass.
    HighPass,
    /// Band-pass with 0 dB gain at the centre.
    BandPass,
}

/// A second-order section (transposed direct form II).
#[derive(Clone, Copy, Debug)]
pub struct Biquad {
    response: Response,
    b: [f32; 3],
    a: [f32; 2],
    z: [f32; 2],
}

impl Biquad {
    /// A filter of `response` at `frequency_hz` with quality `q`.
    pub fn new(response: Response, frequency_hz: f32, q: f32, sample_rate_hz: f32) -> Self {
        let mut f = Self {
            response,
            b: [0.0; 3],
            a: [0.0; 2],
            z: [0.0; 2],
        };
        f.tune(frequency_hz, q, sample_rate_hz);
        f
    }

    /// Moves the filter's frequency (clamped to 10 Hz .. 0.45 of the sample rate) and Q.
    pub fn tune(&mut self, frequency_hz: f32, q: f32, sample_rate_hz: f32) {
        let f0 = frequency_hz.clamp(10.0, 0.45 * sample_rate_hz);
        let q = q.clamp(0.1, 50.0);
        let w0 = 2.0 * PI * f0 / sample_rate_hz;
        let (sin, cos) = w0.sin_cos();
        let alpha = sin / (2.0 * q);
        let a0 = 1.0 + alpha;
        let b = match self.response {
            Response::LowPass => [0.5 * (1.0 - cos), 1.0 - cos, 0.5 * (1.0 - cos)],
            Response::HighPass => [0.5 * (1.0 + cos), -(1.0 + cos), 0.5 * (1.0 + cos)],
            Response::BandPass => [alpha, 0.0, -alpha],
        };
        self.b = [b[0] / a0, b[1] / a0, b[2] / a0];
        self.a = [-2.0 * cos / a0, (1.0 - alpha) / a0];
    }

    /// Filters one sample.
    #[inline]
    pub fn process(&mut self, x: f32) -> f32 {
        let y = self.b[0] * x + self.z[0];
        self.z[0] = flush_denormal(self.b[1] * x - self.a[0] * y + self.z[1]);
        self.z[1] = flush_denormal(self.b[2] * x - self.a[1] * y);
        y
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Steady-state gain of `f` for a sine at `hz`.
    fn gain(mut f: Biquad, hz: f32, fs: f32) -> f32 {
        let mut peak = 0.0f32;
        for n in 0..(fs as usize) {
            let y = f.process((2.0 * PI * hz * n as f32 / fs).sin());
            if n > fs as usize / 2 {
                peak = peak.max(y.abs());
            }
        }
        peak
    }

    #[test]
    fn band_pass_passes_its_centre_and_cuts_a_decade_away() {
        let fs = 48_000.0;
        let f = Biquad::new(Response::BandPass, 1000.0, 2.0, fs);
        assert!((gain(f, 1000.0, fs) - 1.0).abs() < 0.02);
        // A Q of 2 band-pass is 1 / sqrt(1 + Q² (f/f0 - f0/f)²) a decade off: about 0.05.
        let off = gain(f, 100.0, fs);
        assert!(off < 0.06 && off > 0.04, "{off}");
    }

    #[test]
    fn low_and_high_pass_are_3_db_down_at_the_corner_with_q_0_707() {
        let fs = 48_000.0;
        let q = std::f32::consts::FRAC_1_SQRT_2;
        let lp = Biquad::new(Response::LowPass, 500.0, q, fs);
        let hp = Biquad::new(Response::HighPass, 500.0, q, fs);
        for f in [lp, hp] {
            assert!((gain(f, 500.0, fs) - q).abs() < 0.02);
        }
        assert!(gain(lp, 50.0, fs) > 0.99 && gain(hp, 5000.0, fs) > 0.99);
    }
}

//! Deterministic noise: the same seed gives the same sound, so offline renders repeat
//! exactly.

/// White noise in `[-1, 1)` from a xorshift64* generator.
#[derive(Clone, Copy, Debug)]
pub struct WhiteNoise {
    state: u64,
}

impl WhiteNoise {
    /// A generator started from `seed` (any value; zero is replaced).
    pub fn new(seed: u64) -> Self {
        Self {
            state: if seed == 0 {
                0x9E37_79B9_7F4A_7C15
            } else {
                seed
            },
        }
    }

    /// The next sample in `[-1, 1)`.
    #[inline]
    pub fn sample(&mut self) -> f32 {
        let mut x = self.state;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.state = x;
        let bits = x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 40; // 24 random bits
        #[allow(clippy::cast_precision_loss)]
        let unit = bits as f32 / (1u64 << 24) as f32;
        unit * 2.0 - 1.0
    }

    /// The next sample in `[0, 1)`.
    #[inline]
    pub fn next_unit(&mut self) -> f32 {
        0.5 * (self.sample() + 1.0)
    }
}

/// Pink (1/f) noise: white noise through Paul Kellet's economy three-pole filter, accurate
/// to about 0.5 dB above 50 Hz at 44.1 kHz.
#[derive(Clone, Copy, Debug)]
pub struct PinkNoise {
    white: WhiteNoise,
    b: [f32; 3],
}

impl PinkNoise {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Self {
        Self {
            white: WhiteNoise::new(seed),
            b: [0.0; 3],
        }
    }

    /// The next sample, roughly within `[-1, 1]`.
    #[inline]
    pub fn sample(&mut self) -> f32 {
        let w = self.white.sample();
        self.b[0] = 0.997_65 * self.b[0] + w * 0.099_046;
        self.b[1] = 0.963 * self.b[1] + w * 0.296_516_4;
        self.b[2] = 0.57 * self.b[2] + w * 1.052_691_3;
        (self.b[0] + self.b[1] + self.b[2] + w * 0.1848) * 0.25
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn white_noise_is_centred_bounded_and_repeatable() {
        let mut a = WhiteNoise::new(7);
        let mut b = WhiteNoise::new(7);
        let mut sum = 0.0f64;
        let mut square = 0.0f64;
        for _ in 0..100_000 {
            let x = a.sample();
            assert_eq!(x.to_bits(), b.sample().to_bits());
            assert!((-1.0..1.0).contains(&x));
            sum += f64::from(x);
            square += f64::from(x * x);
        }
        // Uniform on [-1, 1): mean 0, mean square 1/3.
        assert!((sum / 1e5).abs() < 0.01);
        assert!((square / 1e5 - 1.0 / 3.0).abs() < 0.01);
    }
}

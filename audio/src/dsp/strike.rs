//! The envelope of a percussive event (a thump, a clunk, an impact): a fast attack so that it
//! never starts with a step, then an exponential decay. A new strike while one rings raises
//! the level, it does not restart it.

use super::flush_denormal;

/// A percussive envelope (see the module docs).
#[derive(Clone, Copy, Debug)]
pub struct Strike {
    target: f32,
    level: f32,
    attack: f32,
    decay: f32,
}

impl Strike {
    /// An envelope rising in about `attack_s` and decaying with time constant `decay_s`.
    pub fn new(attack_s: f32, decay_s: f32, sample_rate_hz: f32) -> Self {
        Self {
            target: 0.0,
            level: 0.0,
            attack: 1.0 - (-1.0 / (attack_s * sample_rate_hz).max(1.0)).exp(),
            decay: (-1.0 / (decay_s * sample_rate_hz).max(1.0)).exp(),
        }
    }

    /// Strikes with `strength` (0..1; ignored when weaker than what still rings).
    pub fn trigger(&mut self, strength: f32) {
        if strength.is_finite() {
            self.target = self.target.max(strength.clamp(0.0, 1.0));
        }
    }

    /// Whether anything is still audible.
    pub fn active(&self) -> bool {
        self.target > 1e-4 || self.level > 1e-4
    }

    /// The level of the next sample.
    #[inline]
    pub fn advance(&mut self) -> f32 {
        self.level = flush_denormal(self.level + (self.target - self.level) * self.attack);
        self.target = flush_denormal(self.target * self.decay);
        self.level
    }
}

//! Kerb rumble: while a front tyre runs on a kerb, a ripple at the rate the kerb's stripes
//! pass under it. Kerb stones are ridged about every [`STRIPE_PITCH_M`], so the frequency is
//! speed over pitch (20 m/s gives 40 Hz), kept inside what a wheel can render
//! ([`MIN_HZ`]..[`MAX_HZ`]); the amplitude grows with speed up to [`FULL_SPEED_M_S`] and
//! with the number of front tyres on the kerb.

use super::vibration::Vibration;

/// Distance between kerb ridges (m).
pub const STRIPE_PITCH_M: f64 = 0.5;
/// Lowest rumble frequency (Hz).
pub const MIN_HZ: f64 = 20.0;
/// Highest rumble frequency (Hz): direct-drive bases render up to a few hundred hertz,
/// geared wheels far less.
pub const MAX_HZ: f64 = 80.0;
/// Speed from which the rumble is at full amplitude (m/s).
pub const FULL_SPEED_M_S: f64 = 15.0;

/// The kerb rumble's state.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct KerbRumble {
    vibration: Vibration,
}

impl KerbRumble {
    /// One tick: `on_kerb` front tyres (0 to 2) on a kerb at `speed_m_s`, strength `nm`.
    pub fn step(&mut self, on_kerb: u32, speed_m_s: f64, nm: f64, dt: f64) -> f64 {
        let speed = if speed_m_s.is_finite() {
            speed_m_s.abs()
        } else {
            0.0
        };
        let share = f64::from(on_kerb.min(2)) / 2.0;
        let amplitude = nm * share * (speed / FULL_SPEED_M_S).min(1.0);
        let hz = (speed / STRIPE_PITCH_M).clamp(MIN_HZ, MAX_HZ);
        self.vibration.step(amplitude, hz, dt)
    }

    /// Silent.
    pub fn reset(&mut self) {
        self.vibration.reset();
    }
}

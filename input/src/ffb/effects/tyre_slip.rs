//! Vibrations from the tyres' slip: scrub as the front tyres pass their peak slip angle,
//! lock-up of a front wheel under braking, and wheelspin of a driven wheel.
//!
//! Thresholds are relative to the car's own tyres (their peak slip angle and slip ratio at
//! static load, from `SteeringFeel`), so a slick and a road tyre both start to scrub where
//! their grip peaks:
//! - scrub starts at [`SCRUB_START`] of the peak slip angle and is full at
//!   [`SCRUB_FULL`] of it, at [`SCRUB_HZ`];
//! - lock-up starts when the slip ratio is below `-max(0.25, 2.5 x peak)` and is full at -1
//!   (locked), at [`LOCKUP_HZ`], only above [`MIN_SPEED_M_S`];
//! - wheelspin starts when the slip ratio exceeds `max(0.25, 2.5 x peak)` and is full at
//!   twice that, at [`WHEELSPIN_HZ`], only above [`MIN_SPEED_M_S`] (a standing start is
//!   all slip and no vibration at first).

use super::vibration::Vibration;

/// Share of the peak slip angle where scrub starts.
pub const SCRUB_START: f64 = 0.9;
/// Share of the peak slip angle where scrub is full.
pub const SCRUB_FULL: f64 = 1.4;
/// Scrub frequency (Hz).
pub const SCRUB_HZ: f64 = 45.0;
/// Lock-up frequency (Hz).
pub const LOCKUP_HZ: f64 = 30.0;
/// Wheelspin frequency (Hz).
pub const WHEELSPIN_HZ: f64 = 18.0;
/// Below this speed neither lock-up nor wheelspin vibrates (m/s).
pub const MIN_SPEED_M_S: f64 = 2.0;

/// A ramp from 0 at `start` to 1 at `full`.
fn ramp(x: f64, start: f64, full: f64) -> f64 {
    if !(x.is_finite() && full > start) {
        return 0.0;
    }
    ((x - start) / (full - start)).clamp(0.0, 1.0)
}

/// Where lock-up and wheelspin start for a tyre peaking at `peak_ratio`.
pub fn slip_threshold(peak_ratio: f64) -> f64 {
    let peak = if peak_ratio.is_finite() {
        peak_ratio.abs()
    } else {
        0.1
    };
    (2.5 * peak).clamp(0.25, 0.9)
}

/// Scrub: `alpha_ratio` is the larger front |slip angle| over the peak slip angle.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Scrub {
    vibration: Vibration,
}

impl Scrub {
    /// One tick, strength `nm`.
    pub fn step(&mut self, alpha_ratio: f64, nm: f64, dt: f64) -> f64 {
        let amount = ramp(alpha_ratio, SCRUB_START, SCRUB_FULL);
        self.vibration.step(nm * amount, SCRUB_HZ, dt)
    }

    /// Silent.
    pub fn reset(&mut self) {
        self.vibration.reset();
    }
}

/// Lock-up or wheelspin: a vibration while a wheel's slip ratio is past its threshold in one
/// direction, at speed.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SlipVibration {
    vibration: Vibration,
}

/// Which way a [`SlipVibration`] looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlipKind {
    /// Braking: the most negative slip ratio; full at -1 (locked), at [`LOCKUP_HZ`].
    Lockup,
    /// Driving: the largest slip ratio; full at twice the threshold, at [`WHEELSPIN_HZ`].
    Wheelspin,
}

impl SlipVibration {
    /// One tick of `kind` at `speed_m_s` for a tyre peaking at `peak_ratio`, strength `nm`.
    pub fn step(
        &mut self,
        kind: SlipKind,
        slip_ratio: f64,
        peak_ratio: f64,
        speed_m_s: f64,
        nm: f64,
        dt: f64,
    ) -> f64 {
        let start = slip_threshold(peak_ratio);
        let (slip, full, hz) = match kind {
            SlipKind::Lockup => (-slip_ratio, 1.0, LOCKUP_HZ),
            SlipKind::Wheelspin => (slip_ratio, 2.0 * start, WHEELSPIN_HZ),
        };
        let moving = speed_m_s.is_finite() && speed_m_s.abs() > MIN_SPEED_M_S;
        let amount = if moving { ramp(slip, start, full) } else { 0.0 };
        self.vibration.step(nm * amount, hz, dt)
    }

    /// Silent.
    pub fn reset(&mut self) {
        self.vibration.reset();
    }
}

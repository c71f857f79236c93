//! The soft lock: the torque that stops the physical wheel at the car's steering lock.
//!
//! The physics clamps the steering angle at the car's lock, so past it the car's own column
//! torque no longer changes and, without a stop, the wheel goes limp. The soft lock acts on
//! the *unclamped* angle of the physical wheel: past `lock_rad` a spring rises linearly to
//! `torque_nm` over `ramp_rad` and holds there, pushing back towards the lock, and a damper
//! (`damping_nm_s_per_rad`, active only past the lock) absorbs the wheel's speed so that a
//! wheel thrown into the lock does not bounce off it. Inside the lock it gives exactly zero.
//!
//! Sign convention: angle, speed and torque share the sign of the steering-wheel angle
//! (positive counter-clockwise); the result always opposes the excess or the motion.

use crate::settings::soft_lock::SoftLockSettings;

/// The soft lock's parameters for one car and one user maximum.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SoftLock {
    /// Physical wheel angle where the lock starts (rad each side); infinite for no lock.
    pub lock_rad: f64,
    /// Angle past the lock over which the spring reaches its full torque (rad, > 0).
    pub ramp_rad: f64,
    /// Full spring torque (N·m).
    pub torque_nm: f64,
    /// Damping past the lock (N·m·s/rad).
    pub damping_nm_s_per_rad: f64,
}

impl SoftLock {
    /// No soft lock: always zero.
    pub const OFF: Self = Self {
        lock_rad: f64::INFINITY,
        ramp_rad: 1.0,
        torque_nm: 0.0,
        damping_nm_s_per_rad: 0.0,
    };

    /// The soft lock of `settings` at `lock_rad` (each side), with the user's maximum torque
    /// `max_torque_nm`; [`SoftLock::OFF`] when disabled or the lock is not a positive angle.
    pub fn new(settings: &SoftLockSettings, lock_rad: f64, max_torque_nm: f64) -> Self {
        let finite = |x: f64, d: f64| if x.is_finite() { x } else { d };
        if !(settings.enabled && lock_rad.is_finite() && lock_rad > 0.0) {
            return Self::OFF;
        }
        Self {
            lock_rad,
            ramp_rad: finite(settings.ramp_deg, 3.0).clamp(0.5, 45.0).to_radians(),
            torque_nm: finite(settings.strength, 1.0).clamp(0.0, 1.0)
                * finite(max_torque_nm, 0.0).max(0.0),
            damping_nm_s_per_rad: finite(settings.damping_nm_s_per_rad, 0.0).clamp(0.0, 20.0),
        }
    }

    /// The soft lock's torque (N·m) with the wheel at `angle_rad` moving at `speed_rad_s`
    /// (see the module docs). Non-finite inputs give zero.
    pub fn torque(&self, angle_rad: f64, speed_rad_s: f64) -> f64 {
        if !(angle_rad.is_finite() && speed_rad_s.is_finite()) {
            return 0.0;
        }
        let excess = angle_rad.abs() - self.lock_rad;
        if excess.is_nan() || excess <= 0.0 {
            return 0.0;
        }
        let spring = (excess / self.ramp_rad).min(1.0) * self.torque_nm;
        let torque = -spring.copysign(angle_rad) - self.damping_nm_s_per_rad * speed_rad_s;
        if torque.is_finite() { torque } else { 0.0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lock() -> SoftLock {
        SoftLock::new(&SoftLockSettings::default(), 270f64.to_radians(), 5.0)
    }

    #[test]
    fn zero_inside_the_lock_full_within_the_ramp() {
        let l = lock();
        assert_eq!(l.torque(269f64.to_radians(), 3.0).to_bits(), 0f64.to_bits());
        assert_eq!(
            l.torque(-270f64.to_radians(), -3.0).to_bits(),
            0f64.to_bits()
        );
        // Half-way up the 3° ramp: half the torque, pushing back (negative for a left turn).
        let half = l.torque(271.5f64.to_radians(), 0.0);
        assert!((half + 2.5).abs() < 1e-9, "{half}");
        // Past the ramp: the full torque, both sides.
        assert!((l.torque(280f64.to_radians(), 0.0) + 5.0).abs() < 1e-9);
        assert!((l.torque(-280f64.to_radians(), 0.0) - 5.0).abs() < 1e-9);
    }

    #[test]
    fn damping_opposes_motion_past_the_lock_only() {
        let l = lock();
        let moving_out = l.torque(275f64.to_radians(), 2.0);
        assert!((moving_out - (-5.0 - 1.5 * 2.0)).abs() < 1e-9);
        assert_eq!(l.torque(0.0, 2.0).to_bits(), 0f64.to_bits());
    }

    #[test]
    fn off_and_bad_inputs_are_zero() {
        let off = SoftLock::new(
            &SoftLockSettings {
                enabled: false,
                ..SoftLockSettings::default()
            },
            1.0,
            5.0,
        );
        assert_eq!(off, SoftLock::OFF);
        assert_eq!(off.torque(100.0, 1.0).to_bits(), 0f64.to_bits());
        assert_eq!(
            SoftLock::new(&SoftLockSettings::default(), f64::NAN, 5.0),
            SoftLock::OFF
        );
        assert_eq!(lock().torque(f64::NAN, 0.0).to_bits(), 0f64.to_bits());
        assert_eq!(lock().torque(10.0, f64::INFINITY).to_bits(), 0f64.to_bits());
    }
}

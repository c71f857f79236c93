//! Steering lock settings: how the physical wheel's rotation meets the car's steering lock,
//! and the soft lock force-feedback renders there.
//!
//! A car's steering wheel turns, say, 270° each side (the C5: 540° lock to lock); a
//! direct-drive base turns 1080° or more. Two ways to meet:
//!
//! - [`SteeringLockMode::OneToOne`] (the default): one degree at the wheel is one degree in the
//!   car, so the driver's hands do what the real driver's do, and the wheel stops where the
//!   car's does through the **soft lock**: a stiff spring that ramps in over
//!   [`SoftLockSettings::ramp_deg`] past the lock to [`SoftLockSettings::strength`] of the
//!   user's maximum torque, plus a damper ([`SoftLockSettings::damping_nm_s_per_rad`]) that
//!   keeps a wheel flung into the lock from bouncing off it. rFactor 2, Assetto Corsa, iRacing
//!   (irFFB's bump stops) and `BeamNG` all default to this.
//! - [`SteeringLockMode::WheelToCarLock`]: the wheel's full calibrated rotation is mapped onto
//!   the car's lock (a quicker or slower steering than the real car), for wheels whose rotation
//!   cannot match the car; the soft lock then sits at the wheel's own ends, where the kernel
//!   driver's range stops it anyway.

use gripline_physics::validate::{Validate, Validator};
use serde::{Deserialize, Serialize};

/// How the physical wheel's rotation maps to the car's steering wheel (see the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SteeringLockMode {
    /// One degree at the wheel is one degree in the car; the soft lock stops the wheel at the
    /// car's lock.
    #[default]
    OneToOne,
    /// The wheel's full rotation maps onto the car's lock.
    WheelToCarLock,
}

/// The soft lock at the car's steering lock (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SoftLockSettings {
    /// Render the soft lock at all.
    pub enabled: bool,
    /// Degrees past the lock over which the spring rises to its full torque (3° feels like a
    /// stop, not a wall that kicks).
    pub ramp_deg: f64,
    /// Full spring torque as a fraction of the user's maximum torque (1 = the maximum).
    pub strength: f64,
    /// Damping past the lock (N·m per rad/s of wheel speed): stops a wheel thrown into the
    /// lock from bouncing off the spring.
    pub damping_nm_s_per_rad: f64,
}

impl Default for SoftLockSettings {
    fn default() -> Self {
        Self {
            enabled: true,
            ramp_deg: 3.0,
            strength: 1.0,
            damping_nm_s_per_rad: 1.5,
        }
    }
}

impl Validate for SoftLockSettings {
    fn validate(&self, v: &mut Validator) {
        v.in_range("ramp_deg", self.ramp_deg, 0.5, 45.0);
        v.in_range("strength", self.strength, 0.0, 1.0);
        v.in_range("damping_nm_s_per_rad", self.damping_nm_s_per_rad, 0.0, 20.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_old_files_load() {
        assert!(SoftLockSettings::default().check().is_ok());
        let s: SoftLockSettings = ron::from_str("(ramp_deg: 5.0)").unwrap();
        assert!(s.enabled && (s.ramp_deg - 5.0).abs() < 1e-12);
        assert!(
            SoftLockSettings {
                strength: 2.0,
                ..SoftLockSettings::default()
            }
            .check()
            .is_err()
        );
    }
}

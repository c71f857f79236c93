//! A simulated steering rim for force-feedback tests: an inertia turned by the torque the
//! device really applies — the level the recording backend received, times the device's
//! peak, times the device's own direction — plus a hand, integrated tick by tick, with an
//! end stop at the base's rotation. Its angle goes back to the sim as the wheel's encoder,
//! either straight into `Rig::ffb_tick` or, through [`RimDevice`], as the steering axis
//! events of a real device.

#![allow(dead_code)] // each test file uses its part

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use gripline_input::device::{AxisRange, DeviceId, DeviceInfo, InputBackend, InputEvent};
use gripline_input::ffb::recording::Recording;
use gripline_input::settings::device_identity::{DeviceIdentity, DeviceKind};

/// The rim's axis range (16 bits, like most bases).
pub const RANGE: AxisRange = AxisRange {
    min: -32_767,
    max: 32_767,
};

/// A rim and the motor under it (see the module docs).
#[derive(Clone, Debug)]
pub struct Rim {
    /// Angle (rad, positive counter-clockwise, as the steering wheel's).
    pub angle_rad: f64,
    /// Speed (rad/s).
    pub speed_rad_s: f64,
    /// Rim, rotor and gearing (kg·m²).
    pub inertia_kg_m2: f64,
    /// The base's own viscous friction (N·m·s/rad).
    pub friction_nm_s_per_rad: f64,
    /// The device's peak torque (N·m): the torque of level 1.
    pub peak_nm: f64,
    /// The device's own direction: `true` when a positive level turns it clockwise, i.e.
    /// it needs invert to be driven right.
    pub reversed: bool,
    /// The base's rotation (degrees lock to lock): its end stops.
    pub rotation_deg: f64,
    /// Torque of the hands (N·m), as a function of the rim's angle and speed.
    pub hand: fn(f64, f64) -> f64,
    /// The speed (rad/s) at which the rim first hit an end stop, if it did.
    pub impact_rad_s: Option<f64>,
}

/// No hands on the rim.
pub fn hands_off(_angle_rad: f64, _speed_rad_s: f64) -> f64 {
    0.0
}

impl Rim {
    /// A hands-off 0.05 kg·m² rim on a 1080° base of `peak_nm`, at `angle_deg`, at rest.
    pub fn new(peak_nm: f64, reversed: bool, angle_deg: f64) -> Self {
        Self {
            angle_rad: angle_deg.to_radians(),
            speed_rad_s: 0.0,
            inertia_kg_m2: 0.05,
            friction_nm_s_per_rad: 0.01,
            peak_nm,
            reversed,
            rotation_deg: 1080.0,
            hand: hands_off,
            impact_rad_s: None,
        }
    }

    /// The torque the device applies for `level` (N·m, wheel coordinates).
    pub fn applied_nm(&self, level: f64) -> f64 {
        let sign = if self.reversed { -1.0 } else { 1.0 };
        level * self.peak_nm * sign
    }

    /// One tick of `dt` seconds with the device at `level` (semi-implicit Euler).
    pub fn step(&mut self, level: f64, dt: f64) {
        let torque = self.applied_nm(level) + (self.hand)(self.angle_rad, self.speed_rad_s)
            - self.friction_nm_s_per_rad * self.speed_rad_s;
        self.speed_rad_s += torque / self.inertia_kg_m2 * dt;
        self.angle_rad += self.speed_rad_s * dt;
        let end = (0.5 * self.rotation_deg).to_radians();
        if self.angle_rad.abs() >= end {
            self.angle_rad = end.copysign(self.angle_rad);
            self.impact_rad_s = self.impact_rad_s.or(Some(self.speed_rad_s.abs()));
            self.speed_rad_s = 0.0;
        }
    }

    /// The raw axis value of the angle (devices report positive to the right).
    pub fn raw(&self) -> i32 {
        let half = (0.5 * self.rotation_deg).to_radians();
        let value = (-self.angle_rad / half * f64::from(RANGE.max)).round();
        #[allow(clippy::cast_possible_truncation)]
        let raw = value.clamp(f64::from(RANGE.min), f64::from(RANGE.max)) as i32;
        raw
    }
}

/// The rim as an input device: each poll first moves the rim by the level the recording
/// backend received last (the torque of the tick before), then reports its angle as axis 0.
pub struct RimDevice {
    /// The rim, shared with the test.
    pub rim: Arc<Mutex<Rim>>,
    recording: Recording,
    id: DeviceId,
    identity: DeviceIdentity,
    last_poll: Option<Duration>,
}

impl RimDevice {
    /// The rim `rim` as device `identity`, driven by what `recording` received.
    pub fn new(rim: Arc<Mutex<Rim>>, recording: Recording, identity: DeviceIdentity) -> Self {
        Self {
            rim,
            recording,
            id: DeviceId(11),
            identity,
            last_poll: None,
        }
    }
}

impl InputBackend for RimDevice {
    fn poll(&mut self, now: Duration, out: &mut Vec<InputEvent>) {
        let mut rim = self.rim.lock().unwrap_or_else(PoisonError::into_inner);
        match self.last_poll.replace(now) {
            None => out.push(InputEvent::Connected {
                device: self.id,
                info: DeviceInfo {
                    identity: self.identity.clone(),
                    kind: DeviceKind::Wheel,
                },
            }),
            Some(before) => {
                let level = self.recording.last_level().unwrap_or(0.0);
                rim.step(level, now.saturating_sub(before).as_secs_f64());
            }
        }
        out.push(InputEvent::Axis {
            device: self.id,
            axis: 0,
            value: rim.raw(),
            range: RANGE,
        });
    }
}

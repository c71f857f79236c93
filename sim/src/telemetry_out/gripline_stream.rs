//! Gripline's own telemetry packet: everything the physics knows each tick, per wheel
//! included, for users who want more than OutGauge and OutSim carry. Little-endian, 548
//! bytes in version 2 (version 1 was the first 436); fields are only ever appended (a
//! reader checks `version` and uses `size`), so an older reader reads later packets' first
//! bytes unchanged. The full table, units and a reader in Python are in
//! `docs/telemetry-stream.md`.
//!
//! | offset | field | type |
//! |---|---|---|
//! | 0 | magic `GRPL` | 4 × u8 |
//! | 4 | version (2) | u16 |
//! | 6 | size of this packet (bytes) | u16 |
//! | 8 | sequence number | u32 |
//! | 12 | flags: ABS active, TC active, stalled, shifting, grind (bits 0-4) | u32 |
//! | 16 | simulated time (s) | f64 |
//! | 24 | CG position, world (m) | 3 × f64 |
//! | 48 | orientation `world_from_body` quaternion x, y, z, w | 4 × f32 |
//! | 64 | velocity, world (m/s) | 3 × f32 |
//! | 76 | velocity, body (m/s) | 3 × f32 |
//! | 88 | angular velocity, body: roll, pitch, yaw rate (rad/s) | 3 × f32 |
//! | 100 | acceleration, body (m/s²) | 3 × f32 |
//! | 112 | specific force (accelerometer), body (m/s²) | 3 × f32 |
//! | 124 | speed (m/s) | f32 |
//! | 128 | steering-wheel angle (rad), column torque (N·m) | 2 × f32 |
//! | 136 | throttle, brake, clutch, handbrake pedals; throttle after TC (0-1) | 5 × f32 |
//! | 156 | engine speed (rpm), engine torque (N·m), clutch torque (N·m) | 3 × f32 |
//! | 168 | fuel (kg), fuel flow (g/s) | 2 × f32 |
//! | 176 | gear (-1 reverse, 0 neutral), gearbox mode (0 auto, 1 sequential, 2 H), body contacts, 0 | i8, u8, u8, u8 |
//! | 180 | four wheels FL, FR, RL, RR, 64 bytes each (below) | |
//!
//! Each wheel: load (N), slip ratio, slip angle (rad), sliding speed (m/s), Fx, Fy (N), Mz
//! (N·m), spin (rad/s), suspension travel (m), steer angle (rad), camber against the road
//! (rad, car terms: negative when the top of the wheel leans towards the car's centre, on
//! either side), brake torque (N·m), centre x, y, z (m, world): 15 × f32; surface (0 asphalt, 1 wet asphalt, 2
//! concrete, 3 kerb, 4 grass, 5 gravel, 6 sand, 7 ice), contact (0/1): 2 × u8; 2 reserved.
//!
//! Version 2 appends at 436 the four tyres' thermal state, 28 bytes each (FL, FR, RL, RR):
//! tread, carcass, gas and rim temperatures (°C), hot pressure (Pa, gauge), wear (0-1) and
//! grip factor: 7 × f32 (a tyre without a thermal model sends the air temperature, its set
//! pressure, 0 and 1).

use gripline_physics::ground::Surface;
use gripline_physics::powertrain::GearboxMode;
use gripline_physics::vehicle::Snapshot;

/// Bytes of a packet of this version.
pub const SIZE: usize = 548;
/// The version this build sends.
pub const VERSION: u16 = 2;
/// Offset of the first tyre's thermal block (version 2).
pub const THERMAL_OFFSET: usize = 436;
/// Bytes per tyre's thermal block.
pub const THERMAL_SIZE: usize = 28;
/// The first four bytes.
pub const MAGIC: [u8; 4] = *b"GRPL";
/// Offset of the first wheel's block.
pub const WHEELS_OFFSET: usize = 180;
/// Bytes per wheel.
pub const WHEEL_SIZE: usize = 64;

/// An encoded packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packet {
    bytes: [u8; SIZE],
}

impl Packet {
    /// The packet's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

struct Writer<'a> {
    bytes: &'a mut [u8; SIZE],
    at: usize,
}

impl Writer<'_> {
    fn put(&mut self, b: &[u8]) {
        self.bytes[self.at..self.at + b.len()].copy_from_slice(b);
        self.at += b.len();
    }
    #[allow(clippy::cast_possible_truncation)]
    fn f32(&mut self, x: f64) {
        let x = if x.is_finite() { x as f32 } else { 0.0 };
        self.put(&x.to_le_bytes());
    }
    fn f64(&mut self, x: f64) {
        self.put(&(if x.is_finite() { x } else { 0.0 }).to_le_bytes());
    }
    fn vec3(&mut self, v: glam::DVec3) {
        self.f32(v.x);
        self.f32(v.y);
        self.f32(v.z);
    }
}

/// The code of a surface in the packet.
pub fn surface_code(surface: Surface) -> u8 {
    match surface {
        Surface::Asphalt => 0,
        Surface::WetAsphalt => 1,
        Surface::Concrete => 2,
        Surface::Kerb => 3,
        Surface::Grass => 4,
        Surface::Gravel => 5,
        Surface::Sand => 6,
        Surface::Ice => 7,
    }
}

/// Encodes the state `s` as packet number `sequence`.
pub fn encode(s: &Snapshot, sequence: u32) -> Packet {
    let mut bytes = [0u8; SIZE];
    let mut w = Writer {
        bytes: &mut bytes,
        at: 0,
    };
    let p = &s.powertrain;
    w.put(&MAGIC);
    w.put(&VERSION.to_le_bytes());
    #[allow(clippy::cast_possible_truncation)]
    w.put(&(SIZE as u16).to_le_bytes());
    w.put(&sequence.to_le_bytes());
    let flags = u32::from(s.abs_active)
        | u32::from(s.tc_active) << 1
        | u32::from(p.stalled) << 2
        | u32::from(p.shifting) << 3
        | u32::from(p.grind) << 4;
    w.put(&flags.to_le_bytes());
    w.f64(s.time_s);
    w.f64(s.position.x);
    w.f64(s.position.y);
    w.f64(s.position.z);
    for q in s.orientation.to_array() {
        w.f32(q);
    }
    w.vec3(s.velocity_world);
    w.vec3(s.velocity_body);
    w.vec3(s.angular_velocity_body);
    w.vec3(s.acceleration_body);
    w.vec3(s.specific_force_body);
    for x in [
        s.speed_m_per_s,
        s.steering_wheel_rad,
        s.column_torque_n_m,
        s.controls.throttle,
        s.controls.brake,
        s.controls.clutch,
        s.controls.handbrake,
        s.throttle_applied,
        p.engine_rpm,
        p.engine_torque_nm,
        p.clutch_torque_nm,
        p.fuel_mass_kg,
        p.fuel_rate_g_per_s,
    ] {
        w.f32(x);
    }
    let mode = match p.mode {
        GearboxMode::Automatic => 0,
        GearboxMode::Sequential => 1,
        GearboxMode::HPattern => 2,
    };
    w.put(&[
        p.gear.to_le_bytes()[0],
        mode,
        u8::try_from(s.body_contacts).unwrap_or(u8::MAX),
        0,
    ]);
    debug_assert_eq!(w.at, WHEELS_OFFSET);
    for wheel in &s.wheels {
        for x in [
            wheel.load_n,
            wheel.slip_ratio,
            wheel.slip_angle_rad,
            wheel.slip_velocity_m_per_s,
            wheel.fx_n,
            wheel.fy_n,
            wheel.mz_n_m,
            wheel.spin_rad_per_s,
            wheel.suspension_travel_m,
            wheel.steer_angle_rad,
            wheel.camber_rad,
            wheel.brake_torque_n_m,
        ] {
            w.f32(x);
        }
        w.vec3(wheel.centre_position);
        w.put(&[surface_code(wheel.surface), u8::from(wheel.contact), 0, 0]);
    }
    debug_assert_eq!(w.at, THERMAL_OFFSET);
    for wheel in &s.wheels {
        for x in [
            wheel.tread_temp_c,
            wheel.carcass_temp_c,
            wheel.gas_temp_c,
            wheel.rim_temp_c,
            wheel.pressure_pa,
            wheel.wear,
            wheel.grip_factor,
        ] {
            w.f32(x);
        }
    }
    debug_assert_eq!(w.at, SIZE);
    Packet { bytes }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_layout_adds_up() {
        assert_eq!(WHEELS_OFFSET + 4 * WHEEL_SIZE, THERMAL_OFFSET);
        assert_eq!(THERMAL_OFFSET + 4 * THERMAL_SIZE, SIZE);
        let p = encode(&Snapshot::default(), 7);
        assert_eq!(&p.bytes()[0..4], b"GRPL");
        assert_eq!(u16::from_le_bytes([p.bytes()[4], p.bytes()[5]]), 2);
        assert_eq!(u16::from_le_bytes([p.bytes()[6], p.bytes()[7]]), 548);
        assert_eq!(p.bytes()[8], 7);
    }

    #[test]
    fn non_finite_values_are_sent_as_zero() {
        let s = Snapshot {
            speed_m_per_s: f64::NAN,
            time_s: f64::INFINITY,
            ..Snapshot::default()
        };
        let p = encode(&s, 0);
        assert_eq!(&p.bytes()[124..128], &0f32.to_le_bytes());
        assert_eq!(&p.bytes()[16..24], &0f64.to_le_bytes());
    }
}

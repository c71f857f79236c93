//! The OutSim packet (LFS `InSim.txt` `struct OutSimPack`, and `OutSimPack.txt`
//! `struct OutSimPack2` selected by the `OutSim Opts` bits).
//!
//! With no options: `Time` (u32, ms), the main block, and the optional `ID` (i32): 64 or 68
//! bytes. With options, in this order, each present when its bit is set: `"LFST"` header
//! (`OSO_HEADER` 1), `ID` (`OSO_ID` 2), `Time` (`OSO_TIME` 4), main (`OSO_MAIN` 8, 60 bytes),
//! inputs (`OSO_INPUTS` 16: throttle, brake, steering-wheel angle in radians, clutch,
//! handbrake), drive (`OSO_DRIVE` 32: gear as LFS counts, three spare bytes, engine speed in
//! rad/s, full-throttle torque at that speed), distance (`OSO_DISTANCE` 64: metres driven,
//! the track ruler's metres), wheels (`OSO_WHEELS` 128: four 40-byte blocks). All options:
//! 272 bytes.
//!
//! The main block: angular velocity (3 × f32, world frame, rad/s), heading, pitch, roll
//! (f32 rad), acceleration and velocity (3 × f32 each, world frame), position (3 × i32,
//! 1 m = 65536). LFS's world is Gripline's (x, y on the ground, z up); its angles are
//! measured as LFS defines them: heading anticlockwise from above with 0 facing +y, pitch
//! anticlockwise seen from the car's right (nose up positive), roll anticlockwise seen from
//! its front (right side up positive). Gripline's ISO pitch and roll (nose down, right side
//! down positive) therefore change sign, and heading is yaw minus 90°.
//!
//! Wheels are in LFS's order: rear left, rear right, front left, front right. Each: suspension
//! compression from full droop, steer angle, lateral force to the right, longitudinal force
//! forward, vertical load (N), spin (rad/s), lean relative to the road (rad, LFS's
//! `LeanRelToRoad`: anticlockwise seen from behind, top to the left positive, i.e. the car-terms
//! camber on a left wheel and its negative on a right one), tyre air temperature (u8, 0:
//! not modelled), slip fraction (u8, 0: not modelled), touching (u8), spare, slip ratio, tangent
//! of the slip angle. The track ruler distance is 0: Gripline's tracks have no ruler yet.

use glam::{DVec3, EulerRot};
use gripline_physics::vehicle::Snapshot;

use super::car_facts::CarFacts;
use super::outgauge::{Writer, lfs_gear, time_ms};

/// Option bit: the "LFST" header.
pub const OSO_HEADER: u32 = 1;
/// Option bit: the ID.
pub const OSO_ID: u32 = 2;
/// Option bit: the time.
pub const OSO_TIME: u32 = 4;
/// Option bit: the main block.
pub const OSO_MAIN: u32 = 8;
/// Option bit: the driver's inputs.
pub const OSO_INPUTS: u32 = 16;
/// Option bit: gear and engine.
pub const OSO_DRIVE: u32 = 32;
/// Option bit: distances.
pub const OSO_DISTANCE: u32 = 64;
/// Option bit: the four wheels.
pub const OSO_WHEELS: u32 = 128;
/// The largest packet (every option): 272 bytes.
pub const MAX_SIZE: usize = 272;
/// Size without options (bytes).
pub const SIZE: usize = 64;

/// An encoded packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packet {
    bytes: [u8; MAX_SIZE],
    len: usize,
}

impl Packet {
    /// The bytes to send.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

/// The size of a packet with `opts` (0: the classic packet) and an ID or not.
pub fn size(opts: u32, with_id: bool) -> usize {
    if opts == 0 {
        return SIZE + if with_id { 4 } else { 0 };
    }
    [
        (OSO_HEADER, 4),
        (OSO_ID, 4),
        (OSO_TIME, 4),
        (OSO_MAIN, 60),
        (OSO_INPUTS, 20),
        (OSO_DRIVE, 12),
        (OSO_DISTANCE, 8),
        (OSO_WHEELS, 160),
    ]
    .iter()
    .filter(|(bit, _)| opts & bit != 0)
    .map(|(_, n)| n)
    .sum()
}

/// Encodes `s` of `car` with `opts`; `id` is sent where the layout has one (the classic
/// packet's optional trailer, or `OSO_ID`); `distance_m` is the distance driven so far.
pub fn encode(s: &Snapshot, car: &CarFacts, opts: u32, id: Option<i32>, distance_m: f64) -> Packet {
    let mut w = Writer::<MAX_SIZE>::default();
    if opts == 0 {
        w.u32(time_ms(s.time_s));
        main(&mut w, s);
        if let Some(id) = id {
            w.i32(id);
        }
    } else {
        if opts & OSO_HEADER != 0 {
            w.bytes(b"LFST");
        }
        if opts & OSO_ID != 0 {
            w.i32(id.unwrap_or(0));
        }
        if opts & OSO_TIME != 0 {
            w.u32(time_ms(s.time_s));
        }
        if opts & OSO_MAIN != 0 {
            main(&mut w, s);
        }
        if opts & OSO_INPUTS != 0 {
            let c = &s.controls;
            w.f32(c.throttle);
            w.f32(c.brake);
            w.f32(c.steering_wheel_rad);
            w.f32(c.clutch);
            w.f32(c.handbrake);
        }
        if opts & OSO_DRIVE != 0 {
            let pt = &s.powertrain;
            w.bytes(&[lfs_gear(pt.gear), 0, 0, 0]);
            w.f32(pt.engine_rpm * std::f64::consts::TAU / 60.0);
            w.f32(car.engine.flywheel_full_torque(pt.engine_rpm));
        }
        if opts & OSO_DISTANCE != 0 {
            w.f32(distance_m);
            w.f32(0.0);
        }
        if opts & OSO_WHEELS != 0 {
            for i in LFS_WHEEL_ORDER {
                let wheel = &s.wheels[i];
                w.f32(wheel.suspension_travel_m);
                w.f32(wheel.steer_angle_rad);
                w.f32(-wheel.fy_n);
                w.f32(wheel.fx_n);
                w.f32(wheel.load_n);
                w.f32(wheel.spin_rad_per_s);
                // LFS's lean, top to the left positive, from the car-terms camber (negative
                // top inwards): the same on a left wheel (FL 0, RL 2), negated on a right one.
                let lean = if i % 2 == 0 {
                    wheel.camber_rad
                } else {
                    -wheel.camber_rad
                };
                w.f32(lean);
                w.bytes(&[0, 0, u8::from(wheel.contact), 0]);
                w.f32(wheel.slip_ratio);
                w.f32(wheel.slip_angle_rad.tan());
            }
        }
    }
    Packet {
        bytes: w.buffer,
        len: w.len,
    }
}

/// Gripline's wheel index (FL, FR, RL, RR) of each of LFS's wheels (RL, RR, FL, FR).
pub const LFS_WHEEL_ORDER: [usize; 4] = [2, 3, 0, 1];

/// LFS's heading, pitch and roll (rad) of the body pose `s.orientation`.
pub fn lfs_angles(s: &Snapshot) -> (f64, f64, f64) {
    let (yaw, pitch, roll) = s.orientation.to_euler(EulerRot::ZYX);
    let heading = (yaw - std::f64::consts::FRAC_PI_2 + std::f64::consts::PI)
        .rem_euclid(std::f64::consts::TAU)
        - std::f64::consts::PI;
    (heading, -pitch, -roll)
}

/// LFS's fixed-point position (1 m = 65536), saturating.
pub fn fixed_point(m: f64) -> i32 {
    if m.is_finite() {
        #[allow(clippy::cast_possible_truncation)]
        let v = (m * 65536.0)
            .round()
            .clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as i32;
        v
    } else {
        0
    }
}

fn main<const N: usize>(w: &mut Writer<N>, s: &Snapshot) {
    let vector = |w: &mut Writer<N>, v: DVec3| {
        w.f32(v.x);
        w.f32(v.y);
        w.f32(v.z);
    };
    vector(w, s.angular_velocity_world);
    let (heading, pitch, roll) = lfs_angles(s);
    w.f32(heading);
    w.f32(pitch);
    w.f32(roll);
    vector(w, s.orientation * s.acceleration_body);
    vector(w, s.velocity_world);
    for m in [s.position.x, s.position.y, s.position.z] {
        w.i32(fixed_point(m));
    }
}

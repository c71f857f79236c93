//! The OutGauge packet (LFS `InSim.txt`, `struct OutGaugePack`): 92 bytes little-endian, 96
//! with the optional ID.
//!
//! | offset | field | type | Gripline sends |
//! |---|---|---|---|
//! | 0 | Time | u32 | simulated time (ms) |
//! | 4 | Car | char\[4\] | [`CarFacts::code`] |
//! | 8 | Flags | u16 | `OG_KM \| OG_BAR` (metric) |
//! | 10 | Gear | u8 | reverse 0, neutral 1, first 2 ... |
//! | 11 | PLID | u8 | 0 |
//! | 12 | Speed | f32 | m/s |
//! | 16 | RPM | f32 | engine speed |
//! | 20 | Turbo | f32 | 0 (not modelled) |
//! | 24 | EngTemp | f32 | 0 (not modelled) |
//! | 28 | Fuel | f32 | tank fraction 0..1 |
//! | 32 | OilPressure | f32 | 0 (not modelled) |
//! | 36 | OilTemp | f32 | 0 (not modelled) |
//! | 40 | DashLights | u32 | lights Gripline drives |
//! | 44 | ShowLights | u32 | those lit now |
//! | 48 | Throttle, Brake, Clutch | 3 × f32 | throttle after traction control, brake and clutch pedals, 0..1 |
//! | 60 | Display1 | char\[16\] | fuel in kg |
//! | 76 | Display2 | char\[16\] | gearbox mode |
//! | 92 | ID | i32 | only when an ID is set |

use gripline_physics::powertrain::GearboxMode;
use gripline_physics::vehicle::Snapshot;

use super::car_facts::CarFacts;

/// Size without the ID (bytes).
pub const SIZE: usize = 92;
/// Size with the ID (bytes).
pub const SIZE_WITH_ID: usize = 96;

/// Flag: speeds in km/h.
pub const OG_KM: u16 = 16384;
/// Flag: pressures in bar.
pub const OG_BAR: u16 = 32768;

/// Dash light bit: shift light.
pub const DL_SHIFT: u32 = 1 << 0;
/// Dash light bit: handbrake.
pub const DL_HANDBRAKE: u32 = 1 << 2;
/// Dash light bit: traction control active.
pub const DL_TC: u32 = 1 << 4;
/// Dash light bit: ABS active.
pub const DL_ABS: u32 = 1 << 10;
/// Dash light bit: low fuel.
pub const DL_FUELWARN: u32 = 1 << 15;
/// Dash light bit: neutral.
pub const DL_NEUTRAL: u32 = 1 << 17;

/// The lights Gripline drives.
pub const AVAILABLE_LIGHTS: u32 =
    DL_SHIFT | DL_HANDBRAKE | DL_TC | DL_ABS | DL_FUELWARN | DL_NEUTRAL;

/// An encoded packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packet {
    bytes: [u8; SIZE_WITH_ID],
    len: usize,
}

impl Packet {
    /// The bytes to send.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

/// LFS's gear numbering: reverse 0, neutral 1, first 2.
pub fn lfs_gear(gear: i8) -> u8 {
    u8::try_from(i16::from(gear) + 1).unwrap_or(0)
}

/// Encodes the state `s` of the car `car`; `id` appends the optional ID.
pub fn encode(s: &Snapshot, car: &CarFacts, id: Option<i32>) -> Packet {
    let mut w = Writer::default();
    w.u32(time_ms(s.time_s));
    w.bytes(&car.code);
    w.u16(OG_KM | OG_BAR);
    let pt = &s.powertrain;
    w.u8(lfs_gear(pt.gear));
    w.u8(0);
    w.f32(s.speed_m_per_s);
    w.f32(pt.engine_rpm);
    w.f32(0.0); // turbo
    w.f32(0.0); // engine temperature
    let fuel = if car.fuel_capacity_kg > 0.0 {
        (pt.fuel_mass_kg / car.fuel_capacity_kg).clamp(0.0, 1.0)
    } else {
        0.0
    };
    w.f32(fuel);
    w.f32(0.0); // oil pressure
    w.f32(0.0); // oil temperature
    w.u32(AVAILABLE_LIGHTS);
    let mut lit = 0;
    if pt.engine_rpm >= 0.97 * car.redline_rpm {
        lit |= DL_SHIFT;
    }
    if s.controls.handbrake > 0.05 {
        lit |= DL_HANDBRAKE;
    }
    if s.tc_active {
        lit |= DL_TC;
    }
    if s.abs_active {
        lit |= DL_ABS;
    }
    if fuel < 0.1 {
        lit |= DL_FUELWARN;
    }
    if pt.gear == 0 {
        lit |= DL_NEUTRAL;
    }
    w.u32(lit);
    w.f32(s.throttle_applied);
    w.f32(s.controls.brake);
    w.f32(s.controls.clutch);
    w.text16(&format!("Fuel {:.1} kg", pt.fuel_mass_kg.max(0.0)));
    w.text16(match pt.mode {
        GearboxMode::Automatic => "Automatic",
        GearboxMode::Sequential => "Sequential",
        GearboxMode::HPattern => "H-pattern",
    });
    if let Some(id) = id {
        w.i32(id);
    }
    Packet {
        bytes: w.buffer,
        len: w.len,
    }
}

/// Simulated time in whole milliseconds (wraps after 49 days, as LFS's does).
pub fn time_ms(time_s: f64) -> u32 {
    if time_s.is_finite() && time_s > 0.0 {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let ms = (time_s * 1000.0).round() as u64;
        u32::try_from(ms % (1u64 << 32)).unwrap_or(0)
    } else {
        0
    }
}

/// Little-endian field writer over a fixed buffer (the largest packet's size).
#[derive(Debug)]
pub(super) struct Writer<const N: usize> {
    pub(super) buffer: [u8; N],
    pub(super) len: usize,
}

impl<const N: usize> Default for Writer<N> {
    fn default() -> Self {
        Self {
            buffer: [0; N],
            len: 0,
        }
    }
}

impl<const N: usize> Writer<N> {
    pub(super) fn bytes(&mut self, b: &[u8]) {
        self.buffer[self.len..self.len + b.len()].copy_from_slice(b);
        self.len += b.len();
    }
    pub(super) fn u8(&mut self, v: u8) {
        self.bytes(&[v]);
    }
    pub(super) fn u16(&mut self, v: u16) {
        self.bytes(&v.to_le_bytes());
    }
    pub(super) fn u32(&mut self, v: u32) {
        self.bytes(&v.to_le_bytes());
    }
    pub(super) fn i32(&mut self, v: i32) {
        self.bytes(&v.to_le_bytes());
    }
    /// An `f64` as the packets' `float`; non-finite values become 0.
    pub(super) fn f32(&mut self, v: f64) {
        #[allow(clippy::cast_possible_truncation)]
        let x = if v.is_finite() { v as f32 } else { 0.0 };
        self.bytes(&x.to_le_bytes());
    }
    /// A zero-terminated string in 16 bytes (truncated to 15 ASCII bytes).
    pub(super) fn text16(&mut self, s: &str) {
        let mut field = [0u8; 16];
        for (slot, b) in field
            .iter_mut()
            .zip(s.bytes().filter(u8::is_ascii).take(15))
        {
            *slot = b;
        }
        self.bytes(&field);
    }
}

//! The replay file's binary records: little-endian, `f64`s as their exact bits, each record
//! a tag byte and a fixed payload (see `docs/replay-format.md`).

use gripline_physics::controls::Controls;
use gripline_physics::powertrain::GearboxMode;
use gripline_physics::vehicle::{AidParams, Snapshot};

use super::event::JournalEvent;

/// One record of a replay's body.
#[derive(Clone, Debug, PartialEq)]
pub enum Record {
    /// A change to the session.
    Event(JournalEvent),
    /// A hash of the state after `tick` steps, to notice a re-simulation that diverges.
    Checkpoint {
        /// Steps since the start of the recording.
        tick: u64,
        /// [`state_hash`] of the state after that step.
        state_hash: u64,
    },
    /// The end of a complete recording.
    End {
        /// Steps recorded.
        ticks: u64,
        /// [`Fnv64`] of every byte of the body before this record.
        checksum: u64,
    },
}

const TAG_STEP: u8 = 1;
const TAG_STEP_SAME: u8 = 2;
const TAG_RESET: u8 = 3;
const TAG_PLACE: u8 = 4;
const TAG_GEARBOX_MODE: u8 = 5;
const TAG_POWERTRAIN_MODE: u8 = 6;
const TAG_GEAR: u8 = 7;
const TAG_FORWARD_SPEED: u8 = 8;
const TAG_AIDS: u8 = 9;
const TAG_STEP_SIZE: u8 = 10;
const TAG_CHECKPOINT: u8 = 11;
const TAG_RECOVER: u8 = 12;
const TAG_END: u8 = 0xFF;

/// Bytes of a record's payload after its tag, `None` for an unknown tag.
fn payload_len(tag: u8) -> Option<usize> {
    Some(match tag {
        TAG_STEP => 5 * 8 + 2,
        TAG_STEP_SAME | TAG_RESET | TAG_RECOVER => 0,
        TAG_PLACE => 3 * 8 + 1,
        TAG_GEARBOX_MODE | TAG_POWERTRAIN_MODE | TAG_GEAR => 1,
        TAG_FORWARD_SPEED | TAG_STEP_SIZE => 8,
        TAG_AIDS => 2 + 7 * 8,
        TAG_CHECKPOINT | TAG_END => 16,
        _ => return None,
    })
}

/// FNV-1a, 64 bits: the body's checksum, file identities and state hashes (a change
/// detector, not a cryptographic hash).
#[derive(Clone, Copy, Debug)]
pub struct Fnv64(u64);

impl Default for Fnv64 {
    fn default() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv64 {
    /// Adds `bytes`.
    pub fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    /// The hash so far.
    pub fn finish(self) -> u64 {
        self.0
    }
}

/// A hash of the state a re-simulation must reproduce exactly: time, pose, velocities,
/// wheel spins and engine speed, as bits.
pub fn state_hash(s: &Snapshot) -> u64 {
    let mut h = Fnv64::default();
    let mut put = |x: f64| h.write(&x.to_bits().to_le_bytes());
    put(s.time_s);
    for v in [s.position, s.velocity_world, s.angular_velocity_world] {
        put(v.x);
        put(v.y);
        put(v.z);
    }
    for q in s.orientation.to_array() {
        put(q);
    }
    for w in &s.wheels {
        put(w.spin_rad_per_s);
        put(w.suspension_travel_m);
    }
    put(s.powertrain.engine_rpm);
    h.finish()
}

fn mode_code(mode: GearboxMode) -> u8 {
    match mode {
        GearboxMode::Automatic => 0,
        GearboxMode::Sequential => 1,
        GearboxMode::HPattern => 2,
    }
}

fn mode_of(code: u8) -> Option<GearboxMode> {
    Some(match code {
        0 => GearboxMode::Automatic,
        1 => GearboxMode::Sequential,
        2 => GearboxMode::HPattern,
        _ => return None,
    })
}

/// Appends records to a byte buffer, compressing a step that repeats the previous step's
/// controls to one byte.
#[derive(Debug, Default)]
pub struct Encoder {
    last_controls: Option<Controls>,
}

impl Encoder {
    /// Appends `record` to `out`.
    pub fn encode(&mut self, record: &Record, out: &mut Vec<u8>) {
        let f = |out: &mut Vec<u8>, x: f64| out.extend_from_slice(&x.to_bits().to_le_bytes());
        match record {
            Record::Event(JournalEvent::Step(c)) => {
                if self.last_controls.as_ref() == Some(c) {
                    out.push(TAG_STEP_SAME);
                    return;
                }
                self.last_controls = Some(*c);
                out.push(TAG_STEP);
                for x in [
                    c.steering_wheel_rad,
                    c.throttle,
                    c.brake,
                    c.clutch,
                    c.handbrake,
                ] {
                    f(out, x);
                }
                let flags = u8::from(c.shift_up)
                    | u8::from(c.shift_down) << 1
                    | u8::from(c.starter) << 2
                    | u8::from(c.h_gear.is_some()) << 3;
                out.push(flags);
                out.push(c.h_gear.unwrap_or(0).to_le_bytes()[0]);
            }
            Record::Event(JournalEvent::Reset) => out.push(TAG_RESET),
            Record::Event(JournalEvent::Recover) => out.push(TAG_RECOVER),
            Record::Event(JournalEvent::Place {
                x_m,
                y_m,
                heading_rad,
                mode,
            }) => {
                out.push(TAG_PLACE);
                for x in [*x_m, *y_m, *heading_rad] {
                    f(out, x);
                }
                out.push(mode_code(*mode));
            }
            Record::Event(JournalEvent::GearboxMode(mode)) => {
                out.extend_from_slice(&[TAG_GEARBOX_MODE, mode_code(*mode)]);
            }
            Record::Event(JournalEvent::PowertrainMode(mode)) => {
                out.extend_from_slice(&[TAG_POWERTRAIN_MODE, mode_code(*mode)]);
            }
            Record::Event(JournalEvent::Gear(gear)) => {
                out.extend_from_slice(&[TAG_GEAR, gear.to_le_bytes()[0]]);
            }
            Record::Event(JournalEvent::ForwardSpeed(speed)) => {
                out.push(TAG_FORWARD_SPEED);
                f(out, *speed);
            }
            Record::Event(JournalEvent::Aids(a)) => {
                out.extend_from_slice(&[TAG_AIDS, u8::from(a.abs_enabled), u8::from(a.tc_enabled)]);
                for x in [
                    a.abs_slip_threshold,
                    a.abs_min_speed_m_per_s,
                    a.abs_release_rate_per_s,
                    a.abs_apply_rate_per_s,
                    a.tc_slip_threshold,
                    a.tc_cut_rate_per_s,
                    a.tc_restore_rate_per_s,
                ] {
                    f(out, x);
                }
            }
            Record::Event(JournalEvent::StepSize(step_s)) => {
                out.push(TAG_STEP_SIZE);
                f(out, *step_s);
            }
            Record::Checkpoint { tick, state_hash } => {
                out.push(TAG_CHECKPOINT);
                out.extend_from_slice(&tick.to_le_bytes());
                out.extend_from_slice(&state_hash.to_le_bytes());
            }
            Record::End { ticks, checksum } => {
                out.push(TAG_END);
                out.extend_from_slice(&ticks.to_le_bytes());
                out.extend_from_slice(&checksum.to_le_bytes());
            }
        }
    }
}

/// Why bytes are not a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// The bytes end inside a record.
    Incomplete,
    /// A tag byte no version of the format has used.
    UnknownTag(u8),
    /// A field out of its range (a gearbox mode, a flag).
    BadField(&'static str),
}

/// Reads records back, undoing the [`Encoder`]'s compression.
#[derive(Debug, Default)]
pub struct Decoder {
    last_controls: Option<Controls>,
}

impl Decoder {
    /// Bytes the record starting at `bytes[0]` takes, tag included.
    ///
    /// # Errors
    /// An unknown tag; fewer bytes than the record needs.
    pub fn record_len(bytes: &[u8]) -> Result<usize, DecodeError> {
        let tag = *bytes.first().ok_or(DecodeError::Incomplete)?;
        let len = Self::len_of_tag(tag)?;
        if bytes.len() < len {
            return Err(DecodeError::Incomplete);
        }
        Ok(len)
    }

    /// Bytes a record with this tag takes, tag included.
    ///
    /// # Errors
    /// An unknown tag.
    pub fn len_of_tag(tag: u8) -> Result<usize, DecodeError> {
        Ok(1 + payload_len(tag).ok_or(DecodeError::UnknownTag(tag))?)
    }

    /// Decodes the record that is exactly `bytes` (as [`Decoder::record_len`] delimits it).
    ///
    /// # Errors
    /// As [`Decoder::record_len`]; a field out of range; a repeated step before any step.
    pub fn decode(&mut self, bytes: &[u8]) -> Result<Record, DecodeError> {
        let len = Self::record_len(bytes)?;
        let (tag, p) = (bytes[0], &bytes[1..len]);
        let f = |i: usize| {
            let mut b = [0u8; 8];
            b.copy_from_slice(&p[i * 8..i * 8 + 8]);
            f64::from_bits(u64::from_le_bytes(b))
        };
        let u = |i: usize| {
            let mut b = [0u8; 8];
            b.copy_from_slice(&p[i * 8..i * 8 + 8]);
            u64::from_le_bytes(b)
        };
        let mode = |code: u8| mode_of(code).ok_or(DecodeError::BadField("gearbox mode"));
        let flag = |b: u8| match b {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(DecodeError::BadField("flag")),
        };
        Ok(match tag {
            TAG_STEP => {
                let flags = p[40];
                if flags & !0b1111 != 0 {
                    return Err(DecodeError::BadField("control flags"));
                }
                let c = Controls {
                    steering_wheel_rad: f(0),
                    throttle: f(1),
                    brake: f(2),
                    clutch: f(3),
                    handbrake: f(4),
                    shift_up: flags & 1 != 0,
                    shift_down: flags & 2 != 0,
                    starter: flags & 4 != 0,
                    h_gear: (flags & 8 != 0).then(|| i8::from_le_bytes([p[41]])),
                };
                self.last_controls = Some(c);
                Record::Event(JournalEvent::Step(c))
            }
            TAG_STEP_SAME => Record::Event(JournalEvent::Step(
                self.last_controls
                    .ok_or(DecodeError::BadField("a repeated step before any step"))?,
            )),
            TAG_RESET => Record::Event(JournalEvent::Reset),
            TAG_RECOVER => Record::Event(JournalEvent::Recover),
            TAG_PLACE => Record::Event(JournalEvent::Place {
                x_m: f(0),
                y_m: f(1),
                heading_rad: f(2),
                mode: mode(p[24])?,
            }),
            TAG_GEARBOX_MODE => Record::Event(JournalEvent::GearboxMode(mode(p[0])?)),
            TAG_POWERTRAIN_MODE => Record::Event(JournalEvent::PowertrainMode(mode(p[0])?)),
            TAG_GEAR => Record::Event(JournalEvent::Gear(i8::from_le_bytes([p[0]]))),
            TAG_FORWARD_SPEED => Record::Event(JournalEvent::ForwardSpeed(f(0))),
            TAG_AIDS => {
                let (abs, tc) = (flag(p[0])?, flag(p[1])?);
                let g = |i: usize| {
                    let mut b = [0u8; 8];
                    b.copy_from_slice(&p[2 + i * 8..10 + i * 8]);
                    f64::from_bits(u64::from_le_bytes(b))
                };
                Record::Event(JournalEvent::Aids(AidParams {
                    abs_enabled: abs,
                    abs_slip_threshold: g(0),
                    abs_min_speed_m_per_s: g(1),
                    abs_release_rate_per_s: g(2),
                    abs_apply_rate_per_s: g(3),
                    tc_enabled: tc,
                    tc_slip_threshold: g(4),
                    tc_cut_rate_per_s: g(5),
                    tc_restore_rate_per_s: g(6),
                }))
            }
            TAG_STEP_SIZE => Record::Event(JournalEvent::StepSize(f(0))),
            TAG_CHECKPOINT => Record::Checkpoint {
                tick: u(0),
                state_hash: u(1),
            },
            TAG_END => Record::End {
                ticks: u(0),
                checksum: u(1),
            },
            other => return Err(DecodeError::UnknownTag(other)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(records: &[Record]) -> Vec<Record> {
        let mut bytes = Vec::new();
        let mut enc = Encoder::default();
        for r in records {
            enc.encode(r, &mut bytes);
        }
        let mut dec = Decoder::default();
        let mut out = Vec::new();
        let mut at = 0;
        while at < bytes.len() {
            let len = Decoder::record_len(&bytes[at..]).unwrap();
            out.push(dec.decode(&bytes[at..at + len]).unwrap());
            at += len;
        }
        out
    }

    #[test]
    fn every_record_round_trips_bit_for_bit() {
        let c = Controls {
            steering_wheel_rad: -0.123_456_789_012_345_6,
            throttle: 0.75,
            brake: 1e-300,
            clutch: 0.5,
            handbrake: 0.0,
            shift_up: true,
            shift_down: false,
            h_gear: Some(-1),
            starter: true,
        };
        let records = vec![
            Record::Event(JournalEvent::StepSize(1.0 / 2000.0)),
            Record::Event(JournalEvent::Step(c)),
            Record::Event(JournalEvent::Step(c)),
            Record::Event(JournalEvent::Step(Controls::default())),
            Record::Event(JournalEvent::Reset),
            Record::Event(JournalEvent::Recover),
            Record::Event(JournalEvent::Place {
                x_m: 1.5,
                y_m: -2.25,
                heading_rad: 3.0,
                mode: GearboxMode::HPattern,
            }),
            Record::Event(JournalEvent::GearboxMode(GearboxMode::Sequential)),
            Record::Event(JournalEvent::PowertrainMode(GearboxMode::Automatic)),
            Record::Event(JournalEvent::Gear(-1)),
            Record::Event(JournalEvent::ForwardSpeed(27.777_777)),
            Record::Event(JournalEvent::Aids(AidParams {
                abs_enabled: false,
                ..AidParams::default()
            })),
            Record::Checkpoint {
                tick: 1000,
                state_hash: 0xdead_beef,
            },
            Record::End {
                ticks: 3,
                checksum: 42,
            },
        ];
        assert_eq!(round_trip(&records), records);
    }

    #[test]
    fn a_repeated_step_is_one_byte() {
        let mut bytes = Vec::new();
        let mut enc = Encoder::default();
        let step = Record::Event(JournalEvent::Step(Controls::default()));
        enc.encode(&step, &mut bytes);
        let first = bytes.len();
        enc.encode(&step, &mut bytes);
        assert_eq!(first, 43);
        assert_eq!(bytes.len() - first, 1);
    }

    #[test]
    fn bad_bytes_are_errors() {
        assert_eq!(Decoder::record_len(&[]), Err(DecodeError::Incomplete));
        assert_eq!(
            Decoder::record_len(&[0x42]),
            Err(DecodeError::UnknownTag(0x42))
        );
        assert_eq!(
            Decoder::record_len(&[TAG_STEP, 0, 0]),
            Err(DecodeError::Incomplete)
        );
        let mut dec = Decoder::default();
        assert_eq!(
            dec.decode(&[TAG_GEARBOX_MODE, 9]),
            Err(DecodeError::BadField("gearbox mode"))
        );
        assert_eq!(
            dec.decode(&[TAG_STEP_SAME]),
            Err(DecodeError::BadField("a repeated step before any step"))
        );
    }
}

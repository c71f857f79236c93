//! Linux evdev force feedback: the `ff_effect` of an `FF_CONSTANT` effect and the
//! `input_event`s that play it and set gain and autocentre (`docs/force-feedback-protocols.md`
//! section 1.5).
//!
//! The evdev backend uploads one constant effect with `EVIOCSFF` (id -1: the kernel assigns
//! one), plays it by writing an `EV_FF` event, and then only updates its level with
//! `EVIOCSFF` on the same id. Wheel drivers project the force with `sin(direction)`, so the
//! direction is fixed at 0x4000 (90°) and the sign travels in the level.
//!
//! The byte layouts are those of the Linux UAPI header `include/uapi/linux/input.h` on
//! 64-bit little-endian targets (x86-64, aarch64): `struct ff_effect` is 48 bytes with the
//! effect union at offset 16 (aligned for the pointer in `ff_periodic_effect`), and
//! `struct input_event` is 24 bytes (a 16-byte `timeval` first). These layouts come from
//! the kernel header, which `docs/force-feedback-protocols.md` does not reproduce; the field values
//! (type, direction 0x4000, infinite length 0, `EV_FF` play with the effect id) come from section
//! 1.5.

use crate::ffb::backend::level_to_i16;

/// Event type of force-feedback events.
pub const EV_FF: u16 = 0x15;
/// Effect type: constant force.
pub const FF_CONSTANT: u16 = 0x52;
/// `EV_FF` code that sets the device gain.
pub const FF_GAIN: u16 = 0x60;
/// `EV_FF` code that sets the built-in autocentre spring.
pub const FF_AUTOCENTER: u16 = 0x61;
/// Direction 90°: wheel drivers use `sin(direction)`, so the level's sign is the torque's.
pub const DIRECTION_90_DEG: u16 = 0x4000;
/// Size of `struct ff_effect` on 64-bit Linux.
pub const FF_EFFECT_SIZE: usize = 48;
/// Size of `struct input_event` on 64-bit Linux.
pub const INPUT_EVENT_SIZE: usize = 24;

/// `struct ff_envelope`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FfEnvelope {
    /// Attack length (ms).
    pub attack_length: u16,
    /// Attack level.
    pub attack_level: u16,
    /// Fade length (ms).
    pub fade_length: u16,
    /// Fade level.
    pub fade_level: u16,
}

/// An `FF_CONSTANT` effect (`struct ff_effect` with `ff_constant_effect` in the union).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FfConstantEffect {
    /// Effect id: -1 to upload a new effect, the kernel's id to update it.
    pub id: i16,
    /// Direction (0x4000 = 90°).
    pub direction: u16,
    /// Trigger button (0 = none).
    pub trigger_button: u16,
    /// Trigger interval.
    pub trigger_interval: u16,
    /// Replay length in ms (0 = infinite in the Linux API, but hid-pidff before Linux 6.15
    /// plays nothing for 0: Gripline uses [`REPLAY_LENGTH_MS`] and renews it).
    pub replay_length: u16,
    /// Replay delay in ms.
    pub replay_delay: u16,
    /// Signed level (-32767..32767).
    pub level: i16,
    /// Envelope.
    pub envelope: FfEnvelope,
}

/// Replay length of the constant effect (ms): finite, because hid-pidff before Linux 6.15
/// plays nothing for an effect of length 0 ("infinite" in the Linux API); the backend replays
/// it every `gripline_devices::ffb::evdev_ff::RENEW_EVERY`, so it never runs out while the
/// sim lives, and the kernel erases a closed descriptor's effects when the process dies.
pub const REPLAY_LENGTH_MS: u16 = 1000;

impl FfConstantEffect {
    /// A new constant effect of [`REPLAY_LENGTH_MS`] at direction 90° and `level` (-1..1).
    pub fn new(level: f64) -> Self {
        Self {
            id: -1,
            direction: DIRECTION_90_DEG,
            trigger_button: 0,
            trigger_interval: 0,
            replay_length: REPLAY_LENGTH_MS,
            replay_delay: 0,
            level: level_to_i16(level),
            envelope: FfEnvelope::default(),
        }
    }

    /// The same effect with kernel id `id` and level `level` (-1..1), for updates.
    #[must_use]
    pub fn updated(self, id: i16, level: f64) -> Self {
        Self {
            id,
            level: level_to_i16(level),
            ..self
        }
    }

    /// The `struct ff_effect` bytes (64-bit little-endian layout).
    pub fn to_bytes(&self) -> [u8; FF_EFFECT_SIZE] {
        let mut b = [0u8; FF_EFFECT_SIZE];
        b[0..2].copy_from_slice(&FF_CONSTANT.to_le_bytes());
        b[2..4].copy_from_slice(&self.id.to_le_bytes());
        b[4..6].copy_from_slice(&self.direction.to_le_bytes());
        b[6..8].copy_from_slice(&self.trigger_button.to_le_bytes());
        b[8..10].copy_from_slice(&self.trigger_interval.to_le_bytes());
        b[10..12].copy_from_slice(&self.replay_length.to_le_bytes());
        b[12..14].copy_from_slice(&self.replay_delay.to_le_bytes());
        // 14..16: padding before the union.
        b[16..18].copy_from_slice(&self.level.to_le_bytes());
        b[18..20].copy_from_slice(&self.envelope.attack_length.to_le_bytes());
        b[20..22].copy_from_slice(&self.envelope.attack_level.to_le_bytes());
        b[22..24].copy_from_slice(&self.envelope.fade_length.to_le_bytes());
        b[24..26].copy_from_slice(&self.envelope.fade_level.to_le_bytes());
        b
    }
}

/// `struct input_event` bytes for an `EV_FF` event (timestamp zero: the kernel ignores it on
/// write).
pub fn ff_event(code: u16, value: i32) -> [u8; INPUT_EVENT_SIZE] {
    let mut b = [0u8; INPUT_EVENT_SIZE];
    b[16..18].copy_from_slice(&EV_FF.to_le_bytes());
    b[18..20].copy_from_slice(&code.to_le_bytes());
    b[20..24].copy_from_slice(&value.to_le_bytes());
    b
}

/// Plays effect `id` `count` times (1 for a constant effect of infinite length).
pub fn play(id: i16, count: i32) -> [u8; INPUT_EVENT_SIZE] {
    ff_event(u16::from_le_bytes(id.to_le_bytes()), count)
}

/// Stops effect `id`.
pub fn stop(id: i16) -> [u8; INPUT_EVENT_SIZE] {
    play(id, 0)
}

/// Sets the device gain (0..0xFFFF).
pub fn gain(gain: u16) -> [u8; INPUT_EVENT_SIZE] {
    ff_event(FF_GAIN, i32::from(gain))
}

/// Sets the built-in autocentre spring (0 = off, which a sim rendering its own torque wants).
pub fn autocenter(strength: u16) -> [u8; INPUT_EVENT_SIZE] {
    ff_event(FF_AUTOCENTER, i32::from(strength))
}

#[cfg(test)]
mod tests {
    use super::*;

    // Section 1.5: FF_CONSTANT, id -1 for upload, direction 0x4000, replay length 1000 ms
    // (finite: see REPLAY_LENGTH_MS), constant level in the union (offset 16 on 64-bit).
    #[test]
    fn constant_effect_bytes() {
        let e = FfConstantEffect::new(0.5);
        assert_eq!(e.level, 16384);
        let mut expected = [0u8; 48];
        expected[..18].copy_from_slice(&[
            0x52, 0x00, // type FF_CONSTANT
            0xFF, 0xFF, // id -1
            0x00, 0x40, // direction 0x4000
            0x00, 0x00, 0x00, 0x00, // trigger
            0xE8, 0x03, 0x00, 0x00, // replay: length 1000 ms, delay 0
            0x00, 0x00, // padding
            0x00, 0x40, // level 16384
        ]);
        assert_eq!(e.to_bytes(), expected);
        let u = e.updated(3, -1.0).to_bytes();
        assert_eq!(&u[2..4], &[0x03, 0x00]);
        assert_eq!(&u[16..18], &(-32767i16).to_le_bytes());
    }

    #[test]
    fn events() {
        let mut expected = [0u8; 24];
        expected[16..].copy_from_slice(&[0x15, 0x00, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00]);
        assert_eq!(play(3, 1), expected);
        expected[20] = 0;
        assert_eq!(stop(3), expected);
        assert_eq!(
            &gain(0xFFFF)[16..],
            &[0x15, 0x00, 0x60, 0x00, 0xFF, 0xFF, 0x00, 0x00]
        );
        assert_eq!(&autocenter(0)[16..], &[0x15, 0x00, 0x61, 0x00, 0, 0, 0, 0]);
    }
}

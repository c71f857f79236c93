//! The real [`EvdevFfDevice`]: a `/dev/input/eventN` node opened read-write through the
//! `evdev` crate's safe API (Linux only).
//!
//! `evdev` uploads with `EVIOCSFF` and hands back an `FFEffect` that erases itself when
//! dropped, so this wrapper keeps the one effect the backend uploads and maps the backend's
//! effect id onto it. Opening needs write access to the event node (a udev rule for the
//! wheel, `docs/force-feedback-protocols.md` section 6).
//!
//! **What the tests check and what they cannot.** The real path builds the crate's
//! `FFEffectData` in one function (`data`), which the tests run. They compare the bytes
//! the crate hands to `EVIOCSFF` with the byte-exact encoder
//! ([`gripline_input::ffb::protocol::evdev`]): the crate's own conversions of trigger, replay and
//! envelope into `libc`'s structs are run, the encoder's sizes and offsets are checked
//! against `libc`'s declarations of `ff_effect` and `input_event`, and only the crate's
//! top-level assembly of its private `sys::ff_effect` (type, direction, the union) is
//! mirrored from its source. Not checked without a device (or `/dev/uinput`, absent in the
//! build sandbox): that the ioctl and `EV_FF` writes reach a kernel driver, that the driver
//! accepts the effect, how each driver renders a replayed finite effect (no audible or felt
//! seam at each renewal), and the physical direction of positive torque.

use std::io;
use std::path::Path;

use evdev::raw_stream::RawDevice;
use evdev::{FFEffect, FFEffectCode, FFEffectData, FFEffectKind, FFEnvelope, FFReplay, FFTrigger};

use crate::ffb::evdev_ff::{EvdevFfBackend, EvdevFfConfig, EvdevFfDevice, evdev_rate_hz, ff_error};
use gripline_input::ffb::backend::FfbError;
use gripline_input::ffb::protocol::evdev::FfConstantEffect;

/// An evdev node used for force feedback.
#[derive(Debug)]
pub struct LinuxFfDevice {
    device: RawDevice,
    effect: Option<FFEffect>,
}

impl LinuxFfDevice {
    /// Opens `path` (e.g. `/dev/input/event5`).
    ///
    /// # Errors
    /// The open error (no permission, no such node).
    pub fn open(path: &Path) -> io::Result<Self> {
        Ok(Self {
            device: RawDevice::open(path)?,
            effect: None,
        })
    }

    /// The start-up configuration for this device: its wheel's rate and whether it offers
    /// `FF_GAIN` and `FF_AUTOCENTER`.
    pub fn config(&self) -> EvdevFfConfig {
        let ff = self.device.supported_ff();
        let has = |code: FFEffectCode| ff.is_some_and(|s| s.contains(code));
        let id = self.device.input_id();
        EvdevFfConfig {
            rate_hz: evdev_rate_hz(id.vendor(), id.product()),
            has_gain: has(FFEffectCode::FF_GAIN),
            has_autocenter: has(FFEffectCode::FF_AUTOCENTER),
            ..EvdevFfConfig::default()
        }
    }

    /// Whether the device offers `FF_CONSTANT`.
    pub fn has_constant(&self) -> bool {
        self.device
            .supported_ff()
            .is_some_and(|s| s.contains(FFEffectCode::FF_CONSTANT))
    }

    fn effect_mut(&mut self, id: i16) -> io::Result<&mut FFEffect> {
        match self.effect.as_mut() {
            Some(effect) if effect.id().to_ne_bytes() == id.to_ne_bytes() => Ok(effect),
            _ => Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("no uploaded effect with id {id}"),
            )),
        }
    }
}

/// Opens `path` and starts the evdev backend on it (autocentre off, gain, one constant
/// effect playing at zero).
///
/// # Errors
/// [`FfbError::Protocol`] when the device has no `FF_CONSTANT`; the device's error otherwise.
pub fn open_evdev_ff(path: &Path) -> Result<EvdevFfBackend<LinuxFfDevice>, FfbError> {
    let device = LinuxFfDevice::open(path).map_err(|e| ff_error(&e))?;
    if !device.has_constant() {
        return Err(FfbError::Protocol(format!(
            "{} offers no FF_CONSTANT effect",
            path.display()
        )));
    }
    let config = device.config();
    EvdevFfBackend::start(device, config)
}

fn data(effect: &FfConstantEffect) -> FFEffectData {
    FFEffectData {
        direction: effect.direction,
        trigger: FFTrigger {
            button: effect.trigger_button,
            interval: effect.trigger_interval,
        },
        replay: FFReplay {
            length: effect.replay_length,
            delay: effect.replay_delay,
        },
        kind: FFEffectKind::Constant {
            level: effect.level,
            envelope: FFEnvelope {
                attack_length: effect.envelope.attack_length,
                attack_level: effect.envelope.attack_level,
                fade_length: effect.envelope.fade_length,
                fade_level: effect.envelope.fade_level,
            },
        },
    }
}

impl EvdevFfDevice for LinuxFfDevice {
    fn upload(&mut self, effect: &FfConstantEffect) -> io::Result<i16> {
        // One effect at a time: the old one is erased when replaced.
        let uploaded = self.device.upload_ff_effect(data(effect))?;
        let id = uploaded.id();
        self.effect = Some(uploaded);
        // The kernel's ids are small non-negative numbers; the bits are the same either way.
        Ok(i16::from_ne_bytes(id.to_ne_bytes()))
    }

    fn update(&mut self, effect: &FfConstantEffect) -> io::Result<()> {
        self.effect_mut(effect.id)?.update(data(effect))
    }

    fn play(&mut self, id: i16, count: i32) -> io::Result<()> {
        self.effect_mut(id)?.play(count)
    }

    fn stop(&mut self, id: i16) -> io::Result<()> {
        self.effect_mut(id)?.stop()
    }

    fn erase(&mut self, id: i16) -> io::Result<()> {
        self.effect_mut(id)?;
        // Dropping the crate's effect handle issues EVIOCRMFF.
        self.effect = None;
        Ok(())
    }

    fn set_gain(&mut self, gain: u16) -> io::Result<()> {
        self.device.set_ff_gain(gain)
    }

    fn set_autocenter(&mut self, strength: u16) -> io::Result<()> {
        self.device.set_ff_autocenter(strength)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gripline_input::ffb::protocol::evdev::DIRECTION_90_DEG;

    #[test]
    fn effect_data_carries_every_field() {
        let e = FfConstantEffect::new(-0.5).updated(3, -0.5);
        let d = data(&e);
        assert_eq!(d.direction, DIRECTION_90_DEG);
        assert_eq!(
            d.replay.length,
            gripline_input::ffb::protocol::evdev::REPLAY_LENGTH_MS
        );
        assert!(matches!(
            d.kind,
            FFEffectKind::Constant { level: -16384, .. }
        ));
    }

    /// The `struct ff_effect` the `evdev` crate (0.13.2) builds from `d` for an upload, in
    /// the kernel's layout as `libc` declares it.
    ///
    /// The crate's `From<FFEffectData> for sys::ff_effect` cannot be called from here (`sys`
    /// is private and its `ff_effect` is the crate's own type), so what can be run is run and
    /// the rest is mirrored:
    /// - run: the crate's `From` conversions of the trigger, replay and envelope, whose
    ///   targets are `libc::ff_trigger`, `libc::ff_replay` and `libc::ff_envelope` on Linux
    ///   (evdev `compat.rs` re-exports libc's), and of the effect kind to its
    ///   `FFEffectCode`;
    /// - mirrored from evdev 0.13.2 `ff.rs` 316-330 and `raw_stream.rs` 682-686: the struct
    ///   zeroed, type and direction copied, the constant level and envelope placed in the
    ///   union, id set to -1;
    /// - placed at the offsets of `libc::ff_effect` and `libc::ff_constant_effect`
    ///   (`offset_of!`), not at hand-written ones.
    fn bytes_the_crate_sends(
        d: &FFEffectData,
    ) -> [u8; gripline_input::ffb::protocol::evdev::FF_EFFECT_SIZE] {
        use std::mem::offset_of;
        let mut b = [0u8; gripline_input::ffb::protocol::evdev::FF_EFFECT_SIZE];
        let mut put = |offset: usize, bytes: [u8; 2]| b[offset..offset + 2].copy_from_slice(&bytes);
        let code: FFEffectCode = d.kind.into();
        put(offset_of!(libc::ff_effect, type_), code.0.to_le_bytes());
        put(offset_of!(libc::ff_effect, id), (-1i16).to_le_bytes());
        put(
            offset_of!(libc::ff_effect, direction),
            d.direction.to_le_bytes(),
        );
        let trigger = libc::ff_trigger::from(d.trigger);
        let at = offset_of!(libc::ff_effect, trigger);
        put(
            at + offset_of!(libc::ff_trigger, button),
            trigger.button.to_le_bytes(),
        );
        put(
            at + offset_of!(libc::ff_trigger, interval),
            trigger.interval.to_le_bytes(),
        );
        let replay = libc::ff_replay::from(d.replay);
        let at = offset_of!(libc::ff_effect, replay);
        put(
            at + offset_of!(libc::ff_replay, length),
            replay.length.to_le_bytes(),
        );
        put(
            at + offset_of!(libc::ff_replay, delay),
            replay.delay.to_le_bytes(),
        );
        let FFEffectKind::Constant { level, envelope } = d.kind else {
            panic!("the backend only uploads constant forces");
        };
        let union = offset_of!(libc::ff_effect, u);
        put(
            union + offset_of!(libc::ff_constant_effect, level),
            level.to_le_bytes(),
        );
        let envelope = libc::ff_envelope::from(envelope);
        let at = union + offset_of!(libc::ff_constant_effect, envelope);
        put(
            at + offset_of!(libc::ff_envelope, attack_length),
            envelope.attack_length.to_le_bytes(),
        );
        put(
            at + offset_of!(libc::ff_envelope, attack_level),
            envelope.attack_level.to_le_bytes(),
        );
        put(
            at + offset_of!(libc::ff_envelope, fade_length),
            envelope.fade_length.to_le_bytes(),
        );
        put(
            at + offset_of!(libc::ff_envelope, fade_level),
            envelope.fade_level.to_le_bytes(),
        );
        b
    }

    /// The encoder's layout constants are the kernel's, as `libc` declares the structs.
    #[cfg(target_pointer_width = "64")]
    #[test]
    fn the_encoders_layout_is_libcs() {
        use gripline_input::ffb::protocol::evdev::{FF_EFFECT_SIZE, INPUT_EVENT_SIZE};
        use std::mem::{offset_of, size_of};
        assert_eq!(size_of::<libc::ff_effect>(), FF_EFFECT_SIZE);
        assert_eq!(offset_of!(libc::ff_effect, replay), 10);
        assert_eq!(offset_of!(libc::ff_effect, u), 16);
        assert_eq!(size_of::<libc::input_event>(), INPUT_EVENT_SIZE);
        assert_eq!(offset_of!(libc::input_event, type_), 16);
        assert_eq!(offset_of!(libc::input_event, code), 18);
        assert_eq!(offset_of!(libc::input_event, value), 20);
        // The EV_FF event the crate writes for play/gain/autocentre has the encoder's fields.
        let event = gripline_input::ffb::protocol::evdev::gain(0x1234);
        assert_eq!(
            &event[16..18],
            &evdev::EventType::FORCEFEEDBACK.0.to_le_bytes()
        );
        assert_eq!(
            u16::from_le_bytes([event[18], event[19]]),
            FFEffectCode::FF_GAIN.0
        );
    }

    #[test]
    fn the_real_path_sends_the_encoders_bytes() {
        use gripline_input::ffb::protocol::evdev::FfEnvelope;
        // The upload the backend makes, and effects with every field set, through the real
        // path's conversion (`data`): the bytes the crate passes to EVIOCSFF equal the
        // byte-exact encoder's.
        let mut effects = vec![FfConstantEffect::new(0.0), FfConstantEffect::new(-0.73)];
        effects.push(FfConstantEffect {
            trigger_button: 0x0120,
            trigger_interval: 7,
            replay_delay: 3,
            envelope: FfEnvelope {
                attack_length: 11,
                attack_level: 22,
                fade_length: 33,
                fade_level: 44,
            },
            ..FfConstantEffect::new(0.4)
        });
        for e in effects {
            assert_eq!(bytes_the_crate_sends(&data(&e)), e.to_bytes(), "{e:?}");
        }
    }

    #[test]
    fn missing_node_is_an_error_not_a_panic() {
        let err = open_evdev_ff(Path::new("/nonexistent/event99")).unwrap_err();
        assert_eq!(err, FfbError::Disconnected);
    }
}

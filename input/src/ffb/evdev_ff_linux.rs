//! The real [`EvdevFfDevice`]: a `/dev/input/eventN` node opened read-write through the
//! `evdev` crate's safe API (Linux only).
//!
//! `evdev` uploads with `EVIOCSFF` and hands back an `FFEffect` that erases itself when
//! dropped, so this wrapper keeps the one effect the backend uploads and maps the backend's
//! effect id onto it. Opening needs write access to the event node (a udev rule for the
//! wheel, `ffb_input.md` section 6).

use std::io;
use std::path::Path;

use evdev::raw_stream::RawDevice;
use evdev::{FFEffect, FFEffectCode, FFEffectData, FFEffectKind, FFEnvelope, FFReplay, FFTrigger};

use crate::ffb::backend::FfbError;
use crate::ffb::evdev_ff::{EvdevFfBackend, EvdevFfConfig, EvdevFfDevice, evdev_rate_hz, ff_error};
use crate::ffb::protocol::evdev::FfConstantEffect;

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
    use crate::ffb::protocol::evdev::DIRECTION_90_DEG;

    #[test]
    fn effect_data_carries_every_field() {
        let e = FfConstantEffect::new(-0.5).updated(3, -0.5);
        let d = data(&e);
        assert_eq!(d.direction, DIRECTION_90_DEG);
        assert_eq!(
            d.replay.length,
            crate::ffb::protocol::evdev::REPLAY_LENGTH_MS
        );
        assert!(matches!(
            d.kind,
            FFEffectKind::Constant { level: -16384, .. }
        ));
    }

    /// The `struct ff_effect` the `evdev` crate (0.13) builds from `d` for an upload: its
    /// `From<FFEffectData> for sys::ff_effect` zeroes the struct, copies the type, direction,
    /// trigger, replay and (for a constant force) the level and envelope field by field, and
    /// `upload_ff_effect` sets the id to -1. The crate's `sys` module is private, so its
    /// conversion cannot be called from here: this mirrors it, line for line (evdev 0.13.2
    /// `ff.rs` 316-330, `raw_stream.rs` 682-686), in the kernel's 64-bit layout.
    fn bytes_the_crate_sends(
        d: &FFEffectData,
    ) -> [u8; crate::ffb::protocol::evdev::FF_EFFECT_SIZE] {
        let mut b = [0u8; crate::ffb::protocol::evdev::FF_EFFECT_SIZE];
        let code: FFEffectCode = d.kind.into();
        b[0..2].copy_from_slice(&code.0.to_le_bytes());
        b[2..4].copy_from_slice(&(-1i16).to_le_bytes());
        b[4..6].copy_from_slice(&d.direction.to_le_bytes());
        b[6..8].copy_from_slice(&d.trigger.button.to_le_bytes());
        b[8..10].copy_from_slice(&d.trigger.interval.to_le_bytes());
        b[10..12].copy_from_slice(&d.replay.length.to_le_bytes());
        b[12..14].copy_from_slice(&d.replay.delay.to_le_bytes());
        let FFEffectKind::Constant { level, envelope } = d.kind else {
            panic!("the backend only uploads constant forces");
        };
        b[16..18].copy_from_slice(&level.to_le_bytes());
        b[18..20].copy_from_slice(&envelope.attack_length.to_le_bytes());
        b[20..22].copy_from_slice(&envelope.attack_level.to_le_bytes());
        b[22..24].copy_from_slice(&envelope.fade_length.to_le_bytes());
        b[24..26].copy_from_slice(&envelope.fade_level.to_le_bytes());
        b
    }

    #[test]
    fn the_real_path_sends_the_encoders_bytes() {
        use crate::ffb::protocol::evdev::FfEnvelope;
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

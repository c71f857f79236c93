//! The Linux evdev force-feedback backend: one `FF_CONSTANT` effect whose level is updated
//! every write (`docs/force-feedback-protocols.md` section 1.5).
//!
//! Start-up: built-in autocentre off (`FF_AUTOCENTER` 0), device gain (`FF_GAIN`), upload one
//! constant effect (`EVIOCSFF` with id -1, replay length
//! [`gripline_input::ffb::protocol::evdev::REPLAY_LENGTH_MS`], direction 0x4000 so that the wheel
//! drivers' `sin(direction)` projection is +1 and the sign travels in the level), play it
//! once, and play it again every [`RENEW_EVERY`] from [`FfbBackend::refresh`] so that the
//! finite length never runs out (hid-pidff before Linux 6.15 plays nothing for length 0). Each [`FfbBackend::send_level`] re-uploads the same effect id with the new
//! level (the Linux FF API's way of updating a playing effect), skipping unchanged levels.
//! [`FfbBackend::stop`] sets the level to zero and stops the effect; a later `send_level`
//! plays it again. Dropping the backend stops and erases the effect (the kernel would also
//! erase it when the device is closed, `input_ff_flush`).
//!
//! The kernel calls go through [`EvdevFfDevice`], so all of this is tested with
//! `RecordingFfDevice`; the real device (`evdev_ff_linux`, Linux only) wraps the `evdev`
//! crate. A device that went away answers `ENODEV`, which becomes
//! [`FfbError::Disconnected`].
//!
//! The write rate is the kernel driver's, not the wheel's: new-lg4ff and hid-fanatecff
//! forward at most every 2 ms, hid-tmff2 every 8 ms, HID++ queues synchronous commands, and
//! hid-pidff forwards every upload (section 1.5). [`evdev_rate_hz`] picks the rate per wheel.

use std::io;

use gripline_input::ffb::backend::{FfbBackend, FfbError, level_to_i16};
use gripline_input::ffb::protocol::evdev::FfConstantEffect;
use gripline_input::known_wheels::{
    self, FfbBackendKind, VID_FANATEC, VID_LOGITECH, VID_THRUSTMASTER,
};

/// How often the playing effect is replayed, well inside its replay length.
pub const RENEW_EVERY: std::time::Duration = std::time::Duration::from_millis(400);

/// Linux `ENODEV`: the device was removed.
pub const ENODEV: i32 = 19;

/// The kernel's side of evdev force feedback, as the backend needs it.
pub trait EvdevFfDevice {
    /// Uploads a new effect (`EVIOCSFF`, `effect.id` is -1) and returns the id the kernel
    /// assigned.
    ///
    /// # Errors
    /// The ioctl's error.
    fn upload(&mut self, effect: &FfConstantEffect) -> io::Result<i16>;

    /// Updates the uploaded effect `effect.id` in place (`EVIOCSFF` with that id).
    ///
    /// # Errors
    /// The ioctl's error.
    fn update(&mut self, effect: &FfConstantEffect) -> io::Result<()>;

    /// Plays effect `id` `count` times (an `EV_FF` event with value `count`).
    ///
    /// # Errors
    /// The write's error.
    fn play(&mut self, id: i16, count: i32) -> io::Result<()>;

    /// Stops effect `id` (an `EV_FF` event with value 0).
    ///
    /// # Errors
    /// The write's error.
    fn stop(&mut self, id: i16) -> io::Result<()>;

    /// Erases effect `id` (`EVIOCRMFF`).
    ///
    /// # Errors
    /// The ioctl's error.
    fn erase(&mut self, id: i16) -> io::Result<()>;

    /// Sets the device gain, 0..0xFFFF (`FF_GAIN`).
    ///
    /// # Errors
    /// The write's error.
    fn set_gain(&mut self, gain: u16) -> io::Result<()>;

    /// Sets the built-in centring spring, 0 = off (`FF_AUTOCENTER`).
    ///
    /// # Errors
    /// The write's error.
    fn set_autocenter(&mut self, strength: u16) -> io::Result<()>;
}

/// An I/O error of the force-feedback device as an [`FfbError`]: `ENODEV` (the device was
/// unplugged) is [`FfbError::Disconnected`], anything else [`FfbError::Io`].
pub fn ff_error(error: &io::Error) -> FfbError {
    if error.raw_os_error() == Some(ENODEV) || error.kind() == io::ErrorKind::NotFound {
        FfbError::Disconnected
    } else {
        FfbError::Io(error.to_string())
    }
}

/// How the evdev backend starts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EvdevFfConfig {
    /// Write rate (Hz), see [`evdev_rate_hz`].
    pub rate_hz: f64,
    /// Device gain, 0..0xFFFF; full gain by default (the pipeline does the scaling).
    pub gain: u16,
    /// Whether the device offers `FF_GAIN` (otherwise the gain is not sent).
    pub has_gain: bool,
    /// Whether the device offers `FF_AUTOCENTER` (otherwise autocentre is not touched).
    pub has_autocenter: bool,
}

impl Default for EvdevFfConfig {
    fn default() -> Self {
        Self {
            rate_hz: DEFAULT_EVDEV_RATE_HZ,
            gain: 0xFFFF,
            has_gain: true,
            has_autocenter: true,
        }
    }
}

/// Rate for wheels whose kernel driver is not known (Hz).
pub const DEFAULT_EVDEV_RATE_HZ: f64 = 250.0;

/// The evdev write rate for a wheel (Hz), from its kernel driver's own update period
/// (`docs/force-feedback-protocols.md` sections 1.5 and 6): 500 for lg4ff (Logitech classic) and
/// hid-fanatecff (2 ms timers), 125 for hid-tmff2 (8 ms timer) and HID++ Logitechs (synchronous
/// command queue), 1000 for HID PID bases (hid-pidff forwards each update), otherwise
/// [`DEFAULT_EVDEV_RATE_HZ`].
pub fn evdev_rate_hz(vendor_id: u16, product_id: u16) -> f64 {
    let Some(wheel) = known_wheels::lookup(vendor_id, product_id) else {
        return DEFAULT_EVDEV_RATE_HZ;
    };
    match (wheel.vendor_id, wheel.backend) {
        (_, FfbBackendKind::HidPid) => 1000.0,
        (VID_LOGITECH, FfbBackendKind::LogitechClassic) | (VID_FANATEC, _) => 500.0,
        // Logitech wheels without the classic protocol speak HID++ (G920, G923 Xbox).
        (VID_LOGITECH | VID_THRUSTMASTER, _) => 125.0,
        _ => DEFAULT_EVDEV_RATE_HZ,
    }
}

/// The evdev `FF_CONSTANT` backend (see the module docs).
#[derive(Debug)]
pub struct EvdevFfBackend<D: EvdevFfDevice> {
    device: D,
    effect: FfConstantEffect,
    rate_hz: f64,
    playing: bool,
    last_level: Option<i16>,
    erased: bool,
    /// When the effect was last played, in the writer's time.
    renewed_at: Option<std::time::Duration>,
}

impl<D: EvdevFfDevice> EvdevFfBackend<D> {
    /// Takes over the wheel: autocentre off, gain, upload the constant effect at level 0,
    /// play it.
    ///
    /// # Errors
    /// [`FfbError::Disconnected`] when the device is gone, [`FfbError::Io`] for other
    /// failures (e.g. the driver refused the effect).
    pub fn start(mut device: D, config: EvdevFfConfig) -> Result<Self, FfbError> {
        if config.has_autocenter {
            device.set_autocenter(0).map_err(|e| ff_error(&e))?;
        }
        if config.has_gain {
            device.set_gain(config.gain).map_err(|e| ff_error(&e))?;
        }
        let new = FfConstantEffect::new(0.0);
        let id = device.upload(&new).map_err(|e| ff_error(&e))?;
        let effect = new.updated(id, 0.0);
        let mut backend = Self {
            device,
            effect,
            rate_hz: sane_rate(config.rate_hz),
            playing: false,
            last_level: Some(0),
            erased: false,
            renewed_at: None,
        };
        backend.play()?;
        Ok(backend)
    }

    /// The device (for tests that inspect what was called).
    pub fn device(&self) -> &D {
        &self.device
    }

    /// The effect id the kernel assigned.
    pub fn effect_id(&self) -> i16 {
        self.effect.id
    }

    fn play(&mut self) -> Result<(), FfbError> {
        self.device
            .play(self.effect.id, 1)
            .map_err(|e| ff_error(&e))?;
        self.playing = true;
        Ok(())
    }

    fn set(&mut self, level: i16) -> Result<(), FfbError> {
        let effect = FfConstantEffect {
            level,
            ..self.effect
        };
        // Forget the last level on failure, so the next value is sent again.
        self.last_level = None;
        self.device.update(&effect).map_err(|e| ff_error(&e))?;
        self.effect = effect;
        self.last_level = Some(level);
        Ok(())
    }
}

fn sane_rate(rate_hz: f64) -> f64 {
    if rate_hz.is_finite() && rate_hz > 0.0 {
        rate_hz.min(10_000.0)
    } else {
        DEFAULT_EVDEV_RATE_HZ
    }
}

impl<D: EvdevFfDevice> FfbBackend for EvdevFfBackend<D> {
    fn max_rate_hz(&self) -> f64 {
        self.rate_hz
    }

    fn send_level(&mut self, level: f64) -> Result<(), FfbError> {
        let level = level_to_i16(level);
        if self.last_level != Some(level) {
            self.set(level)?;
        }
        if !self.playing {
            self.play()?;
        }
        Ok(())
    }

    fn refresh(&mut self, now: std::time::Duration) -> Result<(), FfbError> {
        if !self.playing {
            return Ok(());
        }
        match self.renewed_at {
            None => self.renewed_at = Some(now),
            Some(at) if now.saturating_sub(at) >= RENEW_EVERY || now < at => {
                self.play()?;
                self.renewed_at = Some(now);
            }
            Some(_) => {}
        }
        Ok(())
    }

    fn stop(&mut self) -> Result<(), FfbError> {
        let zeroed = if self.last_level == Some(0) {
            Ok(())
        } else {
            self.set(0)
        };
        self.playing = false;
        self.device.stop(self.effect.id).map_err(|e| ff_error(&e))?;
        zeroed
    }
}

impl<D: EvdevFfDevice> Drop for EvdevFfBackend<D> {
    /// Stops and erases the effect; errors are ignored (the device may be gone, and the
    /// kernel erases an fd's effects when it is closed anyway).
    fn drop(&mut self) {
        if self.erased {
            return;
        }
        self.erased = true;
        if self.playing {
            let _ = self.stop();
        }
        let _ = self.device.erase(self.effect.id);
    }
}

#[cfg(any(test, feature = "test-support"))]
/// One call seen by a [`RecordingFfDevice`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FfCall {
    /// `upload` of this effect.
    Upload(FfConstantEffect),
    /// `update` of this effect.
    Update(FfConstantEffect),
    /// `play(id, count)`.
    Play(i16, i32),
    /// `stop(id)`.
    Stop(i16),
    /// `erase(id)`.
    Erase(i16),
    /// `set_gain(gain)`.
    Gain(u16),
    /// `set_autocenter(strength)`.
    Autocenter(u16),
}

#[cfg(any(test, feature = "test-support"))]
/// A fake evdev force-feedback device that records every call (for tests): it assigns
/// effect id [`RecordingFfDevice::next_id`] and, once [`RecordingFfDevice::fail_with`] is
/// set, fails every call with that OS error (e.g. [`ENODEV`] for an unplug).
#[derive(Clone, Debug, Default)]
pub struct RecordingFfDevice {
    /// Every call, in order (failed calls are not recorded).
    pub calls: Vec<FfCall>,
    /// The id `upload` returns.
    pub next_id: i16,
    /// When set, every call fails with this raw OS error.
    pub fail_with: Option<i32>,
}

#[cfg(any(test, feature = "test-support"))]
impl RecordingFfDevice {
    fn record(&mut self, call: FfCall) -> io::Result<()> {
        if let Some(code) = self.fail_with {
            return Err(io::Error::from_raw_os_error(code));
        }
        self.calls.push(call);
        Ok(())
    }

    /// The levels of every `update`, in order.
    pub fn levels(&self) -> Vec<i16> {
        self.calls
            .iter()
            .filter_map(|c| match c {
                FfCall::Update(e) => Some(e.level),
                _ => None,
            })
            .collect()
    }
}

#[cfg(any(test, feature = "test-support"))]
impl EvdevFfDevice for RecordingFfDevice {
    fn upload(&mut self, effect: &FfConstantEffect) -> io::Result<i16> {
        self.record(FfCall::Upload(*effect))?;
        Ok(self.next_id)
    }
    fn update(&mut self, effect: &FfConstantEffect) -> io::Result<()> {
        self.record(FfCall::Update(*effect))
    }
    fn play(&mut self, id: i16, count: i32) -> io::Result<()> {
        self.record(FfCall::Play(id, count))
    }
    fn stop(&mut self, id: i16) -> io::Result<()> {
        self.record(FfCall::Stop(id))
    }
    fn erase(&mut self, id: i16) -> io::Result<()> {
        self.record(FfCall::Erase(id))
    }
    fn set_gain(&mut self, gain: u16) -> io::Result<()> {
        self.record(FfCall::Gain(gain))
    }
    fn set_autocenter(&mut self, strength: u16) -> io::Result<()> {
        self.record(FfCall::Autocenter(strength))
    }
}

impl<D: EvdevFfDevice + ?Sized> EvdevFfDevice for &mut D {
    fn upload(&mut self, effect: &FfConstantEffect) -> io::Result<i16> {
        (**self).upload(effect)
    }
    fn update(&mut self, effect: &FfConstantEffect) -> io::Result<()> {
        (**self).update(effect)
    }
    fn play(&mut self, id: i16, count: i32) -> io::Result<()> {
        (**self).play(id, count)
    }
    fn stop(&mut self, id: i16) -> io::Result<()> {
        (**self).stop(id)
    }
    fn erase(&mut self, id: i16) -> io::Result<()> {
        (**self).erase(id)
    }
    fn set_gain(&mut self, gain: u16) -> io::Result<()> {
        (**self).set_gain(gain)
    }
    fn set_autocenter(&mut self, strength: u16) -> io::Result<()> {
        (**self).set_autocenter(strength)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gripline_input::ffb::protocol::evdev::{DIRECTION_90_DEG, FfEnvelope};

    fn effect(id: i16, level: i16) -> FfConstantEffect {
        FfConstantEffect {
            id,
            direction: DIRECTION_90_DEG,
            trigger_button: 0,
            trigger_interval: 0,
            replay_length: gripline_input::ffb::protocol::evdev::REPLAY_LENGTH_MS,
            replay_delay: 0,
            level,
            envelope: FfEnvelope::default(),
        }
    }

    fn started() -> EvdevFfBackend<RecordingFfDevice> {
        let device = RecordingFfDevice {
            next_id: 4,
            ..RecordingFfDevice::default()
        };
        EvdevFfBackend::start(device, EvdevFfConfig::default()).unwrap()
    }

    // Section 1.5: autocentre off, gain, upload (id -1, direction 0x4000, replay length
    // 1000 ms, finite for hid-pidff before Linux 6.15), play once.
    #[test]
    fn start_sequence() {
        let b = started();
        assert_eq!(b.effect_id(), 4);
        assert_eq!(
            b.device().calls,
            [
                FfCall::Autocenter(0),
                FfCall::Gain(0xFFFF),
                FfCall::Upload(effect(-1, 0)),
                FfCall::Play(4, 1),
            ]
        );
        // The uploaded effect is the byte layout `protocol::evdev` documents.
        let FfCall::Upload(uploaded) = b.device().calls[2] else {
            unreachable!()
        };
        assert_eq!(
            &uploaded.to_bytes()[..18],
            &[
                0x52, 0x00, 0xFF, 0xFF, 0x00, 0x40, 0, 0, 0, 0, 0xE8, 0x03, 0, 0, 0, 0, 0, 0
            ]
        );
    }

    #[test]
    fn the_finite_effect_is_replayed_before_it_runs_out() {
        use std::time::Duration;
        let mut b = started();
        b.send_level(0.4).unwrap();
        let plays = |b: &EvdevFfBackend<RecordingFfDevice>| {
            b.device()
                .calls
                .iter()
                .filter(|c| matches!(c, FfCall::Play(4, 1)))
                .count()
        };
        let first = plays(&b);
        let mut last = Duration::ZERO;
        let mut longest = Duration::ZERO;
        for ms in 0..5000u64 {
            let now = Duration::from_millis(ms);
            let before = plays(&b);
            b.send_level(0.4).unwrap();
            b.refresh(now).unwrap();
            if plays(&b) > before {
                longest = longest.max(now.saturating_sub(last));
                last = now;
            }
        }
        // Every 400 ms over 5 s, never a gap near the 1000 ms replay length.
        assert!(
            (11..=13).contains(&(plays(&b) - first)),
            "{}",
            plays(&b) - first
        );
        assert!(
            longest
                < Duration::from_millis(u64::from(
                    gripline_input::ffb::protocol::evdev::REPLAY_LENGTH_MS
                ))
        );
        // Stopped: not replayed.
        b.stop().unwrap();
        let stopped = plays(&b);
        b.refresh(Duration::from_mins(1)).unwrap();
        assert_eq!(plays(&b), stopped);
    }

    #[test]
    fn capabilities_decide_gain_and_autocentre() {
        let config = EvdevFfConfig {
            gain: 0x8000,
            has_autocenter: false,
            ..EvdevFfConfig::default()
        };
        let b = EvdevFfBackend::start(RecordingFfDevice::default(), config).unwrap();
        assert_eq!(b.device().calls[0], FfCall::Gain(0x8000));
        let config = EvdevFfConfig {
            has_gain: false,
            has_autocenter: false,
            ..EvdevFfConfig::default()
        };
        let b = EvdevFfBackend::start(RecordingFfDevice::default(), config).unwrap();
        assert!(matches!(b.device().calls[0], FfCall::Upload(_)));
    }

    // Updates reuse the kernel's id; the sign travels in the level; out-of-range levels
    // clamp to ±32767, NaN and infinities become 0; unchanged levels are not re-uploaded.
    #[test]
    fn levels_update_the_same_effect() {
        let mut b = started();
        for level in [0.5, 0.5, -1.0, 7.0, f64::NAN, f64::INFINITY, -0.25, 0.0] {
            b.send_level(level).unwrap();
        }
        let updates: Vec<FfCall> = b.device().calls[4..].to_vec();
        assert_eq!(
            updates,
            [
                FfCall::Update(effect(4, 16384)),
                FfCall::Update(effect(4, -32767)),
                FfCall::Update(effect(4, 32767)),
                FfCall::Update(effect(4, 0)),
                FfCall::Update(effect(4, -8192)),
                FfCall::Update(effect(4, 0)),
            ]
        );
        // Byte image of one update: id 4, level -8192 at offset 16.
        let FfCall::Update(e) = updates[4] else {
            unreachable!()
        };
        let bytes = e.to_bytes();
        assert_eq!(&bytes[2..4], &[0x04, 0x00]);
        assert_eq!(&bytes[16..18], &[0x00, 0xE0]);
    }

    #[test]
    fn stop_zeroes_and_stops_then_send_replays() {
        let mut b = started();
        b.send_level(0.5).unwrap();
        b.stop().unwrap();
        b.stop().unwrap(); // already zero: only the stop event again
        b.send_level(0.0).unwrap(); // plays again without re-uploading zero
        b.send_level(0.25).unwrap();
        assert_eq!(
            b.device().calls[4..],
            [
                FfCall::Update(effect(4, 16384)),
                FfCall::Update(effect(4, 0)),
                FfCall::Stop(4),
                FfCall::Stop(4),
                FfCall::Play(4, 1),
                FfCall::Update(effect(4, 8192)),
            ]
        );
    }

    #[test]
    fn drop_stops_and_erases() {
        let mut device = RecordingFfDevice {
            next_id: 2,
            ..RecordingFfDevice::default()
        };
        {
            let mut b = EvdevFfBackend::start(&mut device, EvdevFfConfig::default()).unwrap();
            b.send_level(-0.5).unwrap();
        }
        assert_eq!(
            device.calls[5..],
            [
                FfCall::Update(effect(2, 0)),
                FfCall::Stop(2),
                FfCall::Erase(2)
            ]
        );
        // After an explicit stop, drop only erases.
        let mut device = RecordingFfDevice::default();
        {
            let mut b = EvdevFfBackend::start(&mut device, EvdevFfConfig::default()).unwrap();
            b.stop().unwrap();
        }
        assert_eq!(device.calls[4..], [FfCall::Stop(0), FfCall::Erase(0)]);
    }

    #[test]
    fn unplug_is_disconnected_and_retried_value_is_resent() {
        let mut b = started();
        b.send_level(0.5).unwrap();
        b.device.fail_with = Some(ENODEV);
        assert_eq!(b.send_level(0.25), Err(FfbError::Disconnected));
        assert_eq!(b.stop(), Err(FfbError::Disconnected));
        b.device.fail_with = None;
        // The failed value was not taken as sent.
        b.send_level(0.25).unwrap();
        assert_eq!(b.device().levels(), [16384, 8192]);
        // Other errors are I/O errors; a failed start is an error, not a panic.
        let failing = RecordingFfDevice {
            fail_with: Some(22),
            ..RecordingFfDevice::default()
        };
        assert!(matches!(
            EvdevFfBackend::start(failing, EvdevFfConfig::default()),
            Err(FfbError::Io(_))
        ));
        let gone = RecordingFfDevice {
            fail_with: Some(ENODEV),
            ..RecordingFfDevice::default()
        };
        assert!(matches!(
            EvdevFfBackend::start(gone, EvdevFfConfig::default()),
            Err(FfbError::Disconnected)
        ));
    }

    #[test]
    fn rates_follow_the_kernel_driver() {
        assert!((evdev_rate_hz(0x046d, 0xc24f) - 500.0).abs() < 1e-9); // G29: lg4ff
        assert!((evdev_rate_hz(0x046d, 0xc262) - 125.0).abs() < 1e-9); // G920: HID++
        assert!((evdev_rate_hz(0x044f, 0xb66e) - 125.0).abs() < 1e-9); // T300: tmff2
        assert!((evdev_rate_hz(0x0eb7, 0x0020) - 500.0).abs() < 1e-9); // Fanatec
        assert!((evdev_rate_hz(0x1209, 0xffb0) - 1000.0).abs() < 1e-9); // OpenFFBoard
        assert!((evdev_rate_hz(0x1234, 0x5678) - DEFAULT_EVDEV_RATE_HZ).abs() < 1e-9);
        let config = EvdevFfConfig {
            rate_hz: f64::NAN,
            ..EvdevFfConfig::default()
        };
        let b = EvdevFfBackend::start(RecordingFfDevice::default(), config).unwrap();
        assert!((b.max_rate_hz() - DEFAULT_EVDEV_RATE_HZ).abs() < 1e-9);
    }

    #[test]
    fn error_mapping() {
        assert_eq!(
            ff_error(&io::Error::from_raw_os_error(ENODEV)),
            FfbError::Disconnected
        );
        assert!(matches!(
            ff_error(&io::Error::from_raw_os_error(5)),
            FfbError::Io(_)
        ));
    }
}

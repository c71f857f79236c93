//! The output side of force feedback: what every device backend implements.
//!
//! A backend takes a signed level, the fraction of the wheel's peak torque (-1..1, positive
//! counter-clockwise after the per-device invert), and turns it into its device's commands:
//! an evdev `FF_CONSTANT` update, a Logitech classic slot command, a HID PID Set Constant
//! Force report (see [`crate::ffb::protocol`]). Writes may be slow; the sim thread never calls
//! a backend directly but through [`crate::ffb::writer::FfbWriter`].

/// Why a force-feedback command failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FfbError {
    /// The device is gone (unplugged, or its handle was closed).
    #[error("force-feedback device disconnected")]
    Disconnected,
    /// The operating system refused or failed a write.
    #[error("force-feedback write failed: {0}")]
    Io(String),
    /// The device does not speak the expected protocol (a report is missing from its
    /// descriptor, an effect could not be created...).
    #[error("force-feedback protocol error: {0}")]
    Protocol(String),
    /// The writer thread reported a failure of its backend (an unplug or any other I/O
    /// error): the device is to be reopened.
    #[error("force-feedback writer: device failed")]
    WriterFailed,
    /// The emergency stop (`ffb::emergency::stop_all`, run by the panic hook and the
    /// terminating signals) stopped the writer: the wheel is at zero and closed, and stays
    /// off until the user turns force feedback back on. Not to be reopened automatically.
    #[error("force feedback stopped by the emergency stop")]
    EmergencyStop,
}

impl FfbError {
    /// Whether the device should be reopened (with backoff) after this error, as after an
    /// unplug: every error but [`FfbError::EmergencyStop`], which only the user lifts.
    pub fn needs_reconnect(&self) -> bool {
        !matches!(self, Self::EmergencyStop)
    }
}

/// A force-feedback device.
pub trait FfbBackend {
    /// The highest rate at which this device accepts commands (Hz): about 500 for lg4ff and
    /// hid-fanatecff, 125 to 250 for hid-tmff2 and HID++, 1000 for HID PID direct-drive
    /// bases (`docs/force-feedback-protocols.md` section 1.5 and section 6).
    fn max_rate_hz(&self) -> f64;

    /// Commands a constant torque of `level` times the wheel's peak (-1..1; values outside
    /// are clamped, non-finite ones sent as 0).
    ///
    /// # Errors
    /// [`FfbError`] when the device could not be written; the caller stops force feedback
    /// and, where [`FfbError::needs_reconnect`], reopens the device.
    fn send_level(&mut self, level: f64) -> Result<(), FfbError>;

    /// Stops every effect and leaves the wheel without torque (used on exit and on errors).
    ///
    /// # Errors
    /// [`FfbError`] when the device could not be written.
    fn stop(&mut self) -> Result<(), FfbError>;

    /// Called by the writer thread every period, whether or not the level changed, with the
    /// time since the writer started: backends whose effects have a finite duration renew
    /// them here (so that a process that dies without a word stops the torque when the
    /// duration runs out). The default does nothing.
    ///
    /// # Errors
    /// [`FfbError`] when the device could not be written.
    fn refresh(&mut self, now: std::time::Duration) -> Result<(), FfbError> {
        let _ = now;
        Ok(())
    }
}

impl<B: FfbBackend + ?Sized> FfbBackend for Box<B> {
    fn max_rate_hz(&self) -> f64 {
        (**self).max_rate_hz()
    }
    fn send_level(&mut self, level: f64) -> Result<(), FfbError> {
        (**self).send_level(level)
    }
    fn stop(&mut self) -> Result<(), FfbError> {
        (**self).stop()
    }
    fn refresh(&mut self, now: std::time::Duration) -> Result<(), FfbError> {
        (**self).refresh(now)
    }
}

/// A backend for when there is no force-feedback device: accepts everything.
#[derive(Clone, Copy, Debug, Default)]
pub struct NullBackend;

impl FfbBackend for NullBackend {
    fn max_rate_hz(&self) -> f64 {
        1000.0
    }
    fn send_level(&mut self, _level: f64) -> Result<(), FfbError> {
        Ok(())
    }
    fn stop(&mut self) -> Result<(), FfbError> {
        Ok(())
    }
}

/// `level` made safe to send: non-finite becomes 0, the rest is clamped to -1..1.
pub fn sanitize_level(level: f64) -> f64 {
    if level.is_finite() {
        level.clamp(-1.0, 1.0)
    } else {
        0.0
    }
}

/// `level` (-1..1) as a signed 16-bit magnitude (-32767..32767), the unit of evdev
/// `ff_constant_effect.level` and SDL's `Sint16`.
pub fn level_to_i16(level: f64) -> i16 {
    // Clamped to -32767..=32767 first, so the cast cannot truncate.
    #[allow(clippy::cast_possible_truncation)]
    let value = (sanitize_level(level) * 32767.0).round() as i16;
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_conversion_is_symmetric_and_safe() {
        assert_eq!(level_to_i16(0.0), 0);
        assert_eq!(level_to_i16(1.0), 32767);
        assert_eq!(level_to_i16(-1.0), -32767);
        assert_eq!(level_to_i16(0.5), 16384);
        assert_eq!(level_to_i16(7.0), 32767);
        assert_eq!(level_to_i16(f64::NAN), 0);
        assert_eq!(level_to_i16(f64::NEG_INFINITY), 0);
    }
}

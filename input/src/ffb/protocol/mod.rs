//! Byte-exact encoders of force-feedback protocols, checked against
//! `docs/force-feedback-protocols.md`.
//!
//! - [`logitech`]: the Logitech classic 7-byte commands, and a backend over raw HID;
//! - [`hid_pid`]: a HID report-descriptor parser for the PID usages, the reports that create,
//!   stream and stop a constant force, and a backend over raw HID;
//! - [`evdev`]: the Linux `ff_effect` (`FF_CONSTANT`) and `input_event` layouts.
//!
//! The backends write through [`HidOutput`], which the hidapi device
//! (`gripline_devices::ffb::hidapi_device::HidapiOutput`) implements; tests use `RecordingHid`.

pub mod evdev;
pub mod hid_pid;
pub mod logitech;

#[cfg(any(test, feature = "test-support"))]
use std::collections::VecDeque;

use crate::ffb::backend::FfbError;

/// Raw HID access as hidapi offers it: report bytes start with the report ID (0 when the
/// device uses none; `docs/force-feedback-protocols.md` section 1.6).
pub trait HidOutput {
    /// Writes an output report.
    ///
    /// # Errors
    /// [`FfbError`] when the device cannot be written.
    fn write(&mut self, report: &[u8]) -> Result<(), FfbError>;

    /// Sends a feature report (`SET_REPORT`).
    ///
    /// # Errors
    /// [`FfbError`] when the device cannot be written.
    fn send_feature_report(&mut self, report: &[u8]) -> Result<(), FfbError>;

    /// Reads a feature report (`GET_REPORT`): `buf[0]` holds the report ID on entry; returns
    /// the number of bytes read into `buf`, report ID included.
    ///
    /// # Errors
    /// [`FfbError`] when the device cannot be read.
    fn get_feature_report(&mut self, buf: &mut [u8]) -> Result<usize, FfbError>;
}

#[cfg(any(test, feature = "test-support"))]
/// One transfer seen by a [`RecordingHid`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HidTransfer {
    /// An output report.
    Output(Vec<u8>),
    /// A feature report sent.
    SetFeature(Vec<u8>),
    /// A feature report requested (its report ID).
    GetFeature(u8),
}

#[cfg(any(test, feature = "test-support"))]
/// A fake HID device that records every transfer and answers feature reads from a queue
/// (for tests).
#[derive(Clone, Debug, Default)]
pub struct RecordingHid {
    /// Every transfer, in order.
    pub log: Vec<HidTransfer>,
    /// Replies to feature reads, in order (each includes its report ID).
    pub feature_replies: VecDeque<Vec<u8>>,
    /// When set, every transfer fails with this error and is not recorded (an unplugged
    /// device).
    pub fail: Option<FfbError>,
}

#[cfg(any(test, feature = "test-support"))]
impl RecordingHid {
    /// The output reports written, in order.
    pub fn outputs(&self) -> Vec<Vec<u8>> {
        self.log
            .iter()
            .filter_map(|t| match t {
                HidTransfer::Output(r) => Some(r.clone()),
                _ => None,
            })
            .collect()
    }
}

#[cfg(any(test, feature = "test-support"))]
impl RecordingHid {
    fn failure(&self) -> Result<(), FfbError> {
        self.fail.clone().map_or(Ok(()), Err)
    }
}

impl<H: HidOutput + ?Sized> HidOutput for &mut H {
    fn write(&mut self, report: &[u8]) -> Result<(), FfbError> {
        (**self).write(report)
    }
    fn send_feature_report(&mut self, report: &[u8]) -> Result<(), FfbError> {
        (**self).send_feature_report(report)
    }
    fn get_feature_report(&mut self, buf: &mut [u8]) -> Result<usize, FfbError> {
        (**self).get_feature_report(buf)
    }
}

#[cfg(any(test, feature = "test-support"))]
impl HidOutput for RecordingHid {
    fn write(&mut self, report: &[u8]) -> Result<(), FfbError> {
        self.failure()?;
        self.log.push(HidTransfer::Output(report.to_vec()));
        Ok(())
    }

    fn send_feature_report(&mut self, report: &[u8]) -> Result<(), FfbError> {
        self.failure()?;
        self.log.push(HidTransfer::SetFeature(report.to_vec()));
        Ok(())
    }

    fn get_feature_report(&mut self, buf: &mut [u8]) -> Result<usize, FfbError> {
        self.failure()?;
        let id = buf.first().copied().unwrap_or(0);
        self.log.push(HidTransfer::GetFeature(id));
        let reply = self
            .feature_replies
            .pop_front()
            .ok_or_else(|| FfbError::Io(format!("no reply queued for feature report {id}")))?;
        let n = reply.len().min(buf.len());
        buf[..n].copy_from_slice(&reply[..n]);
        Ok(n)
    }
}

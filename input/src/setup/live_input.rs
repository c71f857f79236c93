//! The settings screen's live model of the input devices and of force feedback.
//!
//! The app feeds every raw [`InputEvent`] it receives to [`LiveInput::feed`] (scripted
//! devices in tests go through the same call) and, while force feedback runs, every output
//! sample to [`LiveInput::feed_ffb`]. The model keeps, per device, its identity and
//! connection state, each axis's newest raw value, declared range and a short history, and
//! the buttons held; and a short history of the force-feedback torque with its clipping.
//!
//! Memory is bounded: at most [`MAX_DEVICES`] devices (the oldest unplugged one is
//! forgotten first), [`MAX_AXES`] axes and [`MAX_BUTTONS`] held buttons per device, histories
//! of [`HISTORY_SAMPLES`] samples, and an event log of [`EVENT_LOG`] entries that the bind
//! and calibration tools read (so a quick press between two frames is not missed).

use std::collections::VecDeque;
use std::time::Duration;

use crate::device::{AxisRange, DeviceId, DeviceInfo, InputEvent};
use crate::ffb::safety::StopReason;

/// Most devices remembered (connected or unplugged).
pub const MAX_DEVICES: usize = 16;
/// Most axes remembered per device.
pub const MAX_AXES: usize = 64;
/// Most buttons remembered as held per device.
pub const MAX_BUTTONS: usize = 64;
/// Span of the history graphs.
pub const HISTORY_SPAN: Duration = Duration::from_secs(3);
/// Spacing of history samples: faster events within one step replace the step's sample.
pub const HISTORY_STEP: Duration = Duration::from_millis(10);
/// Samples per history ring.
pub const HISTORY_SAMPLES: usize = 300;
/// Entries of the event log.
pub const EVENT_LOG: usize = 1024;

/// A bounded ring of `(time, value)` samples, at most one per [`HISTORY_STEP`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct History<T> {
    samples: VecDeque<(Duration, T)>,
}

impl<T: Copy> History<T> {
    /// Records `value` at `now`. A sample within [`HISTORY_STEP`] of the previous one
    /// replaces it (through `merge(previous, new)`); samples older than [`HISTORY_SPAN`]
    /// before `now` are dropped.
    pub fn push_with(&mut self, now: Duration, value: T, merge: impl Fn(T, T) -> T) {
        if let Some(last) = self.samples.back_mut()
            && now >= last.0
            && now.saturating_sub(last.0) < HISTORY_STEP
        {
            last.1 = merge(last.1, value);
        } else {
            if self.samples.len() >= HISTORY_SAMPLES {
                self.samples.pop_front();
            }
            self.samples.push_back((now, value));
        }
        while let Some(first) = self.samples.front() {
            if now.saturating_sub(first.0) > HISTORY_SPAN {
                self.samples.pop_front();
            } else {
                break;
            }
        }
    }

    /// The samples, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &(Duration, T)> {
        self.samples.iter()
    }

    /// Number of samples.
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    /// Whether there are no samples.
    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }
}

/// One axis of a device as last reported.
#[derive(Clone, Debug, PartialEq)]
pub struct LiveAxis {
    /// Native axis code.
    pub code: u32,
    /// Newest raw value.
    pub raw: i32,
    /// Declared raw range.
    pub range: AxisRange,
    /// Raw values of the last [`HISTORY_SPAN`].
    pub history: History<i32>,
}

impl LiveAxis {
    /// The raw value as a fraction of the declared range (0..1; 0.5 for a degenerate range).
    pub fn fraction(&self) -> f64 {
        fraction(self.raw, self.range)
    }
}

/// `raw` as a fraction of `range` (0..1, clamped; 0.5 for a degenerate range).
pub fn fraction(raw: i32, range: AxisRange) -> f64 {
    let span = f64::from(range.max) - f64::from(range.min);
    if span > 0.0 {
        ((f64::from(raw) - f64::from(range.min)) / span).clamp(0.0, 1.0)
    } else {
        0.5
    }
}

/// One device as the settings screen sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct LiveDevice {
    /// Its handle while connected (the newest one after a replug).
    pub id: DeviceId,
    /// Identity and kind.
    pub info: DeviceInfo,
    /// Plugged in now.
    pub connected: bool,
    /// Axes in the order they first reported.
    pub axes: Vec<LiveAxis>,
    /// Buttons held now.
    pub held: Vec<u32>,
    /// The most recently pressed button.
    pub last_pressed: Option<u32>,
}

impl LiveDevice {
    /// The axis with `code`.
    pub fn axis(&self, code: u32) -> Option<&LiveAxis> {
        self.axes.iter().find(|a| a.code == code)
    }

    /// Whether `button` is held.
    pub fn is_held(&self, button: u32) -> bool {
        self.held.contains(&button)
    }
}

/// One force-feedback output sample, as the sim's pipeline produced it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FfbSample {
    /// Torque sent (N·m, after the clamp).
    pub torque_nm: f64,
    /// The requested torque exceeded the maximum.
    pub clipped: bool,
}

/// The force-feedback side of the model.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LiveFfb {
    /// Torque samples of the last [`HISTORY_SPAN`] (the largest magnitude per step).
    pub history: History<FfbSample>,
    /// Whether the kill switch is engaged (as the app reports it).
    pub killed: bool,
    /// Whether the emergency stop holds force feedback off (as the app reports it).
    pub emergency_stopped: bool,
    /// Why a safety rule (the runaway trip) cut force feedback, while it is cut (as the app
    /// reports it).
    pub cut: Option<StopReason>,
    /// Whether any sample was fed yet.
    pub active: bool,
}

impl LiveFfb {
    /// Fraction of the history's samples that clipped (0..1; 0 without samples).
    pub fn clipping_fraction(&self) -> f64 {
        let n = self.history.len();
        if n == 0 {
            return 0.0;
        }
        let clipped = self.history.iter().filter(|(_, s)| s.clipped).count();
        clipped as f64 / n as f64
    }

    /// Largest torque magnitude in the history (N·m).
    pub fn peak_nm(&self) -> f64 {
        self.history
            .iter()
            .map(|(_, s)| s.torque_nm.abs())
            .fold(0.0, f64::max)
    }
}

/// The live model (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct LiveInput {
    devices: Vec<LiveDevice>,
    ffb: LiveFfb,
    log: VecDeque<(u64, InputEvent)>,
    next_seq: u64,
    now: Duration,
}

impl LiveInput {
    /// An empty model.
    #[cfg(test)]
    pub fn new() -> Self {
        Self::default()
    }

    /// Takes in one raw event at `now` (time since the session started).
    pub fn feed(&mut self, event: &InputEvent, now: Duration) {
        self.now = self.now.max(now);
        match event {
            InputEvent::Connected { device, info } => self.connect(*device, info),
            InputEvent::Disconnected { device } => {
                if let Some(d) = self.device_mut(*device) {
                    d.connected = false;
                    d.held.clear();
                }
            }
            InputEvent::Axis {
                device,
                axis,
                value,
                range,
            } => {
                if let Some(d) = self.device_mut(*device) {
                    if let Some(a) = d.axes.iter_mut().find(|a| a.code == *axis) {
                        a.raw = *value;
                        a.range = *range;
                        a.history.push_with(now, *value, |_, new| new);
                    } else if d.axes.len() < MAX_AXES {
                        let mut history = History::default();
                        history.push_with(now, *value, |_, new| new);
                        d.axes.push(LiveAxis {
                            code: *axis,
                            raw: *value,
                            range: *range,
                            history,
                        });
                    }
                }
            }
            InputEvent::Button {
                device,
                button,
                pressed,
            } => {
                if let Some(d) = self.device_mut(*device) {
                    d.held.retain(|b| b != button);
                    if *pressed {
                        if d.held.len() < MAX_BUTTONS {
                            d.held.push(*button);
                        }
                        d.last_pressed = Some(*button);
                    }
                }
            }
        }
        if self.log.len() >= EVENT_LOG {
            self.log.pop_front();
        }
        self.log.push_back((self.next_seq, event.clone()));
        self.next_seq += 1;
    }

    fn connect(&mut self, id: DeviceId, info: &DeviceInfo) {
        // A replugged device (same identity, unplugged) keeps its entry under its new handle;
        // a handle that is reused by another device replaces the stale entry.
        self.devices
            .retain(|d| !(d.id == id && (d.connected || d.info.identity != info.identity)));
        if let Some(d) = self
            .devices
            .iter_mut()
            .find(|d| !d.connected && d.info.identity == info.identity && d.info.kind == info.kind)
        {
            d.id = id;
            d.connected = true;
            d.info = info.clone();
            return;
        }
        if self.devices.len() >= MAX_DEVICES {
            if let Some(i) = self.devices.iter().position(|d| !d.connected) {
                self.devices.remove(i);
            } else {
                return;
            }
        }
        self.devices.push(LiveDevice {
            id,
            info: info.clone(),
            connected: true,
            axes: Vec::new(),
            held: Vec::new(),
            last_pressed: None,
        });
    }

    fn device_mut(&mut self, id: DeviceId) -> Option<&mut LiveDevice> {
        self.devices.iter_mut().find(|d| d.id == id && d.connected)
    }

    /// Takes in one force-feedback output sample at `now`.
    pub fn feed_ffb(&mut self, sample: FfbSample, now: Duration) {
        self.now = self.now.max(now);
        let sample = FfbSample {
            torque_nm: if sample.torque_nm.is_finite() {
                sample.torque_nm
            } else {
                0.0
            },
            clipped: sample.clipped,
        };
        self.ffb.active = true;
        self.ffb
            .history
            .push_with(now, sample, |old, new| FfbSample {
                torque_nm: if new.torque_nm.abs() >= old.torque_nm.abs() {
                    new.torque_nm
                } else {
                    old.torque_nm
                },
                clipped: old.clipped || new.clipped,
            });
    }

    /// Tells the model whether the force-feedback kill switch is engaged.
    pub fn set_ffb_killed(&mut self, killed: bool) {
        self.ffb.killed = killed;
    }

    /// Tells the model whether the emergency stop holds force feedback off.
    pub fn set_ffb_emergency_stopped(&mut self, stopped: bool) {
        self.ffb.emergency_stopped = stopped;
    }

    /// Tells the model whether, and why, a safety rule cut force feedback.
    pub fn set_ffb_cut(&mut self, cut: Option<StopReason>) {
        self.ffb.cut = cut;
    }

    /// Moves the clock on without an event (so graphs scroll while nothing happens).
    pub fn set_now(&mut self, now: Duration) {
        self.now = self.now.max(now);
    }

    /// The newest time seen.
    pub fn now(&self) -> Duration {
        self.now
    }

    /// Every remembered device, in the order they first connected.
    pub fn devices(&self) -> &[LiveDevice] {
        &self.devices
    }

    /// The connected device with handle `id`.
    pub fn device(&self, id: DeviceId) -> Option<&LiveDevice> {
        self.devices.iter().find(|d| d.id == id && d.connected)
    }

    /// The force-feedback side.
    pub fn ffb(&self) -> &LiveFfb {
        &self.ffb
    }

    /// Sequence number the next event will get.
    pub fn next_seq(&self) -> u64 {
        self.next_seq
    }

    /// Logged events with sequence number `>= seq`, oldest first (events older than the
    /// log's [`EVENT_LOG`] entries are gone).
    pub fn events_since(&self, seq: u64) -> impl Iterator<Item = &(u64, InputEvent)> {
        self.log.iter().filter(move |(s, _)| *s >= seq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::{InputBackend, ScriptedDevice, ScriptedStep};
    use crate::settings::device_identity::{DeviceIdentity, DeviceKind};

    const RANGE: AxisRange = AxisRange::new(0, 1023);

    fn wheel(id: u32) -> ScriptedDevice {
        ScriptedDevice::new(
            DeviceId(id),
            DeviceIdentity::new(0x046d, 0xc24f, "G29", ""),
            DeviceKind::Wheel,
        )
    }

    fn run(dev: &mut ScriptedDevice, live: &mut LiveInput, until_ms: u64) {
        let mut out = Vec::new();
        for ms in 0..=until_ms {
            out.clear();
            let now = Duration::from_millis(ms);
            dev.poll(now, &mut out);
            for e in &out {
                live.feed(e, now);
            }
        }
    }

    #[test]
    fn tracks_axes_buttons_and_replug() {
        let mut dev = wheel(1)
            .at_ms(0, ScriptedStep::Connect)
            .at_ms(
                5,
                ScriptedStep::Axis {
                    axis: 0,
                    value: 100,
                    range: RANGE,
                },
            )
            .at_ms(
                6,
                ScriptedStep::Button {
                    button: 7,
                    pressed: true,
                },
            )
            .at_ms(10, ScriptedStep::Disconnect);
        let mut live = LiveInput::new();
        run(&mut dev, &mut live, 8);
        let d = &live.devices()[0];
        assert!(d.connected && d.is_held(7));
        assert_eq!(d.axis(0).map(|a| a.raw), Some(100));
        run(&mut dev, &mut live, 10);
        assert!(!live.devices()[0].connected);
        assert!(live.devices()[0].held.is_empty());
        // Plugged in again under another handle: same entry, axes remembered.
        let mut again = wheel(9).at_ms(0, ScriptedStep::Connect);
        run(&mut again, &mut live, 0);
        assert_eq!(live.devices().len(), 1);
        assert_eq!(live.devices()[0].id, DeviceId(9));
        assert!(live.device(DeviceId(9)).is_some());
        assert!(live.device(DeviceId(1)).is_none());
    }

    #[test]
    fn memory_is_bounded() {
        let mut live = LiveInput::new();
        for i in 0..(u32::try_from(MAX_DEVICES).unwrap_or(16) + 5) {
            let info = DeviceInfo {
                identity: DeviceIdentity::new(1, 2, &format!("pad {i}"), &format!("s{i}")),
                kind: DeviceKind::Gamepad,
            };
            live.feed(
                &InputEvent::Connected {
                    device: DeviceId(i),
                    info,
                },
                Duration::ZERO,
            );
        }
        assert_eq!(live.devices().len(), MAX_DEVICES);
        for ms in 0..10_000u64 {
            let now = Duration::from_millis(ms);
            live.feed(
                &InputEvent::Axis {
                    device: DeviceId(0),
                    axis: u32::try_from(ms % 100).unwrap_or(0),
                    value: i32::try_from(ms).unwrap_or(0),
                    range: RANGE,
                },
                now,
            );
            live.feed_ffb(
                FfbSample {
                    torque_nm: f64::NAN,
                    clipped: ms % 2 == 0,
                },
                now,
            );
        }
        let d = &live.devices()[0];
        assert_eq!(d.axes.len(), MAX_AXES);
        assert!(d.axes.iter().all(|a| a.history.len() <= HISTORY_SAMPLES));
        assert!(live.ffb().history.len() <= HISTORY_SAMPLES);
        assert!(live.ffb().peak_nm().abs() < 1e-12, "NaN torque reads 0");
        assert_eq!(live.events_since(0).count(), EVENT_LOG);
        // Every 10 ms step merged two clipped samples out of ten: all steps clipped.
        assert!(live.ffb().clipping_fraction() > 0.99);
    }
}

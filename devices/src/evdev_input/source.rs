//! What the evdev backend reads through: raw events from one device
//! ([`EvdevSource`]) and the list of event nodes ([`EvdevEnumerator`]). The Linux
//! implementations wrap the `evdev` crate; [`ScriptedSource`] and [`ScriptedEnumerator`]
//! replay scripted kernel behaviour (events, dropped events, unplugging) for tests.

use std::collections::{BTreeMap, VecDeque};
use std::io;
use std::sync::{Arc, Mutex, PoisonError};

use crate::evdev_input::EvdevDeviceInfo;

/// One `struct input_event` without its timestamp.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawEvent {
    /// `EV_*` type.
    pub ev_type: u16,
    /// Code within the type.
    pub code: u16,
    /// Value.
    pub value: i32,
}

impl RawEvent {
    /// An event from its parts.
    pub const fn new(ev_type: u16, code: u16, value: i32) -> Self {
        Self {
            ev_type,
            code,
            value,
        }
    }
}

/// One opened evdev device.
pub trait EvdevSource {
    /// Appends the events pending now, in kernel order, without blocking (nothing pending is
    /// `Ok` with nothing appended).
    ///
    /// # Errors
    /// The read error; `ENODEV` means the device was unplugged.
    fn read(&mut self, out: &mut Vec<RawEvent>) -> io::Result<()>;

    /// Current values of the absolute axes, `(code, value)` (`EVIOCGABS`), for the resync
    /// after `SYN_DROPPED`.
    ///
    /// # Errors
    /// The ioctl's error.
    fn abs_values(&mut self) -> io::Result<Vec<(u16, i32)>>;

    /// `EV_KEY` codes held down now (`EVIOCGKEY`), for the resync after `SYN_DROPPED`.
    ///
    /// # Errors
    /// The ioctl's error.
    fn pressed_keys(&mut self) -> io::Result<Vec<u16>>;
}

/// The event nodes of the system.
pub trait EvdevEnumerator {
    /// The device type it opens.
    type Source: EvdevSource;

    /// The event nodes present now (`/dev/input/event*`).
    fn nodes(&mut self) -> Vec<String>;

    /// Opens `path` and describes the device.
    ///
    /// # Errors
    /// The open error (no permission, node gone).
    fn open(&mut self, path: &str) -> io::Result<(EvdevDeviceInfo, Self::Source)>;
}

#[derive(Debug, Default)]
struct ScriptState {
    pending: VecDeque<RawEvent>,
    abs: BTreeMap<u16, i32>,
    keys: Vec<u16>,
    unplugged: bool,
}

/// A scripted device: the test queues events and sets the state the kernel would report.
/// Clones share the device, so a test keeps one clone to drive the one the backend owns.
#[derive(Clone, Debug, Default)]
pub struct ScriptedSource(Arc<Mutex<ScriptState>>);

impl ScriptedSource {
    fn state(&self) -> std::sync::MutexGuard<'_, ScriptState> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Queues events for the next read. Axis and key events also update the state the
    /// resync reads, as the kernel's would.
    pub fn push(&self, events: &[RawEvent]) {
        let mut s = self.state();
        for e in events {
            s.apply(*e);
            s.pending.push_back(*e);
        }
    }

    /// Changes the device state without queuing events: what happens while the kernel's
    /// buffer is full and events are dropped.
    pub fn change_silently(&self, events: &[RawEvent]) {
        let mut s = self.state();
        for e in events {
            s.apply(*e);
        }
    }

    /// Unplugs the device: every call fails with `ENODEV` from now on.
    pub fn unplug(&self) {
        self.state().unplugged = true;
    }
}

impl ScriptState {
    fn apply(&mut self, e: RawEvent) {
        match e.ev_type {
            super::EV_ABS => {
                self.abs.insert(e.code, e.value);
            }
            super::EV_KEY => {
                self.keys.retain(|&k| k != e.code);
                if e.value != 0 {
                    self.keys.push(e.code);
                }
            }
            _ => {}
        }
    }

    fn check(&self) -> io::Result<()> {
        if self.unplugged {
            Err(io::Error::from_raw_os_error(crate::ffb::evdev_ff::ENODEV))
        } else {
            Ok(())
        }
    }
}

impl EvdevSource for ScriptedSource {
    fn read(&mut self, out: &mut Vec<RawEvent>) -> io::Result<()> {
        let mut s = self.state();
        s.check()?;
        out.extend(s.pending.drain(..));
        Ok(())
    }

    fn abs_values(&mut self) -> io::Result<Vec<(u16, i32)>> {
        let s = self.state();
        s.check()?;
        Ok(s.abs.iter().map(|(&c, &v)| (c, v)).collect())
    }

    fn pressed_keys(&mut self) -> io::Result<Vec<u16>> {
        let s = self.state();
        s.check()?;
        Ok(s.keys.clone())
    }
}

/// Scripted `/dev/input`: nodes the test plugs in and out. Clones share the state.
#[derive(Clone, Debug, Default)]
pub struct ScriptedEnumerator {
    nodes: Arc<Mutex<Vec<(String, EvdevDeviceInfo, ScriptedSource)>>>,
    denied: Arc<Mutex<Vec<String>>>,
}

impl ScriptedEnumerator {
    fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
        m.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Plugs in a device at `info.path`; returns its source to drive it. Its axes start at
    /// the values in `info`.
    pub fn plug(&self, info: EvdevDeviceInfo) -> ScriptedSource {
        let source = ScriptedSource::default();
        for a in &info.axes {
            source.change_silently(&[RawEvent::new(super::EV_ABS, a.code, a.value)]);
        }
        let mut nodes = Self::lock(&self.nodes);
        nodes.retain(|(p, _, _)| *p != info.path);
        nodes.push((info.path.clone(), info, source.clone()));
        source
    }

    /// Removes the node at `path` (its source keeps failing with `ENODEV`).
    pub fn unplug(&self, path: &str) {
        let mut nodes = Self::lock(&self.nodes);
        for (p, _, s) in nodes.iter() {
            if p == path {
                s.unplug();
            }
        }
        nodes.retain(|(p, _, _)| p != path);
    }

    /// Makes opening `path` fail with "permission denied" (`denied = true`) or work again.
    pub fn deny(&self, path: &str, denied: bool) {
        let mut d = Self::lock(&self.denied);
        d.retain(|p| p != path);
        if denied {
            d.push(path.to_owned());
        }
    }
}

impl EvdevEnumerator for ScriptedEnumerator {
    type Source = ScriptedSource;

    fn nodes(&mut self) -> Vec<String> {
        Self::lock(&self.nodes)
            .iter()
            .map(|(p, _, _)| p.clone())
            .collect()
    }

    fn open(&mut self, path: &str) -> io::Result<(EvdevDeviceInfo, ScriptedSource)> {
        if Self::lock(&self.denied).iter().any(|p| p == path) {
            return Err(io::Error::from(io::ErrorKind::PermissionDenied));
        }
        Self::lock(&self.nodes)
            .iter()
            .find(|(p, _, _)| p == path)
            .map(|(_, info, source)| (info.clone(), source.clone()))
            .ok_or_else(|| io::Error::from(io::ErrorKind::NotFound))
    }
}

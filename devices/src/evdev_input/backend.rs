//! [`EvdevBackend`]: raw evdev events to [`InputEvent`]s.
//!
//! - `EV_ABS` events of a declared axis become [`InputEvent::Axis`] with the raw value and
//!   the `absinfo` range; `EV_KEY` events become [`InputEvent::Button`] (value 2, key
//!   repeat, is not a change and is skipped). Codes are `(type << 16) | code`
//!   ([`super::native_code`]).
//! - `SYN_DROPPED` (the kernel's buffer overflowed): everything up to and including the next
//!   `SYN_REPORT` is discarded, then the device's state is read in full (`EVIOCGABS`,
//!   `EVIOCGKEY`) and every axis or button that differs from what was last reported is
//!   reported, so no press or release is lost (the kernel's `input.rst` event-interface
//!   rules).
//! - Hot-plug: the event nodes are listed on the first poll and then every
//!   [`EvdevBackend::rescan_every`]; a new node that is a game controller is opened and
//!   announced with [`InputEvent::Connected`] (its axes' current values follow, so the
//!   mapper starts from the real state). Nodes that could not be opened (udev may not have
//!   set permissions yet) are tried again at the next scan. A read error is a
//!   disconnection: [`InputEvent::Disconnected`], and the node is forgotten so it is
//!   opened again when it comes back.
//!
//! Nothing here blocks: the sources are non-blocking, and listing `/dev/input` is one
//! directory read per scan.

use std::collections::BTreeSet;
use std::io;
use std::time::Duration;

use crate::evdev_input::source::{EvdevEnumerator, EvdevSource, RawEvent};
use crate::evdev_input::{
    EV_ABS, EV_KEY, EV_SYN, EvdevDeviceInfo, SYN_DROPPED, SYN_REPORT, native_code,
};
use gripline_input::device::{DeviceId, DeviceInfo, InputBackend, InputEvent};

/// Which devices the backend takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvdevSelection {
    /// Every game controller.
    All,
    /// Only game controllers gilrs cannot see (no buttons or fewer than two axes), for use
    /// next to the gilrs backend.
    GilrsInvisible,
}

impl EvdevSelection {
    fn accepts(self, info: &EvdevDeviceInfo) -> bool {
        info.is_game_controller()
            && match self {
                EvdevSelection::All => true,
                EvdevSelection::GilrsInvisible => !info.gilrs_visible(),
            }
    }
}

/// First [`DeviceId`] this backend hands out, far from gilrs's small ids so both backends
/// can feed one mapper.
pub const EVDEV_ID_BASE: u32 = 0x4000_0000;

#[derive(Debug)]
struct Open<S> {
    id: DeviceId,
    path: String,
    info: EvdevDeviceInfo,
    source: S,
    /// Last reported value per axis, in `info.axes` order.
    values: Vec<i32>,
    /// Buttons last reported as down.
    pressed: BTreeSet<u16>,
    /// Discarding events after `SYN_DROPPED` until the next `SYN_REPORT`.
    dropping: bool,
}

impl<S: EvdevSource> Open<S> {
    fn axis_event(&mut self, code: u16, value: i32, out: &mut Vec<InputEvent>) {
        let Ok(index) = self.info.axes.binary_search_by_key(&code, |a| a.code) else {
            return; // not declared: no range to report it with
        };
        self.values[index] = value;
        out.push(InputEvent::Axis {
            device: self.id,
            axis: native_code(EV_ABS, code),
            value,
            range: self.info.axes[index].range(),
        });
    }

    fn key_event(&mut self, code: u16, pressed: bool, out: &mut Vec<InputEvent>) {
        let changed = if pressed {
            self.pressed.insert(code)
        } else {
            self.pressed.remove(&code)
        };
        if changed {
            out.push(InputEvent::Button {
                device: self.id,
                button: native_code(EV_KEY, code),
                pressed,
            });
        }
    }

    fn handle(&mut self, e: RawEvent, out: &mut Vec<InputEvent>) -> io::Result<()> {
        if self.dropping {
            if e.ev_type == EV_SYN && e.code == SYN_REPORT {
                self.dropping = false;
                self.resync(out)?;
            }
            return Ok(());
        }
        match (e.ev_type, e.code) {
            (EV_SYN, SYN_DROPPED) => self.dropping = true,
            (EV_ABS, code) => self.axis_event(code, e.value, out),
            (EV_KEY, code) if e.value != 2 => self.key_event(code, e.value != 0, out),
            _ => {}
        }
        Ok(())
    }

    /// Reads the full state and reports what differs from the last report.
    fn resync(&mut self, out: &mut Vec<InputEvent>) -> io::Result<()> {
        for (code, value) in self.source.abs_values()? {
            let Ok(index) = self.info.axes.binary_search_by_key(&code, |a| a.code) else {
                continue;
            };
            if self.values[index] != value {
                self.axis_event(code, value, out);
            }
        }
        let now: BTreeSet<u16> = self.source.pressed_keys()?.into_iter().collect();
        let released: Vec<u16> = self.pressed.difference(&now).copied().collect();
        for code in released {
            self.key_event(code, false, out);
        }
        for &code in &now {
            self.key_event(code, true, out);
        }
        Ok(())
    }
}

/// The evdev input backend (see the module docs).
#[derive(Debug)]
pub struct EvdevBackend<E: EvdevEnumerator> {
    enumerator: E,
    selection: EvdevSelection,
    rescan_every: Duration,
    last_scan: Option<Duration>,
    devices: Vec<Open<E::Source>>,
    /// Nodes looked at and not taken (not a game controller, or not selected).
    skipped: BTreeSet<String>,
    next_id: u32,
    raw: Vec<RawEvent>,
}

impl<E: EvdevEnumerator> EvdevBackend<E> {
    /// A backend over `enumerator`; nothing is opened until the first poll.
    pub fn new(enumerator: E, selection: EvdevSelection) -> Self {
        Self {
            enumerator,
            selection,
            rescan_every: Duration::from_secs(1),
            last_scan: None,
            devices: Vec::new(),
            skipped: BTreeSet::new(),
            next_id: EVDEV_ID_BASE,
            raw: Vec::new(),
        }
    }

    /// How often `/dev/input` is listed for hot-plugged devices (default 1 s).
    #[must_use]
    pub fn rescan_every(mut self, period: Duration) -> Self {
        self.rescan_every = period;
        self
    }

    /// The open devices: handle and description.
    pub fn devices(&self) -> impl Iterator<Item = (DeviceId, &EvdevDeviceInfo)> {
        self.devices.iter().map(|d| (d.id, &d.info))
    }

    /// The last reported raw value of axis `code` (`ABS_*`) of `device`.
    pub fn axis_value(&self, device: DeviceId, code: u16) -> Option<i32> {
        let d = self.devices.iter().find(|d| d.id == device)?;
        let index = d.info.axes.binary_search_by_key(&code, |a| a.code).ok()?;
        Some(d.values[index])
    }

    /// Whether button `code` (`BTN_*`/`KEY_*`) of `device` was last reported down.
    pub fn button_down(&self, device: DeviceId, code: u16) -> Option<bool> {
        let d = self.devices.iter().find(|d| d.id == device)?;
        Some(d.pressed.contains(&code))
    }

    fn scan(&mut self, out: &mut Vec<InputEvent>) {
        let nodes = self.enumerator.nodes();
        // Forget nodes that went away, so they are looked at again when they come back.
        self.skipped.retain(|p| nodes.contains(p));
        for path in nodes {
            if self.skipped.contains(&path) || self.devices.iter().any(|d| d.path == path) {
                continue;
            }
            // An open error (permissions not set yet) is retried at the next scan.
            let Ok((info, mut source)) = self.enumerator.open(&path) else {
                continue;
            };
            if !self.selection.accepts(&info) {
                self.skipped.insert(path);
                continue;
            }
            // Keys already held when the device is opened are reported too.
            let pressed = source.pressed_keys().unwrap_or_default();
            let id = DeviceId(self.next_id);
            self.next_id = self.next_id.wrapping_add(1).max(EVDEV_ID_BASE);
            out.push(InputEvent::Connected {
                device: id,
                info: DeviceInfo {
                    identity: info.identity(),
                    kind: info.kind(),
                },
            });
            let mut open = Open {
                id,
                path,
                values: info.axes.iter().map(|a| a.value).collect(),
                info,
                source,
                pressed: BTreeSet::new(),
                dropping: false,
            };
            for a in open.info.axes.clone() {
                open.axis_event(a.code, a.value, out);
            }
            for code in pressed {
                open.key_event(code, true, out);
            }
            self.devices.push(open);
        }
    }
}

impl<E: EvdevEnumerator> InputBackend for EvdevBackend<E> {
    fn poll(&mut self, now: Duration, out: &mut Vec<InputEvent>) {
        if self
            .last_scan
            .is_none_or(|t| now.saturating_sub(t) >= self.rescan_every)
        {
            self.last_scan = Some(now);
            self.scan(out);
        }
        let mut i = 0;
        while i < self.devices.len() {
            let d = &mut self.devices[i];
            self.raw.clear();
            let result = d.source.read(&mut self.raw).and_then(|()| {
                for &e in &self.raw {
                    d.handle(e, out)?;
                }
                Ok(())
            });
            match result {
                Err(e) if e.kind() != io::ErrorKind::WouldBlock => {
                    out.push(InputEvent::Disconnected { device: d.id });
                    self.devices.remove(i);
                }
                _ => i += 1,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evdev_input::source::{ScriptedEnumerator, ScriptedSource};
    use crate::evdev_input::{EvdevAxis, FfCapabilities};
    use gripline_input::device::AxisRange;
    use gripline_input::settings::device_identity::{DeviceIdentity, DeviceKind};

    const ABS_X: u16 = 0x00;
    const ABS_Y: u16 = 0x01;
    const ABS_Z: u16 = 0x02;
    const BTN_TRIGGER: u16 = 0x120;
    const BTN_THUMB: u16 = 0x121;
    const X: u32 = 0x3_0000;
    const Y: u32 = 0x3_0001;

    fn axis(code: u16, value: i32, min: i32, max: i32) -> EvdevAxis {
        EvdevAxis {
            code,
            value,
            min,
            max,
            fuzz: 0,
            flat: 0,
        }
    }

    fn g29(path: &str) -> EvdevDeviceInfo {
        EvdevDeviceInfo {
            path: path.to_owned(),
            name: "Logitech G29 Driving Force Racing Wheel".to_owned(),
            phys: "usb-0000:00:14.0-2/input0".to_owned(),
            vendor_id: 0x046d,
            product_id: 0xc24f,
            axes: vec![
                axis(ABS_X, 32768, 0, 65535),
                axis(ABS_Y, 255, 0, 255),
                axis(ABS_Z, 255, 0, 255),
            ],
            buttons: vec![BTN_TRIGGER, BTN_THUMB],
            ff: FfCapabilities {
                constant: true,
                ..FfCapabilities::default()
            },
            ..EvdevDeviceInfo::default()
        }
    }

    fn abs(code: u16, value: i32) -> RawEvent {
        RawEvent::new(EV_ABS, code, value)
    }
    fn key(code: u16, value: i32) -> RawEvent {
        RawEvent::new(EV_KEY, code, value)
    }
    const SYN: RawEvent = RawEvent::new(EV_SYN, SYN_REPORT, 0);
    const DROPPED: RawEvent = RawEvent::new(EV_SYN, SYN_DROPPED, 0);

    fn poll(b: &mut EvdevBackend<ScriptedEnumerator>, ms: u64) -> Vec<InputEvent> {
        let mut out = Vec::new();
        b.poll(Duration::from_millis(ms), &mut out);
        out
    }

    fn setup() -> (
        EvdevBackend<ScriptedEnumerator>,
        ScriptedEnumerator,
        ScriptedSource,
    ) {
        let sys = ScriptedEnumerator::default();
        let dev = sys.plug(g29("/dev/input/event7"));
        let b = EvdevBackend::new(sys.clone(), EvdevSelection::All);
        (b, sys, dev)
    }

    const DEV: DeviceId = DeviceId(EVDEV_ID_BASE);

    fn axis_ev(axis: u32, value: i32, max: i32) -> InputEvent {
        InputEvent::Axis {
            device: DEV,
            axis,
            value,
            range: AxisRange::new(0, max),
        }
    }

    fn button(code: u16, pressed: bool) -> InputEvent {
        InputEvent::Button {
            device: DEV,
            button: 0x1_0000 | u32::from(code),
            pressed,
        }
    }

    #[test]
    fn connect_announces_identity_and_current_state() {
        let (mut b, _sys, _dev) = setup();
        let out = poll(&mut b, 0);
        assert_eq!(
            out,
            [
                InputEvent::Connected {
                    device: DEV,
                    info: DeviceInfo {
                        identity: DeviceIdentity::new(
                            0x046d,
                            0xc24f,
                            "Logitech G29 Driving Force Racing Wheel",
                            "usb-0000:00:14.0-2/input0"
                        ),
                        kind: DeviceKind::Wheel,
                    },
                },
                axis_ev(X, 32768, 65535),
                axis_ev(Y, 255, 255),
                axis_ev(0x3_0002, 255, 255),
            ]
        );
        assert_eq!(b.devices().count(), 1);
    }

    #[test]
    fn events_map_value_for_value() {
        let (mut b, _sys, dev) = setup();
        poll(&mut b, 0);
        dev.push(&[
            abs(ABS_X, 0),
            abs(ABS_Y, 17),
            SYN,
            key(BTN_TRIGGER, 1),
            key(BTN_TRIGGER, 2), // auto-repeat: not a change
            SYN,
            abs(ABS_X, 65535),
            key(BTN_TRIGGER, 0),
            abs(0x10, 1),                 // ABS_HAT0X not declared: no range, skipped
            RawEvent::new(0x04, 0x04, 9), // EV_MSC: ignored
            SYN,
        ]);
        assert_eq!(
            poll(&mut b, 1),
            [
                axis_ev(X, 0, 65535),
                axis_ev(Y, 17, 255),
                button(BTN_TRIGGER, true),
                axis_ev(X, 65535, 65535),
                button(BTN_TRIGGER, false),
            ]
        );
        assert_eq!(b.axis_value(DEV, ABS_Y), Some(17));
        assert_eq!(b.button_down(DEV, BTN_TRIGGER), Some(false));
        assert!(poll(&mut b, 2).is_empty());
    }

    // After SYN_DROPPED everything up to the next SYN_REPORT is discarded, then the full
    // state is read and only the differences are reported: the press that happened while
    // events were dropped is not lost, nor the release of a button held before.
    #[test]
    fn syn_dropped_resyncs_from_the_full_state() {
        let (mut b, _sys, dev) = setup();
        poll(&mut b, 0);
        dev.push(&[key(BTN_THUMB, 1), SYN]);
        poll(&mut b, 1);
        // Lost while the buffer was full: wheel turned, thumb released, trigger pressed.
        dev.change_silently(&[abs(ABS_X, 1000), key(BTN_THUMB, 0), key(BTN_TRIGGER, 1)]);
        dev.push(&[DROPPED, abs(ABS_Y, 3), SYN]);
        assert_eq!(
            poll(&mut b, 2),
            [
                axis_ev(X, 1000, 65535),
                axis_ev(Y, 3, 255),
                button(BTN_THUMB, false),
                button(BTN_TRIGGER, true),
            ]
        );
        // After the resync, normal events again; an unchanged state reports nothing more.
        dev.push(&[abs(ABS_Y, 4), SYN, DROPPED, SYN]);
        assert_eq!(poll(&mut b, 3), [axis_ev(Y, 4, 255)]);
    }

    #[test]
    fn dropping_continues_across_reads() {
        let (mut b, _sys, dev) = setup();
        poll(&mut b, 0);
        dev.push(&[DROPPED, abs(ABS_Y, 9)]);
        assert!(poll(&mut b, 1).is_empty());
        dev.push(&[SYN]);
        assert_eq!(poll(&mut b, 2), [axis_ev(Y, 9, 255)]);
    }

    #[test]
    fn unplug_and_replug() {
        let (mut b, sys, dev) = setup();
        poll(&mut b, 0);
        dev.push(&[key(BTN_TRIGGER, 1), SYN]);
        sys.unplug("/dev/input/event7");
        // The pending events are lost with the device; the read fails with ENODEV.
        assert_eq!(poll(&mut b, 1), [InputEvent::Disconnected { device: DEV }]);
        assert_eq!(b.devices().count(), 0);
        assert!(poll(&mut b, 2).is_empty());
        // Back on another node: found at the next scan, with a new handle and the same
        // identity.
        sys.plug(g29("/dev/input/event9"));
        assert!(poll(&mut b, 500).is_empty());
        let out = poll(&mut b, 1000);
        assert!(
            matches!(&out[0], InputEvent::Connected { device: DeviceId(id), info }
                if *id == EVDEV_ID_BASE + 1 && info.identity.product_id == 0xc24f),
            "{out:?}"
        );
    }

    #[test]
    fn selection_permissions_and_non_controllers() {
        let sys = ScriptedEnumerator::default();
        sys.plug(g29("/dev/input/event7"));
        let keyboard = EvdevDeviceInfo {
            path: "/dev/input/event0".to_owned(),
            name: "AT keyboard".to_owned(),
            buttons: vec![1, 30, 31],
            ..EvdevDeviceInfo::default()
        };
        sys.plug(keyboard);
        let handbrake = EvdevDeviceInfo {
            path: "/dev/input/event8".to_owned(),
            name: "Handbrake".to_owned(),
            vendor_id: 0x30b7,
            product_id: 0x1001,
            axes: vec![axis(ABS_X, 0, 0, 4095)],
            ..EvdevDeviceInfo::default()
        };
        let hb = sys.plug(handbrake);
        sys.deny("/dev/input/event8", true);
        // Next to gilrs: only the handbrake (once it can be opened), not the G29.
        let mut b = EvdevBackend::new(sys.clone(), EvdevSelection::GilrsInvisible)
            .rescan_every(Duration::from_millis(100));
        assert!(poll(&mut b, 0).is_empty());
        sys.deny("/dev/input/event8", false);
        let out = poll(&mut b, 100);
        assert_eq!(out.len(), 2, "{out:?}");
        assert!(matches!(&out[0], InputEvent::Connected { info, .. }
            if info.identity.name == "Handbrake" && info.kind == DeviceKind::Peripheral));
        hb.push(&[abs(ABS_X, 4095), SYN]);
        assert_eq!(
            poll(&mut b, 101),
            [InputEvent::Axis {
                device: DEV,
                axis: X,
                value: 4095,
                range: AxisRange::new(0, 4095)
            }]
        );
        let names: Vec<&str> = b.devices().map(|(_, i)| i.name.as_str()).collect();
        assert_eq!(names, ["Handbrake"]);
    }

    #[test]
    fn failing_resync_is_a_disconnection() {
        let (mut b, _sys, dev) = setup();
        poll(&mut b, 0);
        dev.push(&[DROPPED, SYN]);
        // The device goes away between the read and the state query: the read itself
        // fails first here, which is the same outcome.
        dev.unplug();
        assert_eq!(poll(&mut b, 1), [InputEvent::Disconnected { device: DEV }]);
    }
}

//! The window's keyboard as an input device of the sim thread.
//!
//! The window (UI thread) owns a [`KeyboardSender`] and forwards key presses and releases as
//! USB HID keyboard usages (`gripline_input::settings::input_codes::key`; the window maps its
//! toolkit's physical key codes to them). They travel through a wait-free ring to the
//! [`KeyboardDevice`], an [`InputBackend`] that the sim thread polls every tick like any
//! other device: it announces itself once ([`InputEvent::Connected`], kind `Keyboard`,
//! identity [`DeviceIdentity::keyboard`]) and then reports each key as a button, so the
//! keyboard bindings of the control mapper apply to it unchanged.

use std::time::Duration;

use gripline_input::device::{DeviceId, DeviceInfo, InputBackend, InputEvent};
use gripline_input::settings::device_identity::{DeviceIdentity, DeviceKind};
use rtrb::{Consumer, Producer, RingBuffer};

/// The keyboard's device handle (far from the small numbers the gilrs backend hands out).
pub const KEYBOARD_DEVICE: DeviceId = DeviceId(u32::MAX - 1);
/// Key events the ring holds between two ticks.
pub const KEY_RING_CAPACITY: usize = 256;
/// Keys tracked as held by the sender (for [`KeyboardSender::release_all`]).
const MAX_HELD: usize = 32;

/// One key change: a USB HID usage, pressed or released.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyChange {
    /// USB HID keyboard usage (page 0x07).
    pub usage: u32,
    /// Pressed (`true`) or released.
    pub pressed: bool,
}

/// The UI thread's end: forwards key changes to the sim thread.
#[derive(Debug)]
pub struct KeyboardSender {
    producer: Producer<KeyChange>,
    held: [u32; MAX_HELD],
    held_len: usize,
    lost: u64,
}

/// The sim thread's end, an [`InputBackend`].
#[derive(Debug)]
pub struct KeyboardDevice {
    consumer: Consumer<KeyChange>,
    announced: bool,
}

/// A connected keyboard sender and device.
pub fn keyboard_channel() -> (KeyboardSender, KeyboardDevice) {
    let (producer, consumer) = RingBuffer::new(KEY_RING_CAPACITY);
    (
        KeyboardSender {
            producer,
            held: [0; MAX_HELD],
            held_len: 0,
            lost: 0,
        },
        KeyboardDevice {
            consumer,
            announced: false,
        },
    )
}

impl KeyboardSender {
    /// Forwards a key change (`usage`: USB HID keyboard usage). Auto-repeated presses of a
    /// held key are skipped. Returns `false` when the ring was full (the sim thread is not
    /// running) and the change was lost.
    pub fn key(&mut self, usage: u32, pressed: bool) -> bool {
        let position = self.held[..self.held_len].iter().position(|&k| k == usage);
        match (pressed, position) {
            (true, Some(_)) => return true,
            (true, None) if self.held_len < MAX_HELD => {
                self.held[self.held_len] = usage;
                self.held_len += 1;
            }
            (false, Some(i)) => {
                self.held_len -= 1;
                self.held[i] = self.held[self.held_len];
            }
            _ => {}
        }
        if self.producer.push(KeyChange { usage, pressed }).is_ok() {
            true
        } else {
            self.lost += 1;
            false
        }
    }

    /// Releases every held key (the window lost focus: its releases will never come).
    pub fn release_all(&mut self) {
        while self.held_len > 0 {
            let usage = self.held[self.held_len - 1];
            self.key(usage, false);
        }
    }

    /// Keys currently held, as the sender saw them.
    pub fn held(&self) -> &[u32] {
        &self.held[..self.held_len]
    }

    /// Key changes lost because the ring was full.
    pub fn lost(&self) -> u64 {
        self.lost
    }
}

impl InputBackend for KeyboardDevice {
    /// Announces the keyboard on the first poll (allocates the identity once), then reports
    /// every queued key change as a button event. `now` is unused: keys are reported as they
    /// are drained.
    fn poll(&mut self, _now: Duration, out: &mut Vec<InputEvent>) {
        if !self.announced {
            self.announced = true;
            out.push(InputEvent::Connected {
                device: KEYBOARD_DEVICE,
                info: DeviceInfo {
                    identity: DeviceIdentity::keyboard(),
                    kind: DeviceKind::Keyboard,
                },
            });
        }
        while out.len() < out.capacity() {
            let Ok(change) = self.consumer.pop() else {
                break;
            };
            out.push(InputEvent::Button {
                device: KEYBOARD_DEVICE,
                button: change.usage,
                pressed: change.pressed,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gripline_input::settings::input_codes::key;

    #[test]
    fn announces_once_then_reports_keys_as_buttons() {
        let (mut tx, mut dev) = keyboard_channel();
        let mut out = Vec::with_capacity(16);
        dev.poll(Duration::ZERO, &mut out);
        assert!(matches!(
            &out[..],
            [InputEvent::Connected { device: KEYBOARD_DEVICE, info }] if info.kind == DeviceKind::Keyboard
        ));
        out.clear();
        assert!(tx.key(key::UP, true));
        assert!(tx.key(key::UP, true)); // auto-repeat: skipped
        assert!(tx.key(key::LEFT, true));
        assert!(tx.key(key::UP, false));
        dev.poll(Duration::ZERO, &mut out);
        assert_eq!(
            out,
            [
                InputEvent::Button {
                    device: KEYBOARD_DEVICE,
                    button: key::UP,
                    pressed: true
                },
                InputEvent::Button {
                    device: KEYBOARD_DEVICE,
                    button: key::LEFT,
                    pressed: true
                },
                InputEvent::Button {
                    device: KEYBOARD_DEVICE,
                    button: key::UP,
                    pressed: false
                },
            ]
        );
        assert_eq!(tx.held(), [key::LEFT]);
    }

    #[test]
    fn release_all_releases_held_keys() {
        let (mut tx, mut dev) = keyboard_channel();
        let mut out = Vec::with_capacity(16);
        dev.poll(Duration::ZERO, &mut out);
        out.clear();
        tx.key(key::UP, true);
        tx.key(key::SPACE, true);
        tx.release_all();
        assert!(tx.held().is_empty());
        dev.poll(Duration::ZERO, &mut out);
        let released: Vec<u32> = out
            .iter()
            .filter_map(|e| match e {
                InputEvent::Button {
                    button,
                    pressed: false,
                    ..
                } => Some(*button),
                _ => None,
            })
            .collect();
        assert_eq!(released.len(), 2);
        assert!(released.contains(&key::UP) && released.contains(&key::SPACE));
    }

    #[test]
    fn a_full_ring_loses_and_counts() {
        let (mut tx, _dev) = keyboard_channel();
        for i in 0..(u32::try_from(KEY_RING_CAPACITY).unwrap() + 10) {
            tx.key(0x04 + (i % 2), i % 4 < 2);
        }
        assert!(tx.lost() > 0);
    }
}

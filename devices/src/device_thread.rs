//! Input devices polled on their own thread, forwarded to the sim thread through a ring.
//!
//! A backend whose polling may block, allocate or take locks (gilrs reads udev and evdev
//! nodes, and its `Gilrs` handle stays on the thread that made it) does not belong on the sim
//! thread. A [`DeviceThread`] creates the backend on a small thread of its own, polls it every
//! millisecond and forwards its events through a wait-free ring to a [`ForwardedDevice`],
//! the [`InputBackend`] the sim thread polls. Events that do not fit in the ring wait on the
//! device thread, in order, so a button release is never lost.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::gilrs_backend::{GilrsBackend, InputBackendError};
use gripline_input::device::{InputBackend, InputEvent};
use rtrb::{Consumer, RingBuffer};

/// Events the ring holds.
pub const EVENT_RING_CAPACITY: usize = 1024;
/// How often the device thread polls.
const POLL_PERIOD: Duration = Duration::from_millis(1);

/// The sim thread's end of a device thread: an [`InputBackend`].
#[derive(Debug)]
pub struct ForwardedDevice {
    consumer: Consumer<InputEvent>,
}

impl InputBackend for ForwardedDevice {
    /// Reports the forwarded events (as many as `out` has capacity for; the rest next tick).
    fn poll(&mut self, _now: Duration, out: &mut Vec<InputEvent>) {
        while out.len() < out.capacity() {
            let Ok(event) = self.consumer.pop() else {
                break;
            };
            out.push(event);
        }
    }
}

/// A thread polling one backend (see the module docs). Dropping it stops the thread.
#[derive(Debug)]
pub struct DeviceThread {
    quit: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl DeviceThread {
    /// Starts a thread named `name` that builds its backend with `make` and forwards its
    /// events. Returns the thread and the sim-side device, or `make`'s error (then no thread
    /// keeps running).
    ///
    /// # Errors
    /// `make`'s error, or the OS's when the thread cannot be spawned (as `E::from`).
    pub fn spawn<B, E, F>(name: &str, make: F) -> Result<(Self, ForwardedDevice), E>
    where
        B: InputBackend,
        E: Send + 'static + From<std::io::Error>,
        F: FnOnce() -> Result<B, E> + Send + 'static,
    {
        let (mut producer, consumer) = RingBuffer::new(EVENT_RING_CAPACITY);
        let quit = Arc::new(AtomicBool::new(false));
        let thread_quit = Arc::clone(&quit);
        let (ready_tx, ready_rx) = std::sync::mpsc::channel::<Result<(), E>>();
        let thread = std::thread::Builder::new()
            .name(name.to_owned())
            .spawn(move || {
                let mut backend = match make() {
                    Ok(b) => {
                        let _ = ready_tx.send(Ok(()));
                        b
                    }
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                        return;
                    }
                };
                let start = Instant::now();
                let mut polled = Vec::with_capacity(64);
                let mut pending = VecDeque::new();
                while !thread_quit.load(Ordering::Relaxed) {
                    polled.clear();
                    backend.poll(start.elapsed(), &mut polled);
                    pending.extend(polled.drain(..));
                    while let Some(event) = pending.pop_front() {
                        if let Err(rtrb::PushError::Full(event)) = producer.push(event) {
                            pending.push_front(event);
                            break;
                        }
                    }
                    std::thread::sleep(POLL_PERIOD);
                }
            })?;
        match ready_rx.recv() {
            Ok(Ok(())) => Ok((
                Self {
                    quit,
                    thread: Some(thread),
                },
                ForwardedDevice { consumer },
            )),
            Ok(Err(e)) => {
                let _ = thread.join();
                Err(e)
            }
            Err(_) => {
                let _ = thread.join();
                Err(E::from(std::io::Error::other(
                    "the device thread ended early",
                )))
            }
        }
    }

    /// The gilrs backend on a thread named `gripline-gilrs`.
    ///
    /// # Errors
    /// Why gilrs could not start (no udev in a container, unsupported platform): run without
    /// it, the keyboard still works.
    pub fn gilrs() -> Result<(Self, ForwardedDevice), GilrsStartError> {
        Self::spawn("gripline-gilrs", || {
            GilrsBackend::new().map_err(GilrsStartError::Backend)
        })
    }

    /// Stops the thread and waits for it.
    pub fn stop(mut self) {
        self.join();
    }

    fn join(&mut self) {
        self.quit.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for DeviceThread {
    fn drop(&mut self) {
        self.join();
    }
}

/// Why the gilrs device thread did not start.
#[derive(Debug, thiserror::Error)]
pub enum GilrsStartError {
    /// The backend could not start.
    #[error(transparent)]
    Backend(InputBackendError),
    /// The thread could not be spawned.
    #[error("cannot spawn the device thread: {0}")]
    Thread(#[from] std::io::Error),
}

#[cfg(test)]
mod tests {
    use super::*;
    use gripline_input::device::{DeviceId, ScriptedDevice, ScriptedStep};
    use gripline_input::settings::device_identity::{DeviceIdentity, DeviceKind};

    #[test]
    fn forwards_every_event_in_order() {
        let (thread, mut device) = DeviceThread::spawn("test-device", || {
            let mut dev = ScriptedDevice::new(
                DeviceId(3),
                DeviceIdentity::new(1, 2, "pad", ""),
                DeviceKind::Gamepad,
            )
            .at_ms(0, ScriptedStep::Connect);
            for i in 0..3000u32 {
                dev = dev.at_ms(
                    0,
                    ScriptedStep::Button {
                        button: i,
                        pressed: true,
                    },
                );
            }
            Ok::<_, std::io::Error>(dev)
        })
        .unwrap();
        let mut got = Vec::new();
        let mut out = Vec::with_capacity(256);
        let deadline = Instant::now() + Duration::from_secs(10);
        while got.len() < 3001 && Instant::now() < deadline {
            out.clear();
            device.poll(Duration::ZERO, &mut out);
            got.append(&mut out);
            out.reserve(256);
            std::thread::sleep(Duration::from_millis(1));
        }
        thread.stop();
        assert_eq!(
            got.len(),
            3001,
            "more events than the ring holds all arrive"
        );
        assert!(matches!(got[0], InputEvent::Connected { .. }));
        for (i, e) in got[1..].iter().enumerate() {
            assert!(
                matches!(e, InputEvent::Button { button, .. } if *button as usize == i),
                "{e:?} at {i}"
            );
        }
    }

    #[test]
    fn a_backend_that_cannot_start_reports_its_error() {
        let result = DeviceThread::spawn("test-fail", || {
            Err::<ScriptedDevice, _>(std::io::Error::other("no device"))
        });
        assert_eq!(result.unwrap_err().to_string(), "no device");
    }
}

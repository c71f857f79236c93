//! Keeps the force-feedback wheel linked while the simulator runs: opens it off the sim
//! thread, reopens it after an unplug or a failed write (with backoff), at once when a device
//! is plugged in, and whenever the settings change what decides the device (on/off, backend,
//! device, per-device peak and invert, rotation).
//!
//! A thread (`gripline-ffb-link`) does the opening through an [`FfbOpener`] (in the app
//! [`crate::wheel_setup::open_ffb`]; tests script it). Each attempt's [`OpenedFfb`] goes back
//! to the UI ([`FfbConnector::poll`]), which forwards its link to the sim thread as
//! `Command::SetFfbLink`; the sim silences the old backend, swaps the new one in and fades it
//! in. Before opening again the thread stops the writer it opened last (zero, `stop`, device
//! closed), so that two writers never drive one wheel, e.g. when a HID PID "stop all" of the
//! old one would cancel the new one's effect.
//!
//! Backoff after a failure: 0.25 s, doubling up to 5 s ([`Backoff`]); reset by a success, a
//! settings change or a device being plugged in.
//!
//! A writer the emergency stop stopped (`ffb::emergency`, after a panic) is not reopened on
//! its own: the sim reports it apart from a failure, and only the user's re-enable
//! ([`FfbConnector::reenable`]) lifts the emergency latch and opens the device again.

use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use gripline_config::Settings;
use gripline_input::ffb::writer::WriterControl;

use crate::wheel_setup::{LinkStatus, OpenedFfb};

/// First retry delay after a failure.
pub const FIRST_RETRY: Duration = Duration::from_millis(250);
/// Longest retry delay.
pub const MAX_RETRY: Duration = Duration::from_secs(5);
/// How long the connector waits for the previous writer to close its device.
const CLOSE_TIMEOUT: Duration = Duration::from_millis(500);

/// Opens force feedback for some settings (see the module docs).
pub trait FfbOpener: Send + 'static {
    /// One attempt; never fails (the result says whether it linked).
    fn open(&mut self, settings: &Settings) -> OpenedFfb;
}

impl<F: FnMut(&Settings) -> OpenedFfb + Send + 'static> FfbOpener for F {
    fn open(&mut self, settings: &Settings) -> OpenedFfb {
        self(settings)
    }
}

/// Retry delays: [`FIRST_RETRY`], doubling, at most [`MAX_RETRY`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Backoff {
    next: Duration,
}

impl Default for Backoff {
    fn default() -> Self {
        Self { next: FIRST_RETRY }
    }
}

impl Backoff {
    /// The delay before the next retry; the one after it is twice as long (up to the
    /// maximum).
    pub fn next_delay(&mut self) -> Duration {
        let delay = self.next;
        self.next = (self.next * 2).min(MAX_RETRY);
        delay
    }

    /// Back to the first delay.
    pub fn reset(&mut self) {
        self.next = FIRST_RETRY;
    }
}

enum Request {
    Settings(Box<Settings>),
    Failed,
    Plugged,
    Reenable,
}

/// The UI's handle on the connector thread (see the module docs). Dropping it stops the
/// thread.
pub struct FfbConnector {
    requests: Option<Sender<Request>>,
    opened: Receiver<OpenedFfb>,
    thread: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for FfbConnector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FfbConnector").finish_non_exhaustive()
    }
}

impl FfbConnector {
    /// Starts the connector for `settings`, given what the window opened at start
    /// (`status`, and the writer's `control`); it opens nothing until told to.
    ///
    /// # Errors
    /// The operating system's error when the thread cannot start.
    pub fn spawn(
        opener: impl FfbOpener,
        settings: Settings,
        status: LinkStatus,
        control: Option<WriterControl>,
    ) -> std::io::Result<Self> {
        let (requests, inbox) = mpsc::channel();
        let (outbox, opened) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("gripline-ffb-link".to_owned())
            .spawn(move || {
                run(
                    opener,
                    State {
                        settings,
                        status,
                        control,
                        backoff: Backoff::default(),
                        retry_at: None,
                    },
                    &inbox,
                    &outbox,
                );
            })?;
        Ok(Self {
            requests: Some(requests),
            opened,
            thread: Some(thread),
        })
    }

    /// The settings changed what decides the device: reopen with them now.
    pub fn settings_changed(&self, settings: &Settings) {
        self.send(Request::Settings(Box::new(settings.clone())));
    }

    /// The sim thread reported that the device failed a write (unplugged): reopen with
    /// backoff.
    pub fn device_failed(&self) {
        self.send(Request::Failed);
    }

    /// The user turned force feedback back on after the emergency stop: writers may run
    /// again (`ffb::emergency::rearm`), and the device is opened again at once.
    pub fn reenable(&self) {
        self.send(Request::Reenable);
    }

    /// An input device was plugged in: if force feedback is not linked, try at once.
    pub fn device_plugged(&self) {
        self.send(Request::Plugged);
    }

    /// The newest attempt's result, if one finished since the last call.
    pub fn poll(&self) -> Option<OpenedFfb> {
        let mut newest = None;
        while let Ok(opened) = self.opened.try_recv() {
            newest = Some(opened);
        }
        newest
    }

    fn send(&self, request: Request) {
        if let Some(requests) = &self.requests {
            // The thread only ends when this handle is dropped.
            let _ = requests.send(request);
        }
    }
}

impl Drop for FfbConnector {
    fn drop(&mut self) {
        self.requests = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

struct State {
    settings: Settings,
    status: LinkStatus,
    control: Option<WriterControl>,
    backoff: Backoff,
    retry_at: Option<Instant>,
}

fn run(
    mut opener: impl FfbOpener,
    mut state: State,
    inbox: &Receiver<Request>,
    outbox: &Sender<OpenedFfb>,
) {
    loop {
        let request = match state.retry_at {
            Some(at) => inbox.recv_timeout(at.saturating_duration_since(Instant::now())),
            None => inbox.recv().map_err(|_| RecvTimeoutError::Disconnected),
        };
        // The user asked (new settings, re-enable): the answer is reported even when it is
        // "still no wheel".
        let asked = matches!(request, Ok(Request::Settings(_) | Request::Reenable));
        let attempt = match request {
            Ok(Request::Settings(settings)) => {
                state.settings = *settings;
                state.backoff.reset();
                true
            }
            Ok(Request::Failed) => {
                state.status = LinkStatus::Failed;
                if state.retry_at.is_none() {
                    state.retry_at = Some(Instant::now() + state.backoff.next_delay());
                }
                false
            }
            Ok(Request::Plugged) => {
                if state.status == LinkStatus::Linked {
                    false
                } else {
                    state.backoff.reset();
                    true
                }
            }
            Ok(Request::Reenable) => {
                gripline_input::ffb::emergency::rearm();
                state.backoff.reset();
                true
            }
            Err(RecvTimeoutError::Timeout) => true,
            Err(RecvTimeoutError::Disconnected) => break,
        };
        if !attempt {
            continue;
        }
        // Close the device we opened last before opening one again.
        if let Some(control) = state.control.take() {
            control.shutdown(CLOSE_TIMEOUT);
        }
        let opened = opener.open(&state.settings);
        let nothing_new = opened.status == LinkStatus::Idle && state.status == LinkStatus::Idle;
        state.status = opened.status;
        state.control.clone_from(&opened.control);
        state.retry_at = match opened.status {
            LinkStatus::Failed => Some(Instant::now() + state.backoff.next_delay()),
            LinkStatus::Linked => {
                state.backoff.reset();
                None
            }
            LinkStatus::Idle => None,
        };
        // Still no wheel after a device that is not one was plugged in: nothing to tell.
        if nothing_new && !asked {
            continue;
        }
        if outbox.send(opened).is_err() {
            break;
        }
    }
    if let Some(control) = state.control.take() {
        control.shutdown(CLOSE_TIMEOUT);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_to_the_maximum_and_resets() {
        let mut b = Backoff::default();
        let delays: Vec<u128> = (0..8).map(|_| b.next_delay().as_millis()).collect();
        assert_eq!(delays, [250, 500, 1000, 2000, 4000, 5000, 5000, 5000]);
        b.reset();
        assert_eq!(b.next_delay(), FIRST_RETRY);
    }
}

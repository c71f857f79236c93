//! Zero torque when the process ends abnormally: SIGINT, SIGTERM, or a panic on any thread.
//!
//! A process killed by a signal runs no destructors, so the [`crate::ffb::writer::FfbWriter`]'s
//! own `Drop` (zero, then the backend's `stop`) never happens, and a raw-HID device keeps
//! playing its last force. Every writer registers itself here when it starts
//! ([`register`]); [`stop_all`] asks each live writer thread to send zero, stop its effects
//! and close the device, and waits (bounded) until they have.
//!
//! - [`install_signal_handlers`]: a thread (`gripline-signals`) waits for SIGINT or SIGTERM
//!   (through `signal-hook`, whose handler only writes to a pipe: nothing unsafe runs in the
//!   handler itself), then calls [`stop_all`] and exits with status 128 + the signal number,
//!   as a shell expects. SIGKILL cannot be caught by any process; for it, the evdev backend
//!   relies on the kernel (a closed descriptor's effects are erased) and the HID PID backend
//!   on its finite, renewed effect duration.
//! - [`install_panic_hook`]: before the default panic report, [`stop_all`]: a panicking sim
//!   thread, writer or UI leaves the wheel at zero.

use std::sync::Mutex;
use std::time::Duration;

use crate::ffb::writer::WriterControl;

/// How long [`stop_all`] waits for each writer by default (a write to a USB device takes a
/// few milliseconds; a hung device must not keep the process alive).
pub const STOP_TIMEOUT: Duration = Duration::from_millis(250);

/// The writers started in this process, pruned of finished ones as new ones register.
static WRITERS: Mutex<Vec<WriterControl>> = Mutex::new(Vec::new());

/// Records a writer so that [`stop_all`] can stop it. Called by the writer itself.
pub fn register(control: WriterControl) {
    let mut writers = WRITERS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    writers.retain(|w| !w.is_done());
    writers.push(control);
}

/// Stops every registered writer that is still running (zero, backend `stop`, device
/// closed), waiting up to `timeout` for each. Returns how many were running and how many of
/// those confirmed in time.
pub fn stop_all(timeout: Duration) -> (usize, usize) {
    // Clone the list so that a writer registering meanwhile cannot deadlock us, and a
    // poisoned lock (a panic while holding it) still lets us stop the wheel.
    let writers: Vec<WriterControl> = WRITERS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone();
    let running: Vec<&WriterControl> = writers.iter().filter(|w| !w.is_done()).collect();
    let stopped = running.iter().filter(|w| w.shutdown(timeout)).count();
    (running.len(), stopped)
}

/// Installs the SIGINT/SIGTERM handling described in the module docs (Unix only; a no-op
/// elsewhere).
///
/// # Errors
/// The operating system's error when the signals cannot be registered or the thread
/// cannot start.
#[cfg(unix)]
pub fn install_signal_handlers() -> std::io::Result<()> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM])?;
    std::thread::Builder::new()
        .name("gripline-signals".to_owned())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                let (running, stopped) = stop_all(STOP_TIMEOUT);
                if running > 0 {
                    eprintln!(
                        "gripline: signal {signal}: force feedback stopped ({stopped} of \
                         {running} device(s) confirmed)"
                    );
                }
                std::process::exit(128 + signal);
            }
        })?;
    Ok(())
}

/// Installs the SIGINT/SIGTERM handling (a no-op off Unix).
///
/// # Errors
/// Never off Unix.
#[cfg(not(unix))]
pub fn install_signal_handlers() -> std::io::Result<()> {
    Ok(())
}

/// Installs a panic hook that stops every writer, then runs the hook that was installed
/// before (the default report).
pub fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        stop_all(STOP_TIMEOUT);
        previous(info);
    }));
}

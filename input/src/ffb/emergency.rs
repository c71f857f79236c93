//! Zero torque when the process ends or stops abnormally: SIGINT, SIGTERM, SIGHUP, SIGQUIT,
//! SIGTSTP (Ctrl+Z), or a panic on any thread.
//!
//! A process killed by a signal runs no destructors, so the [`crate::ffb::writer::FfbWriter`]'s
//! own `Drop` (zero, then the backend's `stop`) never happens, and a raw-HID device keeps
//! playing its last force. A stopped process writes nothing either, so a wheel holds the force
//! it last received for as long as the process stays stopped (the Logitech classic protocol
//! has no effect duration at all). Every writer registers itself here when it starts
//! ([`register`]); [`stop_all`] asks each live writer thread to send zero, stop its effects
//! and close the device, and waits (bounded) until they have; [`pause_all`] asks each to
//! send zero and hold it with the device open, and [`resume_all`] lets them go on.
//!
//! - [`install_signal_handlers`]: a thread (`gripline-signals`) waits for the signals
//!   (through `signal-hook`, whose handler only writes to a pipe: nothing unsafe runs in the
//!   handler itself).
//!   - SIGINT, SIGTERM, SIGHUP (terminal closed) and SIGQUIT (Ctrl+\\): [`stop_all`], then
//!     exit with status 128 + the signal number, as a shell expects (SIGQUIT's core dump is
//!     not written).
//!   - SIGTSTP (Ctrl+Z): [`pause_all`], which returns once every wheel is confirmed at zero
//!     (or after [`STOP_TIMEOUT`]), then the process stops itself with SIGSTOP, as SIGTSTP's
//!     default action would have. When SIGCONT continues it, [`resume_all`]: each writer
//!     fades its force back in from zero (`WriterConfig::fade_in`), so a wheel never jumps
//!     back to a force the driver no longer expects.
//!
//!   SIGKILL and SIGSTOP cannot be caught by any process. On SIGKILL the evdev backend relies
//!   on the kernel (a closed descriptor's effects are erased) and the HID PID backend on its
//!   finite, renewed effect duration; a process stopped by a bare SIGSTOP keeps its
//!   descriptors, so there only the HID PID duration ends the force. SIGTTIN and SIGTTOU (a background
//!   process touching its terminal) keep their default stop: a graphical simulator does not
//!   read its terminal.
//! - [`install_panic_hook`]: before the default panic report, [`stop_all`]: a panicking sim
//!   thread, writer or UI leaves the wheel at zero. The stopped writers then fail every
//!   `send_level` with
//!   [`FfbError::EmergencyStop`](crate::ffb::backend::FfbError::EmergencyStop), so the
//!   sim side knows and tells the user; writers started afterwards are stopped at once too,
//!   until the user turns force feedback back on ([`rearm`]).

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::ffb::writer::WriterControl;

/// How long [`stop_all`] and [`pause_all`] wait for each writer by default (a write to a USB
/// device takes a few milliseconds; a hung device must not keep the process alive, or from
/// stopping when asked).
pub const STOP_TIMEOUT: Duration = Duration::from_millis(250);

/// The writers started in this process, pruned of finished ones as new ones register.
static WRITERS: Mutex<Vec<WriterControl>> = Mutex::new(Vec::new());

/// Set by [`stop_all`], cleared by [`rearm`]: writers registering meanwhile are stopped.
/// Written under the `WRITERS` lock, so that a writer either is in [`stop_all`]'s list or
/// sees the latch when it registers.
static STOPPED: AtomicBool = AtomicBool::new(false);

/// Set by [`pause_all`], cleared by [`resume_all`] (under the `WRITERS` lock, as `STOPPED`):
/// writers registering meanwhile start paused.
static PAUSED: AtomicBool = AtomicBool::new(false);

fn writers() -> std::sync::MutexGuard<'static, Vec<WriterControl>> {
    // A poisoned lock (a panic while holding it) must still let us stop the wheel.
    WRITERS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Records a writer so that [`stop_all`] and [`pause_all`] can reach it. Called by the
/// writer itself. A writer registering after [`stop_all`] (and before [`rearm`]) is given
/// the emergency stop at once; one registering during a pause starts paused.
pub fn register(control: WriterControl) {
    let mut writers = writers();
    writers.retain(|w| !w.is_done());
    if STOPPED.load(Ordering::Acquire) {
        control.request_emergency_stop();
    } else if PAUSED.load(Ordering::Acquire) {
        control.request_pause();
    }
    writers.push(control);
}

/// The emergency stop: stops every registered writer that is still running (zero, backend
/// `stop`, device closed, and `send_level` failing from then on), waiting up to `timeout` for
/// each, and stops writers that start later until [`rearm`]. Returns how many were running
/// and how many of those confirmed in time.
pub fn stop_all(timeout: Duration) -> (usize, usize) {
    // Clone the list so that a writer registering meanwhile cannot deadlock us.
    let writers: Vec<WriterControl> = {
        let list = writers();
        STOPPED.store(true, Ordering::Release);
        list.clone()
    };
    let running: Vec<&WriterControl> = writers.iter().filter(|w| !w.is_done()).collect();
    for w in &running {
        w.request_emergency_stop();
    }
    let stopped = running.iter().filter(|w| w.emergency_stop(timeout)).count();
    (running.len(), stopped)
}

/// Whether the emergency stop ([`stop_all`]) has run since the last [`rearm`].
pub fn is_stopped() -> bool {
    STOPPED.load(Ordering::Acquire)
}

/// The user turned force feedback back on after an emergency stop: writers started from
/// now on run normally. The stopped ones stay stopped: the device is to be opened again.
pub fn rearm() {
    let _list = writers();
    STOPPED.store(false, Ordering::Release);
}

/// Pauses every registered writer at zero (see `WriterControl::pause`), and writers that
/// start before [`resume_all`]; waits until each running one has sent its zero, up to
/// `timeout` in all. Returns how many were running and how many confirmed zero in time.
pub fn pause_all(timeout: Duration) -> (usize, usize) {
    let deadline = Instant::now() + timeout;
    let writers: Vec<WriterControl> = {
        let list = writers();
        PAUSED.store(true, Ordering::Release);
        for w in &*list {
            w.request_pause();
        }
        list.clone()
    };
    let running: Vec<&WriterControl> = writers.iter().filter(|w| !w.is_done()).collect();
    let confirmed = running.iter().filter(|w| w.wait_paused(deadline)).count();
    (running.len(), confirmed)
}

/// Ends [`pause_all`]: every writer lets stored levels through again, faded in from zero.
pub fn resume_all() {
    let list = writers();
    PAUSED.store(false, Ordering::Release);
    for w in &*list {
        w.resume();
    }
}

/// Installs the signal handling described in the module docs (Unix only; a no-op
/// elsewhere).
///
/// # Errors
/// The operating system's error when the signals cannot be registered or the thread
/// cannot start.
#[cfg(unix)]
pub fn install_signal_handlers() -> std::io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGSTOP, SIGTERM, SIGTSTP};
    let mut signals = signal_hook::iterator::Signals::new(HANDLED_SIGNALS)?;
    std::thread::Builder::new()
        .name("gripline-signals".to_owned())
        .spawn(move || {
            for signal in signals.forever() {
                match signal {
                    SIGTSTP => {
                        let (running, confirmed) = pause_all(STOP_TIMEOUT);
                        if confirmed < running {
                            eprintln!(
                                "gripline: stopping: only {confirmed} of {running} \
                                 force-feedback device(s) confirmed at zero"
                            );
                        }
                        // SIGTSTP's default action; returns once SIGCONT has continued us.
                        if let Err(error) = signal_hook::low_level::raise(SIGSTOP) {
                            eprintln!("gripline: cannot stop on SIGTSTP: {error}");
                        }
                        resume_all();
                    }
                    SIGINT | SIGTERM | SIGHUP | SIGQUIT => {
                        let (running, stopped) = stop_all(STOP_TIMEOUT);
                        if running > 0 {
                            eprintln!(
                                "gripline: signal {signal}: force feedback stopped ({stopped} \
                                 of {running} device(s) confirmed)"
                            );
                        }
                        std::process::exit(128 + signal);
                    }
                    _ => {}
                }
            }
        })?;
    Ok(())
}

/// The signals [`install_signal_handlers`] catches (Unix), for messages that name them.
#[cfg(unix)]
pub const HANDLED_SIGNALS: [i32; 5] = [
    signal_hook::consts::SIGINT,
    signal_hook::consts::SIGTERM,
    signal_hook::consts::SIGHUP,
    signal_hook::consts::SIGQUIT,
    signal_hook::consts::SIGTSTP,
];

/// The names of the signals [`install_signal_handlers`] catches, for messages.
pub const HANDLED_SIGNAL_NAMES: &str = "SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGTSTP";

/// Installs the signal handling (a no-op off Unix).
///
/// # Errors
/// Never off Unix.
#[cfg(not(unix))]
pub fn install_signal_handlers() -> std::io::Result<()> {
    Ok(())
}

/// Installs a panic hook that stops every writer ([`stop_all`]), then runs the hook that was
/// installed before (the default report).
pub fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        stop_all(STOP_TIMEOUT);
        previous(info);
    }));
}

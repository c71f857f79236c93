//! A process that ends or stops abnormally leaves the wheel at zero: killed by SIGTERM,
//! SIGHUP or SIGQUIT, stopped by SIGTSTP (Ctrl+Z), or with a panicking "sim" thread that owns
//! the force-feedback writer; after a panic elsewhere the writer stays off and says so.
//!
//! Each test runs a child process (this same test binary, re-executed with an environment
//! variable) that installs the product's handlers (`ffb::emergency`), starts a real
//! `FfbWriter` over a backend that appends every command to a file, and holds a strong
//! torque. The parent kills it, stops it or lets it panic, then reads the file: after a
//! terminating signal or a panic the last command the device received must be zero
//! followed by `stop`; while stopped by SIGTSTP the device must hold zero, and after SIGCONT
//! the force must fade back in.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use gripline_input::ffb::backend::{FfbBackend, FfbError};
use gripline_input::ffb::emergency;
use gripline_input::ffb::writer::{FfbWriter, WriterConfig};

#[cfg(unix)]
use gripline_input::ffb::backend::sanitize_level;

const CHILD_MODE: &str = "GRIPLINE_FFB_EMERGENCY_CHILD";
const CHILD_FILE: &str = "GRIPLINE_FFB_EMERGENCY_FILE";
const HELD_LEVEL: f64 = 0.8;

/// A device that writes each command it receives to a file, one line each, flushed.
struct FileDevice(std::fs::File);

impl FfbBackend for FileDevice {
    fn max_rate_hz(&self) -> f64 {
        500.0
    }
    fn send_level(&mut self, level: f64) -> Result<(), FfbError> {
        writeln!(self.0, "{level}").map_err(|e| FfbError::Io(e.to_string()))?;
        self.0.flush().map_err(|e| FfbError::Io(e.to_string()))
    }
    fn stop(&mut self) -> Result<(), FfbError> {
        writeln!(self.0, "stop").map_err(|e| FfbError::Io(e.to_string()))?;
        self.0.flush().map_err(|e| FfbError::Io(e.to_string()))
    }
}

fn start_writer(file: &Path) -> FfbWriter {
    let device = FileDevice(std::fs::File::create(file).expect("record file"));
    FfbWriter::spawn(
        device,
        WriterConfig {
            watchdog: None,
            ..WriterConfig::default()
        },
    )
    .expect("writer thread")
}

/// The child's side: runs only when the parent asked for it.
#[test]
fn child_entry() {
    let (Ok(mode), Ok(file)) = (std::env::var(CHILD_MODE), std::env::var(CHILD_FILE)) else {
        return;
    };
    emergency::install_panic_hook();
    emergency::install_signal_handlers().expect("signal handlers");
    let file = PathBuf::from(file);
    match mode.as_str() {
        "hold" => {
            let writer = start_writer(&file);
            loop {
                writer.store(HELD_LEVEL);
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        "panic" => {
            // The "sim thread" owns the writer and panics mid-drive.
            let sim = std::thread::Builder::new()
                .name("gripline-sim".to_owned())
                .spawn(move || {
                    let writer = start_writer(&file);
                    for _ in 0..300 {
                        writer.store(HELD_LEVEL);
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    panic!("simulated sim-thread failure");
                })
                .expect("sim thread");
            let _ = sim.join();
            // The rest of the process lives on (the window would), with the wheel at zero.
            std::thread::sleep(Duration::from_millis(300));
            std::process::exit(0);
        }
        "panic_elsewhere" => panic_elsewhere(&file),
        other => panic!("unknown child mode {other}"),
    }
}

/// The "sim thread" (here the main thread) owns the writer; another thread panics. The
/// emergency stop must leave the device at zero, make `send_level` fail with a distinct
/// error that does not ask for a reconnect, keep new writers off too, until `rearm`.
fn panic_elsewhere(file: &Path) -> ! {
    let mut writer = start_writer(file);
    let deadline = Instant::now() + Duration::from_secs(20);
    while !commands(file).iter().any(|c| c == &HELD_LEVEL.to_string()) {
        assert_eq!(writer.send_level(HELD_LEVEL), Ok(()));
        assert!(
            Instant::now() < deadline,
            "the writer never drove the wheel"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    let crashed = std::thread::Builder::new()
        .name("gripline-audio".to_owned())
        .spawn(|| panic!("simulated failure elsewhere"))
        .expect("thread")
        .join();
    assert!(crashed.is_err());
    assert!(writer.emergency_stopped());
    assert!(emergency::is_stopped());
    let error = writer.send_level(HELD_LEVEL).expect_err("stopped writer");
    assert_eq!(error, FfbError::EmergencyStop);
    assert!(!error.needs_reconnect(), "not reopened automatically");
    // It stays off, however often the sim sends.
    for _ in 0..100 {
        assert_eq!(writer.send_level(HELD_LEVEL), Err(FfbError::EmergencyStop));
        std::thread::sleep(Duration::from_millis(1));
    }
    assert_left_at_zero(file);
    // A writer opened before the user re-enables (a reconnect, a settings change) is off too.
    let second = file.with_extension("second");
    let mut reopened = start_writer(&second);
    assert_eq!(
        reopened.send_level(HELD_LEVEL),
        Err(FfbError::EmergencyStop)
    );
    std::thread::sleep(Duration::from_millis(50));
    assert!(
        !commands(&second)
            .iter()
            .any(|c| c == &HELD_LEVEL.to_string()),
        "{:?}",
        commands(&second)
    );
    // The user turns force feedback back on: a newly opened writer drives the wheel again;
    // the stopped one stays stopped.
    emergency::rearm();
    let third = file.with_extension("third");
    let mut enabled = start_writer(&third);
    let deadline = Instant::now() + Duration::from_secs(20);
    while !commands(&third)
        .iter()
        .any(|c| c == &HELD_LEVEL.to_string())
    {
        assert_eq!(enabled.send_level(HELD_LEVEL), Ok(()));
        assert!(
            Instant::now() < deadline,
            "the re-enabled writer never drove"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    assert_eq!(writer.send_level(HELD_LEVEL), Err(FfbError::EmergencyStop));
    drop(enabled);
    println!("panic_elsewhere: ok");
    std::process::exit(0);
}

fn spawn_child(mode: &str, file: &Path) -> std::process::Child {
    Command::new(std::env::current_exe().expect("test binary"))
        .args(["child_entry", "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD_MODE, mode)
        .env(CHILD_FILE, file)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("child process")
}

fn commands(file: &Path) -> Vec<String> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Waits until the device holds the strong level (bounded).
fn wait_for_torque(file: &Path) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while !commands(file).iter().any(|c| c == &HELD_LEVEL.to_string()) {
        assert!(Instant::now() < deadline, "the child never drove the wheel");
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn assert_left_at_zero(file: &Path) {
    let log = commands(file);
    let n = log.len();
    assert!(n >= 2, "{log:?}");
    assert_eq!(log[n - 1], "stop", "the effect is stopped last: {log:?}");
    assert_eq!(
        log[n - 2],
        "0",
        "zero before the stop: {:?}",
        &log[n.saturating_sub(5)..]
    );
}

#[cfg(unix)]
fn send_signal(child: &std::process::Child, name: &str) {
    let status = Command::new("kill")
        .args([&format!("-{name}"), &child.id().to_string()])
        .status()
        .expect("kill(1)");
    assert!(status.success(), "kill -{name}");
}

/// A child holding a strong torque gets the signal `name`: it must exit with `code`
/// (128 + the signal's number, as a shell expects) and leave the device at zero, stopped.
#[cfg(unix)]
fn terminating_signal_leaves_the_device_at_zero(name: &str, code: i32) {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("device.log");
    let mut child = spawn_child("hold", &file);
    wait_for_torque(&file);
    send_signal(&child, name);
    let exit = child.wait().expect("child exit");
    assert_eq!(exit.code(), Some(code), "SIG{name}: {exit:?}");
    assert_left_at_zero(&file);
}

#[cfg(unix)]
#[test]
fn sigterm_leaves_the_device_at_zero() {
    terminating_signal_leaves_the_device_at_zero("TERM", 128 + 15);
}

#[cfg(unix)]
#[test]
fn sighup_leaves_the_device_at_zero() {
    terminating_signal_leaves_the_device_at_zero("HUP", 128 + 1);
}

#[cfg(unix)]
#[test]
fn sigquit_leaves_the_device_at_zero() {
    terminating_signal_leaves_the_device_at_zero("QUIT", 128 + 3);
}

/// The process's state letter from `/proc/<pid>/stat` ('T' = stopped), `None` when gone.
#[cfg(target_os = "linux")]
fn process_state(pid: u32) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // "pid (comm) S ...": the name may hold spaces and parentheses; the state follows the
    // last ')'.
    let (_, rest) = stat.rsplit_once(')')?;
    rest.trim_start().chars().next()
}

#[cfg(target_os = "linux")]
fn wait_for_state(pid: u32, wanted: impl Fn(char) -> bool, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let state = process_state(pid);
        if state.is_some_and(&wanted) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "the child never {what}: {state:?}"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The levels of the commands from `from` on (a `stop` is not a level: it fails the test).
#[cfg(unix)]
fn levels_from(file: &Path, from: usize) -> Vec<f64> {
    commands(file)
        .iter()
        .skip(from)
        .map(|c| {
            c.parse::<f64>()
                .unwrap_or_else(|_| panic!("not a level: {c}"))
        })
        .collect()
}

/// Ctrl+Z: the wheel is at zero before the process stops, stays at zero while it is
/// stopped (the device open, not stopped for good), and after SIGCONT the force fades back
/// in from zero rather than jumping back.
#[cfg(target_os = "linux")]
#[test]
fn sigtstp_zeroes_before_stopping_and_sigcont_fades_back_in() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("device.log");
    let mut child = spawn_child("hold", &file);
    let pid = child.id();
    wait_for_torque(&file);

    send_signal(&child, "TSTP");
    wait_for_state(pid, |s| s == 'T', "stopped");
    let stopped = commands(&file);
    assert_eq!(
        stopped.last().map(String::as_str),
        Some("0"),
        "zero before the process stopped: {:?}",
        &stopped[stopped.len().saturating_sub(5)..]
    );
    assert!(
        !stopped.iter().any(|c| c == "stop"),
        "paused at zero, not stopped for good"
    );
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(commands(&file), stopped, "nothing is written while stopped");

    send_signal(&child, "CONT");
    wait_for_state(pid, |s| s != 'T', "continued");
    let deadline = Instant::now() + Duration::from_secs(20);
    while commands(&file).last() != Some(&HELD_LEVEL.to_string()) {
        assert!(Instant::now() < deadline, "the force never came back");
        std::thread::sleep(Duration::from_millis(10));
    }
    let after = levels_from(&file, stopped.len());
    assert!(after.iter().all(|l| *l > 0.0), "no zero after resume");
    assert!(
        after[0] < 0.25 * HELD_LEVEL,
        "fades in from zero, no step: {after:?}"
    );
    assert!(after.windows(2).all(|w| w[1] >= w[0]), "rising: {after:?}");
    // A ramp over the writer's fade-in (0.5 s at 500 Hz), not a few steps.
    assert!(after.len() >= 20, "{} levels: {after:?}", after.len());
    assert_eq!(
        after.last().map(|l| l.to_bits()),
        Some(sanitize_level(HELD_LEVEL).to_bits())
    );

    send_signal(&child, "TERM");
    let exit = child.wait().expect("child exit");
    assert_eq!(exit.code(), Some(143), "{exit:?}");
    assert_left_at_zero(&file);
}

#[test]
fn a_panicking_sim_thread_leaves_the_device_at_zero() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("device.log");
    let child = spawn_child("panic", &file);
    let output = child.wait_with_output().expect("child exit");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("simulated sim-thread failure"),
        "the default panic report still prints: {stderr}"
    );
    assert!(commands(&file).iter().any(|c| c == &HELD_LEVEL.to_string()));
    assert_left_at_zero(&file);
}

#[test]
fn after_a_panic_elsewhere_the_writer_stays_off_until_re_enabled() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("device.log");
    let child = spawn_child("panic_elsewhere", &file);
    let output = child.wait_with_output().expect("child exit");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success() && stdout.contains("panic_elsewhere: ok"),
        "{:?}\n{stdout}\n{stderr}",
        output.status
    );
    assert!(stderr.contains("simulated failure elsewhere"), "{stderr}");
    assert_left_at_zero(&file);
}

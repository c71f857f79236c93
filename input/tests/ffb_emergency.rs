//! A process that ends abnormally leaves the wheel at zero: killed by SIGTERM, or with a
//! panicking "sim" thread that owns the force-feedback writer.
//!
//! Each test runs a child process (this same test binary, re-executed with an environment
//! variable) that installs the product's handlers (`ffb::emergency`), starts a real
//! `FfbWriter` over a backend that appends every command to a file, and holds a strong
//! torque. The parent kills it or lets it panic, then reads the file: the last command the
//! device received must be zero followed by `stop`.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use gripline_input::ffb::backend::{FfbBackend, FfbError};
use gripline_input::ffb::emergency;
use gripline_input::ffb::writer::{FfbWriter, WriterConfig};

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
        "sigterm" => {
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
        other => panic!("unknown child mode {other}"),
    }
}

fn spawn_child(mode: &str, file: &Path) -> std::process::Child {
    Command::new(std::env::current_exe().expect("test binary"))
        .args(["child_entry", "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD_MODE, mode)
        .env(CHILD_FILE, file)
        .stdout(Stdio::null())
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
#[test]
fn sigterm_leaves_the_device_at_zero() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("device.log");
    let mut child = spawn_child("sigterm", &file);
    wait_for_torque(&file);
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill(1)");
    assert!(status.success());
    let exit = child.wait().expect("child exit");
    // 128 + SIGTERM (15), as a shell expects of a process ended by the signal.
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

//! A private X server (Xvfb) for tests that open the real window.
//!
//! Each test starts its own server on a free display number, so tests can run in parallel
//! and do not depend on the caller's `DISPLAY`. Xvfb is installed by `scripts/setup.sh
//! --test`; when it is missing the test fails with that instruction, it is not skipped.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// A running Xvfb, killed on drop.
pub struct Xvfb {
    child: Child,
    /// The `DISPLAY` value to give clients (`:N`).
    pub display: String,
}

impl Xvfb {
    /// Starts Xvfb at `width` × `height` on the first free display from :90 up.
    pub fn start(width: u32, height: u32) -> Self {
        for n in 90..140 {
            let socket = format!("/tmp/.X11-unix/X{n}");
            let lock = format!("/tmp/.X{n}-lock");
            if Path::new(&socket).exists() || Path::new(&lock).exists() {
                continue;
            }
            let display = format!(":{n}");
            let child = Command::new("Xvfb")
                .arg(&display)
                .args(["-screen", "0", &format!("{width}x{height}x24")])
                .args(["-nolisten", "tcp", "-noreset"])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap_or_else(|e| {
                    panic!("cannot start Xvfb ({e}); install it with scripts/setup.sh --test")
                });
            let mut server = Self { child, display };
            let started = Instant::now();
            while started.elapsed() < Duration::from_secs(10) {
                if Path::new(&socket).exists() {
                    return server;
                }
                if let Ok(Some(status)) = server.child.try_wait() {
                    // Lost a race for this display number: try the next one.
                    eprintln!("Xvfb {} exited with {status}; trying another display", server.display);
                    break;
                }
                thread::sleep(Duration::from_millis(50));
            }
            let _ = server.child.kill();
        }
        panic!("could not start Xvfb on any display from :90 to :139");
    }
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

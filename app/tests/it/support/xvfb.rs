//! A private X server (Xvfb) for tests that open the real window.
//!
//! Each test starts its own server; Xvfb picks a free display number itself (`-displayfd`),
//! so tests can run in parallel without racing for numbers, and do not depend on the
//! caller's `DISPLAY`. Xvfb is installed by `scripts/setup.sh --test`; when it is missing the
//! test fails with that instruction, it is not skipped.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// A running Xvfb, killed on drop.
pub struct Xvfb {
    child: Child,
    /// The `DISPLAY` value to give clients (`:N`).
    pub display: String,
}

impl Xvfb {
    /// Starts Xvfb with one `width` × `height` screen on a display of its choosing.
    pub fn start(width: u32, height: u32) -> Self {
        let mut child = Command::new("Xvfb")
            .args([
                "-displayfd",
                "1",
                "-screen",
                "0",
                &format!("{width}x{height}x24"),
            ])
            .args(["-nolisten", "tcp", "-noreset"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!("cannot start Xvfb ({e}); install it with scripts/setup.sh --test")
            });
        // Xvfb writes the display number once it accepts connections.
        let stdout = child.stdout.take().expect("piped stdout");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("reading Xvfb's display number");
        let number: u32 = line.trim().parse().unwrap_or_else(|_| {
            let _ = child.kill();
            panic!("Xvfb did not report a display number (got {line:?})")
        });
        Self {
            child,
            display: format!(":{number}"),
        }
    }
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

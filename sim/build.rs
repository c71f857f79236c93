//! Records the git commit a release build is made from (`GRIPLINE_GIT_COMMIT`), for the
//! build identity that replays carry (`replay::identity::build_id`). Outside a git checkout
//! the variable is unset and the identity says `unknown`.
//!
//! Dev builds (tests, `cargo run`) are stamped `dev` instead and do not watch git: watching
//! `.git/logs/HEAD` rebuilt this crate, and everything above it, on every commit.

use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("PROFILE").as_deref() != Ok("release") {
        println!("cargo:rustc-env=GRIPLINE_GIT_COMMIT=dev");
        return;
    }
    // `logs/HEAD` changes on every commit, checkout and reset.
    println!("cargo:rerun-if-changed=../.git/logs/HEAD");
    println!("cargo:rerun-if-changed=../.git/HEAD");
    let commit = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()
        .filter(|out| out.status.success())
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty());
    if let Some(commit) = commit {
        println!("cargo:rustc-env=GRIPLINE_GIT_COMMIT={commit}");
    }
}

//! Records the git commit the crate is built from (`GRIPLINE_GIT_COMMIT`), for the build
//! identity that replays carry (`replay::identity::build_id`). Outside a git checkout the
//! variable is unset and the identity says `unknown`.

use std::process::Command;

fn main() {
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

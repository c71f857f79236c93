//! The platform folder honours `XDG_CONFIG_HOME` on Linux. Environment variables are
//! process-wide, so the check runs in a child process of this test binary, with its own
//! environment.

use std::path::PathBuf;
use std::process::Command;

use gripline_config::SettingsStore;
use gripline_config::platform_dir::CONFIG_DIR_ENV;

/// Runs the ignored test `name` of this module in a child process with `env` set.
fn run_child(name: &str, env: &[(&str, &str)]) {
    // The test binary names a test by its path below the crate root: `module::name`.
    let module = module_path!().split_once("::").map_or("", |(_, m)| m);
    let path = format!("{module}::{name}");
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args(["--exact", &path, "--ignored", "--test-threads=1"])
        .env_remove(CONFIG_DIR_ENV)
        .env_remove("XDG_CONFIG_HOME");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("1 passed"),
        "child {name} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[cfg(target_os = "linux")]
#[test]
fn xdg_config_home_is_honoured() {
    run_child(
        "child_xdg",
        &[
            ("XDG_CONFIG_HOME", "/tmp/gripline-xdg-test"),
            ("HOME", "/tmp/gripline-home-test"),
        ],
    );
    run_child(
        "child_relative_xdg",
        &[
            ("XDG_CONFIG_HOME", "relative/dir"),
            ("HOME", "/tmp/gripline-home-test"),
        ],
    );
    run_child(
        "child_override",
        &[
            (CONFIG_DIR_ENV, "/tmp/gripline-portable"),
            ("XDG_CONFIG_HOME", "/tmp/gripline-xdg-test"),
        ],
    );
}

#[test]
#[ignore = "run by xdg_config_home_is_honoured in a child process"]
fn child_xdg() {
    let store = SettingsStore::platform().unwrap();
    assert_eq!(
        store.dir(),
        PathBuf::from("/tmp/gripline-xdg-test/gripline")
    );
}

#[test]
#[ignore = "run by xdg_config_home_is_honoured in a child process"]
fn child_relative_xdg() {
    // The XDG specification says a relative value is invalid and must be ignored.
    let store = SettingsStore::platform().unwrap();
    assert_eq!(
        store.dir(),
        PathBuf::from("/tmp/gripline-home-test/.config/gripline")
    );
}

#[test]
#[ignore = "run by xdg_config_home_is_honoured in a child process"]
fn child_override() {
    let store = SettingsStore::platform().unwrap();
    assert_eq!(store.dir(), PathBuf::from("/tmp/gripline-portable"));
}

//! Where the shipped data lives, and how asset names become paths.
//!
//! Assets are found, in order, in `$GRIPLINE_ASSETS`, in `assets/` beside the executable or up
//! to three folders above it (so `target/release/gripline` finds the checkout's `assets/`),
//! in `assets/` of the current directory, and last in the source checkout the program was
//! built from.

use std::path::{Path, PathBuf};

use crate::error::ConfigError;

/// The assets folder, if one can be found.
pub fn assets_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("GRIPLINE_ASSETS") {
        let dir = PathBuf::from(dir);
        if dir.is_dir() {
            return Some(dir);
        }
    }
    let from_exe = std::env::current_exe().ok().and_then(|exe| {
        exe.ancestors()
            .skip(1)
            .take(4)
            .map(|dir| dir.join("assets"))
            .find(|candidate| candidate.join("tyres").is_dir())
    });
    from_exe
        .or_else(|| {
            let cwd = PathBuf::from("assets");
            cwd.is_dir().then_some(cwd)
        })
        .or_else(|| {
            // A build from the source checkout (tests, `cargo run` with another target dir).
            let checkout = Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets");
            checkout.join("tyres").is_dir().then_some(checkout)
        })
}

/// Resolves a tyre given as a path or as the stem of a file in `assets/tyres/`
/// (`calspan-155sr13`, `MagicFormula61_Parameters`).
///
/// # Errors
/// [`ConfigError::NotFound`] naming the places searched.
pub fn resolve_tyre(name: &str) -> Result<PathBuf, ConfigError> {
    resolve(name, "tyres", &["ron", "tir"], "tyre")
}

/// Resolves a track given as a path or as the stem of a file in `assets/tracks/`
/// (`proving-ground`, `circuit`). Installed TORCS / Speed Dreams tracks (`torcs:NAME`) are
/// resolved by `gripline-torcs`, whose `resolve_any_track` falls back on this.
///
/// # Errors
/// [`ConfigError::NotFound`] naming the places searched.
pub fn resolve_track(name: &str) -> Result<PathBuf, ConfigError> {
    resolve(name, "tracks", &["ron"], "track")
}

/// Resolves a scenario given as a path or as the stem of a file in `assets/scenarios/`.
///
/// # Errors
/// [`ConfigError::NotFound`] naming the places searched.
pub fn resolve_scenario(name: &str) -> Result<PathBuf, ConfigError> {
    resolve(name, "scenarios", &["ron"], "scenario")
}

/// Resolves a vehicle given as a path or as the stem of a file in `assets/vehicles/`.
///
/// # Errors
/// [`ConfigError::NotFound`] naming the places searched.
pub fn resolve_vehicle(name: &str) -> Result<PathBuf, ConfigError> {
    resolve(name, "vehicles", &["ron"], "vehicle")
}

fn resolve(
    name: &str,
    folder: &str,
    extensions: &[&str],
    kind: &'static str,
) -> Result<PathBuf, ConfigError> {
    let as_path = Path::new(name);
    if as_path.is_file() {
        return Ok(as_path.to_owned());
    }
    let mut searched = vec![as_path.display().to_string()];
    if let Some(dir) = assets_dir().map(|a| a.join(folder)) {
        for ext in extensions {
            let candidate = dir.join(format!("{name}.{ext}"));
            if candidate.is_file() {
                return Ok(candidate);
            }
        }
        searched.push(format!(
            "{}/{name}.{{{}}}",
            dir.display(),
            extensions.join(",")
        ));
    } else {
        searched.push("no assets folder found; set GRIPLINE_ASSETS".to_owned());
    }
    Err(ConfigError::NotFound {
        kind,
        name: name.to_owned(),
        searched: searched.join(", "),
    })
}

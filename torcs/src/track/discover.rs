//! Finding installed TORCS and Speed Dreams tracks. A track is a folder `NAME` holding
//! `NAME.xml`, inside a category folder (`road`, `oval`, `dirt`...) of a `tracks` folder.
//! Searched, in order: the folders listed in `$GRIPLINE_TORCS_TRACKS` (separated like `PATH`;
//! each may be a `tracks` folder or a data folder that holds one), then the standard data
//! folders of TORCS and Speed Dreams 2 under `/usr/share/games` and `/usr/local/share/games`.
//! The first track found with a name wins.

use std::path::{Path, PathBuf};

use gripline_formats::error::ConfigError;

/// The environment variable naming extra folders of TORCS / Speed Dreams tracks.
pub const TRACKS_ENV: &str = "GRIPLINE_TORCS_TRACKS";

/// The standard data folders of TORCS and Speed Dreams 2 (Debian, and local installs).
pub const STANDARD_DATA_DIRS: [&str; 4] = [
    "/usr/share/games/torcs",
    "/usr/share/games/speed-dreams-2",
    "/usr/local/share/games/torcs",
    "/usr/local/share/games/speed-dreams-2",
];

/// An installed track.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstalledTrack {
    /// Its folder's name, as given after `torcs:` (`forza`).
    pub name: String,
    /// Its category folder (`road`, `oval`, `dirt`).
    pub category: String,
    /// Its track file.
    pub xml: PathBuf,
}

/// The folders searched, in order: those of `$GRIPLINE_TORCS_TRACKS`, then the standard ones.
pub fn search_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::env::var_os(TRACKS_ENV)
        .map(|v| std::env::split_paths(&v).collect())
        .unwrap_or_default();
    dirs.extend(STANDARD_DATA_DIRS.iter().map(PathBuf::from));
    dirs
}

/// Every installed track in `dirs` (see [`search_dirs`]), sorted by category then name; a name
/// found in an earlier folder hides the same name in a later one.
pub fn tracks_in(dirs: &[PathBuf]) -> Vec<InstalledTrack> {
    let mut found: Vec<InstalledTrack> = Vec::new();
    for dir in dirs {
        let tracks = if dir.join("tracks").is_dir() {
            dir.join("tracks")
        } else {
            dir.clone()
        };
        for category in sorted_subdirs(&tracks) {
            for track in sorted_subdirs(&category) {
                let Some(name) = track.file_name().and_then(|n| n.to_str()) else {
                    continue;
                };
                let xml = track.join(format!("{name}.xml"));
                if xml.is_file() && !found.iter().any(|t| t.name == name) {
                    found.push(InstalledTrack {
                        name: name.to_owned(),
                        category: category
                            .file_name()
                            .map(|c| c.to_string_lossy().into_owned())
                            .unwrap_or_default(),
                        xml,
                    });
                }
            }
        }
    }
    found.sort_by(|a, b| (&a.category, &a.name).cmp(&(&b.category, &b.name)));
    found
}

/// Every installed track (for a track list in the settings screen).
pub fn installed_tracks() -> Vec<InstalledTrack> {
    tracks_in(&search_dirs())
}

/// The track file of the installed track `name`.
///
/// # Errors
/// [`ConfigError::NotFound`] naming the folders searched.
pub fn find_track(name: &str) -> Result<PathBuf, ConfigError> {
    let dirs = search_dirs();
    tracks_in(&dirs)
        .into_iter()
        .find(|t| t.name == name)
        .map(|t| t.xml)
        .ok_or_else(|| not_installed("TORCS track", name, &dirs, TRACKS_ENV))
}

/// The error for `kind` `name` not found in the TORCS data folders `searched`, which the
/// environment variable `env` can add to.
pub(crate) fn not_installed(
    kind: &'static str,
    name: &str,
    searched: &[PathBuf],
    env: &str,
) -> ConfigError {
    ConfigError::NotFound {
        kind,
        name: name.to_owned(),
        searched: format!(
            "{} (install Debian's torcs-data, or set {env})",
            searched
                .iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The folders directly inside `dir`, sorted; none when it cannot be read.
pub(crate) fn sorted_subdirs(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut dirs: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}

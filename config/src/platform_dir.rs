//! Where the settings live: the platform's configuration folder for "gripline".
//!
//! | Platform | Folder |
//! | -------- | ------ |
//! | Linux    | `$XDG_CONFIG_HOME/gripline` (when set to an absolute path), else `~/.config/gripline` |
//! | macOS    | `~/Library/Application Support/gripline` |
//! | Windows  | `%APPDATA%\gripline\config` |
//!
//! The `directories` crate applies these rules (its Linux rule reads `XDG_CONFIG_HOME`
//! itself, ignoring a relative value as the XDG specification requires). The environment
//! variable [`CONFIG_DIR_ENV`] overrides the folder on every platform (portable installs,
//! tests, screenshots with fresh settings).

use std::ffi::OsString;
use std::path::PathBuf;

/// Environment variable naming the settings folder, overriding the platform's.
pub const CONFIG_DIR_ENV: &str = "GRIPLINE_CONFIG_DIR";
/// The application name the platform folder is derived from.
pub const APP_NAME: &str = "gripline";

/// The settings folder given the override variable's value and the platform's folder: the
/// override when set and not empty, else the platform's.
pub fn config_dir_from(
    override_dir: Option<OsString>,
    platform: Option<PathBuf>,
) -> Option<PathBuf> {
    match override_dir {
        Some(dir) if !dir.is_empty() => Some(PathBuf::from(dir)),
        _ => platform,
    }
}

/// The platform's configuration folder for Gripline (without the override), or `None` when
/// the home folder cannot be found.
pub fn platform_default_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", APP_NAME).map(|p| p.config_dir().to_owned())
}

/// The settings folder: [`CONFIG_DIR_ENV`] if set, else the platform's.
pub fn config_dir() -> Option<PathBuf> {
    config_dir_from(std::env::var_os(CONFIG_DIR_ENV), platform_default_dir())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn override_wins_unless_empty() {
        let platform = Some(PathBuf::from("/home/a/.config/gripline"));
        assert_eq!(
            config_dir_from(Some("/portable".into()), platform.clone()),
            Some(PathBuf::from("/portable"))
        );
        assert_eq!(config_dir_from(Some("".into()), platform.clone()), platform);
        assert_eq!(config_dir_from(None, None), None);
    }
}

//! Set-up files: a car's named set-ups, RON files of [`CarSetup`] in `setups/CAR/NAME.ron`
//! of the settings folder (or anywhere, with `--setup FILE`), written atomically like the
//! settings. Loading one clamps every number into the car's ranges with a message per
//! change; a file that cannot be read is kept aside (`.broken-<time>`) and the car file's
//! own values are used, so nothing the user wrote is lost.
//!
//! Fields a file leaves out take the car file's values: a set-up file can hold only what it
//! changes (`(brake_bias_front: 0.66)`).

use std::path::{Path, PathBuf};

use gripline_physics::vehicle::{CarSetup, VehicleParams};

use crate::atomic_file;
use crate::error::ConfigError;
use crate::ron_text;

/// A set-up read for a car.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadedSetup {
    /// The set-up, clamped into the car's ranges.
    pub setup: CarSetup,
    /// One message per value clamped or not applicable.
    pub messages: Vec<String>,
}

/// Reads the set-up file `path` for the car `params` (see the module docs).
///
/// # Errors
/// The file cannot be read or is not a set-up (syntax errors with their line).
pub fn load_setup(path: &Path, params: &VehicleParams) -> Result<LoadedSetup, ConfigError> {
    let text = ron_text::read(path)?;
    parse_setup(&text, path, params)
}

/// Parses the text of a set-up file for `params` (see [`load_setup`]).
///
/// # Errors
/// Not a set-up: unknown fields, wrong types, syntax (with their line).
pub fn parse_setup(
    text: &str,
    path: &Path,
    params: &VehicleParams,
) -> Result<LoadedSetup, ConfigError> {
    let car = CarSetup::of(params);
    // Missing fields take the car's values: merge the file over the car's set-up.
    let car_text = ron_text::to_pretty(&car).map_err(|e| syntax(path, &e))?;
    let base: ron::Value = ron::from_str(&car_text).map_err(|e| syntax(path, &e))?;
    let file: ron::Value = match ron_text::parse(text, path)? {
        // `()`: a set-up that changes nothing.
        ron::Value::Unit => ron::Value::Map(ron::Map::new()),
        other => other,
    };
    let merged = merge(base, file);
    let mut setup: CarSetup = merged.into_rust().map_err(|e| syntax(path, &e))?;
    let mut messages = setup.clamp(&car, &params.setup_ranges);
    let (_, fit) = setup.apply_to(params);
    messages.extend(fit);
    Ok(LoadedSetup { setup, messages })
}

/// A set-up error without a position in the file (after merging it over the car's).
fn syntax(path: &Path, e: &dyn std::fmt::Display) -> ConfigError {
    ConfigError::Syntax {
        path: path.to_owned(),
        line: 1,
        column: 1,
        message: e.to_string(),
    }
}

/// `over` laid over `base`: maps merged key by key, anything else replaced.
fn merge(base: ron::Value, over: ron::Value) -> ron::Value {
    match (base, over) {
        (ron::Value::Map(mut b), ron::Value::Map(o)) => {
            for (k, v) in o {
                let merged = match b.remove(&k) {
                    Some(old) => merge(old, v),
                    None => v,
                };
                b.insert(k, merged);
            }
            ron::Value::Map(b)
        }
        (_, over) => over,
    }
}

/// Writes `setup` to `path` atomically (creating its folder).
///
/// # Errors
/// The folder or the file cannot be written.
pub fn save_setup(path: &Path, setup: &CarSetup) -> Result<(), ConfigError> {
    let io = |source| ConfigError::Io {
        path: path.to_owned(),
        source,
    };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    let text = ron_text::to_pretty(setup).map_err(|e| syntax(path, &e))?;
    atomic_file::write_atomic(path, format!("{text}\n").as_bytes()).map_err(io)
}

/// Reads the set-up at `path` for the window or a run: a file that cannot be read is kept
/// aside and the car's own set-up used; returns the set-up and the messages to show.
pub fn load_setup_or_default(path: &Path, params: &VehicleParams) -> (CarSetup, Vec<String>) {
    match load_setup(path, params) {
        Ok(loaded) => {
            let messages = loaded
                .messages
                .into_iter()
                .map(|m| format!("{}: {m}", path.display()))
                .collect();
            (loaded.setup, messages)
        }
        Err(error) => {
            let kept = if path.exists() {
                atomic_file::keep_aside(path).map_or_else(
                    |e| format!(" (and it could not be kept aside: {e})"),
                    |p| format!("; kept as {}", p.display()),
                )
            } else {
                String::new()
            };
            (
                CarSetup::of(params),
                vec![format!("{error}{kept}; the car's own set-up is used")],
            )
        }
    }
}

/// The folder of `car`'s named set-ups under the settings folder `config_dir`.
pub fn setups_dir(config_dir: &Path, car: &str) -> PathBuf {
    config_dir.join("setups").join(car)
}

/// The named set-ups in `dir`, sorted by name.
pub fn list_setups(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "ron"))
                .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn car() -> VehicleParams {
        let mut p = VehicleParams::default();
        p.setup_ranges
            .insert("brake_bias_front".into(), (0.5, 0.75));
        p
    }

    #[test]
    fn a_file_holds_only_what_it_changes() {
        let loaded = parse_setup(
            "(brake_bias_front: 0.66, rear: (anti_roll_bar_n_per_m: 9000.0))",
            Path::new("s.ron"),
            &car(),
        )
        .unwrap();
        assert!(loaded.messages.is_empty(), "{:?}", loaded.messages);
        let mut expected = CarSetup::of(&car());
        expected.brake_bias_front = 0.66;
        expected.rear.anti_roll_bar_n_per_m = 9000.0;
        assert_eq!(loaded.setup, expected);
    }

    #[test]
    fn round_trip_and_clamping() {
        let dir = tempfile::tempdir().unwrap();
        let path = setups_dir(dir.path(), "corvette-c5").join("quali.ron");
        let mut setup = CarSetup::of(&car());
        setup.front.camber_deg = -2.5;
        setup.final_drive = 3.73;
        save_setup(&path, &setup).unwrap();
        let back = load_setup(&path, &car()).unwrap();
        assert_eq!(back.setup, setup);
        assert!(back.messages.is_empty());
        assert_eq!(list_setups(path.parent().unwrap()), ["quali"]);

        std::fs::write(&path, "(brake_bias_front: 0.9)").unwrap();
        let clamped = load_setup(&path, &car()).unwrap();
        assert!((clamped.setup.brake_bias_front - 0.75).abs() < 1e-12);
        assert_eq!(clamped.messages.len(), 1);
        assert!(clamped.messages[0].contains("outside 0.5 to 0.75"));
    }

    #[test]
    fn a_broken_file_is_kept_aside_and_the_car_set_up_used() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("broken.ron");
        std::fs::write(&path, "(brake_bias_front: \"lots\"").unwrap();
        let (setup, messages) = load_setup_or_default(&path, &car());
        assert_eq!(setup, CarSetup::of(&car()));
        assert_eq!(messages.len(), 1);
        assert!(messages[0].contains("kept as"), "{messages:?}");
        assert!(!path.exists());
        let kept: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(kept.len(), 1, "the user's text is kept");
        // Unknown fields are errors too (a typo must not be silently ignored).
        assert!(parse_setup("(brake_bias: 0.6)", Path::new("s.ron"), &car()).is_err());
    }
}

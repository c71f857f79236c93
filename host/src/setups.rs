//! Which set-up file a car drives with: the one the settings choose for it
//! (`setups/CAR/NAME.ron` in the settings folder, as the Garage saves it).

use std::path::{Path, PathBuf};

use gripline_config::Settings;

/// The set-up file the settings choose for `car`, if any and if it exists.
pub fn chosen_setup(settings: &Settings, data_dir: Option<&Path>, car: &str) -> Option<PathBuf> {
    let name = settings.session.setups.get(car)?;
    // A name from the settings file names a file in the set-ups folder, nothing else.
    if gripline_sim::laps::file_safe(name) != *name {
        return None;
    }
    let path =
        gripline_formats::setup_file::setups_dir(data_dir?, &gripline_sim::laps::file_safe(car))
            .join(format!("{name}.ron"));
    path.exists().then_some(path)
}

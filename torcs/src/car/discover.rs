//! Finding installed TORCS and Speed Dreams cars. TORCS keeps a car in `cars/NAME/NAME.xml`
//! and the categories in `categories/CATEGORY.xml`; Speed Dreams 2 keeps them in
//! `cars/models/NAME/NAME.xml` and `cars/categories/CATEGORY.xml`. Searched, in order: the
//! folders listed in `$GRIPLINE_TORCS_CARS` (separated like `PATH`; each a data folder that
//! holds `cars`), then the standard data folders of TORCS and Speed Dreams 2
//! ([`STANDARD_DATA_DIRS`]). The first car found with a name wins.

use crate::track::discover::{not_installed, sorted_subdirs};
use std::path::PathBuf;

use gripline_formats::error::ConfigError;

use crate::track::discover::STANDARD_DATA_DIRS;

/// The environment variable naming extra data folders holding TORCS / Speed Dreams cars.
pub const CARS_ENV: &str = "GRIPLINE_TORCS_CARS";

/// An installed car.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstalledCar {
    /// Its folder's name, as given after `torcs:` (`car1-trb1`).
    pub name: String,
    /// Its car file (`NAME.xml`).
    pub xml: PathBuf,
    /// The folder of the category files of its installation.
    pub categories: PathBuf,
}

impl InstalledCar {
    /// The file of category `category` in this car's installation.
    pub fn category_file(&self, category: &str) -> PathBuf {
        self.categories.join(format!("{category}.xml"))
    }
}

/// The data folders searched, in order: those of `$GRIPLINE_TORCS_CARS`, then the standard
/// ones.
pub fn search_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::env::var_os(CARS_ENV)
        .map(|v| std::env::split_paths(&v).collect())
        .unwrap_or_default();
    dirs.extend(STANDARD_DATA_DIRS.iter().map(PathBuf::from));
    dirs
}

/// Every installed car in the data folders `dirs`, sorted by name; a name found in an earlier
/// folder hides the same name in a later one.
pub fn cars_in(dirs: &[PathBuf]) -> Vec<InstalledCar> {
    let mut found: Vec<InstalledCar> = Vec::new();
    for dir in dirs {
        // TORCS, then Speed Dreams 2.
        let layouts = [
            (dir.join("cars"), dir.join("categories")),
            (
                dir.join("cars").join("models"),
                dir.join("cars").join("categories"),
            ),
        ];
        for (cars, categories) in layouts {
            for car in sorted_subdirs(&cars) {
                let Some(name) = car.file_name().and_then(|n| n.to_str()) else {
                    continue;
                };
                let xml = car.join(format!("{name}.xml"));
                if xml.is_file() && !found.iter().any(|c| c.name == name) {
                    found.push(InstalledCar {
                        name: name.to_owned(),
                        xml,
                        categories: categories.clone(),
                    });
                }
            }
        }
    }
    found.sort_by(|a, b| a.name.cmp(&b.name));
    found
}

/// Every installed car (for the car list of the settings screen).
pub fn installed_cars() -> Vec<InstalledCar> {
    cars_in(&search_dirs())
}

/// The installed car `name`.
///
/// # Errors
/// [`ConfigError::NotFound`] naming the folders searched.
pub fn find_car(name: &str) -> Result<InstalledCar, ConfigError> {
    let dirs = search_dirs();
    cars_in(&dirs)
        .into_iter()
        .find(|c| c.name == name)
        .ok_or_else(|| not_installed("TORCS car", name, &dirs, CARS_ENV))
}

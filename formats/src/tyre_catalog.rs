//! The tyres a car can be fitted with, for the Garage: every tyre file in the assets'
//! `tyres/` folder and beside the vehicle file (where a vehicle file's tyre names are looked
//! up first), each loaded once, with whether it fits each axle of the car and why not.
//!
//! Files in `tyres/` that cannot be read are reported; files beside the vehicle file that
//! are not tyres (other vehicle files) are passed over.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use gripline_physics::tire::Tire;

use crate::assets;
use crate::tyre_file::load_tyre;
use crate::vehicle_file::LoadedVehicle;

/// A tyre the Garage offers.
#[derive(Clone, Debug)]
pub struct TyreOption {
    /// Its asset name (the file's stem), as a vehicle or set-up file names it.
    pub name: String,
    /// Its own title (a RON tyre's `name`, a `.tir` file's stem).
    pub title: String,
    /// The model family ([`Tire::family`]).
    pub family: &'static str,
    /// The file.
    pub file: PathBuf,
    /// The model, with the input limits the simulator runs it with.
    pub tire: Tire,
    /// Whether it fits the front and the rear axle: `Err` says why not.
    pub fit: [Result<(), String>; 2],
}

/// The tyres for `car` (see the module docs), by family then name (ignoring case), and the
/// tyre files that could not be read, each with its error.
pub fn tyre_options(car: &LoadedVehicle) -> (Vec<TyreOption>, Vec<String>) {
    let beside = car.source.parent().map(Path::to_owned);
    let shipped = assets::assets_dir().map(|a| a.join("tyres"));
    // Beside the vehicle file first: the same order a vehicle file's names resolve in.
    let mut files: BTreeMap<String, (PathBuf, bool)> = BTreeMap::new();
    for (dir, report) in [(shipped, true), (beside, false)] {
        for file in dir.as_deref().map(tyre_files).unwrap_or_default() {
            if let Some(stem) = file.file_stem().map(|s| s.to_string_lossy().into_owned()) {
                files.insert(stem, (file, report));
            }
        }
    }
    let mut options = Vec::new();
    let mut unreadable = Vec::new();
    for (name, (file, report)) in files {
        match load_tyre(&file) {
            Ok(loaded) => {
                let fit = [0, 1].map(|axle| car.fitted(axle, &name).map(|_| ()));
                options.push(TyreOption {
                    title: loaded.name,
                    family: loaded.tire.family(),
                    tire: loaded.tire.with_input_limits(true),
                    name,
                    file,
                    fit,
                });
            }
            Err(error) if report => unreadable.push(error.to_string()),
            Err(_) => {}
        }
    }
    options.sort_by_cached_key(|o| (o.family, o.name.to_lowercase()));
    (options, unreadable)
}

/// The `.tir` and `.ron` files in `dir`.
fn tyre_files(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| {
                    p.is_file()
                        && p.extension()
                            .is_some_and(|e| e.eq_ignore_ascii_case("tir") || e == "ron")
                })
                .collect()
        })
        .unwrap_or_default()
}

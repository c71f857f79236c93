//! Loading the vehicle a drive names. A vehicle name is a path to a Gripline vehicle file
//! (`.ron`) or to a TORCS / Speed Dreams car file (`.xml`), the stem of a file in
//! `assets/vehicles/`, or [`VEHICLE_PREFIX`]`NAME` for an installed TORCS / Speed Dreams car.
//! A TORCS car is its file merged with its category's ([`super::merge`]), converted
//! ([`super::convert`]) and validated as a vehicle file is: a figure outside Gripline's
//! ranges is refused with the field's path, except those [`super::convert`] clamps with a
//! remark.
//!
//! The dispatch lives here, above both kinds: `gripline-formats` reads Gripline's own
//! vehicle files and knows nothing of TORCS.

use std::path::{Path, PathBuf};

use gripline_formats::assets;
use gripline_formats::error::ConfigError;
use gripline_formats::vehicle_file::{self, LoadedVehicle};
use gripline_formats::vehicle_sound::SoundParams;
use gripline_physics::tire::Tire;
use gripline_physics::validate::{Validate, Validator};

use super::convert::{ConvertedCar, convert};
use super::discover::find_car;
use super::figures::Figures;
use super::merge::merge_sections;
use crate::error::TorcsError;
use crate::xml::read_params;

/// Prefix of a vehicle name that names an installed TORCS / Speed Dreams car
/// (`torcs:car1-trb1`).
pub const VEHICLE_PREFIX: &str = "torcs:";

/// Why a vehicle could not be loaded. Each variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum VehicleLoadError {
    /// A Gripline vehicle file could not be used, a car was not found, or a TORCS car's
    /// figures fall outside Gripline's ranges.
    #[error(transparent)]
    Format(#[from] ConfigError),
    /// A TORCS or Speed Dreams car file could not be read or converted.
    #[error(transparent)]
    Torcs(#[from] TorcsError),
}

/// The category folder of a TORCS car file `xml`: `../../../categories` from it in both
/// layouts (TORCS's `DATA/cars/NAME/NAME.xml` with `DATA/categories`, Speed Dreams's
/// `DATA/cars/models/NAME/NAME.xml` with `DATA/cars/categories`).
pub fn categories_dir(xml: &Path) -> PathBuf {
    xml.ancestors()
        .nth(3)
        .map_or_else(|| PathBuf::from("categories"), |d| d.join("categories"))
}

/// A TORCS car file merged with its category and converted, not yet validated, with the
/// files read (car file first). The car's name is its file's stem.
///
/// # Errors
/// [`TorcsError`] naming the file: unreadable, malformed, a missing category file, or
/// figures that cannot be converted.
pub fn read_torcs_car(xml: &Path) -> Result<(ConvertedCar, Vec<PathBuf>), TorcsError> {
    let car = read_params(xml)?;
    let name = xml
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let mut files = vec![xml.to_owned()];
    let mut warnings = car.warnings.clone();
    let category = car.root.at("Car").map(|s| s.text("category")).transpose()?;
    let merged = if let Some(Some(category)) = category {
        let file = categories_dir(xml).join(format!("{}.xml", category.trim()));
        if !file.is_file() {
            return Err(TorcsError::Car {
                path: xml.to_owned(),
                message: format!(
                    "its category '{category}' has no file {} (TORCS loads a car only with its \
                     category)",
                    file.display()
                ),
            });
        }
        let category = read_params(&file)?;
        warnings.extend(category.warnings.iter().cloned());
        files.push(file);
        merge_sections(&category.root, &car.root)
    } else {
        warnings.push(format!(
            "{}: no 'Car/category': the car file alone is used",
            xml.display()
        ));
        car.root.clone()
    };
    let mut converted = convert(&Figures::new(&merged, xml), &name)?;
    warnings.append(&mut converted.warnings);
    converted.warnings = warnings;
    Ok((converted, files))
}

/// Loads a TORCS / Speed Dreams car file as a vehicle ready to build (see the module
/// documentation).
///
/// # Errors
/// [`VehicleLoadError::Torcs`] when the files cannot be read or converted,
/// [`VehicleLoadError::Format`] ([`ConfigError::Invalid`], with the fields' paths) when the
/// converted car is not a valid Gripline vehicle.
pub fn load_torcs_car(xml: &Path) -> Result<LoadedVehicle, VehicleLoadError> {
    let (converted, files) = read_torcs_car(xml)?;
    let ConvertedCar {
        params,
        tyres,
        warnings,
    } = converted;
    let mut v = Validator::with_root("");
    params.validate(&mut v);
    for (field, tyre) in ["front_tyre", "rear_tyre"].into_iter().zip(&tyres) {
        v.nested(field, tyre);
    }
    v.finish().map_err(|violations| ConfigError::Invalid {
        path: xml.to_owned(),
        violations,
    })?;
    // The car file stands for the tyres (files 1 and 2, which a set-up's tyres replace); the
    // category file follows.
    let mut all_files = vec![xml.to_owned(), xml.to_owned(), xml.to_owned()];
    all_files.extend(files.into_iter().skip(1));
    let [front, rear] = tyres;
    let loaded = LoadedVehicle {
        params,
        sound: SoundParams::default(),
        tires: [
            Tire::SimplifiedPacejka(front),
            Tire::SimplifiedPacejka(rear),
        ],
        thermal: [None, None],
        source: xml.to_owned(),
        // The car's own AC3D model beside its XML (`NAME.acc`), drawn with its levels of
        // detail by the renderer; none when the install has no model.
        model: Some(xml.with_extension("acc")).filter(|p| p.is_file()),
        files: all_files,
        warnings,
    };
    loaded.build()?;
    Ok(loaded)
}

/// Resolves a vehicle name to its file: `torcs:NAME` to the installed car's file (see
/// [`super::discover`]), anything else as `gripline-formats` resolves vehicles.
///
/// # Errors
/// [`ConfigError::NotFound`] naming the places searched.
pub fn resolve_any_vehicle(name: &str) -> Result<PathBuf, ConfigError> {
    if let Some(car) = name.strip_prefix(VEHICLE_PREFIX) {
        return Ok(find_car(car)?.xml);
    }
    assets::resolve_vehicle(name)
}

/// Loads the vehicle `name` (see the module documentation): a TORCS car for `torcs:NAME` or
/// a `.xml` file, a Gripline vehicle file otherwise.
///
/// # Errors
/// Any [`VehicleLoadError`]; each names the file.
pub fn load_any_vehicle(name: &str) -> Result<LoadedVehicle, VehicleLoadError> {
    let path = resolve_any_vehicle(name)?;
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("xml"))
    {
        return load_torcs_car(&path);
    }
    Ok(vehicle_file::load_vehicle(&path)?)
}

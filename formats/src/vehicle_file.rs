//! Vehicle files: every parameter of a car in RON ([`VehicleParams`]), with the tyres named
//! by their asset names (`front_tyre: "corvette-c5-front"`), loaded from `assets/tyres/` or
//! from the vehicle file's own folder, and the car's sound (the optional `sound: (...)`
//! section, [`SoundParams`]), which the physics does not use.
//!
//! The file is one RON struct: the physics parameters' fields with `sound` among them. It is
//! read into a private mirror of that struct (unknown fields are errors, and a new field of
//! [`VehicleParams`] does not compile until the mirror has it) and split into
//! [`VehicleFile::params`] and [`VehicleFile::sound`].
//!
//! The optional `model: "..."` names the file the renderer draws the car with (AC3D `.ac` /
//! TORCS `.acc`, or glTF 2.0 `.gltf` / `.glb`), relative to the vehicle file's folder or
//! absolute; [`LoadedVehicle::model`] holds it resolved. Without it the renderer draws its
//! procedural body. The physics does not use it.
//!
//! Magic Formula tyres are loaded with their `.tir` input ranges switched on, as the
//! simulator runs them; the tyre lab shows them without.

use std::path::{Path, PathBuf};

use gripline_physics::powertrain::PowertrainParams;
use gripline_physics::tire::Tire;
use gripline_physics::tire::thermal::TyreThermalParams;
use gripline_physics::validate::{Validate, Validator};
use gripline_physics::vehicle::params::{
    AeroParams, AidParams, AxleParams, BodyParams, BrakeParams, ChassisParams, SteeringParams,
};
use gripline_physics::vehicle::setup::SetupRanges;
use gripline_physics::vehicle::tyre_fit::tyre_fit;
use gripline_physics::vehicle::{CarSetup, Vehicle, VehicleParams};
use serde::{Deserialize, Serialize};

use crate::error::ConfigError;
use crate::tyre_file::load_tyre;
use crate::vehicle_sound::SoundParams;
use crate::{assets, ron_text};

/// What a vehicle file describes: the physics parameters and the car's sound.
#[derive(Clone, Debug, PartialEq)]
pub struct VehicleFile {
    /// Everything the physics needs.
    pub params: VehicleParams,
    /// What the car sounds like (an inline four where the file has no `sound` section).
    pub sound: SoundParams,
    /// The model file to draw the car with, as the file writes it (see the module docs).
    pub model: Option<PathBuf>,
}

/// File name endings a `model` may have.
pub const MODEL_EXTENSIONS: [&str; 4] = ["ac", "acc", "gltf", "glb"];

impl VehicleFile {
    /// The file's text (pretty RON, `sound` between `powertrain` and `setup_ranges`).
    ///
    /// # Errors
    /// RON's, for values it cannot write.
    pub fn to_ron(&self) -> Result<String, ron::Error> {
        ron_text::to_pretty(&VehicleFileRon::from(self.clone()))
    }
}

/// The vehicle file as it is written: [`VehicleParams`]' fields with `sound` among them.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct VehicleFileRon {
    name: String,
    front_tyre: String,
    rear_tyre: String,
    chassis: ChassisParams,
    body: BodyParams,
    front: AxleParams,
    rear: AxleParams,
    steering: SteeringParams,
    brakes: BrakeParams,
    #[serde(default)]
    aids: AidParams,
    aero: AeroParams,
    powertrain: PowertrainParams,
    #[serde(default)]
    sound: SoundParams,
    #[serde(default)]
    setup_ranges: SetupRanges,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    model: Option<PathBuf>,
}

impl From<VehicleFileRon> for VehicleFile {
    fn from(file: VehicleFileRon) -> Self {
        let VehicleFileRon {
            name,
            front_tyre,
            rear_tyre,
            chassis,
            body,
            front,
            rear,
            steering,
            brakes,
            aids,
            aero,
            powertrain,
            sound,
            setup_ranges,
            model,
        } = file;
        Self {
            params: VehicleParams {
                name,
                front_tyre,
                rear_tyre,
                chassis,
                body,
                front,
                rear,
                steering,
                brakes,
                aids,
                aero,
                powertrain,
                setup_ranges,
            },
            sound,
            model,
        }
    }
}

impl From<VehicleFile> for VehicleFileRon {
    fn from(file: VehicleFile) -> Self {
        let VehicleParams {
            name,
            front_tyre,
            rear_tyre,
            chassis,
            body,
            front,
            rear,
            steering,
            brakes,
            aids,
            aero,
            powertrain,
            setup_ranges,
        } = file.params;
        Self {
            name,
            front_tyre,
            rear_tyre,
            chassis,
            body,
            front,
            rear,
            steering,
            brakes,
            aids,
            aero,
            powertrain,
            sound: file.sound,
            setup_ranges,
            model: file.model,
        }
    }
}

/// A vehicle ready to build: validated parameters and loaded tyres.
#[derive(Clone, Debug)]
pub struct LoadedVehicle {
    /// The parameters.
    pub params: VehicleParams,
    /// What the car sounds like (the file's `sound` section).
    pub sound: SoundParams,
    /// Front and rear tyre models.
    pub tires: [Tire; 2],
    /// Front and rear tyres' thermal models, from their files (`None`: the tyre has none).
    pub thermal: [Option<TyreThermalParams>; 2],
    /// Where the vehicle file was.
    pub source: PathBuf,
    /// The model file to draw the car with, resolved against the vehicle file's folder
    /// (`None`: the renderer's procedural body). Not checked for existence here: a missing
    /// model is the renderer's warning, not a reason to refuse the car.
    pub model: Option<PathBuf>,
    /// Every file the vehicle was read from: the vehicle file, then its front and rear tyre
    /// files (what a replay's identity of the car hashes).
    pub files: Vec<PathBuf>,
    /// Remarks from loading the tyres.
    pub warnings: Vec<String>,
}

impl LoadedVehicle {
    /// A new vehicle at the origin, at rest, its tyres with their thermal models.
    ///
    /// # Errors
    /// The physics crate's checks of the combination of parameters and tyres.
    pub fn build(&self) -> Result<Vehicle, ConfigError> {
        Vehicle::new(self.params.clone(), self.tires.clone())
            .and_then(|vehicle| vehicle.with_tyre_thermal(self.thermal.clone()))
            .map_err(|violations| ConfigError::Invalid {
                path: self.source.clone(),
                violations,
            })
    }
}

/// Parses and validates the text of a vehicle file (without loading its tyres).
///
/// # Errors
/// [`ConfigError::Syntax`] with line and column, or [`ConfigError::Invalid`] with field paths
/// such as `chassis.mass_kg must be finite and positive` or `sound.cylinders must be 1 to 16`.
pub fn parse_vehicle_ron(text: &str, path: &Path) -> Result<VehicleFile, ConfigError> {
    let file: VehicleFileRon = ron_text::parse(text, path)?;
    let VehicleFile {
        params,
        sound,
        model,
    } = file.into();
    let mut v = Validator::with_root("");
    params.validate(&mut v);
    v.nested("sound", &sound);
    v.require(
        !params.front_tyre.trim().is_empty(),
        "front_tyre",
        "must name a tyre",
    );
    v.require(
        !params.rear_tyre.trim().is_empty(),
        "rear_tyre",
        "must name a tyre",
    );
    if let Some(model) = &model {
        let ext = model
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        v.require(
            ext.is_some_and(|e| MODEL_EXTENSIONS.contains(&e.as_str())),
            "model",
            "must name an .ac, .acc, .gltf or .glb file",
        );
    }
    v.finish().map_err(|violations| ConfigError::Invalid {
        path: path.to_owned(),
        violations,
    })?;
    Ok(VehicleFile {
        params,
        sound,
        model,
    })
}

/// Finds a tyre named in a vehicle file: beside the vehicle file first, then in the assets.
fn resolve_tyre_of(vehicle: &Path, name: &str) -> Result<PathBuf, ConfigError> {
    if let Some(dir) = vehicle.parent() {
        for ext in ["tir", "ron"] {
            let beside = dir.join(format!("{name}.{ext}"));
            if beside.is_file() {
                return Ok(beside);
            }
        }
    }
    assets::resolve_tyre(name)
}

/// A tyre of an axle, ready for the vehicle: the model with its input limits on, its thermal
/// model, the file it came from and the remarks from loading it.
struct AxleTyre {
    tire: Tire,
    thermal: Option<TyreThermalParams>,
    file: PathBuf,
    warnings: Vec<String>,
}

/// Loads the tyre `name` of the vehicle file `vehicle` (see [`resolve_tyre_of`]).
fn load_axle_tyre(vehicle: &Path, name: &str) -> Result<AxleTyre, ConfigError> {
    let file = resolve_tyre_of(vehicle, name)?;
    let tyre = load_tyre(&file)?;
    Ok(AxleTyre {
        tire: tyre.tire.with_input_limits(true),
        thermal: tyre.thermal,
        file,
        warnings: tyre.warnings,
    })
}

/// Loads a vehicle file and its tyres.
///
/// # Errors
/// Any [`ConfigError`] of the vehicle file or of its tyre files, each naming its file.
pub fn load_vehicle(path: &Path) -> Result<LoadedVehicle, ConfigError> {
    let VehicleFile {
        params,
        sound,
        model,
    } = parse_vehicle_ron(&ron_text::read(path)?, path)?;
    let model = model.map(|m| match path.parent() {
        Some(dir) if m.is_relative() => dir.join(m),
        _ => m,
    });
    let front = load_axle_tyre(path, &params.front_tyre)?;
    let rear = load_axle_tyre(path, &params.rear_tyre)?;
    let loaded = LoadedVehicle {
        params,
        sound,
        files: vec![path.to_owned(), front.file, rear.file],
        warnings: [front.warnings, rear.warnings].concat(),
        tires: [front.tire, rear.tire],
        thermal: [front.thermal, rear.thermal],
        source: path.to_owned(),
        model,
    };
    // Check the combination once here, so that a bad file fails at load, not at build.
    loaded.build()?;
    Ok(loaded)
}

impl LoadedVehicle {
    /// This car in `setup`: its numbers applied (with [`CarSetup::apply_to`]'s messages) and,
    /// where the set-up names other tyres than the car runs, those tyres loaded from beside
    /// the vehicle file or the assets. A named tyre that cannot be loaded, does not fit its
    /// axle ([`tyre_fit`]) or does not build with the car keeps the car's tyre, with a
    /// message; the set-up is never refused for its tyres.
    pub fn with_setup(&self, setup: &CarSetup) -> (LoadedVehicle, Vec<String>) {
        let (params, mut messages) = setup.apply_to(&self.params);
        let mut car = LoadedVehicle {
            params,
            ..self.clone()
        };
        let own = [&self.params.front_tyre, &self.params.rear_tyre];
        for (axle, wanted) in [&setup.front_tyre, &setup.rear_tyre]
            .into_iter()
            .enumerate()
        {
            if wanted == own[axle] {
                continue;
            }
            let side = if axle == 0 { "front" } else { "rear" };
            match car.fitted(axle, wanted) {
                Ok(fitted) => car = fitted,
                Err(why) => {
                    messages.push(format!(
                        "{side}_tyre: '{wanted}' {why}: the car's '{}' kept",
                        own[axle]
                    ));
                    let name = own[axle].clone();
                    if axle == 0 {
                        car.params.front_tyre = name;
                    } else {
                        car.params.rear_tyre = name;
                    }
                }
            }
        }
        (car, messages)
    }

    /// This car with the tyre `name` on axle `axle` (0 front, 1 rear), or why it cannot have
    /// it: the file cannot be loaded, the tyre does not fit the axle ([`tyre_fit`]), or the
    /// car does not build with it.
    ///
    /// # Errors
    /// The reason, as a phrase ("does not fit: its radius ...").
    pub fn fitted(&self, axle: usize, name: &str) -> Result<LoadedVehicle, String> {
        let tyre =
            load_axle_tyre(&self.source, name).map_err(|e| format!("cannot be loaded ({e})"))?;
        tyre_fit(&tyre.tire, &self.params, axle)
            .map_err(|misfit| format!("does not fit: {misfit}"))?;
        let mut car = self.clone();
        car.tires[axle] = tyre.tire;
        car.thermal[axle] = tyre.thermal;
        if let Some(file) = car.files.get_mut(axle + 1) {
            *file = tyre.file;
        }
        car.warnings.extend(tyre.warnings);
        if axle == 0 {
            name.clone_into(&mut car.params.front_tyre);
        } else {
            name.clone_into(&mut car.params.rear_tyre);
        }
        car.build()
            .map_err(|e| format!("does not build with this car ({e})"))?;
        Ok(car)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn default_file() -> VehicleFile {
        VehicleFile {
            params: VehicleParams::default(),
            sound: SoundParams {
                cylinders: 8,
                ..SoundParams::default()
            },
            model: None,
        }
    }

    #[test]
    fn default_params_round_trip_and_validate() {
        let file = default_file();
        let text = file.to_ron().unwrap();
        assert!(text.contains("sound: ("), "{text}");
        let back = parse_vehicle_ron(&text, Path::new("v.ron")).unwrap();
        assert_eq!(back, file);
    }

    #[test]
    fn the_sound_section_is_optional() {
        let file = default_file();
        let text = ron_text::to_pretty(&file.params).unwrap();
        let back = parse_vehicle_ron(&text, Path::new("v.ron")).unwrap();
        assert_eq!(back.params, file.params);
        assert_eq!(back.sound, SoundParams::default());
    }

    #[test]
    fn bad_values_report_field_paths() {
        let mut file = default_file();
        file.params.chassis.mass_kg = -5.0;
        file.params.front_tyre = String::new();
        file.sound.cylinders = 0;
        let text = file.to_ron().unwrap();
        let err = parse_vehicle_ron(&text, Path::new("v.ron")).unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("chassis.mass_kg must be finite and positive"),
            "{text}"
        );
        assert!(text.contains("front_tyre must name a tyre"), "{text}");
        assert!(text.contains("sound.cylinders must be 1 to 16"), "{text}");
    }

    #[test]
    fn unknown_fields_are_errors_in_the_sound_too() {
        let text = default_file().to_ron().unwrap();
        let bad = text.replacen("cylinders:", "cylindres: 4,\n        cylinders:", 1);
        let err = parse_vehicle_ron(&bad, Path::new("v.ron")).unwrap_err();
        assert!(err.to_string().contains("cylindres"), "{err}");
        let bad = text.replacen("name:", "colour: \"red\",\n    name:", 1);
        let err = parse_vehicle_ron(&bad, Path::new("v.ron")).unwrap_err();
        assert!(err.to_string().contains("colour"), "{err}");
    }

    /// A steering section written before the kingpin axis (no caster, inclination or power
    /// assistance) loads with a vertical axis and manual steering, its trail as given; without
    /// a trail, the trail is the hub-on-axis `R tan(caster)`; a caster out of range is
    /// reported by its path.
    #[test]
    fn the_kingpin_fields_are_optional_and_validated() {
        let text = default_file().to_ron().unwrap();
        let start = text.find("    steering: (").unwrap();
        let end = start + text[start..].find("    ),\n").unwrap() + "    ),\n".len();
        let old_section = "    steering: (\n        ratio: 16.1,\n        lock_deg: 450.0,\n        \
            ackermann: 0.6,\n        mechanical_trail_m: 0.03,\n        scrub_radius_m: 0.01,\n        \
            efficiency: 0.9,\n    ),\n";
        let old = format!("{}{old_section}{}", &text[..start], &text[end..]);
        let s = parse_vehicle_ron(&old, Path::new("v.ron"))
            .unwrap()
            .params
            .steering;
        assert_eq!(s.caster_deg.to_bits(), 0f64.to_bits());
        assert_eq!(s.kingpin_inclination_deg.to_bits(), 0f64.to_bits());
        assert_eq!(s.power_assist.to_bits(), 0f64.to_bits());
        assert_eq!(s.mechanical_trail_m, Some(0.03));

        let no_trail = old
            .replace("        mechanical_trail_m: 0.03,\n", "")
            .replace(
                "        ratio: 16.1,",
                "        ratio: 16.1,\n        caster_deg: 6.0,",
            );
        let p = parse_vehicle_ron(&no_trail, Path::new("v.ron"))
            .unwrap()
            .params;
        let r = p.front.wheel.radius_m;
        assert_eq!(p.steering.mechanical_trail_m, None);
        assert!((p.steering.trail_m(r) - r * 6f64.to_radians().tan()).abs() < 1e-15);

        let bad = no_trail.replace("caster_deg: 6.0", "caster_deg: 40.0");
        let err = parse_vehicle_ron(&bad, Path::new("v.ron")).unwrap_err();
        assert!(err.to_string().contains("steering.caster_deg"), "{err}");
    }

    /// `model` is optional (old files load without it), kept through a round trip, resolved
    /// against the vehicle file's folder when relative, and refused by name with an unknown
    /// ending.
    #[test]
    fn the_model_field_is_optional_resolved_and_checked() {
        let mut file = default_file();
        let text = file.to_ron().unwrap();
        assert!(!text.contains("model"), "{text}");
        file.model = Some(PathBuf::from("models/car.glb"));
        let text = file.to_ron().unwrap();
        let back = parse_vehicle_ron(&text, Path::new("v.ron")).unwrap();
        assert_eq!(back.model.as_deref(), Some(Path::new("models/car.glb")));

        let dir = tempfile::tempdir().unwrap();
        let source = std::path::absolute("../assets/vehicles/hatchback-fwd.ron").unwrap();
        let own = std::fs::read_to_string(&source).unwrap();
        for (model, expected) in [
            ("car.acc", dir.path().join("car.acc")),
            ("/abs/p406.acc", PathBuf::from("/abs/p406.acc")),
        ] {
            let with_model = own.replacen(
                "(\n    name:",
                &format!("(\n    model: \"{model}\",\n    name:"),
                1,
            );
            assert_ne!(with_model, own);
            let path = dir.path().join("car.ron");
            std::fs::write(&path, &with_model).unwrap();
            let loaded = load_vehicle(&path).unwrap();
            assert_eq!(loaded.model, Some(expected));
        }

        let bad = text.replace("car.glb", "car.obj");
        let err = parse_vehicle_ron(&bad, Path::new("v.ron")).unwrap_err();
        assert!(err.to_string().contains("model must name an"), "{err}");
    }

    #[test]
    fn syntax_errors_have_positions() {
        let err = parse_vehicle_ron("(\n  name: \"x\",\n  chassis: 5,\n)", Path::new("v.ron"))
            .unwrap_err();
        assert!(err.to_string().starts_with("v.ron:"), "{err}");
    }
}

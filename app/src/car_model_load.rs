//! The 3D model a car is drawn with, loaded one way for the window and `gripline render`:
//! the model its vehicle file names (`model:`), or a TORCS car's own `.acc`. A car without
//! one is drawn with the procedural body. The window loads it at start before it opens, and
//! on a thread of its own after a car swap ([`CarModelLoader`]), so a swap draws the
//! procedural body for the fraction of a second the model takes (p406: about 0.3 s).

use std::sync::mpsc::{Receiver, TryRecvError};

use anyhow::{Context as _, Result};
use gripline_physics::vehicle::VehicleParams;
use gripline_render::{CarModel, VehicleVisual};

/// The model the vehicle `vehicle` names, loaded for the car `visual`; `None` when it names
/// none. Lines about what was left out (a missing texture, a level of detail) go to standard
/// error.
///
/// # Errors
/// The vehicle file does not load, or the model it names is missing or malformed.
pub fn load_car_model(vehicle: &str, visual: &VehicleVisual) -> Result<Option<CarModel>> {
    let Some(path) = gripline_torcs::car::load::load_any_vehicle(vehicle)
        .with_context(|| format!("loading {vehicle} for its model"))?
        .model
    else {
        return Ok(None);
    };
    let model = CarModel::load(&path, visual)?;
    for warning in &model.warnings {
        eprintln!("gripline: warning: {}: {warning}", path.display());
    }
    Ok(Some(model))
}

/// How the car `vehicle` with parameters `params` is drawn: its procedural look, with the
/// driver's eye point of its model, and the model, loaded now. A model that cannot be loaded
/// is a line on standard error, and the procedural body is drawn (`None`).
pub fn car_look(vehicle: &str, params: &VehicleParams) -> (VehicleVisual, Option<CarModel>) {
    let visual = VehicleVisual::from_params(params);
    let model = load_car_model(vehicle, &visual).unwrap_or_else(|e| {
        eprintln!("gripline: warning: {e:#}; drawing the procedural body");
        None
    });
    (visual_with_model(visual, model.as_ref()), model)
}

/// `visual` with the driver's eye point of `model`, where the model has one.
pub fn visual_with_model(visual: VehicleVisual, model: Option<&CarModel>) -> VehicleVisual {
    visual.with_driver_eye(model.and_then(CarModel::driver_eye_body))
}

/// A car model being loaded on a thread of its own.
pub struct CarModelLoader {
    result: Receiver<Result<Option<CarModel>, String>>,
}

impl CarModelLoader {
    /// Starts loading the model of `vehicle` for the car `visual`.
    ///
    /// # Errors
    /// The thread cannot start.
    pub fn spawn(vehicle: &str, visual: &VehicleVisual) -> std::io::Result<Self> {
        let (tx, rx) = std::sync::mpsc::channel();
        let (vehicle, visual) = (vehicle.to_owned(), visual.clone());
        std::thread::Builder::new()
            .name("gripline-car-model-load".to_owned())
            .spawn(move || {
                let result = load_car_model(&vehicle, &visual).map_err(|e| format!("{e:#}"));
                let _ = tx.send(result);
            })?;
        Ok(Self { result: rx })
    }

    /// The model once loaded (`Ok(None)`: the car names none), or why it cannot be drawn.
    pub fn poll(&self) -> Option<Result<Option<CarModel>, String>> {
        match self.result.try_recv() {
            Ok(result) => Some(result),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Err(
                "the car model loader stopped without a result".to_owned(),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use gripline_physics::vehicle::VehicleParams;

    use super::*;

    /// The loader's answer, waited for (a minute at most: only a hung loader fails).
    fn loaded(vehicle: &str, visual: &VehicleVisual) -> Result<Option<CarModel>, String> {
        let loader = CarModelLoader::spawn(vehicle, visual).expect("thread");
        let deadline = Instant::now() + Duration::from_mins(1);
        loop {
            if let Some(result) = loader.poll() {
                return result;
            }
            assert!(Instant::now() < deadline, "the loader never answered");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    fn c5_visual() -> VehicleVisual {
        let params: VehicleParams = gripline_torcs::car::load::load_any_vehicle("corvette-c5")
            .expect("c5")
            .params;
        VehicleVisual::from_params(&params)
    }

    #[test]
    fn a_shipped_car_names_no_model() {
        assert!(matches!(loaded("corvette-c5", &c5_visual()), Ok(None)));
    }

    #[test]
    fn a_missing_model_is_an_error_naming_the_file() {
        let dir = tempfile::tempdir().expect("dir");
        let c5 = gripline_torcs::car::load::resolve_any_vehicle("corvette-c5").expect("c5 file");
        let text = std::fs::read_to_string(c5).expect("c5");
        let named = text.replacen(
            "(\n    name:",
            "(\n    model: \"nowhere.glb\",\n    name:",
            1,
        );
        assert_ne!(named, text, "the model field was added");
        let path = dir.path().join("car.ron");
        std::fs::write(&path, named).expect("write");
        let error = loaded(&path.to_string_lossy(), &c5_visual()).expect_err("no model file");
        assert!(error.contains("nowhere.glb"), "{error}");
    }

    #[test]
    fn a_torcs_car_loads_its_model_with_the_drivers_eye() {
        let vehicle = "torcs:p406";
        let Ok(car) = gripline_torcs::car::load::load_any_vehicle(vehicle) else {
            println!("skipped: {vehicle} is not installed (Debian's torcs-data)");
            return;
        };
        let visual = VehicleVisual::from_params(&car.params);
        let model = loaded(vehicle, &visual)
            .expect("loads")
            .expect("a TORCS car has a model");
        assert!(model.source.ends_with("p406/p406.acc"), "{model:?}");
        // p406.xml's `Driver` point (x 0.8, y 0, z 1.1 m in the model frame) becomes the
        // cockpit camera's eye.
        let eye = visual_with_model(visual.clone(), Some(&model)).driver_eye_body();
        let expected = model.driver_eye_body().expect("p406 names its driver");
        assert!((eye - expected).length() < 1e-12, "{eye} vs {expected}");
        assert!((eye - visual.driver_eye_body()).length() > 0.05, "{eye}");
    }
}

//! What the window draws of a car and track: the live drive's, or the replay viewer's
//! (the live one kept aside meanwhile, `window/replay_state.rs`). Either car is drawn with
//! its own model where it has one, loaded one way ([`crate::car_model_load`]): now for the
//! window's start, on a thread of its own after a car swap or for a replay, so that the
//! procedural body is drawn until the model arrives ([`Shown::poll_model`]).

use std::sync::Arc;

use gripline_host::drive::LoadedDrive;
use gripline_host::replay_timeline::Timeline;
use gripline_physics::track::TrackMesh;
use gripline_physics::vehicle::VehicleParams;
use gripline_render::{CarModel, VehicleVisual};
use gripline_torcs::track::scene_file::TrackScene;

use crate::car_model_load::{CarModelLoader, car_look, visual_with_model};
use crate::scene_world::SceneWorld;

/// What the window draws of the car and track being driven or replayed.
pub(crate) struct Shown {
    /// The track's ground.
    pub(crate) track_mesh: TrackMesh,
    /// The imported track's textured scenery, drawn in place of the generated ground (none
    /// for a replay: its timeline keeps the ground only).
    pub(crate) track_scene: Option<Arc<TrackScene>>,
    /// The car's body and wheels (with the model's driver's eye point once it has loaded).
    pub(crate) visual: VehicleVisual,
    /// The car's own model, drawn in place of the procedural body.
    pub(crate) car_model: Option<CarModel>,
    /// The car's model being loaded (after a swap, or for a replay).
    pub(crate) car_model_loader: Option<CarModelLoader>,
    /// Figures of the car the dashboard needs.
    pub(crate) dash: DashFacts,
}

/// Figures of the car the dashboard needs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DashFacts {
    pub(crate) redline_rpm: f64,
    pub(crate) limiter_rpm: f64,
    pub(crate) lock_deg: f64,
}

/// A car's model arriving from its loader ([`Shown::poll_model`]).
#[derive(Debug)]
pub(crate) enum ModelArrival {
    /// The model is drawn from now on.
    Drawn,
    /// The car names no model: the procedural body stays.
    NoModel,
    /// The model cannot be drawn (why, in words): the procedural body stays.
    Failed(String),
}

impl Shown {
    /// What to draw of `loaded` (`None` on a track with no ground to draw), with the car's
    /// model loaded now: for the start, before the window opens, so that its first frame
    /// (and a `--hold-at` screenshot) draws the car as `gripline render` does. A model that
    /// cannot be loaded is a line on standard error; the procedural body is drawn.
    pub(crate) fn with_model_now(loaded: &LoadedDrive) -> Option<Self> {
        let mut shown = Self::without_model(
            loaded.track_mesh.clone()?,
            loaded.track_scene.clone(),
            &loaded.params,
        );
        (shown.visual, shown.car_model) = car_look(&loaded.vehicle, &loaded.params);
        Some(shown)
    }

    /// What to draw of `loaded`, with the car's model loading on a thread of its own: for a
    /// car swapped in while driving (the window polls the loader every frame).
    pub(crate) fn with_model_later(loaded: &LoadedDrive) -> Option<Self> {
        let mut shown = Self::without_model(
            loaded.track_mesh.clone()?,
            loaded.track_scene.clone(),
            &loaded.params,
        );
        shown.load_model(&loaded.vehicle);
        Some(shown)
    }

    /// What to draw of the replay `timeline`: its track's ground and the recorded car, whose
    /// model loads on a thread of its own as after a swap.
    pub(crate) fn of_replay(timeline: &Timeline) -> Self {
        let mut shown = Self::without_model(timeline.track.clone(), None, &timeline.params);
        shown.load_model(&timeline.vehicle);
        shown
    }

    fn without_model(
        track_mesh: TrackMesh,
        track_scene: Option<Arc<TrackScene>>,
        params: &VehicleParams,
    ) -> Self {
        Self {
            track_mesh,
            track_scene,
            visual: VehicleVisual::from_params(params),
            car_model: None,
            car_model_loader: None,
            dash: DashFacts {
                redline_rpm: params.powertrain.engine.redline_rpm,
                limiter_rpm: params.powertrain.engine.limiter_rpm,
                lock_deg: params.steering.lock_deg,
            },
        }
    }

    /// Starts loading the model of `vehicle`; a loader that cannot start is a line on
    /// standard error (the procedural body stays).
    fn load_model(&mut self, vehicle: &str) {
        match CarModelLoader::spawn(vehicle, &self.visual) {
            Ok(loader) => self.car_model_loader = Some(loader),
            Err(e) => eprintln!("gripline: warning: cannot load the car's model ({e})"),
        }
    }

    /// Takes the car's model once its loader has it (moving the driver's eye point to the
    /// model's); `None` while it loads, or with no loader.
    pub(crate) fn poll_model(&mut self) -> Option<ModelArrival> {
        let result = self.car_model_loader.as_ref()?.poll()?;
        self.car_model_loader = None;
        Some(match result {
            Ok(Some(model)) => {
                self.visual = visual_with_model(self.visual.clone(), Some(&model));
                self.car_model = Some(model);
                ModelArrival::Drawn
            }
            Ok(None) => ModelArrival::NoModel,
            Err(error) => ModelArrival::Failed(error),
        })
    }

    /// What the renderer draws of it (the same as `gripline render` draws).
    pub(crate) fn world(&self) -> SceneWorld<'_> {
        SceneWorld {
            track_mesh: &self.track_mesh,
            track_scene: self.track_scene.as_deref(),
            visual: &self.visual,
            car_model: self.car_model.as_ref(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::time::{Duration, Instant};

    use gripline_host::replay_timeline::Timeline;

    use super::*;

    /// A timeline of no states of `vehicle` on the shipped circuit, as a replay recorded
    /// with it gives (`None`: the car is not installed).
    fn timeline_of(vehicle: &str) -> Option<Timeline> {
        let params = gripline_torcs::car::load::load_any_vehicle(vehicle)
            .ok()?
            .params;
        let track = gripline_torcs::track::load::resolve_any_track("circuit").expect("circuit");
        let track = gripline_torcs::track::load::load_any_track(&track)
            .expect("circuit loads")
            .mesh;
        Some(Timeline {
            path: PathBuf::from("test.replay"),
            title: format!("{vehicle} on circuit"),
            frames: Vec::new(),
            mismatches: Vec::new(),
            diverged_at_s: None,
            track,
            params,
            vehicle: vehicle.to_owned(),
        })
    }

    /// The model's arrival, waited for (a minute at most: only a hung loader fails).
    fn arrival(shown: &mut Shown) -> ModelArrival {
        let deadline = Instant::now() + Duration::from_mins(1);
        loop {
            if let Some(arrival) = shown.poll_model() {
                return arrival;
            }
            assert!(shown.car_model_loader.is_some(), "no model is being loaded");
            assert!(Instant::now() < deadline, "the loader never answered");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// A replay of an imported car draws the car's own model, as the live drive does
    /// (TORCS's Peugeot 406, `p406.acc`), with the model's driver's eye point; the
    /// procedural body until it arrives.
    #[test]
    fn a_replay_of_an_imported_car_draws_its_model() {
        let Some(timeline) = timeline_of("torcs:p406") else {
            println!("skipped: torcs:p406 is not installed (Debian's torcs-data)");
            return;
        };
        let mut shown = Shown::of_replay(&timeline);
        assert!(shown.world().car_model.is_none(), "procedural body first");
        assert!(matches!(arrival(&mut shown), ModelArrival::Drawn));
        let model = shown.world().car_model.expect("the model is drawn");
        assert!(model.source.ends_with("p406/p406.acc"), "{model:?}");
        let eye = model.driver_eye_body().expect("p406 names its driver");
        assert!((shown.visual.driver_eye_body() - eye).length() < 1e-12);
        assert!(shown.world().track_scene.is_none());
    }

    /// A replay of a shipped car (no model) keeps the procedural body.
    #[test]
    fn a_replay_of_a_car_without_a_model_draws_the_procedural_body() {
        let mut shown = Shown::of_replay(&timeline_of("corvette-c5").expect("shipped"));
        assert!(matches!(arrival(&mut shown), ModelArrival::NoModel));
        assert!(shown.world().car_model.is_none());
    }
}

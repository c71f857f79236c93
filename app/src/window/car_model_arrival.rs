//! A car's model arriving from its loader thread (after a car swap, or for the car of a
//! replay in the viewer): the window draws the model (and moves the cockpit camera to the
//! model's driver's eye point) from the next frame on, or says why it cannot.

use super::app_state::App;
use super::shown::{ModelArrival, Shown};
use crate::scene_world::describe_car;

impl App {
    /// Draws the car's model once its loader has it, or tells the user why it cannot: the
    /// car on screen (the live one, or the replay's in the viewer), and the live car kept
    /// aside while the viewer is open (drawn with its model when the viewer closes).
    pub(super) fn poll_car_model(&mut self) {
        if let Some(arrival) = self.shown.poll_model() {
            if matches!(arrival, ModelArrival::Drawn)
                && let Some(r) = self.running.as_mut()
            {
                r.scene
                    .set_car(&self.shown.visual, self.shown.car_model.as_ref());
                eprintln!(
                    "gripline: car: {}",
                    describe_car(&r.scene, &self.shown.world())
                );
            }
            self.report_model_failure(arrival);
        }
        if let Some(arrival) = self.replay.live.as_mut().and_then(Shown::poll_model) {
            self.report_model_failure(arrival);
        }
    }

    /// A model that cannot be drawn: a line on standard error and a notice.
    fn report_model_failure(&mut self, arrival: ModelArrival) {
        if let ModelArrival::Failed(error) = arrival {
            eprintln!("gripline: warning: {error}; drawing the procedural body");
            self.notify(format!(
                "The car's model cannot be drawn ({error}); drawing its procedural body"
            ));
        }
    }
}

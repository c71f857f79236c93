//! A swapped-in car's model arriving from its loader thread: the window draws the model (and
//! moves the cockpit camera to the model's driver's eye point) from the next frame on, or
//! says why it cannot.

use super::app_state::App;
use crate::car_model_load::{CarModelLoader, visual_with_model};

impl App {
    /// Draws the car's model once its loader has it, or tells the user why it cannot.
    pub(super) fn poll_car_model(&mut self) {
        let Some(result) = self
            .shown
            .car_model_loader
            .as_ref()
            .and_then(CarModelLoader::poll)
        else {
            return;
        };
        self.shown.car_model_loader = None;
        let model = match result {
            Ok(model) => model,
            Err(error) => {
                eprintln!("gripline: warning: {error}; drawing the procedural body");
                self.notify(format!(
                    "The car's model cannot be drawn ({error}); drawing its procedural body"
                ));
                return;
            }
        };
        let Some(model) = model else { return };
        // In the replay viewer the live car's look waits for the viewer to close.
        let live_visual = match self.replay.live.as_mut() {
            Some((_, visual)) => visual,
            None => &mut self.shown.visual,
        };
        *live_visual = visual_with_model(live_visual.clone(), Some(&model));
        self.shown.car_model = Some(model);
        if self.replay.live.is_none()
            && let Some(r) = self.running.as_mut()
        {
            r.scene
                .set_car(&self.shown.visual, self.shown.car_model.as_ref());
        }
    }
}

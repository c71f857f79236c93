//! The pause menu (Esc): resume, reset the car, lap analysis, replays (save this drive,
//! watch one), settings, quit.

use egui::{Align2, Color32, Context, RichText, Vec2};

/// What the user chose in the pause menu this frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MenuChoice {
    /// Back to driving.
    Resume,
    /// Put the car back on the road at the nearest safe point, at rest (as the reset key).
    ResetCar,
    /// Put the car back at the start, at rest, its lap and clock restarted.
    RestartAtStart,
    /// Open the lap analysis.
    LapAnalysis,
    /// Save this drive's replay.
    SaveReplay,
    /// Pick a replay to watch.
    Replays,
    /// Open the settings.
    Settings,
    /// Leave the simulator.
    Quit,
}

/// Draws the pause menu; returns the button clicked, if any.
pub fn draw(ctx: &Context, notice: Option<&str>) -> Option<MenuChoice> {
    let mut choice = None;
    egui::Area::new(egui::Id::unique("pause-menu"))
        .anchor(Align2::CENTER_CENTER, Vec2::ZERO)
        .show(ctx, |ui| {
            egui::Frame::new()
                .fill(Color32::from_rgba_premultiplied(12, 14, 20, 235))
                .corner_radius(8.0)
                .inner_margin(24.0)
                .show(ui, |ui| {
                    ui.vertical_centered(|ui| {
                        ui.label(
                            RichText::new("Paused")
                                .size(28.0)
                                .color(Color32::from_rgb(255, 210, 80)),
                        );
                        if let Some(notice) = notice {
                            ui.add_space(6.0);
                            ui.label(RichText::new(notice).color(Color32::from_rgb(255, 140, 60)));
                        }
                        ui.add_space(12.0);
                        let button = |ui: &mut egui::Ui, text: &str| {
                            ui.add_sized(
                                [200.0, 32.0],
                                egui::Button::new(RichText::new(text).size(18.0)),
                            )
                            .clicked()
                        };
                        if button(ui, "Resume") {
                            choice = Some(MenuChoice::Resume);
                        }
                        if button(ui, "Reset car") {
                            choice = Some(MenuChoice::ResetCar);
                        }
                        if button(ui, "Back to the start") {
                            choice = Some(MenuChoice::RestartAtStart);
                        }
                        if button(ui, "Lap analysis") {
                            choice = Some(MenuChoice::LapAnalysis);
                        }
                        if button(ui, "Save replay") {
                            choice = Some(MenuChoice::SaveReplay);
                        }
                        if button(ui, "Replays…") {
                            choice = Some(MenuChoice::Replays);
                        }
                        if button(ui, "Settings") {
                            choice = Some(MenuChoice::Settings);
                        }
                        if button(ui, "Quit") {
                            choice = Some(MenuChoice::Quit);
                        }
                        ui.add_space(8.0);
                        ui.label(
                            RichText::new("Esc resumes · C camera · L laps · G ghost · F3 timing")
                                .small()
                                .color(Color32::GRAY),
                        );
                    });
                });
        });
    choice
}

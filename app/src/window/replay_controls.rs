//! The replay viewer's controls (a bar at the bottom of the window) and the replay picker
//! (the pause menu's "Replays…": saved and recent replays, newest first).

use std::path::{Path, PathBuf};

use egui::{Align2, Color32, RichText, Vec2};

use super::replay_viewer::{ReplayViewer, SPEEDS};

/// What the user did with the replay controls this frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ViewerAction {
    /// Play or pause.
    Toggle,
    /// Jump to this time (s).
    Seek(f64),
    /// Play at this speed.
    Speed(f64),
    /// Next camera.
    Camera,
    /// Back to driving.
    Exit,
}

/// Draws the controls; returns what was clicked or dragged.
pub fn draw(ctx: &egui::Context, viewer: &ReplayViewer, camera: &str) -> Option<ViewerAction> {
    let mut action = None;
    let t = &viewer.timeline;
    // At the top centre, between the timing page and the lap times, clear of the dash.
    let width = (ctx.content_rect().width() - 700.0).clamp(420.0, 760.0);
    egui::Area::new(egui::Id::unique("replay-controls"))
        .anchor(Align2::CENTER_TOP, Vec2::new(0.0, 8.0))
        .show(ctx, |ui| {
            egui::Frame::new()
                .fill(Color32::from_rgba_premultiplied(10, 12, 18, 230))
                .corner_radius(6.0)
                .inner_margin(8.0)
                .show(ui, |ui| {
                    ui.set_width(width - 16.0);
                    ui.horizontal(|ui| {
                        ui.label(
                            RichText::new("REPLAY")
                                .strong()
                                .color(Color32::from_rgb(255, 80, 80)),
                        );
                        ui.label(RichText::new(&t.title).color(Color32::WHITE));
                        if let Some(at) = t.diverged_at_s {
                            ui.label(
                                RichText::new(format!("diverged from the recording at {at:.1} s"))
                                    .color(Color32::from_rgb(255, 160, 60)),
                            );
                        } else if !t.mismatches.is_empty() {
                            ui.label(
                                RichText::new("played anyway: may differ from the drive")
                                    .color(Color32::from_rgb(255, 160, 60)),
                            );
                        }
                    });
                    ui.horizontal(|ui| {
                        let label = if viewer.playing { "Pause" } else { "Play" };
                        if ui.button(label).clicked() {
                            action = Some(ViewerAction::Toggle);
                        }
                        for speed in SPEEDS {
                            let selected = (viewer.speed - speed).abs() < 1e-9;
                            if ui.selectable_label(selected, format!("{speed}x")).clicked() {
                                action = Some(ViewerAction::Speed(speed));
                            }
                        }
                        if ui.button(format!("Camera: {camera}")).clicked() {
                            action = Some(ViewerAction::Camera);
                        }
                        if ui.button("Exit replay").clicked() {
                            action = Some(ViewerAction::Exit);
                        }
                    });
                    ui.horizontal(|ui| {
                        let mut cursor = viewer.cursor_s;
                        let duration = t.duration_s();
                        ui.label(
                            RichText::new(format!("{} / {}", clock(cursor), clock(duration)))
                                .monospace(),
                        );
                        ui.spacing_mut().slider_width = (ui.available_width() - 8.0).max(80.0);
                        let slider = egui::Slider::new(&mut cursor, 0.0..=duration.max(0.001))
                            .show_value(false);
                        if ui.add(slider).changed() {
                            action = Some(ViewerAction::Seek(cursor));
                        }
                    });
                    ui.label(
                        RichText::new(
                            "Space play/pause · Left/Right 5 s · Up/Down speed · C camera · Esc exit",
                        )
                        .small()
                        .color(Color32::GRAY),
                    );
                });
        });
    action
}

/// `m:ss.s`.
fn clock(seconds: f64) -> String {
    let s = seconds.max(0.0);
    format!("{}:{:04.1}", (s / 60.0).floor(), s % 60.0)
}

/// What the user chose in the replay picker.
#[derive(Clone, Debug, PartialEq)]
pub enum PickerChoice {
    /// Watch this file.
    Play(PathBuf),
    /// Watch the drive so far.
    ThisDrive,
    /// Close the picker.
    Close,
}

/// Draws the picker over `files`.
pub fn picker(ctx: &egui::Context, files: &[PathBuf], dir: Option<&Path>) -> Option<PickerChoice> {
    let mut choice = None;
    egui::Window::new("Replays")
        .anchor(Align2::CENTER_CENTER, Vec2::ZERO)
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            if ui.button("Watch this drive so far").clicked() {
                choice = Some(PickerChoice::ThisDrive);
            }
            ui.separator();
            if files.is_empty() {
                ui.label("No replays yet.");
            }
            egui::ScrollArea::vertical()
                .max_height(360.0)
                .show(ui, |ui| {
                    for file in files {
                        let name = file.file_name().map_or_else(
                            || file.display().to_string(),
                            |n| n.to_string_lossy().into_owned(),
                        );
                        let recent = file
                            .parent()
                            .and_then(Path::file_name)
                            .is_some_and(|n| n == "recent");
                        ui.horizontal(|ui| {
                            if ui.button("Play").clicked() {
                                choice = Some(PickerChoice::Play(file.clone()));
                            }
                            ui.label(name);
                            if recent {
                                ui.label(RichText::new("recent").small().color(Color32::GRAY));
                            }
                        });
                    }
                });
            if let Some(dir) = dir {
                ui.label(
                    RichText::new(format!("Saved in {}", dir.display()))
                        .small()
                        .color(Color32::GRAY),
                );
            }
            if ui.button("Close").clicked() {
                choice = Some(PickerChoice::Close);
            }
        });
    choice
}

/// Asks whether to play a replay that differs from this build or these files: `Some(true)`
/// plays anyway, `Some(false)` cancels.
pub fn differs_dialog(ctx: &egui::Context, path: &Path, differences: &[String]) -> Option<bool> {
    let mut answer = None;
    egui::Window::new("This replay may not play as it was driven")
        .anchor(Align2::CENTER_CENTER, Vec2::ZERO)
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            ui.label(path.display().to_string());
            for d in differences {
                ui.label(RichText::new(format!("• {d}")).color(Color32::from_rgb(255, 170, 70)));
            }
            ui.label(
                "A replay re-simulates the drive: with another build or changed files the car \
                 may take another line from the moment they differ.",
            );
            ui.horizontal(|ui| {
                if ui.button("Play anyway").clicked() {
                    answer = Some(true);
                }
                if ui.button("Cancel").clicked() {
                    answer = Some(false);
                }
            });
        });
    answer
}

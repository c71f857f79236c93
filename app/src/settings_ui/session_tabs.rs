//! The settings screen's own tabs of the window: "Car & session" and "Graphics".
//!
//! The Controls and Force-feedback tabs come from [`crate::settings_ui`]; these two edit the
//! rest of `Settings` (a draft, applied with the screen's Apply button).

use std::path::Path;

use egui::{ComboBox, RichText, Ui};
use gripline_config::{
    CameraView, Fullscreen, GraphicsSettings, PresentMode, QualityChoice, SessionSettings,
};
use gripline_physics::powertrain::GearboxMode;
use gripline_render::QualityTier;

/// Shipped asset names of one kind (file stems of `assets/<kind>/*.ron`), sorted.
pub fn asset_names(kind: &str) -> Vec<String> {
    let Some(dir) = gripline_formats::assets::assets_dir() else {
        return Vec::new();
    };
    names_in(&dir.join(kind))
}

/// Every track the session can load: the shipped ones, then the installed TORCS / Speed
/// Dreams tracks as `torcs:NAME` (by category, then name).
pub fn track_names() -> Vec<String> {
    let mut names = asset_names("tracks");
    names.extend(torcs_names(
        &gripline_torcs::track::discover::installed_tracks(),
    ));
    names
}

/// Every vehicle the session can load: the shipped ones, then the installed TORCS / Speed
/// Dreams cars as `torcs:NAME` (by name).
pub fn vehicle_names() -> Vec<String> {
    let mut names = asset_names("vehicles");
    names.extend(torcs_car_names(
        &gripline_torcs::car::discover::installed_cars(),
    ));
    names
}

fn torcs_car_names(cars: &[gripline_torcs::car::discover::InstalledCar]) -> Vec<String> {
    cars.iter()
        .map(|c| format!("{}{}", gripline_torcs::car::load::VEHICLE_PREFIX, c.name))
        .collect()
}

fn torcs_names(tracks: &[gripline_torcs::track::discover::InstalledTrack]) -> Vec<String> {
    tracks
        .iter()
        .map(|t| format!("{}{}", gripline_torcs::track::load::TRACK_PREFIX, t.name))
        .collect()
}

fn names_in(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect();
    names.sort();
    names
}

/// What is being driven, in words, where it is not the saved car and track (a `--vehicle` or
/// `--track` given on the command line): a change here keeps what it does not change.
fn driving_line((car, track): &(String, String), session: &SessionSettings) -> Option<String> {
    let differs = (!car.is_empty() && *car != session.vehicle_id)
        || (!track.is_empty() && *track != session.track_id);
    differs.then(|| {
        format!(
            "Driving now: {car} on {track} (from the command line). The saved choice is below; \
             a new car keeps this track, a new track this car."
        )
    })
}

/// Car, track, gearbox mode and aids; `driving` is the car and track being driven (empty
/// before a drive), named when the command line chose other than the saved ones.
pub fn session_tab(
    ui: &mut Ui,
    session: &mut SessionSettings,
    cars: &mut super::car_list::CarList,
    tracks: &[String],
    driving: &(String, String),
) {
    ui.heading("Car and track");
    ui.label(
        RichText::new(
            "A new car or track loads in the background and replaces the current one when ready.",
        )
        .weak(),
    );
    if let Some(line) = driving_line(driving, session) {
        ui.label(line);
    }
    ui.add_space(6.0);
    // The car is chosen in its list, the one place (the preview shows the chosen one).
    super::car_list::car_list(ui, &mut session.vehicle_id, cars);
    super::car_preview::car_preview(ui, &session.vehicle_id, &mut cars.previews);
    ui.add_space(6.0);
    egui::Grid::new("session-grid")
        .num_columns(2)
        .spacing([16.0, 8.0])
        .show(ui, |ui| {
            ui.label("Track");
            pick_name(ui, "track-pick", &mut session.track_id, tracks);
            ui.end_row();
            ui.label("Gearbox");
            ui.horizontal(|ui| {
                ui.radio_value(
                    &mut session.gearbox_mode,
                    GearboxMode::Automatic,
                    "Automatic",
                );
                ui.radio_value(
                    &mut session.gearbox_mode,
                    GearboxMode::Sequential,
                    "Sequential",
                );
                ui.radio_value(
                    &mut session.gearbox_mode,
                    GearboxMode::HPattern,
                    "H-pattern (clutch and shifter)",
                );
            });
            ui.end_row();
        });
    ui.add_space(12.0);
    ui.heading("Weather");
    ui.label(
        RichText::new(
            "The tyres' cold pressures are set at the air temperature and they warm from it; \
             a change restarts the car at the start.",
        )
        .weak(),
    );
    ui.horizontal(|ui| {
        ui.label("Air");
        ui.add(
            egui::DragValue::new(&mut session.environment.ambient_temp_c)
                .range(-60.0..=60.0)
                .speed(0.5)
                .suffix(" °C"),
        );
        ui.label("Track");
        ui.add(
            egui::DragValue::new(&mut session.environment.track_temp_c)
                .range(-60.0..=90.0)
                .speed(0.5)
                .suffix(" °C"),
        );
    });
    ui.add_space(12.0);
    ui.heading("Driving aids");
    ui.checkbox(&mut session.aids.abs, "Anti-lock brakes (ABS)");
    ui.checkbox(&mut session.aids.traction_control, "Traction control");
    ui.checkbox(
        &mut session.aids.auto_clutch,
        "Automatic clutch (sequential gearbox)",
    );
    ui.add_space(12.0);
    if ui.button("Defaults for this tab").clicked() {
        *session = SessionSettings::default();
    }
}

fn pick_name(ui: &mut Ui, id: &str, value: &mut String, names: &[String]) {
    ComboBox::from_id_salt(id)
        .selected_text(value.as_str())
        .width(260.0)
        .show_ui(ui, |ui| {
            for name in names {
                ui.selectable_value(value, name.clone(), name);
            }
        });
}

/// Resolution, fullscreen, present mode, frame latency, field of view, quality tier, MSAA,
/// camera. `automatic` is the tier "Automatic" gives on this adapter (once known).
pub fn graphics_tab(ui: &mut Ui, graphics: &mut GraphicsSettings, automatic: Option<QualityTier>) {
    ui.heading("Display");
    egui::Grid::new("graphics-grid")
        .num_columns(2)
        .spacing([16.0, 8.0])
        .show(ui, |ui| {
            ui.label("Window size");
            ui.horizontal(|ui| {
                ui.add(egui::DragValue::new(&mut graphics.width).range(320..=16384).suffix(" px"));
                ui.label("×");
                ui.add(egui::DragValue::new(&mut graphics.height).range(200..=16384).suffix(" px"));
                for (w, h) in [(1280, 720), (1920, 1080), (2560, 1440)] {
                    if ui.small_button(format!("{w}×{h}")).clicked() {
                        graphics.width = w;
                        graphics.height = h;
                    }
                }
            });
            ui.end_row();
            ui.label("Fullscreen");
            ui.horizontal(|ui| {
                ui.radio_value(&mut graphics.fullscreen, Fullscreen::Windowed, "Windowed");
                ui.radio_value(&mut graphics.fullscreen, Fullscreen::Borderless, "Borderless");
                ui.radio_value(&mut graphics.fullscreen, Fullscreen::Exclusive, "Exclusive");
            });
            ui.end_row();
            ui.label("Present mode");
            ui.horizontal(|ui| {
                ui.radio_value(&mut graphics.present_mode, PresentMode::Vsync, "Vsync");
                ui.radio_value(&mut graphics.present_mode, PresentMode::Mailbox, "Mailbox (low latency, no tearing)");
                ui.radio_value(&mut graphics.present_mode, PresentMode::NoVsync, "No vsync");
            });
            ui.end_row();
            ui.label("Frames in flight");
            ui.add(egui::Slider::new(&mut graphics.frame_latency, 1..=3))
                .on_hover_text("1: lowest input lag; 3: smoothest on a busy GPU.");
            ui.end_row();
            ui.label("Field of view");
            ui.add(egui::Slider::new(&mut graphics.fov_deg, 10.0..=120.0).suffix("° vertical"))
                .on_hover_text("For a true-to-life cockpit view, match the angle your screen covers from your eyes.");
            ui.end_row();
            ui.label("Quality");
            ui.horizontal(|ui| {
                let auto_text = match automatic {
                    Some(tier) => format!("Automatic ({})", tier.name()),
                    None => "Automatic".to_owned(),
                };
                ui.radio_value(&mut graphics.quality, QualityChoice::Automatic, auto_text)
                    .on_hover_text("Low on a software renderer (no GPU), Medium on an integrated GPU, High on a discrete one.");
                ui.radio_value(&mut graphics.quality, QualityChoice::Low, "Low")
                    .on_hover_text("No MSAA, a small shadow map, the scene drawn at half resolution.");
                ui.radio_value(&mut graphics.quality, QualityChoice::Medium, "Medium")
                    .on_hover_text("Up to 2× MSAA, full resolution.");
                ui.radio_value(&mut graphics.quality, QualityChoice::High, "High")
                    .on_hover_text("The anti-aliasing below, the largest shadow map.");
            });
            ui.end_row();
            ui.label("Anti-aliasing");
            ui.horizontal(|ui| {
                for n in [1, 2, 4, 8] {
                    let text = if n == 1 { "Off".to_owned() } else { format!("{n}× MSAA") };
                    ui.radio_value(&mut graphics.msaa_samples, n, text);
                }
            });
            ui.end_row();
            ui.label("Camera at start");
            ui.horizontal(|ui| {
                ui.radio_value(&mut graphics.camera, CameraView::Chase, "Chase");
                ui.radio_value(&mut graphics.camera, CameraView::Cockpit, "Cockpit");
                ui.radio_value(&mut graphics.camera, CameraView::Bonnet, "Bonnet");
            });
            ui.end_row();
        });
    ui.add_space(12.0);
    if ui.button("Defaults for this tab").clicked() {
        *graphics = GraphicsSettings::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The saved car and track being driven say nothing; a command line's other car or
    /// track is named, and before a drive nothing is.
    #[test]
    fn the_tab_names_a_drive_the_command_line_chose() {
        let saved = SessionSettings::default();
        let same = (saved.vehicle_id.clone(), saved.track_id.clone());
        assert_eq!(driving_line(&same, &saved), None);
        assert_eq!(driving_line(&(String::new(), String::new()), &saved), None);
        let other = ("torcs:p406".to_owned(), saved.track_id.clone());
        let line = driving_line(&other, &saved).expect("named");
        assert!(
            line.contains("torcs:p406") && line.contains(&saved.track_id),
            "{line}"
        );
    }

    #[test]
    fn shipped_vehicles_and_tracks_are_listed() {
        let vehicles = asset_names("vehicles");
        assert!(vehicles.iter().any(|v| v == "corvette-c5"), "{vehicles:?}");
        let tracks = asset_names("tracks");
        assert!(tracks.iter().any(|t| t == "circuit"), "{tracks:?}");
        assert!(names_in(Path::new("/no/such/dir")).is_empty());
    }

    /// Installed TORCS tracks are offered by the name `--track` takes, and each one the list
    /// offers resolves to its track file.
    #[test]
    fn installed_torcs_tracks_are_listed_by_the_name_the_loader_takes() {
        let dir = tempfile::tempdir().expect("temp dir");
        for (category, name) in [("road", "ring"), ("oval", "bowl")] {
            let track = dir.path().join("tracks").join(category).join(name);
            std::fs::create_dir_all(&track).expect("dir");
            std::fs::write(track.join(format!("{name}.xml")), "<params/>").expect("xml");
        }
        // A folder without its track file is not a track.
        std::fs::create_dir_all(dir.path().join("tracks/road/empty")).expect("dir");
        let found = gripline_torcs::track::discover::tracks_in(&[dir.path().to_owned()]);
        assert_eq!(torcs_names(&found), ["torcs:bowl", "torcs:ring"]);
        let names = track_names();
        assert!(names.iter().any(|t| t == "circuit"), "{names:?}");
        for name in names.iter().filter(|n| n.starts_with("torcs:")) {
            let path = gripline_torcs::track::load::resolve_any_track(name).expect("resolves");
            assert!(path.is_file(), "{name}: {}", path.display());
        }
    }

    /// Installed TORCS cars are offered by the name `--vehicle` takes (TORCS's
    /// `cars/NAME/NAME.xml` and Speed Dreams's `cars/models/NAME/NAME.xml`), and each one the
    /// list offers resolves to its car file.
    #[test]
    fn installed_torcs_cars_are_listed_by_the_name_the_loader_takes() {
        let dir = tempfile::tempdir().expect("temp dir");
        for folder in ["cars/sedan", "cars/models/coupe"] {
            let car = dir.path().join(folder);
            std::fs::create_dir_all(&car).expect("dir");
            let name = car
                .file_name()
                .expect("name")
                .to_string_lossy()
                .into_owned();
            std::fs::write(car.join(format!("{name}.xml")), "<params/>").expect("xml");
        }
        // A folder without its car file is not a car.
        std::fs::create_dir_all(dir.path().join("cars/empty")).expect("dir");
        let found = gripline_torcs::car::discover::cars_in(&[dir.path().to_owned()]);
        assert_eq!(torcs_car_names(&found), ["torcs:coupe", "torcs:sedan"]);
        let names = vehicle_names();
        assert!(names.iter().any(|v| v == "corvette-c5"), "{names:?}");
        for name in names.iter().filter(|n| n.starts_with("torcs:")) {
            let path = gripline_torcs::car::load::resolve_any_vehicle(name).expect("resolves");
            assert!(path.is_file(), "{name}: {}", path.display());
        }
    }
}

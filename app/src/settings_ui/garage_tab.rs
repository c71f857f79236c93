//! The settings screen's "Garage" tab: the current car's set-up, every number with its unit
//! and range, the figures a set-up engineer reads beside them (ride frequencies, the front
//! share of roll stiffness, corner weights, the speed at the redline in each gear), and the
//! car's named set-ups (load, save as, the car file's own), and the tyres per axle with their
//! force curves ([`super::garage_tyres`]). Apply saves the set-up and
//! restarts the car in it at the start (the simulation is paused while the screen is open).

use std::path::PathBuf;

use egui::{DragValue, RichText, Ui};
use gripline_formats::setup_file::{list_setups, load_setup, save_setup, setups_dir};
use gripline_formats::vehicle_file::LoadedVehicle;
use gripline_physics::tire::Tire;
use gripline_physics::vehicle::setup_figures::SetupFigures;
use gripline_physics::vehicle::{CarSetup, VehicleParams};

use super::garage_tyres::{GarageTyres, tyres_section};

/// How a number is shown: label, unit, factor from SI to the unit, decimals.
struct Shown {
    label: &'static str,
    unit: &'static str,
    scale: f64,
    decimals: usize,
}

/// How the number at `path` is shown.
fn shown(path: &str) -> Shown {
    let field = path.rsplit('.').next().unwrap_or(path);
    let s = |label, unit, scale, decimals| Shown {
        label,
        unit,
        scale,
        decimals,
    };
    if path.starts_with("gear_ratios.") {
        return s("Gear ratio", "", 1.0, 3);
    }
    match field {
        "tyre_pressure_pa" => s("Tyre pressure (cold)", "bar", 1e-5, 2),
        "camber_deg" => s("Camber", "°", 1.0, 2),
        "toe_deg" => s("Toe (+ in)", "°", 1.0, 2),
        "spring_rate_n_per_m" => s("Spring (wheel rate)", "N/mm", 1e-3, 1),
        "ride_height_offset_m" => s("Ride height", "mm", 1e3, 1),
        "bump_damping_n_s_per_m" => s("Bump, slow", "N·s/m", 1.0, 0),
        "rebound_damping_n_s_per_m" => s("Rebound, slow", "N·s/m", 1.0, 0),
        "fast_bump_damping_n_s_per_m" => s("Bump, fast", "N·s/m", 1.0, 0),
        "fast_rebound_damping_n_s_per_m" => s("Rebound, fast", "N·s/m", 1.0, 0),
        "anti_roll_bar_n_per_m" => s("Anti-roll bar", "N/mm", 1e-3, 1),
        "downforce_area_m2" => s("Downforce (−Cl·A)", "m²", 1.0, 3),
        "brake_bias_front" => s("Brake bias (front)", "%", 100.0, 1),
        "brake_torque_n_m" => s("Brake torque (pressure)", "N·m", 1.0, 0),
        "handbrake_torque_n_m" => s("Handbrake", "N·m", 1.0, 0),
        "final_drive" => s("Final drive", "", 1.0, 3),
        "preload_nm" => s("Differential preload", "N·m", 1.0, 0),
        "power_lock" => s("Lock on power", "%", 100.0, 0),
        "coast_lock" => s("Lock on the overrun", "%", 100.0, 0),
        "coefficient_nm_s_per_rad" => s("Viscous coupling", "N·m·s/rad", 1.0, 1),
        "front_share" => s("Centre split (front)", "%", 100.0, 0),
        _ => s("", "", 1.0, 3),
    }
}

/// The group a number is shown in.
fn group(path: &str) -> &'static str {
    if path.starts_with("front.") {
        "Front axle"
    } else if path.starts_with("rear.") {
        "Rear axle"
    } else if path.starts_with("brake") || path.starts_with("handbrake") {
        "Brakes"
    } else if path.starts_with("differentials.") {
        "Differentials"
    } else {
        "Gearing"
    }
}

/// The Garage tab's state: the car and the set-up on screen.
#[derive(Clone, Debug)]
pub struct Garage {
    /// The car (as `--vehicle` names it).
    pub car: String,
    /// The car file's parameters (its own set-up).
    pub params: VehicleParams,
    /// The set-up on screen.
    pub draft: CarSetup,
    /// Its name (the file `setups/CAR/NAME.ron`).
    pub name: String,
    /// Where the car's set-ups are kept.
    pub dir: Option<PathBuf>,
    /// The last thing done, or a problem.
    pub status: String,
    /// Whether the draft differs from what the car runs now.
    pub changed: bool,
    /// The tyres the car can be fitted with.
    pub tyres: GarageTyres,
    /// The car's own `[front, rear]` tyre models (their vertical stiffness sets the ride
    /// figures).
    pub tires: [Tire; 2],
}

impl Garage {
    /// The garage of `car` (as its file loads) with the set-up named `name` on screen (or
    /// the car's own when it has none or it cannot be read).
    pub fn open(
        car: &str,
        loaded: &LoadedVehicle,
        config_dir: Option<PathBuf>,
        name: Option<&str>,
    ) -> Self {
        let dir = config_dir.map(|d| setups_dir(&d, &gripline_sim::laps::file_safe(car)));
        let params = loaded.params.clone();
        let mut garage = Self {
            car: car.to_owned(),
            draft: CarSetup::of(&params),
            tyres: GarageTyres::of(loaded),
            tires: loaded.tires.clone(),
            params,
            name: name.unwrap_or("default").to_owned(),
            dir,
            status: String::new(),
            changed: false,
        };
        if let Some(name) = name {
            garage.load(name);
            garage.changed = false;
        }
        garage
    }

    /// The file of the set-up on screen.
    pub fn file(&self) -> Option<PathBuf> {
        self.dir
            .as_ref()
            .map(|d| d.join(format!("{}.ron", self.name)))
    }

    fn load(&mut self, name: &str) {
        let Some(path) = self.dir.as_ref().map(|d| d.join(format!("{name}.ron"))) else {
            return;
        };
        match load_setup(&path, &self.params) {
            Ok(loaded) => {
                self.draft = loaded.setup;
                name.clone_into(&mut self.name);
                self.status = if loaded.messages.is_empty() {
                    format!("Loaded '{name}'.")
                } else {
                    format!("Loaded '{name}': {}", loaded.messages.join("; "))
                };
                self.changed = true;
            }
            Err(error) => self.status = format!("Could not load '{name}': {error}"),
        }
    }

    /// Saves the set-up on screen under its name; returns the file.
    ///
    /// # Errors
    /// No settings folder; an empty or unsafe name; the file cannot be written.
    pub fn save(&mut self) -> anyhow::Result<PathBuf> {
        let name = self.name.trim();
        anyhow::ensure!(
            !name.is_empty() && gripline_sim::laps::file_safe(name) == name,
            "a set-up name is letters, digits, '-' and '_'"
        );
        let path = self
            .file()
            .ok_or_else(|| anyhow::anyhow!("no settings folder to keep set-ups in"))?;
        save_setup(&path, &self.draft)?;
        self.status = format!("Saved as {}.", path.display());
        Ok(path)
    }
}

/// Draws the tab.
pub fn garage_tab(ui: &mut Ui, garage: &mut Garage) {
    ui.heading(format!("Garage: {}", garage.params.name));
    ui.label(
        RichText::new(
            "Apply saves this set-up and restarts the car in it at the start. Values outside \
             the car's ranges cannot be entered.",
        )
        .weak(),
    );
    ui.horizontal(|ui| {
        ui.label("Set-up");
        ui.add(egui::TextEdit::singleline(&mut garage.name).desired_width(140.0));
        let saved = garage.dir.as_deref().map(list_setups).unwrap_or_default();
        let mut chosen = None;
        egui::ComboBox::from_id_salt("garage-load")
            .selected_text("Load…")
            .show_ui(ui, |ui| {
                for name in &saved {
                    if ui.selectable_label(false, name).clicked() {
                        chosen = Some(name.clone());
                    }
                }
            });
        if let Some(name) = chosen {
            garage.load(&name);
        }
        if ui.button("Save").clicked()
            && let Err(error) = garage.save()
        {
            garage.status = format!("Not saved: {error:#}");
        }
        if ui.button("The car's own").clicked() {
            garage.draft = CarSetup::of(&garage.params);
            garage.changed = true;
            "The car file's values.".clone_into(&mut garage.status);
        }
    });
    if !garage.status.is_empty() {
        ui.label(RichText::new(&garage.status).weak());
    }
    ui.add_space(6.0);
    let car = CarSetup::of(&garage.params);
    let ranges = garage.params.setup_ranges.clone();
    ui.columns(2, |columns| {
        let mut changed = false;
        egui::ScrollArea::vertical()
            .id_salt("garage-numbers")
            .max_height(columns[0].available_height().max(300.0))
            .show(&mut columns[0], |ui| {
                let mut last_group = "";
                egui::Grid::new("garage-grid")
                    .num_columns(3)
                    .spacing([12.0, 4.0])
                    .show(ui, |ui| {
                        for (path, value) in garage.draft.numbers_mut() {
                            let g = group(&path);
                            if g != last_group {
                                ui.label(RichText::new(g).strong());
                                ui.end_row();
                                last_group = g;
                            }
                            let s = shown(&path);
                            let label = if let Some(n) = path.strip_prefix("gear_ratios.") {
                                format!("Gear {}", n.parse::<usize>().unwrap_or(0) + 1)
                            } else if s.label.is_empty() {
                                path.clone()
                            } else {
                                s.label.to_owned()
                            };
                            ui.label(label).on_hover_text(&path);
                            let (lo, hi) = CarSetup::range_of(&path, &car, &ranges)
                                .unwrap_or((f64::MIN, f64::MAX));
                            let mut shown_value = *value * s.scale;
                            let response = ui.add(
                                DragValue::new(&mut shown_value)
                                    .range(lo * s.scale..=hi * s.scale)
                                    .fixed_decimals(s.decimals)
                                    .speed((hi - lo) * s.scale / 300.0)
                                    .suffix(format!(" {}", s.unit)),
                            );
                            if response.changed() {
                                *value = shown_value / s.scale;
                                changed = true;
                            }
                            ui.label(
                                RichText::new(format!(
                                    "{:.*} … {:.*}",
                                    s.decimals,
                                    lo * s.scale,
                                    s.decimals,
                                    hi * s.scale
                                ))
                                .weak()
                                .small(),
                            );
                            ui.end_row();
                        }
                    });
            });
        if changed {
            garage.changed = true;
        }
        egui::ScrollArea::vertical()
            .id_salt("garage-right")
            .max_height(columns[1].available_height().max(300.0))
            .show(&mut columns[1], |ui| {
                if tyres_section(ui, &mut garage.tyres, &mut garage.draft, &garage.params) {
                    garage.changed = true;
                }
                ui.add_space(8.0);
                let (params, _) = garage.draft.apply_to(&garage.params);
                figures(ui, &SetupFigures::of(&params, &garage.tires));
            });
    });
}

/// The derived figures.
fn figures(ui: &mut Ui, f: &SetupFigures) {
    ui.label(RichText::new("What this set-up gives").strong());
    egui::Grid::new("garage-figures")
        .num_columns(3)
        .spacing([16.0, 4.0])
        .show(ui, |ui| {
            ui.label("");
            ui.label("front");
            ui.label("rear");
            ui.end_row();
            ui.label("Ride frequency");
            for hz in f.ride_frequency_hz {
                ui.label(format!("{hz:.2} Hz"));
            }
            ui.end_row();
            ui.label("Wheel hop");
            for hz in f.wheel_hop_frequency_hz {
                ui.label(format!("{hz:.1} Hz"));
            }
            ui.end_row();
            ui.label("Roll stiffness");
            for k in f.roll_stiffness_nm_per_rad {
                ui.label(format!("{:.0} N·m/°", k.to_radians()));
            }
            ui.end_row();
            ui.label("Corner weight");
            for kg in f.corner_weight_kg {
                ui.label(format!("{kg:.0} kg"));
            }
            ui.end_row();
        });
    ui.label(format!(
        "Roll stiffness at the front: {:.1} % (more: more understeer)",
        f.roll_stiffness_front_share * 100.0
    ));
    ui.add_space(6.0);
    ui.label(RichText::new("Speed at the redline").strong());
    let top = f.gear_speeds_kmh.iter().copied().fold(1.0, f64::max);
    for (i, v) in f.gear_speeds_kmh.iter().enumerate() {
        ui.horizontal(|ui| {
            ui.label(format!("{}", i + 1));
            #[allow(clippy::cast_possible_truncation)] // a bar's length in points
            let width = 220.0 * (v / top) as f32;
            let (rect, _) =
                ui.allocate_exact_size(egui::vec2(width.max(2.0), 12.0), egui::Sense::hover());
            ui.painter()
                .rect_filled(rect, 2.0, egui::Color32::from_rgb(90, 160, 255));
            ui.label(format!("{v:.0} km/h"));
        });
    }
}

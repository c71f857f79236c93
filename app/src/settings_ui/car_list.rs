//! The Car & session tab's car list: each car the session can load with its driven wheels,
//! peak power and mass ([`CarFacts`]), or why its file does not load.
//!
//! Reading 17 TORCS car files takes a while, so the figures are worked out on a loader
//! thread of their own, started when the list is first drawn, and kept once known.

use std::collections::BTreeMap;
use std::sync::mpsc::{Receiver, TryRecvError};

use egui::{Color32, RichText, Ui};
use gripline_physics::vehicle::CarFacts;

/// A car's figures, or why its file does not load (in words).
pub type FactsResult = Result<CarFacts, String>;

/// The figures of the vehicle `name` (as `--vehicle` takes it), or the loading error with
/// its causes.
pub fn load_facts(name: &str) -> FactsResult {
    match gripline_torcs::car::load::load_any_vehicle(name) {
        Ok(loaded) => Ok(CarFacts::of(&loaded.params)),
        Err(e) => Err(error_chain(&e)),
    }
}

/// `e` and each of its sources, joined with ": " (a source repeated in its parent's text is
/// left out).
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let part = s.to_string();
        if !text.contains(&part) {
            text.push_str(": ");
            text.push_str(&part);
        }
        source = s.source();
    }
    text
}

/// "257 kW (345 hp) at 5600 rpm".
pub fn power_text(facts: &CarFacts) -> String {
    let p = facts.peak_power;
    format!(
        "{:.0} kW ({:.0} hp) at {:.0} rpm",
        p.power_kw(),
        p.power_hp(),
        p.rpm
    )
}

/// "1547 kg".
pub fn mass_text(facts: &CarFacts) -> String {
    format!("{:.0} kg", facts.mass_kg)
}

/// The car names with their figures as the loader thread delivers them.
pub struct CarList {
    names: Vec<String>,
    facts: BTreeMap<String, FactsResult>,
    /// The selected car's picture (drawn once per car).
    pub previews: super::car_preview::CarPreviews,
    loading: Option<Receiver<(String, FactsResult)>>,
    started: bool,
    /// The selection the list last scrolled to (it scrolls to a new one once).
    scrolled_to: Option<String>,
}

impl CarList {
    /// A list of `names`; nothing is loaded until [`CarList::poll`] (or the first draw).
    pub fn new(names: Vec<String>) -> Self {
        Self {
            names,
            facts: BTreeMap::new(),
            previews: super::car_preview::CarPreviews::default(),
            loading: None,
            started: false,
            scrolled_to: None,
        }
    }

    /// The figures of `name` once loaded.
    pub fn facts(&self, name: &str) -> Option<&FactsResult> {
        self.facts.get(name)
    }

    /// Whether the loader thread still has cars to read.
    pub fn is_loading(&self) -> bool {
        !self.started || self.loading.is_some()
    }

    /// Starts the loader thread (once), then keeps what it has delivered since the last call.
    /// A loader that cannot be started marks every car with that error.
    pub fn poll(&mut self) {
        if !self.started {
            self.started = true;
            let (tx, rx) = std::sync::mpsc::channel();
            let names = self.names.clone();
            let spawned = std::thread::Builder::new()
                .name("car-facts".into())
                .spawn(move || {
                    for name in names {
                        let facts = load_facts(&name);
                        if tx.send((name, facts)).is_err() {
                            return;
                        }
                    }
                });
            match spawned {
                Ok(_) => self.loading = Some(rx),
                Err(e) => {
                    for name in &self.names {
                        let text = format!("the car loader could not start: {e}");
                        self.facts.insert(name.clone(), Err(text));
                    }
                }
            }
        }
        let Some(rx) = &self.loading else { return };
        loop {
            match rx.try_recv() {
                Ok((name, facts)) => {
                    self.facts.insert(name, facts);
                }
                Err(TryRecvError::Empty) => return,
                Err(TryRecvError::Disconnected) => {
                    self.loading = None;
                    return;
                }
            }
        }
    }

    /// Waits for the loader thread to finish (tests).
    #[cfg(test)]
    pub fn wait(&mut self) {
        self.poll();
        if let Some(rx) = self.loading.take() {
            for (name, facts) in rx {
                self.facts.insert(name, facts);
            }
        }
    }
}

/// The list, where the session's car is chosen: one row per car (name to pick, drive,
/// power, mass, or the loading error). Picking a row sets `selected`; the list scrolls to
/// a selection it has not shown yet, and names one it does not hold (a car given by path).
pub fn car_list(ui: &mut Ui, selected: &mut String, cars: &mut CarList) {
    cars.poll();
    if cars.is_loading() {
        ui.ctx()
            .request_repaint_after(std::time::Duration::from_millis(100));
    }
    if !selected.is_empty() && !cars.names.contains(selected) {
        ui.label(format!("Car: {selected} (not in the list)"));
    }
    let scroll_to = (cars.scrolled_to.as_ref() != Some(selected)).then(|| selected.clone());
    egui::ScrollArea::vertical()
        .id_salt("car-list")
        .max_height(260.0)
        .show(ui, |ui| {
            egui::Grid::new("car-list-grid")
                .num_columns(4)
                .striped(true)
                .spacing([16.0, 4.0])
                .show(ui, |ui| {
                    for name in &cars.names {
                        let row = ui.selectable_value(selected, name.clone(), name.as_str());
                        if scroll_to.as_ref() == Some(name) {
                            row.scroll_to_me(None);
                        }
                        match cars.facts(name) {
                            Some(Ok(f)) => {
                                ui.label(f.drive.abbreviation());
                                ui.label(power_text(f));
                                ui.label(mass_text(f));
                            }
                            Some(Err(e)) => {
                                ui.label(
                                    RichText::new(format!("Does not load: {e}"))
                                        .color(Color32::LIGHT_RED),
                                );
                            }
                            None => {
                                ui.label(RichText::new("reading…").weak());
                            }
                        }
                        ui.end_row();
                    }
                });
        });
    // A pass egui lays out without showing (a new window's sizing pass) does not count.
    if scroll_to.is_some() && !ui.is_sizing_pass() && !ui.ctx().will_discard() {
        cars.scrolled_to = scroll_to;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gripline_physics::vehicle::DriveLayout;

    /// The texts of one drawn frame of the list (accessibility labels and values).
    fn drawn_texts(selected: &mut String, cars: &mut CarList) -> Vec<String> {
        let ctx = egui::Context::default();
        ctx.enable_accesskit();
        let mut texts = Vec::new();
        for _ in 0..2 {
            let input = egui::RawInput {
                screen_rect: Some(egui::Rect::from_min_size(
                    egui::Pos2::ZERO,
                    egui::vec2(1600.0, 1000.0),
                )),
                ..egui::RawInput::default()
            };
            let mut out = ctx.run_ui(input, |ui| car_list(ui, selected, cars));
            out.textures_delta.clear();
            texts = out
                .platform_output
                .accesskit_update
                .map(|u| {
                    u.nodes
                        .iter()
                        .filter_map(|(_, n)| n.label().or(n.value()).map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default();
        }
        texts
    }

    /// The shipped Corvette C5's figures as its file gives them. By hand from
    /// `assets/vehicles/corvette-c5.ron`: the flywheel torque (`torque_curve` less
    /// `resistive_curve`) is 535.3 - 97 = 438.3 N·m at 5600 rpm; the power there is
    /// 438.3 · 5600 · π / 30 = 257.03 kW (344.7 hp). Either side it falls: on 5000-5600 the
    /// parabola's vertex lies at 8858 rpm (still rising), on 5600-6000 at 5089 rpm (already
    /// falling). Mass: `mass_kg: 1547.0`; `drivetrain: Rwd`.
    #[test]
    fn the_corvette_s_figures_match_its_file() {
        let f = load_facts("corvette-c5").expect("the corvette loads");
        assert_eq!(f.drive, DriveLayout::Rwd);
        assert!((f.mass_kg - 1547.0).abs() < 1e-9, "{f:?}");
        assert!(
            (f.peak_power.power_w / 257_030.0 - 1.0).abs() < 0.01,
            "{f:?}"
        );
        assert!((f.peak_power.rpm - 5600.0).abs() < 1.0, "{f:?}");
        assert_eq!(power_text(&f), "257 kW (345 hp) at 5600 rpm");
        assert_eq!(mass_text(&f), "1547 kg");
    }

    /// A car that does not load is listed with its error in words; the others with their
    /// figures.
    #[test]
    fn a_car_that_fails_to_load_shows_its_error() {
        let dir = tempfile::tempdir().expect("temp dir");
        let bad = dir.path().join("broken.ron");
        std::fs::write(&bad, "(this is not a vehicle").expect("write");
        let bad = bad.to_string_lossy().into_owned();
        let mut cars = CarList::new(vec!["corvette-c5".into(), bad.clone()]);
        cars.wait();
        let err = cars
            .facts(&bad)
            .expect("loaded")
            .clone()
            .expect_err("fails");
        assert!(!err.is_empty());
        let mut selected = "corvette-c5".to_owned();
        let texts = drawn_texts(&mut selected, &mut cars);
        let shown = format!("Does not load: {err}");
        assert!(texts.contains(&shown), "{shown:?} not in {texts:?}");
        for want in ["RWD", "257 kW (345 hp) at 5600 rpm", "1547 kg"] {
            assert!(texts.iter().any(|t| t == want), "{want} not in {texts:?}");
        }
    }

    /// Every installed TORCS car is listed with its figures or its error (skipped where
    /// none is installed: torcs-data is a Debian package, not a build dependency).
    #[test]
    fn the_list_shows_every_installed_torcs_car() {
        let names = super::super::session_tabs::vehicle_names();
        let torcs: Vec<_> = names.iter().filter(|n| n.starts_with("torcs:")).collect();
        if torcs.is_empty() {
            eprintln!("no TORCS cars installed: skipped");
            return;
        }
        let mut cars = CarList::new(names.clone());
        cars.wait();
        let mut selected = names[0].clone();
        let texts = drawn_texts(&mut selected, &mut cars);
        for name in &torcs {
            assert!(texts.iter().any(|t| t == *name), "{name} not in {texts:?}");
            match cars.facts(name).expect("loaded") {
                Ok(f) => assert!(f.peak_power.power_w > 0.0 && f.mass_kg > 0.0, "{name}"),
                Err(e) => assert!(texts.iter().any(|t| t.contains(e.as_str())), "{name}: {e}"),
            }
        }
    }
}

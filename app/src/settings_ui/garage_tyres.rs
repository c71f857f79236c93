//! The Garage's tyres: the tyre on each axle, chosen from every tyre file Gripline can find
//! (those that do not fit the car are listed, greyed, with the reason), and beside the
//! choice the tyre lab's force curves of it at the axle's static wheel load, cold pressure
//! and camber, over the car's own tyre's in grey.

use egui::{RichText, Ui};
use gripline_formats::tyre_catalog::{TyreOption, tyre_options};
use gripline_formats::vehicle_file::LoadedVehicle;
use gripline_physics::vehicle::{CarSetup, VehicleParams};

use super::tyre_chart::tyre_chart;
use crate::tyre_lab::{force_curves, plot::Chart};

/// What the curves on screen were drawn for: both axles' tyres, pressures and cambers.
type CurveKey = [(String, u64, u64); 2];

/// One axle's curves: the chosen tyre's, and the car's own tyre's when it differs.
type AxleCurves = (Vec<Chart>, Option<Vec<Chart>>);

/// The tyres the Garage offers for a car, and the curves last drawn.
#[derive(Clone, Debug)]
pub struct GarageTyres {
    /// Every tyre found, with whether it fits each axle.
    pub options: Vec<TyreOption>,
    /// Tyre files that could not be read, each with its error.
    pub unreadable: Vec<String>,
    /// The car's own tyres (front, rear), by name.
    own: [String; 2],
    curves: Option<(CurveKey, [AxleCurves; 2])>,
}

impl GarageTyres {
    /// The tyres for `car`.
    pub fn of(car: &LoadedVehicle) -> Self {
        let (options, unreadable) = tyre_options(car);
        Self {
            options,
            unreadable,
            own: [car.params.front_tyre.clone(), car.params.rear_tyre.clone()],
            curves: None,
        }
    }

    fn option(&self, name: &str) -> Option<&TyreOption> {
        self.options.iter().find(|o| o.name == name)
    }

    /// The curves for `draft` on `params`' car, computed again only when the tyres, the
    /// pressures or the cambers changed.
    fn curves(&mut self, draft: &CarSetup, params: &VehicleParams) -> Option<&[AxleCurves; 2]> {
        let axles = [
            (&draft.front_tyre, &draft.front),
            (&draft.rear_tyre, &draft.rear),
        ];
        let key: CurveKey = axles.map(|(name, axle)| {
            (
                name.clone(),
                axle.tyre_pressure_pa.to_bits(),
                axle.camber_deg.to_bits(),
            )
        });
        if self.curves.as_ref().is_none_or(|(k, _)| *k != key) {
            let mut computed = Vec::new();
            for (axle, (name, set)) in axles.into_iter().enumerate() {
                let load = params.static_wheel_load_n(axle);
                let draw = |name: &str| {
                    self.option(name).and_then(|o| {
                        force_curves(&o.tire, &[load], set.tyre_pressure_pa, set.camber_deg).ok()
                    })
                };
                let chosen = draw(name)?;
                let own = (*name != self.own[axle])
                    .then(|| draw(&self.own[axle]))
                    .flatten();
                computed.push((chosen, own));
            }
            let both: [AxleCurves; 2] = computed.try_into().ok()?;
            self.curves = Some((key, both));
        }
        self.curves.as_ref().map(|(_, c)| c)
    }
}

/// Draws the tyre choice and curves; returns whether the choice changed.
pub fn tyres_section(
    ui: &mut Ui,
    tyres: &mut GarageTyres,
    draft: &mut CarSetup,
    params: &VehicleParams,
) -> bool {
    ui.label(RichText::new("Tyres").strong());
    let mut changed = false;
    for (axle, label) in ["Front", "Rear"].into_iter().enumerate() {
        let chosen = if axle == 0 {
            &mut draft.front_tyre
        } else {
            &mut draft.rear_tyre
        };
        ui.horizontal(|ui| {
            ui.label(label);
            changed |= tyre_chooser(ui, tyres, axle, chosen);
            if let Some(option) = tyres.option(chosen) {
                ui.label(RichText::new(option.family).weak().small())
                    .on_hover_text(&option.title);
            }
        });
    }
    for problem in &tyres.unreadable {
        ui.label(
            RichText::new(format!("Not offered: {problem}"))
                .weak()
                .small(),
        );
    }
    let own = tyres.own.clone();
    if let Some(curves) = tyres.curves(draft, params) {
        let width = ((ui.available_width() - 8.0) / 2.0).clamp(150.0, 320.0);
        for (axle, (chosen, compared)) in curves.iter().enumerate() {
            let set = if axle == 0 { &draft.front } else { &draft.rear };
            ui.label(
                RichText::new(format!(
                    "{} at {:.2} kN per wheel, {:.2} bar cold, camber {:.1}°{}",
                    ["Front", "Rear"][axle],
                    params.static_wheel_load_n(axle) / 1000.0,
                    set.tyre_pressure_pa * 1e-5,
                    set.camber_deg,
                    if compared.is_some() {
                        format!(" (grey: the car's {})", own[axle])
                    } else {
                        String::new()
                    }
                ))
                .small(),
            );
            ui.horizontal(|ui| {
                for (i, chart) in chosen.iter().enumerate() {
                    let other = compared.as_ref().and_then(|c| c.get(i));
                    tyre_chart(ui, chart, other, width, 120.0);
                }
            });
        }
    }
    changed
}

/// The chooser of one axle's tyre: tyres that fit can be picked, the others show why not.
fn tyre_chooser(ui: &mut Ui, tyres: &GarageTyres, axle: usize, chosen: &mut String) -> bool {
    let mut picked = None;
    egui::ComboBox::from_id_salt(("garage-tyre", axle))
        .selected_text(chosen.as_str())
        .width(220.0)
        .show_ui(ui, |ui| {
            for option in &tyres.options {
                let text = format!("{}  ({})", option.name, option.family);
                match &option.fit[axle] {
                    Ok(()) => {
                        if ui
                            .selectable_label(*chosen == option.name, text)
                            .on_hover_text(&option.title)
                            .clicked()
                        {
                            picked = Some(option.name.clone());
                        }
                    }
                    Err(why) => {
                        ui.add_enabled(false, egui::Button::selectable(false, text))
                            .on_disabled_hover_text(format!("This tyre {why}."));
                    }
                }
            }
        });
    match picked {
        Some(name) if name != *chosen => {
            *chosen = name;
            true
        }
        _ => false,
    }
}

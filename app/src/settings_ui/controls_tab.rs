//! The Controls tab: devices, bindings, calibration and the H-shifter.

use egui::{Color32, RichText, Ui, Vec2};
use gripline_input::calibration::AxisMap;
use gripline_input::known_wheels;
use gripline_input::settings::axis_calibration::{RawRange, ResponseCurve};
use gripline_input::settings::bindings::{AxisBinding, AxisControl, ButtonAction};
use gripline_input::settings::device_identity::DeviceMatch;

use super::calibration_wizard::WizardStep;
use super::graphs::{self, CAL_COLOUR, LIVE_COLOUR, RAW_COLOUR, WARN_COLOUR};
use super::{AxisKey, ControlsPage, SettingsScreen, device_text};
use gripline_input::setup::bind::{self, AXIS_CONTROLS, BUTTON_ACTIONS, BindTarget, Resolution};
use gripline_input::setup::live_input::{LiveAxis, LiveDevice, LiveInput};
use gripline_input::setup::shifter_wizard::gear_name;

const HEADING: f32 = 20.0;
const INSTRUCTION: f32 = 22.0;

/// The connected device and axis an axis binding reads.
fn live_axis<'a>(
    live: &'a LiveInput,
    device: &DeviceMatch,
    axis: u32,
) -> Option<(&'a LiveDevice, &'a LiveAxis)> {
    live.devices()
        .iter()
        .filter(|d| d.connected && device.matches(&d.info.identity, d.info.kind))
        .find_map(|d| d.axis(axis).map(|a| (d, a)))
}

/// Whether a button binding's button is held on any matching connected device.
fn button_held(live: &LiveInput, device: &DeviceMatch, button: u32) -> bool {
    live.devices()
        .iter()
        .any(|d| d.connected && device.matches(&d.info.identity, d.info.kind) && d.is_held(button))
}

fn calibrated(b: &AxisBinding, live: &LiveInput) -> Option<f64> {
    let (_, a) = live_axis(live, &b.device, b.axis)?;
    Some(AxisMap::new(&b.calibration, b.control.is_centred()).map_raw(a.raw, Some(a.range)))
}

impl SettingsScreen {
    pub(super) fn controls_ui(&mut self, ui: &mut Ui, live: &LiveInput) {
        ui.horizontal(|ui| {
            for (page, title) in [
                (ControlsPage::Bindings, "Bindings"),
                (ControlsPage::Calibration, "Calibration"),
                (ControlsPage::Shifter, "H-shifter & handbrake"),
                (ControlsPage::Devices, "Devices"),
            ] {
                if ui
                    .selectable_label(self.page == page, RichText::new(title).size(16.0))
                    .clicked()
                {
                    self.page = page;
                }
            }
        });
        ui.add_space(6.0);
        self.conflict_ui(ui);
        match self.page {
            ControlsPage::Devices => self.devices_ui(ui, live),
            ControlsPage::Bindings => self.bindings_ui(ui, live),
            ControlsPage::Calibration => self.calibration_ui(ui, live),
            ControlsPage::Shifter => self.shifter_ui(ui, live),
        }
    }

    fn conflict_ui(&mut self, ui: &mut Ui) {
        let Some(p) = &self.pending else { return };
        let new_names: Vec<String> = p
            .news
            .iter()
            .map(|n| {
                format!(
                    "{} ({})",
                    n.binding.target(),
                    super::binding_source_text(&n.binding)
                )
            })
            .collect();
        let old: Vec<String> = p.conflicts.iter().map(ToString::to_string).collect();
        let mut choice = None;
        egui::Frame::group(ui.style())
            .stroke(egui::Stroke::new(2.0, WARN_COLOUR))
            .show(ui, |ui| {
                ui.label(RichText::new("Conflict").size(HEADING).color(WARN_COLOUR));
                ui.label(format!(
                    "{} is already used for: {}.",
                    new_names.join(", "),
                    old.join(", ")
                ));
                ui.horizontal(|ui| {
                    if ui.button("Replace (remove the old use)").clicked() {
                        choice = Some(Some(Resolution::Replace));
                    }
                    if ui.button("Keep both").clicked() {
                        choice = Some(Some(Resolution::KeepBoth));
                    }
                    if ui.button("Cancel").clicked() {
                        choice = Some(None);
                    }
                });
            });
        if let Some(c) = choice {
            self.resolve_conflict(c);
        }
        ui.add_space(8.0);
    }

    // ---- Devices ----

    fn devices_ui(&mut self, ui: &mut Ui, live: &LiveInput) {
        if live.devices().is_empty() {
            ui.label(
                RichText::new(
                    "No input devices found. Plug in your wheel, pedals or gamepad; they appear \
                     here as soon as they are connected.",
                )
                .size(16.0),
            );
            return;
        }
        ui.horizontal_top(|ui| {
            ui.vertical(|ui| {
                ui.set_width(280.0);
                ui.label(RichText::new("Devices").size(HEADING));
                for d in live.devices() {
                    let colour = if d.connected {
                        CAL_COLOUR
                    } else {
                        Color32::GRAY
                    };
                    let selected = self.selected_device.as_ref() == Some(&d.info.identity);
                    ui.horizontal(|ui| {
                        let (dot, _) =
                            ui.allocate_exact_size(Vec2::splat(14.0), egui::Sense::hover());
                        if d.connected {
                            ui.painter().circle_filled(dot.center(), 5.0, colour);
                        } else {
                            ui.painter().circle_stroke(
                                dot.center(),
                                5.0,
                                egui::Stroke::new(1.5, colour),
                            );
                        }
                        let text = RichText::new(&d.info.identity.name).color(colour);
                        if ui.selectable_label(selected, text).clicked() {
                            self.selected_device = Some(d.info.identity.clone());
                        }
                    });
                }
            });
            ui.separator();
            let device = self
                .selected_device
                .as_ref()
                .and_then(|id| live.devices().iter().find(|d| &d.info.identity == id))
                .or_else(|| live.devices().first());
            if let Some(d) = device {
                ui.vertical(|ui| self.device_detail(ui, live, d));
            }
        });
    }

    fn device_detail(&self, ui: &mut Ui, live: &LiveInput, d: &LiveDevice) {
        let id = &d.info.identity;
        ui.label(RichText::new(&id.name).size(HEADING).strong());
        ui.label(format!(
            "USB {:04x}:{:04x} · {:?} · {}{}",
            id.vendor_id,
            id.product_id,
            d.info.kind,
            if d.connected {
                "connected"
            } else {
                "unplugged"
            },
            if id.serial_or_path.is_empty() {
                String::new()
            } else {
                format!(" · {}", id.serial_or_path)
            }
        ));
        if let Some(w) = known_wheels::lookup(id.vendor_id, id.product_id) {
            ui.label(format!(
                "Known wheel: {} · {:.0}° rotation{}",
                w.name,
                w.default_rotation_deg,
                w.peak_torque_nm
                    .map_or(String::new(), |t| format!(" · about {t:.1} N·m peak"))
            ));
        }
        ui.add_space(6.0);
        if d.axes.is_empty() {
            ui.label("No axis has reported yet: move each axis once.");
        }
        egui::Grid::new(("axes", id.product_id, id.vendor_id))
            .striped(true)
            .spacing([12.0, 6.0])
            .show(ui, |ui| {
                ui.label(RichText::new("Axis").strong());
                ui.label(RichText::new("Raw").strong());
                ui.label(RichText::new("Bound to (calibrated)").strong());
                ui.label(RichText::new("Last 3 s").strong());
                ui.end_row();
                for a in &d.axes {
                    ui.label(format!("axis {}", a.code));
                    graphs::value_bar(
                        ui,
                        a.fraction(),
                        false,
                        RAW_COLOUR,
                        &format!("{} ({}..{})", a.raw, a.range.min, a.range.max),
                    );
                    let bound = self.working.bindings.axes.iter().find(|b| {
                        b.axis == a.code && b.device.matches(&d.info.identity, d.info.kind)
                    });
                    let map = bound.map(|b| {
                        (
                            AxisMap::new(&b.calibration, b.control.is_centred()),
                            b.control,
                        )
                    });
                    if let Some((m, control)) = &map {
                        let v = m.map_raw(a.raw, Some(a.range));
                        graphs::value_bar(
                            ui,
                            v,
                            control.is_centred(),
                            CAL_COLOUR,
                            &format!("{} {:.0}%", bind::axis_control_name(*control), v * 100.0),
                        );
                    } else {
                        ui.label("not bound");
                    }
                    graphs::axis_history(
                        ui,
                        Vec2::new(300.0, 44.0),
                        &a.history,
                        a.range,
                        map.as_ref().map(|(m, c)| (m, c.is_centred())),
                        live.now(),
                    );
                    ui.end_row();
                }
            });
        ui.add_space(6.0);
        ui.label(RichText::new("Buttons held").strong());
        ui.horizontal_wrapped(|ui| {
            if d.held.is_empty() {
                ui.label("none (press a button to see its number)");
            }
            for b in &d.held {
                ui.label(
                    RichText::new(format!(" {b} "))
                        .background_color(LIVE_COLOUR)
                        .color(Color32::BLACK),
                );
            }
        });
        if let Some(b) = d.last_pressed {
            ui.label(format!("Last pressed: button {b}"));
        }
    }

    // ---- Bindings ----

    fn bind_cell(&mut self, ui: &mut Ui, live: &LiveInput, target: BindTarget) {
        let capturing = self.capture.as_ref().is_some_and(|c| c.target() == target);
        if capturing {
            let left = self
                .capture
                .as_ref()
                .map_or(0, |c| c.remaining(live.now()).as_secs());
            let text = match target {
                BindTarget::Axis(_) => format!("Move it now… {left} s"),
                BindTarget::Button(_) => format!("Press it now… {left} s"),
            };
            ui.label(RichText::new(text).color(LIVE_COLOUR).strong());
            if ui.button("Stop").clicked() {
                self.cancel_bind();
            }
        } else if ui.button("Bind").clicked() {
            self.start_bind(target, live);
        }
    }

    fn bindings_ui(&mut self, ui: &mut Ui, live: &LiveInput) {
        ui.label(
            "Press Bind next to a control, then move that control on your wheel, pedals or \
             gamepad (or press the button or key). Rebinding replaces the old binding on the \
             same device; other devices keep theirs.",
        );
        ui.add_space(6.0);
        ui.label(RichText::new("Axes").size(HEADING));
        egui::Grid::new("axis_bindings")
            .striped(true)
            .spacing([14.0, 8.0])
            .min_col_width(120.0)
            .show(ui, |ui| {
                for control in AXIS_CONTROLS {
                    self.axis_row(ui, live, control);
                    ui.end_row();
                }
            });
        ui.add_space(10.0);
        ui.label(RichText::new("Buttons").size(HEADING));
        egui::Grid::new("button_bindings")
            .striped(true)
            .spacing([14.0, 6.0])
            .min_col_width(120.0)
            .show(ui, |ui| {
                for action in BUTTON_ACTIONS {
                    self.button_row(ui, live, action);
                    ui.end_row();
                }
            });
    }

    fn axis_row(&mut self, ui: &mut Ui, live: &LiveInput, control: AxisControl) {
        ui.label(RichText::new(bind::axis_control_name(control)).size(16.0));
        let bound: Vec<AxisKey> = self
            .working
            .bindings
            .axes
            .iter()
            .filter(|b| b.control == control)
            .map(AxisKey::of)
            .collect();
        let mut remove = None;
        let mut calibrate = None;
        ui.vertical(|ui| {
            if bound.is_empty() {
                ui.label(RichText::new("not bound").color(Color32::GRAY));
            }
            for key in &bound {
                ui.horizontal(|ui| {
                    ui.label(super::code_text(&key.device, key.axis, true));
                    if ui.small_button("Calibrate").clicked() {
                        calibrate = Some(key.clone());
                    }
                    if ui
                        .small_button("×")
                        .on_hover_text("Remove this binding")
                        .clicked()
                    {
                        remove = Some(key.clone());
                    }
                });
            }
        });
        let value = self
            .working
            .bindings
            .axes
            .iter()
            .filter(|b| b.control == control)
            .filter_map(|b| calibrated(b, live))
            .fold(None::<f64>, |acc, v| {
                Some(acc.map_or(v, |a| if v.abs() > a.abs() { v } else { a }))
            });
        match value {
            Some(v) => graphs::value_bar(
                ui,
                v,
                control.is_centred(),
                CAL_COLOUR,
                &format!("{:.0}%", v * 100.0),
            ),
            None => {
                ui.label(RichText::new("no live value").color(Color32::GRAY));
            }
        }
        ui.horizontal(|ui| self.bind_cell(ui, live, BindTarget::Axis(control)));
        if let Some(key) = remove {
            self.working.bindings.axes.retain(|b| !key.is(b));
            if self.editing.as_ref() == Some(&key) {
                self.editing = None;
            }
        }
        if let Some(key) = calibrate {
            self.editing = Some(key);
            self.page = ControlsPage::Calibration;
        }
    }

    fn button_row(&mut self, ui: &mut Ui, live: &LiveInput, action: ButtonAction) {
        ui.label(RichText::new(bind::button_action_name(action)).size(16.0));
        let bound: Vec<(DeviceMatch, u32)> = self
            .working
            .bindings
            .buttons
            .iter()
            .filter(|b| b.action == action)
            .map(|b| (b.device.clone(), b.button))
            .collect();
        let mut remove = None;
        ui.vertical(|ui| {
            if bound.is_empty() {
                ui.label(RichText::new("not bound").color(Color32::GRAY));
            }
            for (device, button) in &bound {
                ui.horizontal(|ui| {
                    let text = super::code_text(device, *button, false);
                    let rich = if button_held(live, device, *button) {
                        RichText::new(text)
                            .background_color(LIVE_COLOUR)
                            .color(Color32::BLACK)
                    } else {
                        RichText::new(text)
                    };
                    ui.label(rich);
                    if ui
                        .small_button("×")
                        .on_hover_text("Remove this binding")
                        .clicked()
                    {
                        remove = Some((device.clone(), *button));
                    }
                });
            }
        });
        ui.horizontal(|ui| self.bind_cell(ui, live, BindTarget::Button(action)));
        if let Some((device, button)) = remove {
            self.working
                .bindings
                .buttons
                .retain(|b| !(b.action == action && b.device == device && b.button == button));
        }
    }

    // ---- Calibration ----

    fn calibration_ui(&mut self, ui: &mut Ui, live: &LiveInput) {
        let keys: Vec<AxisKey> = self.working.bindings.axes.iter().map(AxisKey::of).collect();
        if keys.is_empty() {
            ui.label("No axis is bound yet: bind steering and pedals on the Bindings page first.");
            return;
        }
        if self.editing.as_ref().is_none_or(|k| !keys.contains(k)) {
            self.editing = keys.first().cloned();
        }
        let Some(key) = self.editing.clone() else {
            return;
        };
        let label = |k: &AxisKey| {
            format!(
                "{} — {} axis {}",
                bind::axis_control_name(k.control),
                device_text(&k.device),
                k.axis
            )
        };
        ui.horizontal(|ui| {
            ui.label(RichText::new("Axis:").size(16.0));
            egui::ComboBox::from_id_salt("calibration_axis")
                .width(420.0)
                .selected_text(label(&key))
                .show_ui(ui, |ui| {
                    for k in &keys {
                        if ui.selectable_label(*k == key, label(k)).clicked() {
                            self.editing = Some(k.clone());
                            self.wizard = None;
                        }
                    }
                });
        });
        let Some(key) = self.editing.clone() else {
            return;
        };
        let live_axis = live_axis(live, &key.device, key.axis);
        let (live_raw, device_range, history) = match live_axis {
            Some((_, a)) => (Some(a.raw), Some(a.range), Some(&a.history)),
            None => (None, None, None),
        };
        if live_axis.is_none() {
            ui.label(
                RichText::new(
                    "This device is not connected, or the axis has not reported yet: move it once.",
                )
                .color(WARN_COLOUR),
            );
        }
        ui.add_space(6.0);
        self.wizard_ui(ui, live, &key, live_raw, device_range);
        ui.add_space(8.0);

        let Some(index) = self.working.bindings.axes.iter().position(|b| key.is(b)) else {
            return;
        };
        let centred = key.control.is_centred();
        ui.horizontal_top(|ui| {
            ui.vertical(|ui| {
                ui.label(RichText::new("Response").size(HEADING));
                let cal = &self.working.bindings.axes[index].calibration;
                graphs::response_curve(
                    ui,
                    Vec2::new(520.0, 340.0),
                    cal,
                    centred,
                    device_range,
                    live_raw,
                );
                if let (Some(h), Some(r)) = (history, device_range) {
                    let m = AxisMap::new(cal, centred);
                    ui.label("Last 3 s: raw (blue) and calibrated (green)");
                    graphs::axis_history(
                        ui,
                        Vec2::new(520.0, 80.0),
                        h,
                        r,
                        Some((&m, centred)),
                        live.now(),
                    );
                }
            });
            ui.add_space(12.0);
            ui.vertical(|ui| {
                ui.set_max_width(460.0);
                self.calibration_sliders(ui, index, device_range, live_raw);
            });
        });
    }

    fn wizard_ui(
        &mut self,
        ui: &mut Ui,
        live: &LiveInput,
        key: &AxisKey,
        live_raw: Option<i32>,
        device_range: Option<gripline_input::device::AxisRange>,
    ) {
        let running = self.wizard.as_ref().is_some_and(|(k, _)| k == key);
        if !running {
            if ui
                .button(RichText::new("Start calibration wizard").size(18.0))
                .clicked()
            {
                self.start_wizard(key.clone(), live);
            }
            return;
        }
        let Some((_, w)) = self.wizard.as_ref() else {
            return;
        };
        let instruction = w.instruction();
        let step = w.step();
        let message = w.message().map(str::to_owned);
        let captured = w.captured();
        let mut next = false;
        let mut back = false;
        let mut cancel = false;
        egui::Frame::group(ui.style())
            .stroke(egui::Stroke::new(2.0, LIVE_COLOUR))
            .show(ui, |ui| {
                let n = match step {
                    WizardStep::SteeringLockToLock | WizardStep::PedalReleased => "Step 1 of 2",
                    WizardStep::SteeringCentre | WizardStep::PedalPressed => "Step 2 of 2",
                    WizardStep::Done => "Done",
                };
                ui.label(
                    RichText::new(format!("Calibration wizard — {n}"))
                        .size(HEADING)
                        .strong(),
                );
                ui.label(
                    RichText::new(instruction)
                        .size(INSTRUCTION)
                        .color(LIVE_COLOUR),
                );
                if let (Some(raw), Some(r)) = (live_raw, device_range) {
                    let centred = key.control.is_centred() && step == WizardStep::SteeringCentre;
                    let f = gripline_input::setup::live_input::fraction(raw, r);
                    graphs::value_bar(
                        ui,
                        if centred { 2.0 * f - 1.0 } else { f },
                        centred,
                        RAW_COLOUR,
                        &format!("raw {raw}"),
                    );
                }
                if let Some(c) = captured
                    && matches!(
                        step,
                        WizardStep::SteeringLockToLock | WizardStep::PedalPressed
                    )
                {
                    let of = device_range.map_or(String::new(), |r| {
                        let span = (f64::from(r.max) - f64::from(r.min)).max(1.0);
                        format!(
                            " — {:.0}% of the axis",
                            100.0 * (f64::from(c.max) - f64::from(c.min)) / span
                        )
                    });
                    ui.label(format!("Recorded travel: {} to {}{of}", c.min, c.max));
                }
                if let Some(m) = &message {
                    ui.label(RichText::new(m).color(WARN_COLOUR).size(16.0));
                }
                ui.horizontal(|ui| {
                    if ui.button(RichText::new("Next").size(18.0)).clicked() {
                        next = true;
                    }
                    if ui.button("Back").clicked() {
                        back = true;
                    }
                    if ui.button("Cancel wizard").clicked() {
                        cancel = true;
                    }
                });
            });
        if next {
            self.wizard_next();
        }
        if back {
            self.wizard_back();
        }
        if cancel {
            self.cancel_wizard();
        }
    }

    fn calibration_sliders(
        &mut self,
        ui: &mut Ui,
        index: usize,
        device_range: Option<gripline_input::device::AxisRange>,
        live_raw: Option<i32>,
    ) {
        let car_lock = self.car_lock_deg;
        let Some(b) = self.working.bindings.axes.get_mut(index) else {
            return;
        };
        let control = b.control;
        let identity = match &b.device {
            DeviceMatch::Device(id) => Some(id.clone()),
            _ => None,
        };
        let cal = &mut b.calibration;
        ui.label(RichText::new("Tuning").size(HEADING));
        let pct = |ui: &mut Ui, v: &mut f64, max: f64, text: &str, hover: &str| {
            ui.add(
                super::slider(v, 0.0..=max)
                    .text(text)
                    .custom_formatter(|x, _| format!("{:.1} %", x * 100.0))
                    .custom_parser(|s| {
                        s.trim()
                            .trim_end_matches('%')
                            .trim()
                            .parse::<f64>()
                            .ok()
                            .map(|x| x / 100.0)
                    }),
            )
            .on_hover_text(hover);
        };
        let dz_text = if control.is_centred() {
            "Centre dead zone"
        } else {
            "Dead zone at rest"
        };
        pct(
            ui,
            &mut cal.dead_zone,
            0.5,
            dz_text,
            "Travel that still reads zero.",
        );
        let sat_max = (0.94 - cal.dead_zone).clamp(0.0, 0.5);
        pct(
            ui,
            &mut cal.saturation,
            sat_max,
            "End dead zone (saturation)",
            "Travel at the far end that already reads 100 % — for pedals that never quite reach the end.",
        );
        pct(
            ui,
            &mut cal.anti_dead_zone,
            0.9,
            "Anti-dead zone",
            "Output jumps to this as soon as the control leaves its dead zone.",
        );
        let mut gamma = match cal.curve {
            ResponseCurve::Gamma(g) => Some(g),
            _ => None,
        };
        let points = matches!(cal.curve, ResponseCurve::Points(_));
        ui.horizontal(|ui| {
            ui.label("Response:");
            if ui
                .radio(matches!(cal.curve, ResponseCurve::Linear), "Linear")
                .clicked()
            {
                cal.curve = ResponseCurve::Linear;
            }
            if ui.radio(gamma.is_some(), "Gamma curve").clicked() && gamma.is_none() {
                cal.curve = ResponseCurve::Gamma(1.5);
            }
            if points {
                ui.label("(custom curve from the settings file)");
            }
        });
        if let Some(g) = gamma.as_mut()
            && ui
                .add(
                    super::slider(g, 0.2..=5.0)
                        .logarithmic(true)
                        .text("Gamma (above 1: finer near rest)"),
                )
                .changed()
        {
            cal.curve = ResponseCurve::Gamma(*g);
        }
        ui.checkbox(&mut cal.invert, "Invert (swap the ends)");
        match cal.raw_range {
            Some(r) => {
                ui.horizontal(|ui| {
                    ui.label(format!("Recorded range: {} to {}", r.min, r.max));
                    if ui
                        .small_button("Forget")
                        .on_hover_text("Use the range the device reports")
                        .clicked()
                    {
                        cal.raw_range = None;
                        cal.centre = None;
                    }
                });
            }
            None => {
                ui.label("Range: as the device reports it (run the wizard to record yours).");
            }
        }
        if let Some(rest) = cal.rest_raw {
            ui.label(format!(
                "Rest value (until the device first reports): {rest}"
            ));
        }
        if control == AxisControl::CombinedPedals {
            ui.add_space(6.0);
            ui.label(RichText::new("Combined pedals").size(16.0).strong());
            let range = cal.raw_range.or_else(|| {
                device_range.map(|r| RawRange {
                    min: r.min,
                    max: r.max,
                })
            });
            if let Some(r) = range.filter(|r| r.max - r.min >= 2) {
                let mut split = cal.centre.unwrap_or(r.min + (r.max - r.min) / 2);
                if ui
                    .add(
                        super::slider(&mut split, (r.min + 1)..=(r.max - 1))
                            .text("Split point (raw)"),
                    )
                    .changed()
                {
                    cal.centre = Some(split);
                }
                let side = |v: i32| {
                    if (v > split) == cal.invert {
                        "brake"
                    } else {
                        "throttle"
                    }
                };
                ui.label(format!(
                    "Above the split point reads {}, below it {}.{}",
                    side(r.max),
                    side(r.min),
                    live_raw.map_or(String::new(), |v| format!(
                        " Now: {}",
                        if v == split { "neither" } else { side(v) }
                    ))
                ));
            }
        }
        if control == AxisControl::Steering {
            ui.add_space(6.0);
            ui.label(RichText::new("Rotation").size(16.0).strong());
            ui.add(
                super::slider(&mut b.rotation_deg, 90.0..=2520.0)
                    .step_by(10.0)
                    .suffix("°")
                    .text("Wheel rotation, lock to lock"),
            );
            if let Some(w) = identity
                .as_ref()
                .and_then(|id| known_wheels::lookup(id.vendor_id, id.product_id))
            {
                let text = format!("Use {:.0}° ({})", w.default_rotation_deg, w.name);
                if (b.rotation_deg - w.default_rotation_deg).abs() > 0.5
                    && ui.button(text).clicked()
                {
                    b.rotation_deg = w.default_rotation_deg;
                }
            }
            if let Some(raw) = live_raw {
                let v = AxisMap::new(&b.calibration, true).map_raw(raw, device_range);
                let deg = v * 0.5 * b.rotation_deg;
                let side = if deg > 0.5 {
                    "right"
                } else if deg < -0.5 {
                    "left"
                } else {
                    "straight ahead"
                };
                ui.label(
                    RichText::new(format!("Wheel now: {:.0}° {side}", deg.abs()))
                        .size(18.0)
                        .color(LIVE_COLOUR),
                );
            }
            ui.label(rotation_text(b.rotation_deg, car_lock));
        }
    }

    // ---- H-shifter ----

    fn shifter_ui(&mut self, ui: &mut Ui, live: &LiveInput) {
        ui.label(RichText::new("H-pattern shifter").size(HEADING));
        let gear_bindings: Vec<(i8, DeviceMatch, u32)> = self
            .working
            .bindings
            .buttons
            .iter()
            .filter_map(|b| match b.action {
                ButtonAction::Gear(g) => Some((g, b.device.clone(), b.button)),
                _ => None,
            })
            .collect();
        let engaged = gear_bindings
            .iter()
            .find(|(_, d, b)| button_held(live, d, *b))
            .map(|(g, _, _)| *g);
        if self.shifter.is_some() {
            self.shifter_wizard_ui(ui);
        } else {
            ui.horizontal(|ui| {
                ui.label("Forward gears:");
                ui.add(egui::DragValue::new(&mut self.shifter_gears).range(1..=7));
                ui.checkbox(&mut self.shifter_reverse, "Reverse");
                if ui
                    .button(RichText::new("Start H-shifter wizard").size(18.0))
                    .clicked()
                {
                    self.start_shifter(self.shifter_gears, self.shifter_reverse, live);
                }
            });
        }
        ui.add_space(6.0);
        if gear_bindings.is_empty() {
            ui.label("No H-shifter bound: the car shifts sequentially.");
        } else {
            ui.label(
                RichText::new(format!(
                    "Engaged now: {}",
                    engaged.map_or("neutral".into(), gear_name)
                ))
                .size(18.0)
                .color(LIVE_COLOUR),
            );
            egui::Grid::new("gears").striped(true).show(ui, |ui| {
                let mut sorted = gear_bindings.clone();
                sorted.sort_by_key(|(g, _, _)| if *g < 0 { 100 } else { *g });
                for (g, d, b) in sorted {
                    ui.label(gear_name(g));
                    ui.label(super::code_text(&d, b, false));
                    ui.end_row();
                }
            });
            if ui.button("Remove H-shifter bindings").clicked() {
                self.working
                    .bindings
                    .buttons
                    .retain(|b| !matches!(b.action, ButtonAction::Gear(_)));
            }
        }
        ui.add_space(10.0);
        ui.label(RichText::new("Sequential, clutch and handbrake").size(HEADING));
        egui::Grid::new("shifter_extras")
            .striped(true)
            .spacing([14.0, 8.0])
            .min_col_width(120.0)
            .show(ui, |ui| {
                for action in [
                    ButtonAction::ShiftUp,
                    ButtonAction::ShiftDown,
                    ButtonAction::Handbrake,
                ] {
                    self.button_row(ui, live, action);
                    ui.end_row();
                }
                for control in [AxisControl::Handbrake, AxisControl::Clutch] {
                    self.axis_row(ui, live, control);
                    ui.end_row();
                }
            });
    }

    fn shifter_wizard_ui(&mut self, ui: &mut Ui) {
        let Some(w) = &self.shifter else { return };
        let instruction = w.instruction();
        let message = w.message().map(str::to_owned);
        let recorded: Vec<String> = w
            .recorded()
            .iter()
            .map(|r| {
                format!(
                    "{}: {} button {}",
                    gear_name(r.gear),
                    r.identity.name,
                    r.button
                )
            })
            .collect();
        let finished = w.finished();
        let mut act = None;
        egui::Frame::group(ui.style())
            .stroke(egui::Stroke::new(2.0, LIVE_COLOUR))
            .show(ui, |ui| {
                ui.label(RichText::new("H-shifter wizard").size(HEADING).strong());
                ui.label(
                    RichText::new(instruction)
                        .size(INSTRUCTION)
                        .color(LIVE_COLOUR),
                );
                if let Some(m) = message {
                    ui.label(RichText::new(m).color(WARN_COLOUR).size(16.0));
                }
                for r in recorded {
                    ui.label(r);
                }
                ui.horizontal(|ui| {
                    if finished {
                        if ui
                            .button(RichText::new("Use these gears").size(18.0))
                            .clicked()
                        {
                            act = Some(0);
                        }
                    } else if ui.button("Skip this gear").clicked() {
                        act = Some(1);
                    }
                    if ui.button("Undo last").clicked() {
                        act = Some(2);
                    }
                    if ui.button("Cancel wizard").clicked() {
                        act = Some(3);
                    }
                });
            });
        match act {
            Some(0) => self.finish_shifter(),
            Some(1) => {
                if let Some(w) = self.shifter.as_mut() {
                    w.skip();
                }
            }
            Some(2) => {
                if let Some(w) = self.shifter.as_mut() {
                    w.undo();
                }
            }
            Some(3) => self.cancel_shifter(),
            _ => {}
        }
    }
}

/// How the wheel's rotation maps to the car's steering lock (1:1), in words.
pub fn rotation_text(rotation_deg: f64, car_lock_deg: Option<f64>) -> String {
    let half = 0.5 * rotation_deg;
    let base = format!(
        "Your wheel turns {rotation_deg:.0}° lock to lock (±{half:.0}°). The car's steering \
         wheel follows it 1:1, degree for degree."
    );
    match car_lock_deg {
        None => format!("{base} Load a car to see where its lock falls."),
        Some(lock) if lock < half - 0.5 => format!(
            "{base} This car locks at ±{lock:.0}° ({:.0}° lock to lock): full lock is reached at \
             ±{lock:.0}° of your wheel; the last {:.0}° each side add nothing.",
            2.0 * lock,
            half - lock
        ),
        Some(lock) if lock > half + 0.5 => format!(
            "{base} This car locks at ±{lock:.0}°, more than your wheel turns: you can steer up \
             to ±{half:.0}° ({:.0} % of its lock). Set your wheel to {:.0}° if it can turn that far.",
            100.0 * half / lock,
            2.0 * lock
        ),
        Some(lock) => format!("{base} This car locks at ±{lock:.0}°: exactly your wheel's range."),
    }
}

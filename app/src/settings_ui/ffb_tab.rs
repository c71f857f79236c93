//! The Force feedback tab: routing, strength and feel, tests, the direction check, the live
//! torque graph, the kill switch, the runaway cut and the emergency stop's notice (force
//! feedback held off after an internal error until the user turns it back on here).

use egui::{Color32, RichText, Ui, Vec2};
use gripline_input::ffb::device_facts::FfbDeviceFacts;
use gripline_input::ffb::direction_check::{
    DIRECTION_PULSE, DIRECTION_PULSE_FRACTION, DirectionOutcome,
};
use gripline_input::ffb::safety::StopReason;
use gripline_input::settings::device_identity::DeviceIdentity;
use gripline_input::settings::ffb_settings::FfbDeviceSettings;
use gripline_input::settings::soft_lock::SteeringLockMode;

use super::ffb_choices::{DirectionCheckState, FfbTestKind, direction_text};
use super::graphs::{self, CAL_COLOUR, WARN_COLOUR};
use super::{SettingsAction, SettingsScreen};
use gripline_input::setup::live_input::LiveInput;

const HEADING: f32 = 20.0;

impl SettingsScreen {
    /// The device the settings apply to: the chosen one, else the automatic one.
    fn ffb_device(&self) -> Option<DeviceIdentity> {
        self.routing
            .device
            .clone()
            .or_else(|| self.ffb_options.automatic_device.clone())
    }

    /// The facts of `device` under the working settings, from their one owner (the same
    /// function the wheel set-up uses when it opens the device).
    fn device_facts(&self, device: Option<&DeviceIdentity>) -> Option<FfbDeviceFacts> {
        device.map(|d| {
            gripline_host::wheel_setup::device_facts(&self.working.bindings, &self.working.ffb, d)
        })
    }

    /// The device facts as edited on this screen (peak, invert, rotation), for tests to play
    /// with before Apply; `None` without a force-feedback device.
    pub fn edited_facts(&self) -> Option<FfbDeviceFacts> {
        self.device_facts(self.ffb_device().as_ref())
    }

    /// Sets the working copy's invert for `device` (adding its entry when needed): what the
    /// direction check proposes.
    pub fn set_device_invert(&mut self, device: &DeviceIdentity, invert: bool) {
        let devices = &mut self.working.ffb.devices;
        if let Some(d) = devices.iter_mut().find(|d| d.device.same_device(device)) {
            d.invert = invert;
        } else if invert {
            devices.push(FfbDeviceSettings {
                device: device.clone(),
                invert,
                peak_torque_nm: None,
                max_rate_hz: None,
                backend: gripline_input::settings::ffb_settings::FfbBackendChoice::Auto,
                peak_confirmed_nm: None,
            });
        }
    }

    /// The direction check: its button, what it does, its answer and, when the wheel turned
    /// the wrong way, the other invert to set.
    fn direction_ui(&mut self, ui: &mut Ui, usable: bool) -> Option<SettingsAction> {
        let mut action = None;
        let running = self.direction == DirectionCheckState::Running;
        ui.horizontal(|ui| {
            let button = egui::Button::new(RichText::new("Check direction").size(16.0));
            if ui.add_enabled(usable && !running, button).clicked() {
                self.direction = DirectionCheckState::Running;
                action = Some(SettingsAction::CheckDirection);
            }
            if running {
                ui.label("Checking: hands off the wheel...");
            }
        });
        ui.label(
            RichText::new(format!(
                "Hands off the wheel: a push to the left of {:.0} % of the maximum torque for {} ms, \
                 then the wheel's angle tells whether forces point the right way.",
                100.0 * DIRECTION_PULSE_FRACTION,
                DIRECTION_PULSE.as_millis()
            ))
            .color(Color32::GRAY),
        );
        if let DirectionCheckState::Done { outcome, invert } = self.direction {
            let colour = match outcome {
                DirectionOutcome::Correct { .. } => CAL_COLOUR,
                DirectionOutcome::Reversed { .. } => WARN_COLOUR,
                DirectionOutcome::Inconclusive(_) => Color32::from_rgb(230, 200, 120),
            };
            ui.label(
                RichText::new(direction_text(outcome, invert))
                    .size(16.0)
                    .color(colour),
            );
            if matches!(outcome, DirectionOutcome::Reversed { .. }) {
                match self.ffb_device() {
                    Some(device) => {
                        let text = if invert {
                            "Turn invert off for this wheel"
                        } else {
                            "Set invert for this wheel"
                        };
                        if ui.button(RichText::new(text).size(16.0)).clicked() {
                            self.set_device_invert(&device, !invert);
                            self.say("Invert changed in the edited settings: Apply, then check the direction again.");
                        }
                    }
                    None => {
                        ui.label(
                            "No force-feedback wheel is chosen above: choose it to set its invert.",
                        );
                    }
                }
            }
        }
        action
    }

    pub(super) fn ffb_ui(&mut self, ui: &mut Ui, live: &LiveInput) -> Option<SettingsAction> {
        let mut action = None;
        let killed = live.ffb().killed;
        let emergency = live.ffb().emergency_stopped;

        // The emergency stop first: nothing else brings force feedback back.
        if emergency {
            ui.label(
                RichText::new("Force feedback is OFF: stopped by the emergency stop")
                    .size(HEADING)
                    .color(WARN_COLOUR)
                    .strong(),
            );
            ui.label(
                "An internal error stopped every wheel. Force feedback stays off until you \
                 turn it back on; the wheel is then opened again and fades in.",
            );
            if ui
                .button(
                    RichText::new("Turn force feedback back on after the emergency stop")
                        .size(18.0),
                )
                .clicked()
            {
                action = Some(SettingsAction::KillFfb(false));
            }
            ui.add_space(8.0);
        }
        let cut = live.ffb().cut;

        // Kill switch first: it must be found at once.
        ui.horizontal(|ui| {
            if killed || cut.is_some() {
                let text = if killed {
                    "Force feedback is OFF (kill switch)"
                } else {
                    "Force feedback is CUT (runaway trip)"
                };
                ui.label(
                    RichText::new(text)
                        .size(HEADING)
                        .color(WARN_COLOUR)
                        .strong(),
                );
                if ui
                    .button(RichText::new("Turn force feedback back on").size(18.0))
                    .clicked()
                {
                    action = Some(SettingsAction::KillFfb(false));
                }
            } else {
                let stop = egui::Button::new(
                    RichText::new("STOP force feedback (kill switch)")
                        .size(18.0)
                        .color(Color32::WHITE)
                        .strong(),
                )
                .fill(Color32::from_rgb(170, 30, 20));
                if ui.add(stop).clicked() {
                    action = Some(SettingsAction::KillFfb(true));
                }
            }
        });
        if let Some(StopReason::Runaway(cause)) = cut {
            ui.label(
                RichText::new(format!(
                    "Cut because {}. It stays off until you turn it back on: centre the wheel, \
                     turn it back on, then run the direction check below.",
                    cause.describe()
                ))
                .size(16.0)
                .color(WARN_COLOUR),
            );
        }
        ui.add_space(8.0);

        // Routing.
        ui.label(RichText::new("Backend and device").size(HEADING));
        let auto_backend = self
            .ffb_options
            .automatic_backend
            .clone()
            .unwrap_or_else(|| "none found".into());
        let backend_text = self
            .routing
            .backend
            .clone()
            .unwrap_or_else(|| format!("Automatic ({auto_backend})"));
        ui.horizontal(|ui| {
            ui.label("Backend:");
            egui::ComboBox::from_id_salt("ffb_backend")
                .width(320.0)
                .selected_text(backend_text)
                .show_ui(ui, |ui| {
                    if ui
                        .selectable_label(
                            self.routing.backend.is_none(),
                            format!("Automatic ({auto_backend})"),
                        )
                        .clicked()
                    {
                        self.routing.backend = None;
                    }
                    for b in &self.ffb_options.backends {
                        if ui
                            .selectable_label(self.routing.backend.as_ref() == Some(b), b)
                            .clicked()
                        {
                            self.routing.backend = Some(b.clone());
                        }
                    }
                });
        });
        let name_of = |id: &DeviceIdentity| {
            self.ffb_options
                .devices
                .iter()
                .find(|o| o.identity.same_device(id))
                .map_or_else(|| id.name.clone(), |o| o.name.clone())
        };
        let auto_device = self
            .ffb_options
            .automatic_device
            .as_ref()
            .map_or_else(|| "none found".into(), name_of);
        let device_text = self
            .routing
            .device
            .as_ref()
            .map_or_else(|| format!("Automatic ({auto_device})"), name_of);
        let mut chosen = None;
        ui.horizontal(|ui| {
            ui.label("Device:");
            egui::ComboBox::from_id_salt("ffb_device")
                .width(320.0)
                .selected_text(device_text)
                .show_ui(ui, |ui| {
                    if ui
                        .selectable_label(
                            self.routing.device.is_none(),
                            format!("Automatic ({auto_device})"),
                        )
                        .clicked()
                    {
                        chosen = Some(None);
                    }
                    for o in &self.ffb_options.devices {
                        let on = self
                            .routing
                            .device
                            .as_ref()
                            .is_some_and(|d| d.same_device(&o.identity));
                        if ui.selectable_label(on, &o.name).clicked() {
                            chosen = Some(Some(o.identity.clone()));
                        }
                    }
                });
        });
        if let Some(c) = chosen {
            self.routing.device = c;
        }
        if self.ffb_options.devices.is_empty() {
            ui.label(
                RichText::new("No force-feedback wheel found. The settings below are kept for when one is connected.")
                    .color(Color32::GRAY),
            );
        }
        ui.add_space(8.0);

        // Strength and feel.
        let device = self.ffb_device();
        let facts = self.device_facts(device.as_ref());
        let peak = facts.map(|f| f.peak_torque_nm);
        ui.horizontal_top(|ui| {
            ui.vertical(|ui| {
                ui.set_width(480.0);
                ui.label(RichText::new("Strength and feel").size(HEADING));
                let f = &mut self.working.ffb;
                ui.checkbox(&mut f.enabled, "Force feedback on");
                ui.add(
                    super::slider(&mut f.gain, 0.0..=3.0)
                        .text("Master gain")
                        .custom_formatter(|x, _| format!("{:.0} %", x * 100.0))
                        .custom_parser(|s| s.trim().trim_end_matches('%').trim().parse::<f64>().ok().map(|x| x / 100.0)),
                );
                let max_limit = peak.unwrap_or(25.0).clamp(0.5, 100.0);
                ui.add(
                    super::slider(&mut f.max_torque_nm, 0.1..=max_limit)
                        .text("Maximum torque")
                        .suffix(" N·m"),
                )
                .on_hover_text("The most torque ever sent to the wheel; start low on a direct-drive base.");
                match facts {
                    Some(f) => ui.label(format!("Your wheel: {}.", f.describe_peak())),
                    None => ui.label("No wheel: the settings are kept for when one is connected."),
                };
                let min_max = (0.49 * f.max_torque_nm).max(0.0);
                ui.add(super::slider(&mut f.min_force_nm, 0.0..=min_max).text("Minimum force").suffix(" N·m"))
                    .on_hover_text("Lifts small forces above the wheel's own friction (belt and gear wheels).");
                ui.add(
                    super::slider(&mut f.damping_nm_s_per_rad, 0.0..=1.0)
                        .text("Damping")
                        .suffix(" N·m·s/rad"),
                )
                .on_hover_text("Resists fast wheel movements.");
                ui.add(super::slider(&mut f.friction_nm, 0.0..=2.0).text("Friction").suffix(" N·m"))
                    .on_hover_text("A constant resistance to turning, like a heavy steering rack.");
                ui.add(
                    super::slider(&mut f.inertia_kg_m2, 0.0..=0.05)
                        .text("Inertia")
                        .suffix(" kg·m²"),
                );
                ui.add(
                    super::slider(&mut f.smoothing_ms, 0.0..=gripline_input::settings::ffb_settings::MAX_SMOOTHING_MS)
                        .text("Smoothing")
                        .suffix(" ms"),
                )
                .on_hover_text("Low-pass filter of the car's torque: takes the edge off road noise on geared wheels, at the cost of latency. 0 is off.");
                ui.add(
                    super::slider(&mut f.slew_limit_nm_per_s, 5.0..=1000.0)
                        .logarithmic(true)
                        .text("Slew limit (fastest change)")
                        .suffix(" N·m/s"),
                )
                .on_hover_text("The fastest the torque may change; lower is gentler on the hands. 1000 is off.");
                ui.add(
                    super::slider(&mut f.soft_clip_knee, 0.1..=1.0)
                        .text("Soft clip from")
                        .custom_formatter(|x, _| format!("{:.0} % of max", x * 100.0)),
                );
                ui.checkbox(&mut f.normalise_car_torque, "Same strength for every car")
                    .on_hover_text("Scales each car's steering torque so that its limit lands at the soft-clip knee: one gain suits every car.");
                ui.checkbox(&mut f.effects.auto_gain, "Auto-gain proposal at the end of each lap")
                    .on_hover_text("Proposes a master gain from the lap's torque so that at most 2.5 % of it clips (at most +25 % a lap); nothing changes until you accept it here.");
                if let Some(proposal) = self.auto_gain_proposal {
                    let mut accepted = false;
                    ui.horizontal(|ui| {
                        ui.label(
                            RichText::new(format!(
                                "Auto-gain proposes {:.0} % (now {:.0} %).",
                                100.0 * proposal,
                                100.0 * f.gain
                            ))
                            .color(CAL_COLOUR),
                        );
                        accepted = ui.button("Accept").on_hover_text("Sets the master gain; Apply to drive with it (a stronger gain ramps in over a second).").clicked();
                    });
                    if accepted {
                        f.gain = proposal;
                    }
                }
                ui.add_space(6.0);
                ui.label(RichText::new("Effects (0 = off)").size(HEADING));
                let e = &mut f.effects;
                let max = gripline_input::settings::ffb_effects::MAX_EFFECT_NM.min(5.0);
                for (value, text, hint) in [
                    (&mut e.road_texture_nm_per_kn, "Road texture (N·m per kN)", "A bump under one front wheel twists the wheel."),
                    (&mut e.kerb_rumble_nm, "Kerb rumble (N·m)", "A ripple at the kerb stripes' rate while a front tyre is on a kerb."),
                    (&mut e.scrub_nm, "Scrub (N·m)", "A vibration as the front tyres pass their peak slip angle: understeer you can feel."),
                    (&mut e.lockup_nm, "Lock-up (N·m)", "A vibration while a front wheel locks under braking."),
                    (&mut e.wheelspin_nm, "Wheelspin (N·m)", "A low rumble while a driven wheel spins."),
                    (&mut e.abs_nm, "ABS pulses (N·m)", "The ABS modulator's pulses."),
                    (&mut e.lateral_g_nm_per_g, "Lateral g (N·m per g)", "The car's cornering weight in the wheel (seat of the pants)."),
                ] {
                    ui.add(super::slider(value, 0.0..=max).text(text)).on_hover_text(hint);
                }
                ui.add_space(6.0);
                ui.label(RichText::new("Steering lock").size(HEADING));
                ui.horizontal(|ui| {
                    ui.label("Wheel rotation:");
                    ui.radio_value(&mut f.lock_mode, SteeringLockMode::OneToOne, "1:1 with the car")
                        .on_hover_text("One degree at your wheel is one degree in the car; a soft lock stops the wheel at the car's lock.");
                    ui.radio_value(&mut f.lock_mode, SteeringLockMode::WheelToCarLock, "Full rotation = car's lock")
                        .on_hover_text("Your wheel's whole calibrated rotation steers the car from lock to lock (quicker or slower than the real car).");
                });
                ui.checkbox(&mut f.soft_lock.enabled, "Soft lock at the car's steering lock");
                ui.add_enabled(
                    f.soft_lock.enabled,
                    super::slider(&mut f.soft_lock.strength, 0.0..=1.0)
                        .text("Soft-lock strength")
                        .custom_formatter(|x, _| format!("{:.0} % of max", x * 100.0)),
                );
                ui.add_enabled(
                    f.soft_lock.enabled,
                    super::slider(&mut f.soft_lock.ramp_deg, 0.5..=15.0).text("Soft-lock ramp").suffix("°"),
                )
                .on_hover_text("Degrees past the lock over which the stop reaches its full torque.");
                if let Some(dev) = device.clone() {
                    let index = if let Some(i) = f.devices.iter().position(|d| d.device.same_device(&dev)) {
                        i
                    } else {
                        f.devices.push(FfbDeviceSettings {
                            device: dev.clone(),
                            invert: false,
                            peak_torque_nm: None,
                            max_rate_hz: None,
                            backend: gripline_input::settings::ffb_settings::FfbBackendChoice::Auto,
                            peak_confirmed_nm: None,
                        });
                        f.devices.len() - 1
                    };
                    let max_nm = f.max_torque_nm;
                    let d = &mut f.devices[index];
                    // The override is for this very unit (its serial number or path).
                    d.device.serial_or_path.clone_from(&dev.serial_or_path);
                    ui.checkbox(&mut d.invert, "Invert force direction (this wheel)")
                        .on_hover_text("Tick if the wheel pushes away from centre when it should pull towards it.");
                    let table = gripline_input::known_wheels::peak_estimate(dev.vendor_id, dev.product_id);
                    if let Some(shared) = gripline_input::known_wheels::shared(dev.vendor_id, dev.product_id) {
                        ui.label(format!(
                            "This product ID is shared by {}; {:.1} N·m is assumed until you pick your base.",
                            shared.family,
                            shared.strongest_nm()
                        ));
                        ui.horizontal(|ui| {
                            ui.label("Your base:");
                            for &(name, member_peak) in shared.members {
                                if ui.button(name).clicked() {
                                    d.peak_torque_nm = Some(member_peak);
                                }
                            }
                        });
                    }
                    let mut known = d.peak_torque_nm.is_some();
                    ui.horizontal(|ui| {
                        if ui.checkbox(&mut known, "Override peak torque").changed() {
                            d.peak_torque_nm = known.then_some(peak.unwrap_or(2.5));
                        }
                        if let Some(p) = d.peak_torque_nm.as_mut() {
                            ui.add(egui::DragValue::new(p).range(0.1..=100.0).speed(0.1).suffix(" N·m"));
                        }
                    });
                    // Below the table's peak every torque is scaled up by table / entered:
                    // show what the rim would get if the entry is wrong, and ask.
                    if let (Some(entered), Some(table)) = (d.peak_torque_nm, table)
                        && entered < table.peak_torque_nm
                        && d.peak_confirmed_nm != Some(entered)
                    {
                        let worst_nm = max_nm.min(entered) * table.peak_torque_nm / entered;
                        ui.label(
                            RichText::new(format!(
                                "{entered:.1} N·m is below the {:.1} N·m assumed for this product ID. If your base is \
                                 stronger than you entered, your maximum of {max_nm:.1} N·m would reach up to \
                                 {worst_nm:.1} N·m at the rim. Until you confirm, {:.1} N·m is assumed.",
                                table.peak_torque_nm, table.peak_torque_nm
                            ))
                            .color(WARN_COLOUR),
                        );
                        if ui.button(format!("My base's peak is {entered:.1} N·m: confirm")).clicked() {
                            d.peak_confirmed_nm = Some(entered);
                        }
                    }
                    if d.peak_torque_nm.is_none() {
                        d.peak_confirmed_nm = None;
                    }
                    // A device entry that changes nothing is not worth saving.
                    if !d.invert && d.peak_torque_nm.is_none() && d.max_rate_hz.is_none() {
                        f.devices.remove(index);
                    }
                }
            });
            ui.add_space(12.0);
            ui.vertical(|ui| {
                ui.label(RichText::new("Live torque").size(HEADING));
                let ffb = live.ffb();
                graphs::torque_graph(ui, Vec2::new(520.0, 240.0), &ffb.history, self.working.ffb.max_torque_nm, live.now());
                let clip = ffb.clipping_fraction() * 100.0;
                let colour = if clip > 5.0 { WARN_COLOUR } else { CAL_COLOUR };
                ui.label(
                    RichText::new(format!("Clipping: {clip:.1} % of the last 3 s · peak {:.2} N·m", ffb.peak_nm()))
                        .size(18.0)
                        .color(colour),
                );
                if !ffb.active {
                    ui.label(RichText::new("No force-feedback output yet: drive, or press a test.").color(Color32::GRAY));
                } else if clip > 5.0 {
                    ui.label("Clipping often: lower the master gain, or raise the maximum torque if your wheel allows.");
                }
                ui.add_space(8.0);
                ui.label(RichText::new("Test").size(HEADING));
                let usable = !killed && !emergency && cut.is_none() && self.working.ffb.enabled;
                ui.horizontal(|ui| {
                    for (kind, text) in [
                        (FfbTestKind::PulseLeft, "< Pulse left"),
                        (FfbTestKind::PulseRight, "Pulse right >"),
                        (FfbTestKind::SpringSweep, "Centring spring sweep"),
                    ] {
                        if ui.add_enabled(usable, egui::Button::new(RichText::new(text).size(16.0))).clicked() {
                            action = Some(SettingsAction::FfbTest(kind));
                        }
                    }
                });
                ui.label(
                    RichText::new("Tests use the settings on this page, before Apply. Hold the wheel lightly.")
                        .color(Color32::GRAY),
                );
                ui.add_space(8.0);
                ui.label(RichText::new("Direction check").size(HEADING));
                if let Some(a) = self.direction_ui(ui, usable) {
                    action = Some(a);
                }
            });
        });
        action
    }
}

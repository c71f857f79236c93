//! The settings screen: controls (bindings, calibration, H-shifter) and force feedback.
//!
//! egui, drawn inside the simulator window from the main menu and the pause menu. The
//! screen edits a working copy of the [`InputSettings`] (bindings with each axis's
//! calibration, and the force-feedback settings) plus the force-feedback routing
//! ([`FfbRouting`]); nothing reaches the sim until the user presses **Apply**, which returns
//! [`SettingsAction::Apply`] for the app to send through the command queue and save.
//! **Cancel** drops the changes since the last Apply; **Reset to defaults** loads the
//! defaults into the working copy (still to be applied).
//!
//! How the app drives it, every frame:
//!
//! 1. feed every raw [`gripline_input::device::InputEvent`] to [`LiveInput::feed`] (the
//!    same events the sim's mapper gets; the keyboard as a device too) and every
//!    force-feedback output sample to [`LiveInput::feed_ffb`]; report the kill switch with
//!    [`LiveInput::set_ffb_killed`], a runaway cut with [`LiveInput::set_ffb_cut`] and the
//!    clock with [`LiveInput::set_now`]; hand a direction check's answer to
//!    [`SettingsScreen::direction_checked`];
//! 2. call `SettingsScreen::show` (or [`SettingsScreen::show_with_tabs`] with the car,
//!    session and graphics tabs the app draws itself);
//! 3. act on the returned [`SettingsAction`].
//!
//! The parts: [`calibration_wizard`], [`graphs`], and the two tabs (`controls_tab`,
//! `ffb_tab`), drawn over `gripline_input::setup` (the live device model, bind by doing and
//! conflicts, the H-shifter wizard, the names of inputs). All state is plain data, so tests drive the screen with
//! scripted devices and run the real egui code on a `Context` without a window.

mod audio_tab;
pub mod calibration_wizard;
pub mod car_list;
pub mod car_preview;
mod controls_tab;
pub mod ffb_choices;
mod ffb_tab;
pub mod garage_tab;
mod garage_tyres;
pub mod graphs;
mod session_tabs;
pub mod settings_flow;
#[cfg(test)]
mod software_raster;
mod telemetry_tab;
#[cfg(test)]
mod tests;
mod tyre_chart;

use egui::{Color32, RichText, Ui};
use gripline_input::device::InputEvent;
use gripline_input::ffb::direction_check::DirectionOutcome;
use gripline_input::settings::bindings::{AxisBinding, AxisControl};
use gripline_input::settings::device_identity::{DeviceIdentity, DeviceMatch};
use gripline_input::settings::input_settings::InputSettings;
use gripline_physics::validate::Validate;

use calibration_wizard::{CalibrationWizard, WizardStep};
pub use ffb_choices::{
    DirectionCheckState, FfbDeviceOption, FfbOptions, FfbRouting, FfbTestKind, direction_text,
};
use gripline_input::setup::bind::{
    self, BindCapture, BindTarget, CaptureOutcome, NewBinding, Resolution,
};
pub use gripline_input::setup::input_names::{binding_source_text, code_text, device_text};
pub use gripline_input::setup::live_input::LiveInput;

use gripline_input::setup::shifter_wizard::ShifterWizard;

/// The screen's tabs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    /// Devices, bindings, calibration, H-shifter.
    Controls,
    /// Force feedback.
    ForceFeedback,
    /// The app's own tab number `n` of [`SettingsScreen::show_with_tabs`] (car and
    /// session, graphics).
    Extra(usize),
}

/// The pages of the Controls tab.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ControlsPage {
    /// Connected devices with live axes and buttons.
    Devices,
    /// Every control with its bindings and "Bind".
    Bindings,
    /// Calibration wizard and response curve of one axis binding.
    Calibration,
    /// H-shifter wizard, sequential shifting and handbrake.
    Shifter,
}

/// What the user applied.
#[derive(Clone, Debug, PartialEq)]
pub struct AppliedSettings {
    /// Bindings, calibration and force-feedback settings (validated).
    pub input: InputSettings,
    /// Force-feedback backend and device.
    pub ffb_routing: FfbRouting,
}

/// What the app must do after a frame of the screen.
#[derive(Clone, Debug, PartialEq)]
pub enum SettingsAction {
    /// Send these settings to the sim thread and save them.
    Apply(Box<AppliedSettings>),
    /// Leave the screen; the working copy went back to the last applied settings.
    Cancel,
    /// Play a test effect on the wheel with the working copy's force-feedback settings
    /// ([`SettingsScreen::working`]).
    FfbTest(FfbTestKind),
    /// Engage (`true`) or release (`false`) the force-feedback kill switch (release also
    /// lifts a runaway cut).
    KillFfb(bool),
    /// Run the direction check with the working copy's force-feedback settings; answer with
    /// [`SettingsScreen::direction_checked`].
    CheckDirection,
}

/// A tab the app draws itself (car and session, graphics).
pub struct ExtraTab<'a> {
    /// Title on the tab bar.
    pub title: &'a str,
    /// Draws the tab's contents.
    pub contents: &'a mut dyn FnMut(&mut Ui),
}

/// Identifies an axis binding across edits of the list.
#[derive(Clone, Debug, PartialEq)]
pub struct AxisKey {
    /// The control.
    pub control: AxisControl,
    /// The device.
    pub device: DeviceMatch,
    /// The axis code.
    pub axis: u32,
}

impl AxisKey {
    /// The key of `binding`.
    pub fn of(binding: &AxisBinding) -> Self {
        Self {
            control: binding.control,
            device: binding.device.clone(),
            axis: binding.axis,
        }
    }

    /// Whether `binding` is the one meant.
    pub fn is(&self, binding: &AxisBinding) -> bool {
        binding.control == self.control
            && binding.device == self.device
            && binding.axis == self.axis
    }
}

/// New bindings waiting for the user to resolve their conflicts.
#[derive(Clone, Debug, PartialEq)]
pub struct PendingBindings {
    /// The bindings.
    pub news: Vec<NewBinding>,
    /// The controls they clash with.
    pub conflicts: Vec<BindTarget>,
    /// They come from the shifter wizard (every gear binding is replaced).
    pub gears: bool,
}

/// The settings screen (see the module docs).
pub struct SettingsScreen {
    applied: InputSettings,
    applied_routing: FfbRouting,
    working: InputSettings,
    routing: FfbRouting,
    ffb_options: FfbOptions,
    car_lock_deg: Option<f64>,
    tab: Tab,
    page: ControlsPage,
    selected_device: Option<DeviceIdentity>,
    capture: Option<BindCapture>,
    pending: Option<PendingBindings>,
    editing: Option<AxisKey>,
    wizard: Option<(AxisKey, CalibrationWizard)>,
    shifter: Option<ShifterWizard>,
    shifter_gears: u8,
    shifter_reverse: bool,
    seq: u64,
    status: Option<(String, bool)>,
    /// The gain auto-gain proposed at the end of a lap, offered on the Force feedback tab.
    auto_gain_proposal: Option<f64>,
    direction: DirectionCheckState,
}

impl SettingsScreen {
    /// A screen editing `settings` (the ones in force) and `routing`.
    pub fn new(settings: InputSettings, routing: FfbRouting) -> Self {
        Self {
            applied: settings.clone(),
            applied_routing: routing.clone(),
            working: settings,
            routing,
            ffb_options: FfbOptions::default(),
            car_lock_deg: None,
            tab: Tab::Controls,
            page: ControlsPage::Bindings,
            selected_device: None,
            capture: None,
            pending: None,
            editing: None,
            wizard: None,
            shifter: None,
            shifter_gears: 6,
            shifter_reverse: true,
            seq: 0,
            status: None,
            auto_gain_proposal: None,
            direction: DirectionCheckState::NotRun,
        }
    }

    /// The sim thread's answer to a direction check: `outcome`, with the device driven with
    /// `invert`. The Force feedback tab shows it (and offers the other invert when the wheel
    /// turned the wrong way).
    pub fn direction_checked(&mut self, outcome: DirectionOutcome, invert: bool) {
        self.direction = DirectionCheckState::Done { outcome, invert };
    }

    /// Where the direction check is.
    #[cfg(test)]
    pub fn direction_check(&self) -> DirectionCheckState {
        self.direction
    }

    /// Sets the force-feedback backends and devices the app offers.
    pub fn set_ffb_options(&mut self, options: FfbOptions) {
        self.ffb_options = options;
    }

    /// Sets the gain auto-gain proposes (shown with Accept on the Force feedback tab).
    pub fn set_auto_gain_proposal(&mut self, gain: Option<f64>) {
        self.auto_gain_proposal = gain.filter(|g| g.is_finite());
    }

    /// Sets the current car's steering-wheel lock each side (deg), for the rotation
    /// mapping text; `None` when no car is loaded.
    pub fn set_car_lock_deg(&mut self, lock_deg: Option<f64>) {
        self.car_lock_deg = lock_deg.filter(|l| l.is_finite() && *l > 0.0);
    }

    /// The working copy (what Apply would send).
    pub fn working(&self) -> &InputSettings {
        &self.working
    }

    /// The working copy, for the app's own edits.
    #[cfg(test)]
    pub fn working_mut(&mut self) -> &mut InputSettings {
        &mut self.working
    }

    /// Whether the working copy differs from the applied settings.
    pub fn is_dirty(&self) -> bool {
        self.working != self.applied || self.routing != self.applied_routing
    }

    /// Shows a tab.
    pub fn set_tab(&mut self, tab: Tab) {
        self.tab = tab;
    }

    /// The Controls page shown.
    #[cfg(test)]
    pub fn page(&self) -> ControlsPage {
        self.page
    }

    /// Shows a Controls page.
    #[cfg(test)]
    pub fn set_page(&mut self, page: ControlsPage) {
        self.page = page;
    }

    /// The running bind capture.
    #[cfg(test)]
    pub fn capture(&self) -> Option<&BindCapture> {
        self.capture.as_ref()
    }

    /// Bindings waiting for a conflict resolution.
    #[cfg(test)]
    pub fn pending(&self) -> Option<&PendingBindings> {
        self.pending.as_ref()
    }

    /// The running calibration wizard.
    #[cfg(test)]
    pub fn wizard(&self) -> Option<&CalibrationWizard> {
        self.wizard.as_ref().map(|(_, w)| w)
    }

    /// The running H-shifter wizard.
    #[cfg(test)]
    pub fn shifter(&self) -> Option<&ShifterWizard> {
        self.shifter.as_ref()
    }

    /// The last status message and whether it is an error.
    #[cfg(test)]
    pub fn status(&self) -> Option<(&str, bool)> {
        self.status.as_ref().map(|(s, e)| (s.as_str(), *e))
    }

    fn say(&mut self, text: impl Into<String>) {
        self.status = Some((text.into(), false));
    }

    fn warn(&mut self, text: impl Into<String>) {
        self.status = Some((text.into(), true));
    }

    // ---- actions (also used by the tests) ----

    /// Starts "bind by doing" for `target` (cancels a running one).
    pub fn start_bind(&mut self, target: BindTarget, live: &LiveInput) {
        self.pending = None;
        self.capture = Some(BindCapture::start(target, live));
        self.say(match target {
            BindTarget::Axis(AxisControl::Steering) => {
                "Turn the wheel (or move the stick) a little to the left or right.".to_string()
            }
            BindTarget::Axis(c) => format!(
                "Press the {} all the way, then release it.",
                bind::axis_control_name(c).to_lowercase()
            ),
            BindTarget::Button(a) => {
                format!(
                    "Press the button or key for \"{}\".",
                    bind::button_action_name(a)
                )
            }
        });
    }

    /// Stops a running bind capture.
    pub fn cancel_bind(&mut self) {
        if self.capture.take().is_some() {
            self.say("Binding cancelled.");
        }
    }

    /// Adds bindings, or holds them for a conflict resolution when they clash.
    fn offer(&mut self, news: Vec<NewBinding>, gears: bool) {
        let mut conflicts = Vec::new();
        for n in &news {
            for c in bind::conflicts(&self.working.bindings, n) {
                let is_replaced_gear = gears
                    && matches!(
                        c,
                        BindTarget::Button(gripline_input::settings::bindings::ButtonAction::Gear(
                            _
                        ))
                    );
                if !conflicts.contains(&c) && !is_replaced_gear {
                    conflicts.push(c);
                }
            }
        }
        if conflicts.is_empty() {
            self.commit(
                &PendingBindings {
                    news,
                    conflicts,
                    gears,
                },
                Resolution::Replace,
            );
        } else {
            let names: Vec<String> = conflicts.iter().map(ToString::to_string).collect();
            self.warn(format!(
                "That control is already used for: {}.",
                names.join(", ")
            ));
            self.pending = Some(PendingBindings {
                news,
                conflicts,
                gears,
            });
        }
    }

    fn commit(&mut self, p: &PendingBindings, resolution: Resolution) {
        match bind::apply_bindings(&mut self.working.bindings, &p.news, resolution, p.gears) {
            Ok(()) => {
                if p.gears {
                    self.say(format!("{} gears bound.", p.news.len()));
                } else if let Some(n) = p.news.first() {
                    self.say(format!(
                        "{} bound to {}.",
                        n.binding.target(),
                        binding_source_text(&n.binding)
                    ));
                }
            }
            Err(e) => self.warn(e),
        }
    }

    /// Resolves the pending conflict: `Some(resolution)` adds the bindings, `None` drops
    /// them.
    pub fn resolve_conflict(&mut self, resolution: Option<Resolution>) {
        let Some(p) = self.pending.take() else { return };
        match resolution {
            Some(r) => self.commit(&p, r),
            None => self.say("Binding cancelled; nothing changed."),
        }
    }

    /// Starts the calibration wizard on the axis binding `key` and shows it. The axis's
    /// current value in `live` (if it reported one) is the wizard's first observation;
    /// events before this call are not.
    pub fn start_wizard(&mut self, key: AxisKey, live: &LiveInput) {
        let Some(b) = self.working.bindings.axes.iter().find(|b| key.is(b)) else {
            return;
        };
        let mut wizard = CalibrationWizard::new(b.control, &b.calibration);
        if let Some(a) = live
            .devices()
            .iter()
            .filter(|d| d.connected && key.device.matches(&d.info.identity, d.info.kind))
            .find_map(|d| d.axis(key.axis))
        {
            wizard.observe(a.raw, a.range);
        }
        self.seq = live.next_seq();
        self.editing = Some(key.clone());
        self.wizard = Some((key, wizard));
        self.page = ControlsPage::Calibration;
        self.tab = Tab::Controls;
        self.status = None;
    }

    /// The calibration wizard's "Next": when it finishes, its calibration goes into the
    /// working copy.
    pub fn wizard_next(&mut self) {
        let Some((key, w)) = self.wizard.as_mut() else {
            return;
        };
        w.next();
        if w.step() == WizardStep::Done
            && let Some(cal) = w.result().cloned()
        {
            let notes = w.notes().join(" ");
            let key = key.clone();
            if let Some(b) = self.working.bindings.axes.iter_mut().find(|b| key.is(b)) {
                b.calibration = cal;
            }
            self.wizard = None;
            self.say(format!(
                "Calibration recorded. {notes} Tune dead zones and response below; Apply to use it."
            ));
        }
    }

    /// The calibration wizard's "Back".
    pub fn wizard_back(&mut self) {
        if let Some((_, w)) = self.wizard.as_mut() {
            w.back();
        }
    }

    /// Stops the calibration wizard without changing the calibration.
    pub fn cancel_wizard(&mut self) {
        self.wizard = None;
    }

    /// Starts the H-shifter wizard; presses before this call do not count.
    pub fn start_shifter(&mut self, forward_gears: u8, reverse: bool, live: &LiveInput) {
        self.shifter = Some(ShifterWizard::new(forward_gears, reverse));
        self.seq = live.next_seq();
        self.page = ControlsPage::Shifter;
        self.tab = Tab::Controls;
        self.status = None;
    }

    /// The H-shifter wizard's "Use these gears": binds the recorded gears (replacing every
    /// earlier gear binding), after a conflict resolution if they clash.
    pub fn finish_shifter(&mut self) {
        let Some(w) = self.shifter.take() else { return };
        let news = w.bindings();
        if news.is_empty() {
            self.warn("No gear was recorded.");
            return;
        }
        self.offer(news, true);
    }

    /// Stops the H-shifter wizard without binding.
    pub fn cancel_shifter(&mut self) {
        self.shifter = None;
    }

    /// Selects the axis binding shown on the Calibration page.
    #[cfg(test)]
    pub fn edit_axis(&mut self, key: AxisKey) {
        self.editing = Some(key);
    }

    /// Apply: validates the working copy and returns it, or says what is wrong.
    pub fn apply(&mut self) -> Option<SettingsAction> {
        match self.working.check() {
            Ok(()) => {
                self.applied = self.working.clone();
                self.applied_routing = self.routing.clone();
                self.say("Applied.");
                Some(SettingsAction::Apply(Box::new(AppliedSettings {
                    input: self.working.clone(),
                    ffb_routing: self.routing.clone(),
                })))
            }
            Err(violations) => {
                self.warn(format!("Not applied: {violations}"));
                None
            }
        }
    }

    /// Cancel: back to the applied settings; the app leaves the screen.
    pub fn cancel(&mut self) -> SettingsAction {
        self.working = self.applied.clone();
        self.routing = self.applied_routing.clone();
        self.capture = None;
        self.pending = None;
        self.wizard = None;
        self.shifter = None;
        self.status = None;
        SettingsAction::Cancel
    }

    /// Reset to defaults: the working copy becomes the defaults (Apply to use them).
    pub fn reset_to_defaults(&mut self) {
        self.working = InputSettings::default();
        self.routing = FfbRouting::default();
        self.capture = None;
        self.pending = None;
        self.wizard = None;
        self.shifter = None;
        self.editing = None;
        self.say("Defaults loaded (keyboard and gamepad). Apply to use them, Cancel to go back.");
    }

    /// Reads the events `live` logged since the last call: feeds the calibration and
    /// shifter wizards and the bind capture. `SettingsScreen::show` calls it; tests call
    /// it directly.
    pub fn process_input(&mut self, live: &LiveInput) {
        if live.next_seq() < self.seq {
            // A new model: start from its beginning.
            self.seq = 0;
        }
        let wizard_key = self.wizard.as_ref().map(|(k, _)| k.clone());
        for (seq, event) in live.events_since(self.seq) {
            self.seq = seq + 1;
            match event {
                InputEvent::Axis {
                    device,
                    axis,
                    value,
                    range,
                } => {
                    if let (Some(key), Some(d)) = (&wizard_key, live.device(*device))
                        && key.axis == *axis
                        && key.device.matches(&d.info.identity, d.info.kind)
                        && let Some((_, w)) = self.wizard.as_mut()
                    {
                        w.observe(*value, *range);
                    }
                }
                InputEvent::Button {
                    device,
                    button,
                    pressed: true,
                } => {
                    if let (Some(w), Some(d)) = (self.shifter.as_mut(), live.device(*device)) {
                        w.press(&d.info.identity, d.info.kind, *button);
                    }
                }
                InputEvent::Disconnected { device } => {
                    let lost = live
                        .devices()
                        .iter()
                        .find(|d| d.id == *device && !d.connected)
                        .is_some_and(|d| {
                            wizard_key
                                .as_ref()
                                .is_some_and(|k| k.device.matches(&d.info.identity, d.info.kind))
                        });
                    if lost && let Some((_, w)) = self.wizard.as_mut() {
                        w.device_lost();
                    }
                }
                _ => {}
            }
        }
        self.seq = self.seq.max(live.next_seq());
        if let Some(cap) = self.capture.as_mut() {
            match cap.update(live) {
                CaptureOutcome::Waiting => {}
                CaptureOutcome::Bound(new) => {
                    self.capture = None;
                    self.offer(vec![*new], false);
                }
                CaptureOutcome::TimedOut => {
                    self.capture = None;
                    self.warn("Nothing moved for 10 seconds; binding cancelled.");
                }
            }
        }
    }

    // ---- drawing ----

    /// Draws the screen as a full-window panel and returns what the app must do.
    #[cfg(test)]
    pub fn show(&mut self, ctx: &egui::Context, live: &LiveInput) -> Option<SettingsAction> {
        self.show_with_tabs(ctx, live, &mut [])
    }

    /// `SettingsScreen::show` with the app's own tabs after Controls and Force feedback.
    pub fn show_with_tabs(
        &mut self,
        ctx: &egui::Context,
        live: &LiveInput,
        extra: &mut [ExtraTab<'_>],
    ) -> Option<SettingsAction> {
        self.process_input(live);
        let rect = ctx.content_rect().shrink(12.0);
        egui::Window::new("Settings")
            .id(egui::Id::unique("gripline_settings_screen"))
            .title_bar(false)
            .collapsible(false)
            .resizable(false)
            .movable(false)
            .fixed_rect(rect)
            .show(ctx, |ui| self.ui(ui, live, extra))
            .and_then(|r| r.inner.flatten())
    }

    /// Draws the screen into `ui` (for embedding in the app's own layout).
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        live: &LiveInput,
        extra: &mut [ExtraTab<'_>],
    ) -> Option<SettingsAction> {
        let mut action = None;
        readable_style(ui.style_mut());
        ui.horizontal(|ui| {
            ui.label(RichText::new("Settings").size(24.0).strong());
            ui.add_space(24.0);
            let mut tab_button = |ui: &mut Ui, tab: Tab, title: &str| {
                let text = RichText::new(title).size(18.0);
                if ui.selectable_label(self.tab == tab, text).clicked() {
                    self.tab = tab;
                }
            };
            tab_button(ui, Tab::Controls, "Controls");
            tab_button(ui, Tab::ForceFeedback, "Force feedback");
            for (i, t) in extra.iter().enumerate() {
                tab_button(ui, Tab::Extra(i), t.title);
            }
        });
        ui.separator();
        if let Some((text, error)) = &self.status {
            let colour = if *error {
                graphs::WARN_COLOUR
            } else {
                Color32::from_rgb(200, 220, 255)
            };
            ui.label(RichText::new(text.as_str()).size(16.0).color(colour));
        }
        let body_height = (ui.available_height() - 52.0).max(100.0);
        egui::ScrollArea::vertical()
            .id_salt("settings_body")
            .max_height(body_height)
            .auto_shrink([false, false])
            .show(ui, |ui| match self.tab {
                Tab::Controls => self.controls_ui(ui, live),
                Tab::ForceFeedback => action = self.ffb_ui(ui, live),
                Tab::Extra(i) => {
                    if let Some(t) = extra.get_mut(i) {
                        (t.contents)(ui);
                    } else {
                        self.tab = Tab::Controls;
                    }
                }
            });
        ui.separator();
        ui.horizontal(|ui| {
            let big = |t: &str| RichText::new(t).size(18.0);
            if ui.button(big("Apply")).clicked() {
                action = self.apply();
            }
            if ui.button(big("Cancel")).clicked() {
                action = Some(self.cancel());
            }
            if ui.button(big("Reset to defaults")).clicked() {
                self.reset_to_defaults();
            }
            if self.is_dirty() {
                ui.label(RichText::new("Unapplied changes").color(graphs::LIVE_COLOUR));
            }
        });
        action
    }
}

/// A slider that never changes a value the user did not touch (a value from the file
/// outside the slider's range stays as it is until edited).
fn slider<N: egui::emath::Numeric>(
    value: &mut N,
    range: std::ops::RangeInclusive<N>,
) -> egui::Slider<'_> {
    egui::Slider::new(value, range).clamping(egui::SliderClamping::Edits)
}

/// Larger text and controls than egui's defaults: the screen is read from the driving seat.
fn readable_style(style: &mut egui::Style) {
    use egui::{FontId, TextStyle};
    style
        .text_styles
        .insert(TextStyle::Body, FontId::proportional(16.0));
    style
        .text_styles
        .insert(TextStyle::Button, FontId::proportional(16.0));
    style
        .text_styles
        .insert(TextStyle::Small, FontId::proportional(13.0));
    style.spacing.slider_width = 240.0;
    style.spacing.interact_size.y = 24.0;
    style.spacing.item_spacing = egui::vec2(10.0, 7.0);
    style.spacing.button_padding = egui::vec2(8.0, 3.0);
    style.visuals.widgets.noninteractive.fg_stroke.color = Color32::from_gray(215);
    style.visuals.widgets.inactive.fg_stroke.color = Color32::from_gray(230);
}

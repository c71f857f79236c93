//! The settings screen inside the window: opening it from the pause menu, drawing it with
//! the app's own tabs, and applying what the user chose — saved atomically to the settings
//! store and sent to the sim thread through its command queue, without a restart.

use gripline_config::{Settings, SettingsStore};
use gripline_host::aids::aids_for;
use gripline_physics::vehicle::AidParams;
use gripline_render::QualityTier;

pub use crate::settings_ui::Tab;
use crate::settings_ui::{
    ExtraTab, FfbDeviceOption, FfbOptions, FfbRouting, FfbTestKind, SettingsAction, SettingsScreen,
};
use gripline_input::setup::live_input::LiveInput;
use gripline_sim::realtime::Command;
use gripline_sim::realtime::commands::FfbTest;

use super::{audio_tab, garage_tab, session_tabs, telemetry_tab};

/// The user's settings, their store and the screen when open.
pub struct SettingsFlow {
    /// The settings in force.
    pub settings: Settings,
    store: Option<SettingsStore>,
    screen: Option<OpenScreen>,
    /// Raw input for the screen's live values (fed by the window from the sim thread).
    pub live: LiveInput,
    /// The cars the session can load, with their figures (read in the background).
    cars: super::car_list::CarList,
    tracks: Vec<String>,
    /// The tier "Automatic" gives on this adapter, once the window knows it.
    automatic_quality: Option<QualityTier>,
    /// Output devices, listed when the screen opens.
    audio_devices: Vec<String>,
    /// The car and track being driven (as loaded), for the Garage.
    pub current: (String, String),
    /// The last gain auto-gain proposed and the user has not accepted or dismissed.
    auto_gain_proposal: Option<f64>,
    /// Whether the sim thread was last told to hold the pause (the screen was open).
    pause_held: bool,
}

struct OpenScreen {
    screen: SettingsScreen,
    draft: Settings,
    garage: Option<garage_tab::Garage>,
}

/// What changed in the sound settings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AudioChange {
    /// Nothing.
    #[default]
    Unchanged,
    /// Volumes or mute: the stream stays.
    Volumes,
    /// The output device (and perhaps the volumes): the stream is reopened.
    Device,
}

/// What applying the settings asks of the window, beyond commands to the sim thread.
#[derive(Debug, Default)]
pub struct Applied {
    /// Commands for the sim thread, in order.
    pub commands: Vec<Command>,
    /// Load this car and track (names) in the background, then swap them in.
    pub load_session: Option<(String, String)>,
    /// The set-up file the car of `load_session` runs in (the Garage's, just saved).
    pub load_setup: Option<std::path::PathBuf>,
    /// The graphics settings changed.
    pub graphics_changed: bool,
    /// What changed in the sound settings.
    pub audio: AudioChange,
    /// The telemetry-out settings changed.
    pub telemetry_changed: bool,
    /// What decides the force-feedback device changed (on/off, backend, device, per-device
    /// settings, the steering binding's rotation): reopen it.
    pub relink_ffb: bool,
    /// One-line report for the banner.
    pub notice: Option<String>,
}

impl SettingsFlow {
    /// The settings folder, where replays and laps are kept too (none without a store).
    pub fn data_dir(&self) -> Option<std::path::PathBuf> {
        self.store.as_ref().map(|s| s.dir().to_owned())
    }

    /// A flow over `settings` as loaded, saving to `store` (none when the platform has no
    /// config directory: changes then last for the session only).
    pub fn new(settings: Settings, store: Option<SettingsStore>) -> Self {
        // The window's keyboard is always there; its keys reach the screen from the window.
        let mut live = LiveInput::default();
        live.feed(
            &gripline_input::device::InputEvent::Connected {
                device: gripline_sim::realtime::keyboard::KEYBOARD_DEVICE,
                info: gripline_input::device::DeviceInfo {
                    identity: gripline_input::settings::device_identity::DeviceIdentity::keyboard(),
                    kind: gripline_input::settings::device_identity::DeviceKind::Keyboard,
                },
            },
            std::time::Duration::ZERO,
        );
        Self {
            settings,
            store,
            screen: None,
            live,
            cars: super::car_list::CarList::new(session_tabs::vehicle_names()),
            tracks: session_tabs::track_names(),
            automatic_quality: None,
            audio_devices: Vec::new(),
            current: (String::new(), String::new()),
            auto_gain_proposal: None,
            pause_held: false,
        }
    }

    /// Tells the Graphics tab which quality tier "Automatic" gives on this adapter.
    pub fn set_automatic_quality(&mut self, tier: QualityTier) {
        self.automatic_quality = Some(tier);
    }

    /// Gives the car list's pictures the window's graphics context (device and queue) to
    /// draw with, so that they need no context of their own.
    pub fn set_preview_gpu(&mut self, gpu: gripline_render::GpuContext) {
        self.cars.previews.set_gpu(gpu);
    }

    /// Whether the screen is open.
    pub fn is_open(&self) -> bool {
        self.screen.is_some()
    }

    /// Opens the screen on `tab` with a copy of the settings in force; `car_lock_deg` is
    /// the current car's steering-wheel lock.
    pub fn open(&mut self, car_lock_deg: f64, tab: Tab) {
        let mut screen = SettingsScreen::new(self.settings.input(), routing_of(&self.settings));
        screen.set_car_lock_deg(Some(car_lock_deg));
        screen.set_ffb_options(ffb_options(&gripline_host::wheel_setup::ffb_candidates(
            &self.settings,
        )));
        screen.set_tab(tab);
        screen.set_auto_gain_proposal(self.auto_gain_proposal);
        self.audio_devices = gripline_audio::output::output_device_names();
        let car = self.current.0.clone();
        let garage = gripline_torcs::car::load::load_any_vehicle(&car)
            .ok()
            .map(|loaded| {
                let name = self.settings.session.setups.get(&car).cloned();
                garage_tab::Garage::open(&car, &loaded, self.data_dir(), name.as_deref())
            });
        self.screen = Some(OpenScreen {
            screen,
            draft: self.settings.clone(),
            garage,
        });
    }

    /// Draws the screen (when open) and applies the user's choice.
    ///
    /// `sound_status` and `telemetry_status` say what the sound and the telemetry sender do
    /// now (the drive's own lines, shown by the Sound and Telemetry tabs).
    pub fn show(
        &mut self,
        ctx: &egui::Context,
        aids_of_car: &AidParams,
        sound_status: &str,
        telemetry_status: &str,
    ) -> Option<Applied> {
        let open = self.screen.as_mut()?;
        let OpenScreen {
            screen,
            draft,
            garage,
        } = open;
        let cars = &mut self.cars;
        let tracks = &self.tracks;
        let driving = &self.current;
        let mut session = |ui: &mut egui::Ui| {
            session_tabs::session_tab(ui, &mut draft.session, cars, tracks, driving);
        };
        // The graphics tab edits a copy so the two closures do not both borrow `draft`.
        let mut graphics = draft.graphics.clone();
        let automatic = self.automatic_quality;
        let mut graphics_tab =
            |ui: &mut egui::Ui| session_tabs::graphics_tab(ui, &mut graphics, automatic);
        let mut audio = draft.audio.clone();
        let (devices, status) = (&self.audio_devices, sound_status);
        let mut sound_tab =
            |ui: &mut egui::Ui| audio_tab::audio_tab(ui, &mut audio, devices, status);
        let mut telemetry = draft.telemetry.clone();
        let mut telemetry_tab = |ui: &mut egui::Ui| {
            telemetry_tab::telemetry_tab(ui, &mut telemetry, telemetry_status);
        };
        let mut garage_contents = |ui: &mut egui::Ui| match garage.as_mut() {
            Some(g) => garage_tab::garage_tab(ui, g),
            None => {
                ui.label("This car's file cannot be read: no set-up to edit.");
            }
        };
        let action = screen.show_with_tabs(
            ctx,
            &self.live,
            &mut [
                ExtraTab {
                    title: "Car & session",
                    contents: &mut session,
                },
                ExtraTab {
                    title: "Graphics",
                    contents: &mut graphics_tab,
                },
                ExtraTab {
                    title: "Sound",
                    contents: &mut sound_tab,
                },
                ExtraTab {
                    title: "Telemetry",
                    contents: &mut telemetry_tab,
                },
                ExtraTab {
                    title: "Garage",
                    contents: &mut garage_contents,
                },
            ],
        );
        draft.graphics = graphics;
        draft.audio = audio;
        draft.telemetry = telemetry;
        let action = action?;
        Some(self.act(action, aids_of_car))
    }

    /// Carries out what the screen asked for: the one path from the screen's buttons to the
    /// sim thread's commands (the window calls it through [`SettingsFlow::show`], tests
    /// directly).
    pub fn act(&mut self, action: SettingsAction, aids_of_car: &AidParams) -> Applied {
        match action {
            SettingsAction::Apply(applied) => {
                let mut next = self
                    .screen
                    .as_ref()
                    .map_or_else(|| self.settings.clone(), |open| open.draft.clone());
                next.bindings = applied.input.bindings;
                next.ffb = applied.input.ffb;
                apply_routing(&mut next, &applied.ffb_routing);
                // A changed set-up is saved, becomes the car's, and the car restarts in it.
                let garage = self
                    .screen
                    .as_mut()
                    .and_then(|open| open.garage.as_mut())
                    .filter(|g| g.changed)
                    .map(|g| (g.save(), g.car.clone(), g.name.clone()));
                let mut setup = None;
                let mut problem = None;
                if let Some((saved, car, name)) = garage {
                    match saved {
                        Ok(path) => {
                            next.session.setups.insert(car, name);
                            setup = Some(path);
                        }
                        Err(error) => problem = Some(format!("set-up not saved: {error:#}")),
                    }
                }
                let mut out = self.apply(next, aids_of_car);
                if let Some(path) = setup
                    && out.load_session.is_none()
                {
                    out.load_session = Some(self.current.clone());
                    out.load_setup = Some(path);
                }
                if let Some(problem) = problem {
                    out.notice = Some(problem);
                }
                out
            }
            SettingsAction::Cancel => {
                self.screen = None;
                // A force-feedback test may have played with unapplied settings and facts.
                Applied {
                    commands: vec![
                        Command::PreviewFfbFacts(None),
                        Command::SetFfbSettings(Box::new(self.settings.ffb.clone())),
                    ],
                    ..Applied::default()
                }
            }
            SettingsAction::CheckDirection => Applied {
                // Like the tests: with the settings on screen (the pulse is a tenth of their
                // maximum).
                commands: {
                    let mut commands = self.on_screen_ffb();
                    commands.push(Command::CheckFfbDirection);
                    commands
                },
                ..Applied::default()
            },
            SettingsAction::FfbTest(kind) => {
                let max_nm = self.working_ffb().max_torque_nm;
                let test = match kind {
                    FfbTestKind::PulseLeft => FfbTest::PulseLeft(0.5 * max_nm),
                    FfbTestKind::PulseRight => FfbTest::PulseRight(0.5 * max_nm),
                    FfbTestKind::SpringSweep => FfbTest::SpringSweep(max_nm),
                };
                let mut commands = self.on_screen_ffb();
                commands.push(Command::FfbTest(test));
                Applied {
                    commands,
                    ..Applied::default()
                }
            }
            SettingsAction::KillFfb(on) => Applied {
                commands: vec![if on {
                    Command::KillFfb
                } else {
                    Command::EnableFfb
                }],
                ..Applied::default()
            },
        }
    }

    /// The commands that make the sim play what the screen shows, before Apply: the device
    /// facts (peak, invert, rotation) and the settings as edited. Tests and the direction
    /// check send them first.
    fn on_screen_ffb(&self) -> Vec<Command> {
        let facts = self
            .screen
            .as_ref()
            .and_then(|open| open.screen.edited_facts());
        vec![
            Command::PreviewFfbFacts(facts),
            Command::SetFfbSettings(Box::new(self.working_ffb())),
        ]
    }

    /// The force-feedback settings on screen (those in force when it is closed).
    fn working_ffb(&self) -> gripline_input::settings::ffb_settings::FfbSettings {
        self.screen.as_ref().map_or_else(
            || self.settings.ffb.clone(),
            |open| open.screen.working().ffb.clone(),
        )
    }

    /// The sim thread answered a direction check: the screen shows it (when open). Returns
    /// the line for the banner.
    pub fn direction_checked(
        &mut self,
        outcome: gripline_input::ffb::direction_check::DirectionOutcome,
        invert: bool,
    ) -> String {
        if let Some(open) = self.screen.as_mut() {
            open.screen.direction_checked(outcome, invert);
        }
        crate::settings_ui::direction_text(outcome, invert)
    }

    /// The open screen, for tests that press its buttons.
    #[cfg(test)]
    fn screen_mut(&mut self) -> Option<&mut SettingsScreen> {
        self.screen.as_mut().map(|open| &mut open.screen)
    }

    /// The open screen's copy of the settings (the car, session and graphics tabs edit it).
    #[cfg(test)]
    fn draft_mut(&mut self) -> Option<&mut Settings> {
        self.screen.as_mut().map(|open| &mut open.draft)
    }

    /// Auto-gain proposed a master gain at the end of a lap: it is kept for the Force
    /// feedback tab, where the user can accept it; nothing changes until then. Returns the
    /// line for the banner.
    pub fn auto_gain_proposed(&mut self, gain: f64) -> String {
        self.auto_gain_proposal = Some(gain);
        if let Some(open) = self.screen.as_mut() {
            open.screen.set_auto_gain_proposal(Some(gain));
        }
        format!(
            "Auto-gain proposes a force-feedback gain of {:.0} % (now {:.0} %): accept it in \
             Settings > Force feedback",
            100.0 * gain,
            100.0 * self.settings.ffb.gain
        )
    }

    /// A [`Command::HoldPause`] when the screen was opened or closed since the last call:
    /// while it is open the simulation stays paused whatever the player presses. The window
    /// calls this every frame.
    pub fn pause_hold_command(&mut self) -> Option<Command> {
        let open = self.is_open();
        (open != self.pause_held).then(|| {
            self.pause_held = open;
            Command::HoldPause(open)
        })
    }

    /// Makes `next` the settings in force: sanitised, saved, and turned into commands.
    fn apply(&mut self, mut next: Settings, aids_of_car: &AidParams) -> Applied {
        let mut lines: Vec<String> = next.sanitize().iter().map(ToString::to_string).collect();
        match &self.store {
            Some(store) => match store.save(&next) {
                Ok(messages) => lines.extend(messages.iter().map(ToString::to_string)),
                Err(error) => lines.push(format!("settings not saved: {error}")),
            },
            None => lines
                .push("no configuration folder: settings last for this session only".to_owned()),
        }
        for line in &lines {
            eprintln!("gripline: {line}");
        }
        let previous = std::mem::replace(&mut self.settings, next);
        let now = &self.settings;
        if self.auto_gain_proposal == Some(now.ffb.gain) {
            // Accepted: it is the gain in force now.
            self.auto_gain_proposal = None;
        }
        let mut commands = vec![
            Command::PreviewFfbFacts(None),
            Command::ApplyBindings(Box::new(now.bindings.clone())),
            Command::SetFfbSettings(Box::new(now.ffb.clone())),
            Command::SetGearboxMode(now.session.gearbox_mode),
        ];
        commands.push(Command::SetAids(aids_for(aids_of_car, now.session.aids)));
        let car_changed = previous.session.vehicle_id != now.session.vehicle_id;
        let track_changed = previous.session.track_id != now.session.track_id;
        let load_session = (car_changed || track_changed)
            .then(|| {
                // What the draft changed, over what is being driven: a car or track given on
                // the command line is not the saved one, and a new track keeps it.
                let (car, track) = &self.current;
                let pick = |changed: bool, driven: &String, chosen: &String| {
                    if changed || driven.is_empty() {
                        chosen.clone()
                    } else {
                        driven.clone()
                    }
                };
                (
                    pick(car_changed, car, &now.session.vehicle_id),
                    pick(track_changed, track, &now.session.track_id),
                )
            })
            // New weather: the car restarts in it (tyres at the new air temperature).
            .or_else(|| {
                (previous.session.environment != now.session.environment
                    && !self.current.0.is_empty())
                .then(|| self.current.clone())
            });
        self.screen = None;
        Applied {
            commands,
            load_session,
            load_setup: None,
            graphics_changed: previous.graphics != now.graphics,
            telemetry_changed: previous.telemetry != now.telemetry,
            audio: if previous.audio.device != now.audio.device {
                AudioChange::Device
            } else if previous.audio != now.audio {
                AudioChange::Volumes
            } else {
                AudioChange::Unchanged
            },
            relink_ffb: ffb_routing_changed(&previous, now),
            notice: Some(match lines.first() {
                Some(first) => format!("Settings applied · {first}"),
                None => "Settings applied and saved".to_owned(),
            }),
        }
    }
}

/// Whether what decides the force-feedback device and its facts changed between `before`
/// and `after`: then the device is reopened (the pipeline's settings alone travel by
/// [`Command::SetFfbSettings`]).
pub fn ffb_routing_changed(before: &Settings, after: &Settings) -> bool {
    let (b, a) = (&before.ffb, &after.ffb);
    b.enabled != a.enabled
        || b.backend != a.backend
        || b.device != a.device
        || b.devices != a.devices
        || gripline_host::wheel_setup::steering_rotations(&before.bindings)
            != gripline_host::wheel_setup::steering_rotations(&after.bindings)
}

/// The backends the screen offers, by the names the routing stores ([`apply_routing`] reads
/// them back): every choice but `Auto`, which the screen offers as "Automatic".
fn backend_choices() -> Vec<String> {
    use gripline_input::settings::ffb_settings::FfbBackendChoice as B;
    let mut choices = vec![B::LogitechClassic, B::HidPid, B::Off];
    if cfg!(target_os = "linux") {
        choices.insert(0, B::Evdev);
    }
    choices.iter().map(|c| format!("{c:?}")).collect()
}

/// The screen's force-feedback options from the devices present now.
fn ffb_options(candidates: &gripline_host::wheel_setup::FfbCandidates) -> FfbOptions {
    FfbOptions {
        backends: backend_choices(),
        automatic_backend: candidates.automatic.as_ref().map(|(_, b)| (*b).to_owned()),
        devices: candidates
            .devices
            .iter()
            .map(|(identity, name)| FfbDeviceOption {
                identity: identity.clone(),
                name: name.clone(),
            })
            .collect(),
        automatic_device: candidates.automatic.as_ref().map(|(d, _)| d.clone()),
    }
}

/// The screen's routing (backend and device) from the settings.
fn routing_of(settings: &Settings) -> FfbRouting {
    use gripline_input::settings::ffb_settings::FfbBackendChoice as B;
    FfbRouting {
        backend: match settings.ffb.backend {
            B::Auto => None,
            other => Some(format!("{other:?}")),
        },
        device: settings.ffb.device.clone(),
    }
}

/// Stores the screen's routing in the settings.
fn apply_routing(settings: &mut Settings, routing: &FfbRouting) {
    use gripline_input::settings::ffb_settings::FfbBackendChoice as B;
    settings.ffb.backend = match routing.backend.as_deref() {
        Some("Evdev") => B::Evdev,
        Some("LogitechClassic") => B::LogitechClassic,
        Some("HidPid") => B::HidPid,
        Some("Off") => B::Off,
        _ => B::Auto,
    };
    settings.ffb.device.clone_from(&routing.device);
}

#[cfg(test)]
#[path = "settings_flow_tests.rs"]
mod tests;

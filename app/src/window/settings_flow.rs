//! The settings screen inside the window: opening it from the pause menu, drawing it with
//! the app's own tabs, and applying what the user chose — saved atomically to the settings
//! store and sent to the sim thread through its command queue, without a restart.

use gripline_config::settings::{Aids, Settings, SettingsStore};
use gripline_input::ffb::pipeline::PipelineParams;
use gripline_physics::vehicle::AidParams;

use crate::realtime::Command;
use crate::realtime::commands::FfbTest;
pub use crate::settings_ui::Tab;
use crate::settings_ui::live_input::LiveInput;
use crate::settings_ui::{ExtraTab, FfbRouting, FfbTestKind, SettingsAction, SettingsScreen};

use super::session_tabs;

/// The user's settings, their store and the screen when open.
pub struct SettingsFlow {
    /// The settings in force.
    pub settings: Settings,
    store: Option<SettingsStore>,
    screen: Option<OpenScreen>,
    /// Raw input for the screen's live values (fed by the window from the sim thread).
    pub live: LiveInput,
    vehicles: Vec<String>,
    tracks: Vec<String>,
}

struct OpenScreen {
    screen: SettingsScreen,
    draft: Settings,
}

/// What applying the settings asks of the window, beyond commands to the sim thread.
#[derive(Debug, Default)]
pub struct Applied {
    /// Commands for the sim thread, in order.
    pub commands: Vec<Command>,
    /// Load this car and track (names) in the background, then swap them in.
    pub load_session: Option<(String, String)>,
    /// The graphics settings changed.
    pub graphics_changed: bool,
    /// One-line report for the banner.
    pub notice: Option<String>,
}

impl SettingsFlow {
    /// A flow over `settings` as loaded, saving to `store` (none when the platform has no
    /// config directory: changes then last for the session only).
    pub fn new(settings: Settings, store: Option<SettingsStore>) -> Self {
        // The window's keyboard is always there; its keys reach the screen from the window.
        let mut live = LiveInput::default();
        live.feed(
            &gripline_input::device::InputEvent::Connected {
                device: crate::realtime::keyboard::KEYBOARD_DEVICE,
                info: gripline_input::device::DeviceInfo {
                    identity: gripline_config::device_identity::DeviceIdentity::keyboard(),
                    kind: gripline_config::device_identity::DeviceKind::Keyboard,
                },
            },
            std::time::Duration::ZERO,
        );
        Self {
            settings,
            store,
            screen: None,
            live,
            vehicles: session_tabs::asset_names("vehicles"),
            tracks: session_tabs::asset_names("tracks"),
        }
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
        screen.set_tab(tab);
        self.screen = Some(OpenScreen {
            screen,
            draft: self.settings.clone(),
        });
    }

    /// Draws the screen (when open) and applies the user's choice.
    pub fn show(&mut self, ctx: &egui::Context, aids_of_car: &AidParams) -> Option<Applied> {
        let open = self.screen.as_mut()?;
        let OpenScreen { screen, draft } = open;
        let vehicles = &self.vehicles;
        let tracks = &self.tracks;
        let mut session = |ui: &mut egui::Ui| {
            session_tabs::session_tab(ui, &mut draft.session, vehicles, tracks);
        };
        // The graphics tab edits a copy so the two closures do not both borrow `draft`.
        let mut graphics = draft.graphics.clone();
        let mut graphics_tab = |ui: &mut egui::Ui| session_tabs::graphics_tab(ui, &mut graphics);
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
            ],
        );
        draft.graphics = graphics;
        match action? {
            SettingsAction::Apply(applied) => {
                let mut next = draft.clone();
                next.bindings = applied.input.bindings;
                next.ffb = applied.input.ffb;
                apply_routing(&mut next, &applied.ffb_routing);
                Some(self.apply(next, aids_of_car))
            }
            SettingsAction::Cancel => {
                self.screen = None;
                // A force-feedback test may have played with unapplied settings.
                let ffb = &self.settings.ffb;
                Some(Applied {
                    commands: vec![Command::SetFfbParams(PipelineParams::new(
                        ffb,
                        ffb.max_torque_nm,
                        false,
                    ))],
                    ..Applied::default()
                })
            }
            SettingsAction::FfbTest(kind) => {
                // Tests play with the settings on screen, before Apply.
                let working = &screen.working().ffb;
                let nm = 0.5 * working.max_torque_nm;
                let test = match kind {
                    FfbTestKind::PulseLeft => FfbTest::PulseLeft(nm),
                    FfbTestKind::PulseRight => FfbTest::PulseRight(nm),
                    FfbTestKind::SpringSweep => FfbTest::SpringSweep(working.max_torque_nm),
                };
                Some(Applied {
                    commands: vec![
                        Command::SetFfbParams(PipelineParams::new(
                            working,
                            working.max_torque_nm,
                            false,
                        )),
                        Command::FfbTest(test),
                    ],
                    ..Applied::default()
                })
            }
            SettingsAction::KillFfb(on) => Some(Applied {
                commands: vec![if on {
                    Command::KillFfb
                } else {
                    Command::EnableFfb
                }],
                ..Applied::default()
            }),
        }
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
        let mut commands = vec![
            Command::ApplyBindings(Box::new(now.bindings.clone())),
            Command::SetFfbParams(PipelineParams::new(&now.ffb, now.ffb.max_torque_nm, false)),
            Command::SetGearboxMode(now.session.gearbox_mode),
        ];
        commands.push(Command::SetAids(aids_for(aids_of_car, now.session.aids)));
        let load_session = (previous.session.vehicle_id != now.session.vehicle_id
            || previous.session.track_id != now.session.track_id)
            .then(|| (now.session.vehicle_id.clone(), now.session.track_id.clone()));
        self.screen = None;
        Applied {
            commands,
            load_session,
            graphics_changed: previous.graphics != now.graphics,
            notice: Some(match lines.first() {
                Some(first) => format!("Settings applied · {first}"),
                None => "Settings applied and saved".to_owned(),
            }),
        }
    }
}

/// The car's own aid parameters with ABS and traction control switched as the settings say.
pub fn aids_for(car: &AidParams, switches: Aids) -> AidParams {
    AidParams {
        abs_enabled: switches.abs,
        tc_enabled: switches.traction_control,
        ..car.clone()
    }
}

/// The screen's routing (backend and device) from the settings.
fn routing_of(settings: &Settings) -> FfbRouting {
    use gripline_config::ffb_settings::FfbBackendChoice as B;
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
    use gripline_config::ffb_settings::FfbBackendChoice as B;
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
mod tests {
    use super::*;
    use gripline_config::ffb_settings::FfbBackendChoice;

    #[test]
    fn routing_round_trips_through_the_settings() {
        let mut settings = Settings::default();
        for choice in [
            FfbBackendChoice::Auto,
            FfbBackendChoice::Evdev,
            FfbBackendChoice::LogitechClassic,
            FfbBackendChoice::HidPid,
            FfbBackendChoice::Off,
        ] {
            settings.ffb.backend = choice;
            let routing = routing_of(&settings);
            let mut back = Settings::default();
            apply_routing(&mut back, &routing);
            assert_eq!(back.ffb.backend, choice);
        }
    }

    #[test]
    fn applying_saves_and_sends_the_commands() {
        let dir = std::env::temp_dir().join(format!("gripline-flow-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = SettingsStore::new(dir.clone());
        let mut flow = SettingsFlow::new(Settings::default(), Some(store));
        let mut next = Settings::default();
        next.session.track_id = "proving-ground".to_owned();
        next.session.aids.abs = false;
        next.graphics.fov_deg = 75.0;
        let applied = flow.apply(next, &AidParams::default());
        assert_eq!(
            applied.load_session,
            Some(("corvette-c5".to_owned(), "proving-ground".to_owned()))
        );
        assert!(applied.graphics_changed);
        assert!(
            applied
                .commands
                .iter()
                .any(|c| matches!(c, Command::SetAids(a) if !a.abs_enabled && a.tc_enabled))
        );
        // Saved: a fresh store reads the same settings back.
        let loaded = SettingsStore::new(dir.clone()).load();
        assert_eq!(loaded.settings.session.track_id, "proving-ground");
        assert!((loaded.settings.graphics.fov_deg - 75.0).abs() < 1e-12);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

//! Tests of the settings flow: applying, routing, the Garage, and the force-feedback device
//! facts that every settings path keeps (issue 10).

use super::*;
use gripline_input::settings::ffb_settings::FfbBackendChoice;

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
fn every_backend_the_screen_offers_is_one_the_routing_understands() {
    use gripline_input::settings::ffb_settings::FfbBackendChoice;
    for name in backend_choices() {
        let mut settings = Settings::default();
        apply_routing(
            &mut settings,
            &FfbRouting {
                backend: Some(name.clone()),
                device: None,
            },
        );
        assert_ne!(settings.ffb.backend, FfbBackendChoice::Auto, "{name}");
        assert_eq!(routing_of(&settings).backend, Some(name));
    }
}

/// Driving a car and track given on the command line (not the saved ones), a new track
/// keeps the car being driven and a new car the track being driven: before, a new track
/// brought back the saved car.
#[test]
fn a_change_keeps_what_the_command_line_chose_that_it_does_not_change() {
    let mut flow = SettingsFlow::new(Settings::default(), None);
    flow.current = ("torcs:p406".to_owned(), "torcs:forza".to_owned());
    let mut next = Settings::default();
    next.session.track_id = "proving-ground".to_owned();
    let applied = flow.apply(next, &AidParams::default());
    assert_eq!(
        applied.load_session,
        Some(("torcs:p406".to_owned(), "proving-ground".to_owned()))
    );
    flow.current = ("torcs:p406".to_owned(), "torcs:forza".to_owned());
    let mut next = flow.settings.clone();
    next.session.vehicle_id = "rally-awd".to_owned();
    let applied = flow.apply(next, &AidParams::default());
    assert_eq!(
        applied.load_session,
        Some(("rally-awd".to_owned(), "torcs:forza".to_owned()))
    );
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

/// One frame of the open screen with `events`: what it applied, and the accessibility nodes
/// (role, label or value, rect).
fn flow_frame(
    ctx: &egui::Context,
    flow: &mut SettingsFlow,
    events: Vec<egui::Event>,
) -> (Option<Applied>, Vec<(egui::Role, String, egui::Rect)>) {
    let input = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(1600.0, 1400.0),
        )),
        events,
        ..egui::RawInput::default()
    };
    let mut applied = None;
    let mut out = ctx.run_pass(input, |ctx| {
        applied = flow.show(ctx, &AidParams::default(), "", "");
    });
    out.textures_delta.clear();
    let mut nodes = Vec::new();
    for (_, node) in out
        .platform_output
        .accesskit_update
        .map(|u| u.nodes)
        .unwrap_or_default()
    {
        if let (Some(text), Some(b)) = (node.label().or(node.value()), node.bounds()) {
            #[allow(clippy::cast_possible_truncation)]
            let rect = egui::Rect::from_min_max(
                egui::pos2(b.x0 as f32, b.y0 as f32),
                egui::pos2(b.x1 as f32, b.y1 as f32),
            );
            nodes.push((node.role(), text.to_owned(), rect));
        }
    }
    (applied, nodes)
}

/// Clicks the widget `text` of the last frame's `nodes`; what the next frames applied, and
/// their nodes.
fn flow_click(
    ctx: &egui::Context,
    flow: &mut SettingsFlow,
    nodes: &[(egui::Role, String, egui::Rect)],
    text: &str,
) -> (Option<Applied>, Vec<(egui::Role, String, egui::Rect)>) {
    let Some((_, _, rect)) = nodes.iter().find(|(_, t, _)| t == text) else {
        let texts: Vec<_> = nodes.iter().map(|(_, t, _)| t.as_str()).collect();
        panic!("no widget {text:?} among {texts:?}");
    };
    let pos = rect.center();
    let press = |pressed| egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: egui::Modifiers::default(),
    };
    let events = vec![egui::Event::PointerMoved(pos), press(true), press(false)];
    let (first, _) = flow_frame(ctx, flow, events);
    let (second, nodes) = flow_frame(ctx, flow, vec![]);
    (first.or(second), nodes)
}

/// The car is chosen in one place, the Car & session tab's list (no drop-down beside it):
/// clicking a car's row, then Apply, saves the car in the settings and loads it in the
/// background, as the drop-down did.
#[test]
fn the_car_is_chosen_in_the_list_and_applied_as_before() {
    let dir = tempfile::tempdir().unwrap();
    let store = SettingsStore::new(dir.path().to_owned());
    let mut flow = SettingsFlow::new(Settings::default(), Some(store));
    flow.open(450.0, crate::settings_ui::Tab::Extra(0));
    let ctx = egui::Context::default();
    ctx.enable_accesskit();
    flow_frame(&ctx, &mut flow, vec![]);
    let (_, nodes) = flow_frame(&ctx, &mut flow, vec![]);
    let pickers: Vec<_> = nodes
        .iter()
        .filter(|(role, _, _)| *role == egui::Role::ComboBox)
        .map(|(_, text, _)| text.as_str())
        .collect();
    assert!(
        !pickers.contains(&"corvette-c5"),
        "a car drop-down is still there: {pickers:?}"
    );
    let (_, nodes) = flow_click(&ctx, &mut flow, &nodes, "rally-awd");
    let (applied, _) = flow_click(&ctx, &mut flow, &nodes, "Apply");
    let applied = applied.expect("applied");
    assert_eq!(
        applied.load_session,
        Some(("rally-awd".to_owned(), "circuit".to_owned()))
    );
    assert_eq!(flow.settings.session.vehicle_id, "rally-awd");
    let saved = SettingsStore::new(dir.path().to_owned()).load();
    assert_eq!(saved.settings.session.vehicle_id, "rally-awd");
}

/// The Garage: a changed set-up is saved under its name, becomes the car's in the
/// settings, and the car restarts in it; an unchanged one restarts nothing.
#[test]
fn applying_a_garage_set_up_saves_it_and_restarts_the_car_in_it() {
    let dir = tempfile::tempdir().unwrap();
    let store = SettingsStore::new(dir.path().to_owned());
    let mut flow = SettingsFlow::new(Settings::default(), Some(store));
    flow.current = ("corvette-c5".to_owned(), "circuit".to_owned());
    flow.open(360.0, Tab::Extra(4));
    let apply = |flow: &mut SettingsFlow| {
        let action = flow.screen_mut().unwrap().apply().expect("valid");
        flow.act(action, &AidParams::default())
    };
    let unchanged = apply(&mut flow);
    assert_eq!(unchanged.load_session, None);

    flow.open(360.0, Tab::Extra(4));
    let garage = flow
        .screen
        .as_mut()
        .and_then(|open| open.garage.as_mut())
        .expect("the C5's garage");
    garage.draft.brake_bias_front = 0.68;
    garage.changed = true;
    "quali".clone_into(&mut garage.name);
    let applied = apply(&mut flow);
    assert_eq!(
        applied.load_session,
        Some(("corvette-c5".to_owned(), "circuit".to_owned()))
    );
    let file = applied.load_setup.expect("the set-up to run");
    assert!(
        file.ends_with("setups/corvette-c5/quali.ron"),
        "{}",
        file.display()
    );
    assert_eq!(
        flow.settings
            .session
            .setups
            .get("corvette-c5")
            .map(String::as_str),
        Some("quali")
    );
    assert_eq!(
        gripline_host::setups::chosen_setup(
            &flow.settings,
            flow.data_dir().as_deref(),
            "corvette-c5"
        ),
        Some(file.clone())
    );
    // The session the window then loads runs the set-up.
    let session =
        gripline_sim::session::Session::load_with_setup("corvette-c5", "flat", Some(&file))
            .unwrap();
    assert!((session.vehicle().params().brakes.bias_front - 0.68).abs() < 1e-12);
    // A set-up name that could leave the folder is ignored.
    flow.settings
        .session
        .setups
        .insert("corvette-c5".into(), "../../x".into());
    assert_eq!(
        gripline_host::setups::chosen_setup(
            &flow.settings,
            flow.data_dir().as_deref(),
            "corvette-c5"
        ),
        None
    );
}

/// The Garage's tyre choice: a tyre that fits is picked for the front axle, saved with the
/// set-up, and the car restarts on it; one that does not fit cannot be picked.
#[test]
fn a_tyre_chosen_in_the_garage_is_the_one_the_car_runs_on() {
    let dir = tempfile::tempdir().unwrap();
    let store = SettingsStore::new(dir.path().to_owned());
    let mut flow = SettingsFlow::new(Settings::default(), Some(store));
    flow.current = ("corvette-c5".to_owned(), "circuit".to_owned());
    flow.open(360.0, Tab::Extra(4));
    let garage = flow
        .screen
        .as_mut()
        .and_then(|open| open.garage.as_mut())
        .expect("the C5's garage");
    let offered = |name: &str| {
        garage
            .tyres
            .options
            .iter()
            .find(|o| o.name == name)
            .map(|o| o.fit[0].is_ok())
    };
    assert_eq!(offered("TNO_car205_60R15"), Some(true));
    assert_eq!(offered("MagicFormula61_Parameters"), Some(false));
    "TNO_car205_60R15".clone_into(&mut garage.draft.front_tyre);
    garage.changed = true;
    "tno".clone_into(&mut garage.name);
    let action = flow.screen_mut().unwrap().apply().expect("valid");
    let applied = flow.act(action, &AidParams::default());
    let file = applied.load_setup.expect("the set-up to run");
    let session =
        gripline_sim::session::Session::load_with_setup("corvette-c5", "flat", Some(&file))
            .unwrap();
    // The TNO data's FNOMIN is 4000 N (the C5's own front tyre's 4800 N).
    assert_eq!(session.vehicle().tires()[0].nominal_load(), Some(4000.0));
    assert_eq!(session.vehicle().tires()[1].nominal_load(), Some(5400.0));
}

/// Regressions of issue 10: every settings path that reaches the sim thread keeps the
/// device's peak torque and direction, which only the device link may change.
mod device_facts_survive {
    use std::sync::Arc;
    use std::time::Duration;

    use gripline_input::ffb::device_facts::{FfbDeviceFacts, PeakSource};
    use gripline_input::ffb::recording::{Clock, ManualClock, Recording, RecordingBackend};
    use gripline_input::settings::ffb_settings::FfbSettings;
    use gripline_sim::realtime::rig::{FfbLink, Rig};
    use gripline_sim::realtime::sim_core::{SimCore, UiRings, core_rings};
    use gripline_sim::realtime::stats::SharedStats;
    use gripline_sim::session::Session;

    use super::*;

    /// A 25 N·m direct-drive base that needs invert, capped by the user at 5 N·m.
    const PEAK_NM: f64 = 25.0;
    const USER_MAX_NM: f64 = 5.0;

    struct Rig25 {
        core: SimCore,
        ui: UiRings,
        recording: Recording,
        now: Duration,
        flow: SettingsFlow,
    }

    impl Rig25 {
        fn new() -> Self {
            let mut settings = Settings::default();
            settings.ffb.max_torque_nm = USER_MAX_NM;
            settings.ffb.fade_in_s = 0.0;
            let backend = RecordingBackend::new(Clock::Manual(ManualClock::new()));
            let recording = backend.recording();
            let link = FfbLink {
                backend: Box::new(backend),
                facts: FfbDeviceFacts {
                    peak_torque_nm: PEAK_NM,
                    peak_source: PeakSource::User,
                    invert: true,
                    rotation_deg: 1080.0,
                },
            };
            let rig = Rig::new(&settings.bindings, &settings.ffb, link);
            let (rings, ui) = core_rings(64);
            let session = Session::load("corvette-c5", "flat").expect("shipped car");
            let core = SimCore::new(session, rig, rings, Arc::new(SharedStats::default()), false);
            Self {
                core,
                ui,
                recording,
                now: Duration::ZERO,
                flow: SettingsFlow::new(settings, None),
            }
        }

        /// Sends what the flow produced to the sim and runs `ticks` ticks.
        fn deliver(&mut self, applied: Applied, ticks: u32) {
            for command in applied.commands {
                self.ui.commands.push(command).expect("room in the queue");
            }
            for _ in 0..ticks {
                self.now += Duration::from_millis(1);
                self.core.tick(self.now);
            }
            while self.ui.snapshots.pop().is_some() {}
        }

        /// The facts and the user's maximum as the sim thread's pipeline holds them.
        fn assert_facts(&self, user_max_nm: f64, path: &str) {
            let p = self.core.rig().ffb().pipeline().params();
            assert!(
                (p.device_peak_nm - PEAK_NM).abs() < 1e-12,
                "{path}: device peak became {}",
                p.device_peak_nm
            );
            assert!(p.invert, "{path}: invert was dropped");
            assert!(
                (p.max_torque_nm - user_max_nm).abs() < 1e-12,
                "{path}: user maximum became {}",
                p.max_torque_nm
            );
            assert_eq!(
                self.core.rig().ffb_facts().peak_torque_nm.to_bits(),
                PEAK_NM.to_bits()
            );
        }

        /// The strongest level sent over the last `ticks` ticks.
        fn peak_level(&self, ticks: usize) -> f64 {
            let levels = self.recording.levels();
            levels
                .iter()
                .rev()
                .take(ticks)
                .map(|(_, l)| l.abs())
                .fold(0.0, f64::max)
        }
    }

    fn open(r: &mut Rig25) {
        r.flow.open(270.0, Tab::ForceFeedback);
    }

    #[test]
    fn apply_keeps_the_peak_invert_and_maximum() {
        let mut r = Rig25::new();
        open(&mut r);
        let action = r
            .flow
            .screen_mut()
            .unwrap()
            .apply()
            .expect("valid settings");
        let applied = r.flow.act(action, &AidParams::default());
        r.deliver(applied, 5);
        r.assert_facts(USER_MAX_NM, "Apply");
    }

    #[test]
    fn cancel_keeps_the_peak_invert_and_maximum() {
        let mut r = Rig25::new();
        open(&mut r);
        let action = r.flow.screen_mut().unwrap().cancel();
        let applied = r.flow.act(action, &AidParams::default());
        r.deliver(applied, 5);
        r.assert_facts(USER_MAX_NM, "Cancel");
    }

    #[test]
    fn test_pulses_play_inverted_within_the_maximum() {
        let mut r = Rig25::new();
        open(&mut r);
        for kind in [
            FfbTestKind::PulseLeft,
            FfbTestKind::PulseRight,
            FfbTestKind::SpringSweep,
        ] {
            let applied = r
                .flow
                .act(SettingsAction::FfbTest(kind), &AidParams::default());
            r.deliver(applied, 300);
            r.assert_facts(USER_MAX_NM, "Test");
            // Never more than the user's maximum at the wheel: 5 / 25 of the peak.
            assert!(
                r.peak_level(300) <= USER_MAX_NM / PEAK_NM + 1e-9,
                "{kind:?}"
            );
        }
        // A pulse to the left (positive torque) comes out negative on an inverted base.
        let applied = r.flow.act(
            SettingsAction::FfbTest(FfbTestKind::PulseLeft),
            &AidParams::default(),
        );
        r.deliver(applied, 200);
        let level = r.recording.levels().last().unwrap().1;
        assert!(
            (level + 0.5 * USER_MAX_NM / PEAK_NM).abs() < 1e-3,
            "inverted half-maximum pulse: {level}"
        );
    }

    #[test]
    fn the_direction_check_reaches_the_sim_and_its_answer_the_screen() {
        use gripline_input::ffb::direction_check::{DirectionOutcome, Inconclusive};
        use gripline_sim::realtime::commands::SimEvent;
        let mut r = Rig25::new();
        open(&mut r);
        let applied = r
            .flow
            .act(SettingsAction::CheckDirection, &AidParams::default());
        assert!(matches!(
            applied.commands.as_slice(),
            [
                Command::PreviewFfbFacts(_),
                Command::SetFfbSettings(_),
                Command::CheckFfbDirection
            ]
        ));
        r.deliver(applied, 1000);
        r.assert_facts(USER_MAX_NM, "direction check");
        // A tenth of the user's maximum, inverted on this base.
        let strongest = r.peak_level(1000);
        assert!(
            (strongest - 0.1 * USER_MAX_NM / PEAK_NM).abs() < 1e-9,
            "{strongest}"
        );
        let answer = std::iter::from_fn(|| r.ui.events.pop().ok()).find_map(|e| match e {
            SimEvent::FfbDirection { outcome, invert } => Some((outcome, invert)),
            _ => None,
        });
        // No steering device in this rig: the wheel never moved.
        let (outcome, invert) = answer.expect("the sim answered");
        assert!(invert, "the base is driven inverted");
        assert!(matches!(
            outcome,
            DirectionOutcome::Inconclusive(Inconclusive::TooLittle { .. })
        ));
        let banner = r.flow.direction_checked(outcome, invert);
        assert!(banner.starts_with("Inconclusive"), "{banner}");
        assert!(matches!(
            r.flow.screen_mut().unwrap().direction_check(),
            crate::settings_ui::DirectionCheckState::Done { .. }
        ));
    }

    #[test]
    fn reset_to_defaults_keeps_the_device_facts() {
        let mut r = Rig25::new();
        open(&mut r);
        let screen = r.flow.screen_mut().unwrap();
        screen.reset_to_defaults();
        let action = screen.apply().expect("defaults are valid");
        let applied = r.flow.act(action, &AidParams::default());
        r.deliver(applied, 5);
        // The user asked for the default maximum; the base is still 25 N·m, inverted.
        r.assert_facts(FfbSettings::default().max_torque_nm, "Reset to defaults");
    }

    #[test]
    fn per_tab_defaults_keep_the_device_facts() {
        let mut r = Rig25::new();
        open(&mut r);
        // "Defaults for this tab" on Car & session and on Graphics, then Apply.
        let draft = r.flow.draft_mut().unwrap();
        draft.session = gripline_config::SessionSettings::default();
        draft.graphics = gripline_config::GraphicsSettings::default();
        let action = r.flow.screen_mut().unwrap().apply().expect("valid");
        let applied = r.flow.act(action, &AidParams::default());
        r.deliver(applied, 5);
        r.assert_facts(USER_MAX_NM, "per-tab defaults");
    }

    #[test]
    fn a_huge_column_torque_stays_at_the_user_maximum_after_apply() {
        let mut r = Rig25::new();
        open(&mut r);
        let action = r.flow.screen_mut().unwrap().apply().expect("valid");
        let applied = r.flow.act(action, &AidParams::default());
        r.deliver(applied, 5);
        // A 1000 N·m pulse: far beyond anything a car produces.
        r.deliver(
            Applied {
                commands: vec![Command::FfbTest(FfbTest::PulseLeft(1000.0))],
                ..Applied::default()
            },
            900,
        );
        let peak = r.peak_level(900);
        assert!(peak <= USER_MAX_NM / PEAK_NM + 1e-9, "{peak}");
        assert!(peak > 0.9 * USER_MAX_NM / PEAK_NM, "it did play: {peak}");
    }
}

//! Tests of the settings screen driven by scripted devices, through the same
//! [`LiveInput::feed`] path as real devices, and of the real egui drawing on a `Context`
//! with synthetic pointer input (no window, no GPU).

use std::time::Duration;

use egui::{Event, PointerButton, Pos2, RawInput, Rect, Vec2};
use gripline_input::device::{AxisRange, DeviceId, InputBackend, ScriptedDevice, ScriptedStep};
use gripline_input::settings::axis_calibration::{AxisCalibration, RawRange};
use gripline_input::settings::bindings::{AxisBinding, AxisControl, ButtonAction};
use gripline_input::settings::device_identity::{DeviceIdentity, DeviceKind, DeviceMatch};
use gripline_input::settings::input_settings::InputSettings;

use super::calibration_wizard::{CalibrationWizard, WizardStep};
use super::{
    AxisKey, ControlsPage, DirectionCheckState, ExtraTab, FfbDeviceOption, FfbOptions, FfbRouting,
    FfbTestKind, LiveInput, SettingsAction, SettingsScreen, Tab, direction_text,
};
use gripline_input::setup::bind::{BindTarget, Resolution};
use gripline_input::setup::live_input::FfbSample;
use gripline_input::setup::shifter_wizard::ShifterWizard;

const WHEEL_RANGE: AxisRange = AxisRange::new(0, 65535);
const PEDAL_RANGE: AxisRange = AxisRange::new(0, 255);
const STEER: u32 = 0;
const THROTTLE: u32 = 2;
const BRAKE: u32 = 5;

fn g29() -> DeviceIdentity {
    DeviceIdentity::new(0x046d, 0xc24f, "G29 Driving Force Racing Wheel", "")
}

fn shifter_id() -> DeviceIdentity {
    DeviceIdentity::new(0x046d, 0xc294, "Driving Force Shifter", "")
}

/// A scripted device and the clock that plays it into a `LiveInput`.
struct Rig {
    devices: Vec<ScriptedDevice>,
    live: LiveInput,
    now_ms: u64,
}

impl Rig {
    fn new(devices: Vec<ScriptedDevice>) -> Self {
        Self {
            devices,
            live: LiveInput::default(),
            now_ms: 0,
        }
    }

    /// Plays every device up to `ms`, feeding each event to the live model.
    fn play_to(&mut self, ms: u64) {
        let mut out = Vec::new();
        while self.now_ms <= ms {
            let now = Duration::from_millis(self.now_ms);
            for d in &mut self.devices {
                out.clear();
                d.poll(now, &mut out);
                for e in &out {
                    self.live.feed(e, now);
                }
            }
            self.live.set_now(now);
            self.now_ms += 1;
        }
    }
}

fn axis(axis: u32, value: i32, range: AxisRange) -> ScriptedStep {
    ScriptedStep::Axis { axis, value, range }
}

fn button(button: u32, pressed: bool) -> ScriptedStep {
    ScriptedStep::Button { button, pressed }
}

fn wheel_device() -> ScriptedDevice {
    ScriptedDevice::new(DeviceId(1), g29(), DeviceKind::Wheel)
        .at_ms(0, ScriptedStep::Connect)
        .at_ms(1, axis(STEER, 32768, WHEEL_RANGE))
        .at_ms(1, axis(THROTTLE, 255, PEDAL_RANGE))
        .at_ms(1, axis(BRAKE, 255, PEDAL_RANGE))
}

fn bound(control: AxisControl, code: u32) -> AxisBinding {
    AxisBinding {
        control,
        device: DeviceMatch::Device(g29()),
        axis: code,
        calibration: AxisCalibration::default(),
        rotation_deg: 900.0,
    }
}

fn screen_with(axes: Vec<AxisBinding>) -> SettingsScreen {
    let mut settings = InputSettings::default();
    settings.bindings.axes.extend(axes);
    SettingsScreen::new(settings, FfbRouting::default())
}

fn calibration_of(screen: &SettingsScreen, control: AxisControl) -> AxisCalibration {
    screen
        .working()
        .bindings
        .axes
        .iter()
        .find(|b| b.control == control && matches!(b.device, DeviceMatch::Device(_)))
        .map(|b| b.calibration.clone())
        .expect("binding present")
}

#[test]
fn steering_wizard_lock_to_lock_then_centre() {
    // Left first (towards lower raw values, as devices report), then right, then straight;
    // the values in between come as a device would send them, 1 ms apart.
    let mut wheel = wheel_device();
    let mut t = 100;
    for v in (200..=32768).rev().step_by(1024) {
        wheel = wheel.at_ms(t, axis(STEER, v, WHEEL_RANGE));
        t += 1;
    }
    wheel = wheel.at_ms(t, axis(STEER, 150, WHEEL_RANGE));
    for v in (150..=65400).step_by(2048) {
        t += 1;
        wheel = wheel.at_ms(t, axis(STEER, v, WHEEL_RANGE));
    }
    wheel = wheel.at_ms(t + 1, axis(STEER, 65400, WHEEL_RANGE));
    wheel = wheel.at_ms(500, axis(STEER, 32900, WHEEL_RANGE));
    let mut rig = Rig::new(vec![wheel]);
    let steering = bound(AxisControl::Steering, STEER);
    let mut screen = screen_with(vec![steering.clone()]);
    rig.play_to(50);
    screen.process_input(&rig.live);
    screen.start_wizard(AxisKey::of(&steering), &rig.live);
    assert_eq!(
        screen.wizard().map(CalibrationWizard::step),
        Some(WizardStep::SteeringLockToLock)
    );
    rig.play_to(400);
    screen.process_input(&rig.live);
    assert_eq!(
        screen.wizard().and_then(CalibrationWizard::captured),
        Some(RawRange {
            min: 150,
            max: 65400
        })
    );
    screen.wizard_next();
    assert_eq!(
        screen.wizard().map(CalibrationWizard::step),
        Some(WizardStep::SteeringCentre)
    );
    rig.play_to(600);
    screen.process_input(&rig.live);
    screen.wizard_next();
    assert!(screen.wizard().is_none(), "finished");
    let cal = calibration_of(&screen, AxisControl::Steering);
    assert_eq!(
        cal.raw_range,
        Some(RawRange {
            min: 150,
            max: 65400
        })
    );
    assert_eq!(cal.centre, Some(32900));
    assert!(!cal.invert, "left reads lower: not inverted");
    assert!(!screen.is_dirty() || screen.working() != &InputSettings::default());
    // Apply sends it.
    let Some(SettingsAction::Apply(applied)) = screen.apply() else {
        panic!("apply")
    };
    assert_eq!(
        applied
            .input
            .bindings
            .axes
            .iter()
            .find(|b| b.control == AxisControl::Steering
                && b.axis == STEER
                && matches!(b.device, DeviceMatch::Device(_)))
            .and_then(|b| b.calibration.centre),
        Some(32900)
    );
}

#[test]
fn steering_that_reads_left_high_is_inverted() {
    let wheel = wheel_device()
        .at_ms(100, axis(STEER, 50000, WHEEL_RANGE))
        .at_ms(110, axis(STEER, 65000, WHEEL_RANGE))
        .at_ms(120, axis(STEER, 300, WHEEL_RANGE))
        .at_ms(300, axis(STEER, 32500, WHEEL_RANGE));
    let mut rig = Rig::new(vec![wheel]);
    let steering = bound(AxisControl::Steering, STEER);
    let mut screen = screen_with(vec![steering.clone()]);
    rig.play_to(50);
    screen.start_wizard(AxisKey::of(&steering), &rig.live);
    rig.play_to(200);
    screen.process_input(&rig.live);
    screen.wizard_next();
    rig.play_to(300);
    screen.process_input(&rig.live);
    screen.wizard_next();
    let cal = calibration_of(&screen, AxisControl::Steering);
    assert!(cal.invert);
    assert_eq!(
        cal.raw_range,
        Some(RawRange {
            min: 300,
            max: 65000
        })
    );
}

#[test]
fn pedal_wizard_records_range_and_detects_inverted_pedal() {
    // A G29 brake: 255 released, counts down when pressed, bottoms out at 4.
    let mut pedal = wheel_device().at_ms(100, axis(BRAKE, 254, PEDAL_RANGE));
    for (i, v) in [200, 120, 40, 4, 6, 5].iter().enumerate() {
        pedal = pedal.at_ms(300 + 10 * i as u64, axis(BRAKE, *v, PEDAL_RANGE));
    }
    let mut rig = Rig::new(vec![pedal]);
    let brake = bound(AxisControl::Brake, BRAKE);
    let mut screen = screen_with(vec![brake.clone()]);
    rig.play_to(50);
    screen.start_wizard(AxisKey::of(&brake), &rig.live);
    assert_eq!(
        screen.wizard().map(CalibrationWizard::step),
        Some(WizardStep::PedalReleased)
    );
    rig.play_to(200);
    screen.process_input(&rig.live);
    screen.wizard_next(); // released: 254
    assert_eq!(
        screen.wizard().map(CalibrationWizard::step),
        Some(WizardStep::PedalPressed)
    );
    rig.play_to(400);
    screen.process_input(&rig.live);
    screen.wizard_next();
    assert!(screen.wizard().is_none());
    let cal = calibration_of(&screen, AxisControl::Brake);
    assert_eq!(cal.raw_range, Some(RawRange { min: 4, max: 254 }));
    assert!(cal.invert, "pressed reads lower: inverted automatically");
    assert_eq!(cal.rest_raw, Some(254));
    assert!(screen.status().is_some_and(|(s, _)| s.contains("inverted")));
    // The sim's map of this calibration: released 0, pressed 1.
    let m = gripline_input::calibration::AxisMap::new(&cal, false);
    assert_eq!(m.map_raw(254, Some(PEDAL_RANGE)).to_bits(), 0f64.to_bits());
    assert_eq!(m.map_raw(4, Some(PEDAL_RANGE)).to_bits(), 1f64.to_bits());
}

#[test]
fn pedal_wizard_ignores_other_axes_and_devices() {
    // The throttle moves while the brake is calibrated: it must not count.
    let pedal = wheel_device()
        .at_ms(300, axis(THROTTLE, 0, PEDAL_RANGE))
        .at_ms(310, axis(BRAKE, 250, PEDAL_RANGE));
    let mut rig = Rig::new(vec![pedal]);
    let brake = bound(AxisControl::Brake, BRAKE);
    let mut screen = screen_with(vec![brake.clone()]);
    rig.play_to(50);
    screen.start_wizard(AxisKey::of(&brake), &rig.live);
    assert_eq!(
        screen.wizard().and_then(CalibrationWizard::latest),
        Some(255),
        "the current value is the first observation"
    );
    rig.play_to(305);
    screen.process_input(&rig.live);
    assert_eq!(
        screen.wizard().and_then(CalibrationWizard::latest),
        Some(255),
        "throttle ignored"
    );
    rig.play_to(320);
    screen.process_input(&rig.live);
    assert_eq!(
        screen.wizard().and_then(CalibrationWizard::latest),
        Some(250)
    );
}

#[test]
fn shifter_wizard_records_each_gear_and_refuses_a_repeat() {
    let mut sh = ScriptedDevice::new(DeviceId(2), shifter_id(), DeviceKind::Peripheral)
        .at_ms(0, ScriptedStep::Connect);
    // Gears 1..6 on buttons 12..17, reverse on 22; 2nd gear is first tried with button 12
    // again (the user went back into 1st), which must be refused.
    let mut t = 100;
    let mut press = |sh: ScriptedDevice, b: u32| {
        t += 20;
        sh.at_ms(t, button(b, true)).at_ms(t + 10, button(b, false))
    };
    sh = press(sh, 12);
    sh = press(sh, 12);
    for b in 13..=17 {
        sh = press(sh, b);
    }
    sh = press(sh, 22);
    let mut rig = Rig::new(vec![sh]);
    let mut screen = screen_with(vec![]);
    rig.play_to(10);
    screen.start_shifter(6, true, &rig.live);
    assert_eq!(
        screen.shifter().and_then(ShifterWizard::current_gear),
        Some(1)
    );
    rig.play_to(135);
    screen.process_input(&rig.live);
    assert_eq!(
        screen.shifter().and_then(ShifterWizard::current_gear),
        Some(2)
    );
    rig.play_to(155);
    screen.process_input(&rig.live);
    let w = screen.shifter().expect("running");
    assert_eq!(w.current_gear(), Some(2), "repeat refused");
    assert_eq!(
        w.message(),
        Some("That button is already 1st gear. Engage 2nd gear.")
    );
    rig.play_to(1000);
    screen.process_input(&rig.live);
    let w = screen.shifter().expect("running");
    assert!(w.finished());
    let recorded: Vec<(i8, u32)> = w.recorded().iter().map(|r| (r.gear, r.button)).collect();
    assert_eq!(
        recorded,
        [
            (1, 12),
            (2, 13),
            (3, 14),
            (4, 15),
            (5, 16),
            (6, 17),
            (-1, 22)
        ]
    );
    screen.finish_shifter();
    assert!(screen.pending().is_none(), "no conflicts");
    let mut gears: Vec<(i8, u32)> = screen
        .working()
        .bindings
        .buttons
        .iter()
        .filter_map(|b| match b.action {
            ButtonAction::Gear(g) => {
                assert!(matches!(&b.device, DeviceMatch::Device(id) if id.product_id == 0xc294));
                Some((g, b.button))
            }
            _ => None,
        })
        .collect();
    gears.sort_unstable();
    assert_eq!(
        gears,
        [
            (-1, 22),
            (1, 12),
            (2, 13),
            (3, 14),
            (4, 15),
            (5, 16),
            (6, 17)
        ]
    );
    assert!(screen.apply().is_some(), "valid settings apply");
}

#[test]
fn bind_by_doing_with_noise_and_conflict() {
    let mut wheel = wheel_device();
    // Noise on every axis for 200 ms after the bind starts.
    for i in 0..20u64 {
        let n = i32::try_from(i % 3).unwrap_or(0);
        wheel = wheel
            .at_ms(60 + 10 * i, axis(THROTTLE, 255 - n, PEDAL_RANGE))
            .at_ms(60 + 10 * i, axis(STEER, 32768 + 40 * n, WHEEL_RANGE));
    }
    // Then the brake is pressed (counts down).
    wheel = wheel
        .at_ms(300, axis(BRAKE, 180, PEDAL_RANGE))
        .at_ms(310, axis(BRAKE, 20, PEDAL_RANGE))
        .at_ms(400, axis(BRAKE, 255, PEDAL_RANGE));
    // Later, the same brake axis is pressed while binding the throttle.
    wheel = wheel.at_ms(600, axis(BRAKE, 30, PEDAL_RANGE));
    let mut rig = Rig::new(vec![wheel]);
    let mut screen = screen_with(vec![]);
    rig.play_to(50);
    screen.start_bind(BindTarget::Axis(AxisControl::Brake), &rig.live);
    rig.play_to(260);
    screen.process_input(&rig.live);
    assert!(screen.capture().is_some(), "noise did not bind");
    rig.play_to(320);
    screen.process_input(&rig.live);
    assert!(screen.capture().is_none());
    let brake = calibration_of(&screen, AxisControl::Brake);
    assert!(brake.invert && brake.rest_raw == Some(255));
    assert!(
        screen
            .working()
            .bindings
            .axes
            .iter()
            .any(|b| b.control == AxisControl::Brake && b.axis == BRAKE)
    );
    rig.play_to(500);
    screen.start_bind(BindTarget::Axis(AxisControl::Throttle), &rig.live);
    rig.play_to(650);
    screen.process_input(&rig.live);
    let pending = screen.pending().expect("conflict shown");
    assert_eq!(pending.conflicts, [BindTarget::Axis(AxisControl::Brake)]);
    assert!(
        screen
            .status()
            .is_some_and(|(s, err)| err && s.contains("Brake pedal"))
    );
    screen.resolve_conflict(Some(Resolution::Replace));
    let on_brake_axis: Vec<AxisControl> = screen
        .working()
        .bindings
        .axes
        .iter()
        .filter(|b| b.axis == BRAKE && matches!(b.device, DeviceMatch::Device(_)))
        .map(|b| b.control)
        .collect();
    assert_eq!(on_brake_axis, [AxisControl::Throttle]);
}

// ---- egui ----

const SCREEN: Vec2 = Vec2::new(1600.0, 1000.0);

fn input(events: Vec<Event>) -> RawInput {
    RawInput {
        screen_rect: Some(Rect::from_min_size(Pos2::ZERO, SCREEN)),
        events,
        ..RawInput::default()
    }
}

/// One frame; returns the action and the accessibility nodes (label or text, rect, enabled).
fn frame(
    ctx: &egui::Context,
    screen: &mut SettingsScreen,
    live: &LiveInput,
    events: Vec<Event>,
) -> (Option<SettingsAction>, Vec<(String, Rect, bool)>) {
    let mut action = None;
    let mut out = ctx.run_pass(input(events), |ctx| {
        if let Some(a) = screen.show(ctx, live) {
            action = Some(a);
        }
    });
    out.textures_delta.clear();
    let mut nodes = Vec::new();
    if let Some(update) = out.platform_output.accesskit_update {
        for (_, node) in update.nodes {
            // Buttons carry their text as the label, plain labels as the value.
            if let (Some(label), Some(b)) = (node.label().or(node.value()), node.bounds()) {
                #[allow(clippy::cast_possible_truncation)]
                let rect = Rect::from_min_max(
                    Pos2::new(b.x0 as f32, b.y0 as f32),
                    Pos2::new(b.x1 as f32, b.y1 as f32),
                );
                nodes.push((label.to_owned(), rect, !node.is_disabled()));
            }
        }
    }
    (action, nodes)
}

fn click_at(pos: Pos2) -> Vec<Event> {
    let press = |pressed| Event::PointerButton {
        pos,
        button: PointerButton::Primary,
        pressed,
        modifiers: egui::Modifiers::default(),
    };
    vec![Event::PointerMoved(pos), press(true), press(false)]
}

/// The top-most widget labelled `label` (the tree's node order is arbitrary).
fn find(nodes: &[(String, Rect, bool)], label: &str) -> Rect {
    let top = nodes
        .iter()
        .filter(|(l, _, _)| l == label)
        .min_by(|a, b| a.1.top().total_cmp(&b.1.top()));
    let Some((_, rect, _)) = top else {
        let labels: Vec<_> = nodes.iter().map(|(l, _, _)| l.as_str()).collect();
        panic!("no widget labelled {label:?} among {labels:?}")
    };
    *rect
}

/// Clicks the widget labelled `label` (found in the previous frame's accessibility tree)
/// and runs the frames egui needs to report the click.
fn click(
    ctx: &egui::Context,
    screen: &mut SettingsScreen,
    live: &LiveInput,
    label: &str,
) -> Option<SettingsAction> {
    // Two frames: a new window measures itself in its first frame without showing.
    frame(ctx, screen, live, vec![]);
    let (_, nodes) = frame(ctx, screen, live, vec![]);
    let at = find(&nodes, label).center();
    let (a, _) = frame(ctx, screen, live, click_at(at));
    let (b, _) = frame(ctx, screen, live, vec![]);
    a.or(b)
}

fn context() -> egui::Context {
    let ctx = egui::Context::default();
    ctx.enable_accesskit();
    ctx
}

#[test]
fn clicking_bind_in_the_real_ui_binds_the_moved_axis() {
    let wheel = wheel_device()
        .at_ms(300, axis(STEER, 36000, WHEEL_RANGE))
        .at_ms(301, axis(STEER, 40000, WHEEL_RANGE));
    let mut rig = Rig::new(vec![wheel]);
    rig.play_to(100);
    let mut screen = screen_with(vec![]);
    let ctx = context();
    // The Bindings page lists Steering first: its "Bind" is the first one.
    assert_eq!(screen.page(), ControlsPage::Bindings);
    click(&ctx, &mut screen, &rig.live, "Bind");
    assert_eq!(
        screen
            .capture()
            .map(gripline_input::setup::bind::BindCapture::target),
        Some(BindTarget::Axis(AxisControl::Steering)),
        "the click started a capture for steering"
    );
    let (_, nodes) = frame(&ctx, &mut screen, &rig.live, vec![]);
    assert!(
        nodes.iter().any(|(l, _, _)| l == "Stop"),
        "capture shown with a Stop button"
    );
    rig.play_to(400);
    frame(&ctx, &mut screen, &rig.live, vec![]);
    assert!(screen.capture().is_none());
    let b = screen
        .working()
        .bindings
        .axes
        .iter()
        .find(|b| b.control == AxisControl::Steering && matches!(b.device, DeviceMatch::Device(_)))
        .expect("steering bound to the wheel");
    assert_eq!(b.axis, STEER);
    assert!((b.rotation_deg - 900.0).abs() < 1e-9, "known G29 rotation");
    // Apply through the real button.
    let action = click(&ctx, &mut screen, &rig.live, "Apply");
    assert!(
        matches!(action, Some(SettingsAction::Apply(_))),
        "{action:?}"
    );
    assert!(!screen.is_dirty());
}

#[test]
fn ffb_tab_buttons_emit_actions() {
    let mut live = LiveInput::default();
    let mut screen = screen_with(vec![]);
    screen.set_tab(Tab::ForceFeedback);
    let ctx = context();
    assert_eq!(
        click(&ctx, &mut screen, &live, "Pulse right >"),
        Some(SettingsAction::FfbTest(FfbTestKind::PulseRight))
    );
    assert_eq!(
        click(
            &ctx,
            &mut screen,
            &live,
            "STOP force feedback (kill switch)"
        ),
        Some(SettingsAction::KillFfb(true))
    );
    live.set_ffb_killed(true);
    let (_, nodes) = frame(&ctx, &mut screen, &live, vec![]);
    assert!(
        nodes.iter().any(|(l, _, on)| l == "< Pulse left" && !on),
        "tests disabled while killed"
    );
    assert_eq!(
        click(&ctx, &mut screen, &live, "Turn force feedback back on"),
        Some(SettingsAction::KillFfb(false))
    );
    assert_eq!(
        click(&ctx, &mut screen, &live, "Cancel"),
        Some(SettingsAction::Cancel)
    );
}

#[test]
fn the_direction_check_proposes_the_other_invert_for_a_backwards_wheel() {
    use gripline_input::ffb::direction_check::{DirectionOutcome, Inconclusive};
    let live = LiveInput::default();
    let mut screen = screen_with(vec![]);
    screen.set_ffb_options(FfbOptions {
        devices: vec![FfbDeviceOption {
            identity: g29(),
            name: "Logitech G29".into(),
        }],
        automatic_device: Some(g29()),
        ..FfbOptions::default()
    });
    screen.set_tab(Tab::ForceFeedback);
    let ctx = context();
    assert_eq!(
        click(&ctx, &mut screen, &live, "Check direction"),
        Some(SettingsAction::CheckDirection)
    );
    assert_eq!(screen.direction_check(), DirectionCheckState::Running);
    let (_, nodes) = frame(&ctx, &mut screen, &live, vec![]);
    assert!(
        nodes.iter().any(|(l, _, on)| l == "Check direction" && !on),
        "one check at a time"
    );
    // The wheel turned right for a push left, driven without invert: offer invert.
    let invert_of = |s: &SettingsScreen| {
        s.working()
            .ffb
            .devices
            .iter()
            .find(|d| d.device.same_device(&g29()))
            .is_some_and(|d| d.invert)
    };
    assert!(!invert_of(&screen));
    screen.direction_checked(DirectionOutcome::Reversed { moved_rad: -0.2 }, false);
    click(&ctx, &mut screen, &live, "Set invert for this wheel");
    assert!(invert_of(&screen), "invert set in the edited settings");
    assert!(screen.is_dirty(), "to be applied");
    // Driven with invert and still backwards: offer to turn it off.
    screen.direction_checked(DirectionOutcome::Reversed { moved_rad: -0.2 }, true);
    click(&ctx, &mut screen, &live, "Turn invert off for this wheel");
    assert!(!invert_of(&screen));
    // Right, or undecided: nothing to set.
    for outcome in [
        DirectionOutcome::Correct { moved_rad: 0.2 },
        DirectionOutcome::Inconclusive(Inconclusive::TooLittle { moved_rad: 0.01 }),
    ] {
        screen.direction_checked(outcome, false);
        let (_, nodes) = frame(&ctx, &mut screen, &live, vec![]);
        assert!(
            !nodes
                .iter()
                .any(|(l, _, _)| l.contains("invert for this wheel")),
            "{outcome:?}"
        );
        assert!(
            nodes
                .iter()
                .any(|(l, _, _)| l == &direction_text(outcome, false))
        );
    }
}

#[test]
fn direction_texts_say_what_to_do() {
    use gripline_input::ffb::direction_check::{DirectionOutcome, Inconclusive};
    let ok = direction_text(DirectionOutcome::Correct { moved_rad: 0.1 }, true);
    assert!(
        ok.starts_with("Direction OK") && ok.contains("invert on is right"),
        "{ok}"
    );
    let wrong = direction_text(DirectionOutcome::Reversed { moved_rad: -0.1 }, false);
    assert!(wrong.contains("Set invert on"), "{wrong}");
    let held = direction_text(
        DirectionOutcome::Inconclusive(Inconclusive::TooLittle { moved_rad: 0.005 }),
        false,
    );
    assert!(held.contains("hands off"), "{held}");
    for why in [
        Inconclusive::MovingBefore { moved_rad: 0.1 },
        Inconclusive::NoForce,
        Inconclusive::NoAngle,
    ] {
        assert!(
            direction_text(DirectionOutcome::Inconclusive(why), false).starts_with("Inconclusive")
        );
    }
}

#[test]
fn a_runaway_cut_is_shown_with_the_way_back() {
    use gripline_input::ffb::runaway::RunawayCause;
    use gripline_input::ffb::safety::StopReason;
    let mut live = LiveInput::default();
    let mut screen = screen_with(vec![]);
    screen.set_tab(Tab::ForceFeedback);
    let ctx = context();
    live.set_ffb_cut(Some(StopReason::Runaway(
        RunawayCause::UnexplainedAcceleration,
    )));
    frame(&ctx, &mut screen, &live, vec![]);
    let (_, nodes) = frame(&ctx, &mut screen, &live, vec![]);
    assert!(
        nodes
            .iter()
            .any(|(l, _, _)| l == "Force feedback is CUT (runaway trip)")
    );
    assert!(
        nodes
            .iter()
            .any(|(l, _, _)| l.contains(RunawayCause::UnexplainedAcceleration.describe())),
        "says why"
    );
    for test in ["< Pulse left", "Check direction"] {
        assert!(
            nodes.iter().any(|(l, _, on)| l == test && !on),
            "{test} disabled while cut"
        );
    }
    assert_eq!(
        click(&ctx, &mut screen, &live, "Turn force feedback back on"),
        Some(SettingsAction::KillFfb(false))
    );
}

#[test]
fn ffb_tab_says_when_the_emergency_stop_holds_force_feedback_off() {
    let mut live = LiveInput::default();
    let mut screen = screen_with(vec![]);
    screen.set_tab(Tab::ForceFeedback);
    let ctx = context();
    let (_, nodes) = frame(&ctx, &mut screen, &live, vec![]);
    assert!(
        !nodes.iter().any(|(l, _, _)| l.contains("emergency stop")),
        "nothing to say before"
    );
    live.set_ffb_emergency_stopped(true);
    let (_, nodes) = frame(&ctx, &mut screen, &live, vec![]);
    assert!(
        nodes
            .iter()
            .any(|(l, _, on)| l == "Turn force feedback back on after the emergency stop" && *on),
        "{nodes:?}"
    );
    assert!(
        nodes.iter().any(|(l, _, on)| l == "< Pulse left" && !on),
        "tests disabled while it holds"
    );
    assert_eq!(
        click(
            &ctx,
            &mut screen,
            &live,
            "Turn force feedback back on after the emergency stop"
        ),
        Some(SettingsAction::KillFfb(false))
    );
}

#[test]
fn every_tab_and_page_renders() {
    let wheel = wheel_device()
        .at_ms(10, button(3, true))
        .at_ms(20, axis(STEER, 20000, WHEEL_RANGE));
    let pad = ScriptedDevice::new(
        DeviceId(7),
        DeviceIdentity::new(0x045e, 0x028e, "Xbox 360 pad", ""),
        DeviceKind::Gamepad,
    )
    .at_ms(0, ScriptedStep::Connect)
    .at_ms(30, ScriptedStep::Disconnect);
    let mut rig = Rig::new(vec![wheel, pad]);
    rig.play_to(100);
    for ms in 0..2000u64 {
        let t = ms as f64 / 1000.0;
        rig.live.feed_ffb(
            FfbSample {
                torque_nm: 5.0 * (6.0 * t).sin(),
                clipped: (6.0 * t).sin().abs() > 0.8,
            },
            Duration::from_millis(ms),
        );
    }
    let mut screen = screen_with(vec![
        bound(AxisControl::Steering, STEER),
        bound(AxisControl::Brake, BRAKE),
        AxisBinding {
            calibration: AxisCalibration {
                raw_range: Some(RawRange { min: 0, max: 255 }),
                centre: Some(120),
                ..AxisCalibration::default()
            },
            ..bound(AxisControl::CombinedPedals, THROTTLE)
        },
    ]);
    screen.set_car_lock_deg(Some(270.0));
    screen.set_ffb_options(FfbOptions {
        backends: vec![
            "evdev FF_CONSTANT".into(),
            "Logitech classic (raw HID)".into(),
        ],
        automatic_backend: Some("evdev FF_CONSTANT".into()),
        devices: vec![FfbDeviceOption {
            identity: g29(),
            name: "Logitech G29".into(),
        }],
        automatic_device: Some(g29()),
    });
    let ctx = context();
    let mut drew_extra = 0;
    let mut extra = |ui: &mut egui::Ui| {
        ui.label("car and session");
        drew_extra += 1;
    };
    let empty = LiveInput::default();
    for live in [&rig.live, &empty] {
        for tab in [
            Tab::Controls,
            Tab::ForceFeedback,
            Tab::Extra(0),
            Tab::Extra(5),
        ] {
            for page in [
                ControlsPage::Bindings,
                ControlsPage::Calibration,
                ControlsPage::Shifter,
                ControlsPage::Devices,
            ] {
                screen.set_tab(tab);
                screen.set_page(page);
                for key in screen
                    .working()
                    .bindings
                    .axes
                    .iter()
                    .map(AxisKey::of)
                    .collect::<Vec<_>>()
                {
                    screen.edit_axis(key);
                    let mut out = ctx.run_pass(input(vec![]), |ctx| {
                        let mut tabs = [ExtraTab {
                            title: "Car & session",
                            contents: &mut extra,
                        }];
                        screen.show_with_tabs(ctx, live, &mut tabs);
                    });
                    out.textures_delta.clear();
                    assert!(!out.shapes.is_empty(), "{tab:?} {page:?} drew nothing");
                }
            }
        }
        // With the wizards and a capture running too.
        let key = AxisKey::of(&bound(AxisControl::Steering, STEER));
        screen.start_wizard(key, live);
        screen.start_shifter(5, true, live);
        screen.start_bind(BindTarget::Button(ButtonAction::ShiftUp), live);
        for page in [
            ControlsPage::Calibration,
            ControlsPage::Shifter,
            ControlsPage::Bindings,
        ] {
            screen.set_page(page);
            let mut out = ctx.run_pass(input(vec![]), |ctx| {
                screen.show(ctx, live);
            });
            out.textures_delta.clear();
            assert!(!out.shapes.is_empty());
        }
        screen.cancel_wizard();
        screen.cancel_shifter();
        screen.cancel_bind();
    }
    assert!(drew_extra > 0, "the app's tab was drawn");
    // Reset to defaults, then Cancel restores the applied settings.
    let before = screen.working().clone();
    screen.reset_to_defaults();
    assert_eq!(screen.working(), &InputSettings::default());
    assert!(screen.is_dirty());
    assert_eq!(screen.cancel(), SettingsAction::Cancel);
    assert_eq!(screen.working(), &before);
}

/// A driving-like scene: a G29 with steering, three pedals and a shifter in 3rd gear, a
/// gamepad that was unplugged, three seconds of history and force feedback that clips on
/// its peaks.
fn scene() -> (LiveInput, SettingsScreen) {
    let mut live = LiveInput::default();
    let wheel = DeviceId(1);
    let shifter = DeviceId(2);
    let connect = |id, identity, kind| gripline_input::device::InputEvent::Connected {
        device: id,
        info: gripline_input::device::DeviceInfo { identity, kind },
    };
    live.feed(&connect(wheel, g29(), DeviceKind::Wheel), Duration::ZERO);
    live.feed(
        &connect(shifter, shifter_id(), DeviceKind::Peripheral),
        Duration::ZERO,
    );
    let pad = DeviceId(3);
    live.feed(
        &connect(
            pad,
            DeviceIdentity::new(0x045e, 0x028e, "Xbox 360 Controller", ""),
            DeviceKind::Gamepad,
        ),
        Duration::ZERO,
    );
    live.feed(
        &gripline_input::device::InputEvent::Disconnected { device: pad },
        Duration::from_millis(5),
    );
    let ax = |device, axis, value, range| gripline_input::device::InputEvent::Axis {
        device,
        axis,
        value,
        range,
    };
    for ms in 0..3000u64 {
        let t = ms as f64 / 1000.0;
        let now = Duration::from_millis(ms);
        #[allow(clippy::cast_possible_truncation)]
        let steer = (32900.0 + 14000.0 * (1.7 * t).sin()) as i32;
        #[allow(clippy::cast_possible_truncation)]
        let throttle = (255.0 - 250.0 * (0.5 + 0.5 * (2.3 * t).sin()).powi(2)) as i32;
        #[allow(clippy::cast_possible_truncation)]
        let brake = if (1.2..1.8).contains(&t) {
            (255.0 - 200.0 * ((t - 1.2) / 0.6 * 3.1).sin()) as i32
        } else {
            255
        };
        live.feed(&ax(wheel, STEER, steer, WHEEL_RANGE), now);
        live.feed(&ax(wheel, THROTTLE, throttle, PEDAL_RANGE), now);
        live.feed(&ax(wheel, BRAKE, brake, PEDAL_RANGE), now);
        live.feed(&ax(wheel, 1, 255, PEDAL_RANGE), now);
        let torque = 3.2 * (1.7 * t).sin() + 0.3 * (40.0 * t).sin();
        live.feed_ffb(
            FfbSample {
                torque_nm: torque.clamp(-2.2, 2.2),
                clipped: torque.abs() > 2.2,
            },
            now,
        );
    }
    live.feed(
        &gripline_input::device::InputEvent::Button {
            device: shifter,
            button: 14,
            pressed: true,
        },
        Duration::from_millis(2990),
    );
    live.feed(
        &gripline_input::device::InputEvent::Button {
            device: wheel,
            button: 4,
            pressed: true,
        },
        Duration::from_millis(2995),
    );
    let mut screen = screen_with(vec![
        AxisBinding {
            calibration: AxisCalibration {
                raw_range: Some(RawRange {
                    min: 150,
                    max: 65400,
                }),
                centre: Some(32900),
                dead_zone: 0.01,
                ..AxisCalibration::default()
            },
            ..bound(AxisControl::Steering, STEER)
        },
        AxisBinding {
            calibration: AxisCalibration {
                raw_range: Some(RawRange { min: 4, max: 254 }),
                invert: true,
                rest_raw: Some(254),
                dead_zone: 0.03,
                ..AxisCalibration::default()
            },
            ..bound(AxisControl::Throttle, THROTTLE)
        },
        AxisBinding {
            calibration: AxisCalibration {
                raw_range: Some(RawRange { min: 30, max: 254 }),
                invert: true,
                rest_raw: Some(254),
                dead_zone: 0.04,
                saturation: 0.08,
                anti_dead_zone: 0.05,
                curve: gripline_input::settings::axis_calibration::ResponseCurve::Gamma(1.8),
                ..AxisCalibration::default()
            },
            ..bound(AxisControl::Brake, BRAKE)
        },
        AxisBinding {
            calibration: AxisCalibration {
                invert: true,
                ..AxisCalibration::default()
            },
            ..bound(AxisControl::Clutch, 1)
        },
    ]);
    let sh = DeviceMatch::Device(shifter_id());
    for (gear, button) in [
        (1, 12),
        (2, 13),
        (3, 14),
        (4, 15),
        (5, 16),
        (6, 17),
        (-1, 22),
    ] {
        screen.working_mut().bindings.buttons.push(
            gripline_input::settings::bindings::ButtonBinding {
                action: ButtonAction::Gear(gear),
                device: sh.clone(),
                button,
            },
        );
    }
    screen
        .working_mut()
        .bindings
        .buttons
        .push(gripline_input::settings::bindings::ButtonBinding {
            action: ButtonAction::ShiftUp,
            device: DeviceMatch::Device(g29()),
            button: 4,
        });
    screen.set_car_lock_deg(Some(270.0));
    screen.set_ffb_options(FfbOptions {
        backends: vec![
            "evdev FF_CONSTANT".into(),
            "Logitech classic (raw HID)".into(),
        ],
        automatic_backend: Some("evdev FF_CONSTANT".into()),
        devices: vec![FfbDeviceOption {
            identity: g29(),
            name: "Logitech G29 Driving Force".into(),
        }],
        automatic_device: Some(g29()),
    });
    screen.working_mut().ffb.max_torque_nm = 2.2;
    screen.working_mut().ffb.gain = 0.8;
    (live, screen)
}

#[test]
fn screenshots_are_real_pictures() {
    type Setup = fn(&mut SettingsScreen, &LiveInput, &AxisKey, &AxisKey);
    use super::software_raster::{Textures, distinct_colours, paint};
    let (live, mut screen) = scene();
    let ctx = egui::Context::default();
    let mut textures = Textures::default();
    let dir = std::env::var_os("GRIPLINE_SETTINGS_PNG_DIR").map(std::path::PathBuf::from);
    let steering = AxisKey::of(&bound(AxisControl::Steering, STEER));
    let brake = AxisKey::of(&bound(AxisControl::Brake, BRAKE));
    let shots: [(&str, Setup); 7] = [
        ("controls_bindings", |s, _, _, _| {
            s.set_page(ControlsPage::Bindings);
        }),
        ("controls_calibration_steering", |s, _, k, _| {
            s.set_page(ControlsPage::Calibration);
            s.edit_axis(k.clone());
        }),
        ("controls_calibration_brake", |s, _, _, k| {
            s.set_page(ControlsPage::Calibration);
            s.edit_axis(k.clone());
        }),
        ("controls_calibration_wizard", |s, l, _, k| {
            s.start_wizard(k.clone(), l);
        }),
        ("controls_shifter", |s, _, _, _| {
            s.cancel_wizard();
            s.set_page(ControlsPage::Shifter);
        }),
        ("controls_devices", |s, _, _, _| {
            s.set_page(ControlsPage::Devices);
        }),
        ("force_feedback", |s, _, _, _| s.set_tab(Tab::ForceFeedback)),
    ];
    for (name, setup) in shots {
        setup(&mut screen, &live, &steering, &brake);
        let mut last = None;
        for _ in 0..3 {
            let out = ctx.run_pass(input(vec![]), |ctx| {
                screen.show(ctx, &live);
            });
            if let Some(prev) = last.replace(out) {
                let mut prev: egui::FullOutput = prev;
                // Keep the font texture uploads of every frame.
                paint(&ctx, std::mem::take(&mut prev), &mut textures, 16, 16);
            }
        }
        let Some(out) = last else { continue };
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let pix =
            paint(&ctx, out, &mut textures, SCREEN.x as u32, SCREEN.y as u32).expect("picture");
        let colours = distinct_colours(&pix);
        assert!(
            colours > 40,
            "{name}: only {colours} colours: not a real picture"
        );
        if let Some(dir) = &dir {
            let path = dir.join(format!("settings_{name}.png"));
            pix.save_png(&path).expect("write PNG");
        }
    }
}

#[test]
fn unplugging_during_the_wizard_forgets_the_stale_value() {
    let wheel = wheel_device()
        .at_ms(100, axis(BRAKE, 250, PEDAL_RANGE))
        .at_ms(200, ScriptedStep::Disconnect);
    let mut rig = Rig::new(vec![wheel]);
    let brake = bound(AxisControl::Brake, BRAKE);
    let mut screen = screen_with(vec![brake.clone()]);
    rig.play_to(50);
    screen.start_wizard(AxisKey::of(&brake), &rig.live);
    rig.play_to(300);
    screen.process_input(&rig.live);
    let w = screen.wizard().expect("running");
    assert_eq!(w.latest(), None);
    assert!(w.message().is_some_and(|m| m.contains("unplugged")));
    screen.wizard_next();
    assert_eq!(
        screen.wizard().map(CalibrationWizard::step),
        Some(WizardStep::PedalReleased),
        "no value: Next refused"
    );
}

#[test]
fn conflict_resolved_by_clicking_replace() {
    let wheel = wheel_device().at_ms(300, axis(BRAKE, 40, PEDAL_RANGE));
    let mut rig = Rig::new(vec![wheel]);
    rig.play_to(100);
    let mut screen = screen_with(vec![bound(AxisControl::Brake, BRAKE)]);
    screen.start_bind(BindTarget::Axis(AxisControl::Throttle), &rig.live);
    rig.play_to(400);
    let ctx = context();
    frame(&ctx, &mut screen, &rig.live, vec![]);
    assert!(screen.pending().is_some(), "conflict shown");
    click(&ctx, &mut screen, &rig.live, "Replace (remove the old use)");
    assert!(screen.pending().is_none());
    let controls: Vec<AxisControl> = screen
        .working()
        .bindings
        .axes
        .iter()
        .filter(|b| b.axis == BRAKE && matches!(b.device, DeviceMatch::Device(_)))
        .map(|b| b.control)
        .collect();
    assert_eq!(controls, [AxisControl::Throttle]);
}

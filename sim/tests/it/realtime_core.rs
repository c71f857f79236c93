//! The sim core driven tick by tick (deterministic, no thread, no clock): commands, the
//! keyboard, the autopilot, reset, pause and car swaps.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use glam::DVec3;
use gripline_formats::vehicle_sound::SoundParams;
use gripline_input::ffb::backend::FfbError;
use gripline_input::ffb::device_facts::FfbDeviceFacts;
use gripline_input::ffb::recording::{
    Clock, Command as Ffb, ManualClock, Recording, RecordingBackend,
};
use gripline_input::ffb::writer::{FfbWriter, WriterConfig};
use gripline_input::settings::bindings::Bindings;
use gripline_input::settings::ffb_settings::FfbSettings;
use gripline_input::settings::input_codes::key;
use gripline_physics::vehicle::{Snapshot, Vehicle};
use gripline_sim::observer::TickObserver;
use gripline_sim::realtime::commands::{Command, FfbTest, Retired, SimEvent};
use gripline_sim::realtime::rig::{FfbLink, Rig};
use gripline_sim::realtime::sim_core::{SimCore, UiRings, core_rings};
use gripline_sim::realtime::snapshot_ring::Stamped;
use gripline_sim::realtime::stats::SharedStats;
use gripline_sim::realtime::{Interpolator, KeyboardSender};
use gripline_sim::session::Session;

struct Bench {
    core: SimCore,
    ui: UiRings,
    keys: KeyboardSender,
    now: Duration,
}

impl Bench {
    fn new(track: &str, autopilot: bool) -> Self {
        Self::with_rig(track, autopilot, Rig::without_ffb(&Bindings::default()))
    }

    fn with_rig(track: &str, autopilot: bool, mut rig: Rig) -> Self {
        let session = Session::load("corvette-c5", track).expect("shipped assets load");
        let keys = rig.add_keyboard();
        let (rings, ui) = core_rings(64);
        let core = SimCore::new(
            session,
            rig,
            rings,
            Arc::new(SharedStats::default()),
            autopilot,
        );
        Self {
            core,
            ui,
            keys,
            now: Duration::ZERO,
        }
    }

    /// Runs `n` ticks, draining the snapshots; returns the newest.
    fn run(&mut self, n: u64) -> Stamped {
        let mut newest = None;
        for _ in 0..n {
            self.now += Duration::from_millis(1);
            self.core.tick(self.now);
            while let Some(s) = self.ui.snapshots.pop() {
                newest = Some(s);
            }
        }
        newest.expect("a snapshot per tick")
    }

    fn send(&mut self, command: Command) {
        self.ui.commands.push(command).expect("room in the queue");
    }
}

/// A rig whose force feedback goes to a recording backend, without fade-in: the rig, the
/// recording, the backend's failure switch and the peak torque (N·m).
fn recording_rig() -> (Rig, Recording, Arc<AtomicBool>, f64) {
    let backend = RecordingBackend::new(Clock::Manual(ManualClock::new()));
    let recording = backend.recording();
    let fail = backend.failure_switch();
    let settings = FfbSettings {
        fade_in_s: 0.0,
        ..FfbSettings::default()
    };
    let peak = settings.max_torque_nm;
    let rig = Rig::new(
        &Bindings::default(),
        &settings,
        FfbLink {
            backend: Box::new(backend),
            facts: FfbDeviceFacts {
                peak_torque_nm: peak,
                ..FfbDeviceFacts::no_device(&settings)
            },
        },
    );
    (rig, recording, fail, peak)
}

#[test]
fn keyboard_throttle_and_steering_reach_the_controls() {
    let mut b = Bench::new("flat", false);
    let rest = b.run(100);
    assert!(rest.snapshot.controls.throttle.abs() < 1e-12);
    b.keys.key(key::UP, true);
    b.keys.key(key::LEFT, true);
    let s = b.run(500);
    assert!(
        s.snapshot.controls.throttle > 0.9,
        "{:?}",
        s.snapshot.controls
    );
    // Left arrow: steering positive (ISO 8855, counter-clockwise).
    assert!(
        s.snapshot.controls.steering_wheel_rad > 0.1,
        "{:?}",
        s.snapshot.controls
    );
    assert!(
        s.snapshot.velocity_body.x > 1.0,
        "the car moves: {}",
        s.snapshot.velocity_body
    );
    b.keys.key(key::UP, false);
    b.keys.key(key::LEFT, false);
    b.keys.key(key::DOWN, true);
    let s = b.run(500);
    assert!(s.snapshot.controls.throttle < 1e-9);
    assert!(s.snapshot.controls.brake > 0.9);
    assert!(s.snapshot.controls.steering_wheel_rad.abs() < 0.05);
}

#[test]
fn pause_stops_time_and_resume_continues() {
    let mut b = Bench::new("flat", false);
    let before = b.run(200);
    b.send(Command::Pause);
    let paused = b.run(300);
    assert!(paused.hud.paused);
    // Commands apply at the start of a tick, before its step.
    assert_eq!(paused.tick, before.tick);
    assert!((paused.snapshot.time_s - before.snapshot.time_s).abs() < 1e-12);
    b.send(Command::Resume);
    let resumed = b.run(100);
    assert!(!resumed.hud.paused);
    assert_eq!(resumed.tick, paused.tick + 100);
    // The keyboard's pause binding (Escape) toggles it too.
    b.keys.key(key::ESCAPE, true);
    let s = b.run(50);
    assert!(s.hud.paused);
}

#[test]
fn reset_returns_to_the_start_pose_in_a_new_epoch() {
    let mut b = Bench::new("circuit", false);
    let start = b.core.session().start_pose();
    b.keys.key(key::UP, true);
    let moved = b.run(3000);
    assert!(
        moved.snapshot.position.distance(start.position) > 5.0,
        "drove away: {}",
        moved.snapshot.position
    );
    b.keys.key(key::UP, false);
    b.send(Command::Reset);
    let s = b.run(1);
    assert_eq!(s.tick, 1);
    assert_eq!(s.epoch, moved.epoch + 1);
    assert!(
        s.snapshot.position.distance(start.position) < 0.05,
        "{} vs {}",
        s.snapshot.position,
        start.position
    );
    assert!(s.snapshot.speed_m_per_s < 0.1);
    // The interpolator sees the discontinuity and does not blend across it.
    let mut interp = Interpolator::new(1.5);
    interp.push(moved);
    interp.push(s);
    assert_eq!(interp.discontinuities(), 1);
    let drawn = interp.sample(Duration::ZERO).unwrap();
    assert!(drawn.stamped.snapshot.position.distance(start.position) < 0.05);
}

#[test]
fn autopilot_drives_forward_round_the_circuit() {
    let mut b = Bench::new("circuit", true);
    let start = b.core.session().start_pose();
    let s = b.run(3000);
    assert!(s.hud.autopilot);
    assert!(
        s.snapshot.speed_m_per_s > 5.0,
        "speed {}",
        s.snapshot.speed_m_per_s
    );
    // Forward: along the start heading.
    let heading = start.orientation.mul_vec3(DVec3::X);
    let travelled = s.snapshot.position - start.position;
    assert!(travelled.dot(heading) > 5.0, "{travelled}");
    assert!(s.hud.laps.station_m > 5.0);
    // The line was crossed at the start: the first lap is being timed.
    assert!(s.hud.laps.current_lap_s.is_some());
    // Switching it off hands the car back to the (idle) keyboard.
    b.send(Command::SetAutopilot(false));
    let s = b.run(10);
    assert!(!s.hud.autopilot);
    assert!(s.snapshot.controls.throttle.abs() < 1e-12);
}

#[test]
fn autopilot_is_refused_on_the_flat_plane() {
    let mut b = Bench::new("flat", true);
    let s = b.run(10);
    assert!(!s.hud.autopilot);
}

#[test]
fn swap_replaces_the_session_and_returns_the_old_one() {
    let mut b = Bench::new("flat", false);
    let before = b.run(100);
    let next = Session::load("corvette-c5", "circuit").unwrap();
    let start = next.start_pose();
    b.send(Command::Swap(Box::new(next)));
    let s = b.run(1);
    assert_eq!(s.epoch, before.epoch + 1);
    assert_eq!(s.tick, 1);
    assert!(s.snapshot.position.distance(start.position) < 0.05);
    let retired = std::iter::from_fn(|| b.ui.events.pop().ok())
        .find(|e| matches!(e, SimEvent::Retired(Retired::Session(_))));
    match retired {
        Some(SimEvent::Retired(Retired::Session(old))) => {
            assert_eq!(old.world().name(), "flat");
        }
        other => panic!("expected the old session back, got {other:?}"),
    }
}

/// What an observer of the sim core saw, shared with the test.
#[derive(Default)]
struct Seen {
    cars: Vec<String>,
    ticks: u32,
    paused_ticks: u32,
}

/// Records what it sees; fails on tick `fail_at` (0: never).
struct Watcher {
    seen: Arc<std::sync::Mutex<Seen>>,
    fail_at: u32,
}

impl TickObserver for Watcher {
    fn start(
        &mut self,
        vehicle: &Vehicle,
        _sound: &SoundParams,
        _step_s: f64,
    ) -> anyhow::Result<()> {
        let mut seen = self.seen.lock().unwrap();
        seen.cars.push(vehicle.params().name.clone());
        Ok(())
    }

    fn tick(&mut self, _snapshot: &Snapshot, _step_s: f64, paused: bool) -> anyhow::Result<()> {
        let mut seen = self.seen.lock().unwrap();
        seen.ticks += 1;
        seen.paused_ticks += u32::from(paused);
        if seen.ticks == self.fail_at {
            anyhow::bail!("disk full");
        }
        Ok(())
    }
}

#[test]
fn the_observer_starts_with_each_car_and_sees_every_tick() {
    let mut b = Bench::new("flat", false);
    let seen = Arc::new(std::sync::Mutex::new(Seen::default()));
    b.core.set_observer(Box::new(Watcher {
        seen: Arc::clone(&seen),
        fail_at: 0,
    }));
    b.run(10);
    b.send(Command::Pause);
    b.run(5);
    b.send(Command::Resume);
    b.send(Command::Swap(Box::new(
        Session::load("rally-awd", "flat").unwrap(),
    )));
    b.run(5);
    let seen = seen.lock().unwrap();
    assert_eq!(
        seen.cars.len(),
        2,
        "started with the first car and the swapped one"
    );
    assert_ne!(seen.cars[0], seen.cars[1]);
    assert_eq!(seen.ticks, 20);
    assert_eq!(seen.paused_ticks, 5);
}

#[test]
fn a_failing_observer_is_detached_and_reported_while_the_sim_runs_on() {
    let mut b = Bench::new("flat", false);
    let seen = Arc::new(std::sync::Mutex::new(Seen::default()));
    b.core.set_observer(Box::new(Watcher {
        seen: Arc::clone(&seen),
        fail_at: 3,
    }));
    let s = b.run(10);
    assert_eq!(s.tick, 10, "the sim runs on");
    assert_eq!(seen.lock().unwrap().ticks, 3, "not called after its error");
    let failed = std::iter::from_fn(|| b.ui.events.pop().ok()).find_map(|e| match e {
        SimEvent::ObserverFailed(error) => Some(error.to_string()),
        _ => None,
    });
    assert_eq!(failed.as_deref(), Some("disk full"));
}

#[test]
fn ffb_kill_switch_shows_in_the_hud() {
    let mut b = Bench::new("flat", false);
    b.send(Command::KillFfb);
    assert!(b.run(2).hud.ffb_killed);
    b.send(Command::EnableFfb);
    assert!(!b.run(2).hud.ffb_killed);
    // F12 is the kill-switch binding: one press toggles.
    b.keys.key(key::F12, true);
    assert!(b.run(2).hud.ffb_killed);
}

#[test]
fn column_torque_reaches_the_ffb_backend_every_tick_and_a_failure_stops_it() {
    let (rig, recording, fail, _) = recording_rig();
    let mut b = Bench::with_rig("flat", false, rig);
    b.keys.key(key::UP, true);
    b.run(2000);
    b.keys.key(key::UP, false);
    b.keys.key(key::LEFT, true);
    let s = b.run(500);
    let levels = recording.levels();
    assert!(levels.len() >= 2500, "one level per tick: {}", levels.len());
    assert!(
        s.hud.ffb_level.abs() > 0.01,
        "a turning car pulls the wheel: {:?}",
        s.hud
    );
    assert!((levels.last().unwrap().1 - s.hud.ffb_level).abs() < 1e-12);
    // The device fails: force feedback stops, once, and says so.
    fail.store(true, std::sync::atomic::Ordering::SeqCst);
    let s = b.run(100);
    assert!(s.hud.ffb_level.abs() < 1e-12);
    let failures = std::iter::from_fn(|| b.ui.events.pop().ok())
        .filter(|e| matches!(e, SimEvent::FfbFailed))
        .count();
    assert_eq!(failures, 1);
    // Exit zeroes and stops the device.
    fail.store(false, std::sync::atomic::Ordering::SeqCst);
    b.core.shutdown();
    let entries = recording.entries();
    assert_eq!(entries.last().unwrap().command, Ffb::Stop);
}

#[test]
fn the_autopilot_choice_survives_a_swap_through_a_world_without_a_line() {
    let mut b = Bench::new("circuit", true);
    assert!(b.run(10).hud.autopilot);
    b.send(Command::Swap(Box::new(
        Session::load("corvette-c5", "flat").unwrap(),
    )));
    assert!(!b.run(10).hud.autopilot);
    b.send(Command::Swap(Box::new(
        Session::load("corvette-c5", "circuit").unwrap(),
    )));
    let s = b.run(10);
    assert!(s.hud.autopilot);
    assert_eq!(s.epoch, 2);
}

#[test]
fn new_bindings_apply_mid_drive_and_come_back_to_be_freed() {
    use gripline_input::settings::bindings::{ButtonAction, ButtonBinding};
    use gripline_input::settings::device_identity::DeviceMatch;
    let mut b = Bench::new("flat", false);
    b.run(10);
    // Throttle moves from the up arrow to the letter A.
    let mut bindings = Bindings::default();
    bindings
        .buttons
        .retain(|x| !(x.action == ButtonAction::Throttle && x.device == DeviceMatch::Keyboard));
    bindings.buttons.push(ButtonBinding {
        action: ButtonAction::Throttle,
        device: DeviceMatch::Keyboard,
        button: key::A,
    });
    b.send(Command::ApplyBindings(Box::new(bindings)));
    b.keys.key(key::UP, true);
    assert!(b.run(300).snapshot.controls.throttle.abs() < 1e-12);
    b.keys.key(key::UP, false);
    b.keys.key(key::A, true);
    assert!(b.run(300).snapshot.controls.throttle > 0.9);
    let old = std::iter::from_fn(|| b.ui.events.pop().ok())
        .find(|e| matches!(e, SimEvent::Retired(Retired::Bindings(_))));
    assert!(old.is_some(), "the applied bindings come back to the UI");
}

#[test]
fn ffb_tests_play_while_paused_and_raw_input_reaches_the_ui() {
    let (rig, recording, _, peak) = recording_rig();
    let mut b = Bench::with_rig("flat", false, rig);
    b.run(10);
    b.send(Command::Pause);
    b.run(50);
    let paused_level = recording.levels().last().unwrap().1;
    assert!(
        paused_level.abs() < 1e-12,
        "paused: no torque ({paused_level})"
    );
    // Half the maximum torque to the left: the level goes positive (left) while paused.
    b.send(Command::FfbTest(FfbTest::PulseLeft(0.5 * peak)));
    let s = b.run(300);
    assert!(s.hud.paused);
    let level = recording.levels().last().unwrap().1;
    assert!(level > 0.2, "a left pulse pushes left: {level}");
    b.send(Command::FfbTest(FfbTest::PulseRight(0.5 * peak)));
    b.run(300);
    let level = recording.levels().last().unwrap().1;
    assert!(level < -0.2, "a right pulse pushes right: {level}");
    // After the pulse the paused sim sends nothing again.
    b.run(1000);
    let level = recording.levels().last().unwrap().1;
    assert!(level.abs() < 1e-12, "over: {level}");

    // Every device event also reaches the UI's raw ring (the keyboard's connection first).
    b.keys.key(key::UP, true);
    b.run(2);
    let raw: Vec<_> = std::iter::from_fn(|| b.ui.raw_input.pop().ok()).collect();
    assert!(
        raw.iter().any(|e| matches!(e, gripline_input::device::InputEvent::Button { button, pressed: true, .. } if *button == key::UP)),
        "{raw:?}"
    );
}

/// While the settings screen holds the pause, neither a command nor the pause binding on a
/// device resumes the simulation; after the hold the player resumes as usual.
#[test]
fn a_held_pause_survives_every_resume_until_released() {
    let mut b = Bench::new("flat", false);
    let before = b.run(100);
    b.send(Command::HoldPause(true));
    let held = b.run(50);
    assert!(held.hud.paused, "holding pauses");
    b.send(Command::Resume);
    b.send(Command::TogglePause);
    // The keyboard's pause binding (Escape), pressed and released.
    b.keys.key(key::ESCAPE, true);
    b.run(20);
    b.keys.key(key::ESCAPE, false);
    let still = b.run(200);
    assert!(still.hud.paused, "nothing resumes a held pause");
    assert_eq!(still.tick, before.tick, "no physics step while held");
    b.send(Command::HoldPause(false));
    assert!(
        b.run(50).hud.paused,
        "releasing the hold does not resume by itself"
    );
    b.send(Command::Resume);
    let resumed = b.run(100);
    assert!(!resumed.hud.paused);
    assert!(resumed.tick > before.tick);
}

/// A test played with facts edited on the settings screen (here: invert ticked, not applied)
/// pushes the way the edited facts say; Cancel (no preview) plays the device's own way.
#[test]
fn a_test_plays_the_edited_device_facts() {
    let (rig, recording, _, peak) = recording_rig();
    let mut b = Bench::with_rig("flat", false, rig);
    assert!((FfbTest::PULSE_S - 1.0).abs() < 1e-12);
    b.run(10);
    b.send(Command::Pause);
    b.run(50);
    let edited = FfbDeviceFacts {
        peak_torque_nm: peak,
        invert: true,
        ..FfbDeviceFacts::no_device(&FfbSettings::default())
    };
    b.send(Command::PreviewFfbFacts(Some(edited)));
    b.send(Command::FfbTest(FfbTest::PulseLeft(0.5 * peak)));
    b.run(990); // the pulse lasts FfbTest::PULSE_S (1 s)
    let level = recording.last_level().unwrap();
    assert!(
        level < -0.2,
        "inverted: a left pulse is sent negative ({level})"
    );
    b.run(500);
    b.send(Command::PreviewFfbFacts(None));
    b.send(Command::FfbTest(FfbTest::PulseLeft(0.5 * peak)));
    b.run(990); // the pulse lasts FfbTest::PULSE_S (1 s)
    let level = recording.last_level().unwrap();
    assert!(level > 0.2, "the device's own facts again ({level})");
}

/// Auto-gain at the end of a lap only proposes, by at most x1.25 of the gain in force: the
/// rig's settings and pipeline do not change.
#[test]
fn auto_gain_proposes_without_applying() {
    use gripline_input::ffb::effects::FeelInput;
    use gripline_input::ffb::effects::auto_gain::{MAX_RISE_PER_LAP, MIN_TICKS};
    use gripline_sim::realtime::rig::RigTorque;
    let backend = RecordingBackend::new(Clock::Manual(ManualClock::new()));
    let mut settings = FfbSettings {
        fade_in_s: 0.0,
        normalise_car_torque: false,
        ..FfbSettings::default()
    };
    settings.effects.auto_gain = true;
    let facts = FfbDeviceFacts {
        peak_torque_nm: 8.0,
        ..FfbDeviceFacts::no_device(&settings)
    };
    let mut rig = Rig::new(
        &Bindings::default(),
        &settings,
        FfbLink {
            backend: Box::new(backend),
            facts,
        },
    );
    rig.start_ffb(Duration::ZERO);
    // A gentle lap: 0.2 N·m at gain 1 would want a gain of about 20.
    let feel = FeelInput {
        speed_m_s: 30.0,
        ..FeelInput::default()
    };
    for tick in 0..=MIN_TICKS {
        let now = Duration::from_millis(tick);
        let torque = RigTorque::Car {
            column_nm: 0.2,
            feel,
        };
        rig.ffb_tick(now, Some(torque), 0.0, 0.001).unwrap();
    }
    let proposal = rig.lap_completed().expect("enough driving for a proposal");
    assert!(
        (proposal - MAX_RISE_PER_LAP * settings.gain).abs() < 1e-12,
        "{proposal}"
    );
    assert!(
        (rig.ffb_settings().gain - settings.gain).abs() < 1e-12,
        "not applied"
    );
    assert!((rig.ffb().pipeline().params().gain - settings.gain).abs() < 1e-12);
}

/// A force-feedback link through a real writer thread (no watchdog) over a recording backend
/// failing with `failure` once its switch is set: the link, the recording, the switch and
/// the writer's control.
fn writer_link(
    settings: &FfbSettings,
    failure: FfbError,
) -> (
    FfbLink,
    Recording,
    Arc<AtomicBool>,
    gripline_input::ffb::writer::WriterControl,
) {
    let backend = RecordingBackend::new(Clock::Real(Instant::now())).with_failure(failure);
    let recording = backend.recording();
    let fail = backend.failure_switch();
    let writer = FfbWriter::spawn(
        backend,
        WriterConfig {
            watchdog: None,
            ..WriterConfig::default()
        },
    )
    .expect("writer thread");
    let control = writer.control().expect("running");
    let link = FfbLink {
        backend: Box::new(writer),
        facts: FfbDeviceFacts::no_device(settings),
    };
    (link, recording, fail, control)
}

fn no_fade() -> FfbSettings {
    FfbSettings {
        fade_in_s: 0.0,
        ..FfbSettings::default()
    }
}

/// Drives off and turns left, so that the wheel is pulled; returns the newest snapshot.
fn drive_and_turn(b: &mut Bench) -> Stamped {
    b.keys.key(key::UP, true);
    b.run(1500);
    b.keys.key(key::LEFT, true);
    b.run(300)
}

fn drain_events(b: &mut Bench) -> Vec<SimEvent> {
    std::iter::from_fn(|| b.ui.events.pop().ok()).collect()
}

#[test]
fn a_writer_failing_with_an_io_error_is_reported_for_a_reconnect() {
    let settings = no_fade();
    let (link, _recording, fail, _control) =
        writer_link(&settings, FfbError::Io("Input/output error".to_owned()));
    let rig = Rig::new(&Bindings::default(), &settings, link);
    let mut b = Bench::with_rig("flat", false, rig);
    let s = drive_and_turn(&mut b);
    assert!(s.hud.ffb_level.abs() > 0.01, "{:?}", s.hud);
    fail.store(true, std::sync::atomic::Ordering::SeqCst);
    // The writer thread meets the error at its next write; the sim hears of it at its next
    // send.
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut events = Vec::new();
    while !events.iter().any(|e| matches!(e, SimEvent::FfbFailed)) {
        assert!(Instant::now() < deadline, "the failure was never reported");
        b.run(1);
        events.extend(drain_events(&mut b));
        std::thread::sleep(Duration::from_micros(500));
    }
    let s = b.run(10);
    assert!(s.hud.ffb_level.abs() < 1e-12, "stopped");
    assert!(!s.hud.ffb_emergency_stopped);
    events.extend(drain_events(&mut b));
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, SimEvent::FfbEmergencyStopped)),
        "an I/O error is an unplug, not an emergency stop"
    );
}

#[test]
fn after_the_emergency_stop_ffb_stays_off_until_the_user_re_enables_it() {
    let settings = no_fade();
    let (link, first, _, control) = writer_link(&settings, FfbError::Disconnected);
    let rig = Rig::new(&Bindings::default(), &settings, link);
    let mut b = Bench::with_rig("flat", false, rig);
    let s = drive_and_turn(&mut b);
    assert!(s.hud.ffb_level.abs() > 0.01, "{:?}", s.hud);

    // The panic hook's path: `emergency::stop_all` stops each writer like this.
    assert!(control.emergency_stop(Duration::from_secs(5)));
    assert_eq!(first.entries().last().map(|r| r.command), Some(Ffb::Stop));
    let s = b.run(100);
    assert!(s.hud.ffb_emergency_stopped, "the screen can say so");
    assert!(s.hud.ffb_level.abs() < 1e-12);
    let events = drain_events(&mut b);
    let emergencies = events
        .iter()
        .filter(|e| matches!(e, SimEvent::FfbEmergencyStopped))
        .count();
    assert_eq!(emergencies, 1, "told once: {events:?}");
    assert!(
        !events.iter().any(|e| matches!(e, SimEvent::FfbFailed)),
        "not reconnected automatically"
    );

    // A link opened meanwhile (a replug, a settings change) is held at zero.
    let (second_link, second, _, _) = writer_link(&settings, FfbError::Disconnected);
    b.send(Command::SetFfbLink(Box::new(second_link)));
    let s = b.run(300);
    assert!(s.hud.ffb_emergency_stopped);
    assert!(s.hud.ffb_level.abs() < 1e-12);
    // Pause and resume do not lift it either.
    b.send(Command::Pause);
    b.run(10);
    b.send(Command::Resume);
    let s = b.run(300);
    assert!(s.hud.ffb_emergency_stopped);
    assert!(s.hud.ffb_level.abs() < 1e-12);

    // The user turns force feedback back on: the UI is asked to open the device again.
    b.send(Command::EnableFfb);
    let s = b.run(100);
    assert!(!s.hud.ffb_emergency_stopped);
    assert!(s.hud.ffb_level.abs() < 1e-12, "off until the new link");
    let events = drain_events(&mut b);
    assert!(
        events.iter().any(|e| matches!(e, SimEvent::FfbReopen)),
        "{events:?}"
    );
    assert!(
        second.levels().iter().all(|&(_, l)| l.abs() < 1e-12),
        "the held link never pulled"
    );
    let (third_link, third, _, _) = writer_link(&settings, FfbError::Disconnected);
    b.send(Command::SetFfbLink(Box::new(third_link)));
    let s = b.run(300);
    assert!(s.hud.ffb_level.abs() > 0.01, "driving again: {:?}", s.hud);
    let deadline = Instant::now() + Duration::from_secs(10);
    while !third.levels().iter().any(|&(_, l)| l.abs() > 0.01) {
        assert!(Instant::now() < deadline, "the new writer never drove");
        b.run(1);
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[test]
fn a_hold_pauses_at_its_tick_where_a_session_stepped_alone_stands() {
    // The window's `--hold-at` and `gripline render --at` must show the same instant: the
    // core held at 1.5 s of autopilot against the same session stepped alone, as
    // `gripline render` steps it. Both are the same deterministic code, so the positions
    // agree to the last bit (tolerance 1e-9 m only guards the comparison itself).
    let hold = 1500;
    let mut b = Bench::new("circuit", true);
    b.core.hold_at_tick(Some(hold));
    let held = b.run(3000);
    assert!(b.core.paused() && held.hud.paused);
    assert_eq!(held.tick, hold);
    assert!(
        (held.snapshot.time_s - 1.5).abs() < 1e-9,
        "{}",
        held.snapshot.time_s
    );

    let mut alone = Session::load("corvette-c5", "circuit").unwrap();
    for _ in 0..alone.ticks_in(1.5) {
        let controls = alone.autopilot_controls().unwrap_or_default();
        assert!(alone.step(&controls));
    }
    let d = alone.snapshot().position.distance(held.snapshot.position);
    // 1.5 s of a launch covers several metres: the car moved, and to the same place.
    assert!(alone.snapshot().position.distance(DVec3::ZERO) > 0.0);
    assert!(
        d < 1e-9,
        "held {:?} vs alone {:?}",
        held.snapshot.position,
        alone.snapshot().position
    );

    // Once: a resume goes on driving.
    b.send(Command::Resume);
    let resumed = b.run(10);
    assert_eq!(resumed.tick, hold + 10);
}

#[test]
fn a_hold_at_tick_zero_pauses_before_the_first_step() {
    let mut b = Bench::new("circuit", true);
    b.core.hold_at_tick(Some(0));
    let held = b.run(50);
    assert_eq!((held.tick, held.snapshot.time_s), (0, 0.0));
    assert!(held.hud.paused);
}

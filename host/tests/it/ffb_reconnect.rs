//! Force feedback across an unplug and a replug mid-drive, through the same pieces the
//! window uses: a scripted wheel (the same events as a real one) bound to steering, the sim
//! core, the force-feedback connector thread with a scripted opener in place of
//! `wheel_setup::open_ffb`, and the UI's forwarding of events and links.
//!
//! The wheel is unplugged: its writes fail, force feedback stops, the session pauses (its
//! steering was lost). It comes back: the connector reopens it at once (plug notice), the
//! new link is swapped in, the driver resumes and the torque fades in from zero; the
//! steering binding works as before.
//!
//! A writer the emergency stop stopped (the panic hook's path) is not reopened: only the
//! user's re-enable makes the connector open the wheel again.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use gripline_config::Settings;
use gripline_host::ffb_connector::{FIRST_RETRY, FfbConnector};
use gripline_host::wheel_setup::{LinkStatus, OpenedFfb};
use gripline_input::bindings::InputNotice;
use gripline_input::device::{AxisRange, DeviceId, ScriptedDevice, ScriptedStep};
use gripline_input::ffb::backend::FfbBackend;
use gripline_input::ffb::device_facts::FfbDeviceFacts;
use gripline_input::ffb::recording::{Clock, ManualClock, Recording, RecordingBackend};
use gripline_input::ffb::writer::{FfbWriter, WriterConfig};
use gripline_input::known_wheels::FfbBackendKind;
use gripline_input::settings::axis_calibration::AxisCalibration;
use gripline_input::settings::bindings::{AxisBinding, AxisControl, Bindings};
use gripline_input::settings::device_identity::{DeviceIdentity, DeviceKind, DeviceMatch};
use gripline_sim::realtime::commands::{Command, FfbTest, SimEvent};
use gripline_sim::realtime::rig::{FfbLink, Rig};
use gripline_sim::realtime::sim_core::{SimCore, UiRings, core_rings};
use gripline_sim::realtime::stats::SharedStats;
use gripline_sim::session::Session;

const STEER_AXIS: u32 = 0;
const RANGE: AxisRange = AxisRange {
    min: 0,
    max: 65_535,
};

fn wheel_id() -> DeviceIdentity {
    DeviceIdentity::new(
        0x046d,
        0xc24f,
        "Logitech G29 Driving Force Racing Wheel",
        "",
    )
}

fn settings() -> Settings {
    Settings {
        bindings: Bindings {
            axes: vec![AxisBinding {
                control: AxisControl::Steering,
                device: DeviceMatch::Device(wheel_id()),
                axis: STEER_AXIS,
                calibration: AxisCalibration::default(),
                rotation_deg: 900.0,
            }],
            ..Bindings::default()
        },
        ..Settings::default()
    }
}

fn steer(value: i32) -> ScriptedStep {
    ScriptedStep::Axis {
        axis: STEER_AXIS,
        value,
        range: RANGE,
    }
}

/// A link to a recording "wheel" with the G29's facts.
fn recording_link(settings: &Settings) -> (FfbLink, Recording, Arc<AtomicBool>) {
    let backend = RecordingBackend::new(Clock::Manual(ManualClock::new()));
    let recording = backend.recording();
    let fail = backend.failure_switch();
    let facts = FfbDeviceFacts::resolve(&settings.ffb, &wheel_id(), Some(900.0));
    (
        FfbLink {
            backend: Box::new(backend) as Box<dyn FfbBackend + Send>,
            facts,
        },
        recording,
        fail,
    )
}

struct Window {
    core: SimCore,
    rings: UiRings,
    now: Duration,
    connector: FfbConnector,
    paused: bool,
    emergency: bool,
}

impl Window {
    /// One tick, then what the window does with the sim's events and the connector's links.
    fn tick(&mut self) {
        self.now += Duration::from_millis(1);
        self.core.tick(self.now);
        while let Some(s) = self.rings.snapshots.pop() {
            self.paused = s.hud.paused;
            self.emergency = s.hud.ffb_emergency_stopped;
        }
        while let Ok(event) = self.rings.events.pop() {
            match event {
                SimEvent::FfbFailed => self.connector.device_failed(),
                SimEvent::FfbReopen => self.connector.reenable(),
                SimEvent::Input(InputNotice::DeviceConnected { .. }) => {
                    self.connector.device_plugged();
                }
                _ => {}
            }
        }
        if let Some(opened) = self.connector.poll() {
            self.rings
                .commands
                .push(Command::SetFfbLink(Box::new(opened.link)))
                .expect("room");
        }
    }

    fn run(&mut self, ticks: u32) {
        for _ in 0..ticks {
            self.tick();
        }
    }
}

#[test]
fn unplug_and_replug_mid_drive_fades_back_in_with_bindings_intact() {
    let s = settings();
    let (first, first_recording, first_fails) = recording_link(&s);
    let mut rig = Rig::new(&s.bindings, &s.ffb, first);
    // Plugged at 0, turned a quarter to the left, unplugged at 1 s, back at 1.5 s where it
    // reports the same position.
    let quarter_left = 65_535 / 2 - 65_535 / 8;
    rig.add_input(Box::new(
        ScriptedDevice::new(DeviceId(1), wheel_id(), DeviceKind::Wheel)
            .at_ms(0, ScriptedStep::Connect)
            .at_ms(1, steer(quarter_left))
            .at_ms(1000, ScriptedStep::Disconnect)
            .at_ms(1500, ScriptedStep::Connect)
            .at_ms(1500, steer(quarter_left)),
    ));
    let (rings, ui) = core_rings(64);
    let session = Session::load("corvette-c5", "flat").expect("shipped car");
    let core = SimCore::new(session, rig, rings, Arc::new(SharedStats::default()), false);

    // The scripted opener: the wheel is absent until `present` is set; then it opens a new
    // recording backend (the replugged device), which the test keeps the recording of.
    let present = Arc::new(AtomicBool::new(false));
    let attempts = Arc::new(AtomicUsize::new(0));
    let (second, second_recording, _) = recording_link(&s);
    let mut second = Some(second);
    let opener = {
        let present = Arc::clone(&present);
        let attempts = Arc::clone(&attempts);
        move |settings: &Settings| {
            attempts.fetch_add(1, Ordering::SeqCst);
            match (present.load(Ordering::SeqCst), second.take()) {
                (true, Some(link)) => OpenedFfb {
                    link,
                    backend: FfbBackendKind::EvdevConstant,
                    device: Some(wheel_id()),
                    summary: "FFB: scripted G29".to_owned(),
                    status: LinkStatus::Linked,
                    control: None,
                },
                _ => OpenedFfb {
                    link: FfbLink::none(&settings.ffb),
                    backend: FfbBackendKind::None,
                    device: None,
                    summary: "FFB: none (unplugged)".to_owned(),
                    status: LinkStatus::Failed,
                    control: None,
                },
            }
        }
    };
    let connector =
        FfbConnector::spawn(opener, s.clone(), LinkStatus::Linked, None).expect("thread");
    let mut ui = Window {
        core,
        rings: ui,
        now: Duration::ZERO,
        connector,
        paused: false,
        emergency: false,
    };

    ui.run(900);
    let steering_before = ui
        .core
        .session()
        .vehicle()
        .snapshot()
        .controls
        .steering_wheel_rad;
    assert!(
        (steering_before - 112.5f64.to_radians()).abs() < 0.01,
        "a quarter of 900° to the left: {steering_before}"
    );
    // Unplugged: the writes fail at once, the steering device is lost.
    first_fails.store(true, Ordering::SeqCst);
    ui.run(200);
    assert!(ui.paused, "losing the steering pauses the session");
    assert!(ui.core.session().vehicle().snapshot().time_s > 0.8);
    let levels_after_unplug = first_recording.levels().len();

    // Retries while it is away open nothing.
    ui.run(300);
    assert!(second_recording.levels().is_empty());
    // Plugged back (the scripted device reconnects at 1.5 s): the plug notice makes the
    // connector reopen at once.
    present.store(true, Ordering::SeqCst);
    let deadline = Instant::now() + Duration::from_secs(10);
    while second_recording.levels().is_empty() {
        ui.tick();
        std::thread::sleep(Duration::from_micros(200));
        assert!(
            Instant::now() < deadline,
            "the wheel was not reopened ({} attempts)",
            attempts.load(Ordering::SeqCst)
        );
    }
    assert_eq!(
        first_recording.levels().len(),
        levels_after_unplug,
        "nothing more is sent to the unplugged device"
    );
    assert!(ui.paused, "still paused until the driver resumes");

    // The driver resumes; a pulse to the left plays and fades in from zero over 0.5 s.
    ui.rings.commands.push(Command::Resume).expect("room");
    ui.rings
        .commands
        .push(Command::FfbTest(FfbTest::PulseLeft(2.0)))
        .expect("room");
    ui.run(700);
    let levels = second_recording.levels();
    let n = levels.len();
    assert!(n >= 700, "one level per tick on the new device: {n}");
    let tail: Vec<f64> = levels[n - 700..].iter().map(|(_, l)| *l).collect();
    let full = 2.0 / ui.core.rig().ffb_facts().peak_torque_nm;
    assert!(tail[1] < 0.05 * full, "starts from zero: {}", tail[1]);
    assert!(
        (tail[250] - 0.5 * full).abs() < 0.1 * full,
        "half-way through the fade-in: {} of {full}",
        tail[250]
    );
    assert!(
        (tail[650] - full).abs() < 0.02 * full,
        "full: {}",
        tail[650]
    );
    assert!(
        tail.windows(2).take(500).all(|w| w[1] >= w[0] - 1e-12),
        "monotonic fade"
    );
    // Bindings intact: the replugged wheel steers as before.
    let steering_after = ui
        .core
        .session()
        .vehicle()
        .snapshot()
        .controls
        .steering_wheel_rad;
    assert!(
        (steering_after - steering_before).abs() < 1e-9,
        "{steering_after} vs {steering_before}"
    );
}

#[test]
fn an_emergency_stopped_writer_is_reopened_only_when_the_user_re_enables() {
    let s = settings();
    let backend = RecordingBackend::new(Clock::Real(Instant::now()));
    let writer = FfbWriter::spawn(
        backend,
        WriterConfig {
            watchdog: None,
            ..WriterConfig::default()
        },
    )
    .expect("writer thread");
    let control = writer.control().expect("running");
    let facts = FfbDeviceFacts::resolve(&s.ffb, &wheel_id(), Some(900.0));
    let rig = Rig::new(
        &s.bindings,
        &s.ffb,
        FfbLink {
            backend: Box::new(writer),
            facts,
        },
    );
    let (rings, ui) = core_rings(64);
    let session = Session::load("corvette-c5", "flat").expect("shipped car");
    let core = SimCore::new(session, rig, rings, Arc::new(SharedStats::default()), false);
    let attempts = Arc::new(AtomicUsize::new(0));
    let (reopened, reopened_recording, _) = recording_link(&s);
    let mut reopened = Some(reopened);
    let opener = {
        let attempts = Arc::clone(&attempts);
        move |settings: &Settings| {
            attempts.fetch_add(1, Ordering::SeqCst);
            OpenedFfb {
                link: reopened
                    .take()
                    .unwrap_or_else(|| FfbLink::none(&settings.ffb)),
                backend: FfbBackendKind::EvdevConstant,
                device: Some(wheel_id()),
                summary: "FFB: scripted G29".to_owned(),
                status: LinkStatus::Linked,
                control: None,
            }
        }
    };
    let connector =
        FfbConnector::spawn(opener, s.clone(), LinkStatus::Linked, Some(control.clone()))
            .expect("thread");
    let mut ui = Window {
        core,
        rings: ui,
        now: Duration::ZERO,
        connector,
        paused: false,
        emergency: false,
    };
    ui.run(200);
    assert!(!ui.emergency);

    // The panic hook's emergency stop, for this writer.
    assert!(control.emergency_stop(Duration::from_secs(5)));
    // Well past the connector's first retry delay: nothing is reopened.
    let until = Instant::now() + FIRST_RETRY * 3;
    while Instant::now() < until {
        ui.tick();
        std::thread::sleep(Duration::from_micros(500));
    }
    assert!(ui.emergency, "the screen says so");
    assert_eq!(
        attempts.load(Ordering::SeqCst),
        0,
        "not reopened on its own"
    );

    // The user turns force feedback back on: the wheel is opened again and driven.
    ui.rings.commands.push(Command::EnableFfb).expect("room");
    ui.rings
        .commands
        .push(Command::FfbTest(FfbTest::PulseLeft(2.0)))
        .expect("room");
    let deadline = Instant::now() + Duration::from_secs(10);
    while !reopened_recording
        .levels()
        .iter()
        .any(|&(_, l)| l.abs() > 1e-3)
    {
        ui.tick();
        std::thread::sleep(Duration::from_micros(200));
        assert!(Instant::now() < deadline, "the wheel was not reopened");
    }
    assert!(!ui.emergency);
    assert_eq!(attempts.load(Ordering::SeqCst), 1);
}

//! The direction check through the sim core, as the settings screen runs it: the sim is
//! paused, [`Command::CheckFfbDirection`] plays a small pulse to the left after the fade-in,
//! and the answer comes back as [`SimEvent::FfbDirection`]. The wheel is a simulated rim
//! (support/rim.rs) bound to steering, turned by the level the recording backend received.

use crate::support::rim;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use gripline_input::ffb::device_facts::FfbDeviceFacts;
use gripline_input::ffb::direction_check::{
    DIRECTION_MIN_MOVE_RAD, DIRECTION_PULSE_FRACTION, DirectionOutcome, Inconclusive,
};
use gripline_input::ffb::recording::{Clock, ManualClock, Recording, RecordingBackend};
use gripline_input::settings::axis_calibration::AxisCalibration;
use gripline_input::settings::bindings::{AxisBinding, AxisControl, Bindings};
use gripline_input::settings::device_identity::{DeviceIdentity, DeviceMatch};
use gripline_input::settings::ffb_settings::FfbSettings;
use gripline_sim::realtime::commands::{Command, FfbTest, SimEvent};
use gripline_sim::realtime::rig::{FfbLink, Rig};
use gripline_sim::realtime::sim_core::{SimCore, UiRings, core_rings};
use gripline_sim::realtime::stats::SharedStats;
use gripline_sim::session::Session;
use rim::{Rim, RimDevice};

const PEAK_NM: f64 = 9.0;
const MAX_NM: f64 = 5.0;

struct Bench {
    core: SimCore,
    ui: UiRings,
    recording: Recording,
    rim: Arc<Mutex<Rim>>,
    now: Duration,
}

impl Bench {
    /// The C5 parked, paused, its steering bound to `rim`, force feedback on a `PEAK_NM` base
    /// driven with `invert`, the default fade-in (0.5 s).
    fn new(rim: Rim, invert: bool) -> Self {
        let settings = FfbSettings {
            max_torque_nm: MAX_NM,
            ..FfbSettings::default()
        };
        let identity = DeviceIdentity::new(0x346e, 0x0002, "Moza R9", "");
        let bindings = Bindings {
            axes: vec![AxisBinding {
                control: AxisControl::Steering,
                device: DeviceMatch::Device(identity.clone()),
                axis: 0,
                calibration: AxisCalibration::default(),
                rotation_deg: rim.rotation_deg,
            }],
            ..Bindings::default()
        };
        let backend = RecordingBackend::new(Clock::Manual(ManualClock::new()));
        let recording = backend.recording();
        let facts = FfbDeviceFacts {
            peak_torque_nm: PEAK_NM,
            invert,
            rotation_deg: rim.rotation_deg,
            ..FfbDeviceFacts::no_device(&settings)
        };
        let mut rig = Rig::new(
            &bindings,
            &settings,
            FfbLink {
                backend: Box::new(backend),
                facts,
            },
        );
        let rim = Arc::new(Mutex::new(rim));
        rig.add_input(Box::new(RimDevice::new(
            rim.clone(),
            recording.clone(),
            identity,
        )));
        let (rings, ui) = core_rings(64);
        let session = Session::load("corvette-c5", "flat").expect("shipped car");
        let core = SimCore::new(session, rig, rings, Arc::new(SharedStats::default()), false);
        let mut bench = Self {
            core,
            ui,
            recording,
            rim,
            now: Duration::ZERO,
        };
        bench.send(Command::Pause);
        bench.run(100);
        bench
    }

    fn send(&mut self, command: Command) {
        self.ui.commands.push(command).expect("room in the queue");
    }

    /// Runs `ticks` ticks; returns the events.
    fn run(&mut self, ticks: u32) -> Vec<SimEvent> {
        let mut events = Vec::new();
        for _ in 0..ticks {
            self.now += Duration::from_millis(1);
            self.core.tick(self.now);
            while self.ui.snapshots.pop().is_some() {}
            while let Ok(e) = self.ui.events.pop() {
                events.push(e);
            }
        }
        events
    }

    /// Runs the direction check; returns its outcome, the invert it reports, and the largest
    /// level sent meanwhile.
    fn check(&mut self) -> (DirectionOutcome, bool, f64) {
        let from = self.recording.levels().len();
        self.send(Command::CheckFfbDirection);
        for _ in 0..3000 {
            for event in self.run(1) {
                if let SimEvent::FfbDirection { outcome, invert } = event {
                    let levels = self.recording.levels();
                    let strongest = levels[from..]
                        .iter()
                        .map(|(_, l)| l.abs())
                        .fold(0.0, f64::max);
                    return (outcome, invert, strongest);
                }
            }
        }
        panic!("no answer within 3 s");
    }
}

#[test]
fn a_correct_wheel_is_ok_and_a_backwards_one_is_proposed_the_other_invert() {
    // (the base's own direction, the invert it is driven with, the right answer)
    for (reversed, invert, right) in [
        (false, false, true),
        (true, false, false),
        (true, true, true),
        (false, true, false),
    ] {
        let case = format!("reversed {reversed}, driven with invert {invert}");
        let mut b = Bench::new(Rim::new(PEAK_NM, reversed, 0.0), invert);
        let (outcome, reported_invert, strongest) = b.check();
        assert_eq!(reported_invert, invert, "{case}");
        match outcome {
            DirectionOutcome::Correct { moved_rad } if right => {
                assert!(moved_rad >= DIRECTION_MIN_MOVE_RAD, "{case}: {moved_rad}");
            }
            DirectionOutcome::Reversed { moved_rad } if !right => {
                assert!(moved_rad <= -DIRECTION_MIN_MOVE_RAD, "{case}: {moved_rad}");
            }
            other => panic!("{case}: {other:?}"),
        }
        // The pulse: 10 % of the user's maximum, never more.
        let pulse = DIRECTION_PULSE_FRACTION * MAX_NM / PEAK_NM;
        assert!(
            (strongest - pulse).abs() < 1e-9,
            "{case}: strongest level {strongest}, pulse {pulse}"
        );
        // Paused: force feedback is off again afterwards.
        b.run(20);
        assert_eq!(b.recording.last_level(), Some(0.0), "{case}");
    }
}

/// A hand holding the rim firmly: it moves with the rim (the inertia of the arms) and resists
/// any motion.
fn firm_grip(_angle_rad: f64, speed_rad_s: f64) -> f64 {
    -3.0 * speed_rad_s
}

#[test]
fn a_held_wheel_is_inconclusive() {
    let mut rim = Rim::new(PEAK_NM, true, 0.0);
    rim.inertia_kg_m2 = 0.5;
    rim.hand = firm_grip;
    let mut b = Bench::new(rim, false);
    let (outcome, _, _) = b.check();
    assert!(
        matches!(
            outcome,
            DirectionOutcome::Inconclusive(Inconclusive::TooLittle { moved_rad })
                if moved_rad.abs() < DIRECTION_MIN_MOVE_RAD
        ),
        "{outcome:?}"
    );
    let rim = b.rim.lock().unwrap().clone();
    assert!(rim.angle_rad.abs() < DIRECTION_MIN_MOVE_RAD, "{rim:?}");
}

#[test]
fn killed_force_feedback_is_inconclusive_and_a_test_effect_gives_way_to_the_check() {
    let mut b = Bench::new(Rim::new(PEAK_NM, false, 0.0), false);
    // A spring sweep is playing when the check is asked for: the check replaces it.
    b.send(Command::FfbTest(FfbTest::SpringSweep(MAX_NM)));
    b.run(50);
    let (outcome, _, _) = b.check();
    assert!(
        matches!(outcome, DirectionOutcome::Correct { .. }),
        "{outcome:?}"
    );
    // With the kill switch on nothing reaches the wheel.
    b.send(Command::KillFfb);
    let (outcome, _, strongest) = b.check();
    assert_eq!(
        outcome,
        DirectionOutcome::Inconclusive(Inconclusive::NoForce)
    );
    assert_eq!(strongest.to_bits(), 0f64.to_bits());
}

//! Every force-feedback safety rule, checked on the commands a recording backend received
//! and their timestamps (1 kHz ticks on a manual clock).

use std::sync::atomic::Ordering;
use std::time::Duration;

use gripline_input::ffb::backend::FfbError;
use gripline_input::ffb::device_facts::FfbDeviceFacts;
use gripline_input::ffb::output::FfbOutput;
use gripline_input::ffb::params::PipelineParams;
use gripline_input::ffb::pipeline::{FfbInput, FfbPipeline};
use gripline_input::ffb::recording::{Clock, Command, ManualClock, Recording, RecordingBackend};
use gripline_input::ffb::safety::{FfbSafety, SafetyConfig, SafetyState, StopReason};
use gripline_input::settings::ffb_settings::FfbSettings;

const DT: f64 = 0.001;
const PEAK_NM: f64 = 5.0;

struct Rig {
    out: FfbOutput<RecordingBackend>,
    rec: Recording,
    clock: ManualClock,
    backend_fails: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

fn peak_facts() -> FfbDeviceFacts {
    FfbDeviceFacts {
        peak_torque_nm: PEAK_NM,
        ..FfbDeviceFacts::no_device(&FfbSettings::default())
    }
}

fn rig(settings: &FfbSettings) -> Rig {
    let clock = ManualClock::new();
    let backend = RecordingBackend::new(Clock::Manual(clock.clone()));
    let rec = backend.recording();
    let backend_fails = backend.failure_switch();
    let pipeline = FfbPipeline::new(PipelineParams::new(settings, &peak_facts()), 1000);
    let safety = FfbSafety::new(SafetyConfig::from_settings(settings));
    Rig {
        out: FfbOutput::new(pipeline, safety, backend),
        rec,
        clock,
        backend_fails,
    }
}

fn fast() -> FfbSettings {
    FfbSettings {
        max_torque_nm: 4.0,
        soft_clip_knee: 1.0,
        slew_limit_nm_per_s: 1.0e6,
        ..FfbSettings::default()
    }
}

fn ms(t: u64) -> Duration {
    Duration::from_millis(t)
}

fn torque(nm: f64) -> FfbInput {
    FfbInput {
        column_torque_nm: nm,
        ..FfbInput::default()
    }
}

impl Rig {
    /// Ticks from `from` to `to` ms inclusive with `input` (None: no new physics value).
    fn run(&mut self, from: u64, to: u64, input: Option<FfbInput>) {
        for t in from..=to {
            self.clock.set(ms(t));
            self.out.tick(ms(t), input.as_ref(), DT).unwrap();
        }
    }

    fn level_at(&self, t: u64) -> f64 {
        let levels: Vec<f64> = self
            .rec
            .levels()
            .into_iter()
            .filter(|&(at, _)| at == ms(t))
            .map(|(_, l)| l)
            .collect();
        *levels.last().expect("a level at that time")
    }
}

const FULL: f64 = 2.0 / PEAK_NM;

#[test]
fn fade_in_on_start_resume_and_reconnect() {
    let mut r = rig(&fast());
    r.run(0, 10, Some(torque(2.0)));
    assert!(
        (0..=10).all(|t| r.level_at(t).to_bits() == 0f64.to_bits()),
        "not started: zero"
    );
    for (stop, start) in [
        (None, 100),
        (Some(StopReason::Pause), 1000),
        (Some(StopReason::Unplugged), 2000),
    ] {
        if let Some(reason) = stop {
            r.out.stop(reason).unwrap();
        }
        r.clock.set(ms(start));
        r.out.start(ms(start));
        r.run(start, start + 700, Some(torque(2.0)));
        assert!(r.level_at(start).abs() < 1e-12, "starts from zero");
        assert!(
            (r.level_at(start + 250) - 0.5 * FULL).abs() < 1e-9,
            "half way at 250 ms"
        );
        assert!(
            (r.level_at(start + 500) - FULL).abs() < 1e-9,
            "full at 500 ms"
        );
        let ramp: Vec<f64> = (start..=start + 500).map(|t| r.level_at(t)).collect();
        assert!(ramp.windows(2).all(|w| w[1] >= w[0]), "monotonic fade");
    }
}

#[test]
fn every_stop_reason_zeroes_in_the_same_tick() {
    for reason in [
        StopReason::Pause,
        StopReason::Menu,
        StopReason::CarReset,
        StopReason::Exit,
        StopReason::Unplugged,
    ] {
        let mut r = rig(&fast());
        r.out.start(ms(0));
        r.run(0, 600, Some(torque(2.0)));
        assert!((r.level_at(600) - FULL).abs() < 1e-9);
        r.clock.set(ms(600));
        r.out.stop(reason).unwrap();
        assert_eq!(r.rec.last_level().map(f64::to_bits), Some(0f64.to_bits()));
        let zero_at = r
            .rec
            .entries()
            .iter()
            .rev()
            .find(|e| e.command == Command::Level(0.0))
            .map(|e| e.at);
        assert_eq!(
            zero_at,
            Some(ms(600)),
            "{reason:?}: zero sent at the stop time"
        );
        if reason == StopReason::Exit {
            assert_eq!(
                r.rec.entries().last().map(|e| e.command),
                Some(Command::Stop)
            );
        }
        r.run(601, 700, Some(torque(2.0)));
        assert!(
            (601..=700).all(|t| r.level_at(t).to_bits() == 0f64.to_bits()),
            "{reason:?}: stays zero until started"
        );
        assert_eq!(r.out.safety().state(), SafetyState::Stopped(reason));
    }
}

#[test]
fn device_error_stops_until_restarted() {
    let mut r = rig(&fast());
    r.out.start(ms(0));
    r.run(0, 600, Some(torque(2.0)));
    r.backend_fails.store(true, Ordering::SeqCst);
    r.clock.set(ms(601));
    assert_eq!(
        r.out.tick(ms(601), Some(&torque(2.0)), DT).unwrap_err(),
        FfbError::Disconnected
    );
    assert_eq!(
        r.out.safety().state(),
        SafetyState::Stopped(StopReason::DeviceError)
    );
    // The device comes back: nothing is sent but zero until the app starts again.
    r.backend_fails.store(false, Ordering::SeqCst);
    r.run(602, 650, Some(torque(2.0)));
    assert!((602..=650).all(|t| r.level_at(t).to_bits() == 0f64.to_bits()));
    r.out.start(ms(651));
    r.run(651, 1200, Some(torque(2.0)));
    assert!(r.level_at(652) < 0.01 && (r.level_at(1151) - FULL).abs() < 1e-9);
}

#[test]
fn watchdog_ramps_to_zero_then_fades_back_in() {
    let mut r = rig(&fast());
    r.out.start(ms(0));
    r.run(0, 600, Some(torque(2.0)));
    // The physics stops producing values; the output is held for 50 ms, then ramps to zero
    // over 20 ms.
    r.run(601, 800, None);
    assert!(
        (r.level_at(650) - FULL).abs() < 1e-9,
        "held within the timeout"
    );
    assert!(
        (r.level_at(660) - 0.5 * FULL).abs() < 1e-9,
        "half way down the ramp"
    );
    assert!((651..=670).all(|t| r.level_at(t) <= r.level_at(t - 1)));
    assert!((670..=800).all(|t| r.level_at(t).to_bits() == 0f64.to_bits()));
    // Fresh values: fade in again, no jump back to full.
    r.run(801, 1400, Some(torque(2.0)));
    assert!(r.level_at(801) < 0.01);
    assert!((r.level_at(1051) - 0.5 * FULL).abs() < 1e-9);
    assert!((r.level_at(1301) - FULL).abs() < 1e-9);
}

#[test]
fn non_finite_torque_is_zero_at_once() {
    let mut r = rig(&fast());
    r.out.start(ms(0));
    r.run(0, 600, Some(torque(2.0)));
    for (t, bad) in [
        (601, f64::NAN),
        (602, f64::INFINITY),
        (603, f64::NEG_INFINITY),
    ] {
        r.run(t, t, Some(torque(bad)));
        assert_eq!(r.level_at(t).to_bits(), 0f64.to_bits());
    }
    assert_eq!(r.out.safety().faults(), 3);
    // Back to finite values: the slew limit restarts from zero.
    let mut slow = fast();
    slow.slew_limit_nm_per_s = 100.0;
    let params = PipelineParams::new(&slow, &peak_facts());
    r.out.pipeline_mut().set_params(params);
    r.run(604, 604, Some(torque(2.0)));
    assert!((r.level_at(604) - 0.1 / PEAK_NM).abs() < 1e-9);
}

#[test]
fn clamp_and_slew_hold_under_a_torque_step() {
    let settings = FfbSettings {
        max_torque_nm: 3.0,
        soft_clip_knee: 0.8,
        slew_limit_nm_per_s: 200.0, // 0.2 N·m per tick = 0.04 level
        ..FfbSettings::default()
    };
    let mut r = rig(&settings);
    r.out.start(ms(0));
    r.run(0, 600, Some(torque(0.0)));
    r.run(601, 800, Some(torque(50.0)));
    r.run(801, 1000, Some(torque(-50.0)));
    let levels: Vec<f64> = (600..=1000).map(|t| r.level_at(t)).collect();
    let max_step = 0.2 / PEAK_NM + 1e-12;
    assert!(
        levels.windows(2).all(|w| (w[1] - w[0]).abs() <= max_step),
        "slew"
    );
    assert!(
        levels.iter().all(|l| l.abs() <= 3.0 / PEAK_NM + 1e-12),
        "clamp"
    );
    assert!(
        (r.level_at(800) - 3.0 / PEAK_NM).abs() < 1e-3,
        "reaches the max"
    );
    assert!(
        r.out.pipeline().meter().fraction() > 0.3,
        "the meter sees the clipping"
    );
}

#[test]
fn kill_switch_zeroes_at_once_and_stays_off_until_enabled() {
    let mut r = rig(&fast());
    r.out.start(ms(0));
    r.run(0, 600, Some(torque(2.0)));
    r.clock.set(ms(600));
    r.out.kill().unwrap();
    assert_eq!(r.rec.last_level().map(f64::to_bits), Some(0f64.to_bits()));
    r.run(601, 700, Some(torque(2.0)));
    // Resuming does not undo the kill.
    r.out.stop(StopReason::Pause).unwrap();
    r.out.start(ms(701));
    r.run(701, 1500, Some(torque(2.0)));
    assert!((601..=1500).all(|t| r.level_at(t).to_bits() == 0f64.to_bits()));
    assert!(r.out.safety().is_killed());
    r.out.enable(ms(1501));
    r.run(1501, 2100, Some(torque(2.0)));
    assert!(r.level_at(1502) < 0.01, "fades in after re-enabling");
    assert!((r.level_at(2001) - FULL).abs() < 1e-9);
}

#[test]
fn an_input_change_reaches_the_level_in_the_same_tick() {
    let mut r = rig(&fast());
    r.out.start(ms(0));
    r.run(0, 600, Some(torque(1.0)));
    r.clock.set(ms(601));
    let tick = r.out.tick(ms(601), Some(&torque(3.0)), DT).unwrap();
    assert!((tick.level - 3.0 / PEAK_NM).abs() < 1e-12);
    assert_eq!(r.level_at(601).to_bits(), tick.level.to_bits());
}

#[test]
fn drop_leaves_the_wheel_without_torque() {
    let mut r = rig(&fast());
    r.out.start(ms(0));
    r.run(0, 600, Some(torque(2.0)));
    let rec = r.rec.clone();
    drop(r);
    let entries = rec.entries();
    let n = entries.len();
    assert_eq!(entries[n - 2].command, Command::Level(0.0));
    assert_eq!(entries[n - 1].command, Command::Stop);
}

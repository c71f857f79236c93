//! The synthesiser's behaviour, driven through the real [`FrameBuilder`] of a shipped car
//! (its tyres' peak slips come from the tyre model):
//!
//! - tyre squeal is silent at small slip and grows monotonically with the slip angle up to
//!   the peak; a locked wheel howls lower than a squealing one;
//! - no sample is NaN or reaches full scale, whatever the state (NaN, infinities, absurd
//!   speeds);
//! - jumps of the state (a gear change with an rpm drop, a wheel locking) make no step
//!   larger than the signal's own steady steps;
//! - the live side spreads the ticks of a callback over its buffer and fades out when the
//!   ticks stop.

use gripline_audio::analysis::{dominant_frequency_hz, largest_step, rms};
use gripline_audio::frame::peak_slips;
use gripline_audio::{
    CarVoice, FrameBuilder, LiveSynth, Mix, SoundFrame, SoundMessage, Synth, sound_feed,
};
use gripline_formats::assets;
use gripline_formats::vehicle_file::load_vehicle;
use gripline_physics::vehicle::{Snapshot, Vehicle};

const FS: u32 = 48_000;
/// Samples per 1 ms physics tick at 48 kHz.
const TICK: usize = 48;

fn corvette() -> Vehicle {
    load_vehicle(&assets::resolve_vehicle("corvette-c5").unwrap())
        .unwrap()
        .build()
        .unwrap()
}

/// The voice of the shipped Corvette, from its vehicle file's sound and engine.
fn corvette_voice() -> CarVoice {
    let loaded = load_vehicle(&assets::resolve_vehicle("corvette-c5").unwrap()).unwrap();
    CarVoice::new(&loaded.sound, &loaded.params.powertrain.engine)
}

fn only(engine: f32, tyres: f32, ambient: f32) -> Mix {
    Mix {
        master: 1.0,
        engine,
        tyres,
        ambient,
        muted: false,
    }
}

/// A car rolling straight at `speed` with every tyre at its static load.
fn rolling(vehicle: &Vehicle, speed: f64) -> Snapshot {
    let mut s = *vehicle.snapshot();
    let p = vehicle.params();
    s.speed_m_per_s = speed;
    s.velocity_world.x = speed;
    for (i, w) in s.wheels.iter_mut().enumerate() {
        w.contact = true;
        w.load_n = p.static_wheel_load_n(i / 2);
        w.slip_angle_rad = 0.0;
        w.slip_ratio = 0.0;
        w.slip_velocity_m_per_s = 0.0;
        w.spin_rad_per_s = speed / 0.33;
    }
    s
}

/// Renders `ticks` ticks of `snapshot` (time advancing) and returns the samples.
fn render(
    builder: &mut FrameBuilder,
    synth: &mut Synth,
    snapshot: &Snapshot,
    ticks: usize,
) -> Vec<f32> {
    let mut s = *snapshot;
    let mut out = vec![0.0; ticks * TICK];
    for chunk in out.chunks_mut(TICK) {
        s.time_s += 0.001;
        let frame = builder.frame(&s, 0.001, false);
        synth.apply(&frame);
        synth.render(chunk);
    }
    out
}

/// Tyre-bus energy of the car at `alpha` rad on every tyre at 20 m/s (a fresh synthesiser
/// each time: the same noise, so only the slip differs).
fn tyre_energy(vehicle: &Vehicle, alpha: f64, kappa: f64) -> f64 {
    let mut s = rolling(vehicle, 20.0);
    for w in &mut s.wheels {
        w.slip_angle_rad = alpha;
        w.slip_ratio = kappa;
        w.slip_velocity_m_per_s = 20.0 * alpha.sin().hypot(kappa);
    }
    let mut builder = FrameBuilder::new(vehicle);
    let mut synth = Synth::new(&corvette_voice(), FS);
    synth.set_mix(&only(0.0, 1.0, 0.0));
    let out = render(&mut builder, &mut synth, &s, 600);
    rms(&out[out.len() / 2..]).powi(2)
}

#[test]
fn squeal_is_silent_at_small_slip_and_grows_monotonically_to_the_peak() {
    let vehicle = corvette();
    let (_, tan_peak) = peak_slips(&vehicle.tires()[0], vehicle.params().static_wheel_load_n(0));
    let alpha_peak = tan_peak.atan();
    let floor = tyre_energy(&vehicle, 0.0, 0.0);
    let fractions: Vec<f64> = (0..=12).map(|i| f64::from(i) / 12.0).collect();
    let squeal: Vec<f64> = fractions
        .iter()
        .map(|f| tyre_energy(&vehicle, -f * alpha_peak, 0.0) - floor)
        .collect();
    let at_peak = *squeal.last().unwrap();
    println!(
        "peak slip angle {:.2} deg; squeal energy over the rolling noise:",
        alpha_peak.to_degrees()
    );
    for (f, e) in fractions.iter().zip(&squeal) {
        println!(
            "  {:>4.2} of peak: {:.3e} ({:.1} % of the peak's)",
            f,
            e,
            100.0 * e / at_peak
        );
    }
    assert!(
        at_peak > 10.0 * floor,
        "squeal at the peak {at_peak:e} vs rolling {floor:e}"
    );
    for (f, e) in fractions.iter().zip(&squeal) {
        if *f <= 0.34 {
            assert!(e.abs() <= 0.01 * at_peak, "{f}: {e:e}");
        }
    }
    for i in 1..squeal.len() {
        if fractions[i] > 0.4 {
            assert!(
                squeal[i] > squeal[i - 1],
                "falls at {} of peak",
                fractions[i]
            );
        } else {
            assert!(
                squeal[i] >= squeal[i - 1] - 0.01 * at_peak,
                "falls at {}",
                fractions[i]
            );
        }
    }
}

#[test]
fn a_locked_wheel_sounds_lower_than_a_squealing_one() {
    let vehicle = corvette();
    let tyres_of = |alpha: f64, kappa: f64| {
        let mut s = rolling(&vehicle, 20.0);
        for w in &mut s.wheels {
            w.slip_angle_rad = alpha;
            w.slip_ratio = kappa;
            w.slip_velocity_m_per_s = 20.0 * alpha.sin().hypot(kappa);
        }
        let mut builder = FrameBuilder::new(&vehicle);
        let mut synth = Synth::new(&corvette_voice(), FS);
        synth.set_mix(&only(0.0, 1.0, 0.0));
        let out = render(&mut builder, &mut synth, &s, 400);
        out[out.len() - 8192..].to_vec()
    };
    let squeal = tyres_of(-0.12, 0.0);
    let locked = tyres_of(0.0, -1.0);
    let pitch = |x: &[f32]| {
        dominant_frequency_hz(x, f64::from(FS), 200.0, 3000.0, 2.0)
            .unwrap()
            .0
    };
    let (p_squeal, p_locked) = (pitch(&squeal), pitch(&locked));
    println!("strongest tone: squeal {p_squeal:.0} Hz, lock-up {p_locked:.0} Hz");
    assert!(rms(&locked) > 0.5 * rms(&squeal), "lock-up is heard");
    assert!(p_locked < 0.8 * p_squeal);
}

#[test]
fn no_state_makes_a_non_finite_or_full_scale_sample() {
    let vehicle = corvette();
    let mut builder = FrameBuilder::new(&vehicle);
    let mut synth = Synth::new(&corvette_voice(), FS);
    synth.set_mix(&Mix {
        master: 1.0,
        ..Mix::default()
    });
    let mut s = rolling(&vehicle, 30.0);
    let bad = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1e12, -1e12, 0.0];
    let mut all = Vec::new();
    for (i, x) in bad.iter().cycle().take(60).enumerate() {
        s.time_s += 0.001;
        s.speed_m_per_s = if i % 3 == 0 { *x } else { 90.0 };
        s.powertrain.engine_rpm = *x;
        s.powertrain.throttle = *x;
        s.powertrain.engine_torque_nm = *x;
        s.powertrain.driveshaft_torque_nm = *x;
        s.powertrain.grind = i % 2 == 0;
        s.body_contacts = u32::try_from(i % 5).unwrap();
        for w in &mut s.wheels {
            w.slip_angle_rad = *x;
            w.slip_ratio = -*x;
            w.slip_velocity_m_per_s = *x;
            w.load_n = *x;
            w.suspension_travel_m = if i % 2 == 0 { *x } else { 0.3 };
            w.spin_rad_per_s = *x;
        }
        let frame = builder.frame(&s, 0.001, false);
        synth.apply(&frame);
        let mut out = [0.0f32; 480];
        synth.render(&mut out);
        all.extend_from_slice(&out);
    }
    // Then a plausible but extreme state for a second: everything at once.
    let mut s = rolling(&vehicle, 90.0);
    s.powertrain.engine_rpm = 6200.0;
    s.powertrain.throttle = 1.0;
    s.powertrain.grind = true;
    s.body_contacts = 3;
    for w in &mut s.wheels {
        w.slip_angle_rad = 0.5;
        w.slip_ratio = -1.0;
        w.slip_velocity_m_per_s = 50.0;
        w.surface = gripline_physics::ground::Surface::Gravel;
    }
    all.extend(render(&mut builder, &mut synth, &s, 1000));
    assert!(all.iter().all(|x| x.is_finite()), "a non-finite sample");
    let peak = all.iter().fold(0.0f32, |m, x| m.max(x.abs()));
    println!("peak {peak}");
    assert!(peak < 1.0);
}

/// A car in `gear` at `rpm`, with `lockup` on every wheel (slip ratio) at 25 m/s.
fn driving(vehicle: &Vehicle, gear: i8, rpm: f64, kappa: f64) -> Snapshot {
    let mut s = rolling(vehicle, 25.0);
    s.powertrain.gear = gear;
    s.powertrain.engine_rpm = rpm;
    s.powertrain.throttle = 0.8;
    s.powertrain.engine_torque_nm = 300.0;
    for w in &mut s.wheels {
        w.slip_ratio = kappa;
        w.slip_velocity_m_per_s = 25.0 * kappa.abs();
    }
    s
}

#[test]
fn jumps_of_the_state_do_not_click() {
    let vehicle = corvette();
    let voice = corvette_voice();
    let jumps = [
        (
            "upshift 5800 -> 3900 rpm",
            driving(&vehicle, 2, 5800.0, 0.0),
            driving(&vehicle, 3, 3900.0, 0.0),
        ),
        (
            "wheels lock",
            driving(&vehicle, 3, 3000.0, 0.0),
            driving(&vehicle, 3, 3000.0, -1.0),
        ),
        (
            "downshift 2500 -> 4500 rpm",
            driving(&vehicle, 4, 2500.0, 0.0),
            driving(&vehicle, 3, 4500.0, 0.0),
        ),
    ];
    for (name, before, after) in jumps {
        // Through the jump.
        let mut builder = FrameBuilder::new(&vehicle);
        let mut synth = Synth::new(&voice, FS);
        render(&mut builder, &mut synth, &before, 300);
        let mut after_jump = after;
        after_jump.time_s = before.time_s + 0.3;
        let through = render(&mut builder, &mut synth, &after_jump, 100);
        // The same state held: the signal's own steps.
        let mut builder = FrameBuilder::new(&vehicle);
        let mut synth = Synth::new(&voice, FS);
        render(&mut builder, &mut synth, &after, 300);
        let steady = render(&mut builder, &mut synth, &after, 300);
        let (jump_step, own_step) = (largest_step(&through), largest_step(&steady));
        println!("{name}: largest step {jump_step:.4} through the jump, {own_step:.4} held");
        assert!(jump_step <= 1.25 * own_step + 0.005, "{name}: a click");
    }
}

#[test]
fn the_live_synth_follows_the_ticks_and_fades_out_when_they_stop() {
    let vehicle = corvette();
    let voice = corvette_voice();
    let (mut feed, inbox) = sound_feed();
    let mut live = LiveSynth::new(&voice, FS, inbox);
    let mut builder = FrameBuilder::new(&vehicle);
    let s = driving(&vehicle, 2, 4000.0, 0.0);
    feed.send(SoundMessage::Car(voice));
    let mut buffer = [0.0f32; 480];
    let mut levels = Vec::new();
    let mix = Mix::default();
    // 0.5 s of ticks, ten per 10 ms callback, then nothing for 0.5 s.
    let mut snapshot = s;
    for callback in 0..100 {
        if callback < 50 {
            for _ in 0..10 {
                snapshot.time_s += 0.001;
                feed.send(SoundMessage::Frame(builder.frame(&snapshot, 0.001, false)));
            }
        }
        live.fill(&mut buffer, &mix);
        levels.push(rms(&buffer));
    }
    assert!(
        levels[40] > 0.01,
        "plays while ticks arrive: {}",
        levels[40]
    );
    assert!(
        levels[99] < 1e-3 * levels[40],
        "fades out: {} vs {}",
        levels[99],
        levels[40]
    );
    assert_eq!(live.dropped(), 0);
    // A paused frame fades out too.
    let (mut feed, inbox) = sound_feed();
    let mut live = LiveSynth::new(&voice, FS, inbox);
    for (callback, level) in levels.iter_mut().enumerate() {
        for _ in 0..10 {
            snapshot.time_s += 0.001;
            let frame: SoundFrame = builder.frame(&snapshot, 0.001, callback >= 50);
            feed.send(SoundMessage::Frame(frame));
        }
        live.fill(&mut buffer, &mix);
        *level = rms(&buffer);
    }
    assert!(
        levels[99] < 1e-3 * levels[40],
        "pause fades out: {}",
        levels[99]
    );
}

/// Level between `low_hz` and `high_hz` (sum of the spectrum's magnitudes on a 50 Hz grid).
fn band_level(samples: &[f32], low_hz: f64, high_hz: f64) -> f64 {
    let mut sum = 0.0;
    let mut hz = low_hz;
    while hz <= high_hz {
        sum += gripline_audio::analysis::magnitude_at(samples, f64::from(FS), hz);
        hz += 50.0;
    }
    sum
}

#[test]
fn a_grinding_engagement_and_the_rev_limiter_are_heard() {
    let vehicle = corvette();
    let voice = corvette_voice();
    let engine_of = |edit: &dyn Fn(&mut Snapshot, usize)| {
        let mut builder = FrameBuilder::new(&vehicle);
        let mut synth = Synth::new(&voice, FS);
        synth.set_mix(&only(1.0, 0.0, 0.0));
        let mut s = driving(&vehicle, 0, 3000.0, 0.0);
        let mut out = vec![0.0; 600 * TICK];
        for (tick, chunk) in out.chunks_mut(TICK).enumerate() {
            s.time_s += 0.001;
            edit(&mut s, tick);
            synth.apply(&builder.frame(&s, 0.001, false));
            synth.render(chunk);
        }
        out[out.len() / 2..].to_vec()
    };
    // The H-pattern refuses a gear: the grind rings in the housing's band (2-5 kHz).
    let quiet = engine_of(&|_, _| {});
    let grinding = engine_of(&|s, _| s.powertrain.grind = true);
    let (q, g) = (
        band_level(&quiet, 2000.0, 5000.0),
        band_level(&grinding, 2000.0, 5000.0),
    );
    println!("2-5 kHz: {q:.3} without, {g:.3} grinding");
    assert!(g > 3.0 * q, "the grind is not heard");
    // At the limiter the physics cuts combustion on and off (its hysteresis gives a cut
    // every few tens of milliseconds): the note's level follows the cuts.
    let limiter = engine_of(&|s, tick| {
        s.powertrain.engine_rpm = 6200.0;
        s.powertrain.throttle = if (tick / 20) % 2 == 0 { 1.0 } else { 0.0 };
    });
    let levels: Vec<f64> = limiter.chunks(TICK * 10).map(rms).collect();
    let (lo, hi) = levels
        .iter()
        .fold((f64::MAX, 0.0f64), |(lo, hi), l| (lo.min(*l), hi.max(*l)));
    println!("limiter: 10 ms levels from {lo:.3} to {hi:.3}");
    assert!(hi > 2.0 * lo, "the limiter's cut is not heard");
}

//! The live sound path as the window wires it, without a device: the sim core's tap
//! ([`SoundTap`]) turns each tick into a frame, the ring carries it, and the audio
//! callback's synthesiser plays it; pausing the session (the pause menu's command) fades the
//! sound out, resuming brings it back, and a car swap reaches the synthesiser.

use std::sync::Arc;
use std::time::Duration;

use gripline_audio::analysis::{dominant_frequency_hz, rms};
use gripline_audio::{CarVoice, LiveSynth, Mix, sound_feed};
use gripline_host::sound::SoundTap;
use gripline_input::settings::bindings::Bindings;
use gripline_sim::realtime::commands::Command;
use gripline_sim::realtime::rig::Rig;
use gripline_sim::realtime::sim_core::{SimCore, core_rings};
use gripline_sim::realtime::stats::SharedStats;
use gripline_sim::session::Session;

/// Runs `callbacks` audio callbacks of 480 samples (10 ms at 48 kHz), ten ticks before each;
/// returns each callback's samples and the mean engine speed of its ticks.
fn run(
    core: &mut SimCore,
    live: &mut LiveSynth,
    now: &mut Duration,
    callbacks: usize,
) -> Vec<(Vec<f32>, f64)> {
    let mix = Mix::default();
    (0..callbacks)
        .map(|_| {
            let mut rpm = 0.0;
            for _ in 0..10 {
                *now += Duration::from_millis(1);
                core.tick(*now);
                rpm += core.session().snapshot().powertrain.engine_rpm / 10.0;
            }
            let mut buffer = vec![0.0f32; 480];
            live.fill(&mut buffer, &mix);
            (buffer, rpm)
        })
        .collect()
}

fn samples(callbacks: &[(Vec<f32>, f64)]) -> Vec<f32> {
    callbacks.iter().flat_map(|c| c.0.iter().copied()).collect()
}

#[test]
fn the_tap_plays_the_session_and_pausing_fades_it() {
    let session = Session::load("hatchback-fwd", "circuit").unwrap();
    let rig = Rig::without_ffb(&Bindings::default());
    let (rings, mut ui) = core_rings(64);
    let mut core = SimCore::new(session, rig, rings, Arc::new(SharedStats::default()), true);
    let (feed, inbox) = sound_feed();
    // A synthesiser made for the default car (a V8): the tap's first message gives it the
    // session's inline four.
    let mut live = LiveSynth::new(&CarVoice::default(), 48_000, inbox);
    core.set_observer(Box::new(SoundTap::new(feed)));
    let mut now = Duration::ZERO;

    // Two seconds under the autopilot: the engine plays at the four's firing frequency.
    let driving = run(&mut core, &mut live, &mut now, 200);
    // The last 100 ms, against the engine speed of its ticks.
    let last = &driving[190..];
    let rpm = last.iter().map(|c| c.1).sum::<f64>() / last.len() as f64;
    let sound = samples(last);
    let level = rms(&sound);
    let firing = rpm / 60.0 * 4.0 / 2.0;
    let (found, _) = dominant_frequency_hz(&sound, 48_000.0, 15.0, 1.6 * firing, 0.5).unwrap();
    println!(
        "driving at {rpm:.0} rpm: RMS {level:.3}, strongest {found:.1} Hz (firing {firing:.1} Hz)"
    );
    assert!(level > 0.01);
    assert!((found - firing).abs() < 0.03 * firing);

    // The pause menu pauses the session: the sound fades within 0.3 s.
    ui.commands.push(Command::Pause).unwrap();
    let paused = run(&mut core, &mut live, &mut now, 50);
    let faded = rms(&samples(&paused[30..]));
    println!("paused: RMS {faded:.2e}");
    assert!(faded < 1e-3 * level);

    // Resumed: it plays again.
    ui.commands.push(Command::Resume).unwrap();
    let resumed = run(&mut core, &mut live, &mut now, 50);
    assert!(rms(&samples(&resumed[30..])) > 0.3 * level);
    assert_eq!(live.dropped(), 0);
}

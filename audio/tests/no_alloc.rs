//! Nothing on the real-time paths allocates: the sim thread's side (a frame built from the
//! snapshot and pushed into the ring) and the audio callback's side (the live synthesiser
//! draining the ring and rendering), counted by `assert_no_alloc`'s global allocator.

use assert_no_alloc::{AllocDisabler, assert_no_alloc, reset_violation_count, violation_count};
use gripline_audio::{CarVoice, FrameBuilder, LiveSynth, Mix, SoundMessage, sound_feed};
use gripline_formats::assets;
use gripline_formats::vehicle_file::load_vehicle;
use gripline_physics::controls::Controls;
use gripline_physics::ground::FlatGround;

#[global_allocator]
static ALLOCATOR: AllocDisabler = AllocDisabler;

#[test]
fn the_tick_side_and_the_callback_side_do_not_allocate() {
    reset_violation_count();
    assert_no_alloc(|| drop(std::hint::black_box(vec![1u8; 16])));
    assert!(
        violation_count() > 0,
        "the allocation checker is not active"
    );
    reset_violation_count();

    let loaded = load_vehicle(&assets::resolve_vehicle("corvette-c5").unwrap()).unwrap();
    let mut vehicle = loaded.build().unwrap();
    let voice = CarVoice::new(&loaded.sound, &loaded.params.powertrain.engine);
    let mut builder = FrameBuilder::new(&vehicle);
    let (mut feed, inbox) = sound_feed();
    let mut live = LiveSynth::new(&voice, 48_000, inbox);
    let mix = Mix::default();
    let mut buffer = vec![0.0f32; 512];
    let controls = Controls {
        throttle: 1.0,
        steering_wheel_rad: 0.5,
        ..Controls::default()
    };
    for callback in 0..300 {
        for _ in 0..10 {
            vehicle.step(&controls, &FlatGround::default(), 0.001);
            let snapshot = *vehicle.snapshot();
            assert_no_alloc(|| {
                let frame = builder.frame(&snapshot, 0.001, callback > 250);
                feed.send(SoundMessage::Frame(frame));
            });
        }
        assert_no_alloc(|| live.fill(&mut buffer, &mix));
    }
    assert_eq!(violation_count(), 0, "allocations on a real-time path");
}

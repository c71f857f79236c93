//! Rendering cost: 10 ms of sound (480 samples at 48 kHz) with every voice busy, as the
//! audio callback renders it. The target (`docs/architecture.md`, "Targets"): a small fraction of
//! the 10 ms.

use criterion::{Criterion, criterion_group, criterion_main};
use gripline_audio::{CarVoice, Mix, SoundFrame, Synth, WheelSound};
use gripline_physics::ground::Surface;

fn busy_frame(t: f64) -> SoundFrame {
    let wheel = |surface| WheelSound {
        slip_of_peak: 1.1,
        lockup: 0.0,
        sliding_m_per_s: 3.0,
        load_ratio: 1.2,
        surface,
        contact: true,
        thump: 0.0,
    };
    SoundFrame {
        time_s: t,
        engine_rpm: 5200.0,
        combustion: 1.0,
        engine_load: 0.9,
        running: true,
        cranking: false,
        gear: 3,
        gear_changed: false,
        gearbox_output_rpm: 1500.0,
        driveline_load: 0.5,
        clutch_slip: 0.2,
        grind: true,
        speed_m_per_s: 45.0,
        wheels: [
            wheel(Surface::Asphalt),
            wheel(Surface::Kerb),
            wheel(Surface::Gravel),
            wheel(Surface::Grass),
        ],
        body_contacts: 1,
        impact: 0.5,
        paused: false,
    }
}

fn render_10_ms(c: &mut Criterion) {
    let car = CarVoice::default();
    let mut synth = Synth::new(&car, 48_000);
    synth.set_mix(&Mix::default());
    let mut out = [0.0f32; 480];
    let mut t = 0.0;
    c.bench_function("synth/render_10ms_48k_v8_all_voices", |b| {
        b.iter(|| {
            // Ten physics ticks per 10 ms, as the live callback applies them.
            for chunk in out.chunks_mut(48) {
                t += 0.001;
                synth.apply(&busy_frame(t));
                synth.render(chunk);
            }
            std::hint::black_box(&out);
        });
    });
}

criterion_group!(benches, render_10_ms);
criterion_main!(benches);

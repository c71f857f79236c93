//! The per-tick cost of the input and force-feedback path on the sim thread: one wheel axis
//! event handled, one `Controls` produced, and one force-feedback level computed through the
//! whole pipeline and safety gate and handed to the backend (a null backend here; in the app
//! it is the writer thread's atomic store).
//!
//! A second benchmark, `store_to_write`, measures the writer thread's store-to-device time:
//! from the sim thread's store of a new level to the backend receiving it, with the writer
//! at 1 kHz and at 500 Hz (a backend that records the level in an atomic), the stores spread
//! over the writer's period (so the mean is about half a period plus the writer's own time).
//!
//! Run: `cargo bench -p gripline-tests --bench input_ffb`.

use std::hint::black_box;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use gripline_input::bindings::ControlMapper;
use gripline_input::device::{AxisRange, DeviceId, DeviceInfo, InputEvent};
use gripline_input::ffb::backend::{FfbBackend, FfbError};
use gripline_input::ffb::device_facts::FfbDeviceFacts;
use gripline_input::ffb::output::FfbOutput;
use gripline_input::ffb::params::PipelineParams;
use gripline_input::ffb::pipeline::{FfbInput, FfbPipeline};
use gripline_input::ffb::safety::{FfbSafety, SafetyConfig};
use gripline_input::ffb::writer::{FfbWriter, WriterConfig};
use gripline_input::settings::axis_calibration::AxisCalibration;
use gripline_input::settings::bindings::{AxisBinding, AxisControl, Bindings};
use gripline_input::settings::device_identity::{DeviceIdentity, DeviceKind, DeviceMatch};
use gripline_input::settings::ffb_settings::FfbSettings;

/// A backend that accepts every level at once.
struct Null;

impl FfbBackend for Null {
    fn max_rate_hz(&self) -> f64 {
        1000.0
    }
    fn send_level(&mut self, _level: f64) -> Result<(), FfbError> {
        Ok(())
    }
    fn stop(&mut self) -> Result<(), FfbError> {
        Ok(())
    }
}

fn tick_path(c: &mut Criterion) {
    let g29 = DeviceIdentity::new(0x046d, 0xc24f, "G29 Driving Force Racing Wheel", "");
    let bindings = Bindings {
        axes: vec![AxisBinding {
            control: AxisControl::Steering,
            device: DeviceMatch::Device(g29.clone()),
            axis: 0,
            calibration: AxisCalibration::default(),
            rotation_deg: 900.0,
        }],
        ..Bindings::default()
    };
    let mut mapper = ControlMapper::new(&bindings);
    let device = DeviceId(1);
    mapper.handle(&InputEvent::Connected {
        device,
        info: DeviceInfo {
            identity: g29.clone(),
            kind: DeviceKind::Wheel,
        },
    });
    let settings = FfbSettings::default();
    let pipeline = FfbPipeline::new(
        PipelineParams::new(&settings, &FfbDeviceFacts::resolve(&settings, &g29, None)),
        1000,
    );
    let mut output = FfbOutput::new(pipeline, FfbSafety::new(SafetyConfig::default()), Null);
    output.start(Duration::ZERO);
    let mut ms = 0u64;
    c.bench_function("input_and_ffb_tick", |b| {
        b.iter(|| {
            ms += 1;
            let value = i32::try_from(ms % 65_536).unwrap_or(0);
            mapper.handle(black_box(&InputEvent::Axis {
                device,
                axis: 0,
                value,
                range: AxisRange::new(0, 65_535),
            }));
            let tick = mapper.tick(0.001);
            let input = FfbInput {
                column_torque_nm: tick.controls.steering_wheel_rad * 3.0,
                wheel_speed_rad_s: 0.5,
                wheel_accel_rad_s2: 0.0,
                wheel_angle_rad: tick.physical_steering_rad,
                wheel_torque_nm: 0.0,
                feel: None,
            };
            output.tick(Duration::from_millis(ms), Some(&input), 0.001)
        });
    });
}

/// A backend at `rate_hz` that publishes the last level it received.
struct Published {
    rate_hz: f64,
    level_bits: Arc<AtomicU64>,
}

impl FfbBackend for Published {
    fn max_rate_hz(&self) -> f64 {
        self.rate_hz
    }
    fn send_level(&mut self, level: f64) -> Result<(), FfbError> {
        self.level_bits.store(level.to_bits(), Ordering::Release);
        Ok(())
    }
    fn stop(&mut self) -> Result<(), FfbError> {
        Ok(())
    }
}

fn store_to_write(c: &mut Criterion) {
    let mut group = c.benchmark_group("store_to_write");
    group.sample_size(20);
    for rate_hz in [1000.0, 500.0] {
        let level_bits = Arc::new(AtomicU64::new(0));
        let Ok(writer) = FfbWriter::spawn(
            Published {
                rate_hz,
                level_bits: Arc::clone(&level_bits),
            },
            WriterConfig {
                watchdog: None,
                ..WriterConfig::default()
            },
        ) else {
            eprintln!("store_to_write: the writer thread did not start");
            return;
        };
        let mut n = 0u32;
        group.bench_function(format!("{rate_hz} Hz"), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    // A new level each time (distinct from the last, inside ±1).
                    n = n.wrapping_add(1);
                    let level = f64::from(n % 1000) / 1000.0 + 0.0005;
                    // The previous level has just been written: wait (untimed) a phase
                    // spread evenly over the writer's period (golden-ratio steps), so the
                    // figure is the mean over the phase of the store, not the worst phase.
                    let phase = (f64::from(n) * 0.618_034).fract() / rate_hz;
                    let ready = Instant::now() + Duration::from_secs_f64(phase);
                    while Instant::now() < ready {
                        std::hint::spin_loop();
                    }
                    let at = Instant::now();
                    writer.store(level);
                    while level_bits.load(Ordering::Acquire) != level.to_bits() {
                        std::hint::spin_loop();
                    }
                    total += at.elapsed();
                }
                total
            });
        });
        writer.shutdown();
    }
    group.finish();
}

criterion_group!(benches, tick_path, store_to_write);
criterion_main!(benches);

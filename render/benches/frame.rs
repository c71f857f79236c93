//! Frame cost at 1280x720 on the headless adapter (`GRIPLINE_ADAPTER` chooses; software by
//! default here) at the quality tier the window picks for that adapter (Low on a software
//! renderer; 4x MSAA asked for, as the settings' default): CPU time to record a frame, wall
//! time to submit it and wait for the GPU, and GPU time from timestamp queries where the
//! adapter has them.
//!
//! Two tracks: the shipped circuit, and TORCS's forza with its textured scene where Debian's
//! `torcs-data` is installed (chase camera just after the start line of each).
//!
//! `cargo bench -p gripline-render --bench frame`

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use gripline_formats::assets;
use gripline_formats::vehicle_file::load_vehicle;
use gripline_render::{
    AdapterChoice, Camera, CameraMode, FrameInput, GpuContext, OffscreenRenderer, QualityTier,
    RenderSettings, VehiclePose, VehicleVisual,
};
use gripline_torcs::track::load::{load_any_track, resolve_any_track};

const W: u32 = 1280;
const H: u32 = 720;

fn setup(track_name: &str) -> Option<(OffscreenRenderer, FrameInput)> {
    let choice = match std::env::var("GRIPLINE_ADAPTER") {
        Ok(v) => AdapterChoice::parse(&v),
        Err(_) => AdapterChoice::Software,
    };
    let gpu = match GpuContext::headless(choice) {
        Ok(gpu) => gpu,
        Err(e) => {
            eprintln!("no adapter, nothing to measure: {e}");
            return None;
        }
    };
    eprintln!("adapter: {}", gpu.describe());
    let Ok(path) = resolve_any_track(track_name) else {
        eprintln!("{track_name} is not installed: not measured");
        return None;
    };
    let track = load_any_track(&path).ok()?;
    let scene = gripline_torcs::track::scene_file::scene_for_track(&track).and_then(Result::ok);
    let params = load_vehicle(&assets::resolve_vehicle("corvette-c5").ok()?)
        .ok()?
        .params;
    let visual = VehicleVisual::from_params(&params);
    let tier = QualityTier::for_adapter(gpu.adapter.get_info().device_type);
    eprintln!("quality tier: {}", tier.name());
    let settings = tier.settings(RenderSettings::default().msaa_samples);
    let mut renderer = OffscreenRenderer::new(gpu, &settings, &track.mesh, &visual, W, H).ok()?;
    renderer.scene_mut().set_track_scene(scene.as_ref());
    let station = if scene.is_some() { 8.0 } else { 790.0 };
    let pose = VehiclePose::on_centre_line(&track.mesh, &visual, station, 0.0).ok()?;
    let frame = FrameInput::new(&pose, &Camera::new(CameraMode::Chase), &visual, W, H);
    Some((renderer, frame))
}

fn encode(
    r: &mut OffscreenRenderer,
    frame: &FrameInput,
    timestamps: Option<&wgpu::QuerySet>,
) -> wgpu::CommandEncoder {
    let mut encoder = r
        .gpu()
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
    let view = r.target_view().clone();
    r.scene_mut()
        .render_timed(&mut encoder, &view, frame, timestamps);
    encoder
}

fn wait(r: &OffscreenRenderer, index: wgpu::SubmissionIndex) {
    let _ = r.gpu().device.poll(wgpu::PollType::Wait {
        submission_index: Some(index),
        timeout: Some(Duration::from_mins(1)),
    });
}

fn bench_frame(c: &mut Criterion) {
    for track in ["circuit", "torcs:forza"] {
        bench_track(c, track);
    }
}

fn bench_track(c: &mut Criterion, track: &str) {
    let Some((mut r, frame)) = setup(track) else {
        return;
    };
    let mut group = c.benchmark_group(format!("frame_1280x720/{}", track.replace(':', "_")));
    group.sample_size(10);
    group.bench_function("cpu_encode", |b| {
        b.iter(|| black_box(encode(&mut r, &frame, None).finish()));
    });
    group.bench_function("submit_and_wait", |b| {
        b.iter(|| {
            let buffer = encode(&mut r, &frame, None).finish();
            let index = r.gpu().queue.submit([buffer]);
            wait(&r, index);
        });
    });
    if r.gpu().has_timestamps() {
        let device = r.gpu().device.clone();
        let queries = device.create_query_set(&wgpu::QuerySetDescriptor {
            label: Some("frame timestamps"),
            ty: wgpu::QueryType::Timestamp,
            count: 2,
        });
        let resolve = device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: 16,
            usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let readback = device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: 16,
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        let period_ns = f64::from(r.gpu().queue.get_timestamp_period());
        group.bench_function("gpu_timestamps", |b| {
            b.iter_custom(|iterations| {
                let mut total = Duration::ZERO;
                for _ in 0..iterations {
                    let mut encoder = encode(&mut r, &frame, Some(&queries));
                    encoder.resolve_query_set(&queries, 0..2, &resolve, 0);
                    encoder.copy_buffer_to_buffer(&resolve, 0, &readback, 0, 16);
                    let index = r.gpu().queue.submit([encoder.finish()]);
                    readback.slice(..).map_async(wgpu::MapMode::Read, |_| {});
                    wait(&r, index);
                    let ticks: [u64; 2] = match readback.slice(..).get_mapped_range() {
                        Ok(view) => bytemuck_pair(&view),
                        Err(_) => [0, 0],
                    };
                    readback.unmap();
                    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                    let ns = (ticks[1].saturating_sub(ticks[0]) as f64 * period_ns) as u64;
                    total += Duration::from_nanos(ns);
                }
                total
            });
        });
    } else {
        eprintln!(
            "the adapter has no timestamp queries: see submit_and_wait for the GPU's wall time"
        );
    }
    group.finish();
    // One plain wall-clock figure for the log, outside criterion's statistics.
    let start = Instant::now();
    let buffer = encode(&mut r, &frame, None).finish();
    let index = r.gpu().queue.submit([buffer]);
    wait(&r, index);
    eprintln!("{track}: one frame, submit to done: {:?}", start.elapsed());
}

fn bytemuck_pair(bytes: &[u8]) -> [u64; 2] {
    let word = |i: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&bytes[8 * i..8 * i + 8]);
        u64::from_le_bytes(b)
    };
    [word(0), word(1)]
}

criterion_group!(benches, bench_frame);
criterion_main!(benches);

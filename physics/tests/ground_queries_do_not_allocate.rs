//! Ground and centre-line queries run for every wheel at 1 kHz: they must not allocate.
//! A counting global allocator (test-only, hence the one `unsafe` block of this crate's
//! tests) proves it for ray casts, projections and station look-ups on a built track.

#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use glam::DVec3;
use gripline_physics::ground::{Ground, Surface};
use gripline_physics::track::{ControlPoint, KerbSpec, Pad, PadShape, TrackLayout, VergeBand};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards every call to the system allocator unchanged; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn loop_layout() -> TrackLayout {
    let centre_line = (0..40)
        .map(|k| {
            let a = std::f64::consts::TAU * f64::from(k) / 40.0;
            ControlPoint {
                x_m: 600.0 * a.cos(),
                y_m: 400.0 * a.sin(),
                z_m: 10.0 * (2.0 * a).sin(),
                banking_deg: 3.0,
                width_m: 12.0,
            }
        })
        .collect();
    TrackLayout {
        closed: true,
        centre_line,
        corner_radius_m: 300.0,
        kerb: Some(KerbSpec {
            width_m: 1.0,
            height_m: 0.05,
            straight_surface: Surface::Grass,
        }),
        verge: vec![VergeBand {
            surface: Surface::Grass,
            width_m: 10.0,
            slope_pct: -3.0,
            corner_surface: Some(Surface::Gravel),
        }],
        pads: vec![Pad {
            name: "infield".into(),
            surface: Surface::Grass,
            shape: PadShape::Rectangle {
                centre_x_m: 0.0,
                centre_y_m: 0.0,
                z_m: -30.0,
                length_m: 1000.0,
                width_m: 600.0,
                heading_deg: 0.0,
                rise_pct: 0.0,
            },
        }],
        ..TrackLayout::default()
    }
}

#[test]
fn ray_casts_and_centre_line_queries_do_not_allocate() {
    let track = loop_layout().build_mesh().expect("builds");
    let samples: Vec<_> = track.centre_line.samples().to_vec();
    let origins: Vec<DVec3> = samples
        .iter()
        .map(|s| s.position + s.left * 3.0 + DVec3::Z * 0.5)
        .collect();
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let start = Instant::now();
    let mut hits = 0usize;
    let mut hint = 0;
    for (i, o) in origins.iter().enumerate() {
        for _ in 0..4 {
            if track.ray_cast(*o, DVec3::NEG_Z, 2.0).is_some() {
                hits += 1;
            }
        }
        let near = track.centre_line.project_near(*o, hint, 8).expect("near");
        hint = near.segment;
        if i % 50 == 0 {
            let far = track.centre_line.project(*o).expect("projects");
            assert_eq!(far.segment, near.segment);
        }
        let _ = track.centre_line.sample_at(near.distance_m + 30.0);
    }
    let elapsed = start.elapsed();
    let after = ALLOCATIONS.load(Ordering::Relaxed);
    assert_eq!(after - before, 0, "queries allocated");
    assert_eq!(hits, 4 * origins.len());
    println!(
        "{} triangles: {:.2} us per ray cast + projection ({} rounds)",
        track.ground.triangle_count(),
        elapsed.as_secs_f64() * 1e6 / origins.len() as f64,
        origins.len()
    );
}

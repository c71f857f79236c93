//! The integration tests of `gripline-sim`, linked as one test binary (`it`), one module per
//! former test file; `support` is what several of them share. `realtime_no_alloc.rs` keeps a
//! binary of its own: it installs `assert_no_alloc`'s global allocator for the whole process.

mod support;

mod automatic_gearbox;
mod closed_own_tracks;
mod closed_world;
mod driver_laps;
mod ffb_car_normalisation;
mod ffb_direction_check;
mod ffb_runaway;
mod ffb_soft_lock;
mod ground_coherence;
mod laps;
mod realtime_core;
mod realtime_thread;
mod recovery;
mod replay;
mod run_length;
mod scene_solids;
mod setup_effects;
mod telemetry_out;
mod torcs_cars;
mod torcs_laps;
mod tyre_thermal;
mod wall_clearance;
mod walls;

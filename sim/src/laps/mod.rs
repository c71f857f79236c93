//! Laps for the driver to learn from: each timed lap sampled at 100 Hz ([`LapRecorder`]),
//! kept as the last, the session's best and the best ever per car and track ([`LapBook`],
//! saved as lap files), the live delta and the ghost read from the best
//! ([`CompletedLap::delta_s`], [`CompletedLap::sample_at_time`]), sector times, and CSV
//! export ([`lap_file`]).

pub mod book;
pub mod lap;
pub mod lap_file;
pub mod recorder;
pub mod sample;

pub use book::{LapBook, LapVerdict, best_lap_file, file_safe};
pub use lap::{CompletedLap, SECTORS};
pub use lap_file::{LapFacts, load_lap, save_lap};
pub use recorder::{LapRecorder, SAMPLE_INTERVAL_S};
pub use sample::{LapSample, WheelSample};

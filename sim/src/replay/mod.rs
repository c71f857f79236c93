//! Replays: every drive can be recorded and re-simulated bit for bit.
//!
//! A replay holds the identities of the car, track and set-up files (with hashes of their
//! contents), the build that recorded it, and every change the session went through after
//! it was built: each tick's sanitised controls and the commands (reset, gearbox mode,
//! aids...) at the tick they were applied ([`JournalEvent`]). Playing it builds a fresh
//! session of the same car and world and applies the same events ([`ReplayPlayer`]):
//! the same build re-simulates the same states exactly, which periodic state checkpoints
//! in the file confirm.
//!
//! - [`event`]: the events and the [`SessionJournal`] a session writes them to;
//! - [`codec`]: their binary records;
//! - [`identity`]: the build and the files' identities;
//! - [`writer`]: recording on a background thread, bounded in memory;
//! - [`reader`]: checking and streaming a file, with clear errors for damaged,
//!   incomplete or future-version files;
//! - [`player`]: re-simulating (see [`ReplayPlayer`]).
//!
//! The file format is documented in `docs/replay-format.md`.

pub mod codec;
pub mod event;
pub mod identity;
pub mod player;
pub mod reader;
pub mod writer;

pub use event::{JournalEvent, SessionJournal};
pub use identity::{FileIdentity, SessionIdentity, build_id};
pub use player::ReplayPlayer;
pub use reader::{ReplayError, ReplayFile};
pub use writer::{Overflow, ReplayHandle, ReplayHeader, ReplayJournal, start_recording};

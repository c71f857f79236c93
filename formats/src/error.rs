//! The error type of every loader in this crate.

use std::path::PathBuf;

use gripline_physics::track::TrackError;
use gripline_physics::validate::Violations;

use crate::tir::TirError;

/// Why a file could not be used. Each variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("{path}: cannot read: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        #[source]
        source: std::io::Error,
    },
    /// The file is not valid RON, or does not have the expected structure.
    #[error("{path}:{line}:{column}: {message}")]
    Syntax {
        /// The file.
        path: PathBuf,
        /// 1-based line of the problem.
        line: usize,
        /// 1-based column of the problem.
        column: usize,
        /// What the parser expected or found.
        message: String,
    },
    /// The file parsed but its values make no physical sense.
    #[error("{path}: invalid values: {violations}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// Every problem found, each with its field path.
        violations: Violations,
    },
    /// A Magic Formula property file could not be parsed.
    #[error(transparent)]
    Tir(#[from] TirError),
    /// The file's extension names no format this loader knows.
    #[error(
        "{path}: unknown tyre file type (expected .tir for Magic Formula or .ron for the other models)"
    )]
    UnknownFormat {
        /// The file.
        path: PathBuf,
    },
    /// An asset name matched no file.
    #[error("no {kind} named '{name}' (looked in {searched})")]
    NotFound {
        /// What was looked for: "tyre", "vehicle"...
        kind: &'static str,
        /// The name given.
        name: String,
        /// Where it was looked for.
        searched: String,
    },
    /// A track file's layout is valid but its ground could not be built (an object or a
    /// reference with no ground under it, a mesh too large).
    #[error("{path}: cannot build the track: {source}")]
    Track {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        #[source]
        source: TrackError,
    },
}

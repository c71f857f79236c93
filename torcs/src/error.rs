//! Why a TORCS track or car could not be read. Every variant names the file.

use std::path::PathBuf;

/// A problem with a TORCS or Speed Dreams track file (or a file it includes).
#[derive(Debug, thiserror::Error)]
pub enum TorcsError {
    /// A file could not be read.
    #[error("{path}: cannot read: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        #[source]
        source: std::io::Error,
    },
    /// The file is not well-formed XML, or not a TORCS parameter file.
    #[error("{path}:{line}:{column}: {message}")]
    Xml {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: u32,
        /// 1-based column.
        column: u32,
        /// What is wrong.
        message: String,
    },
    /// An external entity (`&default-surfaces;`) could not be included.
    #[error("{path}: entity '&{name};' refers to {target}, which cannot be read: {reason}")]
    Entity {
        /// The file that uses the entity.
        path: PathBuf,
        /// The entity's name.
        name: String,
        /// The file it refers to, resolved relative to the including file.
        target: PathBuf,
        /// Why it cannot be read.
        reason: String,
    },
    /// An attribute's value cannot be used (not a number, an unknown unit).
    #[error("{path}:{line}: attribute '{attribute}': {message}")]
    Value {
        /// The file.
        path: PathBuf,
        /// 1-based line of the attribute.
        line: u32,
        /// The attribute's name.
        attribute: String,
        /// What is wrong.
        message: String,
    },
    /// The track's description is incomplete or makes no geometric sense.
    #[error("{path}: {message}")]
    Track {
        /// The file.
        path: PathBuf,
        /// What is wrong, with the section or segment concerned.
        message: String,
    },
    /// A car's description (its file merged with its category's) is incomplete or gives a
    /// figure Gripline cannot use.
    #[error("{path}: {message}")]
    Car {
        /// The car file.
        path: PathBuf,
        /// What is wrong, with the section and attribute concerned.
        message: String,
    },
    /// The track's scene model (`.acc` / `.ac`) is malformed.
    #[error("{path}:{line}: {message}")]
    Scene {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The scene model does not lie on the track file's road (made from another version of
    /// the track, or in another frame).
    #[error(
        "{path}: the scene does not lie on the track's road: its surface is {offset_m:.1} m from the road at the median of {points} points along the centre line"
    )]
    SceneMisplaced {
        /// The scene file.
        path: PathBuf,
        /// Median distance (m), infinite where the scene has nothing above or below the road.
        offset_m: f64,
        /// Points checked.
        points: usize,
    },
}

//! TORCS and Speed Dreams tracks: the track XML (`tracks/{road,oval,dirt}/NAME/NAME.xml`) read
//! into Gripline's own track layout, so that the ground mesh, the lap timer and the driver
//! model work on it.
//!
//! - [`xml`]: the parameter-file reader (sections, numeric and text attributes, the document
//!   type's external entities) into a [`params::Params`] tree; [`units`] converts to SI.
//! - [`geometry`]: the main track built as TORCS builds it, sampled every 2 m.
//! - [`surfaces`]: TORCS surfaces and their mapping onto Gripline's.
//! - [`convert`]: the conversion into a [`TrackLayout`](gripline_physics::track::TrackLayout)
//!   with cross-sections; [`load_torcs_track`] builds it into a [`LoadedTrack`].
//! - [`discover`]: installed tracks (`torcs:NAME`) in the TORCS and Speed Dreams data folders
//!   and in `$GRIPLINE_TORCS_TRACKS`.
//! - [`ac3d`]: the AC3D / `.acc` model reader; [`scene_file`]: the track's scene from it, in
//!   the world frame, batched by texture, with its textures found and decoded
//!   ([`texture_image`]: PNG and [`sgi`] images, TORCS's texture folders).
//! - [`error`]: [`TorcsError`], naming the file and what is wrong for every failure.

pub mod ac3d;
mod bounds;
pub mod convert;
pub mod discover;
pub mod error;
pub mod geometry;
pub mod params;
pub mod scene_alignment;
pub mod scene_file;
pub mod sgi;
pub mod surfaces;
pub mod texture_image;
pub mod units;
pub mod xml;

#[cfg(test)]
mod scene_tests;
#[cfg(test)]
mod tests;

pub use convert::{ImportedTrack, import_track};
pub use discover::{InstalledTrack, installed_tracks};
pub use error::TorcsError;
pub use params::{Params, Section};
pub use scene_file::{TrackScene, load_scene, scene_for_track, scene_path_for_track};
pub use xml::{parse_params, read_params};

use std::path::Path;

use crate::error::ConfigError;
use crate::track_file::LoadedTrack;

/// Prefix of a track name that names an installed TORCS / Speed Dreams track (`torcs:forza`).
pub const TRACK_PREFIX: &str = "torcs:";

/// Imports a TORCS track file and builds its ground mesh.
///
/// # Errors
/// [`ConfigError::Torcs`] when the file cannot be read or converted, [`ConfigError::Track`]
/// when its ground cannot be built; each names the file.
pub fn load_torcs_track(path: &Path) -> Result<LoadedTrack, ConfigError> {
    let imported = import_track(path)?;
    let files = imported.files;
    let mut loaded =
        LoadedTrack::build(imported.name, imported.description, imported.layout, path)?;
    loaded.files = files;
    Ok(loaded)
}

//! Loading the track a drive names. A track name is a path, the stem of a Gripline track file
//! in `assets/tracks/`, or [`TRACK_PREFIX`]`NAME` for an installed TORCS / Speed Dreams track
//! (the simulator's endless `flat` plane is its own); a track file is a Gripline track
//! (`.ron`) or a TORCS / Speed Dreams track (`.xml`), which is imported.
//!
//! The dispatch lives here, above both kinds: `gripline-formats` reads Gripline's own track
//! files and knows nothing of TORCS.

use std::path::{Path, PathBuf};

use gripline_formats::assets;
use gripline_formats::error::ConfigError;
use gripline_formats::track_file::{self, LoadedTrack};

use crate::error::TorcsError;
use crate::track::closed_world::{ClosedWorld, close_world};
use crate::track::convert::import_track;
use crate::track::discover::find_track;

/// Prefix of a track name that names an installed TORCS / Speed Dreams track (`torcs:forza`).
pub const TRACK_PREFIX: &str = "torcs:";

/// Why a track could not be loaded. Each variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum TrackLoadError {
    /// A Gripline track file could not be used, or a track's ground could not be built.
    #[error(transparent)]
    Format(#[from] ConfigError),
    /// A TORCS or Speed Dreams track file could not be read or converted.
    #[error(transparent)]
    Torcs(#[from] TorcsError),
}

/// Imports a TORCS track file and builds its ground mesh.
///
/// # Errors
/// [`TrackLoadError::Torcs`] when the file cannot be read or converted,
/// [`TrackLoadError::Format`] ([`ConfigError::Track`]) when its ground cannot be built; each
/// names the file.
pub fn load_torcs_track(path: &Path) -> Result<LoadedTrack, TrackLoadError> {
    let imported = import_track(path)?;
    let files = imported.files;
    let mut loaded =
        LoadedTrack::build(imported.name, imported.description, imported.layout, path)?;
    loaded.files = files;
    Ok(loaded)
}

/// Imports a TORCS track file as a closed world: [`load_torcs_track`]'s ground with the
/// scene's ground beyond it and a boundary wall round both ([`close_world`]), and what was
/// made of the scene.
///
/// # Errors
/// As [`load_torcs_track`]; a missing or misplaced scene is not an error (see
/// [`ClosedWorld::scene_refused`]).
pub fn load_torcs_world(path: &Path) -> Result<(LoadedTrack, ClosedWorld), TrackLoadError> {
    let imported = import_track(path)?;
    let files = imported.files;
    let mut loaded =
        LoadedTrack::build(imported.name, imported.description, imported.layout, path)?;
    loaded.files = files;
    let world = close_world(
        &mut loaded,
        path,
        &imported.surfaces,
        imported.main.torcs_lower_corner_m,
    );
    Ok((loaded, world))
}

/// Resolves a track given as a path, as the stem of a file in `assets/tracks/`
/// (`proving-ground`, `circuit`), or as `torcs:NAME` for an installed TORCS / Speed Dreams
/// track (its `NAME.xml`; see [`crate::track::discover`]).
///
/// # Errors
/// [`ConfigError::NotFound`] naming the places searched.
pub fn resolve_any_track(name: &str) -> Result<PathBuf, ConfigError> {
    if let Some(torcs) = name.strip_prefix(TRACK_PREFIX) {
        return find_track(torcs);
    }
    assets::resolve_track(name)
}

/// Loads a track file and builds its ground: a Gripline track (`.ron`) or a TORCS / Speed
/// Dreams track (`.xml`, imported as a closed world by [`load_torcs_world`]).
///
/// # Errors
/// Any [`TrackLoadError`]; each names the file.
pub fn load_any_track(path: &Path) -> Result<LoadedTrack, TrackLoadError> {
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("xml"))
    {
        return Ok(load_torcs_world(path)?.0);
    }
    Ok(track_file::load_track(path)?)
}

//! TORCS and Speed Dreams tracks: the track XML (`tracks/{road,oval,dirt}/NAME/NAME.xml`) read
//! into Gripline's own track layout, so that the ground mesh, the lap timer and the driver
//! model work on it.
//!
//! - [`geometry`]: the main track built as TORCS builds it, sampled every 2 m.
//! - [`surfaces`]: TORCS surfaces and their mapping onto Gripline's.
//! - [`convert`]: the conversion into a [`TrackLayout`](gripline_physics::track::TrackLayout)
//!   with cross-sections.
//! - [`load`]: [`load::load_torcs_track`] builds it into a
//!   [`LoadedTrack`](gripline_formats::track_file::LoadedTrack); [`load::resolve_any_track`]
//!   and [`load::load_any_track`] take any track a drive names (`torcs:NAME` included).
//! - [`discover`]: installed tracks (`torcs:NAME`) in the TORCS and Speed Dreams data folders
//!   and in `$GRIPLINE_TORCS_TRACKS`.
//! - [`scene_file`]: the track's scene from its AC3D model, in the world frame, batched by
//!   texture, with its textures found and decoded; [`scene_alignment`] checks that it lies
//!   on the imported road.
//! - [`closed_world`]: the world a car drives in on a TORCS track: the generated ground, the
//!   scene's ground beyond it ([`scene_ground`], [`scene_seam`]), a boundary wall round
//!   both ([`boundary_wall`]) and the scene's solid objects ([`scene_solids`]);
//!   [`load::load_any_track`] builds it.

pub mod boundary_wall;
mod bounds;
pub mod closed_world;
pub mod convert;
pub mod discover;
pub mod geometry;
pub mod load;
pub mod scene_alignment;
pub mod scene_file;
pub mod scene_ground;
pub mod scene_seam;
pub mod scene_solids;
pub mod surfaces;

//! # gripline-torcs
//!
//! TORCS and Speed Dreams data read into Gripline's own types. The readers of TORCS's file
//! kinds stand on their own, so that an importer of other TORCS data (cars) can share them;
//! the track import is built on them.
//!
//! Readers:
//! - [`xml`]: the parameter-file reader (sections, numeric and text attributes, the document
//!   type's external entities) into a [`params::Params`] tree; [`units`] converts to SI.
//! - [`ac3d`]: the AC3D / `.acc` model reader.
//! - [`texture_image`]: textures found the way TORCS searches its folders, and decoded (PNG
//!   and [`sgi`] images) into an [`image::TextureImage`].
//! - [`error`]: [`error::TorcsError`], naming the file and what is wrong for every failure.
//!
//! Tracks ([`track`]): the track XML (`tracks/{road,oval,dirt}/NAME/NAME.xml`) read into
//! Gripline's own track layout, so that the ground mesh, the lap timer and the driver model
//! work on it; its scene for the renderer; the installed tracks; and
//! [`track::load`], which loads any track a drive names: a Gripline track file, a TORCS
//! track file, or an installed TORCS track (`torcs:NAME`).
//!
//! Cars ([`car`]): a car file merged over its category's and mapped onto Gripline's vehicle
//! parameters and tyres; the installed cars; and [`car::load::load_any_vehicle`], which
//! loads any vehicle a drive names (`torcs:NAME` included).

pub mod ac3d;
pub mod car;
pub mod error;
pub mod image;
mod line_index;
pub mod params;
pub mod sgi;
pub mod texture_image;
pub mod track;
pub mod units;
pub mod xml;

#[cfg(test)]
mod car_tests;
#[cfg(test)]
mod scene_tests;
#[cfg(test)]
mod tests;

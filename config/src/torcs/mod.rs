//! TORCS and Speed Dreams tracks: the track XML (`tracks/{road,oval,dirt}/NAME/NAME.xml`) read
//! into Gripline's own track layout, so that the ground mesh, the lap timer and the driver
//! model work on it.
//!
//! - [`xml`]: the parameter-file reader (sections, numeric and text attributes, the document
//!   type's external entities) into a [`params::Params`] tree; [`units`] converts to SI.
//! - [`error`]: [`TorcsError`], naming the file and what is wrong for every failure.

pub mod error;
pub mod params;
pub mod units;
pub mod xml;

#[cfg(test)]
mod tests;

pub use error::TorcsError;
pub use params::{Params, Section};
pub use xml::{parse_params, read_params};

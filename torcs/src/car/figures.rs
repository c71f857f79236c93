//! Reading a merged car description ([`super::merge`]) the way TORCS's `GfParmGetNum` does:
//! a number at a section path, or TORCS's default for it where the car and its category give
//! none. Every number used must be finite; an attribute that is text where a number belongs
//! is an error naming its file and line.

use std::path::{Path, PathBuf};

use crate::error::TorcsError;
use crate::params::Section;

/// TORCS's section names of the four corners, in TORCS's order (front right, front left,
/// rear right, rear left), for the wheel, suspension and brake sections.
pub const WHEEL_SECTIONS: [&str; 4] = [
    "Front Right Wheel",
    "Front Left Wheel",
    "Rear Right Wheel",
    "Rear Left Wheel",
];

/// The suspension sections, in the order of [`WHEEL_SECTIONS`].
pub const SUSPENSION_SECTIONS: [&str; 4] = [
    "Front Right Suspension",
    "Front Left Suspension",
    "Rear Right Suspension",
    "Rear Left Suspension",
];

/// The brake sections, in the order of [`WHEEL_SECTIONS`].
pub const BRAKE_SECTIONS: [&str; 4] = [
    "Front Right Brake",
    "Front Left Brake",
    "Rear Right Brake",
    "Rear Left Brake",
];

/// A merged car description, read with TORCS's defaults.
#[derive(Clone, Copy, Debug)]
pub struct Figures<'a> {
    root: &'a Section,
    path: &'a Path,
}

impl<'a> Figures<'a> {
    /// The description `root`, read from the car file `path` (named in errors).
    pub fn new(root: &'a Section, path: &'a Path) -> Self {
        Self { root, path }
    }

    /// The car file.
    pub fn path(&self) -> PathBuf {
        self.path.to_owned()
    }

    /// The section at `section` (a `/`-separated path), if the car or its category has it.
    pub fn section(&self, section: &str) -> Option<&'a Section> {
        self.root.at(section)
    }

    /// The number `name` of `section` (SI), `None` where neither file gives it.
    ///
    /// # Errors
    /// The attribute is text, or not finite.
    pub fn get(&self, section: &str, name: &str) -> Result<Option<f64>, TorcsError> {
        let Some(s) = self.root.at(section) else {
            return Ok(None);
        };
        match s.number(name)? {
            Some(x) if !x.is_finite() => Err(self.error(format!(
                "section '{section}', attribute '{name}' is not a finite number"
            ))),
            other => Ok(other),
        }
    }

    /// The number `name` of `section` (SI), or TORCS's `default` for it.
    ///
    /// # Errors
    /// As [`Figures::get`].
    pub fn num(&self, section: &str, name: &str, default: f64) -> Result<f64, TorcsError> {
        Ok(self.get(section, name)?.unwrap_or(default))
    }

    /// The text `name` of `section`, `None` where neither file gives it.
    ///
    /// # Errors
    /// The attribute is a number.
    pub fn text(&self, section: &str, name: &str) -> Result<Option<&'a str>, TorcsError> {
        match self.root.at(section) {
            Some(s) => s.text(name),
            None => Ok(None),
        }
    }

    /// An error about this car.
    pub fn error(&self, message: impl Into<String>) -> TorcsError {
        TorcsError::Car {
            path: self.path.to_owned(),
            message: message.into(),
        }
    }
}

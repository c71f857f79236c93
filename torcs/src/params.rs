//! A TORCS parameter file as a tree: named sections holding numeric (`<attnum>`) and text
//! (`<attstr>`) attributes and further sections, in file order. Numbers are already in SI
//! (see [`units`](super::units)). Every node remembers its file and line for error messages.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::error::TorcsError;

/// The value of an attribute.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// An `<attnum>`, converted to SI.
    Number(f64),
    /// An `<attstr>`.
    Text(String),
}

/// One `<attnum>` or `<attstr>`.
#[derive(Clone, Debug, PartialEq)]
pub struct Attribute {
    /// Its name (`lg`, `radius`, `surface`...).
    pub name: String,
    /// Its value.
    pub value: Value,
    /// 1-based line in its file.
    pub line: u32,
}

/// One `<section>` (or the `<params>` root).
#[derive(Clone, Debug, PartialEq)]
pub struct Section {
    /// Its name (`Main Track`, a segment's name...).
    pub name: String,
    /// The file it was read from (the track file, or a file included through an entity).
    pub file: Arc<Path>,
    /// 1-based line in that file.
    pub line: u32,
    /// Its attributes, in file order.
    pub attributes: Vec<Attribute>,
    /// Its sections, in file order.
    pub sections: Vec<Section>,
}

impl Section {
    /// The first direct sub-section called `name`.
    pub fn section(&self, name: &str) -> Option<&Section> {
        self.sections.iter().find(|s| s.name == name)
    }

    /// The section at a `/`-separated path of names below this one (`Main Track/Track Segments`).
    pub fn at(&self, path: &str) -> Option<&Section> {
        path.split('/')
            .filter(|p| !p.is_empty())
            .try_fold(self, |s, name| s.section(name))
    }

    /// The last attribute called `name` (a later one overrides an earlier one, as in TORCS).
    pub fn attribute(&self, name: &str) -> Option<&Attribute> {
        self.attributes.iter().rev().find(|a| a.name == name)
    }

    /// The numeric attribute `name` (SI), `None` when absent.
    ///
    /// # Errors
    /// [`TorcsError::Value`] when the attribute is text.
    pub fn number(&self, name: &str) -> Result<Option<f64>, TorcsError> {
        match self.attribute(name) {
            None => Ok(None),
            Some(Attribute {
                value: Value::Number(x),
                ..
            }) => Ok(Some(*x)),
            Some(a) => Err(self.value_error(a, "must be a number (<attnum>)")),
        }
    }

    /// The text attribute `name`, `None` when absent.
    ///
    /// # Errors
    /// [`TorcsError::Value`] when the attribute is a number.
    pub fn text(&self, name: &str) -> Result<Option<&str>, TorcsError> {
        match self.attribute(name) {
            None => Ok(None),
            Some(Attribute {
                value: Value::Text(t),
                ..
            }) => Ok(Some(t.as_str())),
            Some(a) => Err(self.value_error(a, "must be text (<attstr>)")),
        }
    }

    /// An error about attribute `attribute` of this section.
    pub fn value_error(&self, attribute: &Attribute, message: &str) -> TorcsError {
        TorcsError::Value {
            path: self.file.to_path_buf(),
            line: attribute.line,
            attribute: attribute.name.clone(),
            message: format!("in section '{}': {message}", self.name),
        }
    }

    /// An error about this section as a whole.
    pub fn error(&self, message: impl Into<String>) -> TorcsError {
        TorcsError::Track {
            path: self.file.to_path_buf(),
            message: format!(
                "section '{}' (line {}): {}",
                self.name,
                self.line,
                message.into()
            ),
        }
    }
}

/// A whole parameter file.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// The file read.
    pub path: PathBuf,
    /// The `<params>` element as a section (its name is the `name` attribute).
    pub root: Section,
    /// What was skipped while reading (references to undeclared entities).
    pub warnings: Vec<String>,
}

impl Params {
    /// Every file the parameters were read from: the file read first, then the files it
    /// includes through entities (TORCS's shared `surfaces.xml`), each once, in the order
    /// their sections appear.
    pub fn files(&self) -> Vec<PathBuf> {
        let mut files = vec![self.path.clone()];
        let mut pending = vec![&self.root];
        while let Some(section) = pending.pop() {
            if !files.iter().any(|f| f.as_path() == &*section.file) {
                files.push(section.file.to_path_buf());
            }
            pending.extend(section.sections.iter().rev());
        }
        files
    }
}

//! RON parsing shared by every RON file format, with file, line and column in every error.

use std::path::Path;

use ron::extensions::Extensions;
use serde::de::DeserializeOwned;

use crate::error::ConfigError;

/// The RON options of every Gripline file: `Some(x)` may be written `x`. A model variant
/// holding a struct is written with double parentheses: `Brush((mu: 1.0))`.
fn options() -> ron::Options {
    ron::Options::default().with_default_extension(Extensions::IMPLICIT_SOME)
}

/// Parses `text` (the content of `path`) as a `T`.
///
/// # Errors
/// [`ConfigError::Syntax`] with the 1-based line and column of the first problem.
pub fn parse<T: DeserializeOwned>(text: &str, path: &Path) -> Result<T, ConfigError> {
    options()
        .from_str(text)
        .map_err(|e: ron::error::SpannedError| ConfigError::Syntax {
            path: path.to_owned(),
            line: e.span.start.line,
            column: e.span.start.col,
            message: e.code.to_string(),
        })
}

/// Reads a file to a string, naming the file in the error.
///
/// # Errors
/// [`ConfigError::Io`] when the file cannot be read or is not UTF-8.
pub fn read(path: &Path) -> Result<String, ConfigError> {
    std::fs::read_to_string(path).map_err(|source| ConfigError::Io {
        path: path.to_owned(),
        source,
    })
}

/// Serialises `value` as pretty RON, in the style of the shipped files.
///
/// # Errors
/// The serialiser's message if `value` cannot be represented (non-string map keys and such).
pub fn to_pretty<T: serde::Serialize>(value: &T) -> Result<String, ron::Error> {
    ron::ser::to_string_pretty(
        value,
        ron::ser::PrettyConfig::default()
            .struct_names(false)
            .depth_limit(4),
    )
}

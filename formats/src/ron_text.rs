//! RON parsing shared by every RON file format, with file, line and column in every error.
//!
//! Asset types deny fields they do not know ([`parse`]). Settings types accept them at the
//! serde level: [`parse_strict`] turns such a field into an error (the input settings file),
//! and [`parse_lenient`] returns them as [`UnknownField`]s for the caller to report as
//! warnings (settings files written by a newer version must still load).

use std::path::Path;

use ron::extensions::Extensions;
use serde::de::DeserializeOwned;

use crate::error::ConfigError;

/// The RON options of every Gripline file: `Some(x)` may be written `x`. A model variant
/// holding a struct is written with double parentheses: `Brush((mu: 1.0))`.
fn options() -> ron::Options {
    ron::Options::default().with_default_extension(Extensions::IMPLICIT_SOME)
}

/// A field in a file that the type being read does not have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownField {
    /// Field path, e.g. `ffb.gian` or `axes[2].calibration.dedzone`.
    pub path: String,
    /// 1-based line and column of the field's name in the text, when it could be found
    /// (the first `name:` in the text not yet attributed to an earlier unknown field).
    pub position: Option<(usize, usize)>,
}

/// Parses `text` (the content of `path`) as a `T`, with `T`'s own rules for fields it does
/// not know (asset types deny them).
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

/// Parses `text` (the content of `path`) as a `T`; a field `T` does not know is an error,
/// even where `T` itself would ignore it (the settings types, which are lenient for
/// [`parse_lenient`]).
///
/// # Errors
/// [`ConfigError::Syntax`] with the 1-based line and column of the first problem.
pub fn parse_strict<T: DeserializeOwned>(text: &str, path: &Path) -> Result<T, ConfigError> {
    let (value, unknown) = parse_lenient(text, path)?;
    if let Some(field) = unknown.first() {
        let (line, column) = field.position.unwrap_or((1, 1));
        return Err(ConfigError::Syntax {
            path: path.to_owned(),
            line,
            column,
            message: format!("unknown field `{}`", field.path),
        });
    }
    Ok(value)
}

/// Parses `text` (the content of `path`) as a `T`, ignoring fields `T` does not know and
/// returning them.
///
/// # Errors
/// [`ConfigError::Syntax`] with the 1-based line and column of the first problem.
pub fn parse_lenient<T: DeserializeOwned>(
    text: &str,
    path: &Path,
) -> Result<(T, Vec<UnknownField>), ConfigError> {
    let syntax = |e: ron::error::SpannedError| ConfigError::Syntax {
        path: path.to_owned(),
        line: e.span.start.line,
        column: e.span.start.col,
        message: e.code.to_string(),
    };
    let mut de = ron::Deserializer::from_str_with_options(text, &options()).map_err(syntax)?;
    let mut paths = Vec::new();
    let value: Result<T, ron::Error> =
        serde_ignored::deserialize(&mut de, |p| paths.push(field_path(&p)));
    let value = value.map_err(|e| syntax(de.span_error(e)))?;
    de.end().map_err(|e| syntax(de.span_error(e)))?;
    let mut taken = Vec::new();
    let unknown = paths
        .into_iter()
        .map(|path| {
            let name = path.rsplit('.').next().unwrap_or(&path).to_owned();
            let position = find_field(text, &name, &mut taken);
            UnknownField { path, position }
        })
        .collect();
    Ok((value, unknown))
}

/// `serde_ignored`'s path as a field path: `ffb.devices[0].foo`.
fn field_path(path: &serde_ignored::Path<'_>) -> String {
    match path {
        serde_ignored::Path::Root => String::new(),
        serde_ignored::Path::Seq { parent, index } => format!("{}[{index}]", field_path(parent)),
        serde_ignored::Path::Map { parent, key } => {
            let parent = field_path(parent);
            if parent.is_empty() {
                key.clone()
            } else {
                format!("{parent}.{key}")
            }
        }
        serde_ignored::Path::Some { parent }
        | serde_ignored::Path::NewtypeStruct { parent }
        | serde_ignored::Path::NewtypeVariant { parent } => field_path(parent),
    }
}

/// 1-based line and column of the first `name:` (as a whole identifier) in `text` whose byte
/// offset is not in `taken`; the offset found is added to `taken`.
fn find_field(text: &str, name: &str, taken: &mut Vec<usize>) -> Option<(usize, usize)> {
    if name.is_empty() {
        return None;
    }
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut from = 0;
    while let Some(found) = text[from..].find(name) {
        let start = from + found;
        let end = start + name.len();
        from = end;
        let before_ok = !text[..start].chars().next_back().is_some_and(is_ident);
        let after = text[end..].trim_start();
        if before_ok && after.starts_with(':') && !taken.contains(&start) {
            taken.push(start);
            return Some(line_column(text, start));
        }
    }
    None
}

/// 1-based line and column (in characters) of byte offset `offset` of `text`.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize, PartialEq)]
    struct Inner {
        a: f64,
    }
    #[derive(Debug, serde::Deserialize, PartialEq)]
    struct Outer {
        inner: Inner,
        list: Vec<Inner>,
    }

    #[test]
    fn unknown_fields_are_listed_with_positions() {
        let text = "(\n  inner: (a: 1.0, b: 2.0),\n  list: [(a: 2.0), (a: 3.0,\n b: 1)],\n  extra: \"x\",\n)";
        let (v, unknown): (Outer, _) = parse_lenient(text, Path::new("t.ron")).unwrap();
        assert_eq!(v.list.len(), 2);
        let got: Vec<_> = unknown
            .iter()
            .map(|u| (u.path.as_str(), u.position))
            .collect();
        assert_eq!(
            got,
            [
                ("inner.b", Some((2, 19))),
                ("list[1].b", Some((4, 2))),
                ("extra", Some((5, 3)))
            ]
        );
        let err = parse_strict::<Outer>(text, Path::new("t.ron")).unwrap_err();
        assert_eq!(err.to_string(), "t.ron:2:19: unknown field `inner.b`");
    }

    #[test]
    fn line_column_counts_characters() {
        assert_eq!(line_column("ab\ncé d", 6), (2, 3));
        assert_eq!(line_column("", 0), (1, 1));
    }
}

//! Who and what a replay was recorded with: the build, and the car, track and set-up files
//! with hashes of their contents, so that playing it with another build or changed files
//! can say so.

use std::fmt;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use super::codec::Fnv64;

/// The build that records and plays replays: package version and the git commit a release
/// build was made from (`unknown` outside a git checkout, `dev` for every dev build). Bit-identical re-simulation is promised
/// for the same build only: another compiler or commit may round differently.
pub fn build_id() -> String {
    format!(
        "gripline {} ({})",
        env!("CARGO_PKG_VERSION"),
        option_env!("GRIPLINE_GIT_COMMIT").unwrap_or("unknown")
    )
}

/// One input of a session: how to find it again and a hash of its files.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileIdentity {
    /// What the session was loaded from: a shipped asset's name or a path (absolute when
    /// recorded from a path), as `--vehicle`/`--track` take it.
    pub spec: String,
    /// Display name (the file's `name`).
    pub name: String,
    /// FNV-1a of the files' bytes in order, as 16 hex digits; empty when there are no files
    /// (the flat plane).
    pub content_hash: String,
}

impl FileIdentity {
    /// The identity of `spec` read from `files` (hashed now).
    ///
    /// # Errors
    /// A file that cannot be read.
    pub fn of_files(spec: &str, name: &str, files: &[PathBuf]) -> Result<Self> {
        Ok(Self {
            spec: spec_of(spec),
            name: name.to_owned(),
            content_hash: hash_files(files)?,
        })
    }

    /// An input without files (the flat plane).
    pub fn builtin(spec: &str, name: &str) -> Self {
        Self {
            spec: spec.to_owned(),
            name: name.to_owned(),
            content_hash: String::new(),
        }
    }

    /// An identity that cannot be loaded again (a session built in code, in tests).
    pub fn unnamed(name: &str) -> Self {
        Self::builtin("", name)
    }
}

impl fmt::Display for FileIdentity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.spec.is_empty() || self.spec == self.name {
            write!(f, "'{}'", self.name)
        } else {
            write!(f, "'{}' ({})", self.name, self.spec)
        }
    }
}

/// A spec as it will be found again: paths made absolute, asset names as given.
fn spec_of(spec: &str) -> String {
    let path = Path::new(spec);
    let looks_like_path = path.components().count() > 1 || path.extension().is_some();
    if looks_like_path {
        std::fs::canonicalize(path).map_or_else(|_| spec.to_owned(), |p| p.display().to_string())
    } else {
        spec.to_owned()
    }
}

/// FNV-1a of the files' bytes, each preceded by its length, as 16 hex digits.
///
/// # Errors
/// A file that cannot be read.
pub fn hash_files(files: &[PathBuf]) -> Result<String> {
    let mut h = Fnv64::default();
    for file in files {
        let bytes =
            std::fs::read(file).with_context(|| format!("{}: cannot read", file.display()))?;
        h.write(&(bytes.len() as u64).to_le_bytes());
        h.write(&bytes);
    }
    Ok(format!("{:016x}", h.finish()))
}

/// The identities of a session's inputs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionIdentity {
    /// The vehicle file and its tyre files.
    pub vehicle: FileIdentity,
    /// The track file (or the flat plane).
    pub track: FileIdentity,
    /// The set-up, `None` for the car file's own values.
    pub setup: Option<FileIdentity>,
}

impl SessionIdentity {
    /// Whether a replay can load these inputs again (they were loaded by name or path).
    pub fn is_loadable(&self) -> bool {
        !self.vehicle.spec.is_empty() && !self.track.spec.is_empty()
    }
}

//! # gripline-tests
//!
//! End-to-end tests of Gripline across its crates live in `tests/tests/`: the Magic Formula
//! conformance against `MFeval`'s reference outputs, the `.tir` parser, the sign conventions and
//! robustness of every shipped tyre file, and (as the project grows) headless drives and
//! render goldens. This library holds what those tests share: where the repository's data is.

use std::path::PathBuf;

pub mod random_controls;

/// The repository's root folder.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from(".."), std::path::Path::to_path_buf)
}

/// The shipped `assets/` folder.
pub fn assets_dir() -> PathBuf {
    repo_root().join("assets")
}

/// Every shipped tyre file (`assets/tyres/*.ron` and `*.tir`), sorted.
pub fn shipped_tyre_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(assets_dir().join("tyres"))
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| {
            matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("ron" | "tir")
            )
        })
        .collect();
    files.sort();
    files
}

/// Test data folder of this package (`tests/data`).
pub fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data")
}

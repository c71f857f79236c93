//! What the offscreen GPU tests share: the software adapter (or a skip) and their output
//! folders.

use std::path::PathBuf;

use gripline_render::{AdapterChoice, GpuContext};

/// The software adapter; `None` (the test skips) when `GRIPLINE_SKIP_GPU_TESTS=1` asks for it.
///
/// # Panics
/// When there is no software adapter, with how to install one.
pub fn gpu() -> Option<GpuContext> {
    if std::env::var_os("GRIPLINE_SKIP_GPU_TESTS").is_some_and(|v| !v.is_empty() && v != "0") {
        eprintln!("GRIPLINE_SKIP_GPU_TESTS is set: skipping a GPU test");
        return None;
    }
    match GpuContext::headless(AdapterChoice::Software) {
        Ok(gpu) => Some(gpu),
        Err(e) => panic!(
            "GPU tests need a software adapter: {e}. Install Mesa's lavapipe \
             (apt install mesa-vulkan-drivers) or set GRIPLINE_SKIP_GPU_TESTS=1 to skip them."
        ),
    }
}

/// The folder (created) under the test target directory where a test writes its frames
/// for a person to look at.
pub fn out_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&dir).expect("output dir");
    dir
}

/// Whether the long versions of the tests are asked for: `GRIPLINE_FULL_CHECK=1`, which
/// `scripts/check.sh --full` sets. The default check runs their short versions.
pub fn full_check() -> bool {
    std::env::var_os("GRIPLINE_FULL_CHECK").is_some_and(|v| v == "1")
}

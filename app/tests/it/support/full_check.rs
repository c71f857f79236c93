//! The long versions of the tests: `scripts/check.sh --full` sets `GRIPLINE_FULL_CHECK=1`
//! (docs/performance.md, "CI time"); the default check runs their short versions.

/// Whether the full check runs (`GRIPLINE_FULL_CHECK` set to anything but `0`).
pub fn full_check() -> bool {
    std::env::var_os("GRIPLINE_FULL_CHECK").is_some_and(|v| v != "0")
}

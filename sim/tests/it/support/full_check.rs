//! The long versions of the simulations: `scripts/check.sh --full` sets `GRIPLINE_FULL_CHECK=1`
//! (docs/performance.md, "CI time"); the default check runs short versions or skips.

/// Whether the full check runs (`GRIPLINE_FULL_CHECK` set to anything but `0`).
pub fn full_check() -> bool {
    std::env::var_os("GRIPLINE_FULL_CHECK").is_some_and(|v| v != "0")
}

/// Whether a test that runs only in the full check should run; prints why it is skipped
/// (`what` says what it would cost) when not.
pub fn run_in_full_check_only(what: &str) -> bool {
    let full = full_check();
    if !full {
        println!("skipped: set GRIPLINE_FULL_CHECK=1 ({what})");
    }
    full
}

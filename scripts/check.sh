#!/usr/bin/env bash
# Quick start, command 2: install what is missing (including what tests need), then run
# every check: formatting, clippy with warnings as errors, the API docs (broken or private
# links are errors), and all tests.
#   scripts/check.sh          every test, the long simulations in their short versions
#   scripts/check.sh --full   the same with the long versions (GRIPLINE_FULL_CHECK=1: every
#                             TORCS track drawn, ...) and the ignored long soak
set -euo pipefail
cd "$(dirname "$0")/.."

full=0
for arg in "$@"; do
  case "$arg" in
    --full) full=1 ;;
    *) echo "usage: scripts/check.sh [--full]" >&2; exit 2 ;;
  esac
done

scripts/setup.sh --test

# CI builds from a clean tree once: incremental compilation would only write its cache.
if [[ "${CI:-}" == "true" ]]; then
  export CARGO_INCREMENTAL=0
fi

step() { echo; echo "==> $*"; }

step "cargo fmt --check"
cargo fmt --all -- --check

# Clippy and doc share the dependencies' metadata builds (the same target folder, flags and
# features): doc only re-checks the workspace's own crates. Keep RUSTFLAGS the same for both.
step "cargo clippy (all targets, warnings are errors)"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "cargo doc (warnings are errors)"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked

if [[ $full -eq 1 ]]; then
  step "cargo test (all crates, long versions: GRIPLINE_FULL_CHECK=1)"
  GRIPLINE_FULL_CHECK=1 cargo test --workspace --locked
  # The ignored tests of the workspace are this soak and settings_platform_dir's children,
  # which only run in the child processes their parent test starts.
  step "cargo test (the long robustness soak)"
  cargo test -p gripline-tests --test it --locked -- --ignored --exact vehicle_robustness::long_soak
else
  step "cargo test (all crates)"
  cargo test --workspace --locked
fi

echo
echo "check: all checks passed"

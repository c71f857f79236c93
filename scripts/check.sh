#!/usr/bin/env bash
# Quick start, command 2: install what is missing (including what tests need), then run
# every check: formatting, clippy with warnings as errors, the API docs (broken or private
# links are errors), and all tests.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --test

step() { echo; echo "==> $*"; }

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy (all targets, warnings are errors)"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "cargo doc (warnings are errors)"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked

step "cargo test (all crates)"
cargo test --workspace --locked

echo
echo "check: all checks passed"

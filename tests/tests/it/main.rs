//! The end-to-end tests of Gripline across its crates, linked as one test binary (`it`): each
//! module was its own test file, and keeps its tests' names under the module's name
//! (`cargo test -p gripline-tests --test it tir_parser::` runs one of them).
//!
//! Proptest keeps the seeds of past failures in `tests/tests/proptest-regressions/` (the
//! folder beside this binary's `main.rs`, proptest's default), one `.txt` file per module.

mod file_import_cycles;
mod load_sensitivity;
mod mfeval_conformance;
mod relaxation_lengths;
mod tir_parser;
mod tire_conventions;
mod tire_models_a;
mod tire_models_b;
mod vehicle_reverse;
mod vehicle_robustness;
mod vehicle_straight;

//! Robustness.

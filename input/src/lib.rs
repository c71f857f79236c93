//! # gripline-input
//!
//! The input layer of Gripline (DESIGN.md section 5).
pub mod calibration;
pub mod device;

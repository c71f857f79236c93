//! # gripline-input
//!
//! The input layer of Gripline (DESIGN.md section 5).
pub mod bindings;
pub mod calibration;
pub mod device;
pub mod digital;
pub mod ffb;
pub mod shifter;

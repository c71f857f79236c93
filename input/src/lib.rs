//! # gripline-input
//!
//! The input layer of Gripline (DESIGN.md section 5): it turns wheels, pedals, shifters and
//! handbrakes into calibrated `Controls` on the sim thread, and turns the steering-column
//! torque from the physics into force-feedback commands for the wheel's motor.
//!
//! Planned layout, one concept per module:
//! - devices: gilrs (filters off) for axes and buttons, evdev/hidapi for what gilrs cannot see,
//!   stable device identities and hot-plug, the known-wheel table;
//! - calibration: raw range capture, dead zone, anti-dead zone, gamma, invert, combined pedals;
//! - bindings: axes and buttons to controls, H-pattern and sequential shifters;
//! - ffb: the pipeline (gain, damping, soft clip, slew limit, clamp) and its safety rules;
//! - backends: evdev `FF_CONSTANT`, Logitech classic and HID PID over hidapi.
//!
//! This crate is empty until the input issue lands; the workspace already pins its
//! dependencies (gilrs 0.11, hidapi 2) in `[workspace.dependencies]`.

//! Byte-exact encoders of force-feedback protocols, checked against `ffb_input.md`.
//!
//! Pure functions from values to bytes (and a HID report-descriptor parser); the hidapi and
//! evdev backends that write them to a device are not part of this crate yet.

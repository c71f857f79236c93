//! Force-feedback backends on real devices (the pipeline, the safety rules, the writer thread
//! and the protocol encoders are `gripline_input::ffb`'s):
//!
//! - [`evdev_ff`]: the Linux evdev `FF_CONSTANT` backend over a small device trait, and
//!   `evdev_ff_linux` (Linux only), the real device;
//! - [`hidapi_device`]: raw HID through hidapi under the Logitech classic and HID PID
//!   backends;
//! - [`sysfs_range`]: the rotation range written to the kernel driver (lg4ff, tmff2, fanatec);
//! - [`open`]: opening the backend `gripline_input::ffb::select` chose on the real device.

pub mod evdev_ff;
#[cfg(target_os = "linux")]
pub mod evdev_ff_linux;
pub mod hidapi_device;
pub mod open;
pub mod sysfs_range;

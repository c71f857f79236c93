//! # gripline-devices
//!
//! The device backends of Gripline's input layer (`gripline-input`, the hardware-independent
//! core they plug into): everything that opens a real device or links a device library
//! (gilrs, evdev, hidapi, libc).
//!
//! - [`gilrs_backend`]: the gilrs input backend (its filters off) and a device listing for
//!   `gripline devices`;
//! - [`evdev_input`]: the Linux evdev input backend, including the devices gilrs drops:
//!   game-controller detection, raw `EV_ABS`/`EV_KEY` events with `absinfo` ranges,
//!   `SYN_DROPPED` resync, hot-plug;
//! - [`device_thread`]: input devices polled on their own thread, forwarded to the sim thread
//!   through a ring;
//! - [`ffb`]: the force-feedback backends: [`ffb::evdev_ff`] (Linux `FF_CONSTANT`: one
//!   infinite constant effect whose level is updated at the kernel driver's rate), raw HID
//!   through hidapi under the Logitech classic and HID PID protocols
//!   ([`ffb::hidapi_device`]), the rotation range written to the kernel driver
//!   ([`ffb::sysfs_range`]), and opening the backend `gripline_input::ffb::select` chose
//!   ([`ffb::open`]).
//!
//! Each backend talks to the operating system through a small trait
//! ([`evdev_input::source::EvdevSource`], [`ffb::evdev_ff::EvdevFfDevice`],
//! `gripline_input::ffb::protocol::HidOutput`) whose scripted or recording implementation
//! drives the tests through the same code as the real device.
//!
//! ## Checked only against the documented layouts, not on hardware
//!
//! No wheel, pedal set or `/dev/input` node was available while these backends were
//! written; everything above is tested with scripted kernels and recording devices, byte for
//! byte against `docs/force-feedback-protocols.md`. Still to be confirmed on real devices:
//! - the `evdev` crate's real ioctls: `EVIOCSFF` returning the kernel-assigned effect id
//!   (the crate reads it back from a shared reference), effect updates in place, `EV_FF`
//!   play/stop/gain/autocentre writes, `EVIOCRMFF` on drop, and non-blocking reads
//!   (`EAGAIN`) and `ENODEV` on unplug;
//! - the sign of the torque per wheel (direction 0x4000 with the sign in the level; the
//!   per-device invert setting exists because conventions differ), and that the finite effect
//!   (1000 ms, replayed every 400 ms) plays without a glitch at each replay on every driver;
//! - that HID PID bases restart a playing constant force seamlessly on Effect Operation Start
//!   (renewed every 40 ms, 100 ms duration);
//! - the per-driver evdev rates ([`ffb::evdev_ff::evdev_rate_hz`]: 500 Hz lg4ff/fanatec,
//!   125 Hz tmff2/HID++, 1000 Hz PID), in particular HID++ queue overflows;
//! - game-controller detection heuristics on real device lists (keyboards with media axes,
//!   wheels with more than 80 buttons, accelerometer nodes of gamepads);
//! - hidapi: which interface a wheel's force-feedback reports live on, Windows padding of
//!   output reports, the error texts an unplug produces on each platform (mapped to
//!   `Disconnected` by [`ffb::hidapi_device::message_means_unplugged`]), and whether raw
//!   HID writes coexist with a bound kernel driver (why Linux prefers evdev);
//! - the Windows and macOS builds of the hidapi backends (only Linux was built here).

pub mod device_thread;
pub mod evdev_input;
pub mod ffb;
pub mod gilrs_backend;

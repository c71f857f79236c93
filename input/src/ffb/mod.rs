//! Force feedback: from the physics' steering-column torque to the wheel's motor.
//!
//! - [`device_facts`]: the one owner of the device's peak torque, invert and rotation;
//! - [`pipeline`]: gain, damping/friction/inertia, soft clip and clipping meter, minimum
//!   force, slew limit, clamp, device units; its [`params`] from the settings and the device;
//! - [`soft_lock`]: the stop at the car's steering lock;
//! - [`effects`]: road texture, kerbs, scrub, lock-up, wheelspin, ABS, lateral g; smoothing
//!   and auto-gain;
//! - [`ramp`]: increases of strength ramp in over a second, decreases act at once;
//! - [`safety`]: stop at once, watchdog, fade-in, non-finite guard, kill switch, safety cut;
//! - [`runaway`]: the runaway trip past the car's lock (cuts force feedback);
//! - [`direction_check`]: a small pulse that tells whether the wheel turns the way the sim
//!   means (the Force feedback tab's direction check);
//! - [`output`]: pipeline + safety + backend, once per tick on the sim thread;
//! - [`backend`]: the trait every device backend implements;
//! - [`emergency`]: zero torque on SIGINT, SIGTERM, SIGHUP, SIGQUIT and panics, and before
//!   SIGTSTP stops the process (faded back in on SIGCONT), for every writer;
//! - [`writer`]: the latest-value-wins writer thread between the sim and a slow device
//!   (its own watchdog, pause at zero, emergency stop);
//! - `recording`: a backend that timestamps every command, for tests;
//! - [`protocol`]: byte-exact encoders of the Logitech classic, HID PID and evdev
//!   `FF_CONSTANT` commands;
//! - [`select`]: which backend drives a wheel.
//!
//! The backends that reach a real device (evdev `FF_CONSTANT`, raw HID through hidapi, the
//! rotation range through sysfs, and opening the one [`select`] chose) are
//! `gripline-devices`'.

pub mod backend;
pub mod device_facts;
pub mod direction_check;
pub mod effects;
pub mod emergency;
pub mod output;
pub mod params;
pub mod pipeline;
pub mod protocol;
pub mod ramp;
#[cfg(any(test, feature = "test-support"))]
pub mod recording;
pub mod runaway;
pub mod safety;
pub mod select;
pub mod soft_lock;
pub mod writer;

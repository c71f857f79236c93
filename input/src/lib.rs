//! # gripline-input
//!
//! The input layer of Gripline (DESIGN.md section 5): it turns wheels, pedals, shifters,
//! handbrakes, gamepads and the keyboard into one calibrated
//! [`Controls`](gripline_physics::controls::Controls) per tick, and turns the physics'
//! steering-column torque into force-feedback commands for the wheel's motor.
//!
//! This crate is mostly the pure, hardware-independent core. Device backends plug in through
//! two traits; the first real one is [`gilrs_backend`] (gilrs with its filters off; evdev and
//! hidapi are not part of the crate yet):
//! [`device::InputBackend`] produces [`device::InputEvent`]s, and
//! [`ffb::backend::FfbBackend`] (over [`ffb::protocol::HidOutput`] for raw HID) takes
//! force-feedback levels. Scripted implementations of both drive the tests.
//!
//! Input, one concept per module:
//! - [`device`]: stable device identities, the event model, the input-backend trait and a
//!   scripted device;
//! - [`gilrs_backend`]: the gilrs input backend and a device listing for `gripline devices`;
//! - [`known_wheels`]: USB IDs, rotation, FFB backend and peak torque of common wheels;
//! - [`calibration`]: raw range capture, dead zone, saturation, anti-dead zone, curves,
//!   invert, rest value, steering rotation 1:1;
//! - [`shifter`]: H-pattern gates (most recent press wins) and sequential edges;
//! - [`digital`]: rate limits for button-driven steering and pedals;
//! - [`bindings`]: the [`bindings::ControlMapper`]: newest device state to `Controls`,
//!   hot-plug with safe release and re-attachment.
//!
//! Force feedback ([`ffb`]): the pipeline (gain, damping, friction, inertia, soft clip with a
//! clipping meter, minimum force, slew limit, clamp, device units), the safety rules (stop at
//! once, watchdog, fade-in, non-finite guard, kill switch), a latest-value-wins writer
//! thread, a recording backend, and byte-exact encoders of the Logitech classic, HID PID and
//! evdev `FF_CONSTANT` protocols.
//!
//! Settings types (bindings, calibration, FFB) live in `gripline-config` so that they load
//! and validate with every other settings file. Time is always passed in; nothing here reads
//! a clock except the writer thread's pacing.

pub mod bindings;
pub mod calibration;
pub mod device;
pub mod digital;
pub mod evdev_input;
pub mod ffb;
pub mod gilrs_backend;
pub mod known_wheels;
pub mod shifter;

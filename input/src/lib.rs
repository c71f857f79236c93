//! # gripline-input
//!
//! The input layer of Gripline (`docs/input-devices.md`, `docs/force-feedback.md`): it turns
//! wheels, pedals, shifters, handbrakes, gamepads and the keyboard into one calibrated
//! [`Controls`](gripline_physics::controls::Controls) per tick, and turns the physics'
//! steering-column torque into force-feedback commands for the wheel's motor.
//!
//! This crate is the pure, hardware-independent core: it opens no device and links no device
//! library. Device backends (`gripline-devices`: gilrs, Linux evdev, raw HID through hidapi)
//! plug in through two traits: [`device::InputBackend`] produces [`device::InputEvent`]s, and
//! [`ffb::backend::FfbBackend`] takes force-feedback levels. The Logitech classic and HID PID
//! backends are here ([`ffb::protocol`]) and write their reports through a small trait,
//! [`ffb::protocol::HidOutput`], whose recording implementation drives the tests through the
//! same code as the real device.
//!
//! Input, one concept per module:
//! - [`device`]: the event model, the input-backend trait and a scripted device;
//! - [`settings`]: bindings, calibration, force feedback and device identities as settings:
//!   plain data that load and validate here, and that the settings store (`gripline-config`)
//!   keeps on disk with every other setting;
//! - [`known_wheels`]: USB IDs, rotation, FFB backend and peak torque of common wheels;
//! - [`realtime_priority`]: raising the sim thread's and the FFB writer's priority;
//! - [`calibration`]: raw range capture, dead zone, saturation, anti-dead zone, curves,
//!   invert, rest value, steering rotation 1:1;
//! - [`shifter`]: H-pattern gates (most recent press wins) and sequential edges;
//! - [`digital`]: rate limits for button-driven steering and pedals;
//! - [`bindings`]: the [`bindings::ControlMapper`]: newest device state to `Controls`,
//!   hot-plug with safe release and re-attachment;
//! - [`setup`]: setting inputs up without a screen: the live device model, bind by doing,
//!   the H-shifter wizard, the names of inputs.
//!
//! Force feedback ([`ffb`]): the pipeline (gain, damping, friction, inertia, soft clip with a
//! clipping meter, minimum force, slew limit, clamp, device units), the safety rules (stop at
//! once, watchdog, fade-in, non-finite guard, kill switch), a latest-value-wins writer
//! thread, the emergency stop on signals and panics, a recording backend, byte-exact
//! encoders of the Logitech classic, HID PID and evdev `FF_CONSTANT` protocols, and which
//! backend drives a wheel ([`ffb::select`]: evdev on Linux when the kernel driver offers
//! `FF_CONSTANT`, else the raw HID protocol of the known-wheel table, else none; a
//! per-device setting overrides it). Every backend stops its effect on `stop` and on `Drop`,
//! and reports an unplugged device as [`ffb::backend::FfbError::Disconnected`].
//!
//! Time is always passed in; nothing here reads a clock except the writer thread's pacing.

pub mod bindings;
pub mod calibration;
pub mod device;
pub mod digital;
pub mod ffb;
pub mod known_wheels;
pub mod realtime_priority;
pub mod settings;
pub mod setup;
pub mod shifter;

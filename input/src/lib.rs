//! # gripline-input
//!
//! The input layer of Gripline (`docs/input-devices.md`, `docs/force-feedback.md`): it turns
//! wheels, pedals, shifters, handbrakes, gamepads and the keyboard into one calibrated
//! [`Controls`](gripline_physics::controls::Controls) per tick, and turns the physics'
//! steering-column torque into force-feedback commands for the wheel's motor.
//!
//! This crate is mostly the pure, hardware-independent core. Device backends plug in through
//! two traits: [`device::InputBackend`] produces [`device::InputEvent`]s, and
//! [`ffb::backend::FfbBackend`] takes force-feedback levels. The real backends are
//! [`gilrs_backend`] (gilrs with its filters off), [`evdev_input`] (Linux event nodes,
//! including devices gilrs drops), [`ffb::evdev_ff`] (Linux `FF_CONSTANT`), and the Logitech
//! classic and HID PID protocols over hidapi ([`ffb::hidapi_device`]). Each talks to the
//! operating system through a small trait ([`evdev_input::source::EvdevSource`],
//! [`ffb::evdev_ff::EvdevFfDevice`], [`ffb::protocol::HidOutput`]) whose scripted or
//! recording implementation drives the tests through the same code as the real device.
//!
//! Input, one concept per module:
//! - [`device`]: stable device identities, the event model, the input-backend trait and a
//!   scripted device;
//! - [`gilrs_backend`]: the gilrs input backend and a device listing for `gripline devices`;
//! - [`evdev_input`]: the Linux evdev input backend: game-controller detection, raw
//!   `EV_ABS`/`EV_KEY` events with `absinfo` ranges, `SYN_DROPPED` resync, hot-plug;
//! - [`known_wheels`]: USB IDs, rotation, FFB backend and peak torque of common wheels;
//! - [`realtime_priority`]: raising the sim thread's and the FFB writer's priority;
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
//! thread, the emergency stop on signals and panics, a recording backend, and byte-exact encoders of the Logitech classic, HID PID and
//! evdev `FF_CONSTANT` protocols.
//!
//! Force-feedback backends ([`ffb::select`] picks one per device: evdev on Linux when the
//! kernel driver offers `FF_CONSTANT`, else the raw HID protocol of the known-wheel table,
//! else none; a per-device setting overrides it): [`ffb::evdev_ff`] uploads one infinite
//! constant effect and updates its level at the kernel driver's rate; the Logitech classic
//! and HID PID backends write their reports through [`ffb::hidapi_device`]. Every backend
//! stops its effect on `stop` and on `Drop`, and reports an unplugged device as
//! [`ffb::backend::FfbError::Disconnected`].
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
//!
//! Settings ([`settings`]: bindings, calibration, force feedback, device identities) are plain
//! data that load and validate here; the settings store (`gripline-config`) keeps them on
//! disk with every other setting. Time is always passed in; nothing here reads a clock
//! except the writer thread's pacing.

pub mod bindings;
pub mod calibration;
pub mod device;
pub mod digital;
pub mod evdev_input;
pub mod ffb;
pub mod gilrs_backend;
pub mod known_wheels;
pub mod realtime_priority;
pub mod settings;
pub mod shifter;

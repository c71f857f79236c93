//! Setting inputs up, without a screen: what the settings screen's Controls and Force
//! feedback tabs run on (the screen only draws it).
//!
//! - [`live_input`]: the live model of the input devices and of force feedback (newest raw
//!   values, ranges, short histories, buttons held, the torque and its clipping);
//! - [`bind`]: bind by doing (move an axis or press a button), clashes with existing
//!   bindings and how the user resolves them;
//! - [`shifter_wizard`]: engage each gear in turn and it records which button is which;
//! - [`input_names`]: the names of keys, gamepad controls, device axes, buttons and devices.

pub mod bind;
pub mod input_names;
pub mod live_input;
pub mod shifter_wizard;

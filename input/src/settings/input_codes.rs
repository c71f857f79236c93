//! Button and axis codes that do not depend on a particular device.
//!
//! Wheels and other devices report their native codes (evdev `ABS_*`/`BTN_*` on Linux, HID
//! usages or axis indices elsewhere) and bindings store those numbers. Two kinds of device
//! use the fixed codes of this module instead, so that default bindings work everywhere:
//!
//! - the keyboard reports USB HID keyboard usages (HID Usage Tables, page 0x07), a
//!   platform-independent standard that window toolkits map their physical key codes to;
//! - a gamepad with a standard layout reports the [`gamepad`] codes below (the gilrs
//!   backend translates its `Axis`/`Button` to them). Analogue triggers are axes.

/// USB HID keyboard usages (Keyboard/Keypad page 0x07) of the keys the default bindings use.
pub mod key {
    /// Letter A.
    pub const A: u32 = 0x04;
    /// Letter C.
    pub const C: u32 = 0x06;
    /// Letter E.
    pub const E: u32 = 0x08;
    /// Letter I.
    pub const I: u32 = 0x0C;
    /// Letter Q.
    pub const Q: u32 = 0x14;
    /// Letter R.
    pub const R: u32 = 0x15;
    /// Letter V.
    pub const V: u32 = 0x19;
    /// Letter Z.
    pub const Z: u32 = 0x1D;
    /// Enter (Return).
    pub const ENTER: u32 = 0x28;
    /// Escape.
    pub const ESCAPE: u32 = 0x29;
    /// Backspace.
    pub const BACKSPACE: u32 = 0x2A;
    /// Space bar.
    pub const SPACE: u32 = 0x2C;
    /// F12.
    pub const F12: u32 = 0x45;
    /// Right arrow.
    pub const RIGHT: u32 = 0x4F;
    /// Left arrow.
    pub const LEFT: u32 = 0x50;
    /// Down arrow.
    pub const DOWN: u32 = 0x51;
    /// Up arrow.
    pub const UP: u32 = 0x52;
    /// Left Control.
    pub const LEFT_CTRL: u32 = 0xE0;
    /// Left Shift.
    pub const LEFT_SHIFT: u32 = 0xE1;
}

/// Standard gamepad codes (the layout of gilrs's `Axis` and `Button`, numbered here).
pub mod gamepad {
    /// Left stick, horizontal; raw range reported by the backend, centred.
    pub const AXIS_LEFT_STICK_X: u32 = 0;
    /// Left stick, vertical.
    pub const AXIS_LEFT_STICK_Y: u32 = 1;
    /// Left analogue trigger (LT / L2), released at the low end of its range.
    pub const AXIS_LEFT_TRIGGER: u32 = 2;
    /// Right stick, horizontal.
    pub const AXIS_RIGHT_STICK_X: u32 = 3;
    /// Right stick, vertical.
    pub const AXIS_RIGHT_STICK_Y: u32 = 4;
    /// Right analogue trigger (RT / R2), released at the low end of its range.
    pub const AXIS_RIGHT_TRIGGER: u32 = 5;

    /// Bottom face button (A on Xbox, cross on `PlayStation`).
    pub const SOUTH: u32 = 0;
    /// Right face button (B, circle).
    pub const EAST: u32 = 1;
    /// Top face button (Y, triangle).
    pub const NORTH: u32 = 2;
    /// Left face button (X, square).
    pub const WEST: u32 = 3;
    /// Left shoulder (LB / L1).
    pub const LEFT_SHOULDER: u32 = 4;
    /// Right shoulder (RB / R1).
    pub const RIGHT_SHOULDER: u32 = 6;
    /// Select / back / share.
    pub const SELECT: u32 = 8;
    /// Start / menu / options.
    pub const START: u32 = 9;
    /// D-pad up.
    pub const DPAD_UP: u32 = 13;
    /// D-pad down.
    pub const DPAD_DOWN: u32 = 14;
    /// D-pad left.
    pub const DPAD_LEFT: u32 = 15;
    /// D-pad right.
    pub const DPAD_RIGHT: u32 = 16;
}

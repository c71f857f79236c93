//! The Logitech "classic" force-feedback protocol (Driving Force Pro, G25, G27, Driving Force
//! GT, G29, G923 in `PlayStation`/classic mode), byte-exact against
//! `docs/force-feedback-protocols.md` section 2.
//!
//! Every command is one 7-byte HID output report without a report ID (section 2.2): through
//! hidapi write `[0x00, b0..b6]` ([`hid_report`]). The G923 `PlayStation`-mode switch is the
//! one command that needs report ID 0x30 ([`G923_PS_TO_CLASSIC`]).
//!
//! [`LogitechClassicBackend`] drives a wheel through any [`HidOutput`]. Its start-up follows
//! new-lg4ff's `lg4ff_init` (berarma/new-lg4ff `hid-lg4ff.c` \[7b7c192\], read for issue 10;
//! summarised in `docs/force-feedback-protocols.md` section 2.4): autocentre off (`F5`), the
//! rotation range where the wheel has a range command ([`range_command`], new-lg4ff's
//! `lg4ff_devices` table), then `lg4ff_init_slots`: fixed-loop mode off (`0D 00`, the module
//! parameter's default) and one command per slot (the constant-force slot downloaded and playing at
//! zero, `11 00 80`; slots 2..4 stopped, `23`/`43`/`83`). Gripline adds "stop all effects" (`F3`)
//! first, so nothing left playing by another program runs while it starts. Then the constant force
//! is only refreshed (`1C 00 F`), only changed commands are sent, and "stop all effects" is sent on
//! stop.
//!
//! The classic slot commands carry **no duration**: the wheel holds its last force until told
//! otherwise. A process that exits, panics or gets SIGINT, SIGTERM, SIGHUP or SIGQUIT stops
//! it (the writer's stop, `ffb::emergency`), and one stopped by SIGTSTP (Ctrl+Z) sends zero
//! first; one killed with SIGKILL or stopped with a bare SIGSTOP cannot, and the wheel keeps
//! the last force until it is unplugged, another program stops it, or (SIGSTOP) the process
//! continues. The kernel path (evdev through
//! lg4ff) does not have this limit: the kernel erases a closed descriptor's effects.
//!
//! Native-mode switching re-enumerates the device with another product ID and must only be
//! sent when the user asks for it (section 4.5, rule 8).

use crate::ffb::backend::{FfbBackend, FfbError, level_to_i16};
use crate::ffb::protocol::HidOutput;

/// One classic command.
pub type Command = [u8; 7];

/// The force byte of a signed 16-bit level: new-lg4ff's
/// `TRANSLATE_FORCE(x) = ((clamp_s16(x) + 0x8000) >> 8)`, 0x80 being no force (section 2.4).
pub fn force_byte(level: i16) -> u8 {
    // 0..=0xFFFF shifted right by 8 is 0..=0xFF.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let byte = ((i32::from(level) + 0x8000) >> 8) as u8;
    byte
}

/// The slot operation of a constant-force command (low nibble of byte 0, section 2.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlotOp {
    /// 0x1: download and play (the first command of an effect).
    DownloadAndPlay,
    /// 0xC: refresh / modify a playing effect.
    Refresh,
}

/// Constant force in slot 1 (new-lg4ff `lg4ff_update_slot`, section 2.4):
/// `[0x11 | 0x1C, 0x00, F, 0, 0, 0, 0]`.
pub fn constant_force(level: i16, op: SlotOp) -> Command {
    let opcode = match op {
        SlotOp::DownloadAndPlay => 0x1,
        SlotOp::Refresh => 0xC,
    };
    [
        0x10 | opcode,
        0x00,
        force_byte(level),
        0x00,
        0x00,
        0x00,
        0x00,
    ]
}

/// Constant force as mainline `hid-lg4ff.c` `lg4ff_play` sends it (section 2.4): an 8-bit
/// signed force, `[0x11, 0x08, force + 0x80, 0x80, 0, 0, 0]` ("variable" force in slot 1),
/// or `[0x13, 0, ...]` (de-activate slot 1) for zero.
pub fn constant_force_mainline(force: i8) -> Command {
    // i8 + 0x80 is 0..=0xFF.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let x = (i16::from(force) + 0x80) as u8;
    if x == 0x80 {
        [0x13, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]
    } else {
        [0x11, 0x08, x, 0x80, 0x00, 0x00, 0x00]
    }
}

/// Stop all effects (`lg4ff_stop_effects`, section 2.5).
pub const STOP_ALL: Command = [0xF3, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00];

/// De-activate the built-in centring spring (section 2.6). A sim that renders its own torque
/// sends this at start.
pub const AUTOCENTRE_OFF: Command = [0xF5, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00];

/// new-lg4ff's slot initialisation first sets or unsets the wheel's "fixed loop" mode
/// (`lg4ff_init_slots`: `cmd[0] = 0x0d; cmd[1] = fixed_loop ? 1 : 0`, the module parameter
/// `fixed_loop` defaulting to 0): Gripline sends it unset, as the kernel driver does by
/// default, so the wheel is in the state the classic protocol's slot commands assume
/// whatever ran before (the kernel driver, another program).
pub const FIXED_LOOP_OFF: Command = [0x0D, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00];

/// Built-in centring spring of strength `magnitude` (0..0xFFFF), for wheels other than the
/// MOMO (`lg4ff_set_autocenter_default`, section 2.6): set spring parameters, then activate.
pub fn autocentre(magnitude: u16) -> [Command; 2] {
    let m = u32::from(magnitude);
    let (mut a, b) = if m <= 0xAAAA {
        (0x0C * m, 0x80 * m)
    } else {
        (
            0x0C * 0xAAAA + 0x06 * (m - 0xAAAA),
            0x80 * 0xAAAA + 0xFF * (m - 0xAAAA),
        )
    };
    a >>= 1;
    // a / 0xAAAA <= 7 and b / 0xAAAA <= 0xFF by construction.
    #[allow(clippy::cast_possible_truncation)]
    let (ka, kb) = ((a / 0xAAAA) as u8, (b / 0xAAAA) as u8);
    [
        [0xFE, 0x0D, ka, ka, kb, 0x00, 0x00],
        [0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00],
    ]
}

/// Slots 2, 3 and 4 stopped, as new-lg4ff's `lg4ff_init_slots` sends them (effect type 0:
/// `cmd[0] = (0x10 << id) + 3`, the rest zero).
pub const STOP_OTHER_SLOTS: [Command; 3] = [
    [0x23, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00],
    [0x43, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00],
    [0x83, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00],
];

/// How a Logitech classic wheel takes its rotation range (new-lg4ff `lg4ff_devices`:
/// `lg4ff_set_range_dfp`, `lg4ff_set_range_g25` or none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RangeCommand {
    /// The Driving Force Pro's coarse and fine commands ([`set_range_dfp`]).
    Dfp,
    /// `F8 81` ([`set_range_g25`]): G25, Driving Force GT, G27, G29, G923 (classic mode).
    G25,
    /// No range command (Driving Force / Formula Force EX, MOMO, MOMO Racing, Speed Force
    /// Wireless, WingMan): the range is fixed (270° or 180°) and nothing is sent.
    None,
}

/// The range command of the Logitech wheel with `product_id` (new-lg4ff `lg4ff_devices`,
/// IDs from its `hid-ids.h`): DFP c298; G25 c299, DFGT c29a, G27 c29b, G29 c24f, G923 c266;
/// anything else none.
pub fn range_command(product_id: u16) -> RangeCommand {
    match product_id {
        0xc298 => RangeCommand::Dfp,
        0xc299 | 0xc29a | 0xc29b | 0xc24f | 0xc266 => RangeCommand::G25,
        _ => RangeCommand::None,
    }
}

/// Lowest settable rotation (deg).
pub const MIN_RANGE_DEG: u16 = 40;
/// Highest settable rotation (deg).
pub const MAX_RANGE_DEG: u16 = 900;

/// Rotation range of the G25, G27, Driving Force GT, G29 and G923 (`lg4ff_set_range_g25`,
/// section 2.7): `[0xF8, 0x81, lo, hi, 0, 0, 0]`, clamped to 40..=900°.
pub fn set_range_g25(degrees: u16) -> Command {
    let [lo, hi] = degrees.clamp(MIN_RANGE_DEG, MAX_RANGE_DEG).to_le_bytes();
    [0xF8, 0x81, lo, hi, 0x00, 0x00, 0x00]
}

/// Rotation range of the Driving Force Pro (`lg4ff_set_range_dfp`, section 2.7): a coarse
/// command (full range 200° or 900°) and a fine limit, clamped to 40..=900°.
pub fn set_range_dfp(degrees: u16) -> [Command; 2] {
    let range = degrees.clamp(MIN_RANGE_DEG, MAX_RANGE_DEG);
    let (coarse, full): (u8, u16) = if range > 200 {
        (0x03, 900)
    } else {
        (0x02, 200)
    };
    let first = [0xF8, coarse, 0x00, 0x00, 0x00, 0x00, 0x00];
    if range == 200 || range == 900 {
        return [first, [0x81, 0x0B, 0x00, 0x00, 0x00, 0x00, 0x00]];
    }
    let start_left = ((u32::from(full) - u32::from(range) + 1) * 2047) / u32::from(full);
    let start_right = 0xFFF - start_left;
    // start_left <= 2047 and start_right <= 0xFFF, so each shifted value fits a byte.
    #[allow(clippy::cast_possible_truncation)]
    let second = [
        0x81,
        0x0B,
        (start_left >> 4) as u8,
        (start_right >> 4) as u8,
        0xFF,
        (((start_right & 0xE) << 4) | (start_left & 0xE)) as u8,
        0xFF,
    ];
    [first, second]
}

/// The five rev LEDs of the G27/G29 (`lg4ff_set_leds`, section 2.8): bit 0 is LED 1.
pub fn leds(mask: u8) -> Command {
    [0xF8, 0x12, mask & 0x1F, 0x00, 0x00, 0x00, 0x00]
}

/// Rev-LED mask for `rpm`: LED 1 lights at `first_rpm`, then one more LED every quarter of
/// the band, all five at `redline_rpm` and above. Nothing below `first_rpm` (or for
/// non-finite values).
pub fn rev_led_mask(rpm: f64, first_rpm: f64, redline_rpm: f64) -> u8 {
    if !(rpm.is_finite() && first_rpm.is_finite() && redline_rpm > first_rpm) || rpm < first_rpm {
        return 0;
    }
    let f = ((rpm - first_rpm) / (redline_rpm - first_rpm)).clamp(0.0, 1.0);
    // 1 + floor(4 f) is 1..=5.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let lit = 1 + (4.0 * f).floor() as u8;
    (1u8 << lit) - 1
}

/// LED mask of new-lg4ff's force-feedback level meter (section 2.8, `lg4ff_timer`):
/// `level` in units where 32768 is 100 %; LEDs fill up to 100 % and empty from the left
/// when clipping beyond it.
pub fn ffb_level_leds(level: i32) -> u8 {
    let l = i64::from(level).abs();
    let pct = |p: i64| l * 1000 < 32768 * p; // p in tenths of a percent
    match () {
        () if pct(75) => 0,
        () if pct(250) => 1,
        () if pct(500) => 3,
        () if pct(750) => 7,
        () if pct(900) => 15,
        () if l <= 32768 => 31,
        () if pct(1100) => 30,
        () if pct(1250) => 28,
        () if pct(1500) => 24,
        () => 16,
    }
}

/// A wheel mode reachable with `EXT_CMD9` (section 2.9).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NativeMode {
    /// Driving Force EX (compatibility mode).
    DfEx,
    /// Driving Force Pro.
    Dfp,
    /// G25.
    G25,
    /// Driving Force GT.
    Dfgt,
    /// G27.
    G27,
    /// G29.
    G29,
    /// G923.
    G923,
}

/// Mode switch understood by the G27, Driving Force GT, G29 and G923 (`EXT_CMD9`, section
/// 2.9): "revert mode upon USB reset", then the switch. The device re-enumerates.
pub fn switch_mode(mode: NativeMode) -> [Command; 2] {
    let (id, detach) = match mode {
        NativeMode::DfEx => (0x00, 0x00),
        NativeMode::Dfp => (0x01, 0x00),
        NativeMode::G25 => (0x02, 0x00),
        NativeMode::Dfgt => (0x03, 0x00),
        NativeMode::G27 => (0x04, 0x00),
        NativeMode::G29 => (0x05, 0x01),
        NativeMode::G923 => (0x07, 0x01),
    };
    [
        [0xF8, 0x0A, 0x00, 0x00, 0x00, 0x00, 0x00],
        [0xF8, 0x09, id, 0x01, detach, 0x00, 0x00],
    ]
}

/// Switch to Driving Force Pro native mode (`EXT_CMD1`: DFP, G25, G27, DFGT; section 2.9).
pub const SWITCH_TO_DFP_NATIVE: Command = [0xF8, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00];
/// Switch to G25 native mode (`EXT_CMD16`: G25, G27; section 2.9).
pub const SWITCH_TO_G25_NATIVE: Command = [0xF8, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00];
/// G923 `PlayStation` mode (c267) to classic mode (c266): report ID 0x30 and this command
/// (section 2.9).
pub const G923_PS_TO_CLASSIC: (u8, Command) = (0x30, [0xF8, 0x09, 0x07, 0x01, 0x01, 0x00, 0x00]);

/// A command framed for hidapi's `write`: report ID 0, then the 7 bytes (section 1.6).
pub fn hid_report(command: &Command) -> [u8; 8] {
    let mut out = [0u8; 8];
    out[1..].copy_from_slice(command);
    out
}

/// A Logitech classic wheel driven through raw HID (see the module docs).
#[derive(Debug)]
pub struct LogitechClassicBackend<H: HidOutput> {
    hid: H,
    rate_hz: f64,
    started: bool,
    last_force: Option<u8>,
    stopped: bool,
}

impl<H: HidOutput> LogitechClassicBackend<H> {
    /// Takes over a wheel whose range command is unknown: [`LogitechClassicBackend::start`]
    /// with [`RangeCommand::None`] and no range.
    ///
    /// # Errors
    /// The device's write error.
    pub fn new(hid: H, rate_hz: f64) -> Result<Self, FfbError> {
        Self::start(hid, RangeCommand::None, None, rate_hz)
    }

    /// Takes over the wheel with new-lg4ff's start-up (see the module docs): `F3`, `F5`, the
    /// range `range_deg` (clamped to 40..=900°) when given and the wheel has `range`
    /// command, `0D 00`, then the four slots. `rate_hz` is the write rate (new-lg4ff itself
    /// updates every 2 ms, i.e. 500 Hz; section 1.5).
    ///
    /// # Errors
    /// The device's write error.
    pub fn start(
        mut hid: H,
        range: RangeCommand,
        range_deg: Option<u16>,
        rate_hz: f64,
    ) -> Result<Self, FfbError> {
        hid.write(&hid_report(&STOP_ALL))?;
        hid.write(&hid_report(&AUTOCENTRE_OFF))?;
        let mut backend = Self {
            hid,
            rate_hz,
            started: false,
            last_force: None,
            stopped: false,
        };
        if let Some(degrees) = range_deg {
            match range {
                RangeCommand::Dfp => backend.set_range(degrees, true)?,
                RangeCommand::G25 => backend.set_range(degrees, false)?,
                RangeCommand::None => {}
            }
        }
        backend.hid.write(&hid_report(&FIXED_LOOP_OFF))?;
        let zero = constant_force(0, SlotOp::DownloadAndPlay);
        backend.hid.write(&hid_report(&zero))?;
        for slot in &STOP_OTHER_SLOTS {
            backend.hid.write(&hid_report(slot))?;
        }
        backend.started = true;
        backend.last_force = Some(force_byte(0));
        Ok(backend)
    }

    /// Sets the rotation range (section 2.7): the Driving Force Pro's coarse and fine
    /// commands when `dfp`, the G25/G27/DFGT/G29/G923 command otherwise; clamped to
    /// 40..=900°.
    ///
    /// # Errors
    /// The device's write error.
    pub fn set_range(&mut self, degrees: u16, dfp: bool) -> Result<(), FfbError> {
        if dfp {
            for command in set_range_dfp(degrees) {
                self.hid.write(&hid_report(&command))?;
            }
            Ok(())
        } else {
            self.hid.write(&hid_report(&set_range_g25(degrees)))
        }
    }

    /// The HID device (for tests that inspect what was written).
    pub fn hid(&self) -> &H {
        &self.hid
    }
}

impl<H: HidOutput> FfbBackend for LogitechClassicBackend<H> {
    fn max_rate_hz(&self) -> f64 {
        self.rate_hz
    }

    fn send_level(&mut self, level: f64) -> Result<(), FfbError> {
        let op = if self.started {
            SlotOp::Refresh
        } else {
            SlotOp::DownloadAndPlay
        };
        let level = level_to_i16(level);
        if self.last_force == Some(force_byte(level)) {
            return Ok(());
        }
        self.stopped = false;
        // Forget the last force on failure, so the next value is sent again.
        self.last_force = None;
        self.hid.write(&hid_report(&constant_force(level, op)))?;
        self.started = true;
        self.last_force = Some(force_byte(level));
        Ok(())
    }

    fn stop(&mut self) -> Result<(), FfbError> {
        self.started = false;
        self.last_force = None;
        self.stopped = true;
        self.hid.write(&hid_report(&STOP_ALL))
    }
}

impl<H: HidOutput> Drop for LogitechClassicBackend<H> {
    /// Sends "stop all effects" unless the last command already was a stop (errors are
    /// ignored: the wheel may be gone).
    fn drop(&mut self) {
        if !self.stopped {
            let _ = self.stop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ffb::protocol::RecordingHid;

    // Worked values of section 2.4: level -32768 -> 00, -16384 -> 40, 0 -> 80,
    // +16384 -> C0, +32767 -> FF.
    #[test]
    fn force_byte_worked_values() {
        assert_eq!(force_byte(-32768), 0x00);
        assert_eq!(force_byte(-16384), 0x40);
        assert_eq!(force_byte(0), 0x80);
        assert_eq!(force_byte(16384), 0xC0);
        assert_eq!(force_byte(32767), 0xFF);
    }

    // Section 2.4 (new-lg4ff): [0x11|0x1C, 0x00, F, 0, 0, 0, 0].
    #[test]
    fn constant_force_slot_commands() {
        assert_eq!(
            constant_force(0, SlotOp::DownloadAndPlay),
            [0x11, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00]
        );
        assert_eq!(
            constant_force(16384, SlotOp::Refresh),
            [0x1C, 0x00, 0xC0, 0x00, 0x00, 0x00, 0x00]
        );
        assert_eq!(
            constant_force(-32768, SlotOp::Refresh),
            [0x1C, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]
        );
    }

    // Section 2.4 (mainline lg4ff_play).
    #[test]
    fn mainline_constant_force() {
        assert_eq!(constant_force_mainline(0), [0x13, 0, 0, 0, 0, 0, 0]);
        assert_eq!(
            constant_force_mainline(64),
            [0x11, 0x08, 0xC0, 0x80, 0x00, 0x00, 0x00]
        );
        assert_eq!(
            constant_force_mainline(-128),
            [0x11, 0x08, 0x00, 0x80, 0x00, 0x00, 0x00]
        );
    }

    // Sections 2.5 and 2.6.
    #[test]
    fn stop_and_autocentre() {
        assert_eq!(STOP_ALL, [0xF3, 0, 0, 0, 0, 0, 0]);
        assert_eq!(AUTOCENTRE_OFF, [0xF5, 0, 0, 0, 0, 0, 0]);
        let activate = [0x14, 0, 0, 0, 0, 0, 0];
        assert_eq!(
            autocentre(0x4000),
            [[0xFE, 0x0D, 0x02, 0x02, 0x30, 0x00, 0x00], activate]
        );
        assert_eq!(
            autocentre(0x8000)[0],
            [0xFE, 0x0D, 0x04, 0x04, 0x60, 0x00, 0x00]
        );
        assert_eq!(
            autocentre(0xAAAA)[0],
            [0xFE, 0x0D, 0x06, 0x06, 0x80, 0x00, 0x00]
        );
        assert_eq!(
            autocentre(0xFFFF)[0],
            [0xFE, 0x0D, 0x07, 0x07, 0xFF, 0x00, 0x00]
        );
    }

    // Section 2.7: 900° -> F8 81 84 03, 540° -> F8 81 1C 02, 270° -> F8 81 0E 01; the
    // irFFB range command "00 f8 81 84 03 00 00 00" is the same with report ID 0.
    #[test]
    fn range_commands() {
        assert_eq!(
            set_range_g25(900),
            [0xF8, 0x81, 0x84, 0x03, 0x00, 0x00, 0x00]
        );
        assert_eq!(
            set_range_g25(540),
            [0xF8, 0x81, 0x1C, 0x02, 0x00, 0x00, 0x00]
        );
        assert_eq!(
            set_range_g25(270),
            [0xF8, 0x81, 0x0E, 0x01, 0x00, 0x00, 0x00]
        );
        assert_eq!(set_range_g25(2000), set_range_g25(900));
        assert_eq!(set_range_g25(0), [0xF8, 0x81, 40, 0x00, 0x00, 0x00, 0x00]);
        assert_eq!(
            hid_report(&set_range_g25(900)),
            [0x00, 0xF8, 0x81, 0x84, 0x03, 0x00, 0x00, 0x00]
        );
        // Driving Force Pro, 540°: F8 03, then 81 0B 33 CC FF A4 FF.
        assert_eq!(
            set_range_dfp(540),
            [
                [0xF8, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00],
                [0x81, 0x0B, 0x33, 0xCC, 0xFF, 0xA4, 0xFF]
            ]
        );
        assert_eq!(
            set_range_dfp(200),
            [
                [0xF8, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00],
                [0x81, 0x0B, 0x00, 0x00, 0x00, 0x00, 0x00]
            ]
        );
    }

    // Section 2.8.
    #[test]
    fn leds_and_meters() {
        assert_eq!(leds(0b1_0101), [0xF8, 0x12, 0x15, 0x00, 0x00, 0x00, 0x00]);
        assert_eq!(leds(0xFF)[2], 0x1F);
        assert_eq!(rev_led_mask(3000.0, 5000.0, 7000.0), 0);
        assert_eq!(rev_led_mask(5000.0, 5000.0, 7000.0), 0b1);
        assert_eq!(rev_led_mask(6000.0, 5000.0, 7000.0), 0b111);
        assert_eq!(rev_led_mask(7000.0, 5000.0, 7000.0), 0b1_1111);
        assert_eq!(rev_led_mask(9000.0, 5000.0, 7000.0), 0b1_1111);
        assert_eq!(rev_led_mask(f64::NAN, 5000.0, 7000.0), 0);
        let at = |pct: f64| {
            // Percent of 32768, rounded to the nearest unit.
            #[allow(clippy::cast_possible_truncation)]
            let level = (32768.0 * pct / 100.0).round() as i32;
            ffb_level_leds(level)
        };
        assert_eq!(at(5.0), 0);
        assert_eq!(at(10.0), 1);
        assert_eq!(at(30.0), 3);
        assert_eq!(at(60.0), 7);
        assert_eq!(at(80.0), 15);
        assert_eq!(at(100.0), 31);
        assert_eq!(at(105.0), 30);
        assert_eq!(at(120.0), 28);
        assert_eq!(at(140.0), 24);
        assert_eq!(at(200.0), 16);
        assert_eq!(ffb_level_leds(-32768), 31);
    }

    // Section 2.9.
    #[test]
    fn mode_switch_commands() {
        let revert = [0xF8, 0x0A, 0, 0, 0, 0, 0];
        assert_eq!(
            switch_mode(NativeMode::G29),
            [revert, [0xF8, 0x09, 0x05, 0x01, 0x01, 0x00, 0x00]]
        );
        assert_eq!(
            switch_mode(NativeMode::DfEx)[1],
            [0xF8, 0x09, 0x00, 0x01, 0x00, 0, 0]
        );
        assert_eq!(
            switch_mode(NativeMode::Dfp)[1],
            [0xF8, 0x09, 0x01, 0x01, 0x00, 0, 0]
        );
        assert_eq!(
            switch_mode(NativeMode::G25)[1],
            [0xF8, 0x09, 0x02, 0x01, 0x00, 0, 0]
        );
        assert_eq!(
            switch_mode(NativeMode::Dfgt)[1],
            [0xF8, 0x09, 0x03, 0x01, 0x00, 0, 0]
        );
        assert_eq!(
            switch_mode(NativeMode::G27)[1],
            [0xF8, 0x09, 0x04, 0x01, 0x00, 0, 0]
        );
        assert_eq!(
            switch_mode(NativeMode::G923)[1],
            [0xF8, 0x09, 0x07, 0x01, 0x01, 0, 0]
        );
        assert_eq!(SWITCH_TO_DFP_NATIVE, [0xF8, 0x01, 0, 0, 0, 0, 0]);
        assert_eq!(SWITCH_TO_G25_NATIVE, [0xF8, 0x10, 0, 0, 0, 0, 0]);
        assert_eq!(
            G923_PS_TO_CLASSIC,
            (0x30, [0xF8, 0x09, 0x07, 0x01, 0x01, 0, 0])
        );
    }

    /// new-lg4ff's start-up without a range: F3 (Gripline's), F5, 0D 00, the four slots.
    fn start_up() -> Vec<Vec<u8>> {
        vec![
            vec![0x00, 0xF3, 0, 0, 0, 0, 0, 0],
            vec![0x00, 0xF5, 0, 0, 0, 0, 0, 0],
            vec![0x00, 0x0D, 0, 0, 0, 0, 0, 0],
            vec![0x00, 0x11, 0x00, 0x80, 0, 0, 0, 0],
            vec![0x00, 0x23, 0, 0, 0, 0, 0, 0],
            vec![0x00, 0x43, 0, 0, 0, 0, 0, 0],
            vec![0x00, 0x83, 0, 0, 0, 0, 0, 0],
        ]
    }

    #[test]
    fn range_commands_follow_new_lg4ffs_wheel_table() {
        assert_eq!(range_command(0xc298), RangeCommand::Dfp);
        for g25_like in [0xc299, 0xc29a, 0xc29b, 0xc24f, 0xc266] {
            assert_eq!(range_command(g25_like), RangeCommand::G25, "{g25_like:04x}");
        }
        for fixed in [0xc294, 0xc295, 0xca03, 0xc29c] {
            assert_eq!(range_command(fixed), RangeCommand::None, "{fixed:04x}");
        }
        // The DFP special case of hidapi_device and this table agree.
        assert_eq!(
            range_command(crate::known_wheels::PID_LOGITECH_DFP),
            RangeCommand::Dfp
        );
    }

    // new-lg4ff lg4ff_init: autocentre off, range, then lg4ff_init_slots (0D fixed loop,
    // slot 1 constant at zero, slots 2..4 stopped); updates are refreshes (1C).
    #[test]
    fn start_up_is_new_lg4ffs_byte_for_byte() {
        let mut hid = RecordingHid::default();
        {
            let mut b =
                LogitechClassicBackend::start(&mut hid, RangeCommand::G25, Some(900), 500.0)
                    .unwrap();
            b.send_level(0.25).unwrap();
        }
        let mut expected = start_up();
        expected.insert(2, vec![0x00, 0xF8, 0x81, 0x84, 0x03, 0, 0, 0]);
        expected.push(vec![0x00, 0x1C, 0x00, 0xA0, 0, 0, 0, 0]);
        expected.push(vec![0x00, 0xF3, 0, 0, 0, 0, 0, 0]); // stop on drop
        assert_eq!(hid.outputs(), expected);
        // Driving Force Pro range, and no second stop on drop after an explicit stop.
        let mut hid = RecordingHid::default();
        {
            let mut b =
                LogitechClassicBackend::start(&mut hid, RangeCommand::Dfp, Some(540), 500.0)
                    .unwrap();
            b.stop().unwrap();
        }
        let mut expected = start_up();
        expected.insert(2, vec![0x00, 0xF8, 0x03, 0, 0, 0, 0, 0]);
        expected.insert(3, vec![0x00, 0x81, 0x0B, 0x33, 0xCC, 0xFF, 0xA4, 0xFF]);
        expected.push(vec![0x00, 0xF3, 0, 0, 0, 0, 0, 0]);
        assert_eq!(hid.outputs(), expected);
        // A MOMO has no range command: none is sent, whatever was asked.
        let mut hid = RecordingHid::default();
        drop(
            LogitechClassicBackend::start(&mut hid, range_command(0xc295), Some(900), 500.0)
                .unwrap(),
        );
        let mut expected = start_up();
        expected.push(vec![0x00, 0xF3, 0, 0, 0, 0, 0, 0]);
        assert_eq!(hid.outputs(), expected);
    }

    #[test]
    fn unplug_is_an_error_and_the_value_is_resent_after() {
        let mut hid = RecordingHid::default();
        let mut b = LogitechClassicBackend::new(&mut hid, 500.0).unwrap();
        b.send_level(0.5).unwrap();
        b.hid.fail = Some(FfbError::Disconnected);
        assert_eq!(b.send_level(-0.5), Err(FfbError::Disconnected));
        assert_eq!(b.stop(), Err(FfbError::Disconnected));
        b.hid.fail = None;
        b.send_level(-0.5).unwrap();
        drop(b);
        let mut expected = start_up();
        expected.extend([
            vec![0x00, 0x1C, 0x00, 0xC0, 0, 0, 0, 0],
            // The failed stop may have stopped the slot: downloaded and played again.
            vec![0x00, 0x11, 0x00, 0x40, 0, 0, 0, 0],
            vec![0x00, 0xF3, 0, 0, 0, 0, 0, 0],
        ]);
        assert_eq!(hid.outputs(), expected);
        // A wheel that is gone at start is an error too.
        let gone = RecordingHid {
            fail: Some(FfbError::Disconnected),
            ..RecordingHid::default()
        };
        assert!(matches!(
            LogitechClassicBackend::new(gone, 500.0),
            Err(FfbError::Disconnected)
        ));
    }

    #[test]
    fn backend_sends_autocentre_off_then_slot_commands_and_stop() {
        let mut b = LogitechClassicBackend::new(RecordingHid::default(), 500.0).unwrap();
        b.send_level(0.0).unwrap(); // zero already plays since start-up: not sent
        b.send_level(0.5).unwrap();
        b.send_level(0.5).unwrap(); // unchanged: not sent again
        b.send_level(-1.0).unwrap();
        b.stop().unwrap();
        b.send_level(0.5).unwrap(); // after a stop: downloaded and played again
        let mut expected = start_up();
        expected.extend([
            vec![0x00, 0x1C, 0x00, 0xC0, 0, 0, 0, 0],
            vec![0x00, 0x1C, 0x00, 0x00, 0, 0, 0, 0],
            vec![0x00, 0xF3, 0, 0, 0, 0, 0, 0],
            vec![0x00, 0x11, 0x00, 0xC0, 0, 0, 0, 0],
        ]);
        assert_eq!(b.hid().outputs(), expected);
    }
}

//! USB HID PID (Physical Interface Device) force feedback: Moza, Simucube, `OpenFFBoard`,
//! VRS, Cammus, Asetek and others (`docs/force-feedback-protocols.md` section 3).
//!
//! Report IDs and field layouts are device-specific; like Linux's hid-pidff, this module
//! finds reports by their PID usages (section 3.1), never by fixed IDs. [`parse_descriptor`]
//! reads a HID report descriptor into [`Field`]s, [`PidLayout::from_descriptor`] picks the
//! reports a constant force needs, and the encoders build exact report bytes from it:
//! device control (reset, enable/disable actuators, stop all), device gain, Create New
//! Effect, Block Load (parsing the reply), Set Effect, Set Constant Force (the only report
//! streamed per tick, section 3.4) and Effect Operation (start, stop).
//!
//! Device Control is handled both as an array (the PID specification) and as a bitmask
//! variable (`OpenFFBoard`, VRS; the `PERMISSIVE_CONTROL` quirk of section 3.4).
//!
//! **Finite, renewed duration.** Section 3.4 advises all ones (infinite) for the duration;
//! Gripline sends [`EFFECT_DURATION_MS`] instead and restarts the effect every
//! [`RENEW_EVERY`] from [`FfbBackend::refresh`], which the writer thread calls every period
//! whether or not the level changed. A process killed without a word (SIGKILL, a power cut
//! of the PC side of USB is another matter) then leaves the base at most
//! [`EFFECT_DURATION_MS`] of its last force. The duration is written in the Duration
//! field's own unit (its Unit Exponent, as hid-pidff's `pidff_rescale_time` does; -3 =
//! milliseconds in the PID specification's example), rounded up, never 0 and never all ones
//! (both mean "infinite" to some firmware); a device whose unit is coarser than 100 ms gets
//! one unit, and [`HidPidBackend::effect_duration`] reports the real bound. Moza's firmware times a constant force out unless
//! it is restarted anyway (PCSX2 pull request 11906; `docs/force-feedback-protocols.md`, section
//! 3.4).
//!
//! Encoders write into a fixed-size [`Report`] and never allocate; only the descriptor parser
//! does.

use crate::ffb::backend::{FfbBackend, FfbError, sanitize_level};
use crate::ffb::protocol::HidOutput;

/// PID usage page.
pub const PAGE_PID: u32 = 0x0F;
/// Generic Desktop usage page.
pub const PAGE_GENERIC_DESKTOP: u32 = 0x01;
/// Ordinals usage page (direction instances).
pub const PAGE_ORDINALS: u32 = 0x0A;

/// PID usages used here (page 0x0F; `docs/force-feedback-protocols.md` section 3.1).
pub mod usage {
    /// Set Effect Report.
    pub const SET_EFFECT_REPORT: u16 = 0x21;
    /// Effect Block Index.
    pub const EFFECT_BLOCK_INDEX: u16 = 0x22;
    /// Effect Type (collection of effect-type usages).
    pub const EFFECT_TYPE: u16 = 0x25;
    /// Effect type: Constant Force.
    pub const ET_CONSTANT_FORCE: u16 = 0x26;
    /// Byte Count.
    pub const BYTE_COUNT: u16 = 0x3B;
    /// Duration.
    pub const DURATION: u16 = 0x50;
    /// Sample Period.
    pub const SAMPLE_PERIOD: u16 = 0x51;
    /// Gain.
    pub const GAIN: u16 = 0x52;
    /// Trigger Button.
    pub const TRIGGER_BUTTON: u16 = 0x53;
    /// Trigger Repeat Interval.
    pub const TRIGGER_REPEAT_INTERVAL: u16 = 0x54;
    /// Axes Enable (collection).
    pub const AXES_ENABLE: u16 = 0x55;
    /// Direction Enable.
    pub const DIRECTION_ENABLE: u16 = 0x56;
    /// Direction (collection of ordinals).
    pub const DIRECTION: u16 = 0x57;
    /// Magnitude.
    pub const MAGNITUDE: u16 = 0x70;
    /// Set Constant Force Report.
    pub const SET_CONSTANT_FORCE_REPORT: u16 = 0x73;
    /// Effect Operation Report.
    pub const EFFECT_OPERATION_REPORT: u16 = 0x77;
    /// Effect Operation (collection: Start, Start Solo, Stop).
    pub const EFFECT_OPERATION: u16 = 0x78;
    /// Op Effect Start.
    pub const OP_EFFECT_START: u16 = 0x79;
    /// Op Effect Stop.
    pub const OP_EFFECT_STOP: u16 = 0x7B;
    /// Loop Count.
    pub const LOOP_COUNT: u16 = 0x7C;
    /// Device Gain Report.
    pub const DEVICE_GAIN_REPORT: u16 = 0x7D;
    /// Device Gain.
    pub const DEVICE_GAIN: u16 = 0x7E;
    /// Block Load Report.
    pub const BLOCK_LOAD_REPORT: u16 = 0x89;
    /// Block Load Status (collection: Success, Full, Error).
    pub const BLOCK_LOAD_STATUS: u16 = 0x8B;
    /// Block Load Success.
    pub const BLOCK_LOAD_SUCCESS: u16 = 0x8C;
    /// Block Load Full.
    pub const BLOCK_LOAD_FULL: u16 = 0x8D;
    /// PID Device Control Report.
    pub const DEVICE_CONTROL_REPORT: u16 = 0x95;
    /// PID Device Control (collection of the commands below).
    pub const DEVICE_CONTROL: u16 = 0x96;
    /// DC Enable Actuators.
    pub const DC_ENABLE_ACTUATORS: u16 = 0x97;
    /// DC Disable Actuators.
    pub const DC_DISABLE_ACTUATORS: u16 = 0x98;
    /// DC Stop All Effects.
    pub const DC_STOP_ALL_EFFECTS: u16 = 0x99;
    /// DC Device Reset.
    pub const DC_DEVICE_RESET: u16 = 0x9A;
    /// DC Device Pause.
    pub const DC_DEVICE_PAUSE: u16 = 0x9B;
    /// DC Device Continue.
    pub const DC_DEVICE_CONTINUE: u16 = 0x9C;
    /// RAM Pool Available.
    pub const RAM_POOL_AVAILABLE: u16 = 0xAC;
    /// Create New Effect Report.
    pub const CREATE_NEW_EFFECT_REPORT: u16 = 0xAB;
}

/// A PID-page usage as a full 32-bit usage (page in the high half).
pub const fn pid(id: u16) -> u32 {
    (PAGE_PID << 16) | id as u32
}

/// Which kind of report a field belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReportKind {
    /// Device to host.
    Input,
    /// Host to device (interrupt OUT / `write`).
    Output,
    /// Feature (control transfers, SET and GET).
    Feature,
}

/// One main item (Input, Output or Feature) of a report descriptor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// Report ID (0 when the descriptor declares none).
    pub report_id: u8,
    /// Report kind.
    pub kind: ReportKind,
    /// Bit offset of the first element within the report, after the report ID byte.
    pub bit_offset: u32,
    /// Bits per element.
    pub size: u32,
    /// Number of elements.
    pub count: u32,
    /// Logical minimum.
    pub logical_min: i32,
    /// Logical maximum.
    pub logical_max: i32,
    /// Usages (page << 16 | id): one per element for variables, the selectable usages for
    /// arrays.
    pub usages: Vec<u32>,
    /// Variable (each element its own value) rather than array (elements hold indices).
    pub variable: bool,
    /// Constant (padding).
    pub constant: bool,
    /// Usages of the enclosing collections, outermost first.
    pub collections: Vec<u32>,
    /// Unit exponent (the Unit Exponent global item; 0 when none): a time field counts
    /// `10^unit_exponent` seconds (-3: milliseconds, the PID specification's example).
    pub unit_exponent: i32,
}

/// A report descriptor that could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DescriptorError {
    /// An item runs past the end of the descriptor.
    #[error("report descriptor truncated at byte {0}")]
    Truncated(usize),
    /// End Collection without a collection, or Pop without Push.
    #[error("report descriptor unbalanced at byte {0}")]
    Unbalanced(usize),
}

/// Longest report (ID byte included) the encoders handle.
pub const MAX_REPORT_LEN: usize = 64;

#[derive(Clone, Copy, Debug, Default)]
struct Globals {
    page: u32,
    logical_min: i32,
    logical_max: i32,
    logical_max_raw: (u32, usize),
    size: u32,
    count: u32,
    report_id: u8,
    unit_exponent: i32,
}

fn unsigned(data: &[u8]) -> u32 {
    data.iter()
        .rev()
        .fold(0u32, |acc, &b| (acc << 8) | u32::from(b))
}

fn signed(data: &[u8]) -> i32 {
    let raw = unsigned(data);
    // Reinterpreting the sign-extended bits is the point.
    #[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)]
    match data.len() {
        1 => i32::from(raw as u8 as i8),
        2 => i32::from(raw as u16 as i16),
        4 => raw as i32,
        _ => 0,
    }
}

/// Parses the short items of a HID report descriptor (long items are skipped).
///
/// # Errors
/// [`DescriptorError`] for truncated or unbalanced descriptors and oversize reports.
pub fn parse_descriptor(bytes: &[u8]) -> Result<Vec<Field>, DescriptorError> {
    let mut fields = Vec::new();
    let mut globals = Globals::default();
    let mut stack: Vec<Globals> = Vec::new();
    let mut collections: Vec<u32> = Vec::new();
    let mut usages: Vec<u32> = Vec::new();
    let mut usage_min: Option<u32> = None;
    let mut offsets: Vec<((u8, ReportKind), u32)> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let prefix = bytes[i];
        if prefix == 0xFE {
            // Long item: size, tag, data.
            let size = usize::from(*bytes.get(i + 1).ok_or(DescriptorError::Truncated(i))?);
            i += 3 + size;
            continue;
        }
        let size = match prefix & 0x03 {
            3 => 4,
            n => usize::from(n),
        };
        let data = bytes
            .get(i + 1..i + 1 + size)
            .ok_or(DescriptorError::Truncated(i))?;
        let kind = (prefix >> 2) & 0x03;
        let tag = prefix >> 4;
        let full_usage = |page: u32, data: &[u8]| {
            let v = unsigned(data);
            if data.len() == 4 { v } else { (page << 16) | v }
        };
        match (kind, tag) {
            // Main items.
            (0, 0x8 | 0x9 | 0xB) => {
                let report_kind = match tag {
                    0x8 => ReportKind::Input,
                    0x9 => ReportKind::Output,
                    _ => ReportKind::Feature,
                };
                let flags = unsigned(data);
                let key = (globals.report_id, report_kind);
                let offset = offsets
                    .iter()
                    .find(|(k, _)| *k == key)
                    .map_or(0, |&(_, o)| o);
                // A 1-byte logical maximum such as 0xFF with a non-negative minimum means 255.
                let mut logical_max = globals.logical_max;
                if logical_max < globals.logical_min {
                    let (raw, len) = globals.logical_max_raw;
                    if len < 4 {
                        logical_max = i32::try_from(raw).unwrap_or(i32::MAX);
                    }
                }
                fields.push(Field {
                    report_id: globals.report_id,
                    kind: report_kind,
                    bit_offset: offset,
                    size: globals.size,
                    count: globals.count,
                    logical_min: globals.logical_min,
                    logical_max,
                    usages: std::mem::take(&mut usages),
                    variable: flags & 0x02 != 0,
                    constant: flags & 0x01 != 0,
                    collections: collections.clone(),
                    unit_exponent: globals.unit_exponent,
                });
                // Reports of any length are read (vendor reports of 64 bytes and more are
                // common on direct-drive bases); only the PID reports the layout uses must fit
                // in MAX_REPORT_LEN, which `PidLayout` checks.
                let end = offset.saturating_add(globals.size.saturating_mul(globals.count));
                match offsets.iter_mut().find(|(k, _)| *k == key) {
                    Some(entry) => entry.1 = end,
                    None => offsets.push((key, end)),
                }
                usage_min = None;
            }
            (0, 0xA) => {
                collections.push(usages.first().copied().unwrap_or(0));
                usages.clear();
                usage_min = None;
            }
            (0, 0xC) => {
                collections.pop().ok_or(DescriptorError::Unbalanced(i))?;
            }
            // Global items.
            (1, 0x0) => globals.page = unsigned(data),
            (1, 0x1) => globals.logical_min = signed(data),
            (1, 0x5) => {
                // A 4-bit two's-complement nibble (0xD = -3) in the short form, as Linux's
                // hid-core reads it; a wider value as a signed number.
                let raw = unsigned(data);
                globals.unit_exponent = if raw & !0xF == 0 {
                    i32::try_from(raw).unwrap_or(0) - if raw & 0x8 == 0 { 0 } else { 16 }
                } else {
                    signed(data)
                };
            }
            (1, 0x2) => {
                globals.logical_max = signed(data);
                globals.logical_max_raw = (unsigned(data), data.len());
            }
            (1, 0x7) => globals.size = unsigned(data),
            (1, 0x8) => globals.report_id = u8::try_from(unsigned(data)).unwrap_or(0),
            (1, 0x9) => globals.count = unsigned(data),
            (1, 0xA) => stack.push(globals),
            (1, 0xB) => globals = stack.pop().ok_or(DescriptorError::Unbalanced(i))?,
            // Local items.
            (2, 0x0) => usages.push(full_usage(globals.page, data)),
            (2, 0x1) => usage_min = Some(full_usage(globals.page, data)),
            (2, 0x2) => {
                if let Some(lo) = usage_min.take() {
                    let hi = full_usage(globals.page, data);
                    // Bounded: a descriptor cannot make us build a huge list.
                    usages.extend((lo..=hi).take(256));
                }
            }
            _ => {}
        }
        i += 1 + size;
    }
    if !collections.is_empty() {
        return Err(DescriptorError::Unbalanced(bytes.len()));
    }
    Ok(fields)
}

/// Where one value lives in a report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// Bit offset after the report ID byte.
    pub bit_offset: u32,
    /// Bits.
    pub size: u32,
    /// Logical minimum.
    pub logical_min: i32,
    /// Logical maximum.
    pub logical_max: i32,
    /// Unit exponent of the field (see [`Field::unit_exponent`]).
    pub unit_exponent: i32,
}

/// An array slot and the usage-to-value mapping of its choices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArraySlot {
    /// Where the value goes.
    pub slot: Slot,
    /// The selectable usages; usage `i` is written as `logical_min + i`.
    pub usages: Vec<u32>,
}

impl ArraySlot {
    fn value_of(&self, usage: u32) -> Option<i64> {
        let index = self.usages.iter().position(|&u| u == usage)?;
        Some(i64::from(self.slot.logical_min) + i64::try_from(index).ok()?)
    }

    fn usage_of(&self, value: i64) -> Option<u32> {
        let index = usize::try_from(value - i64::from(self.slot.logical_min)).ok()?;
        self.usages.get(index).copied()
    }
}

/// A report's ID and length (ID byte included).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReportInfo {
    /// Report ID.
    pub id: u8,
    /// Length in bytes, ID byte included.
    pub len: usize,
}

/// How Device Control commands are written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeviceControl {
    /// An array field: the command's index (PID specification).
    Array(ArraySlot),
    /// One bit per command (`OpenFFBoard`, VRS).
    Bitmask(Vec<(u32, Slot)>),
}

/// The reports and fields a constant force needs, found by usage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PidLayout {
    /// Set Effect (output).
    pub set_effect: ReportInfo,
    /// Set Effect: effect block index.
    pub set_effect_ebi: Slot,
    /// Set Effect: effect type.
    pub set_effect_type: ArraySlot,
    /// Set Effect: duration, and the other 16-bit timing fields when present.
    pub duration: Option<Slot>,
    /// Set Effect: trigger repeat interval.
    pub trigger_repeat: Option<Slot>,
    /// Set Effect: sample period.
    pub sample_period: Option<Slot>,
    /// Set Effect: start delay (missing on some devices: `MISSING_DELAY` quirk).
    pub start_delay: Option<Slot>,
    /// Set Effect: gain.
    pub gain: Option<Slot>,
    /// Set Effect: trigger button.
    pub trigger_button: Option<Slot>,
    /// Set Effect: axis X enable bit.
    pub axis_x_enable: Option<Slot>,
    /// Set Effect: direction enable bit.
    pub direction_enable: Option<Slot>,
    /// Set Effect: direction of the first ordinal (X).
    pub direction_x: Option<Slot>,
    /// Set Constant Force (output).
    pub set_constant: ReportInfo,
    /// Set Constant Force: effect block index.
    pub constant_ebi: Slot,
    /// Set Constant Force: magnitude.
    pub magnitude: Slot,
    /// Effect Operation (output).
    pub effect_operation: ReportInfo,
    /// Effect Operation: effect block index.
    pub operation_ebi: Slot,
    /// Effect Operation: operation.
    pub operation: ArraySlot,
    /// Effect Operation: loop count.
    pub loop_count: Option<Slot>,
    /// Device Control (output).
    pub device_control: ReportInfo,
    /// Device Control commands.
    pub control: DeviceControl,
    /// Device Gain (output), when present.
    pub device_gain: Option<(ReportInfo, Slot)>,
    /// Create New Effect (feature).
    pub create_new_effect: ReportInfo,
    /// Create New Effect: effect type.
    pub create_type: ArraySlot,
    /// Create New Effect: byte count, when present.
    pub create_byte_count: Option<Slot>,
    /// Block Load (feature).
    pub block_load: ReportInfo,
    /// Block Load: effect block index.
    pub block_load_ebi: Slot,
    /// Block Load: status.
    pub block_load_status: ArraySlot,
}

fn report_len(fields: &[Field], id: u8, kind: ReportKind) -> usize {
    let bits = fields
        .iter()
        .filter(|f| f.report_id == id && f.kind == kind)
        .map(|f| f.bit_offset + f.size * f.count)
        .max()
        .unwrap_or(0);
    let id_byte = usize::from(id != 0);
    id_byte + (bits as usize).div_ceil(8)
}

struct Finder<'a> {
    fields: &'a [Field],
}

impl Finder<'_> {
    fn report(&self, kind: ReportKind, report_usage: u16) -> Result<ReportInfo, FfbError> {
        let field = self
            .fields
            .iter()
            .find(|f| f.kind == kind && f.collections.contains(&pid(report_usage)))
            .ok_or_else(|| {
                FfbError::Protocol(format!(
                    "descriptor has no {kind:?} report with PID usage {report_usage:#04x}"
                ))
            })?;
        let len = report_len(self.fields, field.report_id, kind);
        if len > MAX_REPORT_LEN {
            return Err(FfbError::Protocol(format!(
                "PID report {:#04x} is {len} bytes, longer than {MAX_REPORT_LEN}",
                field.report_id
            )));
        }
        Ok(ReportInfo {
            id: field.report_id,
            len,
        })
    }

    /// The variable element with `usage` in the report collection `report_usage`.
    fn variable(&self, kind: ReportKind, report_usage: u16, usage: u32) -> Option<Slot> {
        self.fields
            .iter()
            .filter(|f| f.kind == kind && f.variable && f.collections.contains(&pid(report_usage)))
            .find_map(|f| {
                let index = f.usages.iter().position(|&u| u == usage)?;
                // Elements past the last usage repeat the last usage (HID rule); we only
                // use the element of the usage itself.
                Some(Slot {
                    bit_offset: f.bit_offset + f.size * u32::try_from(index).ok()?,
                    size: f.size,
                    logical_min: f.logical_min,
                    logical_max: f.logical_max,
                    unit_exponent: f.unit_exponent,
                })
            })
    }

    fn required(&self, kind: ReportKind, report_usage: u16, usage: u32) -> Result<Slot, FfbError> {
        self.variable(kind, report_usage, usage).ok_or_else(|| {
            FfbError::Protocol(format!(
                "PID report {report_usage:#04x} has no field with usage {usage:#06x}"
            ))
        })
    }

    /// The array field inside collection `array_usage` of report collection `report_usage`.
    fn array(
        &self,
        kind: ReportKind,
        report_usage: u16,
        array_usage: u16,
    ) -> Result<ArraySlot, FfbError> {
        self.fields
            .iter()
            .find(|f| {
                f.kind == kind
                    && !f.variable
                    && !f.constant
                    && f.collections.contains(&pid(report_usage))
                    && f.collections.last() == Some(&pid(array_usage))
            })
            .map(|f| ArraySlot {
                slot: Slot {
                    bit_offset: f.bit_offset,
                    size: f.size,
                    logical_min: f.logical_min,
                    logical_max: f.logical_max,
                    unit_exponent: f.unit_exponent,
                },
                usages: f.usages.clone(),
            })
            .ok_or_else(|| {
                FfbError::Protocol(format!(
                    "PID report {report_usage:#04x} has no array {array_usage:#04x}"
                ))
            })
    }
}

impl PidLayout {
    /// Finds every report a constant force needs in a parsed descriptor.
    ///
    /// # Errors
    /// [`FfbError::Protocol`] naming the first missing report or field.
    pub fn from_fields(fields: &[Field]) -> Result<Self, FfbError> {
        use ReportKind::{Feature, Output};
        use usage as u;
        let f = Finder { fields };
        let set_effect = f.report(Output, u::SET_EFFECT_REPORT)?;
        let se = |usage: u16| f.variable(Output, u::SET_EFFECT_REPORT, pid(usage));
        let control =
            if let Ok(array) = f.array(Output, u::DEVICE_CONTROL_REPORT, u::DEVICE_CONTROL) {
                DeviceControl::Array(array)
            } else {
                {
                    let bits: Vec<(u32, Slot)> = (u::DC_ENABLE_ACTUATORS..=u::DC_DEVICE_CONTINUE)
                        .filter_map(|c| {
                            f.variable(Output, u::DEVICE_CONTROL_REPORT, pid(c))
                                .map(|s| (pid(c), s))
                        })
                        .collect();
                    if bits.is_empty() {
                        return Err(FfbError::Protocol(
                            "PID Device Control report has no commands".to_owned(),
                        ));
                    }
                    DeviceControl::Bitmask(bits)
                }
            };
        let device_gain = f.report(Output, u::DEVICE_GAIN_REPORT).ok().and_then(|r| {
            f.variable(Output, u::DEVICE_GAIN_REPORT, pid(u::DEVICE_GAIN))
                .map(|s| (r, s))
        });
        Ok(Self {
            set_effect,
            set_effect_ebi: f.required(Output, u::SET_EFFECT_REPORT, pid(u::EFFECT_BLOCK_INDEX))?,
            set_effect_type: f.array(Output, u::SET_EFFECT_REPORT, u::EFFECT_TYPE)?,
            duration: se(u::DURATION),
            trigger_repeat: se(u::TRIGGER_REPEAT_INTERVAL),
            sample_period: se(u::SAMPLE_PERIOD),
            start_delay: se(0xA7),
            gain: se(u::GAIN),
            trigger_button: se(u::TRIGGER_BUTTON),
            axis_x_enable: f.variable(
                Output,
                u::SET_EFFECT_REPORT,
                (PAGE_GENERIC_DESKTOP << 16) | 0x30,
            ),
            direction_enable: se(u::DIRECTION_ENABLE),
            direction_x: f.variable(Output, u::SET_EFFECT_REPORT, (PAGE_ORDINALS << 16) | 1),
            set_constant: f.report(Output, u::SET_CONSTANT_FORCE_REPORT)?,
            constant_ebi: f.required(
                Output,
                u::SET_CONSTANT_FORCE_REPORT,
                pid(u::EFFECT_BLOCK_INDEX),
            )?,
            magnitude: f.required(Output, u::SET_CONSTANT_FORCE_REPORT, pid(u::MAGNITUDE))?,
            effect_operation: f.report(Output, u::EFFECT_OPERATION_REPORT)?,
            operation_ebi: f.required(
                Output,
                u::EFFECT_OPERATION_REPORT,
                pid(u::EFFECT_BLOCK_INDEX),
            )?,
            operation: f.array(Output, u::EFFECT_OPERATION_REPORT, u::EFFECT_OPERATION)?,
            loop_count: f.variable(Output, u::EFFECT_OPERATION_REPORT, pid(u::LOOP_COUNT)),
            device_control: f.report(Output, u::DEVICE_CONTROL_REPORT)?,
            control,
            device_gain,
            create_new_effect: f.report(Feature, u::CREATE_NEW_EFFECT_REPORT)?,
            create_type: f.array(Feature, u::CREATE_NEW_EFFECT_REPORT, u::EFFECT_TYPE)?,
            create_byte_count: f.variable(Feature, u::CREATE_NEW_EFFECT_REPORT, pid(u::BYTE_COUNT)),
            block_load: f.report(Feature, u::BLOCK_LOAD_REPORT)?,
            block_load_ebi: f.required(
                Feature,
                u::BLOCK_LOAD_REPORT,
                pid(u::EFFECT_BLOCK_INDEX),
            )?,
            block_load_status: f.array(Feature, u::BLOCK_LOAD_REPORT, u::BLOCK_LOAD_STATUS)?,
        })
    }

    /// Parses `descriptor` and finds the layout.
    ///
    /// # Errors
    /// [`FfbError::Protocol`] when the descriptor is malformed or lacks a needed report.
    pub fn from_descriptor(descriptor: &[u8]) -> Result<Self, FfbError> {
        let fields = parse_descriptor(descriptor).map_err(|e| FfbError::Protocol(e.to_string()))?;
        Self::from_fields(&fields)
    }
}

/// A report ready to send: ID byte first (when the device uses IDs), fixed capacity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Report {
    data: [u8; MAX_REPORT_LEN],
    len: usize,
}

impl Report {
    fn new(info: ReportInfo) -> Self {
        let mut data = [0u8; MAX_REPORT_LEN];
        data[0] = info.id;
        Self {
            data,
            len: info.len.clamp(1, MAX_REPORT_LEN),
        }
    }

    fn id_bytes(&self) -> usize {
        usize::from(self.data[0] != 0)
    }

    /// Writes `value` (two's complement, truncated to the slot's size) at `slot`.
    fn put(&mut self, slot: Slot, value: i64) {
        let base = 8 * self.id_bytes();
        for bit in 0..slot.size.min(64) {
            let pos = base + slot.bit_offset as usize + bit as usize;
            if pos >= 8 * self.len {
                break;
            }
            let mask = 1u8 << (pos % 8);
            if (value >> bit) & 1 == 1 {
                self.data[pos / 8] |= mask;
            } else {
                self.data[pos / 8] &= !mask;
            }
        }
    }

    /// Reads the value at `slot` (sign-extended when the slot's logical minimum is negative).
    fn get(&self, slot: Slot) -> i64 {
        let base = 8 * self.id_bytes();
        let mut value = 0i64;
        for bit in 0..slot.size.min(63) {
            let pos = base + slot.bit_offset as usize + bit as usize;
            if pos < 8 * self.len && self.data[pos / 8] & (1 << (pos % 8)) != 0 {
                value |= 1 << bit;
            }
        }
        if slot.logical_min < 0
            && slot.size > 0
            && slot.size < 63
            && value >> (slot.size - 1) & 1 == 1
        {
            value -= 1 << slot.size;
        }
        value
    }

    /// The bytes to send.
    pub fn bytes(&self) -> &[u8] {
        &self.data[..self.len]
    }
}

/// Rescales a level (-1..1) to a signed logical range like hid-pidff's
/// `pidff_rescale_signed`: positive values scale by the maximum, negative by the minimum.
pub fn rescale_signed(level: f64, slot: Slot) -> i64 {
    let l = sanitize_level(level);
    // Bounded by the logical range, which fits i32.
    #[allow(clippy::cast_possible_truncation)]
    if l >= 0.0 {
        (l * f64::from(slot.logical_max)).round() as i64
    } else {
        (-l * f64::from(slot.logical_min)).round() as i64
    }
}

/// The device commands of Device Control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ControlCommand {
    /// Enable actuators.
    EnableActuators,
    /// Disable actuators.
    DisableActuators,
    /// Stop all effects.
    StopAllEffects,
    /// Reset the device (clears every effect).
    Reset,
    /// Pause.
    Pause,
    /// Continue.
    Continue,
}

impl ControlCommand {
    fn usage(self) -> u32 {
        pid(match self {
            ControlCommand::EnableActuators => usage::DC_ENABLE_ACTUATORS,
            ControlCommand::DisableActuators => usage::DC_DISABLE_ACTUATORS,
            ControlCommand::StopAllEffects => usage::DC_STOP_ALL_EFFECTS,
            ControlCommand::Reset => usage::DC_DEVICE_RESET,
            ControlCommand::Pause => usage::DC_DEVICE_PAUSE,
            ControlCommand::Continue => usage::DC_DEVICE_CONTINUE,
        })
    }
}

/// Result of a Block Load request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockLoad {
    /// The effect was created with this block index.
    Loaded(u8),
    /// The device has no room for another effect.
    Full,
    /// The device reported an error.
    Error,
}

impl PidLayout {
    /// Device Control report for `command`.
    ///
    /// # Errors
    /// [`FfbError::Protocol`] when the device does not offer the command.
    pub fn device_control(&self, command: ControlCommand) -> Result<Report, FfbError> {
        let mut r = Report::new(self.device_control);
        let missing = || FfbError::Protocol(format!("device control has no {command:?} command"));
        match &self.control {
            DeviceControl::Array(array) => {
                let value = array.value_of(command.usage()).ok_or_else(missing)?;
                r.put(array.slot, value);
            }
            DeviceControl::Bitmask(bits) => {
                let slot = bits
                    .iter()
                    .find(|(u, _)| *u == command.usage())
                    .map(|&(_, s)| s)
                    .ok_or_else(missing)?;
                r.put(slot, 1);
            }
        }
        Ok(r)
    }

    /// Device Gain report at `gain` (0..1 of the field's range), when the device has one.
    pub fn device_gain(&self, gain: f64) -> Option<Report> {
        let (info, slot) = self.device_gain?;
        let mut r = Report::new(info);
        r.put(slot, scale_unsigned(gain, slot));
        Some(r)
    }

    /// Create New Effect feature report for a constant force.
    ///
    /// # Errors
    /// [`FfbError::Protocol`] when the device does not list the constant-force type.
    pub fn create_constant_effect(&self) -> Result<Report, FfbError> {
        let mut r = Report::new(self.create_new_effect);
        let value = self
            .create_type
            .value_of(pid(usage::ET_CONSTANT_FORCE))
            .ok_or_else(|| FfbError::Protocol("device lacks constant force".to_owned()))?;
        r.put(self.create_type.slot, value);
        if let Some(slot) = self.create_byte_count {
            r.put(slot, 0);
        }
        Ok(r)
    }

    /// An empty buffer for reading the Block Load feature report (ID byte set).
    pub fn block_load_request(&self) -> Report {
        Report::new(self.block_load)
    }

    /// Parses a Block Load reply (ID byte first).
    ///
    /// # Errors
    /// [`FfbError::Protocol`] when the reply is for another report or has an unknown status.
    pub fn parse_block_load(&self, reply: &[u8]) -> Result<BlockLoad, FfbError> {
        let mut r = Report::new(self.block_load);
        if self.block_load.id != 0 && reply.first() != Some(&self.block_load.id) {
            return Err(FfbError::Protocol(
                "reply is not a Block Load report".to_owned(),
            ));
        }
        let n = reply.len().min(r.len);
        r.data[..n].copy_from_slice(&reply[..n]);
        let status = self
            .block_load_status
            .usage_of(r.get(self.block_load_status.slot));
        match status {
            Some(s) if s == pid(usage::BLOCK_LOAD_SUCCESS) => {
                let ebi = u8::try_from(r.get(self.block_load_ebi)).map_err(|_| {
                    FfbError::Protocol("effect block index out of range".to_owned())
                })?;
                Ok(BlockLoad::Loaded(ebi))
            }
            Some(s) if s == pid(usage::BLOCK_LOAD_FULL) => Ok(BlockLoad::Full),
            Some(_) => Ok(BlockLoad::Error),
            None => Err(FfbError::Protocol("unknown block load status".to_owned())),
        }
    }

    /// The duration a Set Effect for `duration_ms` really asks for, in the device's unit
    /// (see [`duration_units`]); `None` when the report has no Duration field (the device
    /// then decides, and nothing bounds the effect but the Stop it is sent).
    pub fn effective_duration(&self, duration_ms: u16) -> Option<std::time::Duration> {
        let slot = self.duration?;
        Some(units_to_duration(slot, duration_units(slot, duration_ms)))
    }

    /// Set Effect report for constant force `ebi`: duration `duration_ms` (ms), rescaled to
    /// the Duration field's unit exponent and kept finite ([`duration_units`]), full gain,
    /// no trigger button (all ones, outside the logical range), X axis enabled, direction
    /// enabled at 90° (so the X component is +1; the sign travels in the magnitude, as
    /// section 1.5 recommends for Linux too).
    ///
    /// # Errors
    /// [`FfbError::Protocol`] when the device does not list the constant-force type.
    pub fn set_constant_effect(&self, ebi: u8, duration_ms: u16) -> Result<Report, FfbError> {
        let mut r = Report::new(self.set_effect);
        r.put(self.set_effect_ebi, i64::from(ebi));
        let value = self
            .set_effect_type
            .value_of(pid(usage::ET_CONSTANT_FORCE))
            .ok_or_else(|| FfbError::Protocol("device lacks constant force".to_owned()))?;
        r.put(self.set_effect_type.slot, value);
        let all_ones = |s: Slot| (1i64 << s.size.min(62)) - 1;
        if let Some(s) = self.duration {
            r.put(s, duration_units(s, duration_ms));
        }
        for s in [self.trigger_repeat, self.sample_period, self.start_delay]
            .into_iter()
            .flatten()
        {
            r.put(s, 0);
        }
        if let Some(s) = self.gain {
            r.put(s, i64::from(s.logical_max));
        }
        if let Some(s) = self.trigger_button {
            r.put(s, all_ones(s));
        }
        if let Some(s) = self.axis_x_enable {
            r.put(s, 1);
        }
        if let Some(s) = self.direction_enable {
            r.put(s, 1);
        }
        if let Some(s) = self.direction_x {
            // A quarter turn of the logical range (0..36000 in 0.01° -> 9000).
            r.put(s, i64::from(s.logical_max) / 4);
        }
        Ok(r)
    }

    /// Set Constant Force report: effect `ebi` at `level` (-1..1), rescaled to the
    /// magnitude's logical range. The report streamed every tick.
    pub fn set_magnitude(&self, ebi: u8, level: f64) -> Report {
        let mut r = Report::new(self.set_constant);
        r.put(self.constant_ebi, i64::from(ebi));
        r.put(self.magnitude, rescale_signed(level, self.magnitude));
        r
    }

    /// Effect Operation report: start effect `ebi` once (loop count 1).
    ///
    /// # Errors
    /// [`FfbError::Protocol`] when the device lacks the Start operation.
    pub fn start_effect(&self, ebi: u8) -> Result<Report, FfbError> {
        self.operation_report(ebi, usage::OP_EFFECT_START, 1)
    }

    /// Effect Operation report: stop effect `ebi`.
    ///
    /// # Errors
    /// [`FfbError::Protocol`] when the device lacks the Stop operation.
    pub fn stop_effect(&self, ebi: u8) -> Result<Report, FfbError> {
        self.operation_report(ebi, usage::OP_EFFECT_STOP, 0)
    }

    fn operation_report(&self, ebi: u8, op: u16, loops: i64) -> Result<Report, FfbError> {
        let mut r = Report::new(self.effect_operation);
        r.put(self.operation_ebi, i64::from(ebi));
        let value = self
            .operation
            .value_of(pid(op))
            .ok_or_else(|| FfbError::Protocol(format!("no effect operation {op:#04x}")))?;
        r.put(self.operation.slot, value);
        if let Some(s) = self.loop_count {
            r.put(s, loops);
        }
        Ok(r)
    }
}

/// `duration_ms` in the units of a Duration field: `10^unit_exponent` s, as hid-pidff's
/// `pidff_rescale_time` scales (exponent -3, the PID specification's example, is ms), but
/// rounded **up** and at least 1, because 0 means "infinite" to some firmware (`OpenFFBoard`,
/// section 3.2) and the all-ones value is PID's infinite (section 3.4); so at most
/// `logical_max` and below all ones. A device whose unit is coarser than the request (an
/// exponent of -1 or more) gets one unit, and [`PidLayout::effective_duration`] says how long
/// that is.
pub fn duration_units(slot: Slot, duration_ms: u16) -> i64 {
    let mut value = i64::from(duration_ms);
    let mut exponent = slot.unit_exponent.clamp(-12, 12);
    while exponent < -3 {
        value = value.saturating_mul(10);
        exponent += 1;
    }
    while exponent > -3 {
        value = (value + 9) / 10;
        exponent -= 1;
    }
    let all_ones = (1i64 << slot.size.clamp(1, 62)) - 1;
    let max = i64::from(slot.logical_max).min(all_ones - 1).max(1);
    value.clamp(1, max)
}

/// `units` of a time field as a duration (see [`duration_units`]).
fn units_to_duration(slot: Slot, units: i64) -> std::time::Duration {
    let units = u64::try_from(units).unwrap_or(0);
    // The unit in powers of ten of a nanosecond.
    let exponent = slot.unit_exponent.clamp(-12, 12) + 9;
    let ten_pow = 10u64.saturating_pow(exponent.unsigned_abs());
    std::time::Duration::from_nanos(if exponent >= 0 {
        units.saturating_mul(ten_pow)
    } else {
        units / ten_pow
    })
}

fn scale_unsigned(fraction: f64, slot: Slot) -> i64 {
    let f = if fraction.is_finite() {
        fraction.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let span = f64::from(slot.logical_max) - f64::from(slot.logical_min);
    // Bounded by the logical range.
    #[allow(clippy::cast_possible_truncation)]
    let value = (f64::from(slot.logical_min) + f * span).round() as i64;
    value
}

/// Duration of the constant-force effect (ms): a killed process stops the torque within it.
pub const EFFECT_DURATION_MS: u16 = 100;
/// How often the effect is restarted while it plays: well inside [`EFFECT_DURATION_MS`], so a
/// late writer period or two never lets it lapse.
pub const RENEW_EVERY: std::time::Duration = std::time::Duration::from_millis(40);
/// Block Load reads tried before giving up (a device may not have the effect ready at once).
pub const BLOCK_LOAD_TRIES: u32 = 4;
/// Pause between Block Load tries.
const BLOCK_LOAD_PAUSE: std::time::Duration = std::time::Duration::from_millis(5);

/// A HID PID wheel driven through raw HID: the start-up sequence of hid-pidff (reset, stop
/// all effects, enable actuators, gain, create effect, block load (retried), set effect with a
/// finite duration, start; section 3.3), then only Set Constant Force reports, skipping
/// unchanged magnitudes, and the effect restarted every [`RENEW_EVERY`]. `stop` zeroes the
/// magnitude, stops the effect and all effects, and disables the actuators (section 4.5,
/// rule 6).
#[derive(Debug)]
pub struct HidPidBackend<H: HidOutput> {
    hid: H,
    layout: PidLayout,
    ebi: u8,
    rate_hz: f64,
    last: Option<Report>,
    stopped: bool,
    /// When the effect was last (re)started, in the writer's time.
    renewed_at: Option<std::time::Duration>,
    /// How often the effect is restarted: [`RENEW_EVERY`], or less when the device's
    /// duration unit makes the effect shorter ([`renew_interval`]).
    renew_every: std::time::Duration,
}

impl<H: HidOutput> HidPidBackend<H> {
    /// Runs the start-up sequence on `hid` with `layout`.
    ///
    /// # Errors
    /// [`FfbError`] from the device, or [`FfbError::Protocol`] when the effect cannot be
    /// created (device full or error).
    pub fn start(mut hid: H, layout: PidLayout, rate_hz: f64) -> Result<Self, FfbError> {
        hid.write(layout.device_control(ControlCommand::Reset)?.bytes())?;
        // Nothing left playing from before (another program, a crashed run) when the
        // actuators come on.
        hid.write(
            layout
                .device_control(ControlCommand::StopAllEffects)?
                .bytes(),
        )?;
        hid.write(
            layout
                .device_control(ControlCommand::EnableActuators)?
                .bytes(),
        )?;
        if let Some(gain) = layout.device_gain(1.0) {
            hid.write(gain.bytes())?;
        }
        hid.send_feature_report(layout.create_constant_effect()?.bytes())?;
        let ebi = block_load(&mut hid, &layout)?;
        hid.write(layout.set_constant_effect(ebi, EFFECT_DURATION_MS)?.bytes())?;
        let zero = layout.set_magnitude(ebi, 0.0);
        hid.write(zero.bytes())?;
        hid.write(layout.start_effect(ebi)?.bytes())?;
        let renew_every = renew_interval(layout.effective_duration(EFFECT_DURATION_MS));
        Ok(Self {
            hid,
            layout,
            ebi,
            rate_hz,
            last: Some(zero),
            stopped: false,
            renewed_at: None,
            renew_every,
        })
    }

    /// How long the effect plays after its last restart: the bound on the torque left by a
    /// process that dies without stopping it (`None` when the device's Set Effect has no
    /// Duration field).
    pub fn effect_duration(&self) -> Option<std::time::Duration> {
        self.layout.effective_duration(EFFECT_DURATION_MS)
    }

    /// How often the effect is restarted while it plays.
    pub fn renew_every(&self) -> std::time::Duration {
        self.renew_every
    }

    /// The HID device (for tests that inspect what was written).
    pub fn hid(&self) -> &H {
        &self.hid
    }

    /// The effect block index the device assigned.
    pub fn effect_block_index(&self) -> u8 {
        self.ebi
    }
}

/// The restart interval for an effect of `duration`: [`RENEW_EVERY`], or two fifths of a
/// shorter duration (a device whose duration field cannot hold 100 ms), at least 1 ms.
pub fn renew_interval(duration: Option<std::time::Duration>) -> std::time::Duration {
    duration.map_or(RENEW_EVERY, |d| {
        RENEW_EVERY
            .min(d * 2 / 5)
            .max(std::time::Duration::from_millis(1))
    })
}

/// Reads Block Load until the device answers with a result, up to [`BLOCK_LOAD_TRIES`]
/// times: a short or unreadable reply, or an "error" status, is tried again after a pause;
/// "full" is final.
fn block_load<H: HidOutput>(hid: &mut H, layout: &PidLayout) -> Result<u8, FfbError> {
    let mut last_error = FfbError::Protocol("no Block Load reply".to_owned());
    for attempt in 0..BLOCK_LOAD_TRIES {
        if attempt > 0 {
            std::thread::sleep(BLOCK_LOAD_PAUSE);
        }
        let mut buf = layout.block_load_request();
        let reply = hid
            .get_feature_report(&mut buf.data[..buf.len])
            .and_then(|n| layout.parse_block_load(&buf.data[..n.min(buf.len)]));
        match reply {
            Ok(BlockLoad::Loaded(ebi)) => return Ok(ebi),
            Ok(BlockLoad::Full) => {
                return Err(FfbError::Protocol("effect memory full".to_owned()));
            }
            Ok(BlockLoad::Error) => {
                last_error = FfbError::Protocol("device refused the effect".to_owned());
            }
            Err(FfbError::Disconnected) => return Err(FfbError::Disconnected),
            Err(error) => last_error = error,
        }
    }
    Err(last_error)
}

impl<H: HidOutput> FfbBackend for HidPidBackend<H> {
    fn max_rate_hz(&self) -> f64 {
        self.rate_hz
    }

    fn refresh(&mut self, now: std::time::Duration) -> Result<(), FfbError> {
        if self.stopped {
            return Ok(());
        }
        let due = self
            .renewed_at
            .is_none_or(|at| now.saturating_sub(at) >= self.renew_every || now < at);
        if due {
            self.hid
                .write(self.layout.start_effect(self.ebi)?.bytes())?;
            self.renewed_at = Some(now);
        }
        Ok(())
    }

    fn send_level(&mut self, level: f64) -> Result<(), FfbError> {
        let report = self.layout.set_magnitude(self.ebi, level);
        if self.last == Some(report) {
            return Ok(());
        }
        if self.stopped {
            // Stop disabled the actuators and stopped the effect: undo both first.
            self.hid.write(
                self.layout
                    .device_control(ControlCommand::EnableActuators)?
                    .bytes(),
            )?;
            self.hid
                .write(self.layout.start_effect(self.ebi)?.bytes())?;
            self.stopped = false;
        }
        // Forget the last report on failure, so the next value is sent again.
        self.last = None;
        self.hid.write(report.bytes())?;
        self.last = Some(report);
        Ok(())
    }

    fn stop(&mut self) -> Result<(), FfbError> {
        self.last = None;
        self.stopped = true;
        self.hid
            .write(self.layout.set_magnitude(self.ebi, 0.0).bytes())?;
        self.hid.write(self.layout.stop_effect(self.ebi)?.bytes())?;
        self.hid.write(
            self.layout
                .device_control(ControlCommand::StopAllEffects)?
                .bytes(),
        )?;
        self.hid.write(
            self.layout
                .device_control(ControlCommand::DisableActuators)?
                .bytes(),
        )
    }
}

impl<H: HidOutput> Drop for HidPidBackend<H> {
    /// Runs the stop sequence unless it already ran (errors are ignored: the wheel may be
    /// gone).
    fn drop(&mut self) {
        if !self.stopped {
            let _ = self.stop();
        }
    }
}

#[cfg(test)]
mod tests;

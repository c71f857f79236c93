//! Tests of the HID PID parser and encoders.
//!
//! `docs/force-feedback-protocols.md` gives no report descriptor verbatim, so the descriptor below
//! was constructed for these tests from the HID PID usages (section 3.1) with the report IDs and
//! packed layouts that section 3.2 documents for `OpenFFBoard` (`FFB_SetEffect_t`,
//! `FFB_SetConstantForce_Data_t`, `FFB_EffOp_Data_t`, Device Control as an 8-bit bitmask, Create
//! New Effect and Block Load feature reports). It is `OpenFFBoard`-like, not a copy of its
//! firmware's descriptor. Expected bytes follow section 3.3.

use super::*;
use crate::ffb::protocol::{HidTransfer, RecordingHid};

const EFFECT_TYPES: &[u8] = &[
    0x09, 0x26, 0x09, 0x27, 0x09, 0x30, 0x09, 0x31, 0x09, 0x32, 0x09, 0x33, 0x09, 0x34, 0x09, 0x40,
    0x09, 0x41, 0x09, 0x42, 0x09, 0x43, // Constant .. Friction (11 types)
];

/// Device Control as `OpenFFBoard` declares it: one bit per command (section 3.2).
const CONTROL_BITMASK: &[u8] = &[
    0x09, 0x95, 0xA1, 0x02, 0x85, 0x0C, // PID Device Control Report, ID 0x0C
    0x09, 0x96, 0xA1, 0x02, // PID Device Control
    0x09, 0x97, 0x09, 0x98, 0x09, 0x99, 0x09, 0x9A, 0x09, 0x9B, 0x09, 0x9C, // commands
    0x15, 0x00, 0x25, 0x01, 0x75, 0x01, 0x95, 0x06, 0x91, 0x02, // 6 x 1 bit, variable
    0x95, 0x02, 0x91, 0x03, // 2 bits padding
    0xC0, 0xC0,
];

/// Device Control as the PID specification declares it: an array of command indices.
const CONTROL_ARRAY: &[u8] = &[
    0x09, 0x95, 0xA1, 0x02, 0x85, 0x0C, //
    0x09, 0x96, 0xA1, 0x02, //
    0x09, 0x97, 0x09, 0x98, 0x09, 0x99, 0x09, 0x9A, 0x09, 0x9B, 0x09, 0x9C, //
    0x15, 0x01, 0x25, 0x06, 0x75, 0x08, 0x95, 0x01, 0x91, 0x00, // 1..6, array
    0xC0, 0xC0,
];

fn descriptor(control: &[u8]) -> Vec<u8> {
    let mut d: Vec<u8> = vec![
        0x05, 0x01, 0x09, 0x04, 0xA1, 0x01, // Generic Desktop, Joystick, Application
        // Input report 1: steering axis (shares ID 1 with the Set Effect *output* report).
        0x85, 0x01, 0x09, 0x30, 0x16, 0x01, 0x80, 0x26, 0xFF, 0x7F, 0x75, 0x10, 0x95, 0x01, 0x81,
        0x02, //
        0x05, 0x0F, // PID page
        // Set Effect, output 0x01.
        0x09, 0x21, 0xA1, 0x02, 0x85, 0x01, //
        0x09, 0x22, 0x15, 0x01, 0x25, 0x28, 0x75, 0x08, 0x95, 0x01, 0x91, 0x02, // EBI 1..40
        0x09, 0x25, 0xA1, 0x02, // Effect Type
    ];
    d.extend_from_slice(EFFECT_TYPES);
    d.extend_from_slice(&[
        0x15, 0x01, 0x25, 0x0B, 0x75, 0x08, 0x95, 0x01, 0x91, 0x00, 0xC0, // array 1..11
        0x09, 0x50, 0x09, 0x54, 0x09, 0x51, 0x09, 0xA7, // Duration, Repeat, Sample, Delay
        0x66, 0x03, 0x10, 0x55, 0xFD, // Unit: time (s), Unit Exponent -3: milliseconds
        0x15, 0x00, 0x26, 0xFF, 0x7F, 0x75, 0x10, 0x95, 0x04, 0x91, 0x02, // 4 x u16
        0x66, 0x00, 0x00, 0x55, 0x00, // no unit from here on
        0x09, 0x52, 0x15, 0x00, 0x26, 0xFF, 0x00, 0x75, 0x08, 0x95, 0x01, 0x91, 0x02, // Gain
        0x09, 0x53, 0x15, 0x01, 0x25, 0x08, 0x75, 0x08, 0x95, 0x01, 0x91, 0x42, // Trigger
        0x09, 0x55, 0xA1, 0x02, 0x05, 0x01, 0x09, 0x30, 0x09, 0x31, // Axes Enable: X, Y
        0x15, 0x00, 0x25, 0x01, 0x75, 0x01, 0x95, 0x02, 0x91, 0x02, 0xC0, //
        0x05, 0x0F, 0x09, 0x56, 0x95, 0x01, 0x91, 0x02, // Direction Enable
        0x95, 0x05, 0x91, 0x03, // padding
        0x09, 0x57, 0xA1, 0x02, // Direction: Ordinals 1, 2 (4-byte usages)
        0x0B, 0x01, 0x00, 0x0A, 0x00, 0x0B, 0x02, 0x00, 0x0A, 0x00, //
        0x15, 0x00, 0x27, 0xA0, 0x8C, 0x00, 0x00, 0x75, 0x10, 0x95, 0x02, 0x91, 0x02, 0xC0,
        0xC0, // end Set Effect
        // Set Constant Force, output 0x05.
        0x09, 0x73, 0xA1, 0x02, 0x85, 0x05, //
        0x09, 0x22, 0x15, 0x01, 0x25, 0x28, 0x75, 0x08, 0x95, 0x01, 0x91, 0x02, //
        0x09, 0x70, 0x16, 0x01, 0x80, 0x26, 0xFF, 0x7F, 0x75, 0x10, 0x95, 0x01, 0x91, 0x02,
        0xC0, //
        // Effect Operation, output 0x0A.
        0x09, 0x77, 0xA1, 0x02, 0x85, 0x0A, //
        0x09, 0x22, 0x15, 0x01, 0x25, 0x28, 0x75, 0x08, 0x95, 0x01, 0x91, 0x02, //
        0x09, 0x78, 0xA1, 0x02, 0x09, 0x79, 0x09, 0x7A, 0x09, 0x7B, // Start, Solo, Stop
        0x15, 0x01, 0x25, 0x03, 0x75, 0x08, 0x95, 0x01, 0x91, 0x00, 0xC0, //
        0x09, 0x7C, 0x15, 0x00, 0x26, 0xFF, 0x00, 0x75, 0x08, 0x95, 0x01, 0x91, 0x02, 0xC0,
    ]);
    d.extend_from_slice(control);
    d.extend_from_slice(&[
        // Device Gain, output 0x0D.
        0x09, 0x7D, 0xA1, 0x02, 0x85, 0x0D, 0x09, 0x7E, 0x15, 0x00, 0x26, 0xFF, 0x00, 0x75, 0x08,
        0x95, 0x01, 0x91, 0x02, 0xC0, //
        // Create New Effect, feature 0x11.
        0x09, 0xAB, 0xA1, 0x02, 0x85, 0x11, 0x09, 0x25, 0xA1, 0x02,
    ]);
    d.extend_from_slice(EFFECT_TYPES);
    d.extend_from_slice(&[
        0x15, 0x01, 0x25, 0x0B, 0x75, 0x08, 0x95, 0x01, 0xB1, 0x00, 0xC0, //
        0x09, 0x3B, 0x15, 0x00, 0x26, 0xFF, 0x01, 0x75, 0x10, 0x95, 0x01, 0xB1, 0x02, 0xC0,
        // Block Load, feature 0x12.
        0x09, 0x89, 0xA1, 0x02, 0x85, 0x12, //
        0x09, 0x22, 0x15, 0x01, 0x25, 0x28, 0x75, 0x08, 0x95, 0x01, 0xB1, 0x02, //
        0x09, 0x8B, 0xA1, 0x02, 0x09, 0x8C, 0x09, 0x8D, 0x09, 0x8E, // Success, Full, Error
        0x15, 0x01, 0x25, 0x03, 0x75, 0x08, 0x95, 0x01, 0xB1, 0x00, 0xC0, //
        0x09, 0xAC, 0x15, 0x00, 0x27, 0xFF, 0xFF, 0x00, 0x00, 0x75, 0x10, 0x95, 0x01, 0xB1, 0x02,
        0xC0, //
        // PID Pool, feature 0x13 (parsed, not used).
        0x09, 0x7F, 0xA1, 0x02, 0x85, 0x13, //
        0x09, 0x80, 0x15, 0x00, 0x27, 0xFF, 0xFF, 0x00, 0x00, 0x75, 0x10, 0x95, 0x01, 0xB1,
        0x02, //
        0x09, 0x83, 0x15, 0x00, 0x26, 0xFF, 0x00, 0x75, 0x08, 0x95, 0x01, 0xB1, 0x02, //
        0x09, 0xA9, 0x09, 0xAA, 0x15, 0x00, 0x25, 0x01, 0x75, 0x01, 0x95, 0x02, 0xB1, 0x02, //
        0x75, 0x06, 0x95, 0x01, 0xB1, 0x03, 0xC0, //
        0xC0, // end Application
    ]);
    d
}

fn layout() -> PidLayout {
    PidLayout::from_descriptor(&descriptor(CONTROL_BITMASK)).unwrap()
}

#[test]
fn parser_finds_report_ids_and_layout() {
    let l = layout();
    // Section 3.2 report IDs.
    assert_eq!(
        l.set_effect,
        ReportInfo { id: 0x01, len: 18 },
        "FFB_SetEffect_t is 18 bytes"
    );
    assert_eq!(l.set_constant, ReportInfo { id: 0x05, len: 4 });
    assert_eq!(l.effect_operation, ReportInfo { id: 0x0A, len: 4 });
    assert_eq!(l.device_control, ReportInfo { id: 0x0C, len: 2 });
    assert_eq!(
        l.device_gain.map(|(r, _)| r),
        Some(ReportInfo { id: 0x0D, len: 2 })
    );
    assert_eq!(l.create_new_effect, ReportInfo { id: 0x11, len: 4 });
    assert_eq!(l.block_load, ReportInfo { id: 0x12, len: 5 });
    assert_eq!(
        l.magnitude,
        Slot {
            bit_offset: 8,
            size: 16,
            logical_min: -32767,
            logical_max: 32767,
            unit_exponent: 0,
        }
    );
    assert_eq!(
        l.direction_x.map(|s| (s.bit_offset, s.logical_max)),
        Some((104, 36000))
    );
    assert!(matches!(l.control, DeviceControl::Bitmask(ref b) if b.len() == 6));
    assert_eq!(l.set_effect_type.usages.len(), 11);
}

#[test]
fn input_and_output_reports_with_the_same_id_are_separate() {
    let fields = parse_descriptor(&descriptor(CONTROL_BITMASK)).unwrap();
    let input: Vec<_> = fields
        .iter()
        .filter(|f| f.report_id == 1 && f.kind == ReportKind::Input)
        .collect();
    assert_eq!(input.len(), 1);
    assert_eq!(input[0].usages, [(PAGE_GENERIC_DESKTOP << 16) | 0x30]);
    assert_eq!(input[0].bit_offset, 0);
}

// Section 3.3, steps 1, 2, 5, 6 and 8.
#[test]
fn messages_are_byte_exact() {
    let l = layout();
    let dc = |c| l.device_control(c).unwrap().bytes().to_vec();
    assert_eq!(dc(ControlCommand::Reset), [0x0C, 0x08]);
    assert_eq!(dc(ControlCommand::EnableActuators), [0x0C, 0x01]);
    assert_eq!(dc(ControlCommand::DisableActuators), [0x0C, 0x02]);
    assert_eq!(dc(ControlCommand::StopAllEffects), [0x0C, 0x04]);
    assert_eq!(dc(ControlCommand::Pause), [0x0C, 0x10]);
    assert_eq!(dc(ControlCommand::Continue), [0x0C, 0x20]);
    assert_eq!(l.device_gain(1.0).unwrap().bytes(), [0x0D, 0xFF]);
    assert_eq!(
        l.create_constant_effect().unwrap().bytes(),
        [0x11, 0x01, 0x00, 0x00]
    );
    assert_eq!(l.set_magnitude(1, 0.0).bytes(), [0x05, 0x01, 0x00, 0x00]);
    assert_eq!(l.set_magnitude(1, 0.5).bytes(), [0x05, 0x01, 0x00, 0x40]); // 16384
    assert_eq!(l.set_magnitude(1, 1.0).bytes(), [0x05, 0x01, 0xFF, 0x7F]); // 32767
    assert_eq!(l.set_magnitude(1, -1.0).bytes(), [0x05, 0x01, 0x01, 0x80]); // -32767
    assert_eq!(
        l.set_magnitude(3, f64::NAN).bytes(),
        [0x05, 0x03, 0x00, 0x00]
    );
    assert_eq!(l.start_effect(1).unwrap().bytes(), [0x0A, 0x01, 0x01, 0x01]);
    assert_eq!(l.stop_effect(1).unwrap().bytes(), [0x0A, 0x01, 0x03, 0x00]);
}

// Section 3.3 step 4 (built from the descriptor, as that section advises): effect 1, type 1
// (constant), duration 100 ms (finite, renewed: see the module docs; PID's infinite 0xFFFF would
// play forever after a crash), repeat / sample period / delay 0, gain 255, no trigger button
// (0xFF), X enabled + direction enabled (bits 0 and 2), direction X 9000 (90° in 0.01°), direction
// Y 0.
#[test]
fn set_effect_is_byte_exact() {
    assert_eq!(
        layout()
            .set_constant_effect(1, EFFECT_DURATION_MS)
            .unwrap()
            .bytes(),
        [
            0x01, 0x01, 0x01, 0x64, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0x05,
            0x28, 0x23, 0x00, 0x00
        ]
    );
}

// Section 3.3 step 3: [0x12, ebi, 0x01 (success), ram_lo, ram_hi].
#[test]
fn block_load_replies() {
    let l = layout();
    assert_eq!(
        l.parse_block_load(&[0x12, 0x07, 0x01, 0x00, 0x10]),
        Ok(BlockLoad::Loaded(7))
    );
    assert_eq!(
        l.parse_block_load(&[0x12, 0x00, 0x02, 0, 0]),
        Ok(BlockLoad::Full)
    );
    assert_eq!(
        l.parse_block_load(&[0x12, 0x00, 0x03, 0, 0]),
        Ok(BlockLoad::Error)
    );
    assert!(l.parse_block_load(&[0x12, 0x00, 0x09, 0, 0]).is_err());
    assert!(l.parse_block_load(&[0x13, 0x01, 0x01, 0, 0]).is_err());
    assert_eq!(l.block_load_request().bytes(), [0x12, 0, 0, 0, 0]);
}

// Section 3.3 step 1 for array devices: Reset is value 4, Enable Actuators value 1.
#[test]
fn array_device_control() {
    let l = PidLayout::from_descriptor(&descriptor(CONTROL_ARRAY)).unwrap();
    assert!(matches!(l.control, DeviceControl::Array(_)));
    let dc = |c| l.device_control(c).unwrap().bytes().to_vec();
    assert_eq!(dc(ControlCommand::Reset), [0x0C, 0x04]);
    assert_eq!(dc(ControlCommand::EnableActuators), [0x0C, 0x01]);
    assert_eq!(dc(ControlCommand::DisableActuators), [0x0C, 0x02]);
    assert_eq!(dc(ControlCommand::StopAllEffects), [0x0C, 0x03]);
}

#[test]
fn backend_runs_the_start_sequence_streams_and_stops() {
    let mut hid = RecordingHid::default();
    hid.feature_replies
        .push_back(vec![0x12, 0x01, 0x01, 0xFF, 0x0F]);
    let mut b = HidPidBackend::start(hid, layout(), 1000.0).unwrap();
    assert_eq!(b.effect_block_index(), 1);
    b.send_level(0.0).unwrap(); // unchanged from the start-up zero: not sent
    b.send_level(0.5).unwrap();
    b.send_level(0.5).unwrap();
    b.stop().unwrap();
    let out = |bytes: &[u8]| HidTransfer::Output(bytes.to_vec());
    assert_eq!(
        b.hid().log,
        [
            out(&[0x0C, 0x08]),
            // Stop all effects before the actuators come on.
            out(&[0x0C, 0x04]),
            out(&[0x0C, 0x01]),
            out(&[0x0D, 0xFF]),
            HidTransfer::SetFeature(vec![0x11, 0x01, 0x00, 0x00]),
            HidTransfer::GetFeature(0x12),
            out(&[
                0x01, 0x01, 0x01, 0x64, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0x05,
                0x28, 0x23, 0x00, 0x00
            ]),
            out(&[0x05, 0x01, 0x00, 0x00]),
            out(&[0x0A, 0x01, 0x01, 0x01]),
            out(&[0x05, 0x01, 0x00, 0x40]),
            out(&[0x05, 0x01, 0x00, 0x00]),
            out(&[0x0A, 0x01, 0x03, 0x00]),
            out(&[0x0C, 0x04]),
            out(&[0x0C, 0x02]),
        ]
    );
}

#[test]
fn full_device_is_an_error() {
    let mut hid = RecordingHid::default();
    hid.feature_replies
        .push_back(vec![0x12, 0x00, 0x02, 0x00, 0x00]);
    assert!(matches!(
        HidPidBackend::start(hid, layout(), 1000.0),
        Err(FfbError::Protocol(_))
    ));
}

#[test]
fn broken_descriptors_are_errors_not_panics() {
    let d = descriptor(CONTROL_BITMASK);
    for cut in [1, 7, 50, d.len() - 1] {
        assert!(
            PidLayout::from_descriptor(&d[..cut]).is_err(),
            "cut at {cut}"
        );
    }
    assert_eq!(
        parse_descriptor(&[0xC0]),
        Err(DescriptorError::Unbalanced(0))
    );
    assert_eq!(
        parse_descriptor(&[0x27, 0x01]),
        Err(DescriptorError::Truncated(0))
    );
    // A gamepad descriptor without PID reports.
    let pad = [
        0x05, 0x01, 0x09, 0x05, 0xA1, 0x01, 0x09, 0x30, 0x75, 0x08, 0x95, 0x01, 0x81, 0x02, 0xC0,
    ];
    assert!(matches!(
        PidLayout::from_descriptor(&pad),
        Err(FfbError::Protocol(_))
    ));
}

proptest::proptest! {
    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..300)) {
        let _ = PidLayout::from_descriptor(&bytes);
    }
}

#[test]
fn resume_after_stop_re_enables_and_drop_stops() {
    let mut hid = RecordingHid::default();
    hid.feature_replies
        .push_back(vec![0x12, 0x01, 0x01, 0xFF, 0x0F]);
    {
        let mut b = HidPidBackend::start(&mut hid, layout(), 1000.0).unwrap();
        b.stop().unwrap();
        b.send_level(-0.5).unwrap();
    }
    let out = |bytes: &[u8]| HidTransfer::Output(bytes.to_vec());
    // After the 9 start-up transfers and the 4 stop reports: enable actuators, start the
    // effect, the magnitude; then the stop sequence again on drop.
    assert_eq!(
        hid.log[13..],
        [
            out(&[0x0C, 0x01]),
            out(&[0x0A, 0x01, 0x01, 0x01]),
            out(&[0x05, 0x01, 0x00, 0xC0]),
            out(&[0x05, 0x01, 0x00, 0x00]),
            out(&[0x0A, 0x01, 0x03, 0x00]),
            out(&[0x0C, 0x04]),
            out(&[0x0C, 0x02]),
        ]
    );
}

#[test]
fn unplug_is_disconnected_and_never_panics() {
    let mut hid = RecordingHid::default();
    hid.feature_replies
        .push_back(vec![0x12, 0x01, 0x01, 0xFF, 0x0F]);
    {
        let mut b = HidPidBackend::start(&mut hid, layout(), 1000.0).unwrap();
        b.send_level(0.5).unwrap();
    }
    let sent = hid.log.len();
    hid.feature_replies
        .push_back(vec![0x12, 0x01, 0x01, 0xFF, 0x0F]);
    let mut b = HidPidBackend::start(&mut hid, layout(), 1000.0).unwrap();
    b.send_level(0.5).unwrap();
    b.hid.fail = Some(FfbError::Disconnected);
    assert_eq!(b.send_level(0.25), Err(FfbError::Disconnected));
    assert_eq!(b.stop(), Err(FfbError::Disconnected));
    drop(b);
    assert!(hid.log.len() > sent);
    // Gone before start: an error.
    let gone = RecordingHid {
        fail: Some(FfbError::Disconnected),
        ..RecordingHid::default()
    };
    assert_eq!(
        HidPidBackend::start(gone, layout(), 1000.0).unwrap_err(),
        FfbError::Disconnected
    );
}

#[test]
fn block_load_is_retried_until_the_device_answers() {
    let mut hid = RecordingHid::default();
    // A short reply, then "error" (not ready), then success.
    hid.feature_replies.push_back(vec![0x12, 0x00]);
    hid.feature_replies
        .push_back(vec![0x12, 0x00, 0x03, 0x00, 0x00]);
    hid.feature_replies
        .push_back(vec![0x12, 0x02, 0x01, 0xFF, 0x0F]);
    let b = HidPidBackend::start(hid, layout(), 1000.0).unwrap();
    assert_eq!(b.effect_block_index(), 2);
    let reads = b
        .hid()
        .log
        .iter()
        .filter(|t| matches!(t, HidTransfer::GetFeature(0x12)))
        .count();
    assert_eq!(reads, 3);
    // A device that never answers: an error after BLOCK_LOAD_TRIES reads, not a hang.
    let mut silent = RecordingHid::default();
    for _ in 0..10 {
        silent
            .feature_replies
            .push_back(vec![0x12, 0x00, 0x03, 0x00, 0x00]);
    }
    assert!(matches!(
        HidPidBackend::start(silent, layout(), 1000.0),
        Err(FfbError::Protocol(_))
    ));
}

#[test]
fn the_effect_is_renewed_on_time_and_lapses_within_its_duration() {
    use std::time::Duration;
    let mut hid = RecordingHid::default();
    hid.feature_replies
        .push_back(vec![0x12, 0x01, 0x01, 0xFF, 0x0F]);
    let mut b = HidPidBackend::start(hid, layout(), 1000.0).unwrap();
    let starts = |b: &HidPidBackend<RecordingHid>| {
        b.hid()
            .log
            .iter()
            .filter(|t| **t == HidTransfer::Output(vec![0x0A, 0x01, 0x01, 0x01]))
            .count()
    };
    let at_start = starts(&b);
    // Two seconds of a constant 0.5 at the writer's 1 kHz: no new magnitude, but restarts.
    b.send_level(0.5).unwrap();
    let mut last_restart = Duration::ZERO;
    let mut longest_gap = Duration::ZERO;
    for ms in 0..2000u64 {
        let now = Duration::from_millis(ms);
        let before = starts(&b);
        b.send_level(0.5).unwrap();
        b.refresh(now).unwrap();
        if starts(&b) > before {
            longest_gap = longest_gap.max(now.saturating_sub(last_restart));
            last_restart = now;
        }
    }
    let renewals = starts(&b) - at_start;
    assert!((49..=52).contains(&renewals), "every 40 ms: {renewals}");
    // The effect never runs out while the writer lives...
    assert!(longest_gap < Duration::from_millis(u64::from(EFFECT_DURATION_MS)));
    // ...and when it dies, the last start plays at most the effect's duration: the duration
    // sent with the effect is that bound, 100 ms in the field's milliseconds.
    assert_eq!(b.effect_duration(), Some(Duration::from_millis(100)));
    assert_eq!(b.renew_every(), RENEW_EVERY);
    assert!(b.hid().log.contains(&HidTransfer::Output(vec![
        0x01, 0x01, 0x01, 0x64, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0x05, 0x28,
        0x23, 0x00, 0x00
    ])));
    // Stopped: no more restarts.
    b.stop().unwrap();
    let stopped = starts(&b);
    b.refresh(Duration::from_secs(5)).unwrap();
    assert_eq!(starts(&b), stopped);
}

#[test]
fn a_long_vendor_report_beside_the_pid_reports_is_accepted() {
    let mut d = descriptor(CONTROL_BITMASK);
    // A vendor collection with a 128-byte output report (ID 0x80).
    d.extend_from_slice(&[
        0x06, 0x00, 0xFF, 0x09, 0x01, 0xA1, 0x01, 0x85, 0x80, 0x09, 0x02, 0x15, 0x00, 0x26, 0xFF,
        0x00, 0x75, 0x08, 0x96, 0x80, 0x00, 0x91, 0x02, 0xC0,
    ]);
    let long = PidLayout::from_descriptor(&d).expect("the PID reports still fit");
    assert_eq!(
        long.set_constant_effect(1, EFFECT_DURATION_MS)
            .unwrap()
            .bytes(),
        layout()
            .set_constant_effect(1, EFFECT_DURATION_MS)
            .unwrap()
            .bytes()
    );
}

/// A Duration field with unit exponent `exponent`, `size` bits and logical maximum `max`.
fn time_slot(exponent: i32, size: u32, max: i32) -> Slot {
    Slot {
        bit_offset: 0,
        size,
        logical_min: 0,
        logical_max: max,
        unit_exponent: exponent,
    }
}

#[test]
fn the_duration_follows_the_fields_unit_and_stays_finite() {
    use std::time::Duration;
    // The test descriptor declares milliseconds (exponent -3, as the PID specification's
    // example and OpenFFBoard do): 100 ms is 100 = 0x64 in bytes 3..5 of Set Effect.
    let l = layout();
    assert_eq!(l.duration.map(|s| s.unit_exponent), Some(-3));
    assert_eq!(
        &l.set_constant_effect(1, 100).unwrap().bytes()[3..5],
        &[0x64, 0x00]
    );
    assert_eq!(
        l.effective_duration(EFFECT_DURATION_MS),
        Some(Duration::from_millis(100))
    );
    // Other units are rescaled like hid-pidff's pidff_rescale_time, rounding up.
    assert_eq!(duration_units(time_slot(-4, 16, 0x7FFF), 100), 1000); // 0.1 ms units
    assert_eq!(duration_units(time_slot(-2, 16, 0x7FFF), 100), 10); // 10 ms units
    assert_eq!(duration_units(time_slot(-2, 16, 0x7FFF), 95), 10);
    // Seconds (or no unit exponent at all): one unit, never 0 (infinite to some firmware)...
    assert_eq!(duration_units(time_slot(0, 16, 0x7FFF), 100), 1);
    assert_eq!(
        units_to_duration(time_slot(0, 16, 0x7FFF), 1),
        Duration::from_secs(1)
    );
    // ...and never PID's infinite (all ones), even where the logical maximum allows it.
    assert_eq!(duration_units(time_slot(-6, 16, 0xFFFF), 100), 0xFFFE);
    assert_eq!(duration_units(time_slot(-3, 8, 0xFF), 1000), 0xFE);
    assert_eq!(duration_units(time_slot(-3, 16, 0x7FFF), 0), 1);
    assert_eq!(
        units_to_duration(time_slot(-4, 16, 0x7FFF), 1000),
        Duration::from_millis(100)
    );
}

#[test]
fn unit_exponents_are_read_like_hid_core() {
    // Short nibble form (0x0D = -3), signed byte form (0xFD = -3), positive nibble.
    for (item, expected) in [
        (vec![0x55, 0x0D], -3),
        (vec![0x55, 0xFD], -3),
        (vec![0x55, 0x02], 2),
    ] {
        let mut d = vec![0x05, 0x0F, 0x09, 0x21, 0xA1, 0x02, 0x85, 0x01];
        d.extend_from_slice(&item);
        d.extend_from_slice(&[
            0x09, 0x50, 0x15, 0x00, 0x26, 0xFF, 0x7F, 0x75, 0x10, 0x95, 0x01,
        ]);
        d.extend_from_slice(&[0x91, 0x02, 0xC0]);
        let fields = parse_descriptor(&d).unwrap();
        assert_eq!(fields[0].unit_exponent, expected, "{item:02x?}");
    }
}

#[test]
fn a_short_duration_field_is_renewed_faster() {
    use std::time::Duration;
    assert_eq!(
        renew_interval(Some(Duration::from_millis(100))),
        RENEW_EVERY
    );
    assert_eq!(renew_interval(None), RENEW_EVERY);
    assert_eq!(
        renew_interval(Some(Duration::from_millis(50))),
        Duration::from_millis(20)
    );
    assert_eq!(
        renew_interval(Some(Duration::from_micros(100))),
        Duration::from_millis(1)
    );
}

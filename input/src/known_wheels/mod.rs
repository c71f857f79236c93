//! Wheels Gripline knows by USB vendor and product ID: name, default rotation, which
//! force-feedback backend to use, and a peak-torque estimate.
//!
//! IDs come from `docs/force-feedback-protocols.md` sections 2.1 and 3.7 (which cite new-lg4ff
//! `hid-ids.h`, hid-tmff2, hid-ftec.h, universal-pidff and linux-steering-wheels); entries whose
//! IDs are not in those sections say so in their comment. A wheel that switches modes re-enumerates
//! with another product ID (G29/G923 `PlayStation` modes, G920 before its mode switch, Thrustmaster
//! before the model query), so several entries may describe one product.
//!
//! Peak torques are **estimates** (manufacturer and community figures, not measured; none
//! come from the sources of those sections): they only set the default scale of force feedback, and
//! the user can override them per device (`FfbDeviceSettings::peak_torque_nm`).
//!
//! Backend choice: Logitech classic wheels can be driven over raw HID with the classic
//! protocol; HID PID bases (Moza, Simucube, `OpenFFBoard`) with HID PID; the others
//! (Thrustmaster, Fanatec, HID++ Logitechs, Simagic without a PID descriptor) only through
//! their kernel or vendor driver, i.e. evdev `FF_CONSTANT` on Linux. On Linux evdev works
//! for every wheel with a kernel driver and is the default ([`KnownWheel::linux_backend`]).

use std::fmt;

pub mod listing;

/// How force feedback reaches a wheel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FfbBackendKind {
    /// Linux evdev `FF_CONSTANT` through the kernel driver.
    EvdevConstant,
    /// Logitech classic 7-byte protocol over raw HID.
    LogitechClassic,
    /// USB HID PID over raw HID.
    HidPid,
    /// No force feedback in this mode.
    None,
}

/// One known wheel (or one mode of a multi-mode wheel).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KnownWheel {
    /// USB vendor ID.
    pub vendor_id: u16,
    /// USB product ID.
    pub product_id: u16,
    /// Product name and mode.
    pub name: &'static str,
    /// Rotation range to use by default, lock to lock (deg).
    pub default_rotation_deg: f64,
    /// Recommended force-feedback backend.
    pub backend: FfbBackendKind,
    /// Estimated peak torque at the rim (N·m); `None` when it depends on the build.
    pub peak_torque_nm: Option<f64>,
}

impl KnownWheel {
    /// The backend to use on Linux: evdev for every wheel with force feedback (the kernel
    /// drivers handle all protocols; `docs/force-feedback-protocols.md` section 6), otherwise none.
    pub fn linux_backend(&self) -> FfbBackendKind {
        match self.backend {
            FfbBackendKind::None => FfbBackendKind::None,
            _ => FfbBackendKind::EvdevConstant,
        }
    }
}

impl fmt::Display for KnownWheel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:04x}:{:04x} {}",
            self.vendor_id, self.product_id, self.name
        )
    }
}

/// Logitech.
pub const VID_LOGITECH: u16 = 0x046d;
/// Thrustmaster.
pub const VID_THRUSTMASTER: u16 = 0x044f;
/// Fanatec (Endor).
pub const VID_FANATEC: u16 = 0x0eb7;
/// Moza (Gudsen).
pub const VID_MOZA: u16 = 0x346e;
/// Simucube / Granite Devices.
pub const VID_SIMUCUBE: u16 = 0x16d0;
/// `STMicroelectronics`, used by Simagic's Alpha family.
pub const VID_SIMAGIC_ST: u16 = 0x0483;
/// The pid.codes vendor ID, used by `OpenFFBoard`.
pub const VID_PID_CODES: u16 = 0x1209;
/// Cammus.
pub const VID_CAMMUS: u16 = 0x3416;
/// Asetek `SimSports`.
pub const VID_ASETEK: u16 = 0x2433;

/// Logitech Driving Force Pro (range needs its own two-command sequence).
pub const PID_LOGITECH_DFP: u16 = 0xc298;

const fn wheel(
    vendor_id: u16,
    product_id: u16,
    name: &'static str,
    default_rotation_deg: f64,
    backend: FfbBackendKind,
    peak_torque_nm: Option<f64>,
) -> KnownWheel {
    KnownWheel {
        vendor_id,
        product_id,
        name,
        default_rotation_deg,
        backend,
        peak_torque_nm,
    }
}

use FfbBackendKind::{EvdevConstant, HidPid, LogitechClassic};

/// The table. Every entry names the source of its IDs and of its peak estimate.
///
/// ID sources: new-lg4ff `hid-ids.h` \[7b7c192\] (Logitech, read for issue 10), universal-pidff
/// `hid-ids.h` \[9b7760c\] (Moza, Cammus, VRS, `OpenFFBoard`; read for issue 10), and
/// `docs/force-feedback-protocols.md` sections 2.1 and 3.7 for the rest (hid-tmff2 `hid-tmff2.h`,
/// hid-fanatecff `hid-ftec.h`, linux-steering-wheels). Peaks: "vendor" is the manufacturer's
/// published peak (often in the model name: Moza R21 = 21 N·m), "community" a commonly quoted
/// figure for a geared or belt wheel; neither was measured, and none comes from those sources.
pub const KNOWN_WHEELS: &[KnownWheel] = &[
    // IDs: hid-ids.h DFGT_WHEEL c29a. Peak: community (about 2 N·m); shared with a G29 in
    // DFGT mode (SHARED_PRODUCT_IDS).
    wheel(
        VID_LOGITECH,
        0xc29a,
        "Logitech Driving Force GT",
        900.0,
        LogitechClassic,
        Some(2.2),
    ),
    // IDs: hid-ids.h G25_WHEEL c299. Peak: community 2.5 N·m; shared with G27/G29 in G25 mode.
    wheel(
        VID_LOGITECH,
        0xc299,
        "Logitech G25",
        900.0,
        LogitechClassic,
        Some(2.5),
    ),
    // IDs: hid-ids.h G27_WHEEL c29b. Peak: community 2.5 N·m; shared with a G29 in G27 mode.
    wheel(
        VID_LOGITECH,
        0xc29b,
        "Logitech G27",
        900.0,
        LogitechClassic,
        Some(2.5),
    ),
    // IDs: hid-ids.h G29_WHEEL c24f. Peak: community 2.2 N·m.
    wheel(
        VID_LOGITECH,
        0xc24f,
        "Logitech G29 (PS3 mode)",
        900.0,
        LogitechClassic,
        Some(2.2),
    ),
    // IDs: c260 from a third-party issue (section 2.1), driver support unverified. Peak: as
    // the G29.
    wheel(
        VID_LOGITECH,
        0xc260,
        "Logitech G29 (PS4 mode)",
        900.0,
        EvdevConstant,
        Some(2.2),
    ),
    // IDs: section 2.1 (c261 until usb_modeswitch makes it c262; no FFB before). Peak:
    // community 2.2 N·m.
    wheel(
        VID_LOGITECH,
        0xc261,
        "Logitech G920 (before mode switch)",
        900.0,
        FfbBackendKind::None,
        Some(2.2),
    ),
    // IDs: hid-ids.h G920_WHEEL c262. Peak: community 2.2 N·m.
    wheel(
        VID_LOGITECH,
        0xc262,
        "Logitech G920",
        900.0,
        EvdevConstant,
        Some(2.2),
    ),
    // IDs: hid-ids.h G923_PS_WHEEL c267. Peak: community 2.2 N·m.
    wheel(
        VID_LOGITECH,
        0xc267,
        "Logitech G923 PS (PlayStation mode)",
        900.0,
        EvdevConstant,
        Some(2.2),
    ),
    // IDs: hid-ids.h G923_WHEEL c266. Peak: community 2.2 N·m.
    wheel(
        VID_LOGITECH,
        0xc266,
        "Logitech G923 PS (classic mode)",
        900.0,
        LogitechClassic,
        Some(2.2),
    ),
    // IDs: hid-ids.h G923_XBOX_WHEEL c26e (HID++, section 2.11). Peak: community 2.2 N·m.
    wheel(
        VID_LOGITECH,
        0xc26e,
        "Logitech G923 Xbox/PC",
        900.0,
        EvdevConstant,
        Some(2.2),
    ),
    // IDs: new-lg4ff README lists c26d as well (section 2.1). Peak: as c26e.
    wheel(
        VID_LOGITECH,
        0xc26d,
        "Logitech G923 Xbox/PC (alternate ID)",
        900.0,
        EvdevConstant,
        Some(2.2),
    ),
    // IDs: section 3.5 (hid-thrustmaster.c): every wheel boots as b65d and re-enumerates
    // after the model query; no FFB before.
    wheel(
        VID_THRUSTMASTER,
        0xb65d,
        "Thrustmaster wheel (before model query)",
        900.0,
        FfbBackendKind::None,
        None,
    ),
    // IDs: not in `docs/force-feedback-protocols.md` (b677 is the community hid-t150 driver's):
    // UNVERIFIED.
    // Peak: community 2 N·m.
    wheel(
        VID_THRUSTMASTER,
        0xb677,
        "Thrustmaster T150",
        1080.0,
        EvdevConstant,
        Some(2.0),
    ),
    // IDs: section 3.7 (TMX b67f). Peak: community 2 N·m.
    wheel(
        VID_THRUSTMASTER,
        0xb67f,
        "Thrustmaster TMX",
        900.0,
        EvdevConstant,
        Some(2.0),
    ),
    // IDs: section 3.7 (hid-tmff2.h T300RS b66e/b66f/b66d). Peak: community 3.9 N·m.
    wheel(
        VID_THRUSTMASTER,
        0xb66e,
        "Thrustmaster T300RS (PS3 normal)",
        1080.0,
        EvdevConstant,
        Some(3.9),
    ),
    // IDs and peak: as b66e.
    wheel(
        VID_THRUSTMASTER,
        0xb66f,
        "Thrustmaster T300RS (PS3 advanced)",
        1080.0,
        EvdevConstant,
        Some(3.9),
    ),
    // IDs: hid-tmff2.h TMT300RS_PS4_NORM_ID b66d. Shared: the T-GT II and the T248/T248R
    // (its PS4 mode) enumerate as b66d too (hid-tmff2 issues #55 and #198; hid-tmff2 tells the
    // T248 apart by bcdDevice 0x0249, which Gripline does not read yet), so the strongest, the
    // T-GT II (community about 6 N·m), is assumed (SHARED_PRODUCT_IDS).
    wheel(
        VID_THRUSTMASTER,
        0xb66d,
        "Thrustmaster T300RS (PS4) / T-GT II / T248 (shared ID)",
        1080.0,
        EvdevConstant,
        Some(6.0),
    ),
    // IDs: b681 and b685, the T-GT II's own product IDs (its PC and PlayStation modes, as
    // reported to hid-tmff2 and linux-steering-wheels; not yet in hid-tmff2.h: UNVERIFIED).
    // Peak: community about 6 N·m (belt drive with a T-GT motor; no vendor figure).
    wheel(
        VID_THRUSTMASTER,
        0xb681,
        "Thrustmaster T-GT II",
        1080.0,
        EvdevConstant,
        Some(6.0),
    ),
    wheel(
        VID_THRUSTMASTER,
        0xb685,
        "Thrustmaster T-GT II (PlayStation mode)",
        1080.0,
        EvdevConstant,
        Some(6.0),
    ),
    // IDs: hid-tmff2.h TMT248_PC_ID b696. Shared by the T128, T248, T598 and T818 (hid-tmff2
    // issues #58 (T818), #64/#67 (T128), pull request #205 (T598, told apart by bcdDevice
    // 0x0598)): the T818's vendor peak, 10 N·m, is assumed until the user confirms their base
    // (SHARED_PRODUCT_IDS).
    wheel(
        VID_THRUSTMASTER,
        0xb696,
        "Thrustmaster T248 / T818 / T128 / T598 (shared ID)",
        900.0,
        EvdevConstant,
        Some(10.0),
    ),
    // IDs: section 3.7 (hid-tmff2.h TX b669). Peak: community 3.9 N·m (T300 motor).
    wheel(
        VID_THRUSTMASTER,
        0xb669,
        "Thrustmaster TX",
        900.0,
        EvdevConstant,
        Some(3.9),
    ),
    // IDs: section 3.7 (hid-tmff2.h TS-XW b692). Peak: community 6 N·m.
    wheel(
        VID_THRUSTMASTER,
        0xb692,
        "Thrustmaster TS-XW",
        1080.0,
        EvdevConstant,
        Some(6.0),
    ),
    // IDs: section 3.7 (hid-ftec.h CSL_DD 0020; PC mode required). Shared by every
    // direct-drive base of the family: the strongest one's vendor peak (ClubSport DD+,
    // 15 N·m) is assumed (SHARED_PRODUCT_IDS).
    wheel(
        VID_FANATEC,
        0x0020,
        "Fanatec CSL DD / DD Pro / ClubSport DD / DD+",
        1080.0,
        EvdevConstant,
        Some(15.0),
    ),
    // IDs: section 3.7 (hid-ftec.h CSW V2 0001). Peak: community 8 N·m.
    wheel(
        VID_FANATEC,
        0x0001,
        "Fanatec ClubSport Wheel Base V2",
        1080.0,
        EvdevConstant,
        Some(8.0),
    ),
    // IDs: section 3.7 (hid-ftec.h CSW V2.5 0004). Peak: community 8 N·m.
    wheel(
        VID_FANATEC,
        0x0004,
        "Fanatec ClubSport Wheel Base V2.5",
        1080.0,
        EvdevConstant,
        Some(8.0),
    ),
    // IDs: universal-pidff hid-ids.h MOZA_R5 0004 / R5_2 0014. Peak: vendor 5.5 N·m.
    wheel(VID_MOZA, 0x0004, "Moza R5", 900.0, HidPid, Some(5.5)),
    wheel(
        VID_MOZA,
        0x0014,
        "Moza R5 (alternate ID)",
        900.0,
        HidPid,
        Some(5.5),
    ),
    // IDs: universal-pidff hid-ids.h MOZA_R9 0002 / R9_2 0012. Peak: vendor 9 N·m.
    wheel(VID_MOZA, 0x0002, "Moza R9", 900.0, HidPid, Some(9.0)),
    wheel(
        VID_MOZA,
        0x0012,
        "Moza R9 (alternate ID)",
        900.0,
        HidPid,
        Some(9.0),
    ),
    // IDs: universal-pidff hid-ids.h MOZA_R12 0006 / R12_2 0016. Peak: vendor 12 N·m.
    wheel(VID_MOZA, 0x0006, "Moza R12", 900.0, HidPid, Some(12.0)),
    wheel(
        VID_MOZA,
        0x0016,
        "Moza R12 (alternate ID)",
        900.0,
        HidPid,
        Some(12.0),
    ),
    // IDs: section 3.7 (linux-steering-wheels, Simucube 2 Sport 0d61). Peak: vendor 17 N·m.
    wheel(
        VID_SIMUCUBE,
        0x0d61,
        "Simucube 2 Sport",
        900.0,
        HidPid,
        Some(17.0),
    ),
    // IDs: section 3.7 (linux-steering-wheels, Pro 0d60). Peak: vendor 25 N·m.
    wheel(
        VID_SIMUCUBE,
        0x0d60,
        "Simucube 2 Pro",
        900.0,
        HidPid,
        Some(25.0),
    ),
    // IDs: section 3.7 (linux-steering-wheels, Ultimate 0d5f). Peak: vendor 32 N·m.
    wheel(
        VID_SIMUCUBE,
        0x0d5f,
        "Simucube 2 Ultimate",
        900.0,
        HidPid,
        Some(32.0),
    ),
    // IDs: section 3.7 (linux-steering-wheels: 0483:0522 for the M10, Alpha, Alpha Mini and
    // Alpha U). "Slightly changed PID protocol, without PID descriptor" (section 3), so only
    // through the simagic-ff kernel driver. Shared: the Alpha Ultimate's vendor peak (23 N·m)
    // is assumed (SHARED_PRODUCT_IDS).
    wheel(
        VID_SIMAGIC_ST,
        0x0522,
        "Simagic Alpha / Alpha Mini / Alpha U / M10",
        900.0,
        EvdevConstant,
        Some(23.0),
    ),
    // IDs: universal-pidff hid-ids.h OPENFFBOARD 1209:ffb0. Peak: the motor and power supply
    // decide; every build shares the ID, so the unknown-device assumption (32 N·m,
    // `ffb::device_facts::UNKNOWN_DEVICE_PEAK_NM`) is the family's peak (SHARED_PRODUCT_IDS).
    wheel(
        VID_PID_CODES,
        0xffb0,
        "OpenFFBoard",
        900.0,
        HidPid,
        Some(32.0),
    ),
    // IDs: hid-ids.h DFP_WHEEL c298 (PID_LOGITECH_DFP above). Peak:
    // community 2 N·m for the DFP itself; shared with the G25, DFGT, G27 and G29 in DFP mode,
    // so the G25/G27's 2.5 N·m is assumed (SHARED_PRODUCT_IDS).
    wheel(
        VID_LOGITECH,
        0xc298,
        "Logitech Driving Force Pro",
        900.0,
        LogitechClassic,
        Some(2.5),
    ),
    // IDs: hid-ids.h LOGITECH_WHEEL c294 (Driving Force / Formula Force EX; every multimode
    // wheel boots in this compatibility mode, section 2.9). Peak: community about 1.5 N·m for
    // the DF-EX itself; shared, so the G25/G27's 2.5 N·m is assumed (SHARED_PRODUCT_IDS).
    wheel(
        VID_LOGITECH,
        0xc294,
        "Logitech Driving Force / Formula Force EX",
        200.0,
        LogitechClassic,
        Some(2.5),
    ),
    // IDs: hid-ids.h MOMO_WHEEL c295. Peak: community 2 N·m. Range 270° (new-lg4ff
    // lg4ff_devices: 40..270, no range command).
    wheel(
        VID_LOGITECH,
        0xc295,
        "Logitech MOMO Force",
        270.0,
        LogitechClassic,
        Some(2.0),
    ),
    // IDs: hid-ids.h MOMO_WHEEL2 ca03. Peak: community 2 N·m. Range 270° as the MOMO Force.
    wheel(
        VID_LOGITECH,
        0xca03,
        "Logitech MOMO Racing",
        270.0,
        LogitechClassic,
        Some(2.0),
    ),
    // IDs: section 3.5/3.7 (hid-tmff2.h TS-PC b689). Peak: community 6 N·m.
    wheel(
        VID_THRUSTMASTER,
        0xb689,
        "Thrustmaster TS-PC Racer",
        1080.0,
        EvdevConstant,
        Some(6.0),
    ),
    // IDs: section 3.7 (hid-ftec.h CSL Elite 0e03). Peak: vendor 6 N·m.
    wheel(
        VID_FANATEC,
        0x0e03,
        "Fanatec CSL Elite",
        1080.0,
        EvdevConstant,
        Some(6.0),
    ),
    // IDs: section 3.7 (hid-ftec.h CSL Elite PS4 0005). Peak: vendor 6 N·m.
    wheel(
        VID_FANATEC,
        0x0005,
        "Fanatec CSL Elite (PS4)",
        1080.0,
        EvdevConstant,
        Some(6.0),
    ),
    // IDs: section 3.7 (hid-ftec.h Podium DD1 0006). Peak: vendor 20 N·m.
    wheel(
        VID_FANATEC,
        0x0006,
        "Fanatec Podium DD1",
        1080.0,
        EvdevConstant,
        Some(20.0),
    ),
    // IDs: section 3.7 (hid-ftec.h Podium DD2 0007). Peak: vendor 25 N·m.
    wheel(
        VID_FANATEC,
        0x0007,
        "Fanatec Podium DD2",
        1080.0,
        EvdevConstant,
        Some(25.0),
    ),
    // IDs: universal-pidff hid-ids.h MOZA_R3 0005 / R3_2 0015. Peak: vendor 3.9 N·m.
    wheel(VID_MOZA, 0x0005, "Moza R3", 900.0, HidPid, Some(3.9)),
    wheel(
        VID_MOZA,
        0x0015,
        "Moza R3 (alternate ID)",
        900.0,
        HidPid,
        Some(3.9),
    ),
    // IDs: universal-pidff hid-ids.h MOZA_R16_R21 0000 / R16_R21_2 0010: one ID pair for both
    // bases, so the R21's vendor peak (21 N·m) is assumed (SHARED_PRODUCT_IDS).
    wheel(
        VID_MOZA,
        0x0000,
        "Moza R16 / R21",
        900.0,
        HidPid,
        Some(21.0),
    ),
    wheel(
        VID_MOZA,
        0x0010,
        "Moza R16 / R21 (alternate ID)",
        900.0,
        HidPid,
        Some(21.0),
    ),
    // IDs: section 3.7 (linux-steering-wheels, SC1 16d0:0d5a). The same ID for every motor
    // (Small MiGE about 16 N·m, Large MiGE about 30 N·m, community figures [UNVERIFIED]):
    // the strongest is assumed (SHARED_PRODUCT_IDS).
    wheel(
        VID_SIMUCUBE,
        0x0d5a,
        "Simucube 1",
        900.0,
        HidPid,
        Some(30.0),
    ),
    // IDs: universal-pidff hid-ids.h VRS_DFP 0483:a355. Peak: vendor 20 N·m.
    wheel(
        VID_SIMAGIC_ST,
        0xa355,
        "VRS DirectForce Pro",
        900.0,
        HidPid,
        Some(20.0),
    ),
    // IDs: universal-pidff hid-ids.h CAMMUS_C5 0301. Peak: vendor 5 N·m.
    wheel(VID_CAMMUS, 0x0301, "Cammus C5", 900.0, HidPid, Some(5.0)),
    // IDs: universal-pidff hid-ids.h CAMMUS_C12 0302. Peak: vendor 12 N·m.
    wheel(VID_CAMMUS, 0x0302, "Cammus C12", 900.0, HidPid, Some(12.0)),
    // IDs: Linux hid-ids.h USB_DEVICE_ID_ASETEK_INVICTA f300, FORTE f301, LA_PRIMA f303,
    // TONY_KANAAN f306 (driven by hid-universal-pidff; linux-steering-wheels). Peaks: vendor
    // 27, 18, 12 and 27 N·m (the Tony Kanaan edition is an Invicta).
    wheel(
        VID_ASETEK,
        0xf300,
        "Asetek Invicta",
        900.0,
        HidPid,
        Some(27.0),
    ),
    wheel(
        VID_ASETEK,
        0xf301,
        "Asetek Forte",
        900.0,
        HidPid,
        Some(18.0),
    ),
    wheel(
        VID_ASETEK,
        0xf303,
        "Asetek La Prima",
        900.0,
        HidPid,
        Some(12.0),
    ),
    wheel(
        VID_ASETEK,
        0xf306,
        "Asetek Tony Kanaan Edition",
        900.0,
        HidPid,
        Some(27.0),
    ),
    // IDs: c272 from evtest in Oversteer issue #135 (G PRO, Xbox/PC), c268 the PlayStation/PC
    // version (linux-steering-wheels). Through the kernel driver only. Peak: vendor 11 N·m.
    wheel(
        VID_LOGITECH,
        0xc272,
        "Logitech G PRO (Xbox/PC)",
        1080.0,
        EvdevConstant,
        Some(11.0),
    ),
    wheel(
        VID_LOGITECH,
        0xc268,
        "Logitech G PRO (PlayStation/PC)",
        1080.0,
        EvdevConstant,
        Some(11.0),
    ),
];

/// Product IDs that several bases of different strength share, with the family's bases and
/// their peaks (manufacturer or community figures, N·m). A known-wheel entry with one of
/// these IDs carries the family's **highest** peak, so that a user's maximum is never
/// multiplied up beyond what they set on a weaker base; the user enters their base's peak to
/// get its full strength.
///
/// Logitech's multimode wheels (DFP, G25, DFGT, G27, G29) can run in the modes of older
/// wheels and then enumerate with those wheels' product IDs (new-lg4ff
/// `lg4ff_multimode_wheels`, section 2.9), so the DF-EX, DFP, G25, DFGT and G27 IDs are
/// shared too.
pub const SHARED_PRODUCT_IDS: &[SharedProductId] = &[
    SharedProductId {
        vendor_id: VID_THRUSTMASTER,
        product_id: 0xb696,
        family: "Thrustmaster T128 (about 2 N·m), T248 (3.5), T598 (5) and T818 (10)",
        members: &[
            ("Thrustmaster T128", 2.0),
            ("Thrustmaster T248", 3.5),
            ("Thrustmaster T598", 5.0),
            ("Thrustmaster T818", 10.0),
        ],
    },
    SharedProductId {
        vendor_id: VID_THRUSTMASTER,
        product_id: 0xb66d,
        family: "Thrustmaster T300RS in PS4 mode (about 3.9 N·m), T-GT II (6) and T248/T248R in \
                 PS4 mode (3.5)",
        members: &[
            ("Thrustmaster T300RS", 3.9),
            ("Thrustmaster T-GT II", 6.0),
            ("Thrustmaster T248 / T248R", 3.5),
        ],
    },
    SharedProductId {
        vendor_id: VID_FANATEC,
        product_id: 0x0020,
        family: "Fanatec CSL DD (5 N·m, 8 with the boost kit), DD Pro (8), ClubSport DD (12) and \
                 ClubSport DD+ (15)",
        members: &[
            ("Fanatec CSL DD", 5.0),
            ("Fanatec CSL DD with boost kit", 8.0),
            ("Fanatec Gran Turismo DD Pro", 8.0),
            ("Fanatec ClubSport DD", 12.0),
            ("Fanatec ClubSport DD+", 15.0),
        ],
    },
    SharedProductId {
        vendor_id: VID_MOZA,
        product_id: 0x0000,
        family: "Moza R16 (16 N·m) and R21 (21)",
        members: &[("Moza R16", 16.0), ("Moza R21", 21.0)],
    },
    SharedProductId {
        vendor_id: VID_MOZA,
        product_id: 0x0010,
        family: "Moza R16 (16 N·m) and R21 (21)",
        members: &[("Moza R16", 16.0), ("Moza R21", 21.0)],
    },
    SharedProductId {
        vendor_id: VID_SIMUCUBE,
        product_id: 0x0d5a,
        family: "Simucube 1 with a Small MiGE (about 16 N·m) or a Large MiGE (about 30)",
        members: &[
            ("Simucube 1, Small MiGE", 16.0),
            ("Simucube 1, Large MiGE", 30.0),
        ],
    },
    SharedProductId {
        vendor_id: VID_SIMAGIC_ST,
        product_id: 0x0522,
        family: "Simagic Alpha Mini (10 N·m), M10 (10), Alpha (15) and Alpha Ultimate (23)",
        members: &[
            ("Simagic Alpha Mini", 10.0),
            ("Simagic M10", 10.0),
            ("Simagic Alpha", 15.0),
            ("Simagic Alpha Ultimate", 23.0),
        ],
    },
    SharedProductId {
        vendor_id: VID_PID_CODES,
        product_id: 0xffb0,
        family: "every OpenFFBoard build (its motor and power supply decide; 32 N·m is assumed \
                 as for an unknown device)",
        members: &[("OpenFFBoard", 32.0)],
    },
    SharedProductId {
        vendor_id: VID_LOGITECH,
        product_id: 0xc294,
        family: "the Logitech Driving Force / Formula Force EX (about 1.5 N·m) and the DFP (2), \
                 G25 (2.5), DFGT (2.2), G27 (2.5) and G29 (2.2) in DF-EX mode",
        members: &[
            ("Logitech Driving Force / Formula Force EX", 1.5),
            ("Logitech Driving Force Pro", 2.0),
            ("Logitech G25", 2.5),
            ("Logitech Driving Force GT", 2.2),
            ("Logitech G27", 2.5),
            ("Logitech G29", 2.2),
        ],
    },
    SharedProductId {
        vendor_id: VID_LOGITECH,
        product_id: 0xc298,
        family: "the Logitech Driving Force Pro (about 2 N·m) and the G25 (2.5), DFGT (2.2), G27 \
                 (2.5) and G29 (2.2) in DFP mode",
        members: &[
            ("Logitech Driving Force Pro", 2.0),
            ("Logitech G25", 2.5),
            ("Logitech Driving Force GT", 2.2),
            ("Logitech G27", 2.5),
            ("Logitech G29", 2.2),
        ],
    },
    SharedProductId {
        vendor_id: VID_LOGITECH,
        product_id: 0xc299,
        family: "the Logitech G25 (about 2.5 N·m) and the G27 (2.5) and G29 (2.2) in G25 mode",
        members: &[
            ("Logitech G25", 2.5),
            ("Logitech G27", 2.5),
            ("Logitech G29", 2.2),
        ],
    },
    SharedProductId {
        vendor_id: VID_LOGITECH,
        product_id: 0xc29a,
        family: "the Logitech Driving Force GT (about 2 N·m) and the G29 (2.2) in DFGT mode",
        members: &[("Logitech Driving Force GT", 2.0), ("Logitech G29", 2.2)],
    },
    SharedProductId {
        vendor_id: VID_LOGITECH,
        product_id: 0xc29b,
        family: "the Logitech G27 (about 2.5 N·m) and the G29 (2.2) in G27 mode",
        members: &[("Logitech G27", 2.5), ("Logitech G29", 2.2)],
    },
];

/// A product ID shared by bases of different strength (see [`SHARED_PRODUCT_IDS`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SharedProductId {
    /// USB vendor ID.
    pub vendor_id: u16,
    /// USB product ID.
    pub product_id: u16,
    /// The bases that share it, with their peaks, for the user.
    pub family: &'static str,
    /// Each base that enumerates with this ID, and its peak (N·m): the user confirms theirs
    /// from this list.
    pub members: &'static [(&'static str, f64)],
}

impl SharedProductId {
    /// The peaks of the bases (N·m).
    pub fn peaks_nm(&self) -> impl Iterator<Item = f64> + '_ {
        self.members.iter().map(|&(_, peak)| peak)
    }

    /// The strongest base's peak (N·m): what is assumed until the user confirms theirs.
    pub fn strongest_nm(&self) -> f64 {
        self.peaks_nm().fold(0.0, f64::max)
    }
}

/// The shared product ID entry for these IDs, when several bases share them.
pub fn shared(vendor_id: u16, product_id: u16) -> Option<&'static SharedProductId> {
    SHARED_PRODUCT_IDS
        .iter()
        .find(|s| s.vendor_id == vendor_id && s.product_id == product_id)
}

impl KnownWheel {
    /// The family of bases this entry's product ID stands for, when several share it.
    pub fn shared_family(&self) -> Option<&'static str> {
        shared(self.vendor_id, self.product_id).map(|s| s.family)
    }
}

/// The known wheel with these IDs.
pub fn lookup(vendor_id: u16, product_id: u16) -> Option<&'static KnownWheel> {
    KNOWN_WHEELS
        .iter()
        .find(|w| w.vendor_id == vendor_id && w.product_id == product_id)
}

/// The peak torque Gripline assumes for a wheel it knows, for scaling force feedback until
/// the user enters their base's own peak.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PeakEstimate {
    /// USB vendor ID.
    pub vendor_id: u16,
    /// USB product ID.
    pub product_id: u16,
    /// The assumed peak (N·m): the wheel's own estimate, or the **highest** peak of the
    /// family when several bases share the product ID.
    pub peak_torque_nm: f64,
    /// The bases that share the product ID (see [`SHARED_PRODUCT_IDS`]), when several do.
    pub shared_family: Option<&'static str>,
}

impl PeakEstimate {
    /// One line for the force-feedback summary, e.g. `"23 N·m assumed: 0483:0522 is shared
    /// by Simagic Alpha Mini (10 N·m), ...; set the peak of your base in Settings > Force
    /// feedback"`, or `"5.5 N·m (known-wheel estimate)"`.
    pub fn summary(&self) -> String {
        let peak = self.peak_torque_nm;
        match self.shared_family {
            Some(family) => format!(
                "{peak} N·m assumed: {:04x}:{:04x} is shared by {family}; set the peak of your \
                 base in Settings > Force feedback",
                self.vendor_id, self.product_id
            ),
            None => format!("{peak} N·m (known-wheel estimate)"),
        }
    }
}

impl KnownWheel {
    /// This wheel's [`PeakEstimate`], when it has a peak: for a shared product ID never less
    /// than the strongest base that shares it, whatever the entry says.
    pub fn peak_estimate(&self) -> Option<PeakEstimate> {
        let own = self.peak_torque_nm?;
        let family = shared(self.vendor_id, self.product_id);
        Some(PeakEstimate {
            vendor_id: self.vendor_id,
            product_id: self.product_id,
            peak_torque_nm: family.map_or(own, |f| own.max(f.strongest_nm())),
            shared_family: family.map(|f| f.family),
        })
    }

    /// The force-feedback summary's line about this wheel's peak ([`PeakEstimate::summary`]).
    pub fn peak_summary(&self) -> Option<String> {
        self.peak_estimate().map(|e| e.summary())
    }
}

/// The peak torque assumed for the wheel with these IDs (see [`PeakEstimate`]): `None` for
/// a wheel not in the table or without force feedback in this mode. Where one product ID
/// covers several bases, the strongest base's peak, so that the torque a user sets as their
/// maximum is never exceeded on a weaker base.
pub fn peak_estimate(vendor_id: u16, product_id: u16) -> Option<PeakEstimate> {
    lookup(vendor_id, product_id)
        .filter(|w| w.backend != FfbBackendKind::None)
        .and_then(KnownWheel::peak_estimate)
}

#[cfg(test)]
mod tests;

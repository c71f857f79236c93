//! Real wheels at window start-up: which device receives force feedback, through which
//! backend, and the evdev input for the devices gilrs cannot see (issue 5, "wiring into the
//! app").
//!
//! [`plan`] is the pure decision over a list of evdev devices and the settings:
//! 1. force feedback off in the settings (`ffb.enabled == false`) gives none;
//! 2. the device is `ffb.device` if set, else the device bound to steering if it has force
//!    feedback, else the first evdev device with `FF_CONSTANT` or a known wheel;
//! 3. the backend is the device's own choice (`ffb.devices[..].backend`) unless `Auto`, else
//!    the global `ffb.backend`, decided by [`choose_backend`] (evdev when the node offers
//!    `FF_CONSTANT`, else the known-wheel table's raw HID protocol).
//!
//! [`set_up`] (at window start) and [`open_ffb`] (on every reconnection) list `/dev/input`,
//! plan, open the backend ([`open_backend`]) behind an
//! [`FfbWriter`] thread and starts the evdev input thread. It never fails: without a wheel,
//! or when opening fails, the result is a [`gripline_input::ffb::backend::NullBackend`] and a summary that says why, so the
//! window starts the same with or without hardware.

use gripline_config::bindings::{AxisControl, Bindings};
use gripline_config::device_identity::{DeviceIdentity, DeviceMatch};
use gripline_config::ffb_settings::{FfbBackendChoice, FfbSettings};
use gripline_config::settings::Settings;
use gripline_input::evdev_input::EvdevDeviceInfo;
use gripline_input::ffb::device_facts::FfbDeviceFacts;
use gripline_input::ffb::open::{OpenRequest, ff_node, open_backend};
use gripline_input::ffb::select::{
    BackendDecision, Platform, SelectionInput, backend_name, choose_backend,
};
use gripline_input::ffb::writer::{FfbWriter, WriterConfig, WriterControl};
use gripline_input::known_wheels::{self, FfbBackendKind, KnownWheel};

use crate::realtime::device_thread::{DeviceThread, ForwardedDevice};
use crate::realtime::rig::{FfbLink, Rig};

/// Why there is no force feedback when no device qualifies.
pub const NO_WHEEL: &str = "no force-feedback wheel found";
/// Why there is no force feedback when the settings turn it off.
pub const FFB_DISABLED: &str = "force feedback is turned off in the settings";

/// The writer thread's name.
const WRITER_THREAD: &str = "gripline-ffb";
/// The evdev input thread's name.
const EVDEV_THREAD: &str = "gripline-evdev";

/// The backend [`choose_backend`] picks for a device with known-wheel entry `wheel`, an
/// evdev node with `FF_CONSTANT` or not, and the user's `choice`, on this platform. Shared
/// with `gripline devices`.
pub fn decide(
    wheel: Option<&KnownWheel>,
    evdev_constant: bool,
    choice: FfbBackendChoice,
) -> BackendDecision {
    decide_on(wheel, evdev_constant, choice, Platform::current())
}

fn decide_on(
    wheel: Option<&KnownWheel>,
    evdev_constant: bool,
    choice: FfbBackendChoice,
    platform: Platform,
) -> BackendDecision {
    choose_backend(&SelectionInput {
        wheel,
        evdev_constant,
        hid_pid_descriptor: false,
        choice,
        platform,
    })
}

/// The backend the user asks for on `device`: its own setting unless `Auto`, else the
/// global one.
pub fn backend_choice(settings: &FfbSettings, device: &DeviceIdentity) -> FfbBackendChoice {
    match settings.device(device).map(|d| d.backend) {
        Some(choice) if choice != FfbBackendChoice::Auto => choice,
        _ => settings.backend,
    }
}

/// Whether an evdev device can take force feedback: `FF_CONSTANT` on its node, or a known
/// wheel whose mode has force feedback (driven over raw HID).
pub fn has_ff(info: &EvdevDeviceInfo) -> bool {
    info.ff.constant
        || known_wheels::lookup(info.vendor_id, info.product_id)
            .is_some_and(|w| w.backend != FfbBackendKind::None)
}

/// The force-feedback device chosen by [`plan`] and how to open it.
#[derive(Clone, Debug, PartialEq)]
pub struct PlannedDevice {
    /// The device.
    pub identity: DeviceIdentity,
    /// Its known-wheel entry.
    pub wheel: Option<&'static KnownWheel>,
    /// Its event node with `FF_CONSTANT`, if any.
    pub evdev_node: Option<String>,
    /// The backend decision (kind is never [`FfbBackendKind::None`] in [`Plan::Open`]).
    pub decision: BackendDecision,
    /// Rotation range to set (Logitech classic), degrees lock to lock.
    pub rotation_deg: Option<u16>,
    /// Write rate from the device's settings; `None` uses the backend's.
    pub rate_hz: Option<f64>,
}

impl PlannedDevice {
    /// The name for the log: the known-wheel model, else the name the device reports.
    pub fn display_name(&self) -> String {
        match self.wheel {
            Some(w) => w.name.to_owned(),
            None if !self.identity.name.is_empty() => self.identity.name.clone(),
            None => format!(
                "{:04x}:{:04x}",
                self.identity.vendor_id, self.identity.product_id
            ),
        }
    }
}

/// What [`plan`] decided.
#[derive(Clone, Debug, PartialEq)]
pub enum Plan {
    /// No force feedback, and why (one line).
    None {
        /// Why.
        reason: String,
    },
    /// Open this device's backend.
    Open(PlannedDevice),
}

/// The force-feedback plan for `settings` among `devices` on this platform (see the module
/// docs).
pub fn plan(settings: &Settings, devices: &[EvdevDeviceInfo]) -> Plan {
    plan_on(settings, devices, Platform::current())
}

/// [`plan`] for a given platform.
pub fn plan_on(settings: &Settings, devices: &[EvdevDeviceInfo], platform: Platform) -> Plan {
    let ffb = &settings.ffb;
    if !ffb.enabled {
        return Plan::None {
            reason: FFB_DISABLED.to_owned(),
        };
    }
    let Some(identity) = pick_device(ffb, &settings.bindings, devices) else {
        return Plan::None {
            reason: NO_WHEEL.to_owned(),
        };
    };
    let wheel = known_wheels::lookup(identity.vendor_id, identity.product_id);
    let node = ff_node(devices, &identity).map(|d| d.path.clone());
    let decision = decide_on(
        wheel,
        node.is_some(),
        backend_choice(ffb, &identity),
        platform,
    );
    let planned = PlannedDevice {
        rotation_deg: steering_rotation(&settings.bindings, &identity)
            .or(wheel.map(|w| w.default_rotation_deg))
            .filter(|r| r.is_finite())
            // Clamped to the u16 range first, so the cast cannot truncate.
            .map(|r| {
                #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                let deg = r.round().clamp(0.0, f64::from(u16::MAX)) as u16;
                deg
            }),
        rate_hz: ffb
            .device(&identity)
            .and_then(|d| d.max_rate_hz)
            .filter(|r| r.is_finite() && *r > 0.0),
        identity,
        wheel,
        evdev_node: node,
        decision,
    };
    if decision.kind == FfbBackendKind::None {
        return Plan::None {
            reason: format!("{}: {}", planned.display_name(), decision.reason),
        };
    }
    Plan::Open(planned)
}

/// Whether evdev device `info` is `identity`: the same device by the identity rules, or,
/// for an identity from gilrs (a UUID where evdev has `uniq`/`phys`), the same IDs.
fn is_device(info: &EvdevDeviceInfo, identity: &DeviceIdentity) -> bool {
    info.identity().same_device(identity)
        || (info.vendor_id == identity.vendor_id && info.product_id == identity.product_id)
}

/// The devices bound to steering, in binding order.
fn steering_devices(bindings: &Bindings) -> impl Iterator<Item = &DeviceIdentity> {
    bindings.axes.iter().filter_map(|b| match &b.device {
        DeviceMatch::Device(id) if b.control == AxisControl::Steering => Some(id),
        _ => None,
    })
}

/// The rotation range of the steering binding on `identity`, if it is bound to steering.
fn steering_rotation(bindings: &Bindings, identity: &DeviceIdentity) -> Option<f64> {
    bindings.axes.iter().find_map(|b| match &b.device {
        DeviceMatch::Device(id)
            if b.control == AxisControl::Steering
                && (id.same_device(identity)
                    || (id.vendor_id == identity.vendor_id
                        && id.product_id == identity.product_id)) =>
        {
            Some(b.rotation_deg)
        }
        _ => None,
    })
}

/// The device that receives force feedback (see the module docs), as an identity: the
/// evdev node's when it is in `devices`, else the configured one (a known wheel may still
/// be reachable over raw HID without an event node).
fn pick_device(
    ffb: &FfbSettings,
    bindings: &Bindings,
    devices: &[EvdevDeviceInfo],
) -> Option<DeviceIdentity> {
    let listed = |wanted: &DeviceIdentity| {
        // Prefer the node with FF_CONSTANT among a wheel's nodes.
        ff_node(devices, wanted)
            .or_else(|| devices.iter().find(|d| is_device(d, wanted)))
            .map(EvdevDeviceInfo::identity)
    };
    if let Some(wanted) = &ffb.device {
        return Some(listed(wanted).unwrap_or_else(|| wanted.clone()));
    }
    for bound in steering_devices(bindings) {
        if let Some(info) = devices
            .iter()
            .filter(|d| has_ff(d))
            .find(|d| is_device(d, bound))
        {
            return listed(&info.identity());
        }
        let known = known_wheels::lookup(bound.vendor_id, bound.product_id)
            .is_some_and(|w| w.backend != FfbBackendKind::None);
        if known {
            return Some(bound.clone());
        }
    }
    devices
        .iter()
        .find(|d| has_ff(d))
        .and_then(|d| listed(&d.identity()))
}

/// Whether a force-feedback device was opened, and if not, whether trying again later can
/// help.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkStatus {
    /// A device is driven.
    Linked,
    /// Force feedback is off in the settings, or no device qualifies: nothing to retry until
    /// the settings change or a device is plugged in.
    Idle,
    /// A device qualified but could not be opened (unplugged a moment ago, busy, a write
    /// failed): try again with backoff.
    Failed,
}

/// The result of opening force feedback for the settings: the link for the sim thread and
/// what to tell the user.
pub struct OpenedFfb {
    /// The backend (an [`FfbWriter`] over the device, or a [`gripline_input::ffb::backend::NullBackend`]) and the device's
    /// facts.
    pub link: FfbLink,
    /// The backend kind behind the link ([`FfbBackendKind::None`] for the null backend).
    pub backend: FfbBackendKind,
    /// The device driven, if any.
    pub device: Option<DeviceIdentity>,
    /// One line for the log and the banner: `"FFB: Logitech G29 (PS3 mode) via evdev
    /// FF_CONSTANT (kernel driver), 2.2 N·m peak (known-wheel estimate), 250 Hz"` or
    /// `"FFB: none (no force-feedback wheel found)"`.
    pub summary: String,
    /// Linked, idle or failed.
    pub status: LinkStatus,
    /// Stops the writer thread behind the link from outside the sim thread: the connector
    /// closes the device with it before reopening one (two writers must never drive one
    /// wheel).
    pub control: Option<WriterControl>,
}

impl std::fmt::Debug for OpenedFfb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenedFfb")
            .field("facts", &self.link.facts)
            .field("backend", &self.backend)
            .field("device", &self.device)
            .field("summary", &self.summary)
            .field("status", &self.status)
            .finish_non_exhaustive()
    }
}

impl OpenedFfb {
    /// No force feedback, for `reason`.
    fn none(settings: &FfbSettings, reason: &str, status: LinkStatus) -> Self {
        Self {
            link: FfbLink::none(settings),
            backend: FfbBackendKind::None,
            device: None,
            summary: format!("FFB: none ({reason})"),
            status,
            control: None,
        }
    }
}

/// Wheels wired into the rig at window start: force feedback and the extra input devices.
pub struct WheelSetup {
    /// Force feedback as opened.
    pub ffb: OpenedFfb,
    /// Threads reading the evdev devices gilrs cannot see (pedals, handbrakes); keep them
    /// alive while the rig runs and stop them at shutdown.
    pub input_threads: Vec<DeviceThread>,
    /// The sim-side ends of `input_threads`, to add to the rig.
    pub input_devices: Vec<ForwardedDevice>,
}

impl std::fmt::Debug for WheelSetup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WheelSetup")
            .field("ffb", &self.ffb)
            .field("input_threads", &self.input_threads.len())
            .finish_non_exhaustive()
    }
}

impl WheelSetup {
    /// A rig with `settings`' bindings and force feedback through this set-up, its input
    /// devices added; returns the rig and the threads to keep alive.
    pub fn into_rig(self, settings: &Settings) -> (Rig, Vec<DeviceThread>) {
        let mut rig = Rig::new(&settings.bindings, &settings.ffb, self.ffb.link);
        for device in self.input_devices {
            if !rig.add_input(Box::new(device)) {
                eprintln!("gripline: too many input devices; an evdev device is ignored");
            }
        }
        (rig, self.input_threads)
    }
}

/// Sets up force feedback and evdev input for `settings` (see the module docs). Never
/// fails: errors end up in the summary with a [`gripline_input::ffb::backend::NullBackend`].
pub fn set_up(settings: &Settings) -> WheelSetup {
    let scan = scan_devices();
    let mut setup = WheelSetup {
        ffb: open_scanned(settings, &scan),
        input_threads: Vec::new(),
        input_devices: Vec::new(),
    };
    if scan.input_dir_exists {
        start_evdev_input(&mut setup);
    }
    setup
}

/// Opens force feedback for `settings` on the devices present now (see the module docs):
/// what the window does at start and what the force-feedback connector does on every
/// reconnection. Never fails: errors end up in the summary with a [`gripline_input::ffb::backend::NullBackend`].
pub fn open_ffb(settings: &Settings) -> OpenedFfb {
    open_scanned(settings, &scan_devices())
}

fn open_scanned(settings: &Settings, scan: &Scan) -> OpenedFfb {
    let mut plan = plan(settings, &scan.devices);
    if let Plan::None { reason } = &mut plan
        && scan.unreadable > 0
    {
        use std::fmt::Write as _;
        let _ = write!(
            reason,
            "; {} event node(s) could not be opened: join the `input` group or install a \
             udev rule for your wheel",
            scan.unreadable
        );
    }
    open_plan(settings, &plan)
}

/// The force-feedback devices present now and what the automatic choice would open, for the
/// settings screen's device and backend lists.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FfbCandidates {
    /// Devices with force feedback (an event node with `FF_CONSTANT` or a known wheel):
    /// identity and a name for the user.
    pub devices: Vec<(DeviceIdentity, String)>,
    /// The device and backend the automatic choice picks for the settings, if any.
    pub automatic: Option<(DeviceIdentity, &'static str)>,
}

/// The candidates for `settings` among the devices present now (see [`FfbCandidates`]).
pub fn ffb_candidates(settings: &Settings) -> FfbCandidates {
    candidates_among(settings, &scan_devices().devices)
}

fn candidates_among(settings: &Settings, found: &[EvdevDeviceInfo]) -> FfbCandidates {
    let mut devices: Vec<(DeviceIdentity, String)> = Vec::new();
    for info in found.iter().filter(|d| has_ff(d)) {
        let identity = info.identity();
        if devices.iter().any(|(id, _)| id.same_device(&identity)) {
            continue;
        }
        let name = known_wheels::lookup(info.vendor_id, info.product_id)
            .map_or_else(|| info.name.clone(), |w| w.name.to_owned());
        devices.push((identity, name));
    }
    // What "Automatic" means: the plan with automatic routing.
    let mut auto = settings.clone();
    auto.ffb.enabled = true;
    auto.ffb.backend = FfbBackendChoice::Auto;
    auto.ffb.device = None;
    let automatic = match plan(&auto, found) {
        Plan::Open(p) => Some((p.identity, backend_name(p.decision.kind))),
        Plan::None { .. } => None,
    };
    FfbCandidates { devices, automatic }
}

/// The rotation range of every steering binding, in binding order: a change means the
/// force-feedback device's facts (its rotation) must be resolved again.
pub fn steering_rotations(bindings: &Bindings) -> Vec<f64> {
    bindings
        .axes
        .iter()
        .filter(|b| b.control == AxisControl::Steering)
        .map(|b| b.rotation_deg)
        .collect()
}

/// Opens what `plan` says, behind a writer thread.
fn open_plan(settings: &Settings, plan: &Plan) -> OpenedFfb {
    let ffb = &settings.ffb;
    let planned = match plan {
        Plan::None { reason } => return OpenedFfb::none(ffb, reason, LinkStatus::Idle),
        Plan::Open(planned) => planned,
    };
    let name = planned.display_name();
    let via = backend_name(planned.decision.kind);
    let backend = match open_backend(&OpenRequest {
        kind: planned.decision.kind,
        identity: &planned.identity,
        evdev_node: planned.evdev_node.as_deref(),
        rotation_deg: planned.rotation_deg,
    }) {
        Ok(backend) => backend,
        Err(error) => {
            return OpenedFfb::none(
                ffb,
                &format!("opening {name} via {via} failed: {error}"),
                LinkStatus::Failed,
            );
        }
    };
    let watchdog_ms = if ffb.watchdog_ms.is_finite() {
        ffb.watchdog_ms.clamp(5.0, 1000.0)
    } else {
        50.0
    };
    let writer = match FfbWriter::spawn(
        backend,
        WriterConfig {
            rate_hz: planned.rate_hz,
            watchdog: Some(std::time::Duration::from_secs_f64(watchdog_ms / 1000.0)),
            name: WRITER_THREAD.to_owned(),
        },
    ) {
        Ok(writer) => writer,
        Err(error) => {
            return OpenedFfb::none(
                ffb,
                &format!("cannot start the force-feedback writer for {name}: {error}"),
                LinkStatus::Failed,
            );
        }
    };
    let control = writer.control();
    let facts = FfbDeviceFacts::resolve(
        ffb,
        &planned.identity,
        steering_rotation(&settings.bindings, &planned.identity),
    );
    let range = match (
        planned.decision.kind,
        &planned.evdev_node,
        planned.rotation_deg,
    ) {
        (FfbBackendKind::EvdevConstant, Some(node), Some(degrees)) => rotation_note(
            gripline_input::ffb::sysfs_range::set_range(
                std::path::Path::new("/sys"),
                std::path::Path::new(node),
                degrees,
            ),
            degrees,
        ),
        // The Logitech classic backend sets the range itself when it opens.
        (FfbBackendKind::LogitechClassic, _, Some(degrees)) => format!(", {degrees}° range set"),
        _ => String::new(),
    };
    let summary = format!(
        "FFB: {name} via {via}, {}, {:.0} Hz{}{range}",
        facts.describe_peak(),
        writer.rate_hz(),
        if facts.invert { ", inverted" } else { "" }
    );
    OpenedFfb {
        link: FfbLink {
            backend: Box::new(writer),
            facts,
        },
        backend: planned.decision.kind,
        device: Some(planned.identity.clone()),
        summary,
        status: LinkStatus::Linked,
        control,
    }
}

/// The summary's note on writing the rotation range to the kernel driver.
fn rotation_note(
    result: Result<u16, gripline_input::ffb::sysfs_range::RangeError>,
    asked: u16,
) -> String {
    use gripline_input::ffb::sysfs_range::RangeError;
    match result {
        Ok(set) if set == asked => format!(", {set}° range set in the driver"),
        Ok(set) => format!(
            ", the driver limits the range to {set}° (asked {asked}°): set the steering \
             rotation to {set}°"
        ),
        // hid-pidff and HID++ have no range: the wheel's own software sets it.
        Err(RangeError::Unsupported(_)) => String::new(),
        Err(error) => format!(", range not set ({error})"),
    }
}

/// What `/dev/input` holds (nothing off Linux).
struct Scan {
    devices: Vec<EvdevDeviceInfo>,
    /// Event nodes that could not be opened (no permission).
    unreadable: usize,
    input_dir_exists: bool,
}

#[cfg(target_os = "linux")]
fn scan_devices() -> Scan {
    let scan = gripline_input::evdev_input::linux::list_devices();
    Scan {
        unreadable: scan.unreadable.len(),
        devices: scan.devices,
        input_dir_exists: scan.input_dir_exists,
    }
}

#[cfg(not(target_os = "linux"))]
fn scan_devices() -> Scan {
    Scan {
        devices: Vec::new(),
        unreadable: 0,
        input_dir_exists: false,
    }
}

/// Starts the evdev input thread for the devices gilrs cannot see.
#[cfg(target_os = "linux")]
fn start_evdev_input(setup: &mut WheelSetup) {
    use gripline_input::evdev_input::backend::EvdevSelection;
    use gripline_input::evdev_input::linux::linux_backend;
    match DeviceThread::spawn(EVDEV_THREAD, || {
        Ok::<_, std::io::Error>(linux_backend(EvdevSelection::GilrsInvisible))
    }) {
        Ok((thread, device)) => {
            setup.input_threads.push(thread);
            setup.input_devices.push(device);
        }
        Err(error) => eprintln!("gripline: no evdev input (pedals, handbrakes): {error}"),
    }
}

#[cfg(not(target_os = "linux"))]
fn start_evdev_input(_setup: &mut WheelSetup) {
    let _ = EVDEV_THREAD;
}

#[cfg(test)]
mod tests {
    use gripline_config::bindings::AxisBinding;
    use gripline_config::ffb_settings::FfbDeviceSettings;
    use gripline_input::evdev_input::{EvdevAxis, FfCapabilities};

    use super::*;

    const G29: (u16, u16) = (0x046d, 0xc24f);
    const MOZA_R9: (u16, u16) = (0x346e, 0x0002);

    fn axis(code: u16) -> EvdevAxis {
        EvdevAxis {
            code,
            value: 0,
            min: 0,
            max: 65535,
            fuzz: 0,
            flat: 0,
        }
    }

    fn device(path: &str, ids: (u16, u16), name: &str, constant: bool) -> EvdevDeviceInfo {
        EvdevDeviceInfo {
            path: path.to_owned(),
            name: name.to_owned(),
            phys: format!("usb-0000:00:14.0-{path}"),
            vendor_id: ids.0,
            product_id: ids.1,
            axes: vec![axis(0), axis(1), axis(2)],
            buttons: vec![0x120, 0x121],
            ff: FfCapabilities {
                constant,
                gain: constant,
                max_effects: if constant { 16 } else { 0 },
                ..FfCapabilities::default()
            },
            ..EvdevDeviceInfo::default()
        }
    }

    fn g29(constant: bool) -> EvdevDeviceInfo {
        device(
            "/dev/input/event7",
            G29,
            "Logitech G29 Driving Force Racing Wheel",
            constant,
        )
    }

    /// A pedal box without force feedback, unknown IDs.
    fn pedals() -> EvdevDeviceInfo {
        device("/dev/input/event3", (0x1dd2, 0x100c), "Pedals", false)
    }

    /// An unknown wheel with a kernel FF driver.
    fn unknown_wheel() -> EvdevDeviceInfo {
        device("/dev/input/event9", (0x1234, 0x5678), "Some Wheel", true)
    }

    fn open(plan: &Plan) -> &PlannedDevice {
        match plan {
            Plan::Open(p) => p,
            Plan::None { reason } => panic!("expected a device, got none: {reason}"),
        }
    }

    fn linux(settings: &Settings, devices: &[EvdevDeviceInfo]) -> Plan {
        plan_on(settings, devices, Platform::Linux)
    }

    fn steering_on(settings: &mut Settings, id: DeviceIdentity, rotation_deg: f64) {
        settings.bindings.axes.push(AxisBinding {
            control: AxisControl::Steering,
            device: DeviceMatch::Device(id),
            axis: 0x3_0000,
            calibration: gripline_config::axis_calibration::AxisCalibration::default(),
            rotation_deg,
        });
    }

    fn device_settings(id: DeviceIdentity, backend: FfbBackendChoice) -> FfbDeviceSettings {
        FfbDeviceSettings {
            device: id,
            invert: true,
            peak_torque_nm: Some(3.0),
            max_rate_hz: Some(400.0),
            backend,
        }
    }

    #[test]
    fn no_device_means_none() {
        let s = Settings::default();
        assert_eq!(
            linux(&s, &[]),
            Plan::None {
                reason: NO_WHEEL.to_owned()
            }
        );
        // Devices without force feedback do not count.
        assert_eq!(
            linux(&s, &[pedals()]),
            Plan::None {
                reason: NO_WHEEL.to_owned()
            }
        );
    }

    #[test]
    fn disabled_or_off_means_none() {
        let mut s = Settings::default();
        s.ffb.enabled = false;
        assert_eq!(
            linux(&s, &[g29(true)]),
            Plan::None {
                reason: FFB_DISABLED.to_owned()
            }
        );
        let mut s = Settings::default();
        s.ffb.backend = FfbBackendChoice::Off;
        let Plan::None { reason } = linux(&s, &[g29(true)]) else {
            panic!("Off must give none");
        };
        assert!(reason.contains("Logitech G29"), "{reason}");
        assert!(reason.contains("turned off in the settings"), "{reason}");
        // Off on the device itself, with Auto globally.
        let mut s = Settings::default();
        s.ffb
            .devices
            .push(device_settings(g29(true).identity(), FfbBackendChoice::Off));
        assert!(matches!(linux(&s, &[g29(true)]), Plan::None { .. }));
    }

    #[test]
    fn evdev_preferred_when_the_node_offers_constant_force() {
        let s = Settings::default();
        let p = linux(&s, &[pedals(), g29(true)]);
        let p = open(&p);
        assert_eq!(p.decision.kind, FfbBackendKind::EvdevConstant);
        assert_eq!(p.evdev_node.as_deref(), Some("/dev/input/event7"));
        assert_eq!(p.identity, g29(true).identity());
        assert_eq!(p.display_name(), "Logitech G29 (PS3 mode)");
        assert_eq!(p.rotation_deg, Some(900), "the known wheel's default");
        assert_eq!(p.rate_hz, None);
        // An unknown wheel with a kernel driver works through evdev too.
        let p = linux(&s, &[unknown_wheel()]);
        assert_eq!(open(&p).decision.kind, FfbBackendKind::EvdevConstant);
        assert_eq!(open(&p).display_name(), "Some Wheel");
    }

    #[test]
    fn known_logitech_without_evdev_ff_uses_the_classic_protocol() {
        let s = Settings::default();
        let p = linux(&s, &[g29(false)]);
        let p = open(&p);
        assert_eq!(p.decision.kind, FfbBackendKind::LogitechClassic);
        assert_eq!(p.evdev_node, None);
        // Off Linux, even a node with FF_CONSTANT cannot be used.
        let p = plan_on(&s, &[g29(true)], Platform::Other);
        assert_eq!(open(&p).decision.kind, FfbBackendKind::LogitechClassic);
    }

    #[test]
    fn configured_device_and_its_backend_override_are_honoured() {
        let moza = device("/dev/input/event12", MOZA_R9, "MOZA R9", true);
        let mut s = Settings::default();
        s.ffb.device = Some(DeviceIdentity::new(MOZA_R9.0, MOZA_R9.1, "R9", ""));
        // The configured device wins over the first wheel in the list.
        let p = linux(&s, &[g29(true), moza.clone()]);
        assert_eq!(open(&p).identity, moza.identity());
        assert_eq!(open(&p).decision.kind, FfbBackendKind::EvdevConstant);
        // Its own backend setting beats the global one; its rate is passed on.
        s.ffb.backend = FfbBackendChoice::Off;
        s.ffb
            .devices
            .push(device_settings(moza.identity(), FfbBackendChoice::HidPid));
        let p = linux(&s, &[g29(true), moza.clone()]);
        assert_eq!(open(&p).decision.kind, FfbBackendKind::HidPid);
        assert_eq!(open(&p).rate_hz, Some(400.0));
        // A configured known wheel that is not in the list: its raw HID protocol.
        let mut s = Settings::default();
        s.ffb.device = Some(DeviceIdentity::new(G29.0, G29.1, "G29", ""));
        let p = linux(&s, &[unknown_wheel()]);
        assert_eq!(open(&p).decision.kind, FfbBackendKind::LogitechClassic);
        // A configured device that is unknown and absent: none, with the reason.
        let mut s = Settings::default();
        s.ffb.device = Some(DeviceIdentity::new(0xaaaa, 0xbbbb, "Gone", ""));
        let Plan::None { reason } = linux(&s, &[]) else {
            panic!("an absent unknown device has no backend");
        };
        assert!(reason.starts_with("Gone: "), "{reason}");
    }

    #[test]
    fn the_wheel_bound_to_steering_wins() {
        let mut s = Settings::default();
        let second = device("/dev/input/event11", MOZA_R9, "MOZA R9", true);
        // Bound through gilrs: a UUID where evdev has a path; the IDs still match.
        steering_on(
            &mut s,
            DeviceIdentity::new(MOZA_R9.0, MOZA_R9.1, "R9", "03000000..."),
            1080.0,
        );
        let p = linux(&s, &[g29(true), second.clone()]);
        let p = open(&p);
        assert_eq!(p.identity, second.identity());
        assert_eq!(p.rotation_deg, Some(1080), "the binding's rotation");
        // A steering device without force feedback is skipped for the first wheel.
        let mut s = Settings::default();
        steering_on(&mut s, pedals().identity(), 900.0);
        let p = linux(&s, &[pedals(), g29(true)]);
        assert_eq!(open(&p).identity, g29(true).identity());
    }

    #[test]
    fn the_ff_node_of_a_multi_node_wheel_is_used() {
        // The wheel's first node has no FF (e.g. its LEDs); the second has FF_CONSTANT.
        let mut leds = g29(false);
        leds.path = "/dev/input/event6".to_owned();
        let p = linux(&Settings::default(), &[leds, g29(true)]);
        assert_eq!(
            open(&p).evdev_node.as_deref(),
            Some("/dev/input/event7"),
            "{p:?}"
        );
        assert_eq!(open(&p).decision.kind, FfbBackendKind::EvdevConstant);
    }

    #[test]
    fn backend_choice_prefers_the_device_setting() {
        let mut ffb = FfbSettings {
            backend: FfbBackendChoice::Evdev,
            ..FfbSettings::default()
        };
        let id = g29(true).identity();
        assert_eq!(backend_choice(&ffb, &id), FfbBackendChoice::Evdev);
        ffb.devices
            .push(device_settings(id.clone(), FfbBackendChoice::Auto));
        assert_eq!(backend_choice(&ffb, &id), FfbBackendChoice::Evdev);
        ffb.devices[0].backend = FfbBackendChoice::LogitechClassic;
        assert_eq!(backend_choice(&ffb, &id), FfbBackendChoice::LogitechClassic);
    }

    #[test]
    fn a_failed_open_falls_back_to_no_force_feedback() {
        // Evdev on a node that does not exist: the open fails, the set-up does not.
        let s = Settings::default();
        let plan = Plan::Open(PlannedDevice {
            identity: DeviceIdentity::new(0x1234, 0x5678, "Ghost", ""),
            wheel: None,
            evdev_node: Some("/nonexistent/event0".to_owned()),
            decision: BackendDecision {
                kind: FfbBackendKind::EvdevConstant,
                reason: "test",
            },
            rotation_deg: None,
            rate_hz: None,
        });
        let mut opened = open_plan(&s, &plan);
        assert_eq!(opened.backend, FfbBackendKind::None);
        assert_eq!(opened.status, LinkStatus::Failed, "worth retrying");
        assert!(
            opened
                .summary
                .starts_with("FFB: none (opening Ghost via evdev FF_CONSTANT"),
            "{}",
            opened.summary
        );
        assert_eq!(opened.link.backend.send_level(0.5), Ok(()));
        assert!((opened.link.facts.peak_torque_nm - s.ffb.max_torque_nm).abs() < 1e-12);
    }

    #[test]
    fn set_up_without_devices_gives_no_force_feedback() {
        let s = Settings::default();
        let scan = scan_devices();
        if !scan.devices.is_empty() || scan.unreadable > 0 {
            // A machine with real controllers: what it opens depends on them.
            return;
        }
        let mut setup = set_up(&s);
        assert_eq!(setup.ffb.backend, FfbBackendKind::None);
        assert_eq!(setup.ffb.status, LinkStatus::Idle);
        assert_eq!(
            setup.ffb.summary,
            "FFB: none (no force-feedback wheel found)"
        );
        assert_eq!(setup.ffb.link.backend.send_level(0.7), Ok(()));
        assert_eq!(setup.ffb.link.backend.stop(), Ok(()));
        assert!((setup.ffb.link.facts.peak_torque_nm - s.ffb.max_torque_nm).abs() < 1e-12);
        assert!(!setup.ffb.link.facts.invert);
        assert_eq!(setup.input_threads.len(), setup.input_devices.len());
        if !std::path::Path::new("/dev/input").is_dir() {
            assert!(setup.input_threads.is_empty());
        }
        let (rig, threads) = setup.into_rig(&s);
        assert!(!rig.ffb_killed());
        for t in threads {
            t.stop();
        }
    }

    #[test]
    fn candidates_list_force_feedback_devices_once_and_the_automatic_choice() {
        let s = Settings::default();
        let c = candidates_among(&s, &[pedals(), g29(true), g29(true), unknown_wheel()]);
        let names: Vec<&str> = c.devices.iter().map(|(_, n)| n.as_str()).collect();
        assert_eq!(
            names,
            ["Logitech G29 (PS3 mode)", "Some Wheel"],
            "no pedals, no twice"
        );
        let (device, backend) = c.automatic.expect("a wheel is there");
        assert_eq!((device.vendor_id, device.product_id), G29);
        assert!(backend.starts_with("evdev"), "{backend}");
        assert_eq!(candidates_among(&s, &[pedals()]), FfbCandidates::default());
    }

    #[test]
    fn the_summary_says_what_the_driver_did_with_the_range() {
        use gripline_input::ffb::sysfs_range::RangeError;
        assert_eq!(
            rotation_note(Ok(900), 900),
            ", 900° range set in the driver"
        );
        assert!(rotation_note(Ok(900), 1080).contains("limits the range to 900°"));
        assert_eq!(
            rotation_note(Err(RangeError::Unsupported("/sys/x".into())), 900),
            ""
        );
        let denied = RangeError::Io {
            path: "/sys/class/input/event7/device/device/range".into(),
            source: std::io::Error::from(std::io::ErrorKind::PermissionDenied),
        };
        assert!(rotation_note(Err(denied), 900).starts_with(", range not set ("));
    }
}

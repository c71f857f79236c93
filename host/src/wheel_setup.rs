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

use gripline_config::Settings;
use gripline_devices::evdev_input::EvdevDeviceInfo;
use gripline_devices::ffb::open::{OpenRequest, ff_node, open_backend};
use gripline_input::ffb::device_facts::FfbDeviceFacts;
use gripline_input::ffb::safety::SafetyConfig;
use gripline_input::ffb::select::{
    BackendDecision, Platform, SelectionInput, backend_name, choose_backend,
};
use gripline_input::ffb::writer::{FfbWriter, WriterConfig, WriterControl};
use gripline_input::known_wheels::{self, FfbBackendKind, KnownWheel};
use gripline_input::settings::bindings::{AxisControl, Bindings};
use gripline_input::settings::device_identity::{DeviceIdentity, DeviceMatch};
use gripline_input::settings::ffb_settings::{FfbBackendChoice, FfbSettings};

use gripline_devices::device_thread::{DeviceThread, ForwardedDevice};
use gripline_sim::realtime::rig::{FfbLink, Rig};

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

/// The force-feedback facts of `identity` (peak, invert, rotation) under `ffb` with the
/// steering binding's rotation from `bindings`: how an opened device gets them, and how the
/// settings screen previews edited ones, so that a test plays what Apply will.
pub fn device_facts(
    bindings: &Bindings,
    ffb: &FfbSettings,
    identity: &DeviceIdentity,
) -> FfbDeviceFacts {
    FfbDeviceFacts::resolve(ffb, identity, steering_rotation(bindings, identity))
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
    // The writer's watchdog and fade-in: the same timing (and the same 100 ms cap) as the
    // sim-side safety gate.
    let writer = match FfbWriter::spawn(
        backend,
        WriterConfig {
            rate_hz: planned.rate_hz,
            name: WRITER_THREAD.to_owned(),
            ..WriterConfig::with_safety(SafetyConfig::from_settings(ffb))
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
    let facts = device_facts(&settings.bindings, ffb, &planned.identity);
    let range = match (
        planned.decision.kind,
        &planned.evdev_node,
        planned.rotation_deg,
    ) {
        (FfbBackendKind::EvdevConstant, Some(node), Some(degrees)) => rotation_note(
            gripline_devices::ffb::sysfs_range::set_range(
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
    result: Result<u16, gripline_devices::ffb::sysfs_range::RangeError>,
    asked: u16,
) -> String {
    use gripline_devices::ffb::sysfs_range::RangeError;
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
    let scan = gripline_devices::evdev_input::linux::list_devices();
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
    use gripline_devices::evdev_input::backend::EvdevSelection;
    use gripline_devices::evdev_input::linux::linux_backend;
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
mod tests;

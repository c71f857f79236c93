//! `gripline devices`: lists the input devices the gilrs backend sees and, on Linux, the
//! game controllers in `/dev/input` read through evdev (which also finds pedal boxes and
//! handbrakes gilrs drops), with their identity, the known-wheel match, force-feedback
//! capabilities and the backend Gripline would choose, and their axes and buttons with live
//! values; `--watch` redraws every 100 ms.
//!
//! Without devices, or when a backend cannot start (no udev in a container, no `/dev/input`,
//! no permission to the event nodes), it says so and succeeds: having no wheel is not an
//! error.

use std::fmt::Write as _;
use std::io::{IsTerminal as _, Write as _};
use std::time::{Duration, Instant};

use anyhow::Result;
use gripline_devices::evdev_input::EvdevDeviceInfo;
use gripline_devices::gilrs_backend::{DeviceListing, GilrsBackend};
use gripline_host::wheel_setup;
use gripline_input::device::InputBackend as _;
use gripline_input::ffb::select::{BackendDecision, backend_name};
use gripline_input::known_wheels::{self, KnownWheel};
use gripline_input::settings::ffb_settings::FfbBackendChoice;

use crate::cli::{DevicesArgs, KnownFormat};

/// The line printed when there is nothing to list.
pub const NO_DEVICES: &str = "no input devices found";

/// How often `--watch` polls and redraws.
const REFRESH: Duration = Duration::from_millis(100);

/// One evdev game controller with its current values.
#[derive(Clone, Debug, PartialEq)]
pub struct EvdevListing {
    /// What the device is.
    pub info: EvdevDeviceInfo,
    /// Current raw value of each axis, in `info.axes` order.
    pub values: Vec<i32>,
    /// Buttons held down.
    pub pressed: Vec<u16>,
}

/// What evdev found (plain data, so the text is testable anywhere).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EvdevReport {
    /// Whether evdev exists here (Linux with a `/dev/input`).
    pub available: bool,
    /// Game controllers.
    pub devices: Vec<EvdevListing>,
    /// Event nodes that could not be opened.
    pub unreadable: usize,
}

#[cfg(target_os = "linux")]
mod evdev_side {
    use gripline_devices::evdev_input::backend::{EvdevBackend, EvdevSelection};
    use gripline_devices::evdev_input::linux::{LinuxEnumerator, linux_backend, list_devices};
    use gripline_input::device::InputBackend as _;

    use super::{Duration, EvdevListing, EvdevReport};

    /// The evdev backend and what the first look at `/dev/input` found.
    pub struct Evdev {
        backend: EvdevBackend<LinuxEnumerator>,
        available: bool,
        unreadable: usize,
    }

    impl Evdev {
        pub fn start() -> Self {
            let scan = list_devices();
            Self {
                backend: linux_backend(EvdevSelection::All),
                available: scan.input_dir_exists,
                unreadable: scan.unreadable.len(),
            }
        }

        pub fn poll(&mut self, now: Duration) {
            let mut events = Vec::new();
            self.backend.poll(now, &mut events);
        }

        pub fn report(&self) -> EvdevReport {
            let devices = self
                .backend
                .devices()
                .map(|(id, info)| EvdevListing {
                    values: info
                        .axes
                        .iter()
                        .map(|a| self.backend.axis_value(id, a.code).unwrap_or(a.value))
                        .collect(),
                    pressed: info
                        .buttons
                        .iter()
                        .copied()
                        .filter(|&b| self.backend.button_down(id, b) == Some(true))
                        .collect(),
                    info: info.clone(),
                })
                .collect();
            EvdevReport {
                available: self.available,
                devices,
                unreadable: self.unreadable,
            }
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod evdev_side {
    use super::{Duration, EvdevReport};

    /// No evdev outside Linux.
    pub struct Evdev;

    impl Evdev {
        pub fn start() -> Self {
            Self
        }
        pub fn poll(&mut self, _now: Duration) {}
        pub fn report(&self) -> EvdevReport {
            EvdevReport::default()
        }
    }
}

/// The known-wheel table in `format` (see [`crate::cli::DevicesArgs::known`]).
pub fn known_table(format: KnownFormat) -> String {
    let rows = gripline_input::known_wheels::listing::known_rows();
    match format {
        KnownFormat::Csv => {
            let mut out =
                String::from("vid,pid,model,shared,assumed_peak_nm,backend,rotation_deg\n");
            for r in &rows {
                let model = if r.model.contains([',', '"']) {
                    format!("\"{}\"", r.model.replace('"', "\"\""))
                } else {
                    r.model.to_owned()
                };
                let _ = writeln!(
                    out,
                    "{:04x},{:04x},{model},{},{},{},{}",
                    r.vendor_id,
                    r.product_id,
                    r.shared,
                    r.assumed_peak_nm,
                    r.backend.short_name(),
                    r.rotation_deg
                );
            }
            out
        }
        KnownFormat::Json => {
            let rows: Vec<serde_json::Value> = rows
                .iter()
                .map(|r| {
                    serde_json::json!({
                        "vid": format!("{:04x}", r.vendor_id),
                        "pid": format!("{:04x}", r.product_id),
                        "model": r.model,
                        "shared": r.shared,
                        "assumed_peak_nm": r.assumed_peak_nm,
                        "backend": r.backend.short_name(),
                        "rotation_deg": r.rotation_deg,
                    })
                })
                .collect();
            let mut text = serde_json::to_string_pretty(&rows).unwrap_or_else(|_| "[]".into());
            text.push('\n');
            text
        }
    }
}

/// Runs `gripline devices`.
pub fn run(args: &DevicesArgs) -> Result<()> {
    if args.known {
        print!("{}", known_table(args.format));
        return Ok(());
    }
    let (mut gilrs, gilrs_error) = match GilrsBackend::new() {
        Ok(backend) => (Some(backend), None),
        Err(error) => (None, Some(error.to_string())),
    };
    let mut evdev = evdev_side::Evdev::start();
    let start = Instant::now();
    let mut events = Vec::new();
    let mut poll = |gilrs: &mut Option<GilrsBackend>, evdev: &mut evdev_side::Evdev| {
        events.clear();
        if let Some(g) = gilrs.as_mut() {
            g.poll(start.elapsed(), &mut events);
        }
        evdev.poll(start.elapsed());
    };
    let text = |gilrs: &Option<GilrsBackend>, evdev: &evdev_side::Evdev| {
        let listed = gilrs
            .as_ref()
            .map(GilrsBackend::devices)
            .unwrap_or_default();
        render_report(&listed, gilrs_error.as_deref(), &evdev.report())
    };
    poll(&mut gilrs, &mut evdev);
    if !args.watch {
        print!("{}", text(&gilrs, &evdev));
        return Ok(());
    }
    let limit = args
        .seconds
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(Duration::from_secs_f64);
    let terminal = std::io::stdout().is_terminal();
    loop {
        poll(&mut gilrs, &mut evdev);
        let mut stdout = std::io::stdout().lock();
        if terminal {
            // Clear the screen and home the cursor.
            write!(stdout, "\x1b[2J\x1b[H")?;
        } else {
            writeln!(stdout, "--- {:.1} s", start.elapsed().as_secs_f64())?;
        }
        write!(stdout, "{}", text(&gilrs, &evdev))?;
        stdout.flush()?;
        drop(stdout);
        if limit.is_some_and(|limit| start.elapsed() >= limit) {
            return Ok(());
        }
        std::thread::sleep(REFRESH);
    }
}

/// The whole report: gilrs devices, evdev devices, notes on what could not be read, and
/// [`NO_DEVICES`] when neither backend found anything.
pub fn render_report(
    gilrs: &[DeviceListing],
    gilrs_error: Option<&str>,
    evdev: &EvdevReport,
) -> String {
    let mut s = String::new();
    if let Some(error) = gilrs_error {
        let _ = writeln!(s, "gilrs input backend unavailable: {error}");
    }
    if !gilrs.is_empty() {
        s.push_str(&render_with(gilrs, evdev));
    }
    for d in &evdev.devices {
        s.push_str(&render_evdev(d));
    }
    if cfg!(target_os = "linux") {
        if !evdev.available {
            let _ = writeln!(
                s,
                "evdev: /dev/input does not exist (no input devices on this machine)"
            );
        } else if evdev.unreadable > 0 {
            let _ = writeln!(
                s,
                "evdev: {} event node(s) could not be opened (no permission: join the `input` \
                 group or install a udev rule for your wheel)",
                evdev.unreadable
            );
        }
    }
    if gilrs.is_empty() && evdev.devices.is_empty() {
        let _ = writeln!(s, "{NO_DEVICES}");
    }
    s
}

fn render_with(devices: &[DeviceListing], evdev: &EvdevReport) -> String {
    let mut s = String::new();
    for d in devices {
        let _ = writeln!(
            s,
            "{}{}",
            d.identity,
            if d.connected { "" } else { " (disconnected)" }
        );
        // The same wheel's evdev node, if evdev sees it, tells whether FF_CONSTANT exists.
        let evdev_constant = evdev.devices.iter().any(|e| {
            e.info.vendor_id == d.identity.vendor_id
                && e.info.product_id == d.identity.product_id
                && e.info.ff.constant
        });
        let _ = writeln!(s, "  {}", wheel_line(d.known_wheel, evdev_constant));
        let _ = writeln!(
            s,
            "  gilrs force feedback: {}",
            if d.gilrs_ff {
                "rumble only (not used for steering torque)"
            } else {
                "none"
            }
        );
        let _ = write!(s, "  axes ({}):", d.axes.len());
        for a in &d.axes {
            let _ = write!(s, " {:#x}={:+.4}", a.code, a.value);
        }
        let _ = writeln!(s);
        let _ = write!(s, "  buttons ({}):", d.buttons.len());
        for b in &d.buttons {
            let _ = write!(
                s,
                " {:#x}={}",
                b.code,
                if b.pressed { "down" } else { "up" }
            );
        }
        let _ = writeln!(s);
    }
    s
}

/// One evdev device: identity and node, known wheel, FF capabilities and chosen backend,
/// axes (code, value and range; codes as the bindings use them) and buttons.
fn render_evdev(d: &EvdevListing) -> String {
    let info = &d.info;
    let mut s = String::new();
    let _ = writeln!(s, "{} (evdev {})", info.identity(), info.path);
    let wheel = known_wheels::lookup(info.vendor_id, info.product_id);
    let _ = writeln!(s, "  {}", wheel_line(wheel, info.ff.constant));
    let _ = writeln!(s, "  evdev force feedback: {}", info.ff.describe());
    let _ = write!(s, "  axes ({}):", info.axes.len());
    for (a, value) in info.axes.iter().zip(&d.values) {
        let range = a.range();
        let _ = write!(
            s,
            " {:#x}={value} [{}..{}]",
            gripline_devices::evdev_input::native_code(
                gripline_devices::evdev_input::EV_ABS,
                a.code
            ),
            range.min,
            range.max
        );
    }
    let _ = writeln!(s);
    let _ = write!(s, "  buttons ({}):", info.buttons.len());
    for &b in &info.buttons {
        let _ = write!(
            s,
            " {:#x}={}",
            gripline_devices::evdev_input::native_code(gripline_devices::evdev_input::EV_KEY, b),
            if d.pressed.contains(&b) { "down" } else { "up" }
        );
    }
    let _ = writeln!(s);
    s
}

/// The backend Gripline would choose with automatic settings.
fn decide(wheel: Option<&KnownWheel>, evdev_constant: bool) -> BackendDecision {
    wheel_setup::decide(wheel, evdev_constant, FfbBackendChoice::Auto)
}

/// The known-wheel model and the FFB backend Gripline would use on this OS.
fn wheel_line(wheel: Option<&KnownWheel>, evdev_constant: bool) -> String {
    let decision = decide(wheel, evdev_constant);
    let backend = format!("{} ({})", backend_name(decision.kind), decision.reason);
    match wheel {
        Some(wheel) => format!(
            "known wheel: {} ({}° rotation); force feedback: {backend}",
            wheel.name, wheel.default_rotation_deg
        ),
        None => format!("not a known wheel; force feedback: {backend}"),
    }
}

#[cfg(test)]
mod tests {
    use gripline_devices::evdev_input::{EvdevAxis, FfCapabilities};
    use gripline_devices::gilrs_backend::{AxisState, ButtonState};
    use gripline_input::device::DeviceId;
    use gripline_input::known_wheels;
    use gripline_input::settings::device_identity::DeviceIdentity;

    use super::*;

    fn g29_gilrs() -> DeviceListing {
        DeviceListing {
            device: DeviceId(0),
            identity: DeviceIdentity::new(0x046d, 0xc24f, "G29", ""),
            connected: true,
            axes: vec![AxisState {
                code: 0,
                value: -0.5,
            }],
            buttons: vec![ButtonState {
                code: 0x120,
                value: 1.0,
                pressed: true,
            }],
            gilrs_ff: false,
            known_wheel: known_wheels::lookup(0x046d, 0xc24f),
        }
    }

    fn g29_evdev() -> EvdevListing {
        EvdevListing {
            info: EvdevDeviceInfo {
                path: "/dev/input/event7".to_owned(),
                name: "G29".to_owned(),
                phys: "usb-1/input0".to_owned(),
                vendor_id: 0x046d,
                product_id: 0xc24f,
                axes: vec![EvdevAxis {
                    code: 0,
                    value: 0,
                    min: 0,
                    max: 65535,
                    fuzz: 0,
                    flat: 0,
                }],
                buttons: vec![0x120, 0x121],
                ff: FfCapabilities {
                    constant: true,
                    gain: true,
                    autocenter: true,
                    max_effects: 16,
                    ..FfCapabilities::default()
                },
                ..EvdevDeviceInfo::default()
            },
            values: vec![32768],
            pressed: vec![0x121],
        }
    }

    #[test]
    fn empty_list_says_so() {
        let text = render_report(&[], None, &EvdevReport::default());
        assert!(text.ends_with("no input devices found\n"), "{text}");
        if cfg!(target_os = "linux") {
            assert!(text.contains("/dev/input does not exist"), "{text}");
        }
        let text = render_report(
            &[],
            Some("no udev"),
            &EvdevReport {
                available: true,
                devices: Vec::new(),
                unreadable: 3,
            },
        );
        assert!(text.starts_with("gilrs input backend unavailable: no udev\n"));
        assert!(text.ends_with("no input devices found\n"), "{text}");
        if cfg!(target_os = "linux") {
            assert!(
                text.contains("3 event node(s) could not be opened"),
                "{text}"
            );
        }
    }

    #[test]
    fn a_known_wheel_renders_its_model_backend_and_values() {
        let text = render_report(&[g29_gilrs()], None, &EvdevReport::default());
        assert!(text.starts_with("046d:c24f \"G29\"\n"), "{text}");
        assert!(text.contains("known wheel: "), "{text}");
        assert!(text.contains("0x0=-0.5000"), "{text}");
        assert!(text.contains("0x120=down"), "{text}");
        assert!(!text.contains(NO_DEVICES), "{text}");
        // Without an evdev node offering FF_CONSTANT: the table's raw HID protocol.
        assert!(text.contains("Logitech classic over raw HID"), "{text}");
    }

    #[test]
    fn evdev_devices_show_node_ff_backend_and_values() {
        let evdev = EvdevReport {
            available: true,
            devices: vec![g29_evdev()],
            unreadable: 0,
        };
        let text = render_report(&[g29_gilrs()], None, &evdev);
        let evdev_part = &text[text.find("(evdev /dev/input/event7)").expect(&text)..];
        assert!(
            text.contains("046d:c24f \"G29\" [usb-1/input0] (evdev /dev/input/event7)\n"),
            "{text}"
        );
        assert!(
            evdev_part
                .contains("evdev force feedback: FF_CONSTANT FF_GAIN FF_AUTOCENTER (16 effects)"),
            "{text}"
        );
        assert!(
            evdev_part.contains("axes (1): 0x30000=32768 [0..65535]"),
            "{text}"
        );
        assert!(
            evdev_part.contains("buttons (2): 0x10120=up 0x10121=down"),
            "{text}"
        );
        if cfg!(target_os = "linux") {
            // Both listings of the wheel now choose evdev.
            assert_eq!(
                text.matches("evdev FF_CONSTANT (kernel driver)").count(),
                2,
                "{text}"
            );
        }
        // An evdev-only device (a handbrake) is enough to not say "no devices".
        let text = render_report(&[], None, &evdev);
        assert!(!text.contains(NO_DEVICES), "{text}");
    }
}

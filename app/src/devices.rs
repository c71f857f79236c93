//! `gripline devices`: lists the input devices the gilrs backend sees, with their identity,
//! the known-wheel match and the force-feedback backend Gripline would use, and their axes and
//! buttons with live values; `--watch` redraws every 100 ms.
//!
//! Without devices, or when the backend cannot start (no udev in a container), it says so and
//! succeeds: having no wheel is not an error.

use std::fmt::Write as _;
use std::io::{IsTerminal as _, Write as _};
use std::time::{Duration, Instant};

use anyhow::Result;
use gripline_input::device::InputBackend as _;
use gripline_input::gilrs_backend::{DeviceListing, GilrsBackend};
use gripline_input::known_wheels::{FfbBackendKind, KnownWheel};

use crate::cli::DevicesArgs;

/// The line printed when there is nothing to list.
pub const NO_DEVICES: &str = "no input devices found";

/// How often `--watch` polls and redraws.
const REFRESH: Duration = Duration::from_millis(100);

/// Runs `gripline devices`.
pub fn run(args: &DevicesArgs) -> Result<()> {
    let mut backend = match GilrsBackend::new() {
        Ok(backend) => backend,
        Err(error) => {
            println!("input backend unavailable: {error}");
            println!("{NO_DEVICES}");
            return Ok(());
        }
    };
    let start = Instant::now();
    let mut events = Vec::new();
    backend.poll(start.elapsed(), &mut events);
    if !args.watch {
        print!("{}", render(&backend.devices()));
        return Ok(());
    }
    let limit = args
        .seconds
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(Duration::from_secs_f64);
    let terminal = std::io::stdout().is_terminal();
    loop {
        events.clear();
        backend.poll(start.elapsed(), &mut events);
        let mut stdout = std::io::stdout().lock();
        if terminal {
            // Clear the screen and home the cursor.
            write!(stdout, "\x1b[2J\x1b[H")?;
        } else {
            writeln!(stdout, "--- {:.1} s", start.elapsed().as_secs_f64())?;
        }
        write!(stdout, "{}", render(&backend.devices()))?;
        stdout.flush()?;
        drop(stdout);
        if limit.is_some_and(|limit| start.elapsed() >= limit) {
            return Ok(());
        }
        std::thread::sleep(REFRESH);
    }
}

/// The text table of `devices`; [`NO_DEVICES`] when there are none.
pub fn render(devices: &[DeviceListing]) -> String {
    if devices.is_empty() {
        return format!("{NO_DEVICES}\n");
    }
    let mut s = String::new();
    for d in devices {
        let _ = writeln!(
            s,
            "{}{}",
            d.identity,
            if d.connected { "" } else { " (disconnected)" }
        );
        let _ = writeln!(s, "  {}", wheel_line(d.known_wheel));
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

/// The known-wheel model and the FFB backend Gripline would use on this OS.
fn wheel_line(wheel: Option<&KnownWheel>) -> String {
    let Some(wheel) = wheel else {
        return "not a known wheel; force feedback: none".to_owned();
    };
    let backend = if cfg!(target_os = "linux") {
        wheel.linux_backend()
    } else {
        wheel.backend
    };
    format!(
        "known wheel: {} ({}° rotation); force feedback: {}",
        wheel.name,
        wheel.default_rotation_deg,
        backend_name(backend)
    )
}

fn backend_name(kind: FfbBackendKind) -> &'static str {
    match kind {
        FfbBackendKind::EvdevConstant => "evdev FF_CONSTANT (kernel driver)",
        FfbBackendKind::LogitechClassic => "Logitech classic over raw HID",
        FfbBackendKind::HidPid => "HID PID over raw HID",
        FfbBackendKind::None => "none in this mode",
    }
}

#[cfg(test)]
mod tests {
    use gripline_config::device_identity::DeviceIdentity;
    use gripline_input::device::DeviceId;
    use gripline_input::gilrs_backend::{AxisState, ButtonState};
    use gripline_input::known_wheels;

    use super::*;

    #[test]
    fn empty_list_says_so() {
        assert_eq!(render(&[]), "no input devices found\n");
    }

    #[test]
    fn a_known_wheel_renders_its_model_backend_and_values() {
        let text = render(&[DeviceListing {
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
        }]);
        assert!(text.starts_with("046d:c24f \"G29\"\n"), "{text}");
        assert!(text.contains("known wheel: "), "{text}");
        assert!(text.contains("0x0=-0.5000"), "{text}");
        assert!(text.contains("0x120=down"), "{text}");
        if cfg!(target_os = "linux") {
            assert!(text.contains("evdev FF_CONSTANT"), "{text}");
        }
    }
}

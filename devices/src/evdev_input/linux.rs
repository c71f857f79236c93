//! The real evdev devices (Linux): [`LinuxEnumerator`] lists `/dev/input/event*` and opens
//! nodes non-blocking through the `evdev` crate's safe API; [`LinuxSource`] reads them.
//! [`list_devices`] describes every game controller for `gripline devices`.
//!
//! Reading needs read access to the event nodes: members of the `input` group, or a udev
//! `uaccess` rule for the wheel (`docs/force-feedback-protocols.md` sections 1.2 and 6).

use std::fs::OpenOptions;
use std::io;
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::Path;

use evdev::raw_stream::RawDevice;
use evdev::{FFEffectCode, PropType};

use crate::evdev_input::backend::{EvdevBackend, EvdevSelection};
use crate::evdev_input::source::{EvdevEnumerator, EvdevSource, RawEvent};
use crate::evdev_input::{EvdevAxis, EvdevDeviceInfo, FfCapabilities};

/// Where event nodes live.
pub const INPUT_DIR: &str = "/dev/input";

/// Reads per poll and device before giving the others a turn (each read takes up to the
/// crate's batch of events).
const MAX_READS_PER_POLL: usize = 16;

/// An opened event node.
#[derive(Debug)]
pub struct LinuxSource {
    device: RawDevice,
}

impl EvdevSource for LinuxSource {
    fn read(&mut self, out: &mut Vec<RawEvent>) -> io::Result<()> {
        for _ in 0..MAX_READS_PER_POLL {
            let before = out.len();
            match self.device.fetch_events() {
                Ok(events) => {
                    out.extend(
                        events.map(|e| RawEvent::new(e.event_type().0, e.code(), e.value())),
                    );
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(()),
                Err(e) => return Err(e),
            }
            if out.len() == before {
                return Ok(());
            }
        }
        Ok(())
    }

    fn abs_values(&mut self) -> io::Result<Vec<(u16, i32)>> {
        Ok(self
            .device
            .get_absinfo()?
            .map(|(code, info)| (code.0, info.value()))
            .collect())
    }

    fn pressed_keys(&mut self) -> io::Result<Vec<u16>> {
        Ok(self.device.get_key_state()?.iter().map(|k| k.0).collect())
    }
}

/// Describes an opened device.
///
/// # Errors
/// The `EVIOCGABS` error.
pub fn describe(path: &str, device: &RawDevice) -> io::Result<EvdevDeviceInfo> {
    let id = device.input_id();
    let mut axes: Vec<EvdevAxis> = device
        .get_absinfo()?
        .map(|(code, info)| EvdevAxis {
            code: code.0,
            value: info.value(),
            min: info.minimum(),
            max: info.maximum(),
            fuzz: info.fuzz(),
            flat: info.flat(),
        })
        .collect();
    axes.sort_by_key(|a| a.code);
    let mut buttons: Vec<u16> = device
        .supported_keys()
        .map(|keys| keys.iter().map(|k| k.0).collect())
        .unwrap_or_default();
    buttons.sort_unstable();
    let ff = device.supported_ff();
    let has = |code: FFEffectCode| ff.is_some_and(|s| s.contains(code));
    Ok(EvdevDeviceInfo {
        path: path.to_owned(),
        name: device.name().unwrap_or_default().to_owned(),
        phys: device.physical_path().unwrap_or_default().to_owned(),
        uniq: device.unique_name().unwrap_or_default().to_owned(),
        vendor_id: id.vendor(),
        product_id: id.product(),
        axes,
        buttons,
        ff: FfCapabilities {
            constant: has(FFEffectCode::FF_CONSTANT),
            periodic: has(FFEffectCode::FF_PERIODIC),
            rumble: has(FFEffectCode::FF_RUMBLE),
            condition: has(FFEffectCode::FF_SPRING)
                || has(FFEffectCode::FF_DAMPER)
                || has(FFEffectCode::FF_FRICTION)
                || has(FFEffectCode::FF_INERTIA),
            gain: has(FFEffectCode::FF_GAIN),
            autocenter: has(FFEffectCode::FF_AUTOCENTER),
            max_effects: if ff.is_some() {
                device.max_ff_effects()
            } else {
                0
            },
        },
        accelerometer: device.properties().contains(PropType::ACCELEROMETER),
    })
}

/// Opens an event node read-only and non-blocking.
///
/// # Errors
/// The open error.
pub fn open_nonblocking(path: &Path) -> io::Result<RawDevice> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    RawDevice::try_from(file)
}

/// The event nodes of `/dev/input`.
#[derive(Clone, Copy, Debug, Default)]
pub struct LinuxEnumerator;

impl EvdevEnumerator for LinuxEnumerator {
    type Source = LinuxSource;

    fn nodes(&mut self) -> Vec<String> {
        let Ok(dir) = std::fs::read_dir(INPUT_DIR) else {
            return Vec::new();
        };
        let mut nodes: Vec<String> = dir
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().starts_with("event"))
            .map(|e| e.path().to_string_lossy().into_owned())
            .collect();
        nodes.sort();
        nodes
    }

    fn open(&mut self, path: &str) -> io::Result<(EvdevDeviceInfo, LinuxSource)> {
        let device = open_nonblocking(Path::new(path))?;
        let info = describe(path, &device)?;
        Ok((info, LinuxSource { device }))
    }
}

/// The evdev backend over the real `/dev/input`.
pub fn linux_backend(selection: EvdevSelection) -> EvdevBackend<LinuxEnumerator> {
    EvdevBackend::new(LinuxEnumerator, selection)
}

/// What `gripline devices` shows about `/dev/input`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EvdevScan {
    /// Game controllers that could be opened, by node.
    pub devices: Vec<EvdevDeviceInfo>,
    /// Event nodes that exist but could not be opened (usually: no permission).
    pub unreadable: Vec<String>,
    /// Whether `/dev/input` exists at all.
    pub input_dir_exists: bool,
}

/// Lists every game controller in `/dev/input` (see [`EvdevDeviceInfo::is_game_controller`])
/// and the nodes that could not be opened.
pub fn list_devices() -> EvdevScan {
    let mut scan = EvdevScan {
        input_dir_exists: Path::new(INPUT_DIR).is_dir(),
        ..EvdevScan::default()
    };
    let mut enumerator = LinuxEnumerator;
    for path in enumerator.nodes() {
        match enumerator.open(&path) {
            Ok((info, _)) if info.is_game_controller() => scan.devices.push(info),
            Ok(_) => {}
            Err(_) => scan.unreadable.push(path),
        }
    }
    scan
}

#[cfg(test)]
mod tests {
    use super::*;
    use gripline_input::device::InputBackend as _;
    use std::time::Duration;

    #[test]
    fn works_or_finds_nothing_without_hardware() {
        // CI has no /dev/input (or no permission): no panic, consistent answers.
        let scan = list_devices();
        if !scan.input_dir_exists {
            assert!(scan.devices.is_empty() && scan.unreadable.is_empty());
        }
        let mut backend = linux_backend(EvdevSelection::All);
        let mut out = Vec::new();
        backend.poll(Duration::ZERO, &mut out);
        backend.poll(Duration::from_millis(1), &mut out);
        assert!(open_nonblocking(Path::new("/nonexistent/event0")).is_err());
    }
}

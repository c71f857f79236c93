//! The wheel's rotation range written to its kernel driver, so that the hardware's own end
//! stops sit where Gripline's calibration expects them.
//!
//! lg4ff (in-tree and new-lg4ff), hid-tmff2 and hid-fanatecff expose a writable `range`
//! attribute (degrees, lock to lock) on the HID device; the event node
//! `/dev/input/eventN` reaches it as `/sys/class/input/eventN/device/device/range`
//! (`eventN` → its input device → the HID device). The root of the sysfs tree is a parameter
//! so that tests build a fake tree. The value written is read back, and the caller learns
//! what the wheel really does.
//!
//! The drivers treat values outside a wheel's limits differently, so the value is clamped to
//! the wheel's documented limits ([`range_limits`], by the input device's `id/vendor` and
//! `id/product` next to the event node) before it is written:
//! - lg4ff (new-lg4ff `hid-lg4ff.c` `lg4ff_range_store`, read for issue 10) **ignores** a
//!   value outside 40..=900 (DFP, G25, DFGT, G27, G29, G923) and has no range command for the
//!   DF-EX and MOMO (fixed 270°): an unclamped 1080 would leave the old range in place;
//! - hid-fanatecff (`hid-ftecff.c` `ftec_range_store`, limits in `hid-ftec.c`) ignores a
//!   value outside 90..=1090 (1090 meaning "auto"), 90..=900 on the `ClubSport` V2 and V2.5, CSR
//!   Elite and 911 bases, 90..=2530 (2530 "auto") on the CSL DD and Podium DD1/DD2;
//!   Gripline's limits stop at the real 1080 and 2520;
//! - hid-tmff2 (`t300rs_set_range`, `t248_set_range`, `tx_set_range`) clamps itself to
//!   40..=1080 (T300RS, TS-PC, TS-XW) or 140..=900 (T248, TX);
//! - hid-logitech-hidpp (G920, G923 Xbox) clamps to 180..=900
//!   (`docs/force-feedback-protocols.md`, section 2.11).
//!
//! A wheel not in that list is written unclamped and the read-back says what happened.

use std::io;
use std::path::{Path, PathBuf};

/// Why the range could not be set.
#[derive(Debug, thiserror::Error)]
pub enum RangeError {
    /// The node is not an event node, or its driver has no `range` attribute (hid-pidff,
    /// HID++ wheels): nothing to do.
    #[error("the wheel's driver offers no rotation range ({0})")]
    Unsupported(PathBuf),
    /// The attribute exists but this user may not write it (a udev rule for the wheel makes
    /// it writable, e.g. `MODE="0666"` on the HID device's `range`).
    #[error("no permission to write {0} (a udev rule for the wheel makes it writable)")]
    PermissionDenied(PathBuf),
    /// The attribute exists but could not be written or read.
    #[error("{path}: {source}")]
    Io {
        /// The attribute.
        path: PathBuf,
        /// What failed.
        source: io::Error,
    },
    /// The driver answered something that is not a number of degrees.
    #[error("{path}: unexpected contents {contents:?}")]
    Garbled {
        /// The attribute.
        path: PathBuf,
        /// What it held.
        contents: String,
    },
}

/// The `range` attribute of the wheel behind event node `event_node`, under `sys_root`
/// (normally `/sys`).
///
/// # Errors
/// [`RangeError::Unsupported`] when `event_node` is no event node or its driver has no
/// `range`.
pub fn range_attribute(sys_root: &Path, event_node: &Path) -> Result<PathBuf, RangeError> {
    let name = event_node
        .file_name()
        .and_then(|n| n.to_str())
        .filter(|n| n.starts_with("event"))
        .ok_or_else(|| RangeError::Unsupported(event_node.to_owned()))?;
    let path = sys_root
        .join("class/input")
        .join(name)
        .join("device/device/range");
    if path.exists() {
        Ok(path)
    } else {
        Err(RangeError::Unsupported(path))
    }
}

/// An I/O error on `path` as a [`RangeError`]: no permission is its own error.
fn classify(path: &Path, source: io::Error) -> RangeError {
    if source.kind() == io::ErrorKind::PermissionDenied {
        RangeError::PermissionDenied(path.to_owned())
    } else {
        RangeError::Io {
            path: path.to_owned(),
            source,
        }
    }
}

/// The rotation limits a kernel driver accepts for one wheel (degrees, lock to lock).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RangeLimits {
    /// Smallest range.
    pub min_deg: u16,
    /// Largest range.
    pub max_deg: u16,
    /// The driver (for messages).
    pub driver: &'static str,
}

impl RangeLimits {
    const fn new(min_deg: u16, max_deg: u16, driver: &'static str) -> Self {
        Self {
            min_deg,
            max_deg,
            driver,
        }
    }

    /// `degrees` within the limits.
    pub fn clamp(&self, degrees: u16) -> u16 {
        degrees.clamp(self.min_deg, self.max_deg)
    }
}

/// The range limits of the wheel with these IDs under its Linux driver (see the module
/// docs), `None` for a wheel whose driver's limits are not known here.
pub fn range_limits(vendor_id: u16, product_id: u16) -> Option<RangeLimits> {
    use gripline_input::known_wheels::{VID_FANATEC, VID_LOGITECH, VID_THRUSTMASTER};
    Some(match (vendor_id, product_id) {
        (VID_LOGITECH, 0xc298 | 0xc299 | 0xc29a | 0xc29b | 0xc24f | 0xc266) => {
            RangeLimits::new(40, 900, "lg4ff")
        }
        (VID_LOGITECH, 0xc294 | 0xc295 | 0xca03 | 0xc29c) => RangeLimits::new(270, 270, "lg4ff"),
        (VID_LOGITECH, 0xc262 | 0xc26e | 0xc26d) => {
            RangeLimits::new(180, 900, "hid-logitech-hidpp")
        }
        (VID_FANATEC, 0x0001 | 0x0004 | 0x0011 | 0x0197) => {
            RangeLimits::new(90, 900, "hid-fanatecff")
        }
        (VID_FANATEC, 0x0006 | 0x0007 | 0x0020) => RangeLimits::new(90, 2520, "hid-fanatecff"),
        (VID_FANATEC, _) => RangeLimits::new(90, 1080, "hid-fanatecff"),
        (VID_THRUSTMASTER, 0xb66e | 0xb66f | 0xb66d | 0xb689 | 0xb692) => {
            RangeLimits::new(40, 1080, "hid-tmff2")
        }
        (VID_THRUSTMASTER, 0xb696 | 0xb669) => RangeLimits::new(140, 900, "hid-tmff2"),
        _ => return None,
    })
}

/// The vendor and product ID of the input device behind `event_node`, from its
/// `id/vendor` and `id/product` attributes (hexadecimal), when readable.
pub fn device_ids(sys_root: &Path, event_node: &Path) -> Option<(u16, u16)> {
    let name = event_node.file_name()?.to_str()?;
    let id = sys_root.join("class/input").join(name).join("device/id");
    let read = |attr: &str| {
        let text = std::fs::read_to_string(id.join(attr)).ok()?;
        u16::from_str_radix(text.trim(), 16).ok()
    };
    Some((read("vendor")?, read("product")?))
}

/// Writes `degrees` (lock to lock), clamped to the wheel's [`range_limits`] when its IDs
/// are known, to the wheel's driver and returns what the driver reports back.
///
/// # Errors
/// [`RangeError`]: no such attribute, no permission, or a garbled answer.
pub fn set_range(sys_root: &Path, event_node: &Path, degrees: u16) -> Result<u16, RangeError> {
    let path = range_attribute(sys_root, event_node)?;
    let degrees = device_ids(sys_root, event_node)
        .and_then(|(vendor, product)| range_limits(vendor, product))
        .map_or(degrees, |limits| limits.clamp(degrees));
    let io = |source: io::Error| classify(&path, source);
    std::fs::write(&path, format!("{degrees}\n")).map_err(io)?;
    let contents = std::fs::read_to_string(&path).map_err(io)?;
    contents
        .trim()
        .parse::<u16>()
        .map_err(|_| RangeError::Garbled {
            path: path.clone(),
            contents,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fake_tree(range: Option<&str>) -> tempfile::TempDir {
        let root = tempfile::tempdir().expect("temp dir");
        let hid = root.path().join("class/input/event7/device/device");
        std::fs::create_dir_all(&hid).expect("dirs");
        if let Some(r) = range {
            std::fs::write(hid.join("range"), r).expect("attribute");
        }
        root
    }

    /// `fake_tree` with the input device's IDs, as sysfs writes them (`%04x`).
    fn wheel_tree(vendor: &str, product: &str) -> tempfile::TempDir {
        let root = fake_tree(Some("900\n"));
        let id = root.path().join("class/input/event7/device/id");
        std::fs::create_dir_all(&id).expect("dirs");
        std::fs::write(id.join("vendor"), format!("{vendor}\n")).expect("vendor");
        std::fs::write(id.join("product"), format!("{product}\n")).expect("product");
        root
    }

    fn written(root: &tempfile::TempDir) -> String {
        std::fs::read_to_string(root.path().join("class/input/event7/device/device/range"))
            .expect("attribute")
    }

    #[test]
    fn the_range_is_clamped_to_the_drivers_limits() {
        let node = Path::new("/dev/input/event7");
        // G29 under lg4ff: 1080 would be ignored by the driver; 900 is sent.
        let g29 = wheel_tree("046d", "c24f");
        assert_eq!(device_ids(g29.path(), node), Some((0x046d, 0xc24f)));
        assert_eq!(set_range(g29.path(), node, 1080).unwrap(), 900);
        assert_eq!(written(&g29), "900\n");
        assert_eq!(set_range(g29.path(), node, 10).unwrap(), 40);
        // CSL DD under hid-fanatecff: up to 2520 (2530 would mean "auto").
        let csl_dd = wheel_tree("0eb7", "0020");
        assert_eq!(set_range(csl_dd.path(), node, 3000).unwrap(), 2520);
        assert_eq!(set_range(csl_dd.path(), node, 2520).unwrap(), 2520);
        // CSL Elite: 1080; ClubSport V2.5: 900.
        assert_eq!(range_limits(0x0eb7, 0x0e03).map(|l| l.max_deg), Some(1080));
        assert_eq!(range_limits(0x0eb7, 0x0004).map(|l| l.max_deg), Some(900));
        // T300RS and T248 under hid-tmff2.
        let t300 = wheel_tree("044f", "b66e");
        assert_eq!(set_range(t300.path(), node, 2520).unwrap(), 1080);
        assert_eq!(
            range_limits(0x044f, 0xb696),
            Some(RangeLimits::new(140, 900, "hid-tmff2"))
        );
        // A MOMO's range is fixed at 270.
        let momo = wheel_tree("046d", "c295");
        assert_eq!(set_range(momo.path(), node, 900).unwrap(), 270);
        // An unknown wheel is written as asked; garbled IDs count as unknown.
        let unknown = wheel_tree("1234", "zzzz");
        assert_eq!(device_ids(unknown.path(), node), None);
        assert_eq!(set_range(unknown.path(), node, 1234).unwrap(), 1234);
        assert_eq!(range_limits(0x1234, 0x5678), None);
    }

    #[test]
    fn io_errors_are_classified() {
        let path = Path::new("/sys/x/range");
        assert!(matches!(
            classify(path, io::Error::from(io::ErrorKind::PermissionDenied)),
            RangeError::PermissionDenied(ref p) if p == path
        ));
        assert!(matches!(
            classify(path, io::Error::from_raw_os_error(5)),
            RangeError::Io { .. }
        ));
    }

    #[cfg(unix)]
    #[test]
    fn permission_denied_is_its_own_error() {
        use std::os::unix::fs::PermissionsExt;
        let root = fake_tree(Some("900\n"));
        let attr = root.path().join("class/input/event7/device/device/range");
        std::fs::set_permissions(&attr, std::fs::Permissions::from_mode(0o444)).unwrap();
        // Root ignores file modes (as in this sandbox): then only `io_errors_are_classified`
        // checks the mapping.
        if std::fs::OpenOptions::new().write(true).open(&attr).is_ok() {
            return;
        }
        let err = set_range(root.path(), Path::new("/dev/input/event7"), 900).unwrap_err();
        assert!(
            matches!(err, RangeError::PermissionDenied(ref p) if *p == attr),
            "{err}"
        );
        assert!(err.to_string().contains("udev"));
    }

    #[test]
    fn writes_and_reads_back_the_range() {
        let root = fake_tree(Some("900\n"));
        let node = Path::new("/dev/input/event7");
        assert_eq!(set_range(root.path(), node, 540).unwrap(), 540);
        let written =
            std::fs::read_to_string(root.path().join("class/input/event7/device/device/range"))
                .unwrap();
        assert_eq!(written, "540\n");
    }

    #[test]
    fn drivers_without_range_and_bad_nodes_are_clear_errors() {
        let root = fake_tree(None);
        assert!(matches!(
            set_range(root.path(), Path::new("/dev/input/event7"), 900),
            Err(RangeError::Unsupported(_))
        ));
        assert!(matches!(
            set_range(root.path(), Path::new("/dev/hidraw3"), 900),
            Err(RangeError::Unsupported(_))
        ));
        assert!(matches!(
            set_range(root.path(), Path::new("/"), 900),
            Err(RangeError::Unsupported(_))
        ));
    }

    #[test]
    fn an_unwritable_attribute_is_an_error_not_a_panic() {
        // An attribute that is a directory cannot be written: an I/O error.
        let root = fake_tree(None);
        std::fs::create_dir_all(root.path().join("class/input/event7/device/device/range"))
            .unwrap();
        assert!(matches!(
            set_range(root.path(), Path::new("/dev/input/event7"), 900),
            Err(RangeError::Io { .. })
        ));
    }
}

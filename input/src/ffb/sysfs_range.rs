//! The wheel's rotation range written to its kernel driver, so that the hardware's own end
//! stops sit where Gripline's calibration expects them.
//!
//! lg4ff (in-tree and new-lg4ff), hid-tmff2 and hid-fanatecff expose a writable `range`
//! attribute (degrees, lock to lock) on the HID device; the event node
//! `/dev/input/eventN` reaches it as `/sys/class/input/eventN/device/device/range`
//! (`eventN` → its input device → the HID device). The root of the sysfs tree is a parameter
//! so that tests build a fake tree. The value written is read back: a driver clamps to what
//! the wheel supports (lg4ff: 40..900 on a G29; the Thrustmaster and Fanatec drivers up to
//! 1080 or more), and the caller learns what the wheel really does.

use std::io;
use std::path::{Path, PathBuf};

/// Why the range could not be set.
#[derive(Debug, thiserror::Error)]
pub enum RangeError {
    /// The node is not an event node, or its driver has no `range` attribute (hid-pidff,
    /// HID++ wheels): nothing to do.
    #[error("the wheel's driver offers no rotation range ({0})")]
    Unsupported(PathBuf),
    /// The attribute exists but could not be written or read (permissions: a udev rule for
    /// the wheel makes it writable).
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

/// Writes `degrees` (lock to lock) to the wheel's driver and returns what the driver
/// reports back (it may clamp).
///
/// # Errors
/// [`RangeError`]: no such attribute, no permission, or a garbled answer.
pub fn set_range(sys_root: &Path, event_node: &Path, degrees: u16) -> Result<u16, RangeError> {
    let path = range_attribute(sys_root, event_node)?;
    let io = |source| RangeError::Io {
        path: path.clone(),
        source,
    };
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

//! Errors of the renderer: no adapter, no device, bad sizes, read-back and PNG failures.

use std::path::PathBuf;

/// Why the renderer could not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// No graphics adapter was found (no GPU driver, and no software adapter either).
    #[error(
        "no graphics adapter found ({detail}); install a Vulkan driver or Mesa's lavapipe \
         (e.g. `apt install mesa-vulkan-drivers`), or set GRIPLINE_ADAPTER=software"
    )]
    NoAdapter {
        /// What wgpu said.
        detail: String,
    },
    /// The adapter refused to create a device.
    #[error("the graphics adapter '{adapter}' could not create a device: {detail}")]
    NoDevice {
        /// Name of the adapter.
        adapter: String,
        /// What wgpu said.
        detail: String,
    },
    /// A frame size is zero or larger than the device allows.
    #[error("frame size {width}x{height} is not supported (1 to {max} pixels per side)")]
    BadSize {
        /// Requested width (pixels).
        width: u32,
        /// Requested height (pixels).
        height: u32,
        /// The device's largest 2D texture side.
        max: u32,
    },
    /// An input value is not usable (non-finite pose, unknown camera name...).
    #[error("invalid input: {0}")]
    Invalid(String),
    /// Waiting for the GPU or mapping the read-back buffer failed.
    #[error("reading the frame back from the GPU failed: {0}")]
    Readback(String),
    /// Writing or reading a PNG file failed.
    #[error("PNG file {path}: {detail}")]
    Png {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        detail: String,
    },
}

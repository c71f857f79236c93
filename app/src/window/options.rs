//! The window's options and their sources: the command line over the saved settings.

use std::path::PathBuf;

use anyhow::{Context as _, Result};
use gripline_config::{Fullscreen, PresentMode as PresentChoice, QualityChoice};
use gripline_physics::powertrain::GearboxMode;
use gripline_render::CameraMode;

use crate::settings_ui::settings_flow;
use crate::settings_ui::settings_flow::SettingsFlow;

/// The latest `--hold-at` (s): an hour of simulated time, as `gripline render --at`.
const MAX_HOLD_AT_S: f64 = 3600.0;

/// How the window starts.
#[derive(Clone, Debug)]
#[allow(clippy::struct_excessive_bools)] // independent start-up switches of the command line
pub struct WindowOptions {
    /// Vehicle name or file.
    pub vehicle: String,
    /// Track name or file.
    pub track: String,
    /// The driver model drives.
    pub autopilot: bool,
    /// Close the window after this long (s).
    pub exit_after_s: Option<f64>,
    /// Save the last frame here before exiting.
    pub screenshot: Option<PathBuf>,
    /// Pause the drive at this simulated time (s) and exit only once it is held there.
    pub hold_at_s: Option<f64>,
    /// Draw the HUD, notices and the pause menu over the scene.
    pub show_hud: bool,
    /// Print the sim-thread and frame timing at exit.
    pub print_stats: bool,
    /// Show the force-feedback graph from the start.
    pub show_ffb_graph: bool,
    /// Inner size of the window (pixels).
    pub size_px: [u32; 2],
    /// Start fullscreen (borderless).
    pub fullscreen: bool,
    /// Present mode.
    pub present: PresentChoice,
    /// Frames in flight (1–3).
    pub frame_latency: u32,
    /// Vertical field of view (deg).
    pub fov_deg: f64,
    /// MSAA samples (1, 2, 4 or 8; reduced to what the adapter supports).
    pub msaa_samples: u32,
    /// The rendering quality tier, or automatic.
    pub quality: QualityChoice,
    /// The camera at start.
    pub camera: CameraMode,
    /// Gearbox mode at start (automatic suits a keyboard; H-pattern needs a shifter).
    pub gearbox: GearboxMode,
    /// A message to show when the window opens (problems with the settings files).
    pub startup_notice: Option<String>,
    /// Open the settings screen on this tab at start.
    pub settings_tab: Option<settings_flow::Tab>,
    /// Telemetry out (nothing by default).
    pub telemetry: gripline_sim::telemetry_out::TelemetryTargets,
    /// A replay to open in the viewer at start.
    pub replay: Option<PathBuf>,
    /// The set-up file the car starts in.
    pub setup: Option<PathBuf>,
    /// Open the lap analysis at start.
    pub lap_analysis: bool,
}

impl From<crate::cli::CameraArg> for CameraMode {
    fn from(arg: crate::cli::CameraArg) -> Self {
        use crate::cli::CameraArg;
        match arg {
            CameraArg::Chase => Self::Chase,
            CameraArg::Cockpit => Self::Cockpit,
            CameraArg::Bonnet => Self::Bonnet,
            CameraArg::Orbit => Self::Orbit,
        }
    }
}

/// Parses `WxH` (e.g. `1280x720`).
///
/// # Errors
/// Anything else, or a side outside 320–16384 (width) or 200–16384 (height).
pub fn parse_size(text: &str) -> Result<[u32; 2]> {
    let (w, h) = text
        .split_once(['x', 'X'])
        .with_context(|| format!("window size '{text}' is not WIDTHxHEIGHT, e.g. 1280x720"))?;
    let w: u32 = w
        .trim()
        .parse()
        .with_context(|| format!("window width '{w}' is not a whole number"))?;
    let h: u32 = h
        .trim()
        .parse()
        .with_context(|| format!("window height '{h}' is not a whole number"))?;
    anyhow::ensure!(
        (320..=16384).contains(&w) && (200..=16384).contains(&h),
        "window size {w}x{h} is outside 320x200 to 16384x16384"
    );
    Ok([w, h])
}

/// The window's options from the command line (the saved settings fill in the rest), and the
/// settings flow over the settings as loaded.
///
/// # Errors
/// A bad `--size`, `--exit-after` or telemetry destination.
pub fn from_args(args: &crate::cli::WindowArgs) -> Result<(WindowOptions, SettingsFlow)> {
    if let Some(s) = args.exit_after {
        anyhow::ensure!(
            s.is_finite() && s >= 0.0,
            "--exit-after must be a number of seconds ≥ 0, got {s}"
        );
    }
    if let Some(s) = args.hold_at {
        anyhow::ensure!(
            s.is_finite() && (0.0..=MAX_HOLD_AT_S).contains(&s),
            "--hold-at must be between 0 and {MAX_HOLD_AT_S} seconds, got {s}"
        );
    }
    // The user's settings: never fatal. A broken file is kept beside, the defaults used,
    // and the problem printed here and shown in the window.
    let (settings, store, messages) = crate::saved_settings::load_saved_settings();
    let g = &settings.graphics;
    let size_px = match &args.size {
        Some(text) => parse_size(text)?,
        None => [g.width, g.height],
    };
    let options = WindowOptions {
        vehicle: args
            .vehicle
            .clone()
            .unwrap_or_else(|| settings.session.vehicle_id.clone()),
        track: args
            .track
            .clone()
            .unwrap_or_else(|| settings.session.track_id.clone()),
        autopilot: args.autopilot,
        exit_after_s: args.exit_after,
        screenshot: args.screenshot.clone(),
        hold_at_s: args.hold_at,
        show_hud: !args.no_hud,
        print_stats: args.stats,
        show_ffb_graph: args.ffb_graph,
        size_px,
        fullscreen: g.fullscreen != Fullscreen::Windowed && args.size.is_none(),
        present: g.present_mode,
        frame_latency: g.frame_latency,
        fov_deg: g.fov_deg,
        msaa_samples: g.msaa_samples,
        quality: args.quality.map_or(g.quality, Into::into),
        camera: args.camera.map_or(
            match g.camera {
                gripline_config::CameraView::Chase => CameraMode::Chase,
                gripline_config::CameraView::Cockpit => CameraMode::Cockpit,
                gripline_config::CameraView::Bonnet => CameraMode::Bonnet,
            },
            Into::into,
        ),
        gearbox: settings.session.gearbox_mode,
        settings_tab: args.settings.map(settings_tab),
        telemetry: args.telemetry.targets()?,
        replay: args.replay.clone(),
        setup: args.setup.clone(),
        lap_analysis: args.lap_analysis,
        startup_notice: messages.first().map(|first| {
            if messages.len() > 1 {
                format!(
                    "{first} (and {} more: see the terminal)",
                    messages.len() - 1
                )
            } else {
                first.clone()
            }
        }),
    };
    Ok((options, SettingsFlow::new(settings, store)))
}

fn settings_tab(arg: crate::cli::SettingsTabArg) -> settings_flow::Tab {
    use crate::cli::SettingsTabArg as A;
    match arg {
        A::Controls => settings_flow::Tab::Controls,
        A::Ffb => settings_flow::Tab::ForceFeedback,
        A::Car => settings_flow::Tab::Extra(0),
        A::Graphics => settings_flow::Tab::Extra(1),
        A::Sound => settings_flow::Tab::Extra(2),
        A::Telemetry => settings_flow::Tab::Extra(3),
        A::Garage => settings_flow::Tab::Extra(4),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_sizes_parse_and_bad_ones_are_refused() {
        assert_eq!(parse_size("1280x720").unwrap(), [1280, 720]);
        assert_eq!(parse_size("1920X1080").unwrap(), [1920, 1080]);
        assert!(parse_size("1280").is_err());
        assert!(parse_size("0x720").is_err());
        assert!(parse_size("axb").is_err());
        assert!(parse_size("100000x720").is_err());
    }
}

//! Starting the window: the options and settings from the command line, the drive started
//! before anything opens (a wrong name is an error on the terminal, not a window), the event
//! loop, and the figures printed at exit.

use anyhow::{Context as _, Result};
use gripline_host::drive::{Drive, DriveRequest};
use gripline_sim::telemetry_out::TelemetryTargets;
use winit::event_loop::{ControlFlow, EventLoop};

use super::app_state::{App, ExitReport};
use super::options::{self, WindowOptions};
use super::replay_state::ReplayMode;
use super::shown::Shown;
use crate::settings_ui::settings_flow::SettingsFlow;

/// Runs the window as the command line and the saved settings say.
///
/// # Errors
/// A bad option, and everything [`run`] fails on.
pub fn run_from_args(args: &crate::cli::WindowArgs) -> Result<()> {
    let (options, flow) = options::from_args(args)?;
    run(options, flow)
}

/// Runs the simulator window until the user quits or `--exit-after` elapses.
///
/// # Errors
/// Loading the car or track, starting the sim thread, creating the window or the GPU
/// device, or writing the screenshot.
pub fn run(options: WindowOptions, flow: SettingsFlow) -> Result<()> {
    // Load before opening anything: a wrong name is an error on the terminal, not a window.
    let request = DriveRequest {
        vehicle: options.vehicle.clone(),
        track: options.track.clone(),
        setup: options.setup.clone(),
        autopilot: options.autopilot,
        gearbox: options.gearbox,
        telemetry: Some(options.telemetry).filter(TelemetryTargets::any),
        data_dir: flow.data_dir(),
        hold_at_s: options.hold_at_s,
    };
    let (drive, keyboard, loaded) = Drive::start(&request, &flow.settings)?;
    let shown = Shown::with_model_now(&loaded)
        .context("the simulator window needs a track (not the endless flat plane)")?;
    let mut flow = flow;
    flow.current = (loaded.vehicle.clone(), loaded.track.clone());

    let event_loop =
        EventLoop::new().context("opening the display (is DISPLAY or WAYLAND_DISPLAY set?)")?;
    event_loop.set_control_flow(ControlFlow::Wait);
    let mut app = App {
        options,
        shown,
        keyboard,
        drive,
        running: None,
        error: None,
        report: ExitReport::default(),
        stats_text: None,
        flow,
        loading: None,
        lap_analysis_open: false,
        replay: ReplayMode::default(),
    };
    event_loop
        .run_app(&mut app)
        .context("running the window's event loop")?;
    app.shutdown();
    if let Some(error) = app.error.take() {
        return Err(error);
    }
    println!(
        "distance driven: {:.1} m in {:.2} s simulated",
        app.report.distance_m, app.report.simulated_s
    );
    if let Some(text) = app.stats_text.take() {
        println!("{text}");
    }
    Ok(())
}

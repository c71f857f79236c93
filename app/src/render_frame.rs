//! `gripline render`: one frame without a window, on any adapter (the software one
//! included), written as PNG. `--at` lets the autopilot drive that long first, on the same
//! session code the window runs.

use anyhow::{Context as _, Result, bail};
use gripline_render::{
    AdapterChoice, Camera, FrameInput, GpuContext, OffscreenRenderer, RenderSettings, SpinAngles,
    VehiclePose, VehicleVisual,
};

use crate::cli::RenderArgs;
use gripline_sim::session::Session;

/// Longest drive before the frame (s): an hour of simulated time.
const MAX_AT_S: f64 = 3600.0;

/// Runs `gripline render`.
///
/// # Errors
/// Bad arguments, the car or track failing to load, no graphics adapter, or the PNG not
/// written.
pub fn run(args: &RenderArgs) -> Result<()> {
    if !(args.at.is_finite() && (0.0..=MAX_AT_S).contains(&args.at)) {
        bail!(
            "--at must be between 0 and {MAX_AT_S} seconds, got {}",
            args.at
        );
    }
    if args.width == 0 || args.height == 0 || args.width > 8192 || args.height > 8192 {
        bail!(
            "--width and --height must be between 1 and 8192, got {}x{}",
            args.width,
            args.height
        );
    }
    let mut session = Session::load(&args.vehicle, &args.track)
        .with_context(|| format!("loading {} on {}", args.vehicle, args.track))?;
    let track = session
        .world()
        .track()
        .map(|t| t.mesh.clone())
        .context("rendering needs a track (not the endless flat plane)")?;
    let visual = VehicleVisual::from_params(session.vehicle().params());

    let mut spin = SpinAngles::default();
    let ticks = session.ticks_in(args.at);
    if ticks > 0 && !session.has_autopilot() {
        bail!("--at needs the autopilot, and this track has no closed centre line to follow");
    }
    for _ in 0..ticks {
        let controls = session.autopilot_controls().unwrap_or_default();
        // A car upside down, stuck or out of the world is recovered by the step itself.
        session.step(&controls);
        spin.advance(session.snapshot(), session.step_s());
    }
    let snapshot = session.snapshot();
    let pose = VehiclePose::from_snapshot(snapshot, &spin);
    let mut camera = Camera::new(args.camera.into());
    if let Some(fov) = args.fov {
        camera.fov_deg = fov;
    }
    camera.update(&pose, 0.0);

    let gpu =
        GpuContext::headless(AdapterChoice::from_env()).context("choosing a graphics adapter")?;
    eprintln!("gripline: rendering on {}", gpu.describe());
    let settings = RenderSettings {
        msaa_samples: args.msaa,
        ..RenderSettings::default()
    };
    let mut renderer =
        OffscreenRenderer::new(gpu, &settings, &track, &visual, args.width, args.height)
            .context("preparing the offscreen renderer")?;
    let frame = FrameInput::new(&pose, &camera, &visual, args.width, args.height);
    let image = renderer
        .render_frame(&frame)
        .context("rendering the frame")?;
    image
        .write_png(&args.out)
        .with_context(|| format!("writing {}", args.out.display()))?;
    println!(
        "{}: {}x{} {:?} camera, t = {:.3} s, speed {:.1} km/h",
        args.out.display(),
        args.width,
        args.height,
        args.camera,
        snapshot.time_s,
        snapshot.speed_m_per_s * 3.6
    );
    Ok(())
}

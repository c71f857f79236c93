//! `gripline render`: one frame without a window, on any adapter (the software one
//! included), written as PNG. `--at` lets the autopilot drive that long first, on the same
//! session code the window runs. The frame is what the window draws (HUD aside): the same
//! world (the track's TORCS scenery where it has one, the roadside otherwise, the car),
//! built by [`crate::scene_world`] at the same quality tier.

use anyhow::{Context as _, Result, bail};
use gripline_host::drive::LoadedDrive;
use gripline_render::offscreen::OFFSCREEN_FORMAT;
use gripline_render::{
    AdapterChoice, Camera, FrameInput, GpuContext, OffscreenRenderer, SpinAngles, VehiclePose,
};

use crate::car_model_load::car_look;
use crate::cli::RenderArgs;
use crate::scene_world::{SceneWorld, build_scene, describe, describe_car, render_settings};
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
    let graphics = graphics_of(args);
    let mut session = Session::load(&args.vehicle, &args.track)
        .with_context(|| format!("loading {} on {}", args.vehicle, args.track))?;
    // What the window draws of this car and track, its scenery included.
    let loaded = LoadedDrive::of(&session, &args.vehicle, &args.track);
    let track = loaded
        .track_mesh
        .as_ref()
        .context("rendering needs a track (not the endless flat plane)")?;
    let (visual, model) = car_look(&args.vehicle, &loaded.params);

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
    camera.fov_deg = graphics.fov_deg;
    camera.update(&pose, 0.0);

    let gpu =
        GpuContext::headless(AdapterChoice::from_env()).context("choosing a graphics adapter")?;
    eprintln!("gripline: rendering on {}", gpu.describe());
    let (settings, tier) = render_settings(&gpu, graphics.quality, graphics.msaa_samples);
    let world = SceneWorld {
        track_mesh: track,
        track_scene: loaded.track_scene.as_deref(),
        visual: &visual,
        car_model: model.as_ref(),
    };
    let scene = build_scene(&gpu, OFFSCREEN_FORMAT, &settings, &world);
    let drew = describe(&scene, &world);
    let car = describe_car(&scene, &world);
    let mut renderer = OffscreenRenderer::with_scene(gpu, scene, args.width, args.height)
        .context("preparing the offscreen renderer")?;
    let frame = FrameInput::new(&pose, &camera, &visual, args.width, args.height);
    let image = renderer
        .render_frame(&frame)
        .context("rendering the frame")?;
    image
        .write_png(&args.out)
        .with_context(|| format!("writing {}", args.out.display()))?;
    println!(
        "{}: {}x{} {:?} camera, t = {:.3} s, speed {:.1} km/h; {car}",
        args.out.display(),
        args.width,
        args.height,
        args.camera,
        snapshot.time_s,
        snapshot.speed_m_per_s * 3.6
    );
    println!(
        "drew {drew}, quality {} ({}x MSAA)",
        tier.name(),
        renderer.scene().sample_count()
    );
    Ok(())
}

/// What `render` draws with: the command line's `--quality`, `--msaa` and `--fov` over the
/// user's saved graphics settings (read as the window reads them; a missing or broken
/// settings file gives the defaults, with a warning line). Prints what it uses, and where
/// each value came from.
fn graphics_of(args: &RenderArgs) -> RenderGraphics {
    let (settings, store, _messages) = crate::saved_settings::load_saved_settings();
    let g = &settings.graphics;
    let from = |flag: bool| if flag { "command line" } else { "settings" };
    let used = RenderGraphics {
        quality: args.quality.map_or(g.quality, Into::into),
        msaa_samples: args.msaa.unwrap_or(g.msaa_samples),
        fov_deg: args.fov.unwrap_or(g.fov_deg),
    };
    println!(
        "settings: quality {:?} ({}), {}x MSAA ({}), field of view {}° ({}); settings file {}",
        used.quality,
        from(args.quality.is_some()),
        used.msaa_samples,
        from(args.msaa.is_some()),
        used.fov_deg,
        from(args.fov.is_some()),
        store.map_or_else(
            || "none (no settings folder)".to_owned(),
            |s| s.settings_path().display().to_string()
        )
    );
    used
}

/// The graphics settings a frame is rendered with.
#[derive(Clone, Copy, Debug, PartialEq)]
struct RenderGraphics {
    /// The quality tier, or automatic.
    quality: gripline_config::QualityChoice,
    /// MSAA samples asked for (capped by the tier and the adapter).
    msaa_samples: u32,
    /// Vertical field of view (deg).
    fov_deg: f64,
}

//! Renders a few views of a car on a track to PNG files, as `gripline render` does:
//!
//! `cargo run -p gripline-render --example render_views -- [TRACK] [VEHICLE] [STATION_M] [OUT_DIR] [WIDTH] [HEIGHT]`
//!
//! Defaults: `circuit corvette-c5 790 . 1280 720`. Writes `view-<camera>.png` for every camera.

use std::path::PathBuf;

use gripline_config::assets;
use gripline_config::track_file::load_track;
use gripline_config::vehicle_file::load_vehicle;
use gripline_render::{
    AdapterChoice, Camera, CameraMode, GpuContext, OffscreenRenderer, RenderSettings, VehiclePose,
    VehicleVisual,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.to_owned());
    let track = load_track(&assets::resolve_track(&arg(0, "circuit"))?)?;
    let params = load_vehicle(&assets::resolve_vehicle(&arg(1, "corvette-c5"))?)?.params;
    let station_m: f64 = arg(2, "790").parse()?;
    let out = PathBuf::from(arg(3, "."));
    let width: u32 = arg(4, "1280").parse()?;
    let height: u32 = arg(5, "720").parse()?;
    let gpu = GpuContext::headless(AdapterChoice::from_env())?;
    eprintln!("adapter: {}", gpu.describe());
    let visual = VehicleVisual::from_params(&params);
    let mut renderer = OffscreenRenderer::new(
        gpu,
        &RenderSettings::default(),
        &track.mesh,
        &visual,
        width,
        height,
    )?;
    let pose = VehiclePose::on_centre_line(&track.mesh, &visual, station_m, 0.0)?
        .with_front_steer(0.06, 15.0);
    for mode in CameraMode::ALL {
        let image = renderer.render(&pose, &Camera::new(mode))?;
        let path = out.join(format!("view-{mode}.png"));
        image.write_png(&path)?;
        eprintln!("wrote {}", path.display());
    }
    Ok(())
}

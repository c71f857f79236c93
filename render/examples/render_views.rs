//! Renders a few views of a car on a track to PNG files, as `gripline render` does:
//!
//! `cargo run -p gripline-render --example render_views -- [TRACK] [VEHICLE] [STATION_M] [OUT_DIR] [WIDTH] [HEIGHT]`
//!
//! Defaults: `circuit corvette-c5 790 . 1280 720`. The place is a station on the centre line
//! (m) or `x,y,heading_deg` (metres east and north, degrees from east; the car stands at the
//! ground's height there). Writes `view-<camera>.png` for every camera.

use std::path::PathBuf;

use glam::DVec3;
use gripline_formats::assets;
use gripline_formats::vehicle_file::load_vehicle;
use gripline_render::{
    AdapterChoice, Camera, CameraMode, GpuContext, OffscreenRenderer, RenderSettings, VehiclePose,
    VehicleVisual,
};
use gripline_torcs::track::load::{load_any_track, resolve_any_track};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.to_owned());
    let track = load_any_track(&resolve_any_track(&arg(0, "circuit"))?)?;
    let params = load_vehicle(&assets::resolve_vehicle(&arg(1, "corvette-c5"))?)?.params;
    let place = arg(2, "790");
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
    let pose = if let Some((x, rest)) = place.split_once(',') {
        let (y, heading) = rest.split_once(',').unwrap_or((rest, "0"));
        let (x, y, heading): (f64, f64, f64) = (x.parse()?, y.parse()?, heading.parse()?);
        let ground = track
            .mesh
            .ground
            .height_below(x, y, 1.0e4)
            .map_or(0.0, |hit| hit.point.z);
        VehiclePose::at_rest(
            &visual,
            DVec3::new(x, y, ground + visual.cg_height_m),
            heading.to_radians(),
        )
    } else {
        VehiclePose::on_centre_line(&track.mesh, &visual, place.parse()?, 0.0)?
    }
    .with_front_steer(0.06, 15.0);
    for mode in CameraMode::ALL {
        let image = renderer.render(&pose, &Camera::new(mode))?;
        let path = out.join(format!("view-{mode}.png"));
        image.write_png(&path)?;
        eprintln!("wrote {}", path.display());
    }
    Ok(())
}

//! The sun: its direction, and its shadow map's projection (an orthographic view of a square
//! around the car, snapped to whole texels).

use glam::{Mat4, Vec3};

/// Half side of the square the shadow map covers around the car (m).
pub(crate) const SHADOW_HALF_EXTENT_M: f32 = 28.0;

/// Unit vector towards the sun (world frame): 38 degrees up, from the azimuth -125 degrees.
pub(crate) fn sun_direction() -> Vec3 {
    let (elevation, azimuth) = (38f32.to_radians(), (-125f32).to_radians());
    Vec3::new(
        elevation.cos() * azimuth.cos(),
        elevation.cos() * azimuth.sin(),
        elevation.sin(),
    )
}

/// The sun's orthographic `clip_from_world` (camera-relative) for a square of
/// `SHADOW_HALF_EXTENT_M` around `centre`, snapped to whole texels so the shadows do not
/// shimmer as the car moves.
pub(crate) fn light_matrix(sun_dir: Vec3, centre: Vec3, shadow_size: u32) -> Mat4 {
    let distance = 150.0;
    let view = glam::camera::rh::view::look_at_mat4(centre + sun_dir * distance, centre, Vec3::Z);
    let half = SHADOW_HALF_EXTENT_M;
    let projection = glam::camera::rh::proj::directx::orthographic(
        -half,
        half,
        -half,
        half,
        1.0,
        2.0 * distance,
    );
    let clip = projection * view;
    // Snap the projected centre to the texel grid.
    let texel = 2.0 / shadow_size.max(1) as f32;
    let c = clip * centre.extend(1.0);
    let snap = Vec3::new(
        (c.x / texel).round() * texel - c.x,
        (c.y / texel).round() * texel - c.y,
        0.0,
    );
    Mat4::from_translation(snap) * clip
}

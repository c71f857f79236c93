//! Cameras: chase, cockpit, bonnet and orbit, and the matrices they give.
//!
//! The view matrix is built in `f64` around the eye, then only its rotation goes to the GPU:
//! every position is made camera-relative (`world - eye`, in `f64`) before it becomes `f32`,
//! so nothing jitters kilometres from the origin. The projection is an infinite reverse-Z
//! perspective (depth 1 at the near plane, 0 at infinity) for a depth buffer precise from
//! the dashboard to the horizon.

use std::f64::consts::{PI, TAU};
use std::fmt;
use std::str::FromStr;

use glam::{DMat4, DQuat, DVec3, Mat4, Vec3, Vec4Swizzles};

use crate::error::RenderError;
use crate::pose::VehiclePose;
use crate::vehicle_visual::VehicleVisual;

/// Where the camera is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CameraMode {
    /// Behind and above the car, following its heading with a little lag.
    #[default]
    Chase,
    /// The driver's eyes, moving with the body.
    Cockpit,
    /// On the bonnet, moving with the body.
    Bonnet,
    /// Around the car at a chosen yaw, pitch and distance.
    Orbit,
}

impl CameraMode {
    /// Every mode, in cycling order.
    pub const ALL: [CameraMode; 4] = [
        CameraMode::Chase,
        CameraMode::Cockpit,
        CameraMode::Bonnet,
        CameraMode::Orbit,
    ];

    /// The next mode in the cycle (chase, cockpit, bonnet, orbit, chase...).
    #[must_use]
    pub fn next(self) -> Self {
        match self {
            CameraMode::Chase => CameraMode::Cockpit,
            CameraMode::Cockpit => CameraMode::Bonnet,
            CameraMode::Bonnet => CameraMode::Orbit,
            CameraMode::Orbit => CameraMode::Chase,
        }
    }

    /// The lower-case name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            CameraMode::Chase => "chase",
            CameraMode::Cockpit => "cockpit",
            CameraMode::Bonnet => "bonnet",
            CameraMode::Orbit => "orbit",
        }
    }
}

impl fmt::Display for CameraMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for CameraMode {
    type Err = RenderError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let name = s.trim().to_ascii_lowercase();
        CameraMode::ALL
            .into_iter()
            .find(|m| m.name() == name)
            .ok_or_else(|| {
                RenderError::Invalid(format!(
                    "unknown camera '{s}' (expected chase, cockpit, bonnet or orbit)"
                ))
            })
    }
}

/// Camera state: mode, field of view, orbit angles and the chase camera's smoothing.
#[derive(Clone, Debug, PartialEq)]
pub struct Camera {
    /// Current mode.
    pub mode: CameraMode,
    /// Vertical field of view (deg), clamped to 20..=120 when used.
    pub fov_deg: f64,
    /// Orbit: angle around the car from its nose, counter-clockwise seen from above (deg).
    pub orbit_yaw_deg: f64,
    /// Orbit: elevation above the horizon (deg), clamped to -5..=85.
    pub orbit_pitch_deg: f64,
    /// Orbit: distance from the CG (m), clamped to 2..=100.
    pub orbit_distance_m: f64,
    /// Chase: distance behind the CG (m).
    pub chase_distance_m: f64,
    /// Chase: eye height above the CG (m).
    pub chase_height_m: f64,
    /// Chase: how fast the camera's heading follows the car's (1/s); larger is stiffer.
    pub chase_stiffness_per_s: f64,
    /// Chase: the smoothed heading (rad), `None` until the first update (then it snaps).
    chase_heading_rad: Option<f64>,
}

impl Default for Camera {
    fn default() -> Self {
        Self::new(CameraMode::Chase)
    }
}

/// Where a camera is and where it looks, for one frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CameraView {
    /// The eye, world frame (m).
    pub eye_world: DVec3,
    /// `world_from_view`: view x right, y up, looking along -z (right-handed, as glam's
    /// `look_at_rh`).
    pub world_from_view: DQuat,
    /// Vertical field of view (rad).
    pub fov_y_rad: f64,
    /// Near plane distance (m).
    pub near_m: f64,
}

impl CameraView {
    /// `view_from_world` in `f64`, eye included.
    pub fn view_from_world(&self) -> DMat4 {
        DMat4::from_rotation_translation(self.world_from_view, self.eye_world).inverse()
    }

    /// `view_from_world` for positions already made relative to the eye: the rotation only.
    pub fn view_from_world_relative(&self) -> Mat4 {
        Mat4::from_quat(self.world_from_view.inverse().as_quat())
    }

    /// Infinite reverse-Z perspective projection for `aspect` = width / height (clamped to a
    /// sane range).
    pub fn projection(&self, aspect: f64) -> Mat4 {
        let aspect = if aspect.is_finite() {
            aspect.clamp(0.05, 20.0)
        } else {
            1.0
        };
        #[allow(clippy::cast_possible_truncation)]
        glam::camera::rh::proj::directx::perspective_infinite_reverse(
            self.fov_y_rad as f32,
            aspect as f32,
            self.near_m as f32,
        )
    }

    /// `clip_from_world` for eye-relative positions (what the GPU gets).
    pub fn clip_from_world_relative(&self, aspect: f64) -> Mat4 {
        self.projection(aspect) * self.view_from_world_relative()
    }

    /// Normalised device coordinates of a world point (x right, y up, both -1..1 on screen;
    /// z the reverse-Z depth), or `None` when it is behind the eye.
    pub fn project(&self, point_world: DVec3, aspect: f64) -> Option<Vec3> {
        #[allow(clippy::cast_possible_truncation)]
        let relative = (point_world - self.eye_world).as_vec3();
        let clip = self.clip_from_world_relative(aspect) * relative.extend(1.0);
        (clip.w > 1e-6).then(|| clip.xyz() / clip.w)
    }

    /// Unit direction the camera looks along (world frame).
    pub fn forward(&self) -> DVec3 {
        self.world_from_view * -DVec3::Z
    }
}

impl Camera {
    /// A camera in `mode` with default settings (60 degree field of view, chase 6.5 m behind
    /// and 1.6 m above, orbit at the front-left three-quarter view).
    pub fn new(mode: CameraMode) -> Self {
        Self {
            mode,
            fov_deg: 60.0,
            orbit_yaw_deg: 35.0,
            orbit_pitch_deg: 14.0,
            orbit_distance_m: 7.0,
            chase_distance_m: 6.5,
            chase_height_m: 1.25,
            chase_stiffness_per_s: 6.0,
            chase_heading_rad: None,
        }
    }

    /// Switches to the next mode (and resets the chase smoothing).
    pub fn cycle(&mut self) {
        self.mode = self.mode.next();
        self.chase_heading_rad = None;
    }

    /// Forgets the chase camera's lag: the next frame looks straight along the car.
    pub fn reset_smoothing(&mut self) {
        self.chase_heading_rad = None;
    }

    /// Advances the chase camera's smoothing by `dt_s` seconds towards the car's heading.
    /// The first call (or a non-finite input) snaps.
    pub fn update(&mut self, pose: &VehiclePose, dt_s: f64) {
        let target = heading_of(pose.orientation);
        let stiffness = if self.chase_stiffness_per_s.is_finite() {
            self.chase_stiffness_per_s.max(0.0)
        } else {
            0.0
        };
        self.chase_heading_rad = match self.chase_heading_rad {
            Some(current) if dt_s.is_finite() && dt_s >= 0.0 && current.is_finite() => {
                let error = wrap_pi(target - current);
                let blend = 1.0 - (-stiffness * dt_s.min(1.0)).exp();
                Some(wrap_pi(current + error * blend))
            }
            _ => Some(target),
        };
    }

    /// The point the chase camera looks at: ahead of the CG, a little above it (m, world).
    pub fn chase_target(pose: &VehiclePose, visual: &VehicleVisual, heading_rad: f64) -> DVec3 {
        let forward = DVec3::new(heading_rad.cos(), heading_rad.sin(), 0.0);
        pose.position + forward * (0.35 * visual.length_m) + DVec3::Z * (0.55 * visual.height_m)
    }

    /// The view for this frame.
    pub fn view(&self, pose: &VehiclePose, visual: &VehicleVisual) -> CameraView {
        let fov_deg = if self.fov_deg.is_finite() {
            self.fov_deg.clamp(20.0, 120.0)
        } else {
            60.0
        };
        let fov_y_rad = fov_deg.to_radians();
        let body = pose.orientation;
        let (eye_world, world_from_view, near_m) = match self.mode {
            CameraMode::Chase => {
                let heading = self
                    .chase_heading_rad
                    .filter(|h| h.is_finite())
                    .unwrap_or_else(|| heading_of(body));
                let forward = DVec3::new(heading.cos(), heading.sin(), 0.0);
                let distance = finite_or(self.chase_distance_m, 6.5).clamp(1.0, 100.0);
                let height = finite_or(self.chase_height_m, 1.25).clamp(-1.0, 50.0);
                let eye = pose.position - forward * distance + DVec3::Z * height;
                let target = Self::chase_target(pose, visual, heading);
                (eye, look_rotation(target - eye, DVec3::Z), 0.1)
            }
            CameraMode::Cockpit => {
                let eye = pose.position + body * visual.driver_eye_body();
                let pitch = DQuat::from_rotation_y(5f64.to_radians());
                (eye, body * pitch * body_view_basis(), 0.03)
            }
            CameraMode::Bonnet => {
                let eye_body = DVec3::new(
                    visual.axle_x_m(0) - 0.15 * visual.wheelbase_m,
                    0.0,
                    crate::car_mesh::belt_z_m(visual) + 0.16,
                );
                let pitch = DQuat::from_rotation_y(3f64.to_radians());
                (
                    pose.position + body * eye_body,
                    body * pitch * body_view_basis(),
                    0.05,
                )
            }
            CameraMode::Orbit => {
                let yaw = heading_of(body) + finite_or(self.orbit_yaw_deg, 35.0).to_radians();
                let pitch = finite_or(self.orbit_pitch_deg, 14.0)
                    .clamp(-5.0, 85.0)
                    .to_radians();
                let distance = finite_or(self.orbit_distance_m, 7.0).clamp(2.0, 100.0);
                let offset = DVec3::new(
                    pitch.cos() * yaw.cos(),
                    pitch.cos() * yaw.sin(),
                    pitch.sin(),
                ) * distance;
                let target = pose.position + DVec3::Z * (0.2 * visual.height_m);
                let eye = target + offset;
                (eye, look_rotation(target - eye, DVec3::Z), 0.1)
            }
        };
        CameraView {
            eye_world,
            world_from_view,
            fov_y_rad,
            near_m,
        }
    }
}

fn finite_or(v: f64, fallback: f64) -> f64 {
    if v.is_finite() { v } else { fallback }
}

/// Heading (rad, counter-clockwise from +x) of the body's x axis projected on the ground.
fn heading_of(orientation: DQuat) -> f64 {
    let x = orientation * DVec3::X;
    if x.x.abs() + x.y.abs() < 1e-9 {
        0.0
    } else {
        x.y.atan2(x.x)
    }
}

fn wrap_pi(a: f64) -> f64 {
    (a + PI).rem_euclid(TAU) - PI
}

/// `world_from_view` for a camera looking along `direction` with `up` roughly up.
fn look_rotation(direction: DVec3, up: DVec3) -> DQuat {
    let forward = direction.normalize_or(DVec3::X);
    let right = forward
        .cross(up)
        .normalize_or(DVec3::Y.cross(forward).normalize_or(DVec3::X));
    let true_up = right.cross(forward);
    // View axes: x right, y up, -z forward.
    DQuat::from_mat3(&glam::DMat3::from_cols(right, true_up, -forward))
}

/// `body_from_view` for a camera looking along body +x with body +z up.
fn body_view_basis() -> DQuat {
    // View x (right) = body -y, view y (up) = body z, view -z (forward) = body x.
    DQuat::from_mat3(&glam::DMat3::from_cols(-DVec3::Y, DVec3::Z, -DVec3::X))
}

#[cfg(test)]
mod tests {
    use super::*;
    use gripline_physics::vehicle::VehicleParams;

    fn setup() -> (VehicleVisual, VehiclePose) {
        let v = VehicleVisual::from_params(&VehicleParams::default());
        // Far from the origin, heading north-east, to exercise the camera-relative path.
        let pose = VehiclePose::at_rest(&v, DVec3::new(52_000.0, -31_000.0, 120.0), 0.8);
        (v, pose)
    }

    #[test]
    fn modes_cycle_and_parse() {
        let mut m = CameraMode::Chase;
        for expected in [
            CameraMode::Cockpit,
            CameraMode::Bonnet,
            CameraMode::Orbit,
            CameraMode::Chase,
        ] {
            m = m.next();
            assert_eq!(m, expected);
        }
        for m in CameraMode::ALL {
            assert_eq!(m.name().parse::<CameraMode>().unwrap(), m);
        }
        assert!(" Orbit ".parse::<CameraMode>().is_ok());
        assert!("helicopter".parse::<CameraMode>().is_err());
    }

    #[test]
    fn chase_target_projects_to_the_screen_centre() {
        let (v, pose) = setup();
        let cam = Camera::new(CameraMode::Chase);
        let view = cam.view(&pose, &v);
        let target = Camera::chase_target(&pose, &v, 0.8);
        let ndc = view.project(target, 16.0 / 9.0).expect("in front");
        assert!(ndc.x.abs() < 1e-3 && ndc.y.abs() < 1e-3, "{ndc}");
        assert!(ndc.z > 0.0 && ndc.z < 1.0);
        // The car's CG is on screen, below the centre; the eye is behind the car.
        let cg = view.project(pose.position, 16.0 / 9.0).expect("in front");
        assert!(cg.x.abs() < 1e-3 && cg.y < 0.0 && cg.y > -1.0, "{cg}");
        let behind = pose.position - view.eye_world;
        assert!(behind.dot(DVec3::new(0.8f64.cos(), 0.8f64.sin(), 0.0)) > 5.0);
    }

    #[test]
    fn a_point_behind_the_eye_does_not_project() {
        let (v, pose) = setup();
        let view = Camera::new(CameraMode::Chase).view(&pose, &v);
        assert!(
            view.project(view.eye_world - view.forward() * 5.0, 1.5)
                .is_none()
        );
    }

    #[test]
    fn cockpit_and_bonnet_look_along_the_body() {
        let (v, pose) = setup();
        for mode in [CameraMode::Cockpit, CameraMode::Bonnet] {
            let view = Camera::new(mode).view(&pose, &v);
            let forward = view.forward();
            let body_x = pose.orientation * DVec3::X;
            assert!(forward.dot(body_x) > 0.99, "{mode}");
            assert!(forward.z < 0.0, "{mode} looks slightly down");
            // A point far ahead on the body axis is near the centre, slightly above it.
            let far = view.eye_world + body_x * 100.0;
            let ndc = view.project(far, 1.0).unwrap();
            assert!(
                ndc.x.abs() < 1e-3 && ndc.y > 0.0 && ndc.y < 0.2,
                "{mode}: {ndc}"
            );
        }
    }

    #[test]
    fn orbit_keeps_its_distance_and_looks_at_the_car() {
        let (v, pose) = setup();
        let mut cam = Camera::new(CameraMode::Orbit);
        cam.orbit_yaw_deg = 180.0;
        cam.orbit_distance_m = 9.0;
        let view = cam.view(&pose, &v);
        let target = pose.position + DVec3::Z * (0.2 * v.height_m);
        assert!((view.eye_world.distance(target) - 9.0).abs() < 1e-9);
        let ndc = view.project(target, 1.0).unwrap();
        assert!(ndc.x.abs() < 1e-3 && ndc.y.abs() < 1e-3);
        // Yaw 180 degrees puts the eye behind the car.
        let body_x = pose.orientation * DVec3::X;
        assert!((view.eye_world - pose.position).dot(body_x) < -8.0);
    }

    #[test]
    fn chase_heading_lags_then_converges() {
        let (v, pose) = setup();
        let mut cam = Camera::new(CameraMode::Chase);
        cam.update(&pose, 0.016);
        let turned = VehiclePose::at_rest(&v, pose.position, 0.8 + 1.0);
        cam.update(&turned, 0.016);
        let lagging = cam.view(&turned, &v);
        let car_x = turned.orientation * DVec3::X;
        assert!(
            lagging.forward().dot(car_x) < 0.99,
            "the camera lags behind a sudden turn"
        );
        for _ in 0..300 {
            cam.update(&turned, 0.016);
        }
        let settled = cam.view(&turned, &v);
        let ndc = settled
            .project(Camera::chase_target(&turned, &v, 1.8), 1.0)
            .unwrap();
        assert!(ndc.x.abs() < 1e-3);
        // Broken inputs never produce a broken camera.
        cam.update(&turned, f64::NAN);
        cam.fov_deg = f64::NAN;
        assert!(
            cam.view(&turned, &v)
                .clip_from_world_relative(f64::NAN)
                .is_finite()
        );
    }

    #[test]
    fn the_relative_matrix_agrees_with_the_f64_one() {
        let (v, pose) = setup();
        let view = Camera::new(CameraMode::Orbit).view(&pose, &v);
        let p = pose.position + DVec3::new(1.0, 2.0, 0.5);
        let full = view.view_from_world().transform_point3(p);
        #[allow(clippy::cast_possible_truncation)]
        let rel = view
            .view_from_world_relative()
            .transform_point3((p - view.eye_world).as_vec3());
        assert!((full.as_vec3() - rel).length() < 1e-4);
    }
}

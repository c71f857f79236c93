//! The driver model: follows a path at a planned speed, for headless scenarios and the
//! autopilot.
//!
//! - [`path`]: the line to follow, with stations and a constant-time nearest-point search;
//! - [`speed_profile`]: target speed along the line from grip and braking limits;
//! - [`follower`]: preview (pure-pursuit) steering;
//! - [`speed_control`]: throttle and brake from the speed error.
//!
//! [`DriverModel`] ties them together and produces one [`Controls`] per tick. Gear and clutch
//! are left to the gearbox's automatic mode; a scenario that needs a manual launch scripts it.

pub mod follower;
pub mod path;
pub mod speed_control;
pub mod speed_profile;

use glam::DVec2;

use crate::controls::Controls;
pub use follower::{PreviewSteering, SteeringGeometry};
pub use path::{Path, PathError, Projection};
pub use speed_control::{Pedals, SpeedControlGains, SpeedController};
pub use speed_profile::{SpeedLimits, SpeedProfile};

/// What the driver sees of the car.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DriverView {
    /// Position of the rear axle's centre in the ground plane (m).
    pub rear_axle: DVec2,
    /// Heading (rad) from +x towards +y.
    pub yaw: f64,
    /// Forward speed (m/s).
    pub speed: f64,
    /// The rear axle's sideways speed (m/s, positive to the left): with `speed`, the rear
    /// tyres' slip angle the driver feels as the tail stepping out.
    pub rear_lateral_speed: f64,
}

/// Rear sideslip (rad) from which the driver eases the throttle: beyond the slip angles a
/// road tyre peaks at (3-5 degrees), the tail is stepping out.
pub const SLIDE_ONSET_RAD: f64 = 0.05;

/// Further rear sideslip (rad) over which the driver lifts completely.
pub const SLIDE_LIFT_SPAN_RAD: f64 = 0.05;

/// The share of the throttle a driver keeps at rear sideslip `beta` (rad): all of it below
/// [`SLIDE_ONSET_RAD`], none from [`SLIDE_ONSET_RAD`] + [`SLIDE_LIFT_SPAN_RAD`] on, linear
/// between.
pub fn slide_throttle_share(beta: f64) -> f64 {
    let share = 1.0 - (beta.abs() - SLIDE_ONSET_RAD) / SLIDE_LIFT_SPAN_RAD;
    if share.is_finite() {
        share.clamp(0.0, 1.0)
    } else {
        1.0
    }
}

/// Segments either side of the last answer that [`DriverModel::drive`] searches each tick
/// ([`Path::project_near`]'s `window`).
pub const PROJECTION_WINDOW: usize = 8;

/// How much of the rear axle's sideslip the steering follows (0: the body's heading alone,
/// 1: the rear axle's course, the bicycle model's full counter-steer). Measured with the C5
/// (`sim/tests/it/torcs_laps.rs`, `--scenario laps` on forza): with none it weaves and spins on
/// forza every lap; with all of it, it laps forza but runs 4.7 m wide at aalborg (the wheels
/// off the road); with half, the worst offsets are 2.6 m (forza), 3.5 m (e-track-1) and
/// 3.1 m (aalborg), and forza is lapped with no recovery.
pub const SIDESLIP_FEEDBACK: f64 = 0.5;

/// A path-following driver.
#[derive(Clone, Debug)]
pub struct DriverModel {
    path: Path,
    profile: SpeedProfile,
    steering: PreviewSteering,
    speed_control: SpeedController,
    geometry: SteeringGeometry,
    last: Option<Projection>,
}

impl DriverModel {
    /// A driver for `path` at `profile`'s speeds, steering a car of `geometry`.
    pub fn new(
        path: Path,
        profile: SpeedProfile,
        steering: PreviewSteering,
        gains: SpeedControlGains,
        geometry: SteeringGeometry,
    ) -> Self {
        Self {
            path,
            profile,
            steering,
            speed_control: SpeedController::new(gains),
            geometry,
            last: None,
        }
    }

    /// The path followed.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The speeds planned along the path.
    pub fn profile(&self) -> &SpeedProfile {
        &self.profile
    }

    /// Where the car was on the path at the last call of [`DriverModel::drive`].
    pub fn last_projection(&self) -> Option<Projection> {
        self.last
    }

    /// Forgets where the car was and the speed controller's state, for a car put back at its
    /// start (the next [`DriverModel::drive`] searches the whole path again). Allocates
    /// nothing, so the real-time loop can call it inside a tick.
    pub fn reset(&mut self) {
        self.last = None;
        self.speed_control.reset();
    }

    /// The controls for this tick of `dt` seconds.
    pub fn drive(&mut self, view: &DriverView, dt: f64) -> Controls {
        self.drive_projected(view, dt, None)
    }

    /// [`DriverModel::drive`] with the projection of `view.rear_axle` already at hand:
    /// `known` is `(hint, projection)`, the result of
    /// `project_near(view.rear_axle, hint, PROJECTION_WINDOW)` on this driver's path (a lap
    /// timer on the same line makes it). It is used when `hint` is the segment this driver
    /// would start from, so the controls are the same bits as [`DriverModel::drive`]'s.
    pub fn drive_projected(
        &mut self,
        view: &DriverView,
        dt: f64,
        known: Option<(usize, Projection)>,
    ) -> Controls {
        let projection = match (self.last, known) {
            (Some(last), Some((hint, known))) if hint == last.segment => known,
            (Some(last), _) => {
                self.path
                    .project_near(view.rear_axle, last.segment, PROJECTION_WINDOW)
            }
            (None, _) => self.path.project(view.rear_axle),
        };
        self.last = Some(projection);
        // Steer partly by where the rear axle is going, not only where the body points: with
        // the rear axle's velocity at `beta` to the heading, the bicycle model needs the road
        // wheels at the kinematic angle plus `beta` (`delta = L k + alpha_f - alpha_r`, the
        // rear slip angle being `-beta`). A tail stepping out (beta against the turn) so
        // brings counter-steer at once, which damps the weave the body heading alone builds
        // up at speed (forza at 40-50 s: a growing yaw oscillation, then a spin). Weighted by
        // [`SIDESLIP_FEEDBACK`].
        let sideslip = view.rear_lateral_speed.atan2(view.speed.abs().max(1.0));
        let beta = SIDESLIP_FEEDBACK * sideslip;
        let kinematic_wheel_rad = self.steering.steer(
            &self.path,
            projection.station,
            view.rear_axle,
            view.yaw + beta,
            view.speed,
            &self.geometry,
        );
        let steering_wheel_rad = (kinematic_wheel_rad + beta * self.geometry.steering_ratio).clamp(
            -self.geometry.max_steering_wheel_rad,
            self.geometry.max_steering_wheel_rad,
        );
        // Plan speed a little ahead: the car needs time to respond to the pedals.
        let target = self
            .profile
            .speed_at(projection.station + view.speed.abs() * 0.3);
        let pedals = self.speed_control.update(target, view.speed, dt);
        // The throttle shares the grip with the corner as the plan does (friction circle):
        // full throttle where the corner takes the whole grip would spin the driven wheels.
        // And it eases off when the tail steps out.
        let drive_share = self.profile.drive_share_at(projection.station, view.speed)
            * slide_throttle_share(sideslip);
        Controls {
            steering_wheel_rad,
            throttle: pedals.throttle * drive_share,
            brake: pedals.brake,
            ..Controls::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tail stepping out eases the throttle: all of it to 0.05 rad of rear sideslip
    /// (about 3 degrees, where a road tyre's lateral force nears its peak), half at 0.075 rad,
    /// none from 0.1 rad, either way round.
    #[test]
    fn a_sliding_tail_eases_the_throttle() {
        assert!((slide_throttle_share(0.0) - 1.0).abs() < 1e-12);
        assert!((slide_throttle_share(0.05) - 1.0).abs() < 1e-12);
        assert!((slide_throttle_share(-0.075) - 0.5).abs() < 1e-12);
        assert!(slide_throttle_share(0.1).abs() < 1e-12);
        assert!((slide_throttle_share(f64::NAN) - 1.0).abs() < 1e-12);
    }

    /// A kinematic bicycle with a first-order speed response: the driver must track the
    /// skidpad circle at the planned speed.
    #[test]
    fn drives_a_kinematic_car_around_a_circle() {
        let r = 50.0;
        let path = Path::circle(DVec2::ZERO, r, 720, -std::f64::consts::FRAC_PI_2, true).unwrap();
        let limits = SpeedLimits {
            lateral_accel_m_s2: 4.0,
            ..SpeedLimits::default()
        };
        let profile = SpeedProfile::plan(&path, &limits, 1.0);
        let geometry = SteeringGeometry {
            wheelbase_m: 2.65,
            steering_ratio: 15.0,
            max_steering_wheel_rad: 8.0,
        };
        let mut driver = DriverModel::new(
            path,
            profile,
            PreviewSteering::default(),
            SpeedControlGains::default(),
            geometry,
        );
        // Start on the circle's bottom, heading +x (counter-clockwise lap).
        let (mut p, mut yaw, mut v) = (DVec2::new(0.0, -r), 0.0f64, 0.0f64);
        let dt = 0.001;
        let mut worst_offset = 0.0f64;
        for tick in 0..60_000 {
            let c = driver.drive(
                &DriverView {
                    rear_axle: p,
                    yaw,
                    speed: v,
                    rear_lateral_speed: 0.0,
                },
                dt,
            );
            let delta = c.steering_wheel_rad / geometry.steering_ratio;
            v += (3.0 * c.throttle - 8.0 * c.brake - 0.05 * v) * dt;
            yaw += v * delta.tan() / geometry.wheelbase_m * dt;
            p += DVec2::new(yaw.cos(), yaw.sin()) * v * dt;
            if tick > 20_000 {
                worst_offset = worst_offset.max((p.length() - r).abs());
            }
        }
        let expected_speed = (4.0 * r).sqrt();
        assert!(
            (v - expected_speed).abs() < 0.2,
            "speed {v} vs {expected_speed}"
        );
        // Pure pursuit cuts inside a circle a little: under 0.5 m at this preview.
        assert!(worst_offset < 0.5, "offset {worst_offset}");
    }
}

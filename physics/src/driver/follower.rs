//! Preview steering: pure pursuit of a point ahead on the path.
//!
//! The driver looks `L = max(min_preview_m, speed * preview_time_s)` metres ahead along the
//! path, and steers the rear axle onto the arc that reaches that point (pure pursuit,
//! Coulter 1992): curvature `k = 2 sin(eta) / d`, with `eta` the angle between the heading and
//! the target and `d` the distance to it. The road-wheel angle is the kinematic
//! `atan(wheelbase * k)` plus the understeer a real car needs at speed, `K_us * v^2 * k`
//! (rad per m/s² of lateral acceleration), and the steering-wheel angle is that times the
//! steering ratio.

use glam::DVec2;
use serde::{Deserialize, Serialize};

use super::path::Path;
use crate::validate::{Validate, Validator};

/// Tuning of the preview steering.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PreviewSteering {
    /// Look-ahead time (s).
    pub preview_time_s: f64,
    /// Shortest look-ahead distance (m), used at low speed.
    pub min_preview_m: f64,
    /// Understeer gradient to compensate (rad per m/s² of lateral acceleration).
    pub understeer_rad_per_m_s2: f64,
}

impl Default for PreviewSteering {
    fn default() -> Self {
        Self {
            preview_time_s: 0.6,
            min_preview_m: 6.0,
            understeer_rad_per_m_s2: 0.0,
        }
    }
}

impl Validate for PreviewSteering {
    fn validate(&self, v: &mut Validator) {
        v.positive("preview_time_s", self.preview_time_s);
        v.positive("min_preview_m", self.min_preview_m);
        v.finite("understeer_rad_per_m_s2", self.understeer_rad_per_m_s2);
    }
}

/// What the steering needs to know about the car.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SteeringGeometry {
    /// Wheelbase (m).
    pub wheelbase_m: f64,
    /// Steering-wheel angle per road-wheel angle (-).
    pub steering_ratio: f64,
    /// Largest steering-wheel angle (rad), either way.
    pub max_steering_wheel_rad: f64,
}

impl PreviewSteering {
    /// Steering-wheel angle (rad, positive left) that takes a car whose rear axle is at
    /// `rear_axle` with heading `yaw` (rad, from +x towards +y) at `speed` (m/s) along
    /// `path`, whose projection station is `station`.
    pub fn steer(
        &self,
        path: &Path,
        station: f64,
        rear_axle: DVec2,
        yaw: f64,
        speed: f64,
        car: &SteeringGeometry,
    ) -> f64 {
        let preview = self.min_preview_m.max(speed.abs() * self.preview_time_s);
        let (target, _) = path.point_at(station + preview);
        let to_target = target - rear_axle;
        let distance = to_target.length().max(1e-6);
        let heading = DVec2::new(yaw.cos(), yaw.sin());
        let eta = heading.perp_dot(to_target).atan2(heading.dot(to_target));
        let curvature = 2.0 * eta.sin() / distance;
        let road_wheel = (car.wheelbase_m * curvature).atan()
            + self.understeer_rad_per_m_s2 * speed * speed * curvature;
        (road_wheel * car.steering_ratio)
            .clamp(-car.max_steering_wheel_rad, car.max_steering_wheel_rad)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CAR: SteeringGeometry = SteeringGeometry {
        wheelbase_m: 2.654,
        steering_ratio: 15.0,
        max_steering_wheel_rad: 8.0,
    };

    #[test]
    fn on_a_circle_steers_the_kinematic_angle() {
        let r = 50.0;
        let path = Path::circle(DVec2::ZERO, r, 2000, 0.0, true).unwrap();
        // Rear axle on the circle at angle 0, heading along the tangent (+y): turning left.
        let steering = PreviewSteering::default();
        let wheel = steering.steer(
            &path,
            0.0,
            DVec2::new(r, 0.0),
            std::f64::consts::FRAC_PI_2,
            10.0,
            &CAR,
        );
        let expected = (CAR.wheelbase_m / r).atan() * CAR.steering_ratio;
        assert!(
            (wheel - expected).abs() < 0.01 * expected,
            "{wheel} vs {expected}"
        );
    }

    #[test]
    fn straight_path_steers_back_towards_the_line() {
        let path = Path::new(&[DVec2::ZERO, DVec2::new(1000.0, 0.0)], false).unwrap();
        let s = PreviewSteering::default();
        // One metre left of the line, heading straight: steer right (negative).
        assert!(s.steer(&path, 100.0, DVec2::new(100.0, 1.0), 0.0, 20.0, &CAR) < 0.0);
        assert!(s.steer(&path, 100.0, DVec2::new(100.0, -1.0), 0.0, 20.0, &CAR) > 0.0);
        // On the line: straight ahead.
        assert!(
            s.steer(&path, 100.0, DVec2::new(100.0, 0.0), 0.0, 20.0, &CAR)
                .abs()
                < 1e-12
        );
        // Clamped at the lock.
        let lock = s.steer(
            &path,
            0.0,
            DVec2::new(0.0, 0.0),
            std::f64::consts::PI,
            1.0,
            &CAR,
        );
        assert!(lock.abs() <= CAR.max_steering_wheel_rad);
    }
}

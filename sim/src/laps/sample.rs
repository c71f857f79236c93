//! One sample of a lap: where the car was along the lap and when, what the driver did, and
//! its pose (for the ghost).

use glam::{DQuat, DVec3};
use gripline_physics::vehicle::{GRAVITY, Snapshot};

/// One wheel's pose in a sample.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WheelSample {
    /// Wheel centre, world frame (m).
    pub centre_m: DVec3,
    /// Road-wheel steer angle (rad, positive left).
    pub steer_rad: f64,
    /// Suspension compression from full droop (m).
    pub travel_m: f64,
    /// Rotation angle of the wheel about its axle (rad, in `[0, 2π)`).
    pub spin_angle_rad: f64,
}

/// The car at one instant of a lap.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LapSample {
    /// Time since the lap started (s).
    pub lap_time_s: f64,
    /// Distance along the lap from the start/finish line (m).
    pub station_m: f64,
    /// Position of the CG, world frame (m).
    pub position_m: DVec3,
    /// `world_from_body`.
    pub orientation: DQuat,
    /// Speed (m/s).
    pub speed_m_per_s: f64,
    /// Throttle pedal (0-1).
    pub throttle: f64,
    /// Brake pedal (0-1).
    pub brake: f64,
    /// Steering-wheel angle (rad, positive left).
    pub steering_wheel_rad: f64,
    /// Gear (-1 reverse, 0 neutral).
    pub gear: i8,
    /// Lateral acceleration as an accelerometer reads it (g, positive left).
    pub lateral_g: f64,
    /// Front-left, front-right, rear-left, rear-right.
    pub wheels: [WheelSample; 4],
}

impl LapSample {
    /// The sample of `snapshot` at `lap_time_s` and `station_m`, with the wheels' spin
    /// angles.
    pub fn of(
        snapshot: &Snapshot,
        lap_time_s: f64,
        station_m: f64,
        spin_angles_rad: &[f64; 4],
    ) -> Self {
        Self {
            lap_time_s,
            station_m,
            position_m: snapshot.position,
            orientation: snapshot.orientation,
            speed_m_per_s: snapshot.speed_m_per_s,
            throttle: snapshot.controls.throttle,
            brake: snapshot.controls.brake,
            steering_wheel_rad: snapshot.steering_wheel_rad,
            gear: snapshot.powertrain.gear,
            lateral_g: snapshot.specific_force_body.y / GRAVITY,
            wheels: std::array::from_fn(|i| WheelSample {
                centre_m: snapshot.wheels[i].centre_position,
                steer_rad: snapshot.wheels[i].steer_angle_rad,
                travel_m: snapshot.wheels[i].suspension_travel_m,
                spin_angle_rad: spin_angles_rad[i],
            }),
        }
    }

    /// The sample a fraction `t` (0-1) of the way from `self` to `next`: positions and
    /// figures linear, orientation spherical, the gear and spin of the nearer sample.
    #[must_use]
    pub fn lerp(&self, next: &Self, t: f64) -> Self {
        let t = if t.is_finite() {
            t.clamp(0.0, 1.0)
        } else {
            0.0
        };
        let mix = |a: f64, b: f64| a + (b - a) * t;
        let near = if t < 0.5 { self } else { next };
        Self {
            lap_time_s: mix(self.lap_time_s, next.lap_time_s),
            station_m: mix(self.station_m, next.station_m),
            position_m: self.position_m.lerp(next.position_m, t),
            orientation: self.orientation.slerp(next.orientation, t),
            speed_m_per_s: mix(self.speed_m_per_s, next.speed_m_per_s),
            throttle: mix(self.throttle, next.throttle),
            brake: mix(self.brake, next.brake),
            steering_wheel_rad: mix(self.steering_wheel_rad, next.steering_wheel_rad),
            gear: near.gear,
            lateral_g: mix(self.lateral_g, next.lateral_g),
            wheels: std::array::from_fn(|i| {
                let (a, b) = (&self.wheels[i], &next.wheels[i]);
                WheelSample {
                    centre_m: a.centre_m.lerp(b.centre_m, t),
                    steer_rad: mix(a.steer_rad, b.steer_rad),
                    travel_m: mix(a.travel_m, b.travel_m),
                    spin_angle_rad: near.wheels[i].spin_angle_rad,
                }
            }),
        }
    }
}

//! Aerodynamics: drag at the centre of pressure, downforce (or lift) at each axle.
//!
//! ```text
//! drag      = -0.5 * rho * Cd * A * |v| * v          at the centre of pressure
//! downforce =  0.5 * rho * ClA_axle * vx²  along -z_body   at the axle
//! ```
//!
//! `v` is the velocity of the air relative to the car (still air: the car's velocity, so drag
//! opposes motion in every direction, which also gives a tumbling car a terminal speed);
//! `vx` is its component along the body's x axis.

use glam::{DQuat, DVec3};

use super::params::AeroParams;

/// Where the aerodynamic forces act, in the body frame (origin at the CG).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AeroPoints {
    /// Centre of pressure of the drag (m).
    pub centre_of_pressure: DVec3,
    /// Front axle centre (m).
    pub front_axle: DVec3,
    /// Rear axle centre (m).
    pub rear_axle: DVec3,
}

/// Aerodynamic force and moment about the CG, in the world frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AeroLoads {
    /// Total force (N).
    pub force: DVec3,
    /// Moment about the CG (N·m).
    pub torque: DVec3,
    /// Drag force magnitude (N).
    pub drag_n: f64,
    /// Downforce at the front and rear axles (N, negative for lift).
    pub downforce_n: [f64; 2],
}

impl AeroParams {
    /// `0.5 * rho * Cd * A` (kg/m).
    pub fn drag_factor(&self) -> f64 {
        0.5 * self.air_density_kg_per_m3 * self.drag_coefficient * self.frontal_area_m2
    }

    /// Forces on a body with orientation `world_from_body` moving at `velocity` (world, m/s).
    pub fn loads(&self, points: &AeroPoints, world_from_body: DQuat, velocity: DVec3) -> AeroLoads {
        let speed = velocity.length();
        let drag = velocity * (-self.drag_factor() * speed);
        let vx = world_from_body.inverse().mul_vec3(velocity).x;
        let q = 0.5 * self.air_density_kg_per_m3 * vx * vx;
        let down_front = q * self.downforce_area_front_m2;
        let down_rear = q * self.downforce_area_rear_m2;
        let down_dir = world_from_body.mul_vec3(-DVec3::Z);
        let f_front = down_dir * down_front;
        let f_rear = down_dir * down_rear;
        let arm = |p: DVec3| world_from_body.mul_vec3(p);
        let torque = arm(points.centre_of_pressure).cross(drag)
            + arm(points.front_axle).cross(f_front)
            + arm(points.rear_axle).cross(f_rear);
        AeroLoads {
            force: drag + f_front + f_rear,
            torque,
            drag_n: drag.length(),
            downforce_n: [down_front, down_rear],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vehicle::params::VehicleParams;

    #[test]
    fn drag_and_downforce() {
        let mut a = VehicleParams::default().aero;
        a.downforce_area_front_m2 = 0.3;
        a.downforce_area_rear_m2 = 0.5;
        let points = AeroPoints {
            centre_of_pressure: DVec3::new(0.0, 0.0, 0.05),
            front_axle: DVec3::new(1.3, 0.0, -0.1),
            rear_axle: DVec3::new(-1.35, 0.0, -0.1),
        };
        let v = 30.0;
        let l = a.loads(&points, DQuat::IDENTITY, DVec3::new(v, 0.0, 0.0));
        let drag = 0.5 * 1.225 * 0.29 * 2.0 * v * v;
        assert!((l.force.x + drag).abs() < 1e-9);
        let down = 0.5 * 1.225 * v * v * 0.8;
        assert!((l.force.z + down).abs() < 1e-9);
        assert!((l.downforce_n[1] - 0.5 * 1.225 * v * v * 0.5).abs() < 1e-9);
        // Moments about y: drag 0.05 m above the CG lifts the nose (r x F = (0, -h D, 0)),
        // downforce ahead of the CG pushes it down, behind it lifts it.
        let (f_front, f_rear) = (0.5 * 1.225 * v * v * 0.3, 0.5 * 1.225 * v * v * 0.5);
        let my = -0.05 * drag + 1.3 * f_front - 1.35 * f_rear;
        assert!((l.torque.y - my).abs() < 1e-9);
    }
}

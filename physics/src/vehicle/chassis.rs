//! The chassis as a 6-DOF rigid body: state and semi-implicit Euler integration.
//!
//! The body frame has its origin at the centre of gravity and follows ISO 8855 (x forward,
//! y left, z up); its inertia tensor is diagonal there. One step of length `dt`, with the
//! accelerations from the body's generalised mass ([`BodyMass`]: the plain `F / m` and
//! `I^-1 tau` of a rigid body, or the sprung body's in heave, roll and pitch when the wheels
//! move on their own):
//!
//! ```text
//! (a_b, alpha_b) = accelerations(F_b, tau_b - w_b x I w_b)    (body frame)
//! v     += q a_b * dt                                         (world frame)
//! w_b   += alpha_b * dt                                       (Euler's equations)
//! p     += v * dt                                             (with the new v: semi-implicit)
//! q      = normalise(exp(w * dt) * q)                         (with the new w)
//! ```
//!
//! The rotation is applied as an exact rotation by `w * dt` and the quaternion normalised
//! every step so that it never drifts from unit length.

use glam::{DQuat, DVec3};

use super::body_mass::BodyMass;
use super::params::GRAVITY;

/// Position and orientation of the body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    /// Position of the centre of gravity in the world frame (m).
    pub position: DVec3,
    /// Rotation taking body-frame vectors to the world frame (`world_from_body`).
    pub orientation: DQuat,
}

impl Default for Pose {
    fn default() -> Self {
        Self {
            position: DVec3::ZERO,
            orientation: DQuat::IDENTITY,
        }
    }
}

impl Pose {
    /// A pose at `position` heading `yaw_rad` (counter-clockwise from the world x axis),
    /// level.
    pub fn from_position_yaw(position: DVec3, yaw_rad: f64) -> Self {
        Self {
            position,
            orientation: DQuat::from_rotation_z(yaw_rad),
        }
    }

    /// A body-frame point in the world frame.
    #[inline]
    pub fn world_point(&self, body_point: DVec3) -> DVec3 {
        self.position + self.orientation.mul_vec3(body_point)
    }

    /// [`Pose::world_point`] of each of `body_points`, for the sets of points several parts
    /// of a step look at (the body's contact points: ground and walls).
    pub fn world_points<const N: usize>(&self, body_points: &[DVec3; N]) -> [DVec3; N] {
        body_points.map(|p| self.world_point(p))
    }
}

/// Largest angular speed the integrator keeps (rad/s): a safety net far above anything a car
/// reaches (a car tumbling at 100 km/h turns at about 15 rad/s).
pub const MAX_ANGULAR_SPEED: f64 = 200.0;

/// Largest linear speed the integrator keeps (m/s).
pub const MAX_SPEED: f64 = 1_000.0;

/// The force and the moment about the CG (world frame) a step gathers on the body before
/// [`RigidBody::integrate`] applies them. Each part of the step adds its own share, in the
/// step's fixed order, so the sums come out the same bits every time.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BodyLoads {
    /// Total force (N, world frame).
    pub force: DVec3,
    /// Total moment about the CG (N·m, world frame).
    pub torque: DVec3,
}

impl BodyLoads {
    /// The weight of a body of `mass` (kg), and no moment: what every step starts from.
    pub fn weight(mass: f64) -> Self {
        Self {
            force: DVec3::new(0.0, 0.0, -GRAVITY * mass),
            torque: DVec3::ZERO,
        }
    }

    /// Adds a `force` and a moment `torque` about the CG (world frame).
    #[inline]
    pub fn add(&mut self, force: DVec3, torque: DVec3) {
        self.force += force;
        self.torque += torque;
    }
}

/// Rigid-body state.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RigidBody {
    /// Pose of the CG.
    pub pose: Pose,
    /// Velocity of the CG, world frame (m/s).
    pub velocity: DVec3,
    /// Angular velocity, world frame (rad/s).
    pub angular_velocity: DVec3,
}

impl RigidBody {
    /// Velocity (world frame) of the material point of the body at world position `point`.
    #[inline]
    pub fn point_velocity(&self, point: DVec3) -> DVec3 {
        self.velocity + self.angular_velocity.cross(point - self.pose.position)
    }

    /// Advances the state by `dt` under the world-frame `force` and `torque` (about the CG),
    /// for a body of generalised mass `mass` ([`BodyMass::rigid`] for a plain rigid body).
    pub fn integrate(&mut self, force: DVec3, torque: DVec3, mass: &BodyMass, dt: f64) {
        let q = self.pose.orientation;
        let to_body = q.inverse();
        let w_body = to_body.mul_vec3(self.angular_velocity);
        let gyro = w_body.cross(mass.inertia_kg_m2 * w_body);
        let (a_body, alpha_body) =
            mass.accelerations(to_body.mul_vec3(force), to_body.mul_vec3(torque) - gyro);
        self.velocity += q.mul_vec3(a_body) * dt;
        let w_body = w_body + alpha_body * dt;
        self.angular_velocity = q.mul_vec3(w_body);
        // Safety nets: keep the state finite and bounded whatever happens.
        self.velocity = clamp_length(self.velocity, MAX_SPEED);
        self.angular_velocity = clamp_length(self.angular_velocity, MAX_ANGULAR_SPEED);
        self.pose.position += self.velocity * dt;
        let turn = DQuat::from_scaled_axis(self.angular_velocity * dt);
        self.pose.orientation = (turn * q).normalize();
    }
}

/// `v` scaled down to at most `max` long; non-finite vectors become zero.
#[inline]
fn clamp_length(v: DVec3, max: f64) -> DVec3 {
    if !v.is_finite() {
        return DVec3::ZERO;
    }
    let l2 = v.length_squared();
    if l2 > max * max {
        v * (max / l2.sqrt())
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_flight_and_torque_free_spin() {
        let mut b = RigidBody {
            velocity: DVec3::new(1.0, 0.0, 0.0),
            ..RigidBody::default()
        };
        let g = DVec3::new(0.0, 0.0, -9.81);
        for _ in 0..1000 {
            b.integrate(
                g * 2.0,
                DVec3::ZERO,
                &BodyMass::rigid(2.0, DVec3::ONE),
                0.001,
            );
        }
        assert!((b.pose.position.x - 1.0).abs() < 1e-12);
        // Semi-implicit Euler: z = -g t (t + dt) / 2.
        assert!((b.pose.position.z + 9.81 * 1.0 * 1.001 / 2.0).abs() < 1e-9);
        // Spin about a principal axis: constant rate, exact angle, unit quaternion.
        let mut s = RigidBody {
            angular_velocity: DVec3::new(0.0, 0.0, 2.0),
            ..RigidBody::default()
        };
        for _ in 0..1000 {
            s.integrate(
                DVec3::ZERO,
                DVec3::ZERO,
                &BodyMass::rigid(1.0, DVec3::new(1.0, 2.0, 3.0)),
                0.001,
            );
        }
        let (axis, angle) = s.pose.orientation.to_axis_angle();
        assert!((angle - 2.0).abs() < 1e-9 && (axis.z - 1.0).abs() < 1e-9);
        assert!((s.pose.orientation.length() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn non_finite_input_leaves_a_finite_state() {
        let mut b = RigidBody::default();
        b.integrate(
            DVec3::splat(f64::NAN),
            DVec3::splat(f64::INFINITY),
            &BodyMass::rigid(1.0, DVec3::ONE),
            0.001,
        );
        assert!(b.velocity.is_finite() && b.angular_velocity.is_finite());
        assert!(b.pose.position.is_finite() && b.pose.orientation.is_finite());
    }
}

//! What the body's contacts with walls and solid objects need to know of the body besides
//! its state: its contact points and stiffness ([`BodyShape`]) and its mass properties
//! ([`MassProperties`]), shared by [`super::wall_contact`], [`super::solid_contact`] and the
//! response ([`super::contact_set`]).

use glam::DVec3;

use super::body_contact::BODY_POINTS;
use super::chassis::RigidBody;
use super::params::BodyParams;

/// The body's mass properties, as the rigid body integrates them.
#[derive(Clone, Copy, Debug)]
pub struct MassProperties {
    /// Mass (kg).
    pub mass_kg: f64,
    /// Principal moments of inertia about the CG, body frame (kg·m²).
    pub inertia_kg_m2: DVec3,
}

impl MassProperties {
    /// The effective mass (kg) of the body at world `point` along the world unit vector `dir`:
    /// the mass an impulse there along `dir` accelerates.
    pub fn effective_mass_kg(&self, body: &RigidBody, point: DVec3, dir: DVec3) -> f64 {
        let to_body = body.pose.orientation.inverse();
        let r = to_body.mul_vec3(point - body.pose.position);
        let c = r.cross(to_body.mul_vec3(dir));
        let inverse = 1.0 / self.mass_kg + (c * c / self.inertia_kg_m2).element_sum();
        1.0 / inverse
    }
}

impl MassProperties {
    /// Mass (kg) and principal moments of inertia (kg·m², body frame).
    pub fn new(mass_kg: f64, inertia_kg_m2: DVec3) -> Self {
        Self {
            mass_kg,
            inertia_kg_m2,
        }
    }
}

/// What the body's contacts need to know of the body besides its state.
#[derive(Clone, Copy, Debug)]
pub struct BodyShape<'a> {
    /// Contact stiffness (per point).
    pub params: &'a BodyParams,
    /// The contact points where the body has them now, world frame (the body frame's
    /// through [`crate::vehicle::chassis::Pose::world_points`]).
    pub world_points: &'a [DVec3; BODY_POINTS],
    /// Mass and inertia.
    pub mass: MassProperties,
}

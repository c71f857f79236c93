//! The law of the body's response to what it strikes: walls and barriers
//! ([`super::wall_contact`]) and solid objects ([`super::solid_contact`]) give contacts (a
//! point, the unit normal along which the body is pushed, a depth) into a [`ContactSet`],
//! which turns them into one force and moment, the same law for both, so a car meets a
//! stand as it meets a barrier ([`super::contact_response`] gathers them each tick).
//!
//! The normal force is a penalty on the depth `d` with the body's contact stiffness `k` per
//! contact, and restitution by hysteresis:
//!
//! ```text
//! Fn = k d (e² + (1 - e²) s),   s = clamp(1/2 - (v . n) / (2 v_e), 0, 1)
//! ```
//!
//! The full spring acts while the point moves into the obstacle (`s = 1`), `e²` of it while
//! it comes back out (`s = 0`), blended over ±[`LOADING_BLEND_M_PER_S`]. A mass striking a
//! face at speed `u` stores `m u² / 2` and gets back `e²` of it: it leaves at `e u`, which is
//! what the coefficient of restitution `e` means, and a contact never gives back more energy
//! than it took. The force is zero at zero depth, so it has no jump when a contact starts.
//!
//! Friction is Coulomb's, `|Ft| <= mu Fn` against the sliding velocity, limited to what stops
//! the sliding within the tick: at most `m_t |v_t| / (dt N)` for the point's effective mass
//! `m_t` along the sliding direction shared among the `N` contacts of the tick (walls and
//! solids together). So friction never reverses a sliding velocity and never adds energy,
//! however large the normal force of a hard impact.

use glam::DVec3;

use super::body_shape::MassProperties;
use super::chassis::RigidBody;

/// Normal speed over which the spring blends from loading to unloading (m/s).
pub const LOADING_BLEND_M_PER_S: f64 = 0.05;

/// Most solid edges in contact with the body at once (see [`super::solid_contact`]); more
/// are left out.
pub const SOLID_EDGE_SLOTS: usize = 32;

/// Most contacts one tick gathers: twelve body points on walls, twelve on solids, and the
/// solids' edges inside the body ([`SOLID_EDGE_SLOTS`]).
pub const MAX_CONTACTS: usize = 24 + SOLID_EDGE_SLOTS;

/// One contact of the body with an obstacle.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PenaltyContact {
    /// Where the force acts (world frame, m).
    pub point: DVec3,
    /// Unit normal along which the obstacle pushes the body (world frame).
    pub normal: DVec3,
    /// The normal force (N, at least zero).
    pub normal_force_n: f64,
    /// Coulomb friction coefficient (-).
    pub friction: f64,
}

/// The normal force (N) of a contact `depth_m` deep with stiffness `stiffness_n_per_m`,
/// restitution `restitution`, the point moving at `normal_speed_m_per_s` along the normal
/// (negative into the obstacle); see the module docs.
pub fn penalty_normal_force_n(
    stiffness_n_per_m: f64,
    depth_m: f64,
    normal_speed_m_per_s: f64,
    restitution: f64,
) -> f64 {
    let loading = (0.5 - normal_speed_m_per_s / (2.0 * LOADING_BLEND_M_PER_S)).clamp(0.0, 1.0);
    let e2 = restitution * restitution;
    stiffness_n_per_m * depth_m * (e2 + (1.0 - e2) * loading)
}

/// The contacts of one tick, in a fixed-size buffer (no allocation in the tick).
#[derive(Clone, Copy, Debug)]
pub struct ContactSet {
    contacts: [PenaltyContact; MAX_CONTACTS],
    len: usize,
}

impl Default for ContactSet {
    fn default() -> Self {
        Self {
            contacts: [PenaltyContact::default(); MAX_CONTACTS],
            len: 0,
        }
    }
}

impl ContactSet {
    /// Adds a contact; `false` (and nothing added) when the set is full.
    pub fn push(&mut self, contact: PenaltyContact) -> bool {
        let Some(slot) = self.contacts.get_mut(self.len) else {
            return false;
        };
        *slot = contact;
        self.len += 1;
        true
    }

    /// The contacts gathered.
    pub fn contacts(&self) -> &[PenaltyContact] {
        &self.contacts[..self.len]
    }

    /// Number of contacts gathered.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Forgets the contacts gathered (the buffer stays: clearing it costs nothing).
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Force and moment about the CG (world frame) of the contacts on `body` (see the
    /// module docs); zero for none.
    pub fn loads(&self, body: &RigidBody, mass: MassProperties, dt: f64) -> (DVec3, DVec3) {
        let (mut force, mut torque) = (DVec3::ZERO, DVec3::ZERO);
        if self.len == 0 {
            return (force, torque);
        }
        let share = 1.0 / (dt * self.len as f64);
        for c in self.contacts() {
            let (world, n, fn_, mu) = (c.point, c.normal, c.normal_force_n, c.friction);
            let v = body.point_velocity(world);
            let vt = v - n * v.dot(n);
            let speed = vt.length();
            let mut f = n * fn_;
            if speed > 1e-12 {
                let t = vt / speed;
                let limit = mass.effective_mass_kg(body, world, t) * speed * share;
                f -= t * (mu * fn_).min(limit);
            }
            if !f.is_finite() {
                continue;
            }
            force += f;
            torque += (world - body.pose.position).cross(f);
        }
        (force, torque)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spring_is_full_going_in_and_e_squared_coming_out() {
        let k = 1.0e6;
        assert!((penalty_normal_force_n(k, 0.1, -1.0, 0.5) - 1.0e5).abs() < 1e-6);
        assert!((penalty_normal_force_n(k, 0.1, 1.0, 0.5) - 0.25e5).abs() < 1e-6);
        // Halfway at rest.
        assert!((penalty_normal_force_n(k, 0.1, 0.0, 0.0) - 0.5e5).abs() < 1e-6);
    }

    #[test]
    fn friction_never_reverses_the_sliding() {
        // A body sliding along +y at 1 m/s, pressed against a face whose normal is +x with a
        // huge normal force: friction stops the sliding within the tick, no more.
        let body = RigidBody {
            velocity: DVec3::new(0.0, 1.0, 0.0),
            ..RigidBody::default()
        };
        let mass = MassProperties::new(1000.0, DVec3::splat(1e12));
        let mut set = ContactSet::default();
        assert!(set.push(PenaltyContact {
            point: DVec3::ZERO,
            normal: DVec3::X,
            normal_force_n: 1.0e9,
            friction: 1.0,
        }));
        let (f, _) = set.loads(&body, mass, 0.001);
        assert!((f.x - 1.0e9).abs() < 1e-3);
        // m v / dt = 1000 * 1 / 0.001.
        assert!((f.y + 1.0e6).abs() < 1e-3, "{f}");
        let full = (0..MAX_CONTACTS).all(|_| set.push(PenaltyContact::default()));
        assert!(!full);
        assert_eq!(set.len(), MAX_CONTACTS);
    }
}

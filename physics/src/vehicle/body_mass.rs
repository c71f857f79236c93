//! [`BodyMass`]: how the body answers forces once the wheels move on their own along their
//! suspension axes.
//!
//! The rigid body's reference point is the whole car's centre of gravity with the wheels at
//! their static positions, and its mass and inertias are the whole car's (`chassis.mass_kg`,
//! the three principal inertias). Each wheel of unsprung mass `m` at body position `r` moves
//! with the body across its suspension axis `e` (body `+z`, up) but has its own velocity `w`
//! along it. The kinetic energy is then
//!
//! ```text
//! T = ½ [v; ω]ᵀ M6 [v; ω] + Σ ½ m w²,     M6 = diag(M, M, M, Ixx, Iyy, Izz) - Σ m J Jᵀ,
//! J = [e; r × e]
//! ```
//!
//! (`J·[v; ω]` is the body's velocity along `e` at the wheel, the part the wheel no longer
//! shares). With `e = z` only the heave-roll-pitch block changes:
//!
//! ```text
//! K = | M - Σm      -Σm y        Σm x      |
//!     | -Σm y       Ixx - Σm y²  Σm x y    |
//!     | Σm x        Σm x y       Iyy - Σm x² |
//! ```
//!
//! so the body accelerates in heave, roll and pitch as the sprung mass does (its own mass, its
//! CG offset and its inertias), and along x, y and in yaw as the whole car, wheels included.
//! The velocity-dependent terms of the offset sprung CG are left out (they scale with the
//! unsprung share and the roll and pitch rates, both small). With no unsprung mass `K` is
//! diagonal and the body is the plain rigid body of [`super::chassis`].

use glam::{DMat3, DVec3};

/// The unsprung masses' sums about the reference point (body frame), which fix the
/// heave-roll-pitch block: `Σm`, `Σm x`, `Σm y`, `Σm x²`, `Σm y²`, `Σm x y`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct UnsprungMoments {
    /// `Σm` (kg).
    pub mass_kg: f64,
    /// `Σm x` (kg·m).
    pub mx: f64,
    /// `Σm y` (kg·m).
    pub my: f64,
    /// `Σm x²` (kg·m²).
    pub mxx: f64,
    /// `Σm y²` (kg·m²).
    pub myy: f64,
    /// `Σm x y` (kg·m²).
    pub mxy: f64,
}

impl UnsprungMoments {
    /// The sums over `wheels`: each a body-frame position (m) and an unsprung mass (kg).
    pub fn of(wheels: &[(DVec3, f64)]) -> Self {
        wheels.iter().fold(Self::default(), |s, &(r, m)| Self {
            mass_kg: s.mass_kg + m,
            mx: s.mx + m * r.x,
            my: s.my + m * r.y,
            mxx: s.mxx + m * r.x * r.x,
            myy: s.myy + m * r.y * r.y,
            mxy: s.mxy + m * r.x * r.y,
        })
    }
}

/// The body's generalised mass (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyMass {
    /// Whole-car mass (kg): along body x and y.
    pub mass_kg: f64,
    /// Whole-car principal inertias (kg·m², body frame): yaw, and the gyroscopic term.
    pub inertia_kg_m2: DVec3,
    /// Inverse of the heave-roll-pitch block `K`.
    heave_roll_pitch_inverse: DMat3,
}

impl BodyMass {
    /// A rigid body of `mass_kg` and principal inertias `inertia_kg_m2`, all of it moving as
    /// one.
    pub fn rigid(mass_kg: f64, inertia_kg_m2: DVec3) -> Self {
        Self::with_unsprung(mass_kg, inertia_kg_m2, &UnsprungMoments::default())
    }

    /// The whole car of `mass_kg` and principal inertias `inertia_kg_m2` whose wheels, with
    /// the sums `unsprung`, move along body z on their own. A block that is not positive
    /// definite (the wheels weigh more than the car, which validation refuses) falls back to
    /// the rigid body.
    pub fn with_unsprung(mass_kg: f64, inertia_kg_m2: DVec3, unsprung: &UnsprungMoments) -> Self {
        let u = unsprung;
        let k = DMat3::from_cols(
            DVec3::new(mass_kg - u.mass_kg, -u.my, u.mx),
            DVec3::new(-u.my, inertia_kg_m2.x - u.myy, u.mxy),
            DVec3::new(u.mx, u.mxy, inertia_kg_m2.y - u.mxx),
        );
        let positive = k.x_axis.x > 0.0
            && k.x_axis.x * k.y_axis.y - k.x_axis.y * k.y_axis.x > 0.0
            && k.determinant() > 0.0;
        let k = if positive {
            k
        } else {
            DMat3::from_diagonal(DVec3::new(mass_kg, inertia_kg_m2.x, inertia_kg_m2.y))
        };
        Self {
            mass_kg,
            inertia_kg_m2,
            heave_roll_pitch_inverse: k.inverse(),
        }
    }

    /// Linear and angular accelerations `(a, α)` (body frame) under the body-frame force
    /// `force` and moment `torque` about the reference point (the gyroscopic term already
    /// subtracted).
    #[inline]
    pub fn accelerations(&self, force: DVec3, torque: DVec3) -> (DVec3, DVec3) {
        let coupled = self.heave_roll_pitch_inverse * DVec3::new(force.z, torque.x, torque.y);
        (
            DVec3::new(force.x / self.mass_kg, force.y / self.mass_kg, coupled.x),
            DVec3::new(coupled.y, coupled.z, torque.z / self.inertia_kg_m2.z),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A car of 1000 kg with four 25 kg wheels at (±1.2, ±0.8) and inertias 400, 1600, 1800.
    fn square_car() -> BodyMass {
        let wheels = [(1.2, 0.8), (1.2, -0.8), (-1.2, 0.8), (-1.2, -0.8)]
            .map(|(x, y)| (DVec3::new(x, y, -0.2), 25.0));
        BodyMass::with_unsprung(
            1000.0,
            DVec3::new(400.0, 1600.0, 1800.0),
            &UnsprungMoments::of(&wheels),
        )
    }

    #[test]
    fn heave_roll_and_pitch_feel_only_the_sprung_body() {
        let m = square_car();
        // Heave: the sprung 900 kg; roll: 400 - 100 x 0.64; pitch: 1600 - 100 x 1.44.
        let (a, alpha) = m.accelerations(DVec3::new(0.0, 0.0, 900.0), DVec3::ZERO);
        assert!((a.z - 1.0).abs() < 1e-12 && alpha.length() < 1e-12);
        let (_, alpha) = m.accelerations(DVec3::ZERO, DVec3::new(336.0, 1456.0, 0.0));
        assert!((alpha.x - 1.0).abs() < 1e-12 && (alpha.y - 1.0).abs() < 1e-12);
        // Along x and y and in yaw: the whole car.
        let (a, alpha) = m.accelerations(DVec3::new(1000.0, 2000.0, 0.0), DVec3::Z * 1800.0);
        assert!((a.x - 1.0).abs() < 1e-12 && (a.y - 2.0).abs() < 1e-12);
        assert!((alpha.z - 1.0).abs() < 1e-12);
    }

    #[test]
    fn heavier_front_wheels_move_the_sprung_cg_back() {
        // A heave force through the whole car's CG pitches a body whose sprung CG lies behind
        // it (heavier front wheels): nose up, i.e. negative pitch acceleration (ISO: y left).
        let wheels = [
            (1.2, 0.8, 40.0),
            (1.2, -0.8, 40.0),
            (-1.2, 0.8, 20.0),
            (-1.2, -0.8, 20.0),
        ]
        .map(|(x, y, m)| (DVec3::new(x, y, 0.0), m));
        let m = BodyMass::with_unsprung(
            1000.0,
            DVec3::new(400.0, 1600.0, 1800.0),
            &UnsprungMoments::of(&wheels),
        );
        let (a, alpha) = m.accelerations(DVec3::Z * 1000.0, DVec3::ZERO);
        assert!(a.z > 1000.0 / 880.0 && alpha.y < 0.0, "{a} {alpha}");
    }

    #[test]
    fn without_unsprung_mass_it_is_the_rigid_body() {
        let m = BodyMass::rigid(2.0, DVec3::new(1.0, 2.0, 3.0));
        let (a, alpha) = m.accelerations(DVec3::new(2.0, 4.0, 6.0), DVec3::new(1.0, 2.0, 3.0));
        assert!((a - DVec3::new(1.0, 2.0, 3.0)).length() < 1e-12);
        assert!((alpha - DVec3::ONE).length() < 1e-12);
    }
}

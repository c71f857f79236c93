//! Unsprung masses: each wheel moves along its suspension axis as a mass of its own, between
//! the strut above it and the tyre below it, a vertical spring and damper.
//!
//! # States and forces
//!
//! A wheel's state is its suspension compression `x` (m from full droop, positive in bump)
//! and its rate `ẋ` ([`WheelTravel`]); its centre sits `max_length - x` below the hardpoint
//! along the axis `-e` (`e` the body's `+z`). Along `e` the wheel of mass `m` feels
//!
//! - the tyre's contact force `F` (normal load, tyre forces, loose-surface drag), its part
//!   along the axis `F · e`; the normal load is `Fz = k δ + c δ̇ ≥ 0` from the tyre's
//!   deflection `δ` (free radius less the centre's distance from the ground) at the tyre's
//!   vertical stiffness `k` and damping `c` ([`WheelMount::tyre_normal_load`]);
//! - the strut `S` (spring, damper, bump and droop stops, anti-roll bar, the links' vertical
//!   share; see [`super::suspension`]), pushing it down and the body up;
//! - its weight's part `m g · e`.
//!
//! The body receives `S` along `e` at the wheel, and the tyre's force less its part along
//! the axis (the links carry that across), with the whole force's moment about the wheel
//! centre (the slider carries it); the wheels' weight along their axes is theirs, not the
//! body's ([`transmit`]). How the body answers is [`super::body_mass`].
//! Where each axis starts, how far it reaches and what hangs on it is the corner's
//! [`WheelMount`].
//!
//! # Integration
//!
//! Semi-implicit Euler, as the body: the wheel's velocity along the axis
//! `w = v_hp · e + ẋ` (`v_hp` the hardpoint's velocity) advances by the forces above, then
//! the compression follows with the new `w` and the body's new velocity:
//! `ẋ' = w' - v_hp' · e'`, `x' = x + ẋ' dt`. For a car wheel (40 kg on a 200 kN/m tyre and a
//! 35 kN/m spring, wheel hop near 12 Hz) `ω dt ≈ 0.08` at 1 kHz: stable, and the quarter
//! car's frequencies within `(ω dt)² / 24` of the continuous system's. The droop and bump
//! stops are springs too; past them the state is still held within the travel as a last
//! safety net (a non-finite state goes back to static).
//!
//! # Static state
//!
//! At rest the tyre carries the wheel's static load and the strut that less the unsprung
//! weight, so the spring's static compression is
//! `(static load - m g - preload) / spring rate`, and the tyre's free radius is the loaded
//! radius `radius_m` plus `static load / k`.

use glam::{DQuat, DVec3};

use super::chassis::{BodyLoads, RigidBody};
use super::params::{
    DEFAULT_TYRE_VERTICAL_DAMPING_N_S_PER_M, DEFAULT_TYRE_VERTICAL_STIFFNESS_N_PER_M, GRAVITY,
    VehicleParams,
};
use crate::tire::Tire;

/// How far the compression may go beyond full droop (m) before the state is held: the droop
/// stop's spring has long taken over by then.
const DROOP_OVERTRAVEL_M: f64 = 0.1;

/// Distance from the suspension hardpoint to the wheel centre at full bump travel (m): the
/// ray's origin stays this far above the wheel centre.
pub const HARDPOINT_CLEARANCE_M: f64 = 0.1;

/// One wheel's position on its suspension travel.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WheelTravel {
    /// Compression from full droop (m, positive in bump).
    pub compression_m: f64,
    /// Compression rate (m/s, positive in bump).
    pub rate_m_per_s: f64,
}

/// A corner's suspension axis and what moves on it: the unsprung mass, and the tyre as a
/// vertical spring and damper.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WheelMount {
    /// Top of the suspension axis, body frame (m).
    pub hardpoint: DVec3,
    /// Hardpoint to wheel centre at full droop (m).
    pub max_length_m: f64,
    /// Compression at static load (m).
    pub static_compression_m: f64,
    /// Mass moving with the wheel (kg).
    pub mass_kg: f64,
    /// Tyre vertical stiffness (N/m).
    pub tyre_stiffness_n_per_m: f64,
    /// Tyre vertical damping (N·s/m).
    pub tyre_damping_n_s_per_m: f64,
    /// Free (unloaded) radius of the tyre (m): the loaded radius plus the static deflection.
    pub free_radius_m: f64,
}

impl WheelMount {
    /// The mount of wheel `index` (`[FL, FR, RL, RR]`) of `params` on the axle's `tire`,
    /// placed so that the car stands at rest on flat ground with its CG at `cg_height_m`:
    /// the static wheel centre at the loaded radius. The tyre's vertical figures are the
    /// wheel's own, else the tyre file's (Magic Formula `VERTICAL_STIFFNESS` at the set
    /// pressure and `VERTICAL_DAMPING`), else the defaults in [`super::params`].
    pub fn of(params: &VehicleParams, index: usize, tire: &Tire) -> Self {
        let axle = index / 2;
        let side = if index.is_multiple_of(2) { 1.0 } else { -1.0 };
        let ap = params.axle(axle);
        let s = &ap.suspension;
        let wheel = &ap.wheel;
        let static_compression_m =
            (params.static_strut_load_n(axle) - s.spring_preload_n) / s.spring_rate_n_per_m;
        let max_length_m = s.travel_m + HARDPOINT_CLEARANCE_M;
        let x = if axle == 0 {
            params.cg_to_front_axle_m()
        } else {
            -params.cg_to_rear_axle_m()
        };
        let hardpoint = DVec3::new(
            x,
            0.5 * side * ap.track_m,
            wheel.radius_m - params.chassis.cg_height_m + max_length_m - static_compression_m,
        );
        let (file_stiffness, file_damping) = tire
            .vertical_stiffness_and_damping(wheel.tyre_pressure_pa)
            .unzip();
        let tyre_stiffness_n_per_m = wheel
            .tyre_vertical_stiffness_n_per_m
            .or(file_stiffness)
            .unwrap_or(DEFAULT_TYRE_VERTICAL_STIFFNESS_N_PER_M);
        let tyre_damping_n_s_per_m = wheel
            .tyre_vertical_damping_n_s_per_m
            .or(file_damping)
            .unwrap_or(DEFAULT_TYRE_VERTICAL_DAMPING_N_S_PER_M);
        Self {
            hardpoint,
            max_length_m,
            static_compression_m,
            mass_kg: params.unsprung_mass_kg(axle),
            tyre_stiffness_n_per_m,
            tyre_damping_n_s_per_m,
            free_radius_m: wheel.radius_m
                + params.static_wheel_load_n(axle) / tyre_stiffness_n_per_m,
        }
    }

    /// The tyre's normal load (N, zero or positive) at deflection `deflection_m` (m, positive
    /// pressed) growing at `deflection_rate_m_per_s`: `k δ + c δ̇`, nothing without
    /// deflection, and never pulling.
    #[inline]
    pub fn tyre_normal_load(&self, deflection_m: f64, deflection_rate_m_per_s: f64) -> f64 {
        if deflection_m <= 0.0 {
            return 0.0;
        }
        let load = self.tyre_stiffness_n_per_m * deflection_m
            + self.tyre_damping_n_s_per_m * deflection_rate_m_per_s;
        if load.is_finite() { load.max(0.0) } else { 0.0 }
    }

    /// The wheel centre at rest, body frame (m).
    pub fn static_wheel_centre(&self) -> DVec3 {
        self.hardpoint - DVec3::Z * (self.max_length_m - self.static_compression_m)
    }

    /// The travel at rest: static compression, not moving.
    pub fn static_travel(&self) -> WheelTravel {
        WheelTravel {
            compression_m: self.static_compression_m,
            rate_m_per_s: 0.0,
        }
    }

    /// The wheel-hop and body ("ride") natural frequencies (Hz) of a quarter car of
    /// `sprung_mass_kg` on a spring of `spring_rate_n_per_m` over this wheel and tyre, without
    /// damping: the two-mass system's eigenfrequencies (Gillespie, ch. 5).
    pub fn quarter_car_frequencies_hz(
        &self,
        sprung_mass_kg: f64,
        spring_rate_n_per_m: f64,
    ) -> (f64, f64) {
        let (ms, mu) = (sprung_mass_kg, self.mass_kg);
        let (ks, kt) = (spring_rate_n_per_m, self.tyre_stiffness_n_per_m);
        // det([ks - ms w², -ks; -ks, ks + kt - mu w²]) = 0, a quadratic in w².
        let b = ks / ms + (ks + kt) / mu;
        let c = ks * kt / (ms * mu);
        let root = (b * b - 4.0 * c).max(0.0).sqrt();
        let hz = |w2: f64| w2.max(0.0).sqrt() / std::f64::consts::TAU;
        (hz(0.5 * (b + root)), hz(0.5 * (b - root)))
    }
}

/// The wheels' velocities along their axes (m/s, world, positive up the body's `z`) on their
/// `mounts`: what [`advance_travels`] advances.
pub fn axial_speeds(
    body: &RigidBody,
    mounts: &[WheelMount; 4],
    travels: &[WheelTravel; 4],
) -> [f64; 4] {
    let up = body.pose.orientation.mul_vec3(DVec3::Z);
    std::array::from_fn(|i| {
        let hp = body.pose.world_point(mounts[i].hardpoint);
        body.point_velocity(hp).dot(up) + travels[i].rate_m_per_s
    })
}

/// What the strut and the tyre do to the body, added to `body_loads`, and the net force on
/// each wheel along its axis (N, positive up the body's `z`), wheels `[FL, FR, RL, RR]`:
/// `strut_forces_n` (N, pushing the body up and the wheel down), the tyres' contact forces
/// `contact_forces_world` (N, already on the body whole at the patches) and the wheels'
/// weight (the `mounts`' masses). `wheel_centres` are the wheels' centres (world). See the
/// module documentation.
pub fn transmit(
    orientation: DQuat,
    cg: DVec3,
    mounts: &[WheelMount; 4],
    wheel_centres: &[DVec3; 4],
    strut_forces_n: &[f64; 4],
    contact_forces_world: &[DVec3; 4],
    body_loads: &mut BodyLoads,
) -> [f64; 4] {
    let up = orientation.mul_vec3(DVec3::Z);
    let weight_along = -GRAVITY * up.z;
    std::array::from_fn(|i| {
        let tyre_along = contact_forces_world[i].dot(up);
        let wheel_weight_along = mounts[i].mass_kg * weight_along;
        // The tyre's part along the axis and the wheel's weight along it leave the body, which
        // gets the strut's push instead (the wheel's weight was in the car's). All three act
        // along the axis through the wheel centre: the slider carries the tyre force's moment
        // about the centre (the patch lies off the axis when the body rolls) to the body,
        // which already has it from the whole force at the patch.
        let along = up * (strut_forces_n[i] - tyre_along - wheel_weight_along);
        body_loads.add(along, (wheel_centres[i] - cg).cross(along));
        tyre_along - strut_forces_n[i] + wheel_weight_along
    })
}

/// Advances the wheels' `travels` by `dt` (see the module documentation): their axial speeds
/// before the step `axial_speeds_before` (m/s, from [`axial_speeds`]) change by the net forces
/// `axial_forces_n` (from [`transmit`]) over their masses, and the compressions follow
/// relative to the `body` as it is after the step, on the wheels' `mounts`. A non-finite
/// state goes back to static.
pub fn advance_travels(
    travels: &mut [WheelTravel; 4],
    body: &RigidBody,
    mounts: &[WheelMount; 4],
    axial_speeds_before: &[f64; 4],
    axial_forces_n: &[f64; 4],
    dt: f64,
) {
    let up = body.pose.orientation.mul_vec3(DVec3::Z);
    for (i, t) in travels.iter_mut().enumerate() {
        let c = &mounts[i];
        let w = axial_speeds_before[i] + axial_forces_n[i] / c.mass_kg * dt;
        let hp = body.pose.world_point(c.hardpoint);
        let rate = w - body.point_velocity(hp).dot(up);
        let compression = t.compression_m + rate * dt;
        *t = if !(compression.is_finite() && rate.is_finite()) {
            c.static_travel()
        } else if compression < -DROOP_OVERTRAVEL_M {
            WheelTravel {
                compression_m: -DROOP_OVERTRAVEL_M,
                rate_m_per_s: rate.max(0.0),
            }
        } else if compression > c.max_length_m {
            // The wheel centre at the hardpoint: nothing further.
            WheelTravel {
                compression_m: c.max_length_m,
                rate_m_per_s: rate.min(0.0),
            }
        } else {
            WheelTravel {
                compression_m: compression,
                rate_m_per_s: rate,
            }
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corner() -> WheelMount {
        WheelMount {
            hardpoint: DVec3::ZERO,
            max_length_m: 0.3,
            static_compression_m: 0.1,
            mass_kg: 40.0,
            tyre_stiffness_n_per_m: 200_000.0,
            tyre_damping_n_s_per_m: 100.0,
            free_radius_m: 0.32,
        }
    }

    #[test]
    fn the_tyre_pushes_but_never_pulls() {
        let c = corner();
        assert!((c.tyre_normal_load(0.01, 0.0) - 2000.0).abs() < 1e-9);
        assert!((c.tyre_normal_load(0.01, 1.0) - 2100.0).abs() < 1e-9);
        // Springing back faster than the damper allows: no pull.
        assert!(c.tyre_normal_load(0.001, -10.0).abs() < 1e-12);
        assert!(c.tyre_normal_load(-0.01, 5.0).abs() < 1e-12);
        assert!(c.tyre_normal_load(f64::NAN, 0.0).abs() < 1e-12);
    }

    #[test]
    fn quarter_car_frequencies_match_the_textbook_limits() {
        // A very stiff tyre: the body rides on the spring alone, sqrt(ks / ms); the wheel
        // hops on both springs, sqrt((ks + kt) / mu) (Gillespie, eq. 5-13 and 5-15).
        let c = WheelMount {
            tyre_stiffness_n_per_m: 1e9,
            ..corner()
        };
        let (hop, ride) = c.quarter_car_frequencies_hz(350.0, 35_000.0);
        let tau = std::f64::consts::TAU;
        assert!((ride - (35_000.0_f64 / 350.0).sqrt() / tau).abs() < 1e-3);
        assert!((hop / ((1e9_f64 + 35_000.0) / 40.0).sqrt() * tau - 1.0).abs() < 1e-4);
        // A real tyre: the ride rate is the two springs in series (Gillespie eq. 5-12), and
        // the wheel hop is near sqrt((ks + kt) / mu).
        let (hop, ride) = corner().quarter_car_frequencies_hz(350.0, 35_000.0);
        let series = 35_000.0 * 200_000.0 / 235_000.0;
        assert!((ride / ((series / 350.0_f64).sqrt() / tau) - 1.0).abs() < 0.02);
        assert!((hop / ((235_000.0_f64 / 40.0).sqrt() / tau) - 1.0).abs() < 0.02);
    }
}

//! Wheels: finding the ground, contact-patch kinematics, transient slip and rolling
//! resistance.
//!
//! # Contact
//!
//! Each corner probes the ground along its suspension axis (body -z) through
//! [`Ground::ray_cast_hinted`]: one ray from the hardpoint and four more across its contact
//! patch, combined into one effective ground plane per wheel ([`super::tyre_envelope`]: the
//! tyre as a disc that envelops steps and edges over its patch length; on a plane it is
//! exactly the centre ray). The wheel's centre sits on the axis `len = max_length - x`
//! below the hardpoint, `x` its own suspension compression (the wheel is a mass of its own,
//! [`super::unsprung`]). The tyre is treated as a sphere of its free radius `R` for the
//! vertical contact: with `d` the centre ray's hit distance, `h` the effective plane's lift
//! above the centre hit's tangent plane and `c = -axis . n` the cosine between axis and the
//! effective normal `n`, the centre is `(d - len) c - h (n0 . n)` from the plane and the tyre
//! deflects by `δ = R` less that; it deflects at the rate `δ' = -(v_centre . n)`, which on a
//! mesh also sees the slope the contact moves over. A tyre without deflection, or whose axis
//! lies within 72 degrees of the ground plane (car on its side), has no contact.
//!
//! # Contact frame (ISO-W)
//!
//! `n` the ground normal; `x_c` the wheel's heading (body x turned by steer + toe) projected
//! onto the ground plane; `y_c = n x x_c`. The velocity of the body's material point at the
//! contact, `v_c`, gives `vx = v_c . x_c` and `vy = v_c . y_c`. The slip velocities are
//! `vsx = vx - omega r` and `vsy = vy`; the steady-state slips would be
//! `kappa = -vsx / |vx|` and `tan(alpha) = vsy / |vx|` (Wolfe, workshop III, and [`crate::tire`]).
//! The inclination `gamma` is measured from the wheel's actual axle direction against `n`, so body
//! roll changes camber. It is ISO, as the tyre models take it: positive when the top of the wheel
//! leans to `-y_c` (`sin gamma = a . n` with `a` the axle's unit vector, pointing to the wheel's
//! left). A car's camber, negative when the top leans towards the car's centre, is
//! `gamma = -camber` on a left wheel and `gamma = +camber` on a right one (see [`crate::tire`]).
//!
//! # Low speed: transient slip with tread deflection states
//!
//! The steady-state slips divide by `|vx|` and are useless at standstill, where they make a
//! parked car jitter and creep. Each tyre instead carries two deflection states, `u`
//! (longitudinal) and `v` (lateral), in metres, following Pacejka's first-order relaxation
//! model (*Tire and Vehicle Dynamics*, 3rd ed., section 7.2):
//!
//! ```text
//! du/dt = -vsx - |vx| u / sigma_kappa        kappa'     = u / sigma_kappa
//! dv/dt =  vsy - |vx| v / sigma_alpha        tan alpha' = v / sigma_alpha
//! ```
//!
//! At speed these are first-order lags with the relaxation lengths as distance constants, and
//! converge to the steady-state slips. At standstill the `|vx|` terms vanish and `u`, `v`
//! are plain deflections of an elastic contact: the tyre force is a spring of stiffness
//! `C / sigma` (slip or cornering stiffness over relaxation length) that holds a braked car on
//! a slope without creep, and a free car exactly where it is.
//!
//! A spring alone would ring, so below `low_speed_m_per_s` a damper in parallel fades in
//! (Kelvin-Voigt tread; the same role as MF-Tyre's low-speed damping): the slips passed to the
//! tyre model are
//!
//! ```text
//! kappa_t     = (u + w tau du/dt) / sigma_kappa
//! tan alpha_t = (v + w tau dv/dt) / sigma_alpha,    w = (1 + cos(pi |vx| / v_low)) / 2
//! ```
//!
//! with `tau = 2 zeta sqrt(m_corner sigma_kappa / C)`: the damping time of a damper of ratio
//! `zeta = contact_damping_ratio` on the contact spring `C / sigma_kappa` carrying the
//! corner's static mass (damping rate `C tau / sigma`). The tyre model then
//! saturates these as it saturates any slip, so the damped contact can never exceed the
//! friction limit. The tyre is told a speed of at least [`TYRE_MIN_SPEED_M_PER_S`]: the
//! transient slips carry the slip at standstill, and models that turn slip into a sliding
//! velocity by multiplying with the speed (Vehicle Physics Pro's curves) would otherwise give no
//! force at all there; for those models the standstill contact stiffness is their stiffness at that
//! speed.
//!
//! Physical deflections are bounded by sliding: at low speed `|u|` is held to
//! `sigma_kappa * kappa_peak` and `|v|` to `sigma_alpha * tan(alpha_peak)` (the tyre's own peak
//! slips, found once at construction), relaxing that bound linearly up to `v_low`. Without it
//! a wheel that locked at speed would keep a full-slide deflection when the car stops and
//! push it back by a relaxation length.
//!
//! The states advance after the wheel spins have been updated, implicitly in the `|vx|` term
//! so that high speeds (`|vx| dt / sigma > 2`) stay stable:
//! `u_new = (u - vsx_new dt) / (1 + |vx| dt / sigma)`.
//!
//! The road's torque on the wheel is `-fx r`. The spin sees the tread as a spring of
//! rotational stiffness `r² C / sigma` (natural frequency times `dt` about 0.2 to 0.4 for car
//! tyres at 1 kHz), which the step handles explicitly: the deflection advances with the spin
//! after the spin update, a symplectic pairing that is stable there. At low speed it also sees
//! the damper `r² C' w tau / sigma`, with `C'` the local slope `dFx / dkappa` of the tyre's
//! curve at the present slips. That damper is far too stiff for an explicit step (`c dt / I`
//! exceeds 1 at 1 kHz for a car tyre), so its derivative, the road torque's slope in the spin
//! `-r² max(C', 0) w tau / sigma` ([`TransientSlip::kappa_per_slip_velocity`]), goes to the
//! powertrain as `road_torque_slope`, which integrates it implicitly (linearised backward
//! Euler) together with the driveline. The body then receives the same linearised force
//! `fx + (dFx / domega) (omega_new - omega)` as the wheel, so road and wheel exchange equal and
//! opposite forces (see [`crate::vehicle::model`]). The damping time is therefore the physical
//! `tau` at every step size; a damping that were capped per tick to keep an explicit update
//! stable would make the result depend on the step size.
//!
//! # Rolling resistance
//!
//! `T_rr = Fz (c0 + c1 |vx| + c_surface) r` against the wheel's spin (VR-Design Studio's
//! `0.004 + 0.090 s/km`, i.e. `c1 = 9.0e-5 s/m`). It behaves like a friction torque: it
//! opposes rotation and, below its breakaway value, holds a stopped wheel still, which is
//! what keeps a real parked car from rolling off under the smallest force. So the vehicle
//! hands it to the powertrain as part of the wheel's friction-torque capacity
//! ([`crate::powertrain::WheelLoad::brake_torque`]), whose stick/slip handling suits it
//! exactly, rather than as a signed road torque that would chatter around zero spin. The
//! tyre's slip then turns it into the retarding force at the road.
//! Loose surfaces add a drag force on the contact patch, `loose_drag * Fz * v_c` in the ground
//! plane.

use std::f64::consts::PI;

use glam::{DQuat, DVec3};

use super::chassis::RigidBody;
use super::params::{VehicleParams, WheelParams};
use super::relaxation::{RelaxationLengths, RelaxationTable, slip_stiffnesses};
use super::tyre_envelope::{ProbeHints, TyrePatch, probe};
use super::unsprung::{WheelMount, WheelTravel};
use crate::ground::{Ground, Surface};
use crate::powertrain::WheelSpin;
use crate::tire::{Tire, TireInput, TireModel};

/// Smallest speed (m/s) passed to tyre models as `vx`: the transient slips carry the slip at
/// standstill, and models that scale slip by speed (slip-velocity curves) need a speed to
/// turn it into a force.
pub const TYRE_MIN_SPEED_M_PER_S: f64 = 1.0;

/// Cosine between suspension axis and ground normal below which a wheel has no contact.
const MIN_AXIS_COSINE: f64 = 0.3;

/// Largest transient slip ratio and `tan(slip angle)` the states may reach at speed.
const SLIP_RATIO_CAP: f64 = 50.0;
const TAN_SLIP_ANGLE_CAP: f64 = 50.0;

/// Fixed geometry and tyre figures of one corner, derived from the parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Corner {
    /// 0 front, 1 rear.
    pub axle: usize,
    /// +1 left, -1 right.
    pub side: f64,
    /// The suspension axis, the unsprung mass and the tyre's vertical spring.
    pub mount: WheelMount,
    /// Rolling radius (m): the loaded radius at the static load.
    pub radius: f64,
    /// Where the tyre's force curves peak (at low speed, on the reference road).
    pub peak: PeakSlip,
    /// Longitudinal slip stiffness per unit load near the static load (1/1, i.e. N per N).
    pub slip_stiffness_per_load: f64,
    /// Cornering stiffness magnitude per unit load near the static load (1/rad).
    pub cornering_stiffness_per_load: f64,
    /// The tyre's relaxation lengths by load.
    pub relaxation: RelaxationTable,
}

/// Slips at which a tyre's pure-slip force curves peak.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PeakSlip {
    /// Slip ratio of the longitudinal force peak (-).
    pub ratio: f64,
    /// `tan` of the slip angle of the lateral force peak (-).
    pub tan_angle: f64,
}

/// Where and how one wheel meets the ground this tick.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactGeometry {
    /// Whether the tyre touches the ground.
    pub contact: bool,
    /// Suspension compression from full droop (m): the wheel's own state.
    pub compression: f64,
    /// Tyre deflection (m, positive pressed; zero without contact).
    pub tyre_deflection_m: f64,
    /// Rate of the tyre deflection (m/s, positive pressing; zero without contact).
    pub tyre_deflection_rate_m_per_s: f64,
    /// Ground normal (world, unit).
    pub normal: DVec3,
    /// Contact point (world).
    pub point: DVec3,
    /// Wheel centre (world).
    pub wheel_centre: DVec3,
    /// Surface under the wheel.
    pub surface: Surface,
}

impl Corner {
    /// The contact patch this corner's tyre is probed over ([`TyrePatch::of`] at the static
    /// deflection, free radius less rolling radius).
    #[must_use]
    pub fn patch(&self) -> TyrePatch {
        TyrePatch::of(
            self.mount.free_radius_m,
            self.mount.free_radius_m - self.radius,
        )
    }

    /// Finds the ground under this corner of `body`, its wheel at `travel` on its axis.
    /// `hints` are this corner's ground-query caches, one per probe (see
    /// [`crate::ground::RayHint`]); they never change the result.
    pub fn find_contact(
        &self,
        body: &RigidBody,
        travel: &WheelTravel,
        ground: &impl Ground,
        hints: &mut ProbeHints,
    ) -> ContactGeometry {
        self.find_contact_over(self.patch(), body, travel, ground, hints)
    }

    /// [`Corner::find_contact`] probing the ground over `patch` instead of the tyre's own; a
    /// zero patch is the one-ray contact.
    pub fn find_contact_over(
        &self,
        patch: TyrePatch,
        body: &RigidBody,
        travel: &WheelTravel,
        ground: &impl Ground,
        hints: &mut ProbeHints,
    ) -> ContactGeometry {
        let q = body.pose.orientation;
        let m = &self.mount;
        let hardpoint = body.pose.world_point(m.hardpoint);
        let axis = q.mul_vec3(-DVec3::Z);
        let length = m.max_length_m - travel.compression_m;
        let wheel_centre = hardpoint + axis * length;
        let none = ContactGeometry {
            contact: false,
            compression: travel.compression_m,
            tyre_deflection_m: 0.0,
            tyre_deflection_rate_m_per_s: 0.0,
            normal: q.mul_vec3(DVec3::Z),
            point: wheel_centre + axis * m.free_radius_m,
            wheel_centre,
            surface: Surface::default(),
        };
        let reach = m.max_length_m + m.free_radius_m / MIN_AXIS_COSINE;
        let Some(patch) = probe(
            ground,
            (hardpoint, axis, q),
            reach,
            patch,
            MIN_AXIS_COSINE,
            hints,
        ) else {
            return none;
        };
        let normal = patch.normal;
        let cosine = -axis.dot(normal);
        if cosine.is_nan() || cosine < MIN_AXIS_COSINE || !patch.centre.distance.is_finite() {
            return none;
        }
        let height = patch.height_of(length, cosine);
        let deflection = m.free_radius_m - height;
        let surface = patch.centre.surface;
        if deflection <= 0.0 || !deflection.is_finite() {
            return ContactGeometry { surface, ..none };
        }
        let centre_velocity = body.point_velocity(wheel_centre) - axis * travel.rate_m_per_s;
        ContactGeometry {
            contact: true,
            tyre_deflection_m: deflection,
            tyre_deflection_rate_m_per_s: -centre_velocity.dot(normal),
            normal,
            point: wheel_centre - normal * height,
            surface,
            ..none
        }
    }
}

/// Finds the ground under each of the four `corners` of `body` ([`Corner::find_contact`]),
/// wheels `[FL, FR, RL, RR]` at their `travels`, with their ground-query caches `hints`.
pub fn find_contacts(
    corners: &[Corner; 4],
    travels: &[WheelTravel; 4],
    body: &RigidBody,
    ground: &impl Ground,
    hints: &mut [ProbeHints; 4],
) -> [ContactGeometry; 4] {
    std::array::from_fn(|i| corners[i].find_contact(body, &travels[i], ground, &mut hints[i]))
}

/// Contact frame and slip velocities of one wheel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactKinematics {
    /// Heading in the ground plane (world, unit).
    pub x: DVec3,
    /// Lateral axis in the ground plane, `n x x` (world, unit).
    pub y: DVec3,
    /// Longitudinal speed of the wheel over the ground (m/s).
    pub vx: f64,
    /// Lateral speed of the contact point (m/s).
    pub vy: f64,
    /// Inclination angle against the ground (rad, ISO: positive when the top of the wheel
    /// leans to -y).
    pub gamma: f64,
    /// Contact velocity in the ground plane (world, m/s).
    pub planar_velocity: DVec3,
}

/// Computes the contact frame for a wheel of body-frame heading angle `heading` (steer + toe,
/// rad) and body-relative ISO inclination `gamma_body` (rad, a rotation about the wheel's
/// heading: positive leans the top of the wheel to the body's -y).
pub fn contact_kinematics(
    body: &RigidBody,
    contact: &ContactGeometry,
    heading: f64,
    gamma_body: f64,
) -> ContactKinematics {
    let q = body.pose.orientation;
    let wheel_rotation = q * DQuat::from_rotation_z(heading) * DQuat::from_rotation_x(gamma_body);
    let n = contact.normal;
    let heading_world = wheel_rotation.mul_vec3(DVec3::X);
    let axle_world = wheel_rotation.mul_vec3(DVec3::Y);
    let along = heading_world - n * heading_world.dot(n);
    let x = along.try_normalize().unwrap_or_else(|| {
        // Heading along the normal: the wheel stands on its tread edge; any frame will do.
        n.any_orthonormal_vector()
    });
    let y = n.cross(x);
    let v = body.point_velocity(contact.point);
    let planar_velocity = v - n * v.dot(n);
    ContactKinematics {
        x,
        y,
        vx: v.dot(x),
        vy: v.dot(y),
        gamma: axle_world.dot(n).clamp(-1.0, 1.0).asin(),
        planar_velocity,
    }
}

/// Tread deflection states of one tyre (m): the transient-slip model's memory.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TreadDeflection {
    /// Longitudinal deflection `u` (m), positive when the tyre pushes forward.
    pub longitudinal_m: f64,
    /// Lateral deflection `v` (m), positive for a leftward slip (force to the right).
    pub lateral_m: f64,
}

/// Slips handed to the tyre model, and their sensitivity to the wheel spin.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TransientSlip {
    /// Slip ratio seen by the tyre (-).
    pub kappa: f64,
    /// Slip angle seen by the tyre (rad).
    pub alpha: f64,
    /// Weight of the standstill damping, 1 at rest, 0 from `low_speed_m_per_s`.
    pub low_speed_weight: f64,
    /// Derivative of `kappa` with respect to the longitudinal slip velocity `vsx` at fixed
    /// deflections (s/m): `-w tau / sigma_kappa`, from the standstill damper. The spin enters
    /// through `vsx = vx - omega r`, so `dkappa / domega = -r` times this.
    pub kappa_per_slip_velocity: f64,
}

impl WheelParams {
    /// Cosine fade of the standstill damping: 1 at rest, 0 at and beyond `low_speed_m_per_s`.
    #[inline]
    pub fn low_speed_weight(&self, vx: f64) -> f64 {
        let s = vx.abs() / self.low_speed_m_per_s;
        if s >= 1.0 {
            0.0
        } else {
            0.5 * (1.0 + (PI * s).cos())
        }
    }

    /// The slips the tyre sees for the deflections `d` at contact speeds `vx`, slip
    /// velocities `vsx`, `vsy` (m/s), with the relaxation lengths `sigma` at its load and the
    /// standstill damping time `damping_time` (s, from [`contact_damping_time`]).
    pub fn transient_slip(
        &self,
        d: &TreadDeflection,
        (vx, vsx, vsy): (f64, f64, f64),
        sigma: RelaxationLengths,
        damping_time: f64,
    ) -> TransientSlip {
        let (sx, sy) = (sigma.longitudinal_m, sigma.lateral_m);
        let w = self.low_speed_weight(vx);
        let damping = w * damping_time;
        let du = -vsx - vx.abs() * d.longitudinal_m / sx;
        let dv = vsy - vx.abs() * d.lateral_m / sy;
        TransientSlip {
            kappa: (d.longitudinal_m + damping * du) / sx,
            alpha: ((d.lateral_m + damping * dv) / sy).atan(),
            low_speed_weight: w,
            kappa_per_slip_velocity: -damping / sx,
        }
    }

    /// Advances the deflections by `dt` with the slip velocities `(vx, vsx, vsy)` after this
    /// tick's spin update and the relaxation lengths `sigma`; the tyre's `peak` slips bound
    /// them at low speed.
    pub fn advance_deflection(
        &self,
        d: &TreadDeflection,
        (vx, vsx, vsy): (f64, f64, f64),
        sigma: RelaxationLengths,
        dt: f64,
        peak: PeakSlip,
    ) -> TreadDeflection {
        let (sx, sy) = (sigma.longitudinal_m, sigma.lateral_m);
        let speed = vx.abs();
        let u = (d.longitudinal_m - vsx * dt) / (1.0 + speed * dt / sx);
        let v = (d.lateral_m + vsy * dt) / (1.0 + speed * dt / sy);
        let blend = (speed / self.low_speed_m_per_s).min(1.0);
        let u_max = sx * (peak.ratio + blend * (SLIP_RATIO_CAP - peak.ratio));
        let v_max = sy * (peak.tan_angle + blend * (TAN_SLIP_ANGLE_CAP - peak.tan_angle));
        TreadDeflection {
            longitudinal_m: finite_clamp(u, u_max),
            lateral_m: finite_clamp(v, v_max),
        }
    }

    /// Rolling-resistance torque magnitude (N·m) at load `fz`, speed `vx`, with the surface's
    /// extra coefficient `extra`.
    #[inline]
    pub fn rolling_resistance_torque(&self, fz: f64, vx: f64, extra: f64) -> f64 {
        fz * (self.rolling_resistance_c0 + self.rolling_resistance_c1_s_per_m * vx.abs() + extra)
            * self.radius_m
    }
}

/// Advances the tread deflections of the four wheels by `dt` after this tick's spin update
/// ([`WheelParams::advance_deflection`] with the new `spins`). `contact_speeds` holds each
/// loaded tyre's contact speeds `(vx, vy)` (m/s) and relaxation lengths of this tick; a
/// wheel without load (`None`) loses its deflection.
pub fn advance_deflections(
    deflections: &mut [TreadDeflection; 4],
    corners: &[Corner; 4],
    params: &VehicleParams,
    contact_speeds: &[Option<(f64, f64, RelaxationLengths)>; 4],
    spins: &[WheelSpin; 4],
    dt: f64,
) {
    for i in 0..4 {
        if let Some((vx, vy, sigma)) = contact_speeds[i] {
            let corner = &corners[i];
            let vsx = vx - spins[i].omega * corner.radius;
            deflections[i] = params.axle(corner.axle).wheel.advance_deflection(
                &deflections[i],
                (vx, vsx, vy),
                sigma,
                dt,
                corner.peak,
            );
        } else {
            deflections[i] = TreadDeflection::default();
        }
    }
}

/// The standstill damping time (s) of a corner carrying the mass `corner_mass` (kg) whose tyre
/// has the slip stiffness `slip_stiffness` (N) and the longitudinal relaxation length `sigma`
/// (m) at its present load: `2 zeta sqrt(m sigma / C)`,
/// the damping time of a damper of ratio `zeta` on the contact spring `C / sigma` carrying the
/// corner's mass. It does not depend on the step: the powertrain integrates the damper
/// implicitly (see the module documentation).
#[inline]
pub fn contact_damping_time(
    wheel: &WheelParams,
    corner_mass: f64,
    slip_stiffness: f64,
    sigma: f64,
) -> f64 {
    if !(slip_stiffness.is_finite() && slip_stiffness > 0.0) {
        return 0.0;
    }
    let tau = 2.0 * wheel.contact_damping_ratio * (corner_mass * sigma / slip_stiffness).sqrt();
    if tau.is_finite() { tau } else { 0.0 }
}

/// `x` clamped to `[-max, max]`, zero when not finite.
#[inline]
fn finite_clamp(x: f64, max: f64) -> f64 {
    if x.is_finite() {
        x.clamp(-max, max)
    } else {
        0.0
    }
}

/// Tyre figures found once, at construction, by sweeping the model at load `fz` on the
/// reference road at [`TYRE_MIN_SPEED_M_PER_S`]: peak slips and stiffnesses per unit load.
/// Returns `(peak slip ratio, tan(peak slip angle), slip stiffness / Fz, cornering stiffness / Fz)`.
pub fn tyre_figures(tire: &Tire, fz: f64, pressure: f64) -> (f64, f64, f64, f64) {
    let base = TireInput {
        pressure,
        ..TireInput::rolling(fz, TYRE_MIN_SPEED_M_PER_S)
    };
    let mut best = (0.0, 0.1);
    for i in 1..=400 {
        let kappa = f64::from(i) * 0.0025;
        let fx = tire.evaluate(&base.with_kappa(kappa)).fx;
        if fx > best.0 {
            best = (fx, kappa);
        }
    }
    let peak_kappa = best.1;
    let mut best = (0.0, 0.1);
    for i in 1..=400 {
        let alpha = f64::from(i) * 0.002;
        let fy = -tire.evaluate(&base.with_alpha(alpha)).fy;
        if fy > best.0 {
            best = (fy, alpha);
        }
    }
    let peak_alpha: f64 = best.1;
    let (kx, ky) = slip_stiffnesses(tire, fz, pressure, TYRE_MIN_SPEED_M_PER_S);
    let per_load = |k: f64| {
        if k.is_finite() && k > 0.0 {
            k / fz
        } else {
            10.0
        }
    };
    (peak_kappa, peak_alpha.tan(), per_load(kx), per_load(ky))
}

#[cfg(test)]
#[allow(clippy::float_cmp)]
mod tests {
    use super::*;
    use crate::ground::{FlatGround, RayHint};
    use crate::tire::SimplifiedPacejka;
    use crate::vehicle::tyre_envelope::PROBES;

    const PEAK: PeakSlip = PeakSlip {
        ratio: 0.1,
        tan_angle: 0.2,
    };

    fn corner() -> Corner {
        Corner {
            axle: 0,
            side: 1.0,
            mount: WheelMount {
                hardpoint: DVec3::new(1.0, 0.8, 0.2),
                max_length_m: 0.4,
                static_compression_m: 0.1,
                mass_kg: 40.0,
                tyre_stiffness_n_per_m: 200_000.0,
                tyre_damping_n_s_per_m: 50.0,
                free_radius_m: 0.3,
            },
            radius: 0.29,
            peak: PEAK,
            slip_stiffness_per_load: 16.5,
            cornering_stiffness_per_load: 13.5,
            relaxation: RelaxationTable::new(
                &VehicleParams::default().front.wheel,
                &Tire::SimplifiedPacejka(SimplifiedPacejka::default()),
                3600.0,
                TYRE_MIN_SPEED_M_PER_S,
            ),
        }
    }

    #[test]
    fn contact_deflection_and_rate() {
        let mut body = RigidBody::default();
        body.pose.position = DVec3::new(0.0, 0.0, 0.55);
        body.velocity = DVec3::new(10.0, 0.0, -0.2);
        let travel = WheelTravel {
            compression_m: 0.1,
            rate_m_per_s: 0.05,
        };
        let ground = FlatGround::default();
        let c = corner().find_contact(&body, &travel, &ground, &mut [RayHint::default(); PROBES]);
        // Hardpoint at 0.75 m, wheel centre 0.3 m below it: 0.45 m up, hanging 15 cm clear.
        assert!(!c.contact && (c.wheel_centre.z - 0.45).abs() < 1e-12);
        assert!((c.compression - 0.1).abs() < 1e-12);
        body.pose.position.z = 0.29;
        let c = corner().find_contact(&body, &travel, &ground, &mut [RayHint::default(); PROBES]);
        // Centre at 0.19 m: the 0.3 m tyre pressed by 0.11 m, at the body's 0.2 m/s down
        // plus the wheel's 0.05 m/s up relative to it: 0.15 m/s.
        assert!(c.contact);
        assert!((c.tyre_deflection_m - 0.11).abs() < 1e-12);
        assert!((c.tyre_deflection_rate_m_per_s - 0.15).abs() < 1e-12);
        assert!((c.point.z).abs() < 1e-12 && (c.wheel_centre.z - 0.19).abs() < 1e-12);
    }

    #[test]
    fn contact_frame_signs_follow_iso_w() {
        let mut body = RigidBody::default();
        body.pose.position = DVec3::new(0.0, 0.0, 0.4);
        // Car moving forward and sliding to the left: positive lateral slip velocity.
        body.velocity = DVec3::new(10.0, 1.0, 0.0);
        let c = corner().find_contact(
            &body,
            &corner().mount.static_travel(),
            &FlatGround::default(),
            &mut [RayHint::default(); PROBES],
        );
        let k = contact_kinematics(&body, &c, 0.0, 0.0);
        assert!((k.vx - 10.0).abs() < 1e-12 && (k.vy - 1.0).abs() < 1e-12);
        // Steering left by 0.1 rad turns the heading left: velocity now to the right of it.
        let k = contact_kinematics(&body, &c, 0.1, 0.0);
        assert!((k.vy - (1.0 * 0.1f64.cos() - 10.0 * 0.1f64.sin())).abs() < 1e-12);
        // Negative camber on the left wheel: top leans to -y, ISO gamma positive.
        let k = contact_kinematics(&body, &c, 0.0, 0.02);
        assert!((k.gamma - 0.02).abs() < 1e-12);
        // The top of the wheel: the wheel's up axis, rotated by gamma about x, leans to -y.
        let top = DQuat::from_rotation_x(0.02).mul_vec3(DVec3::Z);
        assert!(top.y < 0.0);
        // Rolling the body to the right (about +x) by 0.01 rad adds 0.01 rad of inclination.
        body.pose.orientation = DQuat::from_rotation_x(0.01);
        let k = contact_kinematics(&body, &c, 0.0, 0.02);
        assert!((k.gamma - 0.03).abs() < 1e-12);
    }

    /// The default wheel's lengths: 0.15 m and 0.35 m.
    const SIGMA: RelaxationLengths = RelaxationLengths {
        longitudinal_m: 0.15,
        lateral_m: 0.35,
    };

    #[test]
    fn transient_slip_converges_to_steady_state_at_speed() {
        let w = VehicleParams::default().front.wheel;
        let mut d = TreadDeflection::default();
        // 20 m/s, wheel braking at kappa = -0.05, sliding sideways at tan(alpha) = 0.02.
        let (vx, vsx, vsy) = (20.0, 1.0, 0.4);
        for _ in 0..2000 {
            d = w.advance_deflection(&d, (vx, vsx, vsy), SIGMA, 0.001, PEAK);
        }
        let s = w.transient_slip(&d, (vx, vsx, vsy), SIGMA, 0.02);
        assert!((s.kappa + 0.05).abs() < 1e-9, "{}", s.kappa);
        assert!((s.alpha - 0.02f64.atan()).abs() < 1e-9);
    }

    #[test]
    fn slip_sensitivity_is_the_damper_over_the_relaxation_length() {
        let w = VehicleParams::default().front.wheel;
        let tau = contact_damping_time(&w, 370.0, 16.5 * 3600.0, 0.15);
        assert!((tau - 2.0 * 0.5 * (370.0 * 0.15 / (16.5 * 3600.0_f64)).sqrt()).abs() < 1e-15);
        let d = TreadDeflection {
            longitudinal_m: 0.002,
            lateral_m: 0.0,
        };
        // At 1 m/s the damper is partly faded in; the sensitivity is the slope in vsx.
        let (vx, vsx, h) = (1.0, -0.3, 1e-6);
        let s = w.transient_slip(&d, (vx, vsx, 0.0), SIGMA, tau);
        let ahead = w.transient_slip(&d, (vx, vsx + h, 0.0), SIGMA, tau);
        let numeric = (ahead.kappa - s.kappa) / h;
        assert!((s.kappa_per_slip_velocity - numeric).abs() < 1e-9);
        assert!((s.kappa_per_slip_velocity + s.low_speed_weight * tau / 0.15).abs() < 1e-15);
        // No damper from the fade-out speed on.
        assert_eq!(
            w.transient_slip(&d, (3.0, vsx, 0.0), SIGMA, tau)
                .kappa_per_slip_velocity,
            0.0
        );
    }

    #[test]
    fn standstill_deflection_is_a_spring_bounded_by_the_peak() {
        let w = VehicleParams::default().front.wheel;
        let mut d = TreadDeflection::default();
        // Locked wheel pushed forward by 1 mm: deflection -1 mm, no relaxation.
        d = w.advance_deflection(&d, (0.0, 1.0, 0.0), SIGMA, 0.001, PEAK);
        assert!((d.longitudinal_m + 0.001).abs() < 1e-15);
        // Pushed far: held at the peak deflection sigma * kappa_peak.
        for _ in 0..1000 {
            d = w.advance_deflection(&d, (0.0, 1.0, 0.0), SIGMA, 0.001, PEAK);
        }
        assert!((d.longitudinal_m + 0.15 * 0.1).abs() < 1e-12);
    }

    #[test]
    fn figures_of_the_simplified_pacejka() {
        let t = Tire::SimplifiedPacejka(SimplifiedPacejka::default());
        let (k, ta, kx, ky) = tyre_figures(&t, 3600.0, 2.2e5);
        // Peaks at tan(pi / 2C) / B: 0.139 (C = 1.65) and 0.233 rad (C = 1.35).
        assert!((k - (PI / 3.3).tan() / 10.0).abs() < 0.003, "{k}");
        assert!((ta.atan() - (PI / 2.7).tan() / 10.0).abs() < 0.003);
        assert!((kx - 16.5).abs() < 1e-3 && (ky - 13.5).abs() < 1e-3);
    }
}

//! [`TyreForces`]: the four tyres at their contact patches through one step.
//!
//! 1. [`TyreForces::evaluate`]: for each wheel in contact, the contact frame and slip
//!    velocities, the transient slips from its tread deflections and the tyre forces (the
//!    surface's friction, and the tyre's heat where it has a thermal model, as `mu_scale`).
//!    Each axle's tyre runs as measured on the side its data were measured on and as its
//!    mirror image on the other ([`crate::tire::Tire::on_side`]); the camber goes in as the
//!    ISO inclination (`-camber` on the left, `+camber` on the right, see [`crate::tire`]).
//!    The forces act on the body at the contact point, the aligning moment about the ground
//!    normal (the part along the suspension axis then moves to the wheel's own mass,
//!    [`crate::vehicle::unsprung`]). The wheel gets the
//!    road torque `-fx r` and its slope in the spin through the standstill damper (the tyre's
//!    local `dFx / dkappa`, by a finite difference, only below the damper's fade-out speed;
//!    see [`crate::vehicle::wheel`]); rolling resistance joins the brakes' friction torque.
//! 2. [`TyreForces::set_brake_torques`]: the brakes' torques join the wheels' loads.
//! 3. After the powertrain has advanced the spins, [`TyreForces::follow_spins`]: the body
//!    receives the damper's force change over the step, as the wheel did, so road and wheel
//!    exchange equal and opposite forces.
//! 4. What the tread deflections ([`TyreForces::loaded_contact_speeds`]) and the tyres' heat
//!    ([`TyreForces::thermal_loads`]) advance with.

use glam::DVec3;

use super::brakes::WheelSlipSensor;
use super::chassis::{BodyLoads, RigidBody};
use super::params::{GRAVITY, VehicleParams};
use super::relaxation::RelaxationLengths;
use super::steer_camber::steer_camber_deg;
use super::telemetry::WheelTelemetry;
use super::tyre_heat::TyreHeat;
use super::wheel::{
    ContactGeometry, Corner, TYRE_MIN_SPEED_M_PER_S, TreadDeflection, contact_damping_time,
    contact_kinematics,
};
use crate::powertrain::{WheelLoad, WheelSpin};
use crate::tire::thermal::ThermalLoads;
use crate::tire::{Tire, TireInput, TireModel, TireOutput, TyreSide};

/// Relative step in kappa of the finite difference that finds the tyre's local slope.
const KAPPA_STEP: f64 = 1e-4;

/// What the tyres read at the start of a step, wheels `[FL, FR, RL, RR]`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TyreInputs<'a> {
    /// The car's parameters.
    pub params: &'a VehicleParams,
    /// Geometry and tyre figures of the corners.
    pub corners: &'a [Corner; 4],
    /// The `[front, rear]` tyre models.
    pub tires: &'a [Tire; 2],
    /// The body's state.
    pub body: &'a RigidBody,
    /// Where each wheel meets the ground.
    pub contacts: &'a [ContactGeometry; 4],
    /// Tyre loads (N).
    pub loads_n: &'a [f64; 4],
    /// Road-wheel steer angles `[left, right]` of the front wheels (rad), without toe.
    pub road_wheels_rad: [f64; 2],
    /// Wheel spins before the step.
    pub spins: &'a [WheelSpin; 4],
    /// Tread deflections before the step.
    pub deflections: &'a [TreadDeflection; 4],
    /// The tyres' temperatures and wear: their pressures and grip.
    pub tyre_heat: &'a TyreHeat,
}

/// The four tyres' forces and what follows from them in one step, wheels
/// `[FL, FR, RL, RR]` (see the module documentation).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct TyreForces {
    /// Tyre forces and aligning moments (ISO-W); zero for a wheel without load. After
    /// [`TyreForces::follow_spins`], `fx` includes the damper's change over the step.
    pub forces: [TireOutput; 4],
    /// What the driver aids read of each wheel.
    pub sensors: [WheelSlipSensor; 4],
    /// The torques on each wheel from outside the driveline, for the powertrain.
    pub wheel_loads: [WheelLoad; 4],
    /// Each wheel's telemetry (spin, travel, steer, camber, surface, contact, load, slips,
    /// forces, brake torque).
    pub telemetry: [WheelTelemetry; 4],
    /// Each tyre's whole force on the body at its patch (world, N: normal load, tyre forces,
    /// loose-surface drag); after [`TyreForces::follow_spins`] with the damper's change. The
    /// part along the suspension axis is the wheel's ([`crate::vehicle::unsprung`]).
    pub contact_forces_world: [DVec3; 4],
    /// Contact speeds `(vx, vy)` (m/s) of the loaded wheels.
    contact_speeds: [(f64, f64); 4],
    /// Relaxation lengths at each loaded wheel's load.
    relaxation: [RelaxationLengths; 4],
    /// Rolling-resistance torques (N·m).
    rolling_resistance_n_m: [f64; 4],
    /// Sliding powers of the contact patches (W).
    sliding_power_w: [f64; 4],
    /// The force's slope in the spin through the standstill damper (N per rad/s).
    fx_per_spin: [f64; 4],
    /// Headings in the ground plane (world, unit).
    headings: [DVec3; 4],
    /// Lateral axes of the contact frames (world, unit).
    laterals: [DVec3; 4],
}

impl TyreForces {
    /// Evaluates the four tyres at the start of a step and adds their forces on the body to
    /// `body_loads`, wheel by wheel in order.
    pub(crate) fn evaluate(inputs: &TyreInputs<'_>, body_loads: &mut BodyLoads) -> Self {
        let mut tyres = Self::default();
        for i in 0..4 {
            tyres.evaluate_wheel(i, inputs, body_loads);
        }
        tyres
    }

    /// Wheel `i` of [`TyreForces::evaluate`].
    fn evaluate_wheel(&mut self, i: usize, inputs: &TyreInputs<'_>, body_loads: &mut BodyLoads) {
        let p = inputs.params;
        let body = inputs.body;
        let position = body.pose.position;
        let corner = &inputs.corners[i];
        let ap = p.axle(corner.axle);
        let wp = &ap.wheel;
        let c = &inputs.contacts[i];
        let toe = -corner.side * ap.static_toe_deg.to_radians();
        let steer_angle = if corner.axle == 0 {
            inputs.road_wheels_rad[i] + toe
        } else {
            toe
        };
        let kingpin_steer = if corner.axle == 0 {
            inputs.road_wheels_rad[i]
        } else {
            0.0
        };
        // Car terms: negative when the top of the wheel leans towards the car's centre.
        let camber = (ap.static_camber_deg
            + ap.camber_gain_deg_per_m * (c.compression - corner.mount.static_compression_m)
            + steer_camber_deg(&p.steering, corner.side, kingpin_steer))
        .to_radians();
        // ISO inclination in the body frame: -camber on the left (side +1), +camber on the
        // right (side -1).
        let gamma_body = -corner.side * camber;
        let omega = inputs.spins[i].omega;
        self.telemetry[i] = WheelTelemetry {
            spin_rad_per_s: omega,
            suspension_travel_m: c.compression,
            steer_angle_rad: steer_angle,
            camber_rad: camber,
            surface: c.surface,
            contact: c.contact,
            centre_position: c.wheel_centre,
            ..WheelTelemetry::default()
        };
        let fz = inputs.loads_n[i];
        if !c.contact || fz <= 0.0 {
            return;
        }
        let k = contact_kinematics(body, c, steer_angle, gamma_body);
        let r = corner.radius;
        let vsx = k.vx - omega * r;
        let vsy = k.vy;
        self.contact_speeds[i] = (k.vx, k.vy);
        self.sensors[i] = WheelSlipSensor {
            rim_speed: omega * r,
            ground_speed: k.vx,
            contact: true,
        };
        let sigma = corner.relaxation.at(fz);
        self.relaxation[i] = sigma;
        let damping_time = contact_damping_time(
            wp,
            p.static_wheel_load_n(corner.axle) / GRAVITY,
            corner.slip_stiffness_per_load * fz,
            sigma.longitudinal_m,
        );
        let slip = wp.transient_slip(
            &inputs.deflections[i],
            (k.vx, vsx, vsy),
            sigma,
            damping_time,
        );
        let surface = c.surface.properties();
        // Without thermal parameters: the set pressure and the road's friction, untouched.
        let (pressure, mu_scale) =
            inputs
                .tyre_heat
                .tyre_conditions(i, wp.tyre_pressure_pa, surface.friction_scale);
        let input = TireInput {
            fz,
            kappa: slip.kappa,
            alpha: slip.alpha,
            gamma: k.gamma,
            vx: if k.vx < 0.0 {
                k.vx.min(-TYRE_MIN_SPEED_M_PER_S)
            } else {
                k.vx.max(TYRE_MIN_SPEED_M_PER_S)
            },
            pressure,
            mu_scale,
        };
        // The axle's tyre as it runs on this side: mirrored on the side its data were not
        // measured on, for the forces and the slope alike.
        let tire = inputs.tires[corner.axle].on_side(TyreSide::of_sign(corner.side));
        // Only what the step uses (fx, fy, mz; the same bits as a full evaluation).
        let mut out = tire.evaluate_forces(&input);
        if !out.is_finite() {
            out = TireOutput::default();
        }
        self.forces[i] = out;
        self.sliding_power_w[i] = ThermalLoads::sliding_power_w(out.fx, out.fy, vsx, vsy);
        // How the force follows the spin through the standstill damper (N·s/m·rad⁻¹·m, i.e.
        // N per rad/s): the tyre's local slope in kappa, where rising (beyond the peak the
        // damper no longer stiffens the coupling), times `dkappa / domega`.
        if slip.kappa_per_slip_velocity != 0.0 {
            let h = KAPPA_STEP * slip.kappa.abs().max(1.0);
            let ahead = tire.longitudinal_force(&TireInput {
                kappa: slip.kappa + h,
                ..input
            });
            let slope = (ahead - out.fx) / h;
            if slope.is_finite() && slope > 0.0 {
                self.fx_per_spin[i] = -slope * slip.kappa_per_slip_velocity * r;
            }
        }
        self.headings[i] = k.x;
        self.laterals[i] = k.y;

        // Forces on the body.
        let n = c.normal;
        let loose = k.planar_velocity * (-surface.loose_drag_s_per_m * fz);
        // The whole tyre force at the patch: the links' share of the load (`link_loads`)
        // acts along lines through the patch, so nothing moves to the roll centre.
        let at_patch = k.x * out.fx + k.y * out.fy + n * fz + loose;
        body_loads.add(at_patch, (c.point - position).cross(at_patch) + n * out.mz);
        self.contact_forces_world[i] = at_patch;

        // Torque on the wheel and its slope in the spin: the tread spring acts explicitly,
        // the standstill damper implicitly (see `wheel`); the body gets the matching force
        // change after the spin update (`follow_spins`).
        // Rolling resistance is a friction torque: it joins the brake capacity.
        self.wheel_loads[i].road_torque = -out.fx * r;
        self.wheel_loads[i].road_torque_slope = -self.fx_per_spin[i] * r;
        self.rolling_resistance_n_m[i] =
            wp.rolling_resistance_torque(fz, k.vx, surface.extra_rolling_resistance);

        let w = &mut self.telemetry[i];
        w.load_n = fz;
        w.slip_ratio = slip.kappa;
        w.slip_angle_rad = slip.alpha;
        w.slip_velocity_m_per_s = vsx.hypot(vsy);
        w.fx_n = out.fx;
        w.fy_n = out.fy;
        w.mz_n_m = out.mz;
        // Back to car terms against the road: the same numbers on both sides of a level car.
        w.camber_rad = -corner.side * k.gamma;
    }

    /// The brakes' torque capacities (N·m, after ABS, with the handbrake) join the wheels'
    /// friction torques, rolling resistance included.
    pub(crate) fn set_brake_torques(&mut self, brake_torques_n_m: &[f64; 4]) {
        for ((w, load), (&brake, &rolling)) in self
            .telemetry
            .iter_mut()
            .zip(&mut self.wheel_loads)
            .zip(brake_torques_n_m.iter().zip(&self.rolling_resistance_n_m))
        {
            w.brake_torque_n_m = brake;
            load.brake_torque = w.brake_torque_n_m + rolling;
        }
    }

    /// After the powertrain has advanced the wheels to `spins`: it applied the linearised road
    /// torque `-(fx + fx_per_spin d_omega) r` to each wheel, so the road pushes the body
    /// (at the wheels' `contacts`, about the CG at `cg`) with the same force change, added to
    /// `body_loads`; the tyres' `fx` follow.
    pub(crate) fn follow_spins(
        &mut self,
        spins: &[WheelSpin; 4],
        contacts: &[ContactGeometry; 4],
        cg: DVec3,
        body_loads: &mut BodyLoads,
    ) {
        for i in 0..4 {
            if self.fx_per_spin[i] == 0.0 {
                continue;
            }
            let dfx = self.fx_per_spin[i] * (spins[i].omega - self.telemetry[i].spin_rad_per_s);
            if !dfx.is_finite() {
                continue;
            }
            let push = self.headings[i] * dfx;
            body_loads.add(push, (contacts[i].point - cg).cross(push));
            self.contact_forces_world[i] += push;
            self.forces[i].fx += dfx;
            self.telemetry[i].fx_n += dfx;
        }
    }

    /// The contact speeds `(vx, vy)` (m/s) of the wheels that carry load, `None` for the
    /// others: what [`crate::vehicle::wheel::advance_deflections`] takes.
    /// Each tyre's force in the ground plane (world, N; zero off the ground), `fx` after
    /// [`TyreForces::follow_spins`]: what the links carry into the next step's loads.
    pub(crate) fn planar_forces_world(&self) -> [DVec3; 4] {
        std::array::from_fn(|i| {
            self.headings[i] * self.forces[i].fx + self.laterals[i] * self.forces[i].fy
        })
    }

    /// Each loaded wheel's contact speeds `(vx, vy)` (m/s) and relaxation lengths; `None` for
    /// a wheel without load.
    pub(crate) fn loaded_contact_speeds(&self) -> [Option<(f64, f64, RelaxationLengths)>; 4] {
        std::array::from_fn(|i| {
            let (vx, vy) = self.contact_speeds[i];
            (self.telemetry[i].load_n > 0.0).then_some((vx, vy, self.relaxation[i]))
        })
    }

    /// What heats each tyre over the step with the wheels' new `spins` and the car's
    /// `air_speed` (m/s): sliding, rolling-loss and brake powers.
    pub(crate) fn thermal_loads(
        &self,
        spins: &[WheelSpin; 4],
        air_speed: f64,
    ) -> [ThermalLoads; 4] {
        std::array::from_fn(|i| {
            let spin = spins[i].omega.abs();
            ThermalLoads {
                sliding_power_w: self.sliding_power_w[i],
                rolling_loss_power_w: self.rolling_resistance_n_m[i] * spin,
                brake_power_w: self.telemetry[i].brake_torque_n_m * spin,
                air_speed_m_per_s: air_speed,
                in_contact: self.telemetry[i].load_n > 0.0,
            }
        })
    }

    /// Records the wheels' new `spins` in their telemetry.
    pub(crate) fn record_spins(&mut self, spins: &[WheelSpin; 4]) {
        for (w, s) in self.telemetry.iter_mut().zip(spins) {
            w.spin_rad_per_s = s.omega;
        }
    }
}

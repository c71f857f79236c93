//! [`Vehicle`]: the parts put together, and one physics step.
//!
//! # One step
//!
//! 1. Sanitise the controls; steering-wheel angle to road-wheel angles.
//! 2. Each corner casts its ray: contact, compression, compression rate.
//! 3. Suspension forces (spring, damper, bump stop, anti-roll bar) give the tyre loads,
//!    clamped at zero (a tyre cannot pull).
//! 4. Each wheel in contact: contact frame and slip velocities, transient slips from its
//!    tread deflections, tyre forces (surface friction as `mu_scale`); the forces act on the
//!    body at the contact point (the lateral force at the axle's roll-centre height), the
//!    aligning moment about the ground normal; the road torque on the wheel `-fx r`, and its
//!    slope in the spin through the standstill damper (the tyre's local `dFx / dkappa`, by a
//!    finite difference, only below the damper's fade-out speed).
//! 5. ABS scales the brake torques, traction control the throttle; the powertrain advances
//!    the wheel spins (and its own states) with the road torques, their slopes (the damper
//!    implicit) and the friction-torque capacities: brakes, handbrake and rolling resistance.
//!    The body receives the damper's force change over the step, as the wheel did.
//! 6. Tread deflections advance with the new spins.
//! 7. Aerodynamic and body-contact forces (ground and walls); gravity; the rigid body advances.
//! 8. Steering-column torque from the front tyres; telemetry.
//! 9. Tyres with thermal parameters: temperatures and wear advance with this step's sliding,
//!    rolling and brake powers; the next step's tyre inputs use the new hot pressure and grip
//!    factor (see [`crate::tire::thermal`]). Tyres without them skip all of it and see the set
//!    pressure and the road's friction unchanged.
//!
//! Everything lives in fixed-size arrays: the step allocates nothing, reads no clock and uses
//! no randomness, so the same inputs give bit-identical states.

use glam::{DQuat, DVec3};

use super::aero::AeroPoints;
use super::anti_roll_bar::anti_roll_bar_forces;
use super::body_contact::{BODY_POINTS, body_contact_loads, body_points};
use super::brakes::{Abs, TractionControl, WheelSlipSensor};
use super::chassis::{Pose, RigidBody};
use super::params::{AidParams, GRAVITY, VehicleParams};
use super::telemetry::{Snapshot, WheelTelemetry};
use super::tyre_heat::TyreHeat;
use super::wall_contact::{BodyShape, MassProperties, WallMemory, wall_contact_loads};
use super::wheel::{
    ContactGeometry, Corner, PeakSlip, TYRE_MIN_SPEED_M_PER_S, TreadDeflection,
    contact_damping_time, contact_kinematics, tyre_figures,
};
use crate::controls::Controls;
use crate::environment::Environment;
use crate::ground::{Ground, RayHint};
use crate::powertrain::{Drivetrain, Powertrain, WheelLoad, WheelSpin};
use crate::tire::thermal::{ThermalLoads, TyreThermalParams, TyreThermalState};
use crate::tire::{Tire, TireInput, TireModel, TireOutput};
use crate::validate::{Validate, Validator, Violations};

/// Distance from the suspension hardpoint to the wheel centre at full bump travel (m): the
/// ray's origin stays this far above the wheel centre.
pub const HARDPOINT_CLEARANCE_M: f64 = 0.1;

/// Relative step in kappa of the finite difference that finds the tyre's local slope.
const KAPPA_STEP: f64 = 1e-4;

/// The ground queries' hints of the four wheels and the body probes.
#[derive(Clone, Copy, Debug, Default)]
struct GroundHints {
    wheels: [RayHint; 4],
    body: [RayHint; BODY_POINTS],
}

/// The vehicle: chassis, suspension, wheels and tyres, steering, brakes, aids, aero and the
/// powertrain, advanced by [`Vehicle::step`].
#[derive(Clone, Debug)]
pub struct Vehicle {
    params: VehicleParams,
    tires: [Tire; 2],
    corners: [Corner; 4],
    body_points: [DVec3; BODY_POINTS],
    aero_points: AeroPoints,
    inertia: DVec3,
    body: RigidBody,
    /// Wheel spin states (visible to the vehicle tests, which kick a wheel).
    pub(super) spins: [WheelSpin; 4],
    deflections: [TreadDeflection; 4],
    /// Where each wheel's and each body probe's ground query hit last tick: a cache that
    /// speeds the next query up and never changes its result.
    ground_hints: GroundHints,
    /// Which wall each body point touches: keeps every point on its side of a wall.
    wall_memory: WallMemory,
    abs: Abs,
    tc: TractionControl,
    powertrain: Powertrain,
    /// Tyre temperatures and wear, their parameters, and the environment.
    tyre_heat: TyreHeat,
    time_s: f64,
    snapshot: Snapshot,
}

impl Vehicle {
    /// Builds a vehicle from validated parameters and its `[front, rear]` tyres, standing at
    /// rest on flat ground at height zero, at the origin, heading along world x.
    ///
    /// # Errors
    /// Every problem in the parameters and tyre models, with field paths (tyre paths start
    /// with `tyres.front` / `tyres.rear`).
    pub fn new(params: VehicleParams, tires: [Tire; 2]) -> Result<Self, Violations> {
        let mut v = Validator::default();
        params.validate(&mut v);
        v.within("tyres", |v| {
            v.nested("front", &tires[0]);
            v.nested("rear", &tires[1]);
        });
        v.finish()?;

        let a = params.cg_to_front_axle_m();
        let b = params.cg_to_rear_axle_m();
        let h = params.chassis.cg_height_m;
        let corners = std::array::from_fn(|i| {
            let axle = i / 2;
            let side = if i % 2 == 0 { 1.0 } else { -1.0 };
            let ap = params.axle(axle);
            let s = &ap.suspension;
            let load = params.static_wheel_load_n(axle);
            let static_compression = (load - s.spring_preload_n) / s.spring_rate_n_per_m;
            let max_length = s.travel_m + HARDPOINT_CLEARANCE_M;
            let radius = ap.wheel.radius_m;
            let x = if axle == 0 { a } else { -b };
            let hardpoint = DVec3::new(
                x,
                0.5 * side * ap.track_m,
                radius - h + max_length - static_compression,
            );
            let (peak_slip_ratio, peak_tan_slip_angle, kx, ky) =
                tyre_figures(&tires[axle], load, ap.wheel.tyre_pressure_pa);
            Corner {
                axle,
                side,
                hardpoint,
                radius,
                max_length,
                static_compression,
                peak: PeakSlip {
                    ratio: peak_slip_ratio,
                    tan_angle: peak_tan_slip_angle,
                },
                slip_stiffness_per_load: kx,
                cornering_stiffness_per_load: ky,
            }
        });
        let aero_points = AeroPoints {
            centre_of_pressure: DVec3::new(
                params.aero.centre_of_pressure_x_m,
                0.0,
                params.aero.centre_of_pressure_height_m - h,
            ),
            front_axle: DVec3::new(a, 0.0, params.front.wheel.radius_m - h),
            rear_axle: DVec3::new(-b, 0.0, params.rear.wheel.radius_m - h),
        };
        let c = &params.chassis;
        let inertia = DVec3::new(
            c.roll_inertia_kg_m2,
            c.pitch_inertia_kg_m2,
            c.yaw_inertia_kg_m2,
        );
        let spins = std::array::from_fn(|i| WheelSpin {
            omega: 0.0,
            inertia: params.axle(i / 2).wheel.spin_inertia_kg_m2,
        });
        let mut vehicle = Self {
            body_points: body_points(&params.body, h, a),
            powertrain: Self::fuelled_powertrain(&params),
            tires,
            corners,
            aero_points,
            inertia,
            body: RigidBody::default(),
            spins,
            deflections: [TreadDeflection::default(); 4],
            ground_hints: GroundHints::default(),
            wall_memory: WallMemory::default(),
            abs: Abs::default(),
            tc: TractionControl::default(),
            tyre_heat: TyreHeat::default(),
            time_s: 0.0,
            snapshot: Snapshot::default(),
            params,
        };
        vehicle.reset_to(Pose::from_position_yaw(DVec3::new(0.0, 0.0, h), 0.0));
        Ok(vehicle)
    }

    /// Gives the `[front, rear]` tyres their thermal parameters (from their tyre files; `None`
    /// keeps a tyre without thermal model, exactly as [`Vehicle::new`] builds it), and puts the
    /// car back at rest with cold, new tyres ([`Vehicle::reset_to`] at the present pose).
    ///
    /// # Errors
    /// Every problem in the parameters, with paths `tyres.front.thermal.<field>` and
    /// `tyres.rear.thermal.<field>`.
    pub fn with_tyre_thermal(
        mut self,
        thermal: [Option<TyreThermalParams>; 2],
    ) -> Result<Self, Violations> {
        TyreHeat::check_params(&thermal)?;
        self.tyre_heat.set_params(thermal);
        self.reset_to(self.body.pose);
        Ok(self)
    }

    /// The thermal parameters of the `[front, rear]` tyres (`None`: no thermal model).
    pub fn tyre_thermal_params(&self) -> &[Option<TyreThermalParams>; 2] {
        self.tyre_heat.params()
    }

    /// Thermal states of the tyres `[FL, FR, RL, RR]`; a tyre without thermal parameters stays
    /// at the ambient temperature of its last reset and never wears.
    pub fn tyre_thermal_states(&self) -> &[TyreThermalState; 4] {
        self.tyre_heat.states()
    }

    /// Builds the car in `environment` (air and track temperatures; [`Vehicle::new`] uses
    /// [`Environment::default`]) and puts it back at rest with new tyres at its air
    /// temperature ([`Vehicle::reset_to`] at the present pose).
    ///
    /// # Errors
    /// The problems with `environment`, paths under `environment`.
    pub fn with_environment(mut self, environment: Environment) -> Result<Self, Violations> {
        self.set_environment(environment)?;
        self.reset_to(self.body.pose);
        Ok(self)
    }

    /// Air and track temperatures.
    pub fn environment(&self) -> Environment {
        self.tyre_heat.environment()
    }

    /// Sets the air and track temperatures from the next step on. The tyres keep their
    /// temperatures and move towards the new ones; a reset sets them to the new air
    /// temperature (their cold pressures are then taken as set at it).
    ///
    /// # Errors
    /// The problems with `environment`, paths under `environment`; the present one stays.
    pub fn set_environment(&mut self, environment: Environment) -> Result<(), Violations> {
        self.tyre_heat.set_environment(environment)
    }

    /// The parameters the vehicle was built with.
    pub fn params(&self) -> &VehicleParams {
        &self.params
    }

    /// The figures force feedback needs about this car (tyre peaks, driven wheels, the
    /// steering's reference torque), computed from its parameters and tyres.
    pub fn steering_feel(&self) -> crate::vehicle::SteeringFeel {
        crate::vehicle::SteeringFeel::of(&self.params, &self.tires)
    }

    /// The `[front, rear]` tyre models.
    pub fn tires(&self) -> &[Tire; 2] {
        &self.tires
    }

    /// The powertrain.
    pub fn powertrain(&self) -> &Powertrain {
        &self.powertrain
    }

    /// Current pose of the CG.
    pub fn pose(&self) -> Pose {
        self.body.pose
    }

    /// Rigid-body state (pose and velocities).
    pub fn body(&self) -> &RigidBody {
        &self.body
    }

    /// Wheel spin states `[FL, FR, RL, RR]`.
    pub fn wheel_spins(&self) -> &[WheelSpin; 4] {
        &self.spins
    }

    /// Tread deflection states `[FL, FR, RL, RR]` of the transient-slip model.
    pub fn tread_deflections(&self) -> &[TreadDeflection; 4] {
        &self.deflections
    }

    /// Geometry and tyre figures of the corners `[FL, FR, RL, RR]`.
    pub fn corners(&self) -> &[Corner; 4] {
        &self.corners
    }

    /// A powertrain whose tank holds the chassis's reference fuel load, so a new or reset car
    /// weighs its `mass_kg`.
    fn fuelled_powertrain(params: &VehicleParams) -> Powertrain {
        let mut powertrain = Powertrain::new(params.powertrain.clone());
        powertrain.set_fuel_mass_kg(params.chassis.fuel_mass_kg);
        powertrain
    }

    /// The powertrain, for settings that change at run time (gear, gearbox mode, engine).
    pub fn powertrain_mut(&mut self) -> &mut Powertrain {
        &mut self.powertrain
    }

    /// Current total mass (kg): `mass_kg` with the reference fuel replaced by what is in the
    /// tank now (the engine burns it; the mass follows, CG and inertia stay).
    pub fn mass_kg(&self) -> f64 {
        self.params.chassis.mass_kg - self.params.chassis.fuel_mass_kg
            + self.powertrain.fuel_mass_kg()
    }

    /// Sets the fuel in the tank (kg, clamped to the tank); the mass follows.
    pub fn set_fuel_mass_kg(&mut self, fuel_kg: f64) {
        self.powertrain.set_fuel_mass_kg(fuel_kg);
    }

    /// Replaces the driver-aid settings (ABS and traction control on or off, thresholds) from
    /// the next step on, e.g. when the player changes them in the settings.
    ///
    /// # Errors
    /// The problems with `aids`, paths under `aids`; the current settings stay.
    pub fn set_aids(&mut self, aids: AidParams) -> Result<(), Violations> {
        let mut v = Validator::default();
        v.nested("aids", &aids);
        v.finish()?;
        self.params.aids = aids;
        Ok(())
    }

    /// Steering-column torque of the last step (N·m, positive turning the wheel left).
    pub fn column_torque_n_m(&self) -> f64 {
        self.snapshot.column_torque_n_m
    }

    /// Telemetry of the last step.
    pub fn snapshot(&self) -> &Snapshot {
        &self.snapshot
    }

    /// The pose at which the car stands at static ride height on a plane through
    /// `ground_point` with upward unit normal `ground_normal`, heading `heading_rad` about that
    /// normal (counter-clockwise from world x when the plane is level).
    pub fn pose_at_rest(
        &self,
        ground_point: DVec3,
        ground_normal: DVec3,
        heading_rad: f64,
    ) -> Pose {
        let n = ground_normal.try_normalize().unwrap_or(DVec3::Z);
        let tilt = DQuat::from_rotation_arc(DVec3::Z, n);
        Pose {
            position: ground_point + n * self.params.chassis.cg_height_m,
            orientation: (tilt * DQuat::from_rotation_z(heading_rad)).normalize(),
        }
    }

    /// Puts the car at `pose` (CG position and `world_from_body`), at rest: velocities, wheel
    /// spins, tyre deflections, aids and powertrain reset (gearbox mode back to the
    /// parameters'), tyres new and at the air temperature, time back to zero. Allocates
    /// nothing.
    pub fn reset_to(&mut self, pose: Pose) {
        let orientation = if pose.orientation.is_finite() {
            pose.orientation.normalize()
        } else {
            DQuat::IDENTITY
        };
        let position = if pose.position.is_finite() {
            pose.position
        } else {
            DVec3::ZERO
        };
        self.body = RigidBody {
            pose: Pose {
                position,
                orientation,
            },
            velocity: DVec3::ZERO,
            angular_velocity: DVec3::ZERO,
        };
        for s in &mut self.spins {
            s.omega = 0.0;
        }
        self.deflections = [TreadDeflection::default(); 4];
        self.wall_memory = WallMemory::default();
        self.abs = Abs::default();
        self.tc = TractionControl::default();
        // In place, as `fuelled_powertrain` builds it, without cloning the parameters.
        self.powertrain.reset(self.params.powertrain.gearbox.mode);
        self.powertrain
            .set_fuel_mass_kg(self.params.chassis.fuel_mass_kg);
        self.tyre_heat.reset();
        self.time_s = 0.0;
        self.snapshot = Snapshot {
            position,
            orientation,
            mass_kg: self.mass_kg(),
            ..Snapshot::default()
        };
        for (i, w) in self.snapshot.wheels.iter_mut().enumerate() {
            let set_pressure = self.params.axle(i / 2).wheel.tyre_pressure_pa;
            self.tyre_heat.telemetry(i, set_pressure, w);
        }
    }

    /// Sets the car moving straight ahead at `speed` (m/s, negative backwards) along its body
    /// x axis, wheels rolling freely at that speed, and the engine turning at the speed the
    /// engaged gear gives (never below idle), as if the car had been driven there.
    pub fn set_forward_speed(&mut self, speed: f64) {
        if !speed.is_finite() {
            return;
        }
        self.body.velocity = self.body.pose.orientation.mul_vec3(DVec3::X * speed);
        self.body.angular_velocity = DVec3::ZERO;
        for (s, c) in self.spins.iter_mut().zip(&self.corners) {
            s.omega = speed / c.radius;
        }
        let gear = self.powertrain.gear();
        if gear != 0 {
            let spin = |i: usize| self.spins[i].omega;
            let driven = match self.params.powertrain.drivetrain {
                Drivetrain::Fwd { .. } => 0.5 * (spin(0) + spin(1)),
                Drivetrain::Rwd { .. } => 0.5 * (spin(2) + spin(3)),
                Drivetrain::Awd { .. } => 0.25 * (spin(0) + spin(1) + spin(2) + spin(3)),
            };
            let gearbox = &self.params.powertrain.gearbox;
            let rpm = gearbox.engine_rpm_in(gear, driven * gearbox.final_drive);
            let idle = self.params.powertrain.engine.idle_rpm;
            self.powertrain.set_engine_rpm(rpm.abs().max(idle));
        }
    }

    /// Advances the vehicle by `dt` seconds (1 ms at the real-time rate) with the driver's
    /// `controls` on `ground`. Non-positive or non-finite `dt` does nothing.
    pub fn step(&mut self, controls: &Controls, ground: &impl Ground, dt: f64) {
        if !(dt > 0.0 && dt.is_finite()) {
            return;
        }
        let controls = controls.sanitized();
        let p = &self.params;
        let mass = self.mass_kg();
        let q = self.body.pose.orientation;
        let position = self.body.pose.position;
        let velocity_before = self.body.velocity;

        // 1. Steering.
        let steering_wheel = p.steering.clamp_to_lock(controls.steering_wheel_rad);
        let steer =
            p.steering
                .road_wheel_angles(steering_wheel, p.chassis.wheelbase_m, p.front.track_m);

        // 2. Contacts.
        let hints = &mut self.ground_hints.wheels;
        let contacts: [ContactGeometry; 4] = std::array::from_fn(|i| {
            self.corners[i].find_contact(&self.body, ground, &mut hints[i])
        });

        // 3. Suspension forces and tyre loads.
        let mut suspension = [0.0; 4];
        for axle in 0..2 {
            let (l, r) = (2 * axle, 2 * axle + 1);
            let ap = p.axle(axle);
            let (arb_l, arb_r) = anti_roll_bar_forces(
                ap.anti_roll_bar_n_per_m,
                contacts[l].compression,
                contacts[r].compression,
            );
            for (i, arb) in [(l, arb_l), (r, arb_r)] {
                let c = &contacts[i];
                if c.contact {
                    suspension[i] = ap.suspension.force(c.compression, c.compression_rate) + arb;
                }
            }
        }
        let loads_n: [f64; 4] = std::array::from_fn(|i| suspension[i].max(0.0));

        // 4. Tyres.
        let mut force = DVec3::new(0.0, 0.0, -GRAVITY * mass);
        let mut torque = DVec3::ZERO;
        let mut wheel_loads = [WheelLoad::default(); 4];
        let mut sensors = [WheelSlipSensor::default(); 4];
        let mut outputs = [TireOutput::default(); 4];
        let mut wheels = [WheelTelemetry::default(); 4];
        let mut contact_speeds = [(0.0, 0.0); 4];
        let mut rolling = [0.0; 4];
        let mut sliding_w = [0.0; 4];
        let mut fx_per_spin = [0.0; 4];
        let mut headings = [DVec3::ZERO; 4];
        for i in 0..4 {
            let corner = &self.corners[i];
            let ap = p.axle(corner.axle);
            let wp = &ap.wheel;
            let c = &contacts[i];
            let toe = -corner.side * ap.static_toe_deg.to_radians();
            let steer_angle = if corner.axle == 0 {
                steer[i] + toe
            } else {
                toe
            };
            let camber = (ap.static_camber_deg
                + ap.camber_gain_deg_per_m * (c.compression - corner.static_compression))
                .to_radians();
            let omega = self.spins[i].omega;
            wheels[i] = WheelTelemetry {
                spin_rad_per_s: omega,
                suspension_travel_m: c.compression,
                steer_angle_rad: steer_angle,
                camber_rad: corner.side * camber,
                surface: c.surface,
                contact: c.contact,
                centre_position: c.wheel_centre,
                ..WheelTelemetry::default()
            };
            let fz = loads_n[i];
            if !c.contact || fz <= 0.0 {
                continue;
            }
            let k = contact_kinematics(&self.body, c, steer_angle, corner.side * camber);
            let r = corner.radius;
            let vsx = k.vx - omega * r;
            let vsy = k.vy;
            contact_speeds[i] = (k.vx, k.vy);
            sensors[i] = WheelSlipSensor {
                rim_speed: omega * r,
                ground_speed: k.vx,
                contact: true,
            };
            let damping_time = contact_damping_time(
                wp,
                p.static_wheel_load_n(corner.axle) / GRAVITY,
                corner.slip_stiffness_per_load * fz,
            );
            let slip = wp.transient_slip(&self.deflections[i], k.vx, vsx, vsy, damping_time);
            let surface = c.surface.properties();
            // Without thermal parameters: the set pressure and the road's friction, untouched.
            let (pressure, mu_scale) =
                self.tyre_heat
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
            let tire = &self.tires[corner.axle];
            // Only what the step uses (fx, fy, mz; the same bits as a full evaluation).
            let mut out = tire.evaluate_forces(&input);
            if !out.is_finite() {
                out = TireOutput::default();
            }
            outputs[i] = out;
            sliding_w[i] = ThermalLoads::sliding_power_w(out.fx, out.fy, vsx, vsy);
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
                    fx_per_spin[i] = -slope * slip.kappa_per_slip_velocity * r;
                }
            }
            headings[i] = k.x;

            // Forces on the body.
            let n = c.normal;
            let loose = k.planar_velocity * (-surface.loose_drag_s_per_m * fz);
            let at_patch = k.x * out.fx + n * fz + loose;
            let lateral = k.y * out.fy;
            let lateral_point = c.point + n * ap.roll_centre_height_m;
            force += at_patch + lateral;
            torque += (c.point - position).cross(at_patch)
                + (lateral_point - position).cross(lateral)
                + n * out.mz;

            // Torque on the wheel and its slope in the spin: the tread spring acts explicitly,
            // the standstill damper implicitly (see `wheel`); the body gets the matching
            // force change after the spin update (step 5).
            // Rolling resistance is a friction torque: it joins the brake capacity below.
            wheel_loads[i].road_torque = -out.fx * r;
            wheel_loads[i].road_torque_slope = -fx_per_spin[i] * r;
            rolling[i] = wp.rolling_resistance_torque(fz, k.vx, surface.extra_rolling_resistance);

            wheels[i].load_n = fz;
            wheels[i].slip_ratio = slip.kappa;
            wheels[i].slip_angle_rad = slip.alpha;
            wheels[i].slip_velocity_m_per_s = vsx.hypot(vsy);
            wheels[i].fx_n = out.fx;
            wheels[i].fy_n = out.fy;
            wheels[i].mz_n_m = out.mz;
            wheels[i].camber_rad = k.gamma;
        }

        // 5. Brakes, aids, powertrain.
        let abs = self.abs.update(&p.aids, controls.brake, &sensors, dt);
        let tc = self.tc.update(&p.aids, &sensors, dt);
        let service = p.brakes.service_capacity(controls.brake);
        let handbrake = p.brakes.handbrake_capacity(controls.handbrake);
        for i in 0..4 {
            let hand = if i >= 2 { handbrake } else { 0.0 };
            wheels[i].brake_torque_n_m = service[i] * abs[i] + hand;
            wheel_loads[i].brake_torque = wheels[i].brake_torque_n_m + rolling[i];
        }
        let powertrain_controls = Controls {
            throttle: controls.throttle * tc,
            ..controls
        };
        self.powertrain
            .step(&powertrain_controls, &mut self.spins, &wheel_loads, dt);
        for s in &mut self.spins {
            if !s.omega.is_finite() {
                s.omega = 0.0;
            }
        }
        // The powertrain applied the linearised road torque `-(fx + fx_per_spin d_omega) r`
        // to each wheel; the road pushes the body with the same force.
        for i in 0..4 {
            if fx_per_spin[i] == 0.0 {
                continue;
            }
            let dfx = fx_per_spin[i] * (self.spins[i].omega - wheels[i].spin_rad_per_s);
            if !dfx.is_finite() {
                continue;
            }
            let push = headings[i] * dfx;
            force += push;
            torque += (contacts[i].point - position).cross(push);
            outputs[i].fx += dfx;
            wheels[i].fx_n += dfx;
        }

        // 6. Tread deflections.
        for i in 0..4 {
            if wheels[i].load_n > 0.0 {
                let corner = &self.corners[i];
                let (vx, vy) = contact_speeds[i];
                let vsx = vx - self.spins[i].omega * corner.radius;
                self.deflections[i] = p.axle(corner.axle).wheel.advance_deflection(
                    &self.deflections[i],
                    vx,
                    vsx,
                    vy,
                    dt,
                    corner.peak,
                );
            } else {
                self.deflections[i] = TreadDeflection::default();
            }
        }

        // 7. Aero, body contact, integration.
        let aero = p.aero.loads(&self.aero_points, q, self.body.velocity);
        force += aero.force;
        torque += aero.torque;
        let touching: Vec3Sum =
            contacts
                .iter()
                .filter(|c| c.contact)
                .fold(Vec3Sum::default(), |acc, c| Vec3Sum {
                    point: acc.point + c.point,
                    normal: acc.normal + c.normal,
                    count: acc.count + 1,
                });
        let wheel_plane = (touching.count >= 3).then(|| {
            let count = f64::from(touching.count);
            (
                touching.point / count,
                touching.normal.try_normalize().unwrap_or(DVec3::Z),
            )
        });
        // The body's contact points where they are now, for the ground and the walls.
        let body_world_points = self.body.pose.world_points(&self.body_points);
        let (body_force, body_torque, body_contacts) = body_contact_loads(
            &p.body,
            &body_world_points,
            &self.body,
            ground,
            wheel_plane,
            &mut self.ground_hints.body,
        );
        force += body_force;
        torque += body_torque;
        // Walls: nothing is added unless a point touches one (see `wall_contact`).
        let shape = BodyShape {
            params: &p.body,
            world_points: &body_world_points,
            mass: MassProperties::new(mass, self.inertia),
        };
        let memory = &mut self.wall_memory;
        let walls = ground
            .walls()
            .and_then(|w| wall_contact_loads(&shape, &self.body, w, memory, dt));
        let wall_contacts = walls.map_or(0, |(f, t, n)| {
            force += f;
            torque += t;
            n
        });
        self.body.integrate(force, torque, mass, self.inertia, dt);
        self.time_s += dt;

        // 8. Steering torque and telemetry.
        let column = p.steering.column_torque(
            [outputs[0].fx, outputs[1].fx],
            [outputs[0].fy, outputs[1].fy],
            [outputs[0].mz, outputs[1].mz],
        );
        for (w, s) in wheels.iter_mut().zip(&self.spins) {
            w.spin_rad_per_s = s.omega;
        }

        // 9. Tyre temperatures and wear.
        let air_speed = self.body.velocity.length();
        let thermal_loads: [ThermalLoads; 4] = std::array::from_fn(|i| {
            let spin = self.spins[i].omega.abs();
            ThermalLoads {
                sliding_power_w: sliding_w[i],
                rolling_loss_power_w: rolling[i] * spin,
                brake_power_w: wheels[i].brake_torque_n_m * spin,
                air_speed_m_per_s: air_speed,
                in_contact: wheels[i].load_n > 0.0,
            }
        });
        self.tyre_heat.advance(&thermal_loads, dt);
        for (i, w) in wheels.iter_mut().enumerate() {
            self.tyre_heat
                .telemetry(i, p.axle(i / 2).wheel.tyre_pressure_pa, w);
        }
        let q_new = self.body.pose.orientation;
        let to_body = q_new.inverse();
        let acceleration = (self.body.velocity - velocity_before) / dt;
        self.snapshot = Snapshot {
            time_s: self.time_s,
            position: self.body.pose.position,
            orientation: q_new,
            velocity_world: self.body.velocity,
            velocity_body: to_body.mul_vec3(self.body.velocity),
            angular_velocity_world: self.body.angular_velocity,
            angular_velocity_body: to_body.mul_vec3(self.body.angular_velocity),
            acceleration_body: to_body.mul_vec3(acceleration),
            specific_force_body: to_body.mul_vec3(acceleration + DVec3::Z * GRAVITY),
            speed_m_per_s: self.body.velocity.length(),
            column_torque_n_m: if column.is_finite() { column } else { 0.0 },
            steering_wheel_rad: steering_wheel,
            controls,
            throttle_applied: powertrain_controls.throttle,
            abs_active: self.abs.active(),
            tc_active: self.tc.active(),
            body_contacts: u32::try_from(body_contacts + wall_contacts).unwrap_or(u32::MAX),
            wall_contacts: u32::try_from(wall_contacts).unwrap_or(u32::MAX),
            mass_kg: mass,
            wheels,
            powertrain: self.powertrain.telemetry(),
        };
    }
}

/// Running sum of the wheels' contact points and normals.
#[derive(Clone, Copy, Default)]
struct Vec3Sum {
    point: DVec3,
    normal: DVec3,
    count: u32,
}

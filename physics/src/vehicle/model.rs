//! [`Vehicle`]: the parts put together, and one physics step.
//!
//! # One step
//!
//! Each phase is its part's own call; [`Vehicle::step`] only hands the results on.
//!
//! 1. Sanitise the controls; steering-wheel angle to road-wheel angles
//!    ([`super::steering`]).
//! 2. Each corner casts its ray from its wheel's place on its travel: contact and tyre
//!    deflection ([`super::wheel::find_contacts`]).
//! 3. The struts' forces: spring, damper, stops, anti-roll bar and the links' share of the
//!    last step's tyre forces (geometric load transfer through the roll centres and the
//!    anti-dive/anti-squat geometry, [`super::link_loads`]; [`super::suspension::strut_forces`]).
//!    The tyre loads are the tyres' vertical springs and dampers, never pulling
//!    ([`super::unsprung`]).
//! 4. Each wheel in contact: contact frame and slip velocities, transient slips from its
//!    tread deflections, tyre forces (surface friction as `mu_scale`); the forces act on the
//!    body at the contact point, the aligning moment about the ground normal; the road torque on the wheel `-fx r`, and its
//!    slope in the spin through the standstill damper (the tyre's local `dFx / dkappa`, by a
//!    finite difference, only below the damper's fade-out speed). See `tyre_forces`.
//! 5. ABS scales the brake torques, traction control the throttle ([`super::brakes`]); the
//!    powertrain advances the wheel spins (and its own states) with the road torques, their
//!    slopes (the damper implicit) and the friction-torque capacities: brakes, handbrake and
//!    rolling resistance. The body receives the damper's force change over the step, as the
//!    wheel did.
//! 6. Tread deflections advance with the new spins ([`super::wheel::advance_deflections`]).
//! 7. The wheels take the tyre forces' parts along their axes, the body the struts instead
//!    ([`super::unsprung::transmit`]); aerodynamic ([`super::aero`]) and body-contact forces
//!    (ground: [`super::body_contact`]; walls: [`super::wall_contact`]); gravity; the body
//!    advances ([`super::chassis`], with the sprung body's mass in heave, roll and pitch:
//!    [`super::body_mass`]), then the wheels on their travels.
//! 8. Steering-column torque from the front tyres.
//! 9. Tyres with thermal parameters: temperatures and wear advance with this step's sliding,
//!    rolling and brake powers; the next step's tyre inputs use the new hot pressure and grip
//!    factor (see [`crate::tire::thermal`]). Tyres without them skip all of it and see the set
//!    pressure and the road's friction unchanged. Telemetry ([`super::telemetry`]).
//!
//! The body's force and moment are gathered in one [`BodyLoads`] in this order: weight, the
//! tyres wheel by wheel, the damper's change wheel by wheel, struts and wheels wheel by wheel,
//! aero, ground contact, walls.
//!
//! Everything lives in fixed-size arrays: the step allocates nothing, reads no clock and uses
//! no randomness, so the same inputs give bit-identical states.

use glam::{DQuat, DVec3};

use super::aero::AeroPoints;
use super::body_contact::{BODY_POINTS, body_contact_loads, body_points, wheel_contact_plane};
use super::body_mass::{BodyMass, UnsprungMoments};
use super::body_shape::{BodyShape, MassProperties};
use super::brakes::DriverAids;
use super::chassis::{BodyLoads, Pose, RigidBody};
use super::contact_response::add_obstacle_loads;
use super::contact_set::ContactSet;
use super::link_loads::{in_body_frame, link_loads_n};
use super::params::{AidParams, VehicleParams};
use super::relaxation::RelaxationTable;
use super::solid_contact::SolidMemory;
use super::steering_feel::SteeringFeel;
use super::suspension::strut_forces;
use super::telemetry::Snapshot;
use super::tyre_envelope::ProbeHints;
use super::tyre_forces::{TyreForces, TyreInputs};
use super::tyre_heat::TyreHeat;
use super::unsprung::{WheelMount, WheelTravel, advance_travels, axial_speeds, transmit};
use super::wall_contact::WallMemory;
use super::wheel::{
    Corner, PeakSlip, TYRE_MIN_SPEED_M_PER_S, TreadDeflection, advance_deflections, find_contacts,
    tyre_figures,
};
use crate::controls::Controls;
use crate::environment::Environment;
use crate::ground::{Ground, RayHint};
use crate::powertrain::{Drivetrain, Powertrain, VehicleMotion, WheelSpin};
use crate::tire::Tire;
use crate::tire::thermal::{TyreThermalParams, TyreThermalState};
use crate::validate::{Validate, Validator, Violations};

/// The ground queries' hints of the four wheels and the body probes.
#[derive(Clone, Copy, Debug, Default)]
struct GroundHints {
    wheels: [ProbeHints; 4],
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
    /// Each wheel's place on its suspension travel (visible to the vehicle tests, which
    /// displace a wheel).
    pub(super) travels: [WheelTravel; 4],
    /// The unsprung masses' sums about the CG: the body's mass in heave, roll and pitch.
    unsprung_moments: UnsprungMoments,
    deflections: [TreadDeflection; 4],
    /// The tyres' ground-plane forces of the last step in the body frame (N): the links pass
    /// their vertical share to this step's tyre loads ([`super::link_loads`]).
    link_forces_body: [DVec3; 4],
    /// Where each wheel's and each body probe's ground query hit last tick: a cache that
    /// speeds the next query up and never changes its result.
    ground_hints: GroundHints,
    /// Which wall each body point touches: keeps every point on its side of a wall.
    wall_memory: WallMemory,
    /// Which solid faces and edges the body touches: keeps every point on its side of them.
    solid_memory: SolidMemory,
    /// The walls' and solids' contacts of the tick: a buffer kept so that no tick clears it.
    obstacle_contacts: ContactSet,
    /// ABS and traction control.
    aids: DriverAids,
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
        let corners: [Corner; 4] = std::array::from_fn(|i| {
            let axle = i / 2;
            let ap = params.axle(axle);
            let load = params.static_wheel_load_n(axle);
            let (peak_slip_ratio, peak_tan_slip_angle, kx, ky) =
                tyre_figures(&tires[axle], load, ap.wheel.tyre_pressure_pa);
            Corner {
                axle,
                side: if i % 2 == 0 { 1.0 } else { -1.0 },
                mount: WheelMount::of(&params, i, &tires[axle]),
                radius: ap.wheel.radius_m,
                peak: PeakSlip {
                    ratio: peak_slip_ratio,
                    tan_angle: peak_tan_slip_angle,
                },
                slip_stiffness_per_load: kx,
                cornering_stiffness_per_load: ky,
                relaxation: RelaxationTable::new(
                    &ap.wheel,
                    &tires[axle],
                    load,
                    TYRE_MIN_SPEED_M_PER_S,
                ),
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
        let unsprung_moments =
            UnsprungMoments::of(&corners.map(|c| (c.mount.static_wheel_centre(), c.mount.mass_kg)));
        let mut vehicle = Self {
            body_points: body_points(&params.body, h, a),
            travels: corners.map(|c| c.mount.static_travel()),
            unsprung_moments,
            powertrain: Self::fuelled_powertrain(&params),
            tires,
            corners,
            aero_points,
            inertia,
            body: RigidBody::default(),
            spins,
            deflections: [TreadDeflection::default(); 4],
            link_forces_body: [DVec3::ZERO; 4],
            ground_hints: GroundHints::default(),
            wall_memory: WallMemory::default(),
            solid_memory: SolidMemory::default(),
            obstacle_contacts: ContactSet::default(),
            aids: DriverAids::default(),
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
    pub fn steering_feel(&self) -> SteeringFeel {
        SteeringFeel::of(&self.params, &self.tires)
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
        self.travels = self.corners.map(|c| c.mount.static_travel());
        self.deflections = [TreadDeflection::default(); 4];
        self.link_forces_body = [DVec3::ZERO; 4];
        self.wall_memory = WallMemory::default();
        self.solid_memory = SolidMemory::default();
        self.aids = DriverAids::default();
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
        self.tyre_heat
            .write_telemetry(&self.params, &mut self.snapshot.wheels);
    }

    /// As [`Vehicle::reset_to`], but the clock runs on: the car is put back at `pose`, at
    /// rest, mid-session (a recovery), and its time stays where it was. Allocates nothing.
    pub fn recover_to(&mut self, pose: Pose) {
        let time_s = self.time_s;
        self.reset_to(pose);
        self.time_s = time_s;
        self.snapshot.time_s = time_s;
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
        let velocity_before = self.body.velocity;
        let mut loads = BodyLoads::weight(mass);

        // 1. Steering.
        let steering = p.steering.angles(
            controls.steering_wheel_rad,
            p.chassis.wheelbase_m,
            p.front.track_m,
        );

        // 2. Contacts.
        let contacts = find_contacts(
            &self.corners,
            &self.travels,
            &self.body,
            ground,
            &mut self.ground_hints.wheels,
        );

        // 3. Strut forces; tyre loads from the tyres' vertical springs.
        let struts = strut_forces(p, &self.travels, &link_loads_n(p, &self.link_forces_body));
        let loads_n: [f64; 4] = std::array::from_fn(|i| {
            let c = &contacts[i];
            self.corners[i]
                .mount
                .tyre_normal_load(c.tyre_deflection_m, c.tyre_deflection_rate_m_per_s)
        });

        // 4. Tyres.
        let mut tyres = TyreForces::evaluate(
            &TyreInputs {
                params: p,
                corners: &self.corners,
                tires: &self.tires,
                body: &self.body,
                contacts: &contacts,
                loads_n: &loads_n,
                road_wheels_rad: steering.road_wheels_rad,
                spins: &self.spins,
                deflections: &self.deflections,
                tyre_heat: &self.tyre_heat,
            },
            &mut loads,
        );

        // 5. Brakes, aids, powertrain; the body follows the spins' change.
        let aided = self
            .aids
            .update(&p.aids, &p.brakes, &controls, &tyres.sensors, dt);
        tyres.set_brake_torques(&aided.brake_torques_n_m);
        // The automatic senses the car's motion as the last tick left it.
        let last = &self.snapshot;
        let motion = VehicleMotion {
            forward_speed_m_s: last.velocity_body.x,
            lateral_accel_m_s2: last.specific_force_body.y,
            max_slip_angle_rad: last
                .wheels
                .iter()
                .map(|w| w.slip_angle_rad.abs())
                .fold(0.0, f64::max),
        };
        self.powertrain.step_wheels(
            &aided.powertrain,
            &motion,
            &mut self.spins,
            &tyres.wheel_loads,
            dt,
        );
        tyres.follow_spins(&self.spins, &contacts, self.body.pose.position, &mut loads);
        self.link_forces_body =
            in_body_frame(self.body.pose.orientation, &tyres.planar_forces_world());

        // 6. Tread deflections.
        advance_deflections(
            &mut self.deflections,
            &self.corners,
            p,
            &tyres.loaded_contact_speeds(),
            &self.spins,
            dt,
        );

        // 7. Struts and wheels, aero, body contact with the ground and the walls, integration.
        let mounts = self.corners.map(|c| c.mount);
        let wheel_forces = transmit(
            self.body.pose.orientation,
            self.body.pose.position,
            &mounts,
            &contacts.map(|c| c.wheel_centre),
            &struts,
            &tyres.contact_forces_world,
            &mut loads,
        );
        let wheel_speeds = axial_speeds(&self.body, &mounts, &self.travels);
        let aero = p.aero.loads(
            &self.aero_points,
            self.body.pose.orientation,
            self.body.velocity,
        );
        loads.add(aero.force, aero.torque);
        let body_world_points = self.body.pose.world_points(&self.body_points);
        let (body_force, body_torque, ground_contacts) = body_contact_loads(
            &p.body,
            &body_world_points,
            &self.body,
            ground,
            wheel_contact_plane(&contacts),
            &mut self.ground_hints.body,
        );
        loads.add(body_force, body_torque);
        let shape = BodyShape {
            params: &p.body,
            world_points: &body_world_points,
            mass: MassProperties::new(mass, self.inertia),
        };
        let (wall_contacts, solid_contacts) = add_obstacle_loads(
            &shape,
            &self.body,
            ground,
            (
                &mut self.wall_memory,
                &mut self.solid_memory,
                &mut self.obstacle_contacts,
            ),
            dt,
            &mut loads,
        );
        let body_mass = BodyMass::with_unsprung(mass, self.inertia, &self.unsprung_moments);
        self.body
            .integrate(loads.force, loads.torque, &body_mass, dt);
        advance_travels(
            &mut self.travels,
            &self.body,
            &mounts,
            &wheel_speeds,
            &wheel_forces,
            dt,
        );
        self.time_s += dt;

        // 8. Steering torque.
        let tyre_loads_n: [f64; 4] = std::array::from_fn(|i| tyres.telemetry[i].load_n);
        let column = p.steering.front_column_torque(
            p.front.wheel.radius_m,
            steering.road_wheels_rad,
            &tyres.forces,
            &tyre_loads_n,
        );
        tyres.record_spins(&self.spins);

        // 9. Tyre temperatures and wear; telemetry.
        let air_speed = self.body.velocity.length();
        self.tyre_heat
            .advance(&tyres.thermal_loads(&self.spins, air_speed), dt);
        self.tyre_heat.write_telemetry(p, &mut tyres.telemetry);
        self.snapshot = Snapshot {
            time_s: self.time_s,
            column_torque_n_m: column,
            steering_wheel_rad: steering.steering_wheel_rad,
            controls,
            throttle_applied: aided.powertrain.throttle,
            abs_active: self.aids.abs_active(),
            tc_active: self.aids.tc_active(),
            body_contacts: u32::try_from(ground_contacts + wall_contacts + solid_contacts)
                .unwrap_or(u32::MAX),
            wall_contacts: u32::try_from(wall_contacts).unwrap_or(u32::MAX),
            solid_contacts: u32::try_from(solid_contacts).unwrap_or(u32::MAX),
            mass_kg: mass,
            wheels: tyres.telemetry,
            powertrain: self.powertrain.telemetry(),
            ..Snapshot::of_motion(&self.body, velocity_before, dt)
        };
    }
}

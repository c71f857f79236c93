//! The vehicle model: a 6-DOF chassis on four suspended wheels with tyres, steering with
//! column torque, brakes with ABS and traction control, aerodynamics and the powertrain,
//! advanced at 1 kHz by [`Vehicle::step`].
//!
//! # Frames and signs
//!
//! - World: right-handed, z up. Body: ISO 8855, x forward, y left, z up, origin at the CG;
//!   the pose's rotation is `world_from_body`.
//! - Wheel order everywhere: front-left, front-right, rear-left, rear-right.
//! - Tyre forces and slips: ISO-W contact frame, as [`crate::tire`] defines it (positive slip
//!   ratio drives, positive slip angle gives a force to the right). A left turn has negative
//!   slip angles and positive lateral forces at all four tyres.
//! - Steering: positive angles turn left; the column torque is positive when it turns the
//!   steering wheel left, and opposes the steering in a steady turn (self-centring).
//!
//! # Parts (one file each)
//!
//! | file | what |
//! |---|---|
//! | [`params`] | [`VehicleParams`] and its sections, validation |
//! | `corvette_c5` | the default parameters: a Corvette C5 coupe |
//! | [`chassis`] | rigid-body state and semi-implicit Euler integration |
//! | [`body_mass`] | the body's mass in heave, roll and pitch once the wheels move on their own |
//! | [`unsprung`] | the wheels' masses on their travels, the tyre as a vertical spring and damper |
//! | [`suspension`] | spring, bump/rebound damping with knee, bump and droop stops |
//! | [`anti_roll_bar`] | force from the difference of compressions (Wolfe, workshop VI) |
//! | [`wheel`] | ground contact, ISO-W kinematics, transient slip (low speed), rolling resistance |
//! | [`relaxation`] | relaxation lengths by load from the tyre's carcass stiffnesses |
//! | [`link_loads`] | geometric load transfer: roll centres, anti-dive and anti-squat |
//! | [`steering`] | ratio, lock, Ackermann, column torque |
//! | [`kingpin`] | the steering axis (caster, inclination, trail, scrub) and the road's moment about it |
//! | [`steer_camber`] | camber change with steer from caster and kingpin inclination |
//! | [`brakes`] | pedal, bias, handbrake, ABS, traction control |
//! | [`aero`] | drag and axle downforce |
//! | [`body_contact`] | penalty contact of the body box with the ground |
//! | [`wall_contact`] | the body against walls and barriers (polylines, a grid) |
//! | [`solid_contact`] | the body against solid objects of any shape (triangles, edges, a BVH) |
//! | [`body_shape`] | what those contacts need of the body: its points, stiffness, mass |
//! | [`contact_set`] | one penalty law with restitution and friction for walls and solids |
//! | [`contact_response`] | the walls' and solids' contacts of a tick, added to the body's loads |
//! | [`telemetry`] | [`Snapshot`] |
//! | `tyre_forces` | the four tyres through one step: forces on body and wheels, what heats them |
//! | `tyre_heat` | the tyres' thermal states and the environment, as the step uses them |
//! | [`model`] | [`Vehicle`] and its step |
//!
//! # Model limits
//!
//! Each wheel is a mass on a straight travel along body z, the tyre a point-contact vertical
//! spring and damper (no enveloping of short bumps), the rolling radius fixed at the loaded
//! radius; the offset sprung CG's velocity terms are left out of the body's equations;
//! the tyre forces act at the contact patches, the links passing their geometric share of the
//! load transfer one step late; the tread has no damping of its own at speed (only the
//! standstill damper); the steering is rigid (no column compliance).
//! Steering about the inclined kingpin axis leans the wheels and its lift gives the column its
//! centring moment, but does not move the wheels in their suspension (no diagonal weight
//! jacking from caster).

pub mod aero;
pub mod anti_roll_bar;
pub mod body_contact;
pub mod body_mass;
pub mod body_shape;
pub mod brakes;
pub mod car_facts;
pub mod chassis;
pub mod contact_response;
pub mod contact_set;
mod corvette_c5;
pub mod kingpin;
pub mod link_loads;
pub mod model;
pub mod params;
pub mod relaxation;
pub mod setup;
pub mod setup_figures;
pub mod solid_contact;
pub mod steer_camber;
pub mod steering;
pub mod steering_feel;
pub mod suspension;
pub mod telemetry;
pub mod tyre_envelope;
pub mod tyre_fit;
mod tyre_forces;
mod tyre_heat;
pub mod unsprung;
pub mod wall_contact;
pub mod wheel;

#[cfg(test)]
mod tests;

pub use car_facts::{CarFacts, DriveLayout};
pub use chassis::{Pose, RigidBody};
pub use model::Vehicle;
pub use params::{
    AeroParams, AidParams, AxleParams, BodyParams, BrakeParams, ChassisParams, GRAVITY,
    SteeringParams, SuspensionParams, VehicleParams, WheelParams,
};
pub use setup::{AxleSetup, CarSetup, SetupRanges};
pub use steering_feel::SteeringFeel;
pub use telemetry::{Snapshot, WheelTelemetry};

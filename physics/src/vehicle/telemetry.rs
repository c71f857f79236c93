//! Telemetry: a plain-data, `Copy` picture of the vehicle after a step, for the renderer,
//! the HUD, force feedback and headless runs.
//!
//! Everything is in SI units and in the frames its name says: world (z up) or body (ISO 8855:
//! x forward, y left, z up, origin at the CG). Per-wheel forces are in the wheel's ISO-W
//! contact frame. Engine speed, gear, clutch and fuel come from the powertrain's own
//! telemetry ([`Snapshot::powertrain`]).

use glam::{DQuat, DVec3};

use super::chassis::RigidBody;
use super::params::GRAVITY;
use crate::controls::Controls;
use crate::ground::Surface;
use crate::powertrain::PowertrainTelemetry;

/// One wheel's state after a step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WheelTelemetry {
    /// Tyre load (N), zero in the air.
    pub load_n: f64,
    /// Slip ratio seen by the tyre (-), transient (see [`crate::vehicle::wheel`]).
    pub slip_ratio: f64,
    /// Slip angle seen by the tyre (rad), transient.
    pub slip_angle_rad: f64,
    /// Magnitude of the contact patch's sliding velocity `(vx - omega r, vy)` (m/s).
    pub slip_velocity_m_per_s: f64,
    /// Longitudinal tyre force (N, ISO-W).
    pub fx_n: f64,
    /// Lateral tyre force (N, ISO-W).
    pub fy_n: f64,
    /// Aligning moment (N·m, ISO-W).
    pub mz_n_m: f64,
    /// Spin rate (rad/s), positive rolling forward.
    pub spin_rad_per_s: f64,
    /// Suspension compression from full droop (m).
    pub suspension_travel_m: f64,
    /// Road-wheel steer angle including toe (rad, positive left).
    pub steer_angle_rad: f64,
    /// Camber against the road in car terms (rad): negative when the top of the wheel leans
    /// towards the car's centre, the same convention on both sides (a level car with
    /// `static_camber_deg = -2` reads about -0.035 on all four wheels). The tyre's ISO
    /// inclination is `-camber_rad` on the left wheels and `+camber_rad` on the right. Without
    /// contact: the suspension's camber against the body.
    pub camber_rad: f64,
    /// Surface under the wheel: the one the suspension ray hit, asphalt when nothing is within
    /// reach.
    pub surface: Surface,
    /// Whether the tyre touches the ground.
    pub contact: bool,
    /// Wheel centre in the world frame (m).
    pub centre_position: DVec3,
    /// Brake torque capacity applied this tick, after ABS (N·m).
    pub brake_torque_n_m: f64,
    /// Whether the tyre has a thermal model (thermal parameters in its file). Without one the
    /// temperatures below read the air temperature at the last reset, the pressure the set
    /// pressure, the wear 0 and the grip factor 1.
    pub thermal_model: bool,
    /// Tread (surface layer) temperature (°C).
    pub tread_temp_c: f64,
    /// Carcass temperature (°C).
    pub carcass_temp_c: f64,
    /// Inflation gas temperature (°C).
    pub gas_temp_c: f64,
    /// Rim temperature (°C).
    pub rim_temp_c: f64,
    /// Inflation pressure now, hot, gauge (Pa).
    pub pressure_pa: f64,
    /// Fraction of the tread used (-), 0 new to 1 worn out.
    pub wear: f64,
    /// Factor on the road's friction from tread temperature and wear (-), 1 at the optimum
    /// temperature when new.
    pub grip_factor: f64,
    /// The tyre's best tread temperature (°C) and the half-width of its grip window (°C),
    /// for showing whether it is cold, in its window or hot; 0 without a thermal model.
    pub tread_window_c: (f64, f64),
}

/// The vehicle after a step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Snapshot {
    /// Simulated time since construction or the last reset (s).
    pub time_s: f64,
    /// Position of the CG, world frame (m).
    pub position: DVec3,
    /// Orientation, `world_from_body`.
    pub orientation: DQuat,
    /// Velocity of the CG, world frame (m/s).
    pub velocity_world: DVec3,
    /// Velocity of the CG, body frame (m/s).
    pub velocity_body: DVec3,
    /// Angular velocity, world frame (rad/s).
    pub angular_velocity_world: DVec3,
    /// Angular velocity, body frame (rad/s): roll, pitch and yaw rates.
    pub angular_velocity_body: DVec3,
    /// Acceleration of the CG over the last step, body frame (m/s²).
    pub acceleration_body: DVec3,
    /// What an accelerometer at the CG reads (acceleration minus gravity), body frame (m/s²).
    pub specific_force_body: DVec3,
    /// Speed of the CG (m/s).
    pub speed_m_per_s: f64,
    /// Steering-column torque (N·m, positive turning the steering wheel left).
    pub column_torque_n_m: f64,
    /// Steering-wheel angle after the lock (rad).
    pub steering_wheel_rad: f64,
    /// The driver's controls as applied (sanitised).
    pub controls: Controls,
    /// Throttle handed to the powertrain after traction control.
    pub throttle_applied: f64,
    /// ABS is modulating at least one brake.
    pub abs_active: bool,
    /// Traction control is cutting throttle.
    pub tc_active: bool,
    /// Number of body contacts with the ground, walls and solid objects (a point touching
    /// two counts twice).
    pub body_contacts: u32,
    /// Number of body points touching a wall or barrier.
    pub wall_contacts: u32,
    /// Number of contacts with solid objects: body points in their faces and their edges
    /// inside the body.
    pub solid_contacts: u32,
    /// Current total mass (kg).
    pub mass_kg: f64,
    /// Per wheel: front-left, front-right, rear-left, rear-right.
    pub wheels: [WheelTelemetry; 4],
    /// Engine, clutch, gearbox and fuel after the step.
    pub powertrain: PowertrainTelemetry,
}

impl Snapshot {
    /// A snapshot of `body`'s motion after a step of `dt` seconds that began at
    /// `velocity_before` (world, m/s): pose, velocities in both frames, acceleration and
    /// specific force over the step, speed. Everything else is at its default.
    pub fn of_motion(body: &RigidBody, velocity_before: DVec3, dt: f64) -> Self {
        let q_new = body.pose.orientation;
        let to_body = q_new.inverse();
        let acceleration = (body.velocity - velocity_before) / dt;
        Self {
            position: body.pose.position,
            orientation: q_new,
            velocity_world: body.velocity,
            velocity_body: to_body.mul_vec3(body.velocity),
            angular_velocity_world: body.angular_velocity,
            angular_velocity_body: to_body.mul_vec3(body.angular_velocity),
            acceleration_body: to_body.mul_vec3(acceleration),
            specific_force_body: to_body.mul_vec3(acceleration + DVec3::Z * GRAVITY),
            speed_m_per_s: body.velocity.length(),
            ..Self::default()
        }
    }
}

impl Default for Snapshot {
    fn default() -> Self {
        Self {
            time_s: 0.0,
            position: DVec3::ZERO,
            orientation: DQuat::IDENTITY,
            velocity_world: DVec3::ZERO,
            velocity_body: DVec3::ZERO,
            angular_velocity_world: DVec3::ZERO,
            angular_velocity_body: DVec3::ZERO,
            acceleration_body: DVec3::ZERO,
            specific_force_body: DVec3::ZERO,
            speed_m_per_s: 0.0,
            column_torque_n_m: 0.0,
            steering_wheel_rad: 0.0,
            controls: Controls::default(),
            throttle_applied: 0.0,
            abs_active: false,
            tc_active: false,
            body_contacts: 0,
            wall_contacts: 0,
            solid_contacts: 0,
            mass_kg: 0.0,
            wheels: [WheelTelemetry::default(); 4],
            powertrain: PowertrainTelemetry::default(),
        }
    }
}

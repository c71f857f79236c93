//! Vehicle parameters: what a vehicle file describes, in SI units unless the field name says
//! otherwise (`lock_deg`, `static_camber_deg`).
//!
//! The default is a Chevrolet Corvette C5 coupe (`corvette_c5`).

use serde::{Deserialize, Serialize};

use crate::powertrain::PowertrainParams;
use crate::validate::{Validate, Validator};

/// Standard gravity (m/s²).
pub const GRAVITY: f64 = 9.806_65;

/// Unsprung share of a corner's static mass when a wheel does not state its unsprung mass
/// (-): 0.12, typical of road cars (a C5 Corvette corner carries about 44 kg of 370 kg, a
/// compact hatchback about 36 kg of 300 kg).
pub const DEFAULT_UNSPRUNG_FRACTION: f64 = 0.12;

/// Largest unsprung share of a corner's static mass a vehicle file may state (-).
pub const MAX_UNSPRUNG_FRACTION: f64 = 0.4;

/// Tyre vertical stiffness when neither the wheel nor the tyre file states one (N/m): a
/// passenger-car radial (Gillespie, *Fundamentals of Vehicle Dynamics*, ch. 5: about 1000 to
/// 1200 lb/in, 175 to 210 kN/m; the Magic Formula's own default is 200 kN/m).
pub const DEFAULT_TYRE_VERTICAL_STIFFNESS_N_PER_M: f64 = 200_000.0;

/// Tyre vertical damping when neither the wheel nor the tyre file states one (N·s/m): the
/// Magic Formula's default `VERTICAL_DAMPING` (a rolling tyre's own damping is small).
pub const DEFAULT_TYRE_VERTICAL_DAMPING_N_S_PER_M: f64 = 50.0;

/// Everything the physics needs to know about one vehicle.
///
/// Wheel order everywhere in the vehicle model: front-left, front-right, rear-left, rear-right.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VehicleParams {
    /// Display name.
    pub name: String,
    /// Asset name of the front tyre file (resolved by the formats crate; unused by physics).
    pub front_tyre: String,
    /// Asset name of the rear tyre file (resolved by the formats crate; unused by physics).
    pub rear_tyre: String,
    /// Mass, inertia and centre of gravity.
    pub chassis: ChassisParams,
    /// Body box used for body-ground contact (roll-overs, bottoming out).
    pub body: BodyParams,
    /// Front axle: wheels, tyres' contact behaviour, suspension, alignment.
    pub front: AxleParams,
    /// Rear axle.
    pub rear: AxleParams,
    /// Steering geometry and column.
    pub steering: SteeringParams,
    /// Service brakes and handbrake.
    pub brakes: BrakeParams,
    /// Driver aids: ABS and traction control.
    #[serde(default)]
    pub aids: AidParams,
    /// Aerodynamics.
    pub aero: AeroParams,
    /// Engine, clutch, gearbox and differentials.
    pub powertrain: PowertrainParams,
    /// The ranges a set-up may give this car's adjustable numbers, by path
    /// (`brake_bias_front: (0.5, 0.75)`); numbers not named here get
    /// [`super::setup::default_range`].
    #[serde(default)]
    pub setup_ranges: super::setup::SetupRanges,
}

/// Rigid-body properties of the whole vehicle (sprung and unsprung masses together: the wheels
/// have no vertical degree of freedom of their own).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChassisParams {
    /// Total mass with driver and the reference fuel load `fuel_mass_kg` (kg).
    pub mass_kg: f64,
    /// Fuel mass included in `mass_kg` (kg): the tank is filled to it when the car is built
    /// or reset; [`crate::vehicle::Vehicle::set_fuel_mass_kg`] changes it at run time, and the
    /// engine burns it.
    pub fuel_mass_kg: f64,
    /// Distance between the axles (m).
    pub wheelbase_m: f64,
    /// Share of the static weight carried by the front axle (-); places the CG along the
    /// wheelbase: CG to front axle = `wheelbase * (1 - front_weight_fraction)`.
    pub front_weight_fraction: f64,
    /// Height of the CG above flat ground at static ride height (m).
    pub cg_height_m: f64,
    /// Moment of inertia about the body x axis through the CG (kg·m²).
    pub roll_inertia_kg_m2: f64,
    /// Moment of inertia about the body y axis through the CG (kg·m²).
    pub pitch_inertia_kg_m2: f64,
    /// Moment of inertia about the body z axis through the CG (kg·m²).
    pub yaw_inertia_kg_m2: f64,
}

/// The body as a box, for contact with the ground when the tyres are not enough.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BodyParams {
    /// Overall length (m).
    pub length_m: f64,
    /// Overall width (m).
    pub width_m: f64,
    /// Overall height at static ride height (m).
    pub height_m: f64,
    /// Height of the underside above flat ground at static ride height (m).
    pub ground_clearance_m: f64,
    /// Length of the body ahead of the front axle (m).
    pub front_overhang_m: f64,
    /// Penalty stiffness of one body contact point (N/m of penetration).
    pub contact_stiffness_n_per_m: f64,
    /// Penalty damping of one body contact point (N·s/m of approach speed).
    pub contact_damping_n_s_per_m: f64,
    /// Friction coefficient of the body sliding on the reference road (-).
    pub contact_friction: f64,
}

/// One axle: its two wheels are mirror images of each other.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AxleParams {
    /// Distance between the two wheels' contact centres (m).
    pub track_m: f64,
    /// Wheel and tyre.
    pub wheel: WheelParams,
    /// Spring, damper and travel of each corner.
    pub suspension: SuspensionParams,
    /// Anti-roll bar rate (N/m): each side gets `rate * (own compression - other compression)`
    /// (Wolfe, workshop VI). Zero for no bar.
    pub anti_roll_bar_n_per_m: f64,
    /// Static camber (deg), negative when the top of the wheel leans towards the car's centre,
    /// on both sides: the tyre's ISO inclination is `-camber` on the left wheel and `+camber`
    /// on the right (see [`crate::tire`]).
    pub static_camber_deg: f64,
    /// Static toe (deg) per wheel, positive toe-in (the front of the wheel points inwards).
    pub static_toe_deg: f64,
    /// Camber change with compression (deg per m of travel, same sign convention as
    /// `static_camber_deg`; negative gains negative camber in bump).
    #[serde(default)]
    pub camber_gain_deg_per_m: f64,
    /// Height of the axle's roll centre above the ground (m, default 0): in front view the
    /// links pass the tyres' lateral forces to the body along lines through it, so this much
    /// of the lateral load transfer goes through the links rather than the springs
    /// (`Fy_axle · h_rc / t`; see `link_loads`). Zero: all of it through springs and bars.
    #[serde(default)]
    pub roll_centre_height_m: f64,
    /// Anti-dive (front) or anti-squat (rear) geometry as a fraction (-, default 0): the
    /// side-view force line of this axle's tyres has the slope `fraction · h / L`, so `1.0`
    /// carries all the pitch transfer of forces at this axle's patches through the links
    /// (Milliken's 100 % anti-dive with all braking at the front, or 100 % anti-squat of a
    /// rear-driven car), `0.0` all of it through the springs; negative gives pro-dive/squat.
    #[serde(default)]
    pub anti_pitch_fraction: f64,
}

/// Wheel, tyre contact behaviour and rolling resistance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WheelParams {
    /// Loaded radius (m): the wheel centre's height over flat ground at the static load, and
    /// the rolling radius that turns spin into speed. The free radius is this plus the tyre's
    /// static deflection (`static load / tyre_vertical_stiffness_n_per_m`).
    pub radius_m: f64,
    /// Spin inertia of wheel, tyre, hub and brake disc (kg·m²), without the driveline.
    pub spin_inertia_kg_m2: f64,
    /// Inflation pressure (Pa), passed to tyre models with pressure terms.
    pub tyre_pressure_pa: f64,
    /// Longitudinal relaxation length `sigma_kappa` (m): distance rolled for the slip ratio
    /// seen by the tyre to reach 63 % of a step change. When omitted: from the tyre's slip
    /// stiffness over its carcass stiffness at each load (Magic Formula files), else 0.15 m
    /// (see `relaxation`).
    #[serde(default)]
    pub relaxation_length_longitudinal_m: Option<f64>,
    /// Lateral relaxation length `sigma_alpha` (m), likewise for the slip angle; when
    /// omitted from the tyre's cornering and carcass stiffnesses, else 0.35 m.
    #[serde(default)]
    pub relaxation_length_lateral_m: Option<f64>,
    /// Damping ratio of the tyre's contact at standstill (-): the damper in parallel with the
    /// contact stiffness `k = C / sigma` is `2 * ratio * sqrt(k * m_corner)`, with `m_corner`
    /// the corner's static share of the mass, so that a parked car settles on its tyres in the
    /// same way whatever the tyre model's stiffness.
    pub contact_damping_ratio: f64,
    /// Speed (m/s) below which the standstill damping fades in (cosine fade, full at rest)
    /// and below which the tread deflection is held to the tyre's peak slip.
    pub low_speed_m_per_s: f64,
    /// Rolling-resistance coefficient at zero speed `c0` (-), VR-Design Studio: 0.004.
    pub rolling_resistance_c0: f64,
    /// Mass that moves with the wheel on its suspension travel (kg): wheel, tyre, hub,
    /// upright, brake and the moving parts of links, spring and damper. Included in
    /// `chassis.mass_kg`. When omitted: [`DEFAULT_UNSPRUNG_FRACTION`] of the corner's static
    /// mass (see `unsprung`).
    #[serde(default)]
    pub unsprung_mass_kg: Option<f64>,
    /// The tyre's vertical stiffness (N/m). When omitted: the tyre file's
    /// `VERTICAL_STIFFNESS` at the set pressure (Magic Formula), else
    /// [`DEFAULT_TYRE_VERTICAL_STIFFNESS_N_PER_M`].
    #[serde(default)]
    pub tyre_vertical_stiffness_n_per_m: Option<f64>,
    /// The tyre's vertical damping (N·s/m). When omitted: the tyre file's `VERTICAL_DAMPING`
    /// (Magic Formula), else [`DEFAULT_TYRE_VERTICAL_DAMPING_N_S_PER_M`].
    #[serde(default)]
    pub tyre_vertical_damping_n_s_per_m: Option<f64>,
    /// Speed term `c1` of the rolling-resistance coefficient `c0 + c1 * v`, in s/m with `v` in
    /// m/s. VR-Design Studio gives 0.090 s/km = 9.0e-5 s/m.
    pub rolling_resistance_c1_s_per_m: f64,
}

/// Spring, damper, bump stop and travel of one corner. Compression is measured along the
/// body's -z axis from full droop (0) upwards.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SuspensionParams {
    /// Wheel rate of the spring (N/m of wheel travel).
    pub spring_rate_n_per_m: f64,
    /// Spring force at full droop (N); zero for a spring that just touches there.
    #[serde(default)]
    pub spring_preload_n: f64,
    /// Free travel from full droop to the bump stop (m).
    pub travel_m: f64,
    /// Bump (compression) damping below the knee (N·s/m).
    pub bump_damping_n_s_per_m: f64,
    /// Rebound (extension) damping below the knee (N·s/m).
    pub rebound_damping_n_s_per_m: f64,
    /// Damper speed where the fast-speed slopes take over (m/s).
    pub damper_knee_m_per_s: f64,
    /// Bump damping above the knee (N·s/m); equal to the slow one for a linear damper.
    pub fast_bump_damping_n_s_per_m: f64,
    /// Rebound damping above the knee (N·s/m).
    pub fast_rebound_damping_n_s_per_m: f64,
    /// Initial rate of the bump stop (N/m), engaged beyond `travel_m`.
    pub bump_stop_rate_n_per_m: f64,
    /// Progression length of the bump stop (m): the force is
    /// `rate * (e + e³ / length²)` at `e` metres into the stop.
    pub bump_stop_length_m: f64,
}

/// Steering geometry. Signs: positive angles turn left (counter-clockwise seen from above).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SteeringParams {
    /// Steering-wheel angle per mean road-wheel angle (-).
    pub ratio: f64,
    /// Steering-wheel lock each side of centre (deg); 450 for 900 degrees lock to lock.
    pub lock_deg: f64,
    /// Share of full Ackermann geometry (-): 0 parallel steer, 1 full Ackermann for the
    /// wheelbase and front track, negative for anti-Ackermann.
    pub ackermann: f64,
    /// Caster angle of the front kingpin axes (deg), positive with the axis' top rearwards;
    /// default 0 (a vertical axis in side view). See [`super::kingpin`].
    #[serde(default)]
    pub caster_deg: f64,
    /// Kingpin (steering-axis) inclination of the front wheels (deg), positive with the axis'
    /// top inboard; default 0. Steering about an inclined axis lifts the car, which centres
    /// the steering at any speed, and leans the wheels ([`super::steer_camber`]).
    #[serde(default)]
    pub kingpin_inclination_deg: f64,
    /// Mechanical (caster) trail at the ground (m): the kingpin axis meets the road this far
    /// ahead of the contact centre. Optional: without it, `wheel radius * tan(caster)`, the
    /// trail of a hub on the axis ([`SteeringParams::trail_m`]).
    #[serde(default)]
    pub mechanical_trail_m: Option<f64>,
    /// Scrub radius at the ground (m), positive when the kingpin axis meets the road inboard of
    /// the contact centre.
    pub scrub_radius_m: f64,
    /// Efficiency of rack and column in passing the road's torque back to the wheel (-).
    pub efficiency: f64,
    /// Share of the rack's load the power assistance carries (-): the driver's column torque
    /// is `1 - power_assist` of the unassisted one. Default 0, manual steering. Force feedback
    /// normalises each car by its own peak column torque, so this changes the telemetry's
    /// column torque, not the feel at a given gain.
    #[serde(default)]
    pub power_assist: f64,
}

/// Service brakes and handbrake. Pedal to torque is linear.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BrakeParams {
    /// Brake torque of all four wheels together at full pedal (N·m).
    pub max_torque_n_m: f64,
    /// Share of `max_torque_n_m` on the front axle (-).
    pub bias_front: f64,
    /// Handbrake torque capacity of each rear wheel at full lever (N·m).
    pub handbrake_torque_n_m: f64,
}

/// Driver aids working inside the physics step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AidParams {
    /// Anti-lock brakes on.
    pub abs_enabled: bool,
    /// Slip ratio magnitude beyond which ABS releases a wheel's brake (-), e.g. 0.12.
    pub abs_slip_threshold: f64,
    /// Speed below which ABS leaves the brakes alone (m/s).
    pub abs_min_speed_m_per_s: f64,
    /// Rate at which ABS releases brake pressure (fraction of full per second).
    pub abs_release_rate_per_s: f64,
    /// Rate at which ABS re-applies brake pressure (fraction of full per second).
    pub abs_apply_rate_per_s: f64,
    /// Traction control on.
    pub tc_enabled: bool,
    /// Slip ratio of a driving wheel beyond which traction control cuts throttle (-).
    pub tc_slip_threshold: f64,
    /// Rate at which traction control cuts throttle (fraction per second).
    pub tc_cut_rate_per_s: f64,
    /// Rate at which traction control restores throttle (fraction per second).
    pub tc_restore_rate_per_s: f64,
}

impl Default for AidParams {
    /// ABS and traction control on, with thresholds near the peak of a road tyre's slip
    /// curve (Vehicle Physics Pro and VR-Design Studio place it at about 0.1, `docs/sources.md`).
    fn default() -> Self {
        Self {
            abs_enabled: true,
            abs_slip_threshold: 0.12,
            abs_min_speed_m_per_s: 2.0,
            abs_release_rate_per_s: 20.0,
            abs_apply_rate_per_s: 6.0,
            tc_enabled: true,
            tc_slip_threshold: 0.15,
            tc_cut_rate_per_s: 10.0,
            tc_restore_rate_per_s: 2.0,
        }
    }
}

/// Aerodynamic drag and lift.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AeroParams {
    /// Air density (kg/m³), 1.225 at sea level and 15 °C.
    pub air_density_kg_per_m3: f64,
    /// Drag coefficient `Cd` (-).
    pub drag_coefficient: f64,
    /// Frontal area `A` (m²).
    pub frontal_area_m2: f64,
    /// Longitudinal position of the centre of pressure, ahead of the CG (m).
    pub centre_of_pressure_x_m: f64,
    /// Height of the centre of pressure above flat ground at static ride height (m).
    pub centre_of_pressure_height_m: f64,
    /// Downforce coefficient times area at the front axle, `-Cl_f * A` (m²); negative for lift.
    pub downforce_area_front_m2: f64,
    /// Downforce coefficient times area at the rear axle (m²); negative for lift.
    pub downforce_area_rear_m2: f64,
}

impl VehicleParams {
    /// Distance from the CG to the front axle (m).
    pub fn cg_to_front_axle_m(&self) -> f64 {
        self.chassis.wheelbase_m * (1.0 - self.chassis.front_weight_fraction)
    }

    /// Distance from the CG to the rear axle (m).
    pub fn cg_to_rear_axle_m(&self) -> f64 {
        self.chassis.wheelbase_m * self.chassis.front_weight_fraction
    }

    /// Static load on one wheel of the front (`axle = 0`) or rear (`axle = 1`) axle (N).
    pub fn static_wheel_load_n(&self, axle: usize) -> f64 {
        let share = if axle == 0 {
            self.chassis.front_weight_fraction
        } else {
            1.0 - self.chassis.front_weight_fraction
        };
        0.5 * self.chassis.mass_kg * GRAVITY * share
    }

    /// Unsprung mass of one wheel of the axle (kg): the wheel's own figure, else
    /// [`DEFAULT_UNSPRUNG_FRACTION`] of the corner's static mass.
    pub fn unsprung_mass_kg(&self, axle: usize) -> f64 {
        self.axle(axle)
            .wheel
            .unsprung_mass_kg
            .unwrap_or_else(|| DEFAULT_UNSPRUNG_FRACTION * self.static_wheel_load_n(axle) / GRAVITY)
    }

    /// Static force in one strut of the axle (N): the wheel's static load less the weight of
    /// its unsprung mass, which the tyre carries without the spring.
    pub fn static_strut_load_n(&self, axle: usize) -> f64 {
        self.static_wheel_load_n(axle) - self.unsprung_mass_kg(axle) * GRAVITY
    }

    /// The axle's parameters, front for `axle = 0`, rear otherwise.
    pub fn axle(&self, axle: usize) -> &AxleParams {
        if axle == 0 { &self.front } else { &self.rear }
    }
}

impl Validate for VehicleParams {
    fn validate(&self, v: &mut Validator) {
        v.nested("chassis", &self.chassis);
        v.nested("body", &self.body);
        v.nested("front", &self.front);
        v.nested("rear", &self.rear);
        v.nested("steering", &self.steering);
        v.nested("brakes", &self.brakes);
        v.nested("aids", &self.aids);
        v.nested("aero", &self.aero);
        v.nested("powertrain", &self.powertrain);
        let mut own = super::setup::CarSetup::of(self);
        let values: std::collections::BTreeMap<String, f64> = own
            .numbers_mut()
            .into_iter()
            .map(|(k, v)| (k, *v))
            .collect();
        for (path, &(lo, hi)) in &self.setup_ranges {
            let field = format!("setup_ranges.{path}");
            match values.get(path) {
                None => v.fail(&field, "names no adjustable number of this car"),
                Some(_) if !(lo.is_finite() && hi.is_finite() && lo <= hi) => {
                    v.fail(&field, "must be (low, high) with low <= high");
                }
                Some(&x) if !(lo..=hi).contains(&x) => {
                    v.fail(&field, format!("must contain the car's own value {x}"));
                }
                Some(_) => {}
            }
        }
        if self.chassis.fuel_mass_kg > self.powertrain.fuel.fuel_capacity_kg {
            v.fail(
                "chassis.fuel_mass_kg",
                "must fit in the tank (powertrain.fuel.fuel_capacity_kg)",
            );
        }

        // Cross-checks between sections.
        let c = &self.chassis;
        for (name, axle, index) in [("front", &self.front, 0), ("rear", &self.rear, 1)] {
            let s = &axle.suspension;
            let unsprung_share =
                self.unsprung_mass_kg(index) * GRAVITY / self.static_wheel_load_n(index);
            if unsprung_share >= MAX_UNSPRUNG_FRACTION {
                v.fail(
                    &format!("{name}.wheel.unsprung_mass_kg"),
                    format!(
                        "must be less than {:.0} % of the corner's static mass",
                        100.0 * MAX_UNSPRUNG_FRACTION
                    ),
                );
            } else if s.spring_rate_n_per_m > 0.0 {
                let static_compression =
                    (self.static_strut_load_n(index) - s.spring_preload_n) / s.spring_rate_n_per_m;
                if static_compression.is_nan() || static_compression <= 0.0 {
                    v.fail(
                        &format!("{name}.suspension.spring_preload_n"),
                        "must be less than the static wheel load less the unsprung weight",
                    );
                } else if static_compression >= s.travel_m {
                    v.fail(
                        &format!("{name}.suspension.travel_m"),
                        format!(
                            "must exceed the static compression of {static_compression:.3} m \
                             (the car would sit on its bump stops)"
                        ),
                    );
                }
            }
            if axle.wheel.radius_m >= c.cg_height_m + 0.5 {
                v.fail(
                    &format!("{name}.wheel.radius_m"),
                    "is implausibly large for the CG height",
                );
            }
            if axle.track_m > 0.0 && axle.track_m > self.body.width_m + 0.5 {
                v.fail(
                    &format!("{name}.track_m"),
                    "must not exceed the body width by more than 0.5 m",
                );
            }
        }
        // The whole car's inertias include the wheels': what the unsprung masses take away
        // about the CG must leave the body its own (see `body_mass`).
        let (a, b) = (self.cg_to_front_axle_m(), self.cg_to_rear_axle_m());
        let [front, rear] = [0, 1].map(|i| 2.0 * self.unsprung_mass_kg(i));
        let roll_share =
            0.25 * (front * self.front.track_m.powi(2) + rear * self.rear.track_m.powi(2));
        let pitch_share = front * a * a + rear * b * b;
        for (field, inertia, share) in [
            (
                "chassis.roll_inertia_kg_m2",
                c.roll_inertia_kg_m2,
                roll_share,
            ),
            (
                "chassis.pitch_inertia_kg_m2",
                c.pitch_inertia_kg_m2,
                pitch_share,
            ),
        ] {
            if inertia.is_finite() && share.is_finite() && inertia <= 1.25 * share {
                v.fail(
                    field,
                    format!(
                        "must exceed 1.25 times the unsprung masses' own share about the CG \
                         ({share:.0} kg·m²): the whole car's inertia includes its wheels'"
                    ),
                );
            }
        }
        if self.body.ground_clearance_m >= self.body.height_m {
            v.fail("body.ground_clearance_m", "must be less than body.height_m");
        }
        if self.body.front_overhang_m + c.wheelbase_m > self.body.length_m + 1.0 {
            v.fail(
                "body.front_overhang_m",
                "plus the wheelbase must fit in the body length",
            );
        }
    }
}

impl Validate for ChassisParams {
    fn validate(&self, v: &mut Validator) {
        v.positive("mass_kg", self.mass_kg);
        v.non_negative("fuel_mass_kg", self.fuel_mass_kg);
        if self.fuel_mass_kg >= self.mass_kg {
            v.fail("fuel_mass_kg", "must be less than mass_kg");
        }
        v.positive("wheelbase_m", self.wheelbase_m);
        v.in_range(
            "front_weight_fraction",
            self.front_weight_fraction,
            0.05,
            0.95,
        );
        v.positive("cg_height_m", self.cg_height_m);
        v.positive("roll_inertia_kg_m2", self.roll_inertia_kg_m2);
        v.positive("pitch_inertia_kg_m2", self.pitch_inertia_kg_m2);
        v.positive("yaw_inertia_kg_m2", self.yaw_inertia_kg_m2);
        // A rigid body's principal moments obey the triangle inequality.
        let (x, y, z) = (
            self.roll_inertia_kg_m2,
            self.pitch_inertia_kg_m2,
            self.yaw_inertia_kg_m2,
        );
        if x > 0.0 && y > 0.0 && z > 0.0 && (x > y + z || y > x + z || z > x + y) {
            v.fail(
                "yaw_inertia_kg_m2",
                "and the other two moments must satisfy the triangle inequality",
            );
        }
    }
}

impl Validate for BodyParams {
    fn validate(&self, v: &mut Validator) {
        v.positive("length_m", self.length_m);
        v.positive("width_m", self.width_m);
        v.positive("height_m", self.height_m);
        v.non_negative("ground_clearance_m", self.ground_clearance_m);
        v.non_negative("front_overhang_m", self.front_overhang_m);
        v.positive("contact_stiffness_n_per_m", self.contact_stiffness_n_per_m);
        v.non_negative("contact_damping_n_s_per_m", self.contact_damping_n_s_per_m);
        v.in_range("contact_friction", self.contact_friction, 0.0, 3.0);
    }
}

impl Validate for AxleParams {
    fn validate(&self, v: &mut Validator) {
        v.positive("track_m", self.track_m);
        v.nested("wheel", &self.wheel);
        v.nested("suspension", &self.suspension);
        v.non_negative("anti_roll_bar_n_per_m", self.anti_roll_bar_n_per_m);
        v.in_range("static_camber_deg", self.static_camber_deg, -15.0, 15.0);
        v.in_range("static_toe_deg", self.static_toe_deg, -10.0, 10.0);
        v.in_range(
            "camber_gain_deg_per_m",
            self.camber_gain_deg_per_m,
            -200.0,
            200.0,
        );
        v.in_range("roll_centre_height_m", self.roll_centre_height_m, -0.5, 1.5);
        v.in_range("anti_pitch_fraction", self.anti_pitch_fraction, -1.0, 1.5);
    }
}

impl Validate for WheelParams {
    fn validate(&self, v: &mut Validator) {
        v.positive("radius_m", self.radius_m);
        v.positive("spin_inertia_kg_m2", self.spin_inertia_kg_m2);
        v.positive("tyre_pressure_pa", self.tyre_pressure_pa);
        if let Some(length) = self.relaxation_length_longitudinal_m {
            v.positive("relaxation_length_longitudinal_m", length);
        }
        if let Some(length) = self.relaxation_length_lateral_m {
            v.positive("relaxation_length_lateral_m", length);
        }
        if let Some(mass) = self.unsprung_mass_kg {
            v.positive("unsprung_mass_kg", mass);
        }
        if let Some(stiffness) = self.tyre_vertical_stiffness_n_per_m {
            v.in_range("tyre_vertical_stiffness_n_per_m", stiffness, 1.0e4, 1.0e7);
        }
        if let Some(damping) = self.tyre_vertical_damping_n_s_per_m {
            v.in_range("tyre_vertical_damping_n_s_per_m", damping, 0.0, 1.0e4);
        }
        v.in_range(
            "contact_damping_ratio",
            self.contact_damping_ratio,
            0.0,
            5.0,
        );
        v.positive("low_speed_m_per_s", self.low_speed_m_per_s);
        v.in_range(
            "rolling_resistance_c0",
            self.rolling_resistance_c0,
            0.0,
            0.5,
        );
        v.in_range(
            "rolling_resistance_c1_s_per_m",
            self.rolling_resistance_c1_s_per_m,
            0.0,
            0.1,
        );
    }
}

impl Validate for SuspensionParams {
    fn validate(&self, v: &mut Validator) {
        v.positive("spring_rate_n_per_m", self.spring_rate_n_per_m);
        v.non_negative("spring_preload_n", self.spring_preload_n);
        v.positive("travel_m", self.travel_m);
        v.non_negative("bump_damping_n_s_per_m", self.bump_damping_n_s_per_m);
        v.non_negative("rebound_damping_n_s_per_m", self.rebound_damping_n_s_per_m);
        v.positive("damper_knee_m_per_s", self.damper_knee_m_per_s);
        v.non_negative(
            "fast_bump_damping_n_s_per_m",
            self.fast_bump_damping_n_s_per_m,
        );
        v.non_negative(
            "fast_rebound_damping_n_s_per_m",
            self.fast_rebound_damping_n_s_per_m,
        );
        v.non_negative("bump_stop_rate_n_per_m", self.bump_stop_rate_n_per_m);
        v.positive("bump_stop_length_m", self.bump_stop_length_m);
    }
}

impl Validate for SteeringParams {
    fn validate(&self, v: &mut Validator) {
        v.in_range("ratio", self.ratio, 1.0, 100.0);
        v.in_range("lock_deg", self.lock_deg, 1.0, 1800.0);
        if self.ratio >= 1.0 && self.lock_deg / self.ratio >= 70.0 {
            v.fail(
                "lock_deg",
                "divided by the ratio must give a road-wheel lock below 70 deg",
            );
        }
        v.in_range("ackermann", self.ackermann, -1.0, 1.5);
        v.in_range("caster_deg", self.caster_deg, -10.0, 20.0);
        v.in_range(
            "kingpin_inclination_deg",
            self.kingpin_inclination_deg,
            -10.0,
            25.0,
        );
        if let Some(trail) = self.mechanical_trail_m {
            v.in_range("mechanical_trail_m", trail, -0.1, 0.2);
        }
        v.in_range("scrub_radius_m", self.scrub_radius_m, -0.2, 0.2);
        v.in_range("efficiency", self.efficiency, 0.0, 1.0);
        v.in_range("power_assist", self.power_assist, 0.0, 0.95);
    }
}

impl Validate for BrakeParams {
    fn validate(&self, v: &mut Validator) {
        v.non_negative("max_torque_n_m", self.max_torque_n_m);
        v.in_range("bias_front", self.bias_front, 0.0, 1.0);
        v.non_negative("handbrake_torque_n_m", self.handbrake_torque_n_m);
    }
}

impl Validate for AidParams {
    fn validate(&self, v: &mut Validator) {
        v.in_range("abs_slip_threshold", self.abs_slip_threshold, 0.01, 1.0);
        v.non_negative("abs_min_speed_m_per_s", self.abs_min_speed_m_per_s);
        v.positive("abs_release_rate_per_s", self.abs_release_rate_per_s);
        v.positive("abs_apply_rate_per_s", self.abs_apply_rate_per_s);
        v.in_range("tc_slip_threshold", self.tc_slip_threshold, 0.01, 5.0);
        v.positive("tc_cut_rate_per_s", self.tc_cut_rate_per_s);
        v.positive("tc_restore_rate_per_s", self.tc_restore_rate_per_s);
    }
}

impl Validate for AeroParams {
    fn validate(&self, v: &mut Validator) {
        v.in_range(
            "air_density_kg_per_m3",
            self.air_density_kg_per_m3,
            0.0,
            5.0,
        );
        v.non_negative("drag_coefficient", self.drag_coefficient);
        v.non_negative("frontal_area_m2", self.frontal_area_m2);
        v.finite("centre_of_pressure_x_m", self.centre_of_pressure_x_m);
        v.finite(
            "centre_of_pressure_height_m",
            self.centre_of_pressure_height_m,
        );
        v.in_range(
            "downforce_area_front_m2",
            self.downforce_area_front_m2,
            -10.0,
            10.0,
        );
        v.in_range(
            "downforce_area_rear_m2",
            self.downforce_area_rear_m2,
            -10.0,
            10.0,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_valid() {
        VehicleParams::default()
            .check()
            .expect("default params valid");
    }

    #[test]
    fn errors_carry_field_paths() {
        let mut p = VehicleParams::default();
        p.front.suspension.spring_rate_n_per_m = -1.0;
        p.rear.wheel.radius_m = f64::NAN;
        p.rear.suspension.travel_m = 0.05;
        let err = p.check().expect_err("invalid");
        let paths: Vec<_> = err.0.iter().map(|e| e.path.as_str()).collect();
        assert!(
            paths.contains(&"front.suspension.spring_rate_n_per_m"),
            "{paths:?}"
        );
        assert!(paths.contains(&"rear.wheel.radius_m"), "{paths:?}");
        assert!(paths.contains(&"rear.suspension.travel_m"), "{paths:?}");
    }

    #[test]
    fn static_loads_split_by_weight_fraction() {
        let p = VehicleParams::default();
        let total = 2.0 * (p.static_wheel_load_n(0) + p.static_wheel_load_n(1));
        assert!((total - p.chassis.mass_kg * GRAVITY).abs() < 1e-9);
        assert!((2.0 * p.static_wheel_load_n(0) / total - 0.51).abs() < 1e-12);
        assert!(
            (p.cg_to_front_axle_m() + p.cg_to_rear_axle_m() - p.chassis.wheelbase_m).abs() < 1e-12
        );
    }
}

//! A merged TORCS car description ([`super::merge`]) as Gripline's [`VehicleParams`] and
//! tyres. Each figure is read with TORCS's own default (`simuv2`, TORCS 1.3.7) and mapped as
//! `docs/torcs-cars.md` tabulates; the powertrain is [`super::powertrain`]'s, the tyres
//! [`super::tyre`]'s. Figures Gripline has no place for keep the values of Gripline's
//! default car ([`VehicleParams::default`]), as listed there.

use gripline_physics::tire::simplified_pacejka::SimplifiedPacejka;
use gripline_physics::vehicle::VehicleParams;
use gripline_physics::vehicle::params::{
    AxleParams, BodyParams, BrakeParams, ChassisParams, GRAVITY, MAX_UNSPRUNG_FRACTION,
    SteeringParams, SuspensionParams, WheelParams,
};

use super::aids::aids_for_tyres;
use super::figures::{BRAKE_SECTIONS, Figures, SUSPENSION_SECTIONS, WHEEL_SECTIONS};
use super::launch_band::launch_full_rpm;
use super::powertrain::powertrain;
use super::tyre::tyre_of_corner;
use crate::error::TorcsError;

/// Rolling-resistance coefficient of TORCS's asphalt (`data/tracks/surfaces.xml`, `rolling
/// resistance`): TORCS's rolling resistance is the surface's (`wheel.cpp`: `rollRes = Fz *
/// kRollRes`), its tyres have none of their own.
pub const ASPHALT_ROLLING_RESISTANCE: f64 = 0.001;

/// Steering ratio given to TORCS cars, which have no steering wheel (their command is the
/// share of `steer lock`): a usual road-car ratio.
pub const STEERING_RATIO: f64 = 15.0;

/// TORCS's body drag factor: `SCx2 = 0.645 Cx A` (`aero.cpp`), half of its air density 1.29.
pub const BODY_DRAG_FACTOR: f64 = 0.645;

/// TORCS's wing drag per m² of wing per `sin(angle)` (`aero.cpp`: `Kx = -1.23 area`).
pub const WING_DRAG_FACTOR: f64 = 1.23;

/// TORCS's wing lift over drag (`aero.cpp`: `Kz = 4 Kx`).
pub const WING_LIFT_OVER_DRAG: f64 = 4.0;

/// A TORCS car in Gripline's terms.
#[derive(Clone, Debug)]
pub struct ConvertedCar {
    /// The vehicle's parameters (not yet validated).
    pub params: VehicleParams,
    /// Front and rear tyres.
    pub tyres: [SimplifiedPacejka; 2],
    /// Remarks: figures clamped, left and right sides that differ, what has no equivalent.
    pub warnings: Vec<String>,
}

/// Vertical stiffness (N/m) standing for TORCS's rigid wheel (see `wheel`).
pub const TORCS_RIGID_TYRE_N_PER_M: f64 = 1.0e6;

/// TORCS's ground-effect factor of the body lift at the four static ride heights (m):
/// `hm = 2 exp(-3 (1.5 sum)^4)` (`aero.cpp`, `SimAeroUpdate`).
pub fn ground_effect_factor(ride_heights_m: [f64; 4]) -> f64 {
    let h = 1.5 * ride_heights_m.iter().sum::<f64>();
    2.0 * (-3.0 * h.powi(4)).exp()
}

/// Converts the merged description `f` of the car `name`.
///
/// # Errors
/// A figure that is text or not finite, an impossible geometry (a wheelbase or track that is
/// not positive), or what [`powertrain`] refuses.
pub fn convert(f: &Figures, name: &str) -> Result<ConvertedCar, TorcsError> {
    let mut warnings = Vec::new();
    let defaults = VehicleParams::default();

    // Chassis (car.cpp, SimCarConfig).
    let mass = f.num("Car", "mass", 1500.0)?;
    let tank = f.num("Car", "fuel tank", 80.0)?;
    let fuel = f.num("Car", "initial fuel", 80.0)?.min(tank);
    let front_share = f.num("Car", "front-rear weight repartition", 0.5)?;
    let front_right = f.num("Car", "front right-left weight repartition", 0.5)?;
    let rear_right = f.num("Car", "rear right-left weight repartition", 0.5)?;
    let length = f.num("Car", "body length", 4.7)?;
    let width = f.num("Car", "body width", 1.9)?;
    let overall_width = f.num("Car", "overall width", width)?;
    let height = f.num("Car", "body height", 1.2)?;
    let k = f.num("Car", "mass repartition coefficient", 1.0)?;
    let gc_height = f.num("Car", "GC height", 0.5)?;
    let x_front = f.num("Front Axle", "xpos", 0.0)?;
    let x_rear = f.num("Rear Axle", "xpos", 0.0)?;
    let wheelbase = x_front - x_rear;
    if mass <= 0.0 {
        return Err(f.error(format!("section 'Car': 'mass' {mass} kg must be positive")));
    }
    if wheelbase <= 0.0 {
        return Err(f.error(format!(
            "sections 'Front Axle' and 'Rear Axle': the front axle's xpos ({x_front} m) must be \
             ahead of the rear axle's ({x_rear} m)"
        )));
    }
    let mut ride = [0.0; 4];
    for (corner, r) in ride.iter_mut().enumerate() {
        *r = f.num(WHEEL_SECTIONS[corner], "ride height", 0.20)?;
    }
    let ride_front = 0.5 * (ride[0] + ride[1]);
    let ride_rear = 0.5 * (ride[2] + ride[3]);
    // TORCS's CG height is above the body's reference plane, which rides `ride height` above
    // the road (car.cpp SimCarUpdateWheelPos: wheel z = car z - GC height; wheel.cpp
    // SimWheelUpdateRide: ride height = wheel z - road z).
    let cg_height = gc_height + front_share * ride_front + (1.0 - front_share) * ride_rear;
    // car.cpp, TORCS 1.3.7: Iinv = 12 / (m (..)), with the car's mass without fuel; the
    // mass repartition coefficient `k` scales the length in yaw only.
    let roll = mass * (width * width + height * height) / 12.0;
    let mut pitch = mass * (length * length + height * height) / 12.0;
    let yaw = mass * (width * width + k * k * length * length) / 12.0;
    if pitch > roll + yaw {
        // No rigid body has one moment above the sum of the other two; with `k` below 1 in
        // yaw but not in pitch TORCS's box can. The pitch moment is lowered to that sum.
        warnings.push(format!(
            "section 'Car': TORCS's inertias (roll {roll:.0}, pitch {pitch:.0}, yaw {yaw:.0} kg·m²) are no rigid body's (pitch above roll + yaw): pitch {:.0} kg·m² used",
            roll + yaw
        ));
        pitch = roll + yaw;
    }
    let chassis = ChassisParams {
        mass_kg: mass + fuel,
        fuel_mass_kg: fuel,
        wheelbase_m: wheelbase,
        front_weight_fraction: front_share,
        cg_height_m: cg_height,
        roll_inertia_kg_m2: roll,
        pitch_inertia_kg_m2: pitch,
        yaw_inertia_kg_m2: yaw,
    };
    let ground_clearance = ride.iter().copied().fold(f64::INFINITY, f64::min).max(0.01);
    let body = BodyParams {
        length_m: length,
        width_m: overall_width,
        height_m: height.max(ground_clearance + 0.1),
        ground_clearance_m: ground_clearance,
        front_overhang_m: (0.5 * length - x_front).max(0.0),
        ..defaults.body.clone()
    };

    // TORCS's static wheel loads (car.cpp: weight0, from the mass without fuel).
    let weight = mass * GRAVITY;
    let weight0 = [
        weight * front_share * front_right,
        weight * front_share * (1.0 - front_right),
        weight * (1.0 - front_share) * rear_right,
        weight * (1.0 - front_share) * (1.0 - rear_right),
    ];

    // Brakes (brake.cpp): torque = pressure * diameter / 2 * piston area * mu.
    let pressure = f.num("Brake System", "max pressure", 1.0e6)?;
    let front_rep = f.num("Brake System", "front-rear brake repartition", 0.5)?;
    let mut brake_nm = [0.0; 4];
    for (corner, t) in brake_nm.iter_mut().enumerate() {
        let s = BRAKE_SECTIONS[corner];
        let coeff = f.num(s, "disk diameter", 0.2)?
            * 0.5
            * f.num(s, "piston area", 0.002)?
            * f.num(s, "mu", 0.30)?;
        let share = if corner < 2 {
            front_rep
        } else {
            1.0 - front_rep
        };
        *t = coeff * pressure * share;
    }
    let total_brake: f64 = brake_nm.iter().sum();
    let brakes = BrakeParams {
        max_torque_n_m: total_brake,
        bias_front: if total_brake > 0.0 {
            (brake_nm[0] + brake_nm[1]) / total_brake
        } else {
            0.5
        },
        handbrake_torque_n_m: 0.5 * (brake_nm[2] + brake_nm[3]),
    };

    let mut params = VehicleParams {
        name: format!("{name} (TORCS)"),
        front_tyre: format!("torcs:{name} front"),
        rear_tyre: format!("torcs:{name} rear"),
        chassis,
        body,
        front: axle(f, 0, &mut warnings)?,
        rear: axle(f, 1, &mut warnings)?,
        steering: steering(f, &defaults.steering)?,
        brakes,
        aero: defaults.aero.clone(),
        powertrain: powertrain(f, &mut warnings)?,
        ..defaults.clone()
    };
    params.aero = aero(f, &params, x_front, x_rear, ride)?;
    suspensions(f, &mut params, ride, &mut warnings)?;
    let tyres = [
        tyre_of_corner(f, 0, weight0[0], &mut warnings)?,
        tyre_of_corner(f, 2, weight0[2], &mut warnings)?,
    ];
    params.aids = aids_for_tyres(&params.aids, &tyres, &params.powertrain.drivetrain);
    params.powertrain.gearbox.auto_clutch.launch_full_rpm = launch_full_rpm(&params, &tyres);
    Ok(ConvertedCar {
        params,
        tyres,
        warnings,
    })
}

/// Axle `axle` (0 front, 1 rear) without its suspension ([`suspensions`] fills it).
fn axle(f: &Figures, axle: usize, warnings: &mut Vec<String>) -> Result<AxleParams, TorcsError> {
    let (right, left) = (WHEEL_SECTIONS[2 * axle], WHEEL_SECTIONS[2 * axle + 1]);
    let axle_section = if axle == 0 { "Front Axle" } else { "Rear Axle" };
    let bar_section = if axle == 0 {
        "Front Anti-Roll Bar"
    } else {
        "Rear Anti-Roll Bar"
    };
    let track = f.num(left, "ypos", 0.0)? - f.num(right, "ypos", 0.0)?;
    if track <= 0.0 {
        return Err(f.error(format!(
            "sections '{left}' and '{right}': the left wheel's ypos must be to the left of the \
             right wheel's (track {track} m)"
        )));
    }
    for name in [
        "rim diameter",
        "tire width",
        "tire height-width ratio",
        "mu",
        "stiffness",
    ] {
        let (a, b) = (f.get(right, name)?, f.get(left, name)?);
        if a != b {
            warnings.push(format!(
                "'{right}' and '{left}' differ in '{name}' ({a:?} and {b:?}): the right one used"
            ));
        }
    }
    let radius = f.num(right, "rim diameter", 0.33)? / 2.0
        + f.num(right, "tire width", 0.145)? * f.num(right, "tire height-width ratio", 0.75)?;
    // wheel.cpp: the wheel's inertia plus its brake's; axle.cpp: half the axle's.
    let spin_inertia = f.num(right, "inertia", 1.5)?
        + f.num(BRAKE_SECTIONS[2 * axle], "inertia", 0.13)?
        + 0.5 * f.num(axle_section, "inertia", 0.15)?;
    let bellcrank = f.num(SUSPENSION_SECTIONS[2 * axle], "bellcrank", 1.0)?;
    Ok(AxleParams {
        track_m: track,
        wheel: WheelParams {
            radius_m: radius,
            spin_inertia_kg_m2: spin_inertia,
            tyre_pressure_pa: f.num(right, "pressure", 275_600.0)?,
            relaxation_length_longitudinal_m: None,
            relaxation_length_lateral_m: None,
            contact_damping_ratio: 0.5,
            low_speed_m_per_s: 3.0,
            rolling_resistance_c0: ASPHALT_ROLLING_RESISTANCE,
            rolling_resistance_c1_s_per_m: 0.0,
            unsprung_mass_kg: Some(f.num(right, "mass", 20.0)?),
            // TORCS's wheel is rigid: the road holds it (wheel.cpp: ride height = wheel z -
            // road z) and the load goes through the suspension to the packers, where
            // SimCarCollideZ lifts the body without friction. A tyre five times Gripline's
            // default stands for it: it keeps the body off the road under downforce at the
            // bump stop (1 MN/m deflects 6.6 mm under car1-ow1's 6.6 kN per wheel at top
            // speed) and its wheel hop (20 kg: 36 Hz) stays well inside the 1 kHz step.
            tyre_vertical_stiffness_n_per_m: Some(TORCS_RIGID_TYRE_N_PER_M),
            tyre_vertical_damping_n_s_per_m: None,
        },
        suspension: SuspensionParams {
            spring_rate_n_per_m: 1.0,
            spring_preload_n: 0.0,
            travel_m: 0.1,
            bump_damping_n_s_per_m: 0.0,
            rebound_damping_n_s_per_m: 0.0,
            damper_knee_m_per_s: 0.5,
            fast_bump_damping_n_s_per_m: 0.0,
            fast_rebound_damping_n_s_per_m: 0.0,
            bump_stop_rate_n_per_m: 0.0,
            bump_stop_length_m: 0.02,
        },
        // axle.cpp: the bar's force is `K (x_left - x_right)` on spring travel, which is
        // wheel travel times the bellcrank, and acts on the wheel unscaled.
        anti_roll_bar_n_per_m: f.num(bar_section, "spring", 0.0)? * bellcrank,
        static_camber_deg: f.num(right, "camber", 0.0)?.to_degrees(),
        static_toe_deg: f.num(right, "toe", 0.0)?.to_degrees(),
        camber_gain_deg_per_m: 0.0,
        roll_centre_height_m: f.num(axle_section, "roll center height", 0.15)?,
        anti_pitch_fraction: 0.0,
    })
}

/// Springs, dampers and travel (susp.cpp), on Gripline's static strut loads. TORCS's spring
/// acts on the wheel travel times the bellcrank and its force on the wheel is multiplied by
/// it again, so the wheel rate is `K b²` (dampers likewise); TORCS preloads it to carry the
/// wheel's static load at the static ride height and lets it go slack above; the packers are
/// a rigid stop at that ride height; the wheel droops until the spring travel reaches
/// `suspension course`. Gripline's corner: no preload where the spring's own extension to
/// slack fits within TORCS's droop, the bump stop where TORCS's packers are.
fn suspensions(
    f: &Figures,
    params: &mut VehicleParams,
    ride: [f64; 4],
    warnings: &mut Vec<String>,
) -> Result<(), TorcsError> {
    for axle in 0..2 {
        let s = SUSPENSION_SECTIONS[2 * axle];
        let static_mass = params.static_wheel_load_n(axle) / GRAVITY;
        let corner_unsprung = params.unsprung_mass_kg(axle);
        if corner_unsprung > MAX_UNSPRUNG_FRACTION * static_mass {
            let clamped = MAX_UNSPRUNG_FRACTION * static_mass;
            warnings.push(format!(
                "{}: wheel 'mass' {corner_unsprung:.1} kg is more than Gripline's largest \
                 unsprung share ({MAX_UNSPRUNG_FRACTION} of the corner's {static_mass:.0} kg): \
                 {clamped:.1} kg used",
                WHEEL_SECTIONS[2 * axle]
            ));
            let wheel = if axle == 0 {
                &mut params.front.wheel
            } else {
                &mut params.rear.wheel
            };
            wheel.unsprung_mass_kg = Some(clamped);
        }
        let strut = params.static_strut_load_n(axle);
        let b = f.num(s, "bellcrank", 1.0)?;
        let b2 = b * b;
        let rate = f.num(s, "spring", 175_000.0)? * b2;
        let course = f.num(s, "suspension course", 0.5)?;
        let packers = f.num(s, "packers", 0.0)?;
        let slow_bump = f.num(s, "slow bump", 0.0)?;
        let slow_rebound = f.num(s, "slow rebound", 0.0)?;
        let fast_bump = f.num(s, "fast bump", slow_bump)?;
        let fast_rebound = f.num(s, "fast rebound", slow_rebound)?;
        let knee = f.num(s, "fast bump threshold", 0.5)? / b;
        if rate <= 0.0 || b <= 0.0 {
            return Err(f.error(format!(
                "section '{s}': 'spring' and 'bellcrank' must be positive"
            )));
        }
        let static_ride = 0.5 * (ride[2 * axle] + ride[2 * axle + 1]);
        let droop = (course / b - static_ride).max(0.0);
        let slack = (strut / rate).max(0.0);
        let droop_used = slack.min(droop).max(1e-3);
        let bump = static_ride - packers;
        let bump_used = if bump < 0.005 {
            warnings.push(format!(
                "section '{s}': the packers ({packers} m) leave {bump:.3} m of bump travel at \
                 the static ride height {static_ride} m: 0.005 m used"
            ));
            0.005
        } else {
            bump
        };
        let suspension = SuspensionParams {
            spring_rate_n_per_m: rate,
            spring_preload_n: (strut - rate * droop_used).max(0.0),
            travel_m: droop_used + bump_used,
            bump_damping_n_s_per_m: slow_bump * b2,
            rebound_damping_n_s_per_m: slow_rebound * b2,
            damper_knee_m_per_s: if knee > 0.0 { knee } else { 0.5 },
            fast_bump_damping_n_s_per_m: fast_bump * b2,
            fast_rebound_damping_n_s_per_m: fast_rebound * b2,
            // TORCS's packers are rigid: a stop five times the wheel rate, hard within 2 cm.
            bump_stop_rate_n_per_m: 5.0 * rate,
            bump_stop_length_m: 0.02,
        };
        if axle == 0 {
            params.front.suspension = suspension;
        } else {
            params.rear.suspension = suspension;
        }
    }
    Ok(())
}

/// Steering (steer.cpp): TORCS's command is the share of `steer lock` at the inner wheel and
/// its outer wheel turns more (`atan2(L tan d, L - t tan d)`), Ackermann's reverse.
fn steering(f: &Figures, defaults: &SteeringParams) -> Result<SteeringParams, TorcsError> {
    let lock = f.num("Steer", "steer lock", 0.43)?.to_degrees();
    Ok(SteeringParams {
        ratio: STEERING_RATIO,
        lock_deg: lock * STEERING_RATIO,
        ackermann: -1.0,
        caster_deg: 0.0,
        kingpin_inclination_deg: 0.0,
        mechanical_trail_m: None,
        scrub_radius_m: 0.0,
        ..defaults.clone()
    })
}

/// Aerodynamics (aero.cpp): body drag `0.645 Cx A v²`; body lift `Clift v² hm` per end with
/// the ground-effect factor `hm` at the static ride heights; each wing's drag `1.23 A
/// sin(angle) v²` and lift four times that. TORCS applies each end's body lift and wing
/// force at that wing's `xpos` (car.cpp); here they are shared between the axles by the lever
/// rule. Gripline's `½ rho Cd A v²` and `½ rho ClA v²` take the totals at its air density.
fn aero(
    f: &Figures,
    params: &VehicleParams,
    x_front: f64,
    x_rear: f64,
    ride: [f64; 4],
) -> Result<gripline_physics::vehicle::params::AeroParams, TorcsError> {
    let cx = f.num("Aerodynamics", "Cx", 0.4)?;
    let area = f.num("Aerodynamics", "front area", 2.5)?;
    let clift = [
        f.num("Aerodynamics", "front Clift", 0.0)?,
        f.num("Aerodynamics", "rear Clift", 0.0)?,
    ];
    let hm = ground_effect_factor(ride);
    let mut drag = BODY_DRAG_FACTOR * cx * area;
    let mut lift = [0.0; 2];
    for (i, wing) in ["Front Wing", "Rear Wing"].into_iter().enumerate() {
        let wing_area = f.num(wing, "area", 0.0)?;
        let angle = f.num(wing, "angle", 0.0)?;
        let x = f.num(wing, "xpos", 0.0)?;
        let wing_drag = WING_DRAG_FACTOR * wing_area * angle.sin();
        drag += wing_drag;
        let down = clift[i] * hm + WING_LIFT_OVER_DRAG * wing_drag;
        let front = (x - x_rear) / (x_front - x_rear);
        lift[0] += down * front;
        lift[1] += down * (1.0 - front);
    }
    let half_rho = 0.5 * params.aero.air_density_kg_per_m3;
    Ok(gripline_physics::vehicle::params::AeroParams {
        drag_coefficient: if area > 0.0 {
            drag / (half_rho * area)
        } else {
            0.0
        },
        frontal_area_m2: area.max(0.0),
        centre_of_pressure_x_m: 0.0,
        // TORCS applies the body drag at the CG (no pitching moment).
        centre_of_pressure_height_m: params.chassis.cg_height_m,
        downforce_area_front_m2: lift[0] / half_rho,
        downforce_area_rear_m2: lift[1] / half_rho,
        ..params.aero.clone()
    })
}

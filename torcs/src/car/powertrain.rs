//! A TORCS car's engine, gearbox and differentials as Gripline's [`PowertrainParams`].
//!
//! Engine (`simuv2/engine.cpp`, TORCS 1.3.7): the `data points` curve is the torque at full
//! throttle; at throttle `u` TORCS gives `T(w) (u (1 + K) - K)` with the engine braking
//! factor `K = brake coefficient (w - tickover) / (revs maxi - tickover)`, and no torque above
//! `revs limiter`. Gripline's engine gives `u T_full(w) - T_resist(w)`, so
//! `T_resist = K T` and `T_full = T + K T`: both at full and at closed throttle the torques are
//! TORCS's. (Below tickover `K` is negative in TORCS; Gripline's resistive torque cannot be,
//! so it is zero there: TORCS's engine never runs below tickover.)
//!
//! Gearbox (`transmission.cpp`): the gears' ratios, reverse, and the final drive (the driven
//! axle's differential ratio; with four-wheel drive the central differential's). TORCS 1.3.7
//! applies the gears' and differentials' efficiencies to inertias only, never to torque, so
//! Gripline's efficiency is 1. The gears' inertias (on the engine side in TORCS) are added to
//! the engine's as their mean over the forward gears.
//!
//! Differentials (`differential.cpp`): `FREE` is open, `SPOOL` locked; `LIMITED SLIP` holds
//! the wheels' speed ratio within `max slip bias (1 - input / locking input torque)` and locks
//! beyond its locking torque, which a clutch pack with locking fraction `1 - max slip bias`
//! both ways and no preload approaches; `VISCOUS COUPLER` sends `min torque bias + (1 -
//! exp(-viscosity |dw|)) (max - min torque bias)` of its input to the slower side, which is
//! linearised at `dw = 0` for the largest input (peak torque through first gear) into a
//! viscous coefficient; a central viscous coupler's `min torque bias` is the front share.
//! `NONE` (which in TORCS passes no torque once the wheels turn) becomes open, with a remark.

use gripline_physics::powertrain::PowertrainParams;
use gripline_physics::powertrain::differential::{Differential, Drivetrain};
use gripline_physics::powertrain::engine::{EngineParams, TorquePoint};
use gripline_physics::powertrain::gearbox::{AutoClutchParams, AutoShiftParams, GearboxParams};

use super::figures::Figures;
use crate::error::TorcsError;

/// Radians per second to revolutions per minute (TORCS stores engine speeds in rad/s).
const RAD_S_TO_RPM: f64 = 30.0 / std::f64::consts::PI;

/// Spacing (rpm) of the extra points sampled between TORCS's curve points, so that the
/// resistive torque `K(w) T(w)` (a product, not linear between the points) is followed.
const SAMPLE_RPM: f64 = 250.0;

/// TORCS's engine curve (rpm, N·m), sorted by speed.
///
/// # Errors
/// A curve with fewer than two points, or a figure that is text.
pub fn torque_points(f: &Figures) -> Result<Vec<(f64, f64)>, TorcsError> {
    let revs_max = f.num("Engine", "revs maxi", 1000.0)?;
    let mut points = Vec::new();
    if let Some(curve) = f.section("Engine/data points") {
        for point in &curve.sections {
            let path = format!("Engine/data points/{}", point.name);
            let w = f.num(&path, "rpm", revs_max)?;
            let tq = f.num(&path, "Tq", 0.0)?;
            points.push((w * RAD_S_TO_RPM, tq));
        }
    }
    points.sort_by(|a, b| a.0.total_cmp(&b.0));
    points.dedup_by(|a, b| (a.0 - b.0).abs() < 1e-9);
    if points.len() < 2 {
        return Err(f.error("section 'Engine/data points' needs at least two points"));
    }
    Ok(points)
}

/// TORCS's torque at `rpm` on `points`: linear between them, held beyond the ends.
fn torque_at(points: &[(f64, f64)], rpm: f64) -> f64 {
    let first = points[0];
    let last = points[points.len() - 1];
    if rpm <= first.0 {
        return first.1;
    }
    if rpm >= last.0 {
        return last.1;
    }
    let i = points
        .iter()
        .position(|p| p.0 > rpm)
        .unwrap_or(points.len() - 1);
    let (a, b) = (points[i - 1], points[i]);
    a.1 + (b.1 - a.1) * (rpm - a.0) / (b.0 - a.0)
}

/// The engine, gearbox and drivetrain. Remarks go to `warnings`.
///
/// # Errors
/// Missing gears or engine curve, an unknown drivetrain type, or a figure that is text.
pub fn powertrain(f: &Figures, warnings: &mut Vec<String>) -> Result<PowertrainParams, TorcsError> {
    let points = torque_points(f)?;
    let tickover = f.num("Engine", "tickover", 150.0)? * RAD_S_TO_RPM;
    let revs_max = f.num("Engine", "revs maxi", 1000.0)? * RAD_S_TO_RPM;
    let limiter = f.num("Engine", "revs limiter", 800.0)? * RAD_S_TO_RPM;
    let brake_coefficient = f.num("Engine", "brake coefficient", 0.33)?;
    if revs_max <= tickover || limiter <= tickover {
        return Err(f.error(format!(
            "section 'Engine': 'revs maxi' ({revs_max:.0} rpm) and 'revs limiter' \
             ({limiter:.0} rpm) must be above 'tickover' ({tickover:.0} rpm)"
        )));
    }
    let braking =
        |rpm: f64| brake_coefficient * ((rpm - tickover) / (revs_max - tickover)).max(0.0);
    let top = points[points.len() - 1].0.max(revs_max);
    let mut rpms: Vec<f64> = points.iter().map(|p| p.0).collect();
    rpms.push(tickover);
    let mut r = 0.0;
    while r < top {
        rpms.push(r);
        r += SAMPLE_RPM;
    }
    rpms.push(top);
    rpms.retain(|r| *r >= 0.0);
    rpms.sort_by(f64::total_cmp);
    rpms.dedup();
    let mut torque_curve = Vec::with_capacity(rpms.len());
    let mut resistive_curve = Vec::with_capacity(rpms.len());
    for &rpm in &rpms {
        let flywheel = torque_at(&points, rpm).max(0.0);
        let resist = braking(rpm) * flywheel;
        torque_curve.push(TorquePoint::new(rpm, flywheel + resist));
        resistive_curve.push(TorquePoint::new(rpm, resist));
    }

    let gears = gears(f)?;
    let gear_inertia = gears.iter().map(|g| g.1).sum::<f64>() / gears.len() as f64;
    let defaults = EngineParams::default();
    let scale = limiter / defaults.limiter_rpm;
    let engine = EngineParams {
        torque_curve,
        resistive_curve,
        inertia_kg_m2: f.num("Engine", "inertia", 0.2423)? + gear_inertia,
        idle_rpm: tickover,
        idle_control_range_rpm: defaults.idle_control_range_rpm,
        idle_max_throttle: defaults.idle_max_throttle,
        redline_rpm: limiter,
        limiter_rpm: limiter,
        limiter_hysteresis_rpm: (0.5 * (limiter - tickover)).min(100.0),
        stall_rpm: 0.25 * tickover,
        start_rpm: 0.3 * tickover,
        starter_torque_nm: defaults.starter_torque_nm,
        starter_max_rpm: 0.5 * tickover,
        bsfc_g_per_kwh: defaults.bsfc_g_per_kwh,
    };

    let kind = f
        .text("Drivetrain", "type")?
        .unwrap_or("RWD")
        .trim()
        .to_owned();
    let peak_torque = points.iter().map(|p| p.1).fold(0.0, f64::max);
    let (drivetrain, final_drive) = match kind.as_str() {
        "RWD" => {
            let rear = differential(f, "Rear Differential", 0.0, warnings)?;
            (Drivetrain::Rwd { rear: rear.0 }, rear.2)
        }
        "FWD" => {
            let front = differential(f, "Front Differential", 0.0, warnings)?;
            (Drivetrain::Fwd { front: front.0 }, front.2)
        }
        "4WD" => {
            let centre_ratio = f.num("Central Differential", "ratio", 1.0)?;
            let input = peak_torque * gears[0].0 * centre_ratio;
            let centre = differential(f, "Central Differential", input, warnings)?;
            let front = differential(f, "Front Differential", input * 0.5, warnings)?;
            let rear = differential(f, "Rear Differential", input * 0.5, warnings)?;
            if (front.2 - 1.0).abs() > 1e-9 || (rear.2 - 1.0).abs() > 1e-9 {
                warnings.push(format!(
                    "4WD: the axle differentials' ratios ({} front, {} rear) are not used; \
                     TORCS's overall ratio is the central differential's ({centre_ratio})",
                    front.2, rear.2
                ));
            }
            let awd = Drivetrain::Awd {
                centre: centre.0,
                front_share: centre.1,
                front: front.0,
                rear: rear.0,
            };
            (awd, centre.2)
        }
        other => {
            return Err(f.error(format!(
                "section 'Drivetrain': type '{other}' is not RWD, FWD or 4WD"
            )));
        }
    };

    let ratios: Vec<f64> = gears.iter().map(|g| g.0).collect();
    let reverse = f.num("Gearbox/gears/r", "ratio", 0.0)?.abs();
    let gearbox_defaults = GearboxParams::default();
    let shift = AutoShiftParams::default();
    let clutch_defaults = AutoClutchParams::default();
    let gearbox = GearboxParams {
        reverse_ratio: if reverse > 0.0 { reverse } else { ratios[0] },
        final_drive,
        efficiency: 1.0,
        shift_time_s: f.num("Gearbox", "shift time", 0.2)?,
        auto_shift: AutoShiftParams {
            upshift_rpm: shift.upshift_rpm * scale,
            min_rpm_closed_throttle: shift.min_rpm_closed_throttle * scale,
            min_rpm_full_throttle: shift.min_rpm_full_throttle * scale,
            hysteresis_rpm: shift.hysteresis_rpm * scale,
            braking_min_rpm: shift.braking_min_rpm * scale,
            ..shift
        },
        auto_clutch: AutoClutchParams {
            launch_start_rpm: tickover + 0.15 * (limiter - tickover),
            launch_full_rpm: tickover + 0.35 * (limiter - tickover),
            declutch_rpm: tickover + 0.05 * (limiter - tickover),
            ..clutch_defaults
        },
        ratios,
        ..gearbox_defaults
    };
    let mut params = PowertrainParams {
        engine,
        gearbox,
        drivetrain,
        ..PowertrainParams::default()
    };
    // TORCS's clutch has no torque limit: twice the largest engine torque.
    params.clutch.capacity_nm = 2.0 * peak_torque * (1.0 + brake_coefficient);
    let tank = f.num("Car", "fuel tank", 80.0)?;
    params.fuel.fuel_capacity_kg = tank;
    params.fuel.initial_fuel_kg = f.num("Car", "initial fuel", 80.0)?.min(tank);
    Ok(params)
}

/// The forward gears (ratio, inertia), first gear first, up to the first missing one.
fn gears(f: &Figures) -> Result<Vec<(f64, f64)>, TorcsError> {
    let mut gears = Vec::new();
    for n in 1..=8 {
        let path = format!("Gearbox/gears/{n}");
        let ratio = f.num(&path, "ratio", 0.0)?;
        if ratio == 0.0 {
            break;
        }
        if ratio < 0.0 {
            return Err(f.error(format!(
                "section '{path}': a forward ratio must be positive"
            )));
        }
        gears.push((ratio, f.num(&path, "inertia", 0.0)?));
    }
    if gears.is_empty() {
        return Err(f.error("section 'Gearbox/gears' has no forward gear '1'"));
    }
    Ok(gears)
}

/// The differential of `section`: Gripline's, the share of torque it sends to its first
/// output at equal speeds (TORCS's output 0: the right wheel, or the front axle), and its
/// ratio. `input_nm` is the largest torque at its input (for a viscous coupler).
fn differential(
    f: &Figures,
    section: &str,
    input_nm: f64,
    warnings: &mut Vec<String>,
) -> Result<(Differential, f64, f64), TorcsError> {
    let ratio = f.num(section, "ratio", 1.0)?;
    if ratio <= 0.0 {
        return Err(f.error(format!("section '{section}': 'ratio' must be positive")));
    }
    let kind = f.text(section, "type")?.unwrap_or("NONE").trim().to_owned();
    let min_bias = f.num(section, "min torque bias", 0.05)?;
    let diff = match kind.as_str() {
        "FREE" => (Differential::Open, 0.5),
        "SPOOL" => (Differential::Locked, 0.5),
        "LIMITED SLIP" => {
            let slip = f.num(section, "max slip bias", 0.03)?.clamp(0.0, 1.0);
            let lock = 1.0 - slip;
            let pack = Differential::ClutchPack {
                preload_nm: 0.0,
                power_lock: lock,
                coast_lock: lock,
            };
            (pack, 0.5)
        }
        "VISCOUS COUPLER" => {
            let span = (f.num(section, "max torque bias", 0.8)? - min_bias).max(0.0);
            let viscosity = f.num(section, "viscosity factor", 1.0)?;
            let coefficient = (input_nm * viscosity * span).max(1.0);
            let viscous = Differential::Viscous {
                coefficient_nm_s_per_rad: coefficient,
            };
            (viscous, min_bias.clamp(0.0, 1.0))
        }
        other => {
            warnings.push(format!(
                "section '{section}': differential type '{other}' (none) taken as an open one"
            ));
            (Differential::Open, 0.5)
        }
    };
    Ok((diff.0, diff.1, ratio))
}

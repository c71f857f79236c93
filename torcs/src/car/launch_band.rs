//! The automatic clutch's launch band of a TORCS car, fitted to its tyres' grip.
//!
//! Gripline's automatic clutch bites with the engine's speed: no capacity at
//! `launch_start_rpm`, all of it at `launch_full_rpm`, a smoothstep between
//! ([`gripline_physics::powertrain::shift_logic`]). At full throttle from standstill the engine
//! settles where the clutch's capacity at its speed equals its torque. The import's band (15
//! to 35 % of tickover to limiter, [`super::powertrain`]) suits most TORCS cars: there the
//! engine already gives first gear more drive than the driven tyres pass. For a few it holds
//! the engine where first gear gives less (`car1-trb3`: 2400 rpm, 210 N·m, 8.2 kN against its
//! tyres' 9.8 kN, for the first 1.2 s of a launch), as no driver of such a car would.
//!
//! So the band's top is raised, never lowered, until the engine settles at the speed where
//! first gear's drive at full throttle reaches the driven tyres' grip at their static loads
//! (each tyre's force at its peak slip with TORCS's load factor), or at the engine's
//! peak-torque speed where it never does, capped at 95 % of the limiter. Measured on the 17
//! cars of Debian's `torcs-data` (`docs/validation.md`): only `car1-trb3` (to 5393 rpm) and
//! `p406` (to 6175 rpm) change; 0-100 km/h 5.04 to 4.91 s and 9.29 to 8.83 s (before
//! traction control's quicker recovery).

use gripline_physics::powertrain::clutch::smoothstep;
use gripline_physics::tire::load_sensitivity::load_factor;
use gripline_physics::tire::simplified_pacejka::SimplifiedPacejka;
use gripline_physics::vehicle::VehicleParams;
use gripline_physics::vehicle::params::GRAVITY;

/// Step (rpm) of the search for the engine speed that gives the grip.
const SEARCH_STEP_RPM: f64 = 10.0;
/// Highest top of the band, as a share of the limiter's speed.
const MAX_FULL_OF_LIMITER: f64 = 0.95;

/// The peak force (N) of the two tyres of one axle carrying `axle_load_n`.
fn axle_grip(tyre: &SimplifiedPacejka, axle_load_n: f64) -> f64 {
    let wheel = 0.5 * axle_load_n;
    let curve = &tyre.longitudinal;
    2.0 * curve.force(curve.peak_slip(), wheel) * load_factor(tyre.load_sensitivity.as_ref(), wheel)
}

/// The launch band's top (rpm) for `params` with `tyres` (front, rear): the import's where the
/// engine already passes the grip there, else raised as the module docs say.
pub fn launch_full_rpm(params: &VehicleParams, tyres: &[SimplifiedPacejka; 2]) -> f64 {
    let weight = GRAVITY * params.chassis.mass_kg;
    let front = weight * params.chassis.front_weight_fraction;
    let rear = weight - front;
    let gearbox = &params.powertrain.gearbox;
    let engine = &params.powertrain.engine;
    let band = gearbox.auto_clutch;
    // Each axle by its first wheel (0 front left, 2 rear left: `Drivetrain::driven`), its
    // tyre, load and wheel radius.
    let axles = [
        (0, &tyres[0], front, params.front.wheel.radius_m),
        (2, &tyres[1], rear, params.rear.wheel.radius_m),
    ];
    let driven = || {
        axles
            .iter()
            .filter(|axle| params.powertrain.drivetrain.driven(axle.0))
    };
    let grip_n: f64 = driven()
        .map(|&(_, tyre, load, _)| axle_grip(tyre, load))
        .sum();
    // The driven wheels' radius (all-wheel drive: the rear's).
    let (Some(radius_m), Some(&first)) = (
        driven().map(|axle| axle.3).next_back(),
        gearbox.ratios.first(),
    ) else {
        return band.launch_full_rpm;
    };
    // The engine torque (N·m) at which first gear's drive is the grip.
    let needed = grip_n * radius_m / (first * gearbox.final_drive);
    let speeds = || {
        (0..)
            .map(|k| engine.idle_rpm + SEARCH_STEP_RPM * f64::from(k))
            .take_while(|&rpm| rpm <= engine.limiter_rpm)
    };
    // The speed of peak torque (the lowest, on a plateau).
    let (_, peak_rpm) = speeds().fold((f64::NEG_INFINITY, engine.idle_rpm), |best, rpm| {
        let torque = engine.flywheel_full_torque(rpm);
        if torque > best.0 { (torque, rpm) } else { best }
    });
    let settle_rpm = speeds()
        .take_while(|&rpm| rpm < peak_rpm)
        .find(|&rpm| engine.flywheel_full_torque(rpm) >= needed)
        .unwrap_or(peak_rpm);
    if settle_rpm.is_nan() || settle_rpm <= band.launch_start_rpm {
        return band.launch_full_rpm;
    }
    // The clutch passes the engine's torque there at this share of its capacity ...
    let share = (engine.flywheel_full_torque(settle_rpm) / params.powertrain.clutch.capacity_nm)
        .clamp(0.01, 0.99);
    // ... which the smoothstep reaches at this fraction of the band (bisection: it rises).
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if smoothstep(mid) < share {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let fraction = 0.5 * (lo + hi);
    let full = band.launch_start_rpm + (settle_rpm - band.launch_start_rpm) / fraction;
    full.min(MAX_FULL_OF_LIMITER * engine.limiter_rpm)
        .max(band.launch_full_rpm)
}

#[cfg(test)]
mod tests {
    use super::*;
    use gripline_physics::tire::simplified_pacejka::PacejkaCoefficients;

    /// Tyres of peak friction `mu` with no load law.
    fn tyres(mu: f64) -> [SimplifiedPacejka; 2] {
        let curve = PacejkaCoefficients {
            b: 10.0,
            c: 1.6,
            d: mu,
            e: 0.0,
        };
        let tyre = SimplifiedPacejka {
            lateral: curve,
            longitudinal: curve,
            load_sensitivity: None,
            ..SimplifiedPacejka::default()
        };
        [tyre.clone(), tyre]
    }

    /// Where the engine already gives first gear the grip, the band stays as it is.
    #[test]
    fn a_band_that_already_passes_the_grip_stays() {
        let params = VehicleParams::default();
        let full = launch_full_rpm(&params, &tyres(0.3));
        assert_eq!(
            full.to_bits(),
            params
                .powertrain
                .gearbox
                .auto_clutch
                .launch_full_rpm
                .to_bits()
        );
    }

    /// Tyres no engine speed can spin: the engine is to settle at its peak torque, where the
    /// clutch's smoothstep then passes exactly that torque (a clutch of 1.05 times the peak
    /// torque, so that the band's top stays below its cap).
    #[test]
    fn a_band_below_the_grip_is_raised_to_settle_the_engine_at_its_peak() {
        let mut params = VehicleParams::default();
        params.powertrain.clutch.capacity_nm =
            1.05 * params.powertrain.engine.flywheel_full_torque(4400.0);
        let engine = &params.powertrain.engine;
        let band = params.powertrain.gearbox.auto_clutch;
        let full = launch_full_rpm(&params, &tyres(5.0));
        assert!(
            full > band.launch_full_rpm && full < 0.95 * engine.limiter_rpm,
            "{full}"
        );
        let (peak_torque, peak_rpm) = (0_u32..2000)
            .map(|k| engine.idle_rpm + 10.0 * f64::from(k))
            .take_while(|&rpm| rpm <= engine.limiter_rpm)
            .fold((0.0, 0.0), |best: (f64, f64), rpm| {
                let t = engine.flywheel_full_torque(rpm);
                if t > best.0 { (t, rpm) } else { best }
            });
        let passed =
            smoothstep((peak_rpm - band.launch_start_rpm) / (full - band.launch_start_rpm))
                * params.powertrain.clutch.capacity_nm;
        assert!(
            (passed / peak_torque - 1.0).abs() < 1e-9,
            "{passed} {peak_torque}"
        );
    }
}

//! Per-car figures that force feedback needs beyond the tick's telemetry, computed once when
//! the vehicle is built: where the front tyres peak, which wheels are driven, and how strong
//! the car's steering is.
//!
//! **Peak column torque.** Cars differ by an order of magnitude in their steering-column
//! torque (a light hatchback on narrow tyres against a heavy car on wide ones, different
//! ratios and trails). A force-feedback gain that suits one clips or numbs another. The
//! reference figure is the largest steady-state column torque the two front tyres produce at
//! their static load when slip angle sweeps from 0 to 0.3 rad (free rolling, upright, the
//! reference surface, wheels straight), through the car's own steering geometry
//! ([`crate::vehicle::params::SteeringParams::column_torque`]). Force feedback divides by it
//! to normalise every car to one reference torque, so one user gain fits every car.

use crate::powertrain::Drivetrain;
use crate::tire::{Tire, TireInput, TireModel};
use crate::vehicle::kingpin::KingpinLoads;
use crate::vehicle::params::VehicleParams;
use crate::vehicle::wheel::TYRE_MIN_SPEED_M_PER_S;

/// What force feedback needs to know about a car (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SteeringFeel {
    /// Slip angle (rad) at which the front tyre's lateral force peaks at its static load.
    pub front_peak_slip_angle_rad: f64,
    /// Slip ratio at which the front tyre's driving force peaks at its static load.
    pub front_peak_slip_ratio: f64,
    /// Slip ratio at which the rear tyre's driving force peaks at its static load.
    pub rear_peak_slip_ratio: f64,
    /// Largest steady-state column torque of the front axle at static load (N·m, > 0).
    pub peak_column_torque_nm: f64,
    /// Which wheels are driven: front-left, front-right, rear-left, rear-right.
    pub driven: [bool; 4],
}

impl SteeringFeel {
    /// The figures of a car with `params` and `[front, rear]` tyres.
    pub fn of(params: &VehicleParams, tires: &[Tire; 2]) -> Self {
        let front = &params.front;
        let load = params.static_wheel_load_n(0);
        let base = TireInput {
            pressure: front.wheel.tyre_pressure_pa,
            ..TireInput::rolling(load, TYRE_MIN_SPEED_M_PER_S)
        };
        let mut peak_fy = (0.0f64, 0.1f64);
        let mut peak_column = 0.0f64;
        for i in 1..=150 {
            let alpha = f64::from(i) * 0.002;
            let out = tires[0].evaluate(&base.with_alpha(alpha));
            if (-out.fy) > peak_fy.0 {
                peak_fy = (-out.fy, alpha);
            }
            let wheel = KingpinLoads {
                fy: out.fy,
                fz: load,
                mz: out.mz,
                ..KingpinLoads::default()
            };
            let column = params
                .steering
                .column_torque(front.wheel.radius_m, &[wheel; 2])
                .abs();
            if column.is_finite() {
                peak_column = peak_column.max(column);
            }
        }
        let peak_ratio = |axle: usize| {
            let load = params.static_wheel_load_n(axle);
            let base = TireInput {
                pressure: params.axle(axle).wheel.tyre_pressure_pa,
                ..TireInput::rolling(load, TYRE_MIN_SPEED_M_PER_S)
            };
            let mut best = (0.0f64, 0.1f64);
            for i in 1..=200 {
                let kappa = f64::from(i) * 0.0025;
                let fx = tires[axle].evaluate(&base.with_kappa(kappa)).fx;
                if fx > best.0 {
                    best = (fx, kappa);
                }
            }
            best.1
        };
        let driven = match params.powertrain.drivetrain {
            Drivetrain::Fwd { .. } => [true, true, false, false],
            Drivetrain::Rwd { .. } => [false, false, true, true],
            Drivetrain::Awd { .. } => [true; 4],
        };
        Self {
            front_peak_slip_angle_rad: peak_fy.1,
            front_peak_slip_ratio: peak_ratio(0),
            rear_peak_slip_ratio: peak_ratio(1),
            peak_column_torque_nm: if peak_column > 1e-3 { peak_column } else { 1.0 },
            driven,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tire::simplified_pacejka::SimplifiedPacejka;

    #[test]
    fn figures_of_the_default_car_match_the_tyre_formula() {
        let params = VehicleParams::default();
        let tyre = SimplifiedPacejka::default();
        let feel = SteeringFeel::of(
            &params,
            &[
                Tire::SimplifiedPacejka(tyre.clone()),
                Tire::SimplifiedPacejka(tyre.clone()),
            ],
        );
        // Workshop III: with E = 0 the curve D sin(C atan(B x)) peaks at x = tan(pi / 2C) / B;
        // the sweep's steps are 0.002 rad and 0.0025.
        let analytic = |c: f64, b: f64| (std::f64::consts::PI / (2.0 * c)).tan() / b;
        let alpha = analytic(tyre.lateral.c, tyre.lateral.b);
        let kappa = analytic(tyre.longitudinal.c, tyre.longitudinal.b);
        assert!(
            (feel.front_peak_slip_angle_rad - alpha).abs() <= 0.002,
            "{alpha}"
        );
        assert!(
            (feel.front_peak_slip_ratio - kappa).abs() <= 0.0025,
            "{kappa}"
        );
        assert!((feel.rear_peak_slip_ratio - kappa).abs() <= 0.0025);
        // The column torque lies between the mechanical trail's share at the peak (where the
        // pneumatic trail has vanished) and the full trail's at the peak force:
        // 2 eff e_z t_m D Fz / ratio <= T <= 2 eff e_z (t_m + t_0) D Fz / ratio, with e_z
        // the cosine of the kingpin axis' lean (the wheels are straight: no jacking moment).
        let s = &params.steering;
        let fz = params.static_wheel_load_n(0);
        let r = params.front.wheel.radius_m;
        let e_z = crate::vehicle::kingpin::KingpinAxis::of(s, r).direction(1.0)[2];
        let per_trail = 2.0 * s.efficiency * e_z * tyre.lateral.d * fz / s.ratio;
        let low = per_trail * s.trail_m(r);
        let high = per_trail * (s.trail_m(r) + tyre.initial_trail_m);
        assert!(
            feel.peak_column_torque_nm >= low * 0.999 && feel.peak_column_torque_nm <= high,
            "{} not in {low}..{high}",
            feel.peak_column_torque_nm
        );
        assert_eq!(feel.driven, [false, false, true, true], "the C5 is RWD");
    }
}

//! Figures a set-up engineer reads beside the numbers ([`SetupFigures`]): ride and wheel-hop
//! frequencies, the front share of roll stiffness, static corner weights and the speed at the
//! redline in each gear.
//!
//! - Ride and wheel-hop frequencies: the undamped quarter car's two natural frequencies, the
//!   corner's sprung mass (static load over g less the unsprung mass) on the spring's wheel
//!   rate over the unsprung mass on the tyre's vertical stiffness
//!   ([`super::unsprung::WheelMount::quarter_car_frequencies_hz`]; Gillespie ch. 5). The
//!   ride frequency is close to `sqrt(k_ride / m_s) / 2π` with the ride rate
//!   `k_ride = k kt / (k + kt)`; 1.0-1.5 Hz is a road car, 2-3 Hz a race car; wheel hop lies
//!   near 10-15 Hz.
//! - Roll stiffness of an axle `K = t² (k_spring / 2 + k_bar)` (N·m/rad) for a track `t`: in
//!   a roll `φ` each spring moves `± t φ / 2`, and the bar, a rate on the difference of the
//!   two compressions, sees `t φ`. The front share of the total sets the balance: more
//!   front share, more understeer.
//! - Speed at the redline in gear `i`: `ω_redline r / (ratio_i · final drive)` with the
//!   driven wheels' radius.

use super::params::{GRAVITY, VehicleParams};
use super::unsprung::WheelMount;
use crate::powertrain::{Drivetrain, RPM_TO_RAD_S};
use crate::tire::Tire;

/// The figures (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct SetupFigures {
    /// Ride frequency front, rear (Hz).
    pub ride_frequency_hz: [f64; 2],
    /// Wheel-hop frequency front, rear (Hz).
    pub wheel_hop_frequency_hz: [f64; 2],
    /// Roll stiffness front, rear (N·m/rad).
    pub roll_stiffness_nm_per_rad: [f64; 2],
    /// The front's share of the roll stiffness (0-1).
    pub roll_stiffness_front_share: f64,
    /// Static load of one front and one rear wheel (kg).
    pub corner_weight_kg: [f64; 2],
    /// Speed at the redline in each forward gear (km/h).
    pub gear_speeds_kmh: Vec<f64>,
}

impl SetupFigures {
    /// The figures of `params` on the `[front, rear]` `tires` (whose files may give the
    /// tyres' vertical stiffness).
    pub fn of(params: &VehicleParams, tires: &[Tire; 2]) -> Self {
        let corner_kg = [0, 1].map(|i| params.static_wheel_load_n(i) / GRAVITY);
        let axles = [&params.front, &params.rear];
        let [front, rear] = [0, 1].map(|i| {
            let mount = WheelMount::of(params, 2 * i, &tires[i]);
            mount.quarter_car_frequencies_hz(
                corner_kg[i] - mount.mass_kg,
                axles[i].suspension.spring_rate_n_per_m,
            )
        });
        let roll = [0, 1].map(|i| {
            let a = axles[i];
            a.track_m
                * a.track_m
                * (0.5 * a.suspension.spring_rate_n_per_m + a.anti_roll_bar_n_per_m)
        });
        let total = roll[0] + roll[1];
        let driven_radius_m = match params.powertrain.drivetrain {
            Drivetrain::Fwd { .. } => params.front.wheel.radius_m,
            Drivetrain::Rwd { .. } | Drivetrain::Awd { .. } => params.rear.wheel.radius_m,
        };
        let g = &params.powertrain.gearbox;
        let omega = params.powertrain.engine.redline_rpm * RPM_TO_RAD_S;
        let gear_speeds_kmh = g
            .ratios
            .iter()
            .map(|r| omega * driven_radius_m / (r * g.final_drive) * 3.6)
            .collect();
        Self {
            ride_frequency_hz: [front.1, rear.1],
            wheel_hop_frequency_hz: [front.0, rear.0],
            roll_stiffness_nm_per_rad: roll,
            roll_stiffness_front_share: if total > 0.0 { roll[0] / total } else { 0.5 },
            corner_weight_kg: corner_kg,
            gear_speeds_kmh,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tire::SimplifiedPacejka;

    /// Tyres without vertical data: the default 200 kN/m.
    fn tires() -> [Tire; 2] {
        [
            Tire::SimplifiedPacejka(SimplifiedPacejka::default()),
            Tire::SimplifiedPacejka(SimplifiedPacejka::default()),
        ]
    }

    #[test]
    fn the_corvette_s_figures_are_those_of_a_sports_car() {
        let p = VehicleParams::default();
        let f = SetupFigures::of(&p, &tires());
        // 1547 kg with the driver, 51 % front: 394.5 kg on a front corner.
        assert!((f.corner_weight_kg[0] - 0.5 * 1547.0 * 0.51).abs() < 0.01);
        // Road sports car: between 1 and 2.5 Hz; wheel hop 10-15 Hz (Gillespie ch. 5).
        for hz in f.ride_frequency_hz {
            assert!((1.0..2.5).contains(&hz), "{hz} Hz");
        }
        for hz in f.wheel_hop_frequency_hz {
            assert!((10.0..15.0).contains(&hz), "{hz} Hz");
        }
        // The front by hand: 394.5 - 43 kg sprung on 33 kN/m in series with the 200 kN/m
        // tyre: sqrt(28.33 kN/m / 351.5 kg) / 2π = 1.429 Hz, the two-mass value 0.3 % off it.
        assert!((f.ride_frequency_hz[0] / 1.429 - 1.0).abs() < 0.01, "{f:?}");
        // Worked by hand for the front: t² (k/2 + bar).
        let a = &p.front;
        let expected =
            a.track_m.powi(2) * (a.suspension.spring_rate_n_per_m / 2.0 + a.anti_roll_bar_n_per_m);
        assert!((f.roll_stiffness_nm_per_rad[0] - expected).abs() < 1e-6);
        assert!((0.3..0.8).contains(&f.roll_stiffness_front_share));
        // Each gear faster than the one below; top gear at the redline beyond 300 km/h (an
        // overdrive the car cannot pull to the redline).
        assert!(f.gear_speeds_kmh.windows(2).all(|w| w[1] > w[0]));
        let first = p.powertrain.engine.redline_rpm * RPM_TO_RAD_S * p.rear.wheel.radius_m
            / (p.powertrain.gearbox.ratios[0] * p.powertrain.gearbox.final_drive)
            * 3.6;
        assert!((f.gear_speeds_kmh[0] - first).abs() < 1e-9);
    }

    #[test]
    fn a_stiffer_front_bar_raises_the_front_share() {
        let mut p = VehicleParams::default();
        let before = SetupFigures::of(&p, &tires()).roll_stiffness_front_share;
        p.front.anti_roll_bar_n_per_m *= 2.0;
        assert!(SetupFigures::of(&p, &tires()).roll_stiffness_front_share > before);
    }
}

//! A TORCS car's traction control tuned to its own tyres.
//!
//! TORCS's simulation has no driver aids (its robots drive without), so Gripline gives an
//! imported car its own ABS and traction control with Gripline's default rates. Traction
//! control's slip threshold is set from the car's driven tyres rather than a road tyre's.
//! Gripline's default (0.15) sits near the peak of a road tyre's slip curve (about 0.1);
//! TORCS's tyres peak at slip ratios of 0.17 to 0.53, and `buggy`'s (shape factor 1) only at
//! 14, so with the default the aid held every TORCS car below its tyres' peak, and the
//! off-road cars far below it (`baja-bug` took 9.4 s to 100 km/h against 7.5 s estimated
//! from its data).
//!
//! The threshold is [`THRESHOLD_OF_PEAK`] of the slip at which the driven wheels' force
//! peaks. Below the peak the curve is flat (Pacejka's curve gives 97-99 % of the peak force
//! there), and the margin is what the aid's rate-limited cut needs not to overshoot into the
//! falling side of the curve. Measured on the 17 cars of Debian's `torcs-data`
//! (`docs/validation.md`, before traction control's quicker recovery): at 80 % the launches
//! were within 15 % of their point-mass estimates but one; at 100 % `car1-ow1` overshot its
//! peak (0.21) and took 4.0 s against 3.8 s.
//!
//! ABS keeps Gripline's default (0.12): braking at 80 % of the peak slip leaves a wheel
//! little side force, and the driver model, braking into corners, then ran `baja-bug` off
//! the shipped circuit.

use gripline_physics::powertrain::differential::Drivetrain;
use gripline_physics::tire::simplified_pacejka::SimplifiedPacejka;
use gripline_physics::vehicle::params::AidParams;

/// An aid's slip threshold as a share of the slip at which the tyres' force peaks (-).
pub const THRESHOLD_OF_PEAK: f64 = 0.8;

/// Largest traction-control threshold Gripline takes (its validation's bound).
const MAX_TC_THRESHOLD: f64 = 5.0;
/// Smallest traction-control threshold Gripline takes (its validation's bound).
const MIN_THRESHOLD: f64 = 0.01;

/// `defaults` with traction control's slip threshold set from the tyres (front, rear) that
/// `drivetrain` drives.
pub fn aids_for_tyres(
    defaults: &AidParams,
    tyres: &[SimplifiedPacejka; 2],
    drivetrain: &Drivetrain,
) -> AidParams {
    let [front, rear] = tyres.each_ref().map(|t| t.longitudinal.peak_slip());
    // The axles' first wheels: 0 front left, 2 rear left ([`Drivetrain::driven`]).
    let driven = [(0, front), (2, rear)]
        .into_iter()
        .filter(|&(wheel, _)| drivetrain.driven(wheel))
        .map(|(_, slip)| slip)
        .fold(f64::INFINITY, f64::min);
    AidParams {
        tc_slip_threshold: (THRESHOLD_OF_PEAK * driven).clamp(MIN_THRESHOLD, MAX_TC_THRESHOLD),
        ..defaults.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gripline_physics::powertrain::differential::Differential;
    use gripline_physics::tire::simplified_pacejka::PacejkaCoefficients;

    fn tyre(b: f64, c: f64) -> SimplifiedPacejka {
        let curve = PacejkaCoefficients {
            b,
            c,
            d: 1.0,
            e: 0.0,
        };
        SimplifiedPacejka {
            lateral: curve,
            longitudinal: curve,
            ..SimplifiedPacejka::default()
        }
    }

    /// With `E = 0` the curve peaks at `B s = tan(pi / (2C))`: for `B = 10`, `C = 1.5`
    /// (tan 60° = 1.732) at 0.1732, so the thresholds lie at 0.1386.
    #[test]
    fn thresholds_are_80_percent_of_the_closed_form_peak() {
        let aids = aids_for_tyres(
            &AidParams::default(),
            &[tyre(10.0, 1.5), tyre(10.0, 1.5)],
            &Drivetrain::Rwd {
                rear: Differential::default(),
            },
        );
        let peak = 3.0_f64.sqrt() / 10.0;
        assert!((aids.tc_slip_threshold - 0.8 * peak).abs() < 1e-9);
        // Everything else is the default.
        let defaults = AidParams::default();
        assert_eq!(
            AidParams {
                tc_slip_threshold: defaults.tc_slip_threshold,
                ..aids
            },
            defaults
        );
    }

    /// Traction control follows the driven axle.
    #[test]
    fn traction_control_follows_the_driven_wheels() {
        let tyres = [tyre(10.0, 1.5), tyre(5.0, 1.5)];
        let fwd = Drivetrain::Fwd {
            front: Differential::default(),
        };
        let rwd = Drivetrain::Rwd {
            rear: Differential::default(),
        };
        let front = aids_for_tyres(&AidParams::default(), &tyres, &fwd);
        let rear = aids_for_tyres(&AidParams::default(), &tyres, &rwd);
        assert!((rear.tc_slip_threshold / front.tc_slip_threshold - 2.0).abs() < 1e-9);
    }

    /// A curve that peaks far out (`buggy`'s: shape factor 1.01, `B s` peaks at
    /// tan(pi / 2.02) = 64.3, at slip 32 for `B = 2`) gives thresholds at Gripline's bounds,
    /// so the aid stays valid and in effect never acts.
    #[test]
    fn a_curve_peaking_far_out_gives_the_largest_valid_threshold() {
        let tyres = [tyre(2.0, 1.01), tyre(2.0, 1.01)];
        let aids = aids_for_tyres(
            &AidParams::default(),
            &tyres,
            &Drivetrain::Rwd {
                rear: Differential::default(),
            },
        );
        assert!((aids.tc_slip_threshold - MAX_TC_THRESHOLD).abs() < 1e-12);
    }
}

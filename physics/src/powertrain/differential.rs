//! Differentials and the drive layout (FWD, RWD, AWD with a centre differential).
//!
//! Every differential here is an open (equal-torque; VR-Design Studio, `docs/sources.md`) gear
//! differential plus an optional coupling between its two outputs:
//!
//! | type | coupling between the outputs |
//! |---|---|
//! | [`Differential::Open`] | none: equal torque, any speed difference |
//! | [`Differential::Locked`] | rigid: equal speeds |
//! | [`Differential::ClutchPack`] | friction clutch of capacity `preload_nm + |T_in| * lock` (stick/slip) |
//! | [`Differential::Viscous`] | damper: `coefficient_nm_s_per_rad * speed difference` |
//!
//! For the clutch-pack limited slip the ramp angles of a real unit set how much of the input
//! torque becomes clamping force; the simple documented form used here is
//! `locking_torque = preload_nm + |input torque| * lock`, with `lock = power_lock` when the
//! engine drives and `coast_lock` when it brakes (both fractions 0..1; 1 locks fully). The
//! input torque is the differential's share of the previous tick's driveshaft torque, which
//! keeps each tick's coupled solve linear.
//!
//! The centre differential of an AWD layout splits its input torque `front_share` to the
//! front axle and the rest to the rear; kinematically its input turns at
//! `front_share * front_axle_speed + (1 - front_share) * rear_axle_speed`. The final drive
//! sits in the gearbox ([`super::gearbox::GearboxParams::final_drive`]), so the
//! differentials themselves have a 1:1 ratio.

use serde::{Deserialize, Serialize};

use crate::validate::{Validate, Validator};

/// One differential.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Differential {
    /// Equal torque to both outputs, free speed difference.
    #[default]
    Open,
    /// Both outputs always at the same speed.
    Locked,
    /// Clutch-pack limited slip.
    ClutchPack {
        /// Locking torque with no input torque (N·m), from the preload springs.
        preload_nm: f64,
        /// Fraction of the input torque added to the locking torque under power (0..1).
        power_lock: f64,
        /// Fraction of the input torque added to the locking torque on the overrun (0..1).
        coast_lock: f64,
    },
    /// Viscous coupling: torque proportional to the speed difference of the outputs.
    Viscous {
        /// Torque per unit speed difference (N·m per rad/s).
        coefficient_nm_s_per_rad: f64,
    },
}

impl Differential {
    /// Locking torque of a clutch-pack differential for `input_nm` of input torque, under
    /// power (`drive`) or on the overrun: `preload + |input| * lock`. Zero for an open
    /// differential, infinite for a locked one, zero for a viscous one (whose torque depends
    /// on speed, see [`Differential::viscous_torque`]).
    pub fn locking_torque(&self, input_nm: f64, drive: bool) -> f64 {
        match *self {
            Differential::Open | Differential::Viscous { .. } => 0.0,
            Differential::Locked => f64::INFINITY,
            Differential::ClutchPack {
                preload_nm,
                power_lock,
                coast_lock,
            } => {
                let lock = if drive { power_lock } else { coast_lock };
                let input = if input_nm.is_finite() {
                    input_nm.abs()
                } else {
                    0.0
                };
                preload_nm + input * lock
            }
        }
    }

    /// Torque a viscous coupling passes from the faster output to the slower one at a speed
    /// difference of `delta_omega` (rad/s); zero for the other kinds.
    pub fn viscous_torque(&self, delta_omega: f64) -> f64 {
        match *self {
            Differential::Viscous {
                coefficient_nm_s_per_rad,
            } => coefficient_nm_s_per_rad * delta_omega,
            _ => 0.0,
        }
    }
}

impl Validate for Differential {
    fn validate(&self, v: &mut Validator) {
        match *self {
            Differential::Open | Differential::Locked => {}
            Differential::ClutchPack {
                preload_nm,
                power_lock,
                coast_lock,
            } => {
                v.non_negative("preload_nm", preload_nm);
                v.in_range("power_lock", power_lock, 0.0, 1.0);
                v.in_range("coast_lock", coast_lock, 0.0, 1.0);
            }
            Differential::Viscous {
                coefficient_nm_s_per_rad,
            } => v.non_negative("coefficient_nm_s_per_rad", coefficient_nm_s_per_rad),
        }
    }
}

/// Which wheels the engine drives, and through which differentials.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Drivetrain {
    /// Front-wheel drive.
    Fwd {
        /// The front axle's differential.
        front: Differential,
    },
    /// Rear-wheel drive.
    Rwd {
        /// The rear axle's differential.
        rear: Differential,
    },
    /// All-wheel drive through a centre differential.
    Awd {
        /// The centre differential, between the front and rear axles.
        centre: Differential,
        /// Share of the input torque the centre differential sends to the front (0..1).
        front_share: f64,
        /// The front axle's differential.
        front: Differential,
        /// The rear axle's differential.
        rear: Differential,
    },
}

impl Default for Drivetrain {
    fn default() -> Self {
        Drivetrain::Rwd {
            rear: Differential::Open,
        }
    }
}

impl Validate for Drivetrain {
    fn validate(&self, v: &mut Validator) {
        match self {
            Drivetrain::Fwd { front } => v.nested("front", front),
            Drivetrain::Rwd { rear } => v.nested("rear", rear),
            Drivetrain::Awd {
                centre,
                front_share,
                front,
                rear,
            } => {
                v.nested("centre", centre);
                v.in_range("front_share", *front_share, 0.0, 1.0);
                v.nested("front", front);
                v.nested("rear", rear);
            }
        }
    }
}

/// One differential of a layout, as the driveline solver needs it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DiffSlot {
    /// Where it sits.
    pub position: DiffPosition,
    /// What kind it is.
    pub diff: Differential,
    /// Share of the driveshaft torque that reaches its input.
    pub share: f64,
    /// Speed-difference row across its outputs, per wheel (FL, FR, RL, RR): left minus right
    /// for an axle, front axle mean minus rear axle mean for the centre.
    pub row: [f64; 4],
}

/// Where a differential sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiffPosition {
    /// Between the front and rear axles.
    Centre,
    /// Between the front wheels.
    Front,
    /// Between the rear wheels.
    Rear,
}

impl Drivetrain {
    /// Kinematic weights `k` of the wheels (FL, FR, RL, RR): the final-drive output turns at
    /// `sum(k[i] * omega[i])`, and a torque `T` there reaches wheel `i` as `k[i] * T`
    /// (open differentials; the two statements are the same by power balance).
    pub fn wheel_weights(&self) -> [f64; 4] {
        match *self {
            Drivetrain::Fwd { .. } => [0.5, 0.5, 0.0, 0.0],
            Drivetrain::Rwd { .. } => [0.0, 0.0, 0.5, 0.5],
            Drivetrain::Awd { front_share, .. } => {
                let f = front_share.clamp(0.0, 1.0);
                [0.5 * f, 0.5 * f, 0.5 * (1.0 - f), 0.5 * (1.0 - f)]
            }
        }
    }

    /// The layout's differentials, in the order centre, front, rear (`None` where there is
    /// none).
    pub fn differentials(&self) -> [Option<DiffSlot>; 3] {
        const FRONT_ROW: [f64; 4] = [1.0, -1.0, 0.0, 0.0];
        const REAR_ROW: [f64; 4] = [0.0, 0.0, 1.0, -1.0];
        const CENTRE_ROW: [f64; 4] = [0.5, 0.5, -0.5, -0.5];
        let slot = |position, diff, share, row| DiffSlot {
            position,
            diff,
            share,
            row,
        };
        match *self {
            Drivetrain::Fwd { front } => [
                None,
                Some(slot(DiffPosition::Front, front, 1.0, FRONT_ROW)),
                None,
            ],
            Drivetrain::Rwd { rear } => [
                None,
                None,
                Some(slot(DiffPosition::Rear, rear, 1.0, REAR_ROW)),
            ],
            Drivetrain::Awd {
                centre,
                front_share,
                front,
                rear,
            } => {
                let f = front_share.clamp(0.0, 1.0);
                [
                    Some(slot(DiffPosition::Centre, centre, 1.0, CENTRE_ROW)),
                    Some(slot(DiffPosition::Front, front, f, FRONT_ROW)),
                    Some(slot(DiffPosition::Rear, rear, 1.0 - f, REAR_ROW)),
                ]
            }
        }
    }

    /// Whether wheel `i` (FL, FR, RL, RR) is driven.
    pub fn driven(&self, i: usize) -> bool {
        self.wheel_weights().get(i).is_some_and(|k| *k > 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lsd_locking_torque_formula() {
        let d = Differential::ClutchPack {
            preload_nm: 50.0,
            power_lock: 0.4,
            coast_lock: 0.2,
        };
        // preload + |T_in| * lock, with the lock of the torque's direction.
        assert!((d.locking_torque(1000.0, true) - 450.0).abs() < 1e-12);
        assert!((d.locking_torque(-1000.0, false) - 250.0).abs() < 1e-12);
        assert!((d.locking_torque(0.0, true) - 50.0).abs() < 1e-12);
        assert!(Differential::Open.locking_torque(1000.0, true).abs() < 1e-12);
        assert!(Differential::Locked.locking_torque(0.0, true).is_infinite());
    }

    #[test]
    fn viscous_torque_is_proportional_to_the_speed_difference() {
        let d = Differential::Viscous {
            coefficient_nm_s_per_rad: 25.0,
        };
        assert!((d.viscous_torque(4.0) - 100.0).abs() < 1e-12);
        assert!((d.viscous_torque(-2.0) + 50.0).abs() < 1e-12);
        assert!(Differential::Open.viscous_torque(4.0).abs() < 1e-12);
    }

    #[test]
    fn weights_split_torque_by_layout() {
        let awd = Drivetrain::Awd {
            centre: Differential::Open,
            front_share: 0.4,
            front: Differential::Open,
            rear: Differential::Open,
        };
        let k = awd.wheel_weights();
        assert!((k.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!((k[0] + k[1] - 0.4).abs() < 1e-12);
        assert!(awd.driven(0) && awd.driven(3));
        let rwd = Drivetrain::default();
        assert!(!rwd.driven(0) && rwd.driven(2));
    }

    #[test]
    fn validation_paths() {
        let d = Drivetrain::Awd {
            centre: Differential::ClutchPack {
                preload_nm: -1.0,
                power_lock: 2.0,
                coast_lock: 0.1,
            },
            front_share: 1.5,
            front: Differential::Open,
            rear: Differential::Viscous {
                coefficient_nm_s_per_rad: f64::NAN,
            },
        };
        let err = d.check().unwrap_err().to_string();
        assert!(err.contains("centre.preload_nm"), "{err}");
        assert!(err.contains("centre.power_lock"), "{err}");
        assert!(err.contains("front_share"), "{err}");
        assert!(err.contains("rear.coefficient_nm_s_per_rad"), "{err}");
    }
}

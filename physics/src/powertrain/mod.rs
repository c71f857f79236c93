//! The powertrain: engine, clutch, gearbox, differentials, and the wheels' spin.
//!
//! INTERFACE SKETCH — the types below are the contract between the vehicle and the
//! powertrain; the implementation is being written.
//!
//! Wheel order everywhere: front-left, front-right, rear-left, rear-right.
#![allow(missing_docs)]

use serde::{Deserialize, Serialize};

use crate::controls::Controls;

/// Rotational state of one wheel, integrated by the powertrain.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WheelSpin {
    /// Spin rate (rad/s), positive rolling forward.
    pub omega: f64,
    /// Inertia of the wheel, tyre, hub and brake disc (kg·m²), without the driveline behind it.
    pub inertia: f64,
}

/// Torques on one wheel from outside the driveline, for this tick.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WheelLoad {
    /// Torque about the axle from the road (N·m), at the current spin: `-fx * r_eff` minus
    /// rolling resistance. Positive accelerates the wheel forward.
    pub road_torque: f64,
    /// Derivative of `road_torque` with respect to `omega` (N·m·s), zero or negative; lets the
    /// step treat the stiff tyre implicitly.
    pub road_torque_slope: f64,
    /// Brake torque capacity (N·m, zero or positive): opposes rotation, and holds the wheel
    /// still when it is stopped and the other torques are smaller.
    pub brake_torque: f64,
}

/// Powertrain parameters (placeholder until the implementation lands).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PowertrainParams {}

/// The powertrain (placeholder: free-rolling wheels with brakes, no drive).
#[derive(Clone, Debug, Default)]
pub struct Powertrain {
    params: PowertrainParams,
}

impl Powertrain {
    pub fn new(params: PowertrainParams) -> Self {
        Self { params }
    }

    pub fn params(&self) -> &PowertrainParams {
        &self.params
    }

    /// Advances engine, driveline and wheel spins by `dt` seconds.
    pub fn step(
        &mut self,
        _controls: &Controls,
        wheels: &mut [WheelSpin; 4],
        loads: &[WheelLoad; 4],
        dt: f64,
    ) {
        for (w, l) in wheels.iter_mut().zip(loads) {
            let free =
                (w.omega * w.inertia + l.road_torque * dt) / (w.inertia - l.road_torque_slope * dt);
            let brake_dw = l.brake_torque * dt / w.inertia;
            w.omega = if free.abs() <= brake_dw {
                0.0
            } else {
                free - brake_dw * free.signum()
            };
        }
    }
}

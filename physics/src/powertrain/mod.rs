//! The powertrain: engine, clutch, gearbox, differentials, and the wheels' spin.
//!
//! # Overview
//!
//! ```text
//!  engine ──clutch── gearbox (ratio · final drive, efficiency) ── centre diff ─┬─ front diff ─ FL, FR
//!    │                  │                                                     └─ rear diff ── RL, RR
//!  idle control,     automatic / sequential / H-pattern
//!  limiter, stall,   (shift_logic.rs)
//!  starter, fuel
//! ```
//!
//! - [`engine`]: full-load and resistive torque curves blended by the throttle (VR-Design Studio),
//!   idle controller, rev limiter with hysteresis, stall and starter.
//! - [`fuel`]: the tank and fuel flow from BSFC (Wolfe, workshop VI).
//! - [`clutch`]: capacity from the pedal through a bite point; stick/slip decided by the
//!   driveline solver.
//! - [`gearbox`]: ratios, reverse, neutral, final drive, efficiency, shift time, and the
//!   parameters of the three modes; [`shift_logic`]: the modes themselves and the automatic
//!   clutch; [`vehicle_motion`]: what the automatic senses of the car's motion.
//! - [`differential`]: open, locked, clutch-pack limited slip and viscous differentials in
//!   front, rear and centre positions ([`Drivetrain`]: FWD, RWD, AWD).
//! - [`driveline`]: the coupled, semi-implicit integration of the engine and the four wheel
//!   spins, with every clutch, differential lock, brake and the engine's own friction as a
//!   stick/slip coupling solved together.
//!
//! # One tick ([`Powertrain::step`])
//!
//! 1. The controls are sanitised; the shift logic picks the gear, the automatic clutch
//!    capacity and any throttle override (rev matching) from last tick's speeds and the
//!    car's motion ([`VehicleMotion`]: speed, lateral acceleration, slide).
//! 2. The engine works out its throttle (driver or override, idle control, limiter, fuel,
//!    ignition), combustion and starter torque, and its resistive torque.
//! 3. The driveline solver integrates engine and wheels together to the end of the tick.
//! 4. Fuel is burnt, the engine stalls or fires, and the telemetry is updated.
//!
//! The step is pure: no IO, no clock, no allocation; the same inputs give bit-identical
//! results.
//!
//! Wheel order everywhere: front-left, front-right, rear-left, rear-right.

pub mod clutch;
pub mod differential;
pub mod driveline;
pub mod engine;
pub mod fuel;
pub mod gearbox;
pub mod peak_power;
pub mod shift_logic;
pub mod vehicle_motion;

#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};

use crate::controls::Controls;
use crate::validate::{Validate, Validator};

pub use clutch::{ClutchParams, ClutchState};
pub use differential::{Differential, Drivetrain};
pub use engine::{EngineParams, RPM_TO_RAD_S, TorquePoint};
pub use fuel::FuelParams;
pub use gearbox::{AutoClutchParams, AutoShiftParams, GearboxMode, GearboxParams};
pub use peak_power::PeakPower;
pub use shift_logic::Selector;
pub use vehicle_motion::VehicleMotion;

use driveline::{
    BODIES, Problem, ROW_BRAKE, ROW_CLUTCH, ROW_DIFF, ROW_ENGINE, ROWS, Row, RowState,
};
use engine::EngineState;
use shift_logic::{ShiftInputs, ShiftLogic};

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

/// Powertrain parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PowertrainParams {
    /// The engine.
    pub engine: EngineParams,
    /// The fuel tank.
    pub fuel: FuelParams,
    /// The clutch.
    pub clutch: ClutchParams,
    /// The gearbox and final drive.
    pub gearbox: GearboxParams,
    /// Which wheels are driven, through which differentials.
    pub drivetrain: Drivetrain,
}

impl Default for PowertrainParams {
    /// A Chevrolet Corvette C5, see [`PowertrainParams::corvette_c5`].
    fn default() -> Self {
        Self::corvette_c5()
    }
}

impl PowertrainParams {
    /// Chevrolet Corvette C5: LS1 V8 (345 hp at 5600 rpm, 350 lb·ft at 4400 rpm), T56
    /// six-speed with a 3.42 final drive, rear-wheel drive through a clutch-pack limited-slip
    /// differential, automatic mode by default.
    pub fn corvette_c5() -> Self {
        Self {
            engine: EngineParams::ls1(),
            fuel: FuelParams::default(),
            clutch: ClutchParams::default(),
            gearbox: GearboxParams::t56(),
            drivetrain: Drivetrain::Rwd {
                rear: Differential::ClutchPack {
                    preload_nm: 60.0,
                    power_lock: 0.3,
                    coast_lock: 0.15,
                },
            },
        }
    }

    /// A front-wheel-drive hatchback: 1.6 L four (about 155 N·m, 85 kW), five-speed manual
    /// H-pattern, open front differential.
    pub fn fwd_hatchback() -> Self {
        const RPM: [f64; 10] = [
            0.0, 1000.0, 2000.0, 3000.0, 4000.0, 4500.0, 5500.0, 6000.0, 6500.0, 7000.0,
        ];
        const FLYWHEEL_NM: [f64; 10] = [
            90.0, 115.0, 135.0, 148.0, 155.0, 155.0, 146.0, 135.0, 120.0, 100.0,
        ];
        const RESIST_NM: [f64; 10] = [10.0, 13.0, 16.0, 19.0, 22.0, 24.0, 28.0, 30.0, 32.0, 35.0];
        let mut engine = EngineParams::ls1().with_flywheel_curve(&RPM, &FLYWHEEL_NM, &RESIST_NM);
        engine.inertia_kg_m2 = 0.12;
        engine.idle_rpm = 800.0;
        engine.redline_rpm = 6500.0;
        engine.limiter_rpm = 6700.0;
        engine.starter_torque_nm = 60.0;
        engine.bsfc_g_per_kwh = 260.0;
        Self {
            engine,
            fuel: FuelParams {
                fuel_capacity_kg: 37.0,
                initial_fuel_kg: 30.0,
            },
            clutch: ClutchParams {
                capacity_nm: 250.0,
                ..ClutchParams::default()
            },
            gearbox: GearboxParams {
                ratios: vec![3.55, 1.95, 1.30, 1.03, 0.84],
                reverse_ratio: 3.17,
                final_drive: 4.06,
                efficiency: 0.92,
                shift_time_s: 0.25,
                mode: GearboxMode::HPattern,
                sequential_auto_clutch: true,
                sync_tolerance_rpm: 150.0,
                auto_clutch: AutoClutchParams {
                    launch_start_rpm: 1100.0,
                    launch_full_rpm: 2600.0,
                    declutch_rpm: 950.0,
                    engage_time_s: 0.2,
                },
                auto_shift: AutoShiftParams {
                    upshift_rpm: 6300.0,
                    min_rpm_closed_throttle: 1300.0,
                    min_rpm_full_throttle: 3800.0,
                    ..AutoShiftParams::default()
                },
            },
            drivetrain: Drivetrain::Fwd {
                front: Differential::Open,
            },
        }
    }

    /// An all-wheel-drive rally car: 2.0 L turbo four (about 430 N·m), six-speed sequential
    /// with automatic clutch, clutch-pack differentials front, rear and centre, 45 % of the
    /// torque to the front.
    pub fn awd_rally() -> Self {
        const RPM: [f64; 9] = [
            0.0, 1000.0, 2000.0, 3000.0, 4000.0, 5000.0, 6000.0, 7000.0, 7500.0,
        ];
        const FLYWHEEL_NM: [f64; 9] = [
            150.0, 200.0, 300.0, 420.0, 430.0, 410.0, 370.0, 300.0, 250.0,
        ];
        const RESIST_NM: [f64; 9] = [15.0, 20.0, 25.0, 30.0, 36.0, 42.0, 48.0, 55.0, 60.0];
        let mut engine = EngineParams::ls1().with_flywheel_curve(&RPM, &FLYWHEEL_NM, &RESIST_NM);
        engine.inertia_kg_m2 = 0.15;
        engine.idle_rpm = 1000.0;
        engine.redline_rpm = 7500.0;
        engine.limiter_rpm = 7700.0;
        engine.starter_torque_nm = 80.0;
        engine.starter_max_rpm = 500.0;
        engine.bsfc_g_per_kwh = 300.0;
        Self {
            engine,
            fuel: FuelParams {
                fuel_capacity_kg: 60.0,
                initial_fuel_kg: 40.0,
            },
            clutch: ClutchParams {
                capacity_nm: 650.0,
                ..ClutchParams::default()
            },
            gearbox: GearboxParams {
                ratios: vec![3.0, 2.2, 1.75, 1.42, 1.18, 1.0],
                reverse_ratio: 3.2,
                final_drive: 4.4,
                efficiency: 0.9,
                shift_time_s: 0.06,
                mode: GearboxMode::Sequential,
                sequential_auto_clutch: true,
                sync_tolerance_rpm: 150.0,
                auto_clutch: AutoClutchParams {
                    launch_start_rpm: 1400.0,
                    launch_full_rpm: 3500.0,
                    declutch_rpm: 1200.0,
                    engage_time_s: 0.08,
                },
                auto_shift: AutoShiftParams {
                    upshift_rpm: 7300.0,
                    min_rpm_closed_throttle: 2000.0,
                    min_rpm_full_throttle: 4500.0,
                    ..AutoShiftParams::default()
                },
            },
            drivetrain: Drivetrain::Awd {
                centre: Differential::ClutchPack {
                    preload_nm: 80.0,
                    power_lock: 0.25,
                    coast_lock: 0.1,
                },
                front_share: 0.45,
                front: Differential::ClutchPack {
                    preload_nm: 50.0,
                    power_lock: 0.3,
                    coast_lock: 0.2,
                },
                rear: Differential::ClutchPack {
                    preload_nm: 80.0,
                    power_lock: 0.5,
                    coast_lock: 0.3,
                },
            },
        }
    }
}

impl Validate for PowertrainParams {
    fn validate(&self, v: &mut Validator) {
        v.nested("engine", &self.engine);
        v.nested("fuel", &self.fuel);
        v.nested("clutch", &self.clutch);
        v.nested("gearbox", &self.gearbox);
        v.nested("drivetrain", &self.drivetrain);
        let ac = &self.gearbox.auto_clutch;
        v.require(
            ac.declutch_rpm > self.engine.idle_rpm,
            "gearbox.auto_clutch.declutch_rpm",
            "must be above engine.idle_rpm",
        );
        v.require(
            self.gearbox.auto_shift.upshift_rpm <= self.engine.redline_rpm,
            "gearbox.auto_shift.upshift_rpm",
            "must not exceed engine.redline_rpm",
        );
    }
}

/// What the powertrain did in the last tick (plain data).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PowertrainTelemetry {
    /// Engine speed (rpm).
    pub engine_rpm: f64,
    /// Engine output torque (N·m): combustion plus starter minus the friction it met.
    pub engine_torque_nm: f64,
    /// Throttle used by the engine after idle control, limiter, fuel and shifts (0..1).
    pub throttle: f64,
    /// Gear engaged: -1 reverse, 0 neutral, 1.. forward.
    pub gear: i8,
    /// The gear a driver's display shows: during a shift's neutral phase the gear being
    /// shifted to, otherwise the gear engaged.
    pub shown_gear: i8,
    /// Gearbox mode.
    pub mode: GearboxMode,
    /// The automatic's selector.
    pub selector: Selector,
    /// Clutch state.
    pub clutch_state: ClutchState,
    /// Torque the clutch passes from the engine to the gearbox (N·m; negative on the overrun).
    pub clutch_torque_nm: f64,
    /// Clutch capacity this tick (N·m).
    pub clutch_capacity_nm: f64,
    /// A shift is in progress.
    pub shifting: bool,
    /// An H-pattern engagement was refused: the gears grind.
    pub grind: bool,
    /// The engine is not running.
    pub stalled: bool,
    /// Fuel in the tank (kg).
    pub fuel_mass_kg: f64,
    /// Fuel flow (g/s).
    pub fuel_rate_g_per_s: f64,
    /// Torque into the differentials after gearbox and final drive (N·m, signed like the
    /// wheels' rotation it drives).
    pub driveshaft_torque_nm: f64,
    /// Drive torque reaching each wheel from the engine (N·m), without differential locking.
    pub wheel_drive_torque_nm: [f64; 4],
    /// Driveline solver iterations used.
    pub solver_iterations: u32,
}

/// The powertrain: engine, clutch, gearbox, differentials, and the integration of the
/// wheels' spin.
#[derive(Clone, Debug)]
pub struct Powertrain {
    params: PowertrainParams,
    engine_omega: f64,
    engine: EngineState,
    shift: ShiftLogic,
    fuel_kg: f64,
    ignition: bool,
    row_states: [RowState; ROWS],
    last_clutch_torque: f64,
    last_driveshaft_torque: f64,
    telemetry: PowertrainTelemetry,
}

impl Default for Powertrain {
    fn default() -> Self {
        Self::new(PowertrainParams::default())
    }
}

impl Powertrain {
    /// A powertrain with the engine running at idle, ignition on, in neutral (the automatic's
    /// selector in drive), and the tank at `fuel.initial_fuel_kg`. The parameters should have
    /// passed [`Validate`]; the step stays finite with any parameters that do.
    pub fn new(params: PowertrainParams) -> Self {
        let mut pt = Self {
            engine_omega: params.engine.idle_rpm * RPM_TO_RAD_S,
            engine: EngineState::default(),
            shift: ShiftLogic::default(),
            fuel_kg: params.fuel.initial_fuel_kg,
            ignition: true,
            row_states: [RowState::Stuck; ROWS],
            last_clutch_torque: 0.0,
            last_driveshaft_torque: 0.0,
            telemetry: PowertrainTelemetry::default(),
            params,
        };
        pt.refresh_telemetry();
        pt
    }

    /// Back to the state [`Powertrain::new`] gives, in place: engine at idle, ignition on,
    /// neutral, the tank at `fuel.initial_fuel_kg`, the gearbox mode `mode`. Allocation-free
    /// (the parameters are kept, not cloned), so a car reset can happen inside a real-time
    /// tick.
    pub fn reset(&mut self, mode: GearboxMode) {
        self.params.gearbox.mode = mode;
        self.engine_omega = self.params.engine.idle_rpm * RPM_TO_RAD_S;
        self.engine = EngineState::default();
        self.shift = ShiftLogic::default();
        self.fuel_kg = self.params.fuel.initial_fuel_kg;
        self.ignition = true;
        self.row_states = [RowState::Stuck; ROWS];
        self.last_clutch_torque = 0.0;
        self.last_driveshaft_torque = 0.0;
        self.telemetry = PowertrainTelemetry::default();
        self.refresh_telemetry();
    }

    /// The parameters.
    pub fn params(&self) -> &PowertrainParams {
        &self.params
    }

    /// What happened in the last tick.
    pub fn telemetry(&self) -> PowertrainTelemetry {
        self.telemetry
    }

    /// Fuel in the tank (kg), for the vehicle's mass.
    pub fn fuel_mass_kg(&self) -> f64 {
        self.fuel_kg
    }

    /// Sets the fuel in the tank (kg), clamped to `[0, fuel_capacity_kg]`.
    pub fn set_fuel_mass_kg(&mut self, kg: f64) {
        self.fuel_kg = if kg.is_finite() {
            kg.clamp(0.0, self.params.fuel.fuel_capacity_kg)
        } else {
            0.0
        };
        self.refresh_telemetry();
    }

    /// Engine speed (rpm).
    pub fn engine_rpm(&self) -> f64 {
        self.engine_omega / RPM_TO_RAD_S
    }

    /// Engine speed (rad/s).
    pub fn engine_omega(&self) -> f64 {
        self.engine_omega
    }

    /// Sets the engine speed (rpm), e.g. to start a scenario at speed.
    pub fn set_engine_rpm(&mut self, rpm: f64) {
        self.engine_omega = if rpm.is_finite() {
            rpm * RPM_TO_RAD_S
        } else {
            0.0
        };
        self.refresh_telemetry();
    }

    /// Whether the engine runs (has not stalled).
    pub fn engine_running(&self) -> bool {
        self.engine.running
    }

    /// Stops the engine. It fires again when turned past `start_rpm` by the starter, or by
    /// the wheels through an engaged clutch (a bump start).
    pub fn stop_engine(&mut self) {
        self.engine.running = false;
        self.refresh_telemetry();
    }

    /// Ignition switch (on by default). Off stops combustion at once.
    pub fn set_ignition(&mut self, on: bool) {
        self.ignition = on;
        if !on {
            self.engine.running = false;
        }
        self.refresh_telemetry();
    }

    /// Whether the ignition is on.
    pub fn ignition(&self) -> bool {
        self.ignition
    }

    /// Gear engaged: -1 reverse, 0 neutral, 1.. forward.
    pub fn gear(&self) -> i8 {
        self.shift.gear()
    }

    /// Engages `gear` at once, without a shift (e.g. to start a scenario in gear); a gear the
    /// box does not have selects neutral.
    pub fn set_gear(&mut self, gear: i8) {
        let gear = if self.params.gearbox.has_gear(gear) {
            gear
        } else {
            0
        };
        self.shift.force_gear(gear);
        self.refresh_telemetry();
    }

    /// Changes the gearbox mode (the driver's setting).
    pub fn set_mode(&mut self, mode: GearboxMode) {
        self.params.gearbox.mode = mode;
        self.refresh_telemetry();
    }

    fn refresh_telemetry(&mut self) {
        let t = &mut self.telemetry;
        t.engine_rpm = self.engine_omega / RPM_TO_RAD_S;
        t.gear = self.shift.gear();
        t.shown_gear = self.shift.shown_gear();
        t.mode = self.params.gearbox.mode;
        t.selector = self.shift.selector();
        t.stalled = !self.engine.running;
        t.fuel_mass_kg = self.fuel_kg;
        t.shifting = self.shift.shifting();
    }

    /// [`Powertrain::step`] as a vehicle runs it: a wheel spin that comes out of the step not
    /// finite is set to zero, so one bad tick cannot poison the next.
    pub fn step_wheels(
        &mut self,
        controls: &Controls,
        motion: &VehicleMotion,
        wheels: &mut [WheelSpin; 4],
        loads: &[WheelLoad; 4],
        dt: f64,
    ) {
        self.step(controls, motion, wheels, loads, dt);
        for s in wheels.iter_mut() {
            if !s.omega.is_finite() {
                s.omega = 0.0;
            }
        }
    }

    /// Advances engine, driveline and wheel spins by `dt` seconds.
    ///
    /// `motion` is the car's motion as the automatic senses it (its last tick's; see
    /// [`VehicleMotion`]). `wheels` are read and written (spin rates; the inertias are read); `loads` give each
    /// wheel's road torque, its slope and the brake capacity for this tick. Non-finite loads
    /// count as zero, a positive slope as zero (it would destabilise the implicit step), a
    /// negative brake capacity as zero. A `dt` that is not finite and positive leaves
    /// everything as it is.
    pub fn step(
        &mut self,
        controls: &Controls,
        motion: &VehicleMotion,
        wheels: &mut [WheelSpin; 4],
        loads: &[WheelLoad; 4],
        dt: f64,
    ) {
        if !(dt.is_finite() && dt > 0.0) {
            return;
        }
        let c = controls.sanitized();
        let p = &self.params;
        let k = p.drivetrain.wheel_weights();
        let wheel_rad_s: f64 = k.iter().zip(wheels.iter()).map(|(k, w)| k * w.omega).sum();

        // 1. Gear, automatic clutch, throttle override.
        let shift = self.shift.update(
            &p.gearbox,
            &p.engine,
            &p.clutch,
            &c,
            ShiftInputs {
                engine_rad_s: self.engine_omega,
                output_rad_s: wheel_rad_s * p.gearbox.final_drive,
                wheel_rad_s,
                clutch_locked: self.telemetry.clutch_state == ClutchState::Locked,
                motion: *motion,
            },
            dt,
        );

        // 2. Engine torques.
        let rpm = self.engine_omega / RPM_TO_RAD_S;
        let can_burn = self.ignition && self.fuel_kg > 0.0;
        let requested = shift.throttle_override.unwrap_or(c.throttle);
        let drive = self
            .engine
            .drive(&p.engine, rpm, requested, c.starter, can_burn);
        let mut capacity = p.clutch.capacity(c.clutch);
        if let Some(fraction) = shift.auto_clutch {
            capacity = capacity.min(fraction * p.clutch.capacity_nm);
        }
        let ratio = p.gearbox.overall_ratio(shift.gear);
        let eta = p.gearbox.efficiency;
        let engine_drives = self.last_clutch_torque >= 0.0;

        // 3. The driveline problem.
        let mut prob = Problem::default();
        let inertia_e = p.engine.inertia_kg_m2;
        prob.inv_mass[0] = 1.0 / inertia_e;
        prob.v_free[0] =
            self.engine_omega + dt * (drive.combustion_nm + drive.starter_nm) / inertia_e;
        for i in 0..4 {
            let l = loads[i];
            let torque = finite_or_zero(l.road_torque);
            let slope = finite_or_zero(l.road_torque_slope).min(0.0);
            let m = (wheels[i].inertia - slope * dt).max(1e-9);
            prob.inv_mass[1 + i] = 1.0 / m;
            prob.v_free[1 + i] = wheels[i].omega + dt * torque / m;
            let brake = finite_or_zero(l.brake_torque).max(0.0) * dt;
            if brake > 0.0 {
                let mut j = [0.0; BODIES];
                j[1 + i] = 1.0;
                prob.rows[ROW_BRAKE + i] = Row::symmetric(j, brake, 0.0);
            }
        }
        let resist = drive.resist_nm * dt;
        if resist > 0.0 {
            prob.rows[ROW_ENGINE] = Row::symmetric([1.0, 0.0, 0.0, 0.0, 0.0], resist, 0.0);
        }
        if ratio != 0.0 && capacity > 0.0 {
            let mut row = Row::symmetric([1.0, 0.0, 0.0, 0.0, 0.0], capacity * dt, 0.0);
            for (i, ki) in k.iter().enumerate() {
                row.j[1 + i] = -ratio * ki;
                row.f_lower[1 + i] = -ratio * eta * ki;
                row.f_upper[1 + i] = -ratio * ki / eta;
            }
            row.f_stuck = if engine_drives {
                row.f_lower
            } else {
                row.f_upper
            };
            prob.rows[ROW_CLUTCH] = row;
        }
        for (slot, entry) in p.drivetrain.differentials().iter().enumerate() {
            let Some(differential::DiffSlot {
                diff,
                share,
                row: w,
                ..
            }) = *entry
            else {
                continue;
            };
            let j = [0.0, w[0], w[1], w[2], w[3]];
            let row = match diff {
                Differential::Open => None,
                Differential::Locked => Some(Row::symmetric(j, f64::INFINITY, 0.0)),
                Differential::ClutchPack { .. } => {
                    let bound = diff
                        .locking_torque(share * self.last_driveshaft_torque, engine_drives)
                        * dt;
                    (bound > 0.0).then(|| Row::symmetric(j, bound, 0.0))
                }
                Differential::Viscous {
                    coefficient_nm_s_per_rad: c,
                } => (c > 0.0).then(|| Row::symmetric(j, f64::INFINITY, 1.0 / (c * dt))),
            };
            if let Some(row) = row {
                prob.rows[ROW_DIFF + slot] = row;
            }
        }

        let sol = driveline::solve(&prob, &mut self.row_states);

        // 4. Results.
        let omega_before = self.engine_omega;
        self.engine_omega = sol.v[0];
        for (w, v) in wheels.iter_mut().zip(&sol.v[1..]) {
            w.omega = *v;
        }
        let clutch_row = &prob.rows[ROW_CLUTCH];
        let clutch_state = if !clutch_row.active {
            ClutchState::Open
        } else if self.row_states[ROW_CLUTCH] == RowState::Stuck {
            ClutchState::Locked
        } else {
            ClutchState::Slipping
        };
        let lambda_c = sol.lambda[ROW_CLUTCH];
        let f = match self.row_states[ROW_CLUTCH] {
            RowState::Stuck => clutch_row.f_stuck,
            RowState::Lower => clutch_row.f_lower,
            RowState::Upper => clutch_row.f_upper,
        };
        let mut wheel_drive = [0.0; 4];
        for i in 0..4 {
            wheel_drive[i] = f[1 + i] * lambda_c / dt;
        }
        let driveshaft: f64 = wheel_drive.iter().sum();
        self.last_clutch_torque = -lambda_c / dt;
        self.last_driveshaft_torque = driveshaft;

        let power_w = drive.combustion_nm * omega_before.max(0.0);
        let fuel_rate = fuel::fuel_rate_g_per_s(p.engine.bsfc_g_per_kwh, power_w);
        self.fuel_kg = fuel::burn(self.fuel_kg, fuel_rate, dt);
        let can_burn = self.ignition && self.fuel_kg > 0.0;
        let cranking = c.starter || clutch_row.active;
        self.engine.update(
            &p.engine,
            self.engine_omega / RPM_TO_RAD_S,
            can_burn,
            cranking,
        );

        self.telemetry = PowertrainTelemetry {
            engine_rpm: self.engine_omega / RPM_TO_RAD_S,
            engine_torque_nm: drive.combustion_nm + drive.starter_nm + sol.lambda[ROW_ENGINE] / dt,
            throttle: drive.throttle,
            gear: shift.gear,
            shown_gear: self.shift.shown_gear(),
            mode: p.gearbox.mode,
            selector: self.shift.selector(),
            clutch_state,
            clutch_torque_nm: self.last_clutch_torque,
            clutch_capacity_nm: if clutch_row.active { capacity } else { 0.0 },
            shifting: shift.shifting,
            grind: shift.grind,
            stalled: !self.engine.running,
            fuel_mass_kg: self.fuel_kg,
            fuel_rate_g_per_s: fuel_rate,
            driveshaft_torque_nm: driveshaft,
            wheel_drive_torque_nm: wheel_drive,
            solver_iterations: u32::try_from(sol.iterations).unwrap_or(u32::MAX),
        };
    }
}

fn finite_or_zero(x: f64) -> f64 {
    if x.is_finite() { x } else { 0.0 }
}

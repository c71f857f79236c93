//! [`TyreThermalState`]: the four temperatures and the wear of one tyre, and their update
//! over one step (backward Euler on the lumped network, see the module overview).

use super::gas::hot_gauge_pressure_pa;
use super::params::TyreThermalParams;
use super::window::grip_factor;
use crate::environment::Environment;

/// Number of thermal nodes: tread, carcass, gas, rim.
const NODES: usize = 4;

/// What heats and cools one tyre during a step (SI units, all powers non-negative).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ThermalLoads {
    /// Power of the contact's sliding, `|Fx Vsx| + |Fy Vsy|` (W); a share heats the tread
    /// and all of it wears the tread.
    pub sliding_power_w: f64,
    /// Rolling (hysteresis) loss of the deflected tyre (W): the rolling-resistance torque
    /// times the spin rate.
    pub rolling_loss_power_w: f64,
    /// Power of the brake on this wheel (W): the brake torque times the spin rate.
    pub brake_power_w: f64,
    /// Speed of the air over the tyre (m/s): the car's speed.
    pub air_speed_m_per_s: f64,
    /// Whether the tread touches the track (conducts to it).
    pub in_contact: bool,
}

impl ThermalLoads {
    /// The sliding power `|fx vsx| + |fy vsy|` (W) of contact forces `fx`, `fy` (N) and slip
    /// velocities `vsx`, `vsy` (m/s); zero where not finite.
    pub fn sliding_power_w(fx: f64, fy: f64, vsx: f64, vsy: f64) -> f64 {
        let p = (fx * vsx).abs() + (fy * vsy).abs();
        if p.is_finite() { p } else { 0.0 }
    }
}

/// The thermal state of one tyre: temperatures (°C) of its four nodes and its wear.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TyreThermalState {
    /// Tread (surface layer) temperature (°C).
    pub tread_temp_c: f64,
    /// Carcass temperature (°C).
    pub carcass_temp_c: f64,
    /// Inflation gas temperature (°C).
    pub gas_temp_c: f64,
    /// Rim (wheel) temperature (°C).
    pub rim_temp_c: f64,
    /// Fraction of the tread used (-), 0 new to 1 worn out.
    pub wear: f64,
    /// Temperature at which the cold set-up pressure was set (°C): the gas law's reference.
    pub cold_temp_c: f64,
}

impl TyreThermalState {
    /// A new tyre in equilibrium with the air at `ambient_temp_c` (°C), its pressure set there.
    pub fn cold(ambient_temp_c: f64) -> Self {
        Self {
            tread_temp_c: ambient_temp_c,
            carcass_temp_c: ambient_temp_c,
            gas_temp_c: ambient_temp_c,
            rim_temp_c: ambient_temp_c,
            wear: 0.0,
            cold_temp_c: ambient_temp_c,
        }
    }

    /// The gauge pressure now (Pa) of a tyre set to `cold_gauge_pa` when cold.
    pub fn pressure_pa(&self, cold_gauge_pa: f64) -> f64 {
        hot_gauge_pressure_pa(cold_gauge_pa, self.cold_temp_c, self.gas_temp_c)
    }

    /// The grip factor now (temperature window times wear), see [`super::window`].
    pub fn grip_factor(&self, params: &TyreThermalParams) -> f64 {
        grip_factor(params, self.tread_temp_c, self.wear)
    }

    /// Advances the temperatures and the wear by `dt` seconds under `loads` in `environment`.
    ///
    /// Backward Euler on the lumped network: unconditionally stable at any step, energy
    /// conserving between the nodes, and allocation-free (a 4-node tridiagonal solve). Negative
    /// and non-finite powers count as zero; a non-positive or non-finite `dt` does nothing.
    pub fn step(
        &mut self,
        params: &TyreThermalParams,
        loads: &ThermalLoads,
        environment: &Environment,
        dt: f64,
    ) {
        let factor = TyreThermalParams::convection_speed_factor(loads.air_speed_m_per_s);
        self.step_with_speed_factor(params, loads, factor, environment, dt);
    }

    /// [`TyreThermalState::step`] with the air speed's convection factor already computed
    /// ([`TyreThermalParams::convection_speed_factor`] of `loads.air_speed_m_per_s`, the same
    /// for the four tyres of a car): the same bits.
    pub fn step_with_speed_factor(
        &mut self,
        params: &TyreThermalParams,
        loads: &ThermalLoads,
        convection_speed_factor: f64,
        environment: &Environment,
        dt: f64,
    ) {
        if !(dt > 0.0 && dt.is_finite()) {
            return;
        }
        let power = |p: f64| if p.is_finite() && p > 0.0 { p } else { 0.0 };
        let sliding = power(loads.sliding_power_w);
        let rolling = power(loads.rolling_loss_power_w);
        let brake = power(loads.brake_power_w);
        let h = params.convection_at_speed_factor(convection_speed_factor);
        let air = environment.ambient_temp_c;
        let road = if loads.in_contact {
            params.road_conductance_w_per_k
        } else {
            0.0
        };

        // Node order: tread, carcass, gas, rim. Links between neighbours only.
        let capacity = [
            params.tread_heat_capacity_j_per_k,
            params.carcass_heat_capacity_j_per_k,
            params.gas_heat_capacity_j_per_k,
            params.rim_heat_capacity_j_per_k,
        ];
        let link = [
            params.tread_carcass_conductance_w_per_k,
            params.carcass_gas_conductance_w_per_k,
            params.rim_gas_conductance_w_per_k,
        ];
        let tread_air = h * params.tread_area_m2;
        let carcass_air = h * params.sidewall_area_m2;
        let rim_air = h * params.rim_area_m2;
        // Conductance to the surroundings, and the heat it brings at their temperature.
        let outside = [tread_air + road, carcass_air, 0.0, rim_air];
        let outside_heat = [
            tread_air * air + road * environment.track_temp_c,
            carcass_air * air,
            0.0,
            rim_air * air,
        ];
        let to_tread = params.rolling_loss_to_tread_fraction;
        let source = [
            params.sliding_heat_to_tyre_fraction * sliding + to_tread * rolling,
            (1.0 - to_tread) * rolling,
            0.0,
            params.brake_heat_to_rim_fraction * brake,
        ];
        let old = [
            self.tread_temp_c,
            self.carcass_temp_c,
            self.gas_temp_c,
            self.rim_temp_c,
        ];

        // (C/dt + outside + links) T_new - links T_new(neighbours) = C/dt T + Q + outside T_out
        let mut diagonal = [0.0; NODES];
        let mut rhs = [0.0; NODES];
        for i in 0..NODES {
            let left = if i > 0 { link[i - 1] } else { 0.0 };
            let right = if i + 1 < NODES { link[i] } else { 0.0 };
            diagonal[i] = capacity[i] / dt + outside[i] + left + right;
            rhs[i] = capacity[i] / dt * old[i] + source[i] + outside_heat[i];
        }
        // Thomas algorithm; the matrix is symmetric and diagonally dominant, no pivoting.
        let mut upper = [0.0; NODES];
        let mut value = [0.0; NODES];
        for i in 0..NODES {
            let lower = if i > 0 { -link[i - 1] } else { 0.0 };
            let (up_prev, value_prev) = if i > 0 {
                (upper[i - 1], value[i - 1])
            } else {
                (0.0, 0.0)
            };
            let pivot = diagonal[i] - lower * up_prev;
            upper[i] = if i + 1 < NODES { -link[i] / pivot } else { 0.0 };
            value[i] = (rhs[i] - lower * value_prev) / pivot;
        }
        let mut new = [0.0; NODES];
        for i in (0..NODES).rev() {
            let next = if i + 1 < NODES { new[i + 1] } else { 0.0 };
            new[i] = value[i] - upper[i] * next;
        }
        if new.iter().all(|t| t.is_finite()) {
            [
                self.tread_temp_c,
                self.carcass_temp_c,
                self.gas_temp_c,
                self.rim_temp_c,
            ] = new;
        }
        let wear = self.wear + params.wear_per_sliding_energy_per_j * sliding * dt;
        if wear.is_finite() {
            self.wear = wear.clamp(0.0, 1.0);
        }
    }
}

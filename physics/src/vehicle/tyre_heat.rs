//! [`TyreHeat`]: the four tyres' thermal states, the thermal parameters per axle and the
//! environment, and what a vehicle step asks of them (see [`crate::tire::thermal`]).
//!
//! A tyre whose axle has no thermal parameters is left alone: it is given its set pressure and
//! the road's friction untouched, and its state stays at the air temperature of the last reset.

use crate::environment::Environment;
use crate::tire::thermal::{ThermalLoads, TyreThermalParams, TyreThermalState};
use crate::validate::{Validator, Violations};

use super::params::VehicleParams;
use super::telemetry::WheelTelemetry;

/// The tyres' temperatures and wear, wheels `[FL, FR, RL, RR]` (axle `i / 2`).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct TyreHeat {
    /// Thermal parameters of the `[front, rear]` tyres; `None`: no thermal model.
    params: [Option<TyreThermalParams>; 2],
    states: [TyreThermalState; 4],
    environment: Environment,
}

impl Default for TyreHeat {
    /// No thermal models, the default environment.
    fn default() -> Self {
        let environment = Environment::default();
        Self {
            params: [None, None],
            states: [TyreThermalState::cold(environment.ambient_temp_c); 4],
            environment,
        }
    }
}

impl TyreHeat {
    /// Checks `params` for [`TyreHeat::set_params`].
    ///
    /// # Errors
    /// Every problem, with paths `tyres.front.thermal.<field>` and `tyres.rear.thermal.<field>`.
    pub(crate) fn check_params(params: &[Option<TyreThermalParams>; 2]) -> Result<(), Violations> {
        let mut v = Validator::default();
        v.within("tyres", |v| {
            for (name, t) in [("front", &params[0]), ("rear", &params[1])] {
                if let Some(t) = t {
                    v.within(name, |v| v.nested("thermal", t));
                }
            }
        });
        v.finish()
    }

    /// Replaces the thermal parameters (checked with [`TyreHeat::check_params`]) and resets.
    pub(crate) fn set_params(&mut self, params: [Option<TyreThermalParams>; 2]) {
        self.params = params;
        self.reset();
    }

    /// The thermal parameters of the `[front, rear]` tyres.
    pub(crate) fn params(&self) -> &[Option<TyreThermalParams>; 2] {
        &self.params
    }

    /// The states of the four tyres.
    pub(crate) fn states(&self) -> &[TyreThermalState; 4] {
        &self.states
    }

    /// Air and track temperatures.
    pub(crate) fn environment(&self) -> Environment {
        self.environment
    }

    /// Sets the air and track temperatures; the tyres keep theirs.
    ///
    /// # Errors
    /// The problems with `environment`, paths under `environment`; the present one stays.
    pub(crate) fn set_environment(&mut self, environment: Environment) -> Result<(), Violations> {
        let mut v = Validator::default();
        v.nested("environment", &environment);
        v.finish()?;
        self.environment = environment;
        Ok(())
    }

    /// New tyres at the air temperature, their cold pressures set there.
    pub(crate) fn reset(&mut self) {
        self.states = [TyreThermalState::cold(self.environment.ambient_temp_c); 4];
    }

    /// The pressure (Pa) and friction scale wheel `i`'s tyre model gets, for a set (cold)
    /// pressure `set_pressure_pa` on a road of friction scale `road_friction`: unchanged
    /// without thermal parameters, the hot pressure and the friction times the grip factor
    /// with them.
    #[inline]
    pub(crate) fn tyre_conditions(
        &self,
        i: usize,
        set_pressure_pa: f64,
        road_friction: f64,
    ) -> (f64, f64) {
        match &self.params[i / 2] {
            None => (set_pressure_pa, road_friction),
            Some(t) => {
                let state = &self.states[i];
                (
                    state.pressure_pa(set_pressure_pa),
                    road_friction * state.grip_factor(t),
                )
            }
        }
    }

    /// Advances the tyres `[FL, FR, RL, RR]` by `dt` under their `loads`, those with a thermal
    /// model (the others are left alone).
    pub(crate) fn advance(&mut self, loads: &[ThermalLoads; 4], dt: f64) {
        if self.params.iter().all(Option::is_none) {
            return;
        }
        // The four tyres see the same air speed: its convection factor (a power) once.
        let factor = TyreThermalParams::convection_speed_factor(loads[0].air_speed_m_per_s);
        for (i, (state, loads)) in self.states.iter_mut().zip(loads).enumerate() {
            if let Some(t) = &self.params[i / 2] {
                state.step_with_speed_factor(t, loads, factor, &self.environment, dt);
            }
        }
    }

    /// Writes the thermal telemetry of the wheels `[FL, FR, RL, RR]` of a car with `params`
    /// (its tyres' set pressures), [`TyreHeat::telemetry`] for each.
    pub(crate) fn write_telemetry(&self, params: &VehicleParams, wheels: &mut [WheelTelemetry; 4]) {
        for (i, w) in wheels.iter_mut().enumerate() {
            self.telemetry(i, params.axle(i / 2).wheel.tyre_pressure_pa, w);
        }
    }

    /// Writes wheel `i`'s thermal telemetry, its tyre set to `set_pressure_pa`.
    pub(crate) fn telemetry(&self, i: usize, set_pressure_pa: f64, w: &mut WheelTelemetry) {
        let state = &self.states[i];
        let params = &self.params[i / 2];
        w.thermal_model = params.is_some();
        w.tread_temp_c = state.tread_temp_c;
        w.carcass_temp_c = state.carcass_temp_c;
        w.gas_temp_c = state.gas_temp_c;
        w.rim_temp_c = state.rim_temp_c;
        w.wear = state.wear;
        (w.pressure_pa, w.grip_factor, w.tread_window_c) = match params {
            Some(t) => (
                state.pressure_pa(set_pressure_pa),
                state.grip_factor(t),
                (t.optimum_temp_c, t.window_half_width_c),
            ),
            None => (set_pressure_pa, 1.0, (0.0, 0.0)),
        };
    }
}

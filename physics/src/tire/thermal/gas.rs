//! The inflation gas at constant volume: the ideal gas law between the cold set-up and now.
//!
//! The tyre's volume barely changes with pressure, so `p V = m R T` at constant `V` and `m`
//! gives `p_hot / p_cold = T_hot / T_cold` in **absolute** pressure and temperature. Set-up
//! pressures are gauge pressures (over the atmosphere), so the law is applied to
//! `gauge + 101325 Pa` and the result turned back into gauge:
//!
//! ```text
//! p_hot,gauge = (p_cold,gauge + p_atm) (T_gas + 273.15) / (T_cold + 273.15) - p_atm
//! ```

/// Standard atmospheric pressure (Pa), the reference of gauge pressures.
pub const ATMOSPHERIC_PRESSURE_PA: f64 = 101_325.0;

/// 0 °C in kelvin.
pub const ZERO_CELSIUS_K: f64 = 273.15;

/// The gauge pressure (Pa) of a tyre set to `cold_gauge_pa` at `cold_temp_c` (°C) whose gas
/// is now at `gas_temp_c` (°C), by the ideal gas law at constant volume.
///
/// Absolute temperatures at or below zero kelvin, and non-finite inputs, give the cold
/// pressure back (they cannot occur with validated parameters and a finite state).
pub fn hot_gauge_pressure_pa(cold_gauge_pa: f64, cold_temp_c: f64, gas_temp_c: f64) -> f64 {
    let cold_k = cold_temp_c + ZERO_CELSIUS_K;
    let hot_k = gas_temp_c + ZERO_CELSIUS_K;
    let hot =
        (cold_gauge_pa + ATMOSPHERIC_PRESSURE_PA) * (hot_k / cold_k) - ATMOSPHERIC_PRESSURE_PA;
    if cold_k > 0.0 && hot_k > 0.0 && hot.is_finite() {
        hot
    } else {
        cold_gauge_pa
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 1.9 bar gauge set at 20 °C is 2.91325 bar absolute at 293.15 K; at 60 °C (333.15 K)
    /// it is 2.91325 x 333.15 / 293.15 = 3.31076 bar absolute, 2.29751 bar gauge (+0.3975 bar).
    #[test]
    fn warming_by_forty_degrees_adds_about_0_4_bar_to_1_9_bar() {
        let hot = hot_gauge_pressure_pa(1.9e5, 20.0, 60.0);
        assert!((hot - 2.297_51e5).abs() < 2.0, "{hot}");
    }

    #[test]
    fn same_temperature_same_pressure_and_cooling_lowers_it() {
        assert!((hot_gauge_pressure_pa(2.07e5, 25.0, 25.0) - 2.07e5).abs() < 1e-6);
        assert!(hot_gauge_pressure_pa(2.07e5, 25.0, 0.0) < 2.07e5);
        assert!((hot_gauge_pressure_pa(2.07e5, f64::NAN, 25.0) - 2.07e5).abs() < 1e-9);
        assert!((hot_gauge_pressure_pa(2.07e5, -300.0, 25.0) - 2.07e5).abs() < 1e-9);
    }
}

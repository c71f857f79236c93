//! Grip from the tread temperature (the window) and from wear.
//!
//! ```text
//! window(T) = max(g_min, 1 - (1 - g_edge) ((T - T_opt) / w)²)
//! wear(w_t) = 1 - loss * w_t
//! grip      = window(T_tread) * wear(w_t)
//! ```
//!
//! A parabola with its peak of 1 at the optimum `T_opt`, `g_edge` at `T_opt ± w` and a floor
//! `g_min` far outside; the wear factor falls linearly to `1 - loss` at a worn-out tread. The
//! product scales the road's friction (`TireInput::mu_scale`), which every tyre family
//! honours.

use super::params::TyreThermalParams;

/// The grip factor of the temperature window at tread temperature `tread_temp_c` (°C):
/// 1 at the optimum, falling on both sides, never below `min_grip_factor`. A non-finite
/// temperature gives the floor.
pub fn window_grip_factor(params: &TyreThermalParams, tread_temp_c: f64) -> f64 {
    let x = (tread_temp_c - params.optimum_temp_c) / params.window_half_width_c;
    let g = 1.0 - (1.0 - params.grip_at_window_edge) * x * x;
    if g.is_finite() {
        g.max(params.min_grip_factor)
    } else {
        params.min_grip_factor
    }
}

/// The grip factor of wear `wear` (fraction of the tread used, clamped to 0..1).
pub fn wear_grip_factor(params: &TyreThermalParams, wear: f64) -> f64 {
    let w = if wear.is_finite() {
        wear.clamp(0.0, 1.0)
    } else {
        1.0
    };
    1.0 - params.grip_loss_at_full_wear * w
}

/// The grip factor of temperature and wear together.
pub fn grip_factor(params: &TyreThermalParams, tread_temp_c: f64, wear: f64) -> f64 {
    window_grip_factor(params, tread_temp_c) * wear_grip_factor(params, wear)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Defaults: optimum 80 °C, edges 20 and 140 °C at 0.98, floor 0.9.
    #[test]
    fn window_peaks_at_the_optimum_and_falls_on_both_sides() {
        let p = TyreThermalParams::default();
        assert!((window_grip_factor(&p, 80.0) - 1.0).abs() < 1e-15);
        for t in [20.0, 140.0] {
            assert!((window_grip_factor(&p, t) - 0.98).abs() < 1e-12, "{t}");
        }
        let mut previous = 0.0;
        for t in (0..=80).map(f64::from) {
            let g = window_grip_factor(&p, t);
            assert!(
                g > previous || (g - p.min_grip_factor).abs() < 1e-15,
                "{t}: {g}"
            );
            previous = g;
        }
        for t in (80..=200).map(f64::from) {
            let g = window_grip_factor(&p, t);
            assert!(g <= previous, "{t}: {g}");
            previous = g;
        }
        assert!((window_grip_factor(&p, -100.0) - 0.9).abs() < 1e-15);
        assert!((window_grip_factor(&p, 400.0) - 0.9).abs() < 1e-15);
        assert!((window_grip_factor(&p, f64::NAN) - 0.9).abs() < 1e-15);
    }

    /// 10 % loss at full wear: 0.95 at half wear, 0.9 worn out.
    #[test]
    fn wear_lowers_grip() {
        let p = TyreThermalParams::default();
        assert!((wear_grip_factor(&p, 0.0) - 1.0).abs() < 1e-15);
        assert!((wear_grip_factor(&p, 0.5) - 0.95).abs() < 1e-12);
        assert!((wear_grip_factor(&p, 1.0) - 0.9).abs() < 1e-12);
        assert!((wear_grip_factor(&p, 3.0) - 0.9).abs() < 1e-12);
        assert!(grip_factor(&p, 80.0, 0.5) < grip_factor(&p, 80.0, 0.0));
        assert!(grip_factor(&p, 50.0, 0.2) < grip_factor(&p, 80.0, 0.2));
    }
}

//! Behaviour of the thermal model: energy bookkeeping, steady state, step independence, and
//! the heating and wear of a sliding, a rolling and a locked tyre.

#![allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]

use super::*;
use crate::environment::Environment;
use crate::tire::interface::{TireInput, TireModel};
use crate::tire::simplified_pacejka::SimplifiedPacejka;

const AIR: Environment = Environment {
    ambient_temp_c: 20.0,
    track_temp_c: 25.0,
};

fn total_heat_j(p: &TyreThermalParams, s: &TyreThermalState) -> f64 {
    p.tread_heat_capacity_j_per_k * s.tread_temp_c
        + p.carcass_heat_capacity_j_per_k * s.carcass_temp_c
        + p.gas_heat_capacity_j_per_k * s.gas_temp_c
        + p.rim_heat_capacity_j_per_k * s.rim_temp_c
}

/// Insulated from the outside (no convection, no road), the nodes hold exactly the energy
/// put in: 300 s of 2 kW sliding (85 % to the tyre), 500 W rolling and 4 kW braking (5 % to
/// the rim) is 300 x (1700 + 500 + 200) = 720 kJ.
#[test]
fn insulated_tyre_keeps_all_the_heat_put_in() {
    let p = TyreThermalParams {
        road_conductance_w_per_k: 0.0,
        tread_area_m2: 0.0,
        sidewall_area_m2: 0.0,
        rim_area_m2: 0.0,
        ..TyreThermalParams::default()
    };
    let loads = ThermalLoads {
        sliding_power_w: 2000.0,
        rolling_loss_power_w: 500.0,
        brake_power_w: 4000.0,
        air_speed_m_per_s: 30.0,
        in_contact: true,
    };
    let mut s = TyreThermalState::cold(20.0);
    let before = total_heat_j(&p, &s);
    for _ in 0..300_000 {
        s.step(&p, &loads, &AIR, 1e-3);
    }
    let added = total_heat_j(&p, &s) - before;
    assert!((added / 720_000.0 - 1.0).abs() < 1e-9, "{added} J");
    // Heat flows from the heated tread into the rest.
    assert!(s.tread_temp_c > s.carcass_temp_c && s.carcass_temp_c > 20.0);
}

/// At steady state everything put in leaves to the air and the track: the sum of
/// `G_out (T_node - T_outside)` equals the input power within 0.1 %.
#[test]
fn steady_state_balances_input_and_losses() {
    let p = TyreThermalParams::default();
    let loads = ThermalLoads {
        sliding_power_w: 1500.0,
        rolling_loss_power_w: 600.0,
        brake_power_w: 3000.0,
        air_speed_m_per_s: 30.0,
        in_contact: true,
    };
    let mut s = TyreThermalState::cold(20.0);
    for _ in 0..200_000 {
        s.step(&p, &loads, &AIR, 0.05);
    }
    let h = p.convection_w_per_m2_k(30.0);
    let lost = h * p.tread_area_m2 * (s.tread_temp_c - 20.0)
        + p.road_conductance_w_per_k * (s.tread_temp_c - 25.0)
        + h * p.sidewall_area_m2 * (s.carcass_temp_c - 20.0)
        + h * p.rim_area_m2 * (s.rim_temp_c - 20.0);
    let input =
        p.sliding_heat_to_tyre_fraction * 1500.0 + 600.0 + p.brake_heat_to_rim_fraction * 3000.0;
    assert!(
        (lost / input - 1.0).abs() < 1e-3,
        "{lost} W out, {input} W in"
    );
    // The gas sits between carcass and rim.
    let (lo, hi) = if s.carcass_temp_c < s.rim_temp_c {
        (s.carcass_temp_c, s.rim_temp_c)
    } else {
        (s.rim_temp_c, s.carcass_temp_c)
    };
    assert!((lo..=hi).contains(&s.gas_temp_c), "{s:?}");
}

/// The implicit update does not depend on the step: 1 ms and 20 ms agree within 0.05 °C after
/// a minute of hard sliding, and a 10 s step stays finite and bounded.
#[test]
fn result_does_not_depend_on_the_step() {
    let p = TyreThermalParams::default();
    let loads = ThermalLoads {
        sliding_power_w: 8000.0,
        rolling_loss_power_w: 600.0,
        brake_power_w: 0.0,
        air_speed_m_per_s: 25.0,
        in_contact: true,
    };
    let run = |dt: f64, steps: usize| {
        let mut s = TyreThermalState::cold(20.0);
        for _ in 0..steps {
            s.step(&p, &loads, &AIR, dt);
        }
        s
    };
    let fine = run(1e-3, 60_000);
    let coarse = run(0.02, 3000);
    assert!(
        (fine.tread_temp_c - coarse.tread_temp_c).abs() < 0.05,
        "{fine:?} vs {coarse:?}"
    );
    let huge = run(10.0, 100);
    assert!(huge.tread_temp_c.is_finite() && huge.tread_temp_c < 500.0);
}

/// Tread temperature and wear after `seconds` at 20 m/s, 4 kN, with `input` slips on the
/// simplified Pacejka tyre; the rolling loss is the same `0.01 Fz v` = 800 W in every case.
fn after(input: TireInput, seconds: f64) -> TyreThermalState {
    let tyre = SimplifiedPacejka::default();
    let out = tyre.evaluate(&input);
    let vx = input.vx;
    let vsx = -input.kappa * vx;
    let vsy = input.alpha.tan() * vx;
    let loads = ThermalLoads {
        sliding_power_w: ThermalLoads::sliding_power_w(out.fx, out.fy, vsx, vsy),
        rolling_loss_power_w: 0.01 * input.fz * vx,
        brake_power_w: 0.0,
        air_speed_m_per_s: vx,
        in_contact: true,
    };
    let p = TyreThermalParams::default();
    let mut s = TyreThermalState::cold(20.0);
    for _ in 0..(seconds * 1000.0).round() as usize {
        s.step(&p, &loads, &AIR, 1e-3);
    }
    s
}

#[test]
fn sliding_heats_faster_than_rolling_and_a_locked_wheel_fastest() {
    let rolling = TireInput::rolling(4000.0, 20.0);
    let free = after(rolling, 5.0);
    let sliding = after(rolling.with_alpha(8f64.to_radians()), 5.0);
    let locked = after(rolling.with_kappa(-1.0), 5.0);
    eprintln!(
        "tread after 5 s: rolling {:.2} °C, 8 deg slip angle {:.2} °C, locked {:.2} °C",
        free.tread_temp_c, sliding.tread_temp_c, locked.tread_temp_c
    );
    assert!(free.tread_temp_c > 20.0, "rolling loss heats a little");
    assert!(sliding.tread_temp_c > free.tread_temp_c + 1.0);
    assert!(locked.tread_temp_c > sliding.tread_temp_c + 1.0);
}

/// Wear grows with sliding energy, not with free rolling: `k_w |Fy Vsy| t` exactly.
#[test]
fn wear_grows_with_sliding_energy_only() {
    let rolling = TireInput::rolling(4000.0, 20.0);
    assert!(after(rolling, 30.0).wear.abs() < 1e-15);
    let input = rolling.with_alpha(8f64.to_radians());
    let out = SimplifiedPacejka::default().evaluate(&input);
    let energy = (out.fy * 20.0 * input.alpha.tan()).abs() * 30.0;
    let expected = TyreThermalParams::default().wear_per_sliding_energy_per_j * energy;
    let worn = after(input, 30.0).wear;
    assert!(
        expected > 0.0 && (worn / expected - 1.0).abs() < 1e-9,
        "{worn} vs {expected}"
    );
    // Twice the sliding energy, twice the wear.
    assert!((after(input, 60.0).wear / worn - 2.0).abs() < 1e-9);
}

/// A hotter gas has a higher pressure, by the absolute-temperature ratio (0.1 %).
#[test]
fn hot_pressure_follows_the_absolute_gas_temperature() {
    let s = after(TireInput::rolling(4000.0, 20.0).with_kappa(-1.0), 30.0);
    let cold = 1.9e5;
    let hot = s.pressure_pa(cold);
    let ratio_p = (hot + 101_325.0) / (cold + 101_325.0);
    let ratio_t = (s.gas_temp_c + 273.15) / (20.0 + 273.15);
    assert!(s.gas_temp_c > 21.0, "{s:?}");
    assert!(
        (ratio_p / ratio_t - 1.0).abs() < 1e-3,
        "{ratio_p} vs {ratio_t}"
    );
}

#[test]
fn bad_steps_and_loads_change_nothing_or_count_as_zero() {
    let p = TyreThermalParams::default();
    let mut s = TyreThermalState::cold(20.0);
    let loads = ThermalLoads {
        sliding_power_w: f64::NAN,
        rolling_loss_power_w: -5.0,
        brake_power_w: f64::INFINITY,
        air_speed_m_per_s: f64::NAN,
        in_contact: false,
    };
    s.step(&p, &loads, &AIR, f64::NAN);
    s.step(&p, &loads, &AIR, -1.0);
    assert_eq!(s, TyreThermalState::cold(20.0));
    s.step(&p, &loads, &AIR, 1.0);
    assert!(
        (s.tread_temp_c - 20.0).abs() < 1e-12 && s.wear.abs() < 1e-15,
        "{s:?}"
    );
}

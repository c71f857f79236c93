//! Tyre temperatures in the vehicle: opt-in per axle, wired to the tyre inputs and the
//! telemetry, validated, reset with the car.

use super::{DT, car, coast_in_neutral, run};
use crate::controls::Controls;
use crate::environment::Environment;
use crate::ground::FlatGround;
use crate::tire::thermal::TyreThermalParams;

/// A locked-wheel stop from 25 m/s without ABS (a lot of sliding), then 2 s at rest.
fn locked_stop(v: &mut crate::vehicle::Vehicle) {
    let mut aids = v.params().aids.clone();
    aids.abs_enabled = false;
    v.set_aids(aids).expect("valid aids");
    coast_in_neutral(v);
    let g = FlatGround::default();
    run(v, &Controls::default(), &g, 0.5, DT);
    v.set_forward_speed(25.0);
    let brake = Controls {
        brake: 1.0,
        ..Controls::default()
    };
    run(v, &brake, &g, 5.0, DT);
}

#[test]
fn without_thermal_parameters_the_telemetry_reads_ambient_and_set_pressure() {
    let mut v = car();
    locked_stop(&mut v);
    let set = v.params().front.wheel.tyre_pressure_pa;
    for w in &v.snapshot().wheels {
        assert!(!w.thermal_model);
        assert_eq!(w.tread_temp_c, 20.0);
        assert_eq!(w.gas_temp_c, 20.0);
        assert_eq!(w.wear, 0.0);
        assert_eq!(w.grip_factor, 1.0);
        assert_eq!(w.pressure_pa, set);
    }
}

/// The same stop with thermal parameters on the rear axle only: the rear treads heat, wear
/// and gain pressure; the fronts stay as they were.
#[test]
fn a_locked_stop_heats_and_wears_the_tyres_that_have_a_thermal_model() {
    let mut v = car()
        .with_tyre_thermal([None, Some(TyreThermalParams::default())])
        .expect("valid");
    locked_stop(&mut v);
    let s = v.snapshot();
    let set = v.params().rear.wheel.tyre_pressure_pa;
    for w in &s.wheels[..2] {
        assert!(!w.thermal_model && w.tread_temp_c == 20.0 && w.grip_factor == 1.0);
    }
    for w in &s.wheels[2..] {
        eprintln!(
            "rear after a locked stop: tread {:.1} °C, carcass {:.2} °C, gas {:.2} °C, \
             {:.0} Pa, wear {:.2e}, grip {:.4}",
            w.tread_temp_c, w.carcass_temp_c, w.gas_temp_c, w.pressure_pa, w.wear, w.grip_factor
        );
        assert!(w.thermal_model);
        // 1547 kg from 25 m/s is 483 kJ; the rear pair takes about a third, half of it to
        // the treads: some 40 kJ per tread of 4 kJ/K, minus what left to the carcass.
        assert!(w.tread_temp_c > 25.0, "{w:?}");
        assert!(w.carcass_temp_c > 20.0 && w.gas_temp_c > 20.0);
        assert!(w.pressure_pa > set);
        assert!(w.wear > 0.0);
        assert!(w.grip_factor > 0.98 && w.grip_factor < 1.0);
    }
    // A reset brings new, cold tyres at the air temperature of now.
    v.set_environment(Environment {
        ambient_temp_c: 5.0,
        track_temp_c: 8.0,
    })
    .expect("valid");
    v.reset_to(v.pose());
    for (w, st) in v.snapshot().wheels[2..]
        .iter()
        .zip(&v.tyre_thermal_states()[2..])
    {
        assert_eq!(w.tread_temp_c, 5.0);
        assert_eq!(st.cold_temp_c, 5.0);
        assert_eq!(w.wear, 0.0);
        assert_eq!(w.pressure_pa, set);
    }
}

#[test]
fn bad_thermal_parameters_and_environments_are_refused_with_paths() {
    let bad = TyreThermalParams {
        optimum_temp_c: f64::NAN,
        ..TyreThermalParams::default()
    };
    let err = car()
        .with_tyre_thermal([Some(TyreThermalParams::default()), Some(bad)])
        .expect_err("invalid");
    assert_eq!(err.0.len(), 1, "{err}");
    assert_eq!(err.0[0].path, "tyres.rear.thermal.optimum_temp_c");
    let mut v = car();
    let err = v
        .set_environment(Environment {
            ambient_temp_c: -400.0,
            track_temp_c: 25.0,
        })
        .expect_err("invalid");
    assert_eq!(err.0[0].path, "environment.ambient_temp_c");
    assert_eq!(v.environment(), Environment::default());
}

/// Built in a cold environment, the tyres start at its air temperature, their pressures set
/// there; a warm track then heats a car standing on it (the treads by contact, the rest from
/// the treads).
#[test]
fn the_environment_given_at_construction_sets_the_cold_tyres() {
    let cold = Environment {
        ambient_temp_c: 0.0,
        track_temp_c: 40.0,
    };
    let mut v = car()
        .with_tyre_thermal([Some(TyreThermalParams::default()), None])
        .and_then(|v| v.with_environment(cold))
        .expect("valid");
    assert_eq!(v.environment(), cold);
    for w in &v.snapshot().wheels {
        assert_eq!(w.tread_temp_c, 0.0);
    }
    run(
        &mut v,
        &Controls::default(),
        &FlatGround::default(),
        60.0,
        DT,
    );
    let s = v.snapshot();
    // Track 40 °C, air 0 °C: the front treads settle between the two, above the carcass.
    for w in &s.wheels[..2] {
        assert!(w.tread_temp_c > 1.0 && w.tread_temp_c < 40.0, "{w:?}");
        assert!(
            w.carcass_temp_c > 0.0 && w.carcass_temp_c < w.tread_temp_c,
            "{w:?}"
        );
    }
    assert_eq!(
        s.wheels[2].tread_temp_c, 0.0,
        "no thermal model at the rear"
    );
}

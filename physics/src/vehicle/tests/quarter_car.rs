//! The unsprung masses against the two-mass quarter car (Gillespie, *Fundamentals of Vehicle
//! Dynamics*, ch. 5; any vibrations text): a sprung mass `ms` on a spring `ks` over an
//! unsprung mass `mu` on a tyre spring `kt`, undamped, has the natural frequencies
//!
//! ```text
//! ω² = ½ (b ∓ sqrt(b² - 4 c)),   b = ks / ms + (ks + kt) / mu,   c = ks kt / (ms mu)
//! ```
//!
//! and in each mode the wheel moves `z_u / z_s = (ks - ms ω²) / ks` times the body. A car whose
//! four corners are alike, CG in the middle, is four such quarter cars in heave: started in
//! one mode (dampers and tyre damping zeroed), it must keep to that mode's frequency.

use glam::DVec3;

use super::{DT, coast_in_neutral, run, simple_tires};
use crate::controls::Controls;
use crate::ground::FlatGround;
use crate::vehicle::{Vehicle, VehicleParams};

/// Unsprung mass (kg) and tyre stiffness (N/m) of every corner of the test car.
const MU: f64 = 40.0;
const KT: f64 = 200_000.0;

/// A car of four equal corners (the Corvette's front corner, CG midway) without damping.
fn four_equal_corners() -> Vehicle {
    let mut p = VehicleParams::default();
    p.chassis.front_weight_fraction = 0.5;
    let s = &mut p.front.suspension;
    s.bump_damping_n_s_per_m = 0.0;
    s.rebound_damping_n_s_per_m = 0.0;
    s.fast_bump_damping_n_s_per_m = 0.0;
    s.fast_rebound_damping_n_s_per_m = 0.0;
    p.front.camber_gain_deg_per_m = 0.0;
    p.front.wheel.unsprung_mass_kg = Some(MU);
    p.front.wheel.tyre_vertical_stiffness_n_per_m = Some(KT);
    p.front.wheel.tyre_vertical_damping_n_s_per_m = Some(0.0);
    p.rear = p.front.clone();
    Vehicle::new(p, simple_tires()).expect("valid vehicle")
}

/// `(ω_hop, ω_ride)` (rad/s) and the mode shapes `z_u / z_s` of the quarter car.
fn modes(ms: f64, ks: f64) -> [(f64, f64); 2] {
    let b = ks / ms + (ks + KT) / MU;
    let c = ks * KT / (ms * MU);
    let root = (b * b - 4.0 * c).sqrt();
    [0.5 * (b + root), 0.5 * (b - root)].map(|w2| (w2.sqrt(), (ks - ms * w2) / ks))
}

/// Frequency (Hz) of a sampled signal from its upward crossings of its mean, interpolated.
fn frequency_hz(samples: &[f64], dt: f64) -> f64 {
    let mean = samples.iter().sum::<f64>() / samples.len() as f64;
    let crossings: Vec<f64> = samples
        .windows(2)
        .enumerate()
        .filter(|(_, w)| w[0] < mean && w[1] >= mean)
        .map(|(i, w)| (i as f64 + (mean - w[0]) / (w[1] - w[0])) * dt)
        .collect();
    assert!(crossings.len() >= 5, "{} crossings", crossings.len());
    (crossings.len() - 1) as f64 / (crossings[crossings.len() - 1] - crossings[0])
}

/// Starts the car at rest displaced in one mode (the body by `body_m` up, each wheel by
/// `ratio` times that) and records `seconds` of the body's height and the front-left wheel
/// centre's.
fn ring(body_m: f64, ratio: f64, seconds: f64) -> (Vec<f64>, Vec<f64>) {
    let mut v = four_equal_corners();
    coast_in_neutral(&mut v);
    let mut pose = v.pose();
    pose.position += DVec3::Z * body_m;
    v.reset_to(pose);
    for t in &mut v.travels {
        // The wheel rises `ratio * body_m`: the strut shortens by the difference.
        t.compression_m -= body_m - ratio * body_m;
    }
    let ground = FlatGround::default();
    let (mut body, mut wheel) = (Vec::new(), Vec::new());
    for _ in 0..(seconds / DT).round() as usize {
        v.step(&Controls::default(), &ground, DT);
        body.push(v.pose().position.z);
        wheel.push(v.snapshot().wheels[0].centre_position.z);
    }
    (body, wheel)
}

/// Body and wheel-hop frequencies within 3 % of the two-mass eigenfrequencies (the issue's
/// tolerance; the step's own error is `(ω dt)² / 24`, 0.03 % at wheel hop), and the modes'
/// shapes hold.
#[test]
fn heave_and_wheel_hop_ring_at_the_two_mass_frequencies() {
    let v = four_equal_corners();
    let p = v.params();
    let ms = 0.25 * p.chassis.mass_kg - MU;
    let ks = p.front.suspension.spring_rate_n_per_m;
    let [(w_hop, hop_shape), (w_ride, ride_shape)] = modes(ms, ks);
    let tau = std::f64::consts::TAU;

    // Ride: 5 mm of body heave, the wheel following by the mode's ratio (about 0.15).
    let (body, wheel) = ring(0.005, ride_shape, 12.0);
    let ride_hz = frequency_hz(&body, DT);
    let amplitude = |s: &[f64]| {
        s.iter().copied().fold(f64::MIN, f64::max) - s.iter().copied().fold(f64::MAX, f64::min)
    };
    let shape = amplitude(&wheel) / amplitude(&body);
    eprintln!(
        "ride: {ride_hz:.4} Hz against {:.4} Hz, wheel/body {shape:.3} against {ride_shape:.3}",
        w_ride / tau
    );
    assert!((ride_hz / (w_ride / tau) - 1.0).abs() < 0.03);
    assert!((shape / ride_shape - 1.0).abs() < 0.05, "{shape}");

    // Wheel hop: 2 mm of wheel motion, the body countering by the mode's ratio.
    let (body, wheel) = ring(0.002 / hop_shape, hop_shape, 2.0);
    let hop_hz = frequency_hz(&wheel, DT);
    let shape = amplitude(&wheel) / amplitude(&body);
    eprintln!(
        "hop: {hop_hz:.3} Hz against {:.3} Hz, wheel/body {shape:.1} against {:.1}",
        w_hop / tau,
        hop_shape.abs()
    );
    assert!((hop_hz / (w_hop / tau) - 1.0).abs() < 0.03);
    assert!((shape / hop_shape.abs() - 1.0).abs() < 0.05, "{shape}");

    // The Garage's figures say the same.
    let mount = v.corners()[0].mount;
    let (hop, ride) = mount.quarter_car_frequencies_hz(ms, ks);
    assert!((hop - w_hop / tau).abs() < 1e-9 && (ride - w_ride / tau).abs() < 1e-9);
}

/// The car at rest stands still on its tyres: the static state is the equilibrium, with the
/// tyres carrying the static loads and the springs those less the unsprung weight.
#[test]
fn the_static_state_is_an_equilibrium() {
    let mut v = super::car();
    let start = v.pose().position;
    let travel = v.travels;
    run(
        &mut v,
        &Controls::default(),
        &FlatGround::default(),
        1.0,
        DT,
    );
    assert!((v.pose().position - start).length() < 1e-5);
    for (now, then) in v.travels.iter().zip(&travel) {
        assert!((now.compression_m - then.compression_m).abs() < 1e-5);
    }
    let p = v.params();
    for (i, w) in v.snapshot().wheels.iter().enumerate() {
        let load = p.static_wheel_load_n(i / 2);
        assert!(
            (w.load_n / load - 1.0).abs() < 1e-3,
            "{} vs {load}",
            w.load_n
        );
    }
}

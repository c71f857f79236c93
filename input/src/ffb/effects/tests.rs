//! Each effect present when its cause is, absent without it, exactly zero at zero strength,
//! bounded and finite for any input.

use proptest::prelude::*;

use super::*;

const DT: f64 = 0.001;

fn all_on() -> FfbEffectSettings {
    FfbEffectSettings {
        road_texture_nm_per_kn: 2.0,
        kerb_rumble_nm: 1.0,
        scrub_nm: 1.0,
        lockup_nm: 1.0,
        wheelspin_nm: 1.0,
        abs_nm: 1.0,
        lateral_g_nm_per_g: 1.0,
        auto_gain: false,
    }
}

/// A car cruising straight at 20 m/s on smooth asphalt.
fn cruising() -> FeelInput {
    FeelInput {
        front_load_n: [3500.0, 3500.0],
        front_peak_slip_ratio: 0.1,
        driven_peak_slip_ratio: 0.1,
        speed_m_s: 20.0,
        ..FeelInput::default()
    }
}

/// Runs `ticks` ticks of `input`; returns each tick's contributions.
fn run(settings: &FfbEffectSettings, input: &FeelInput, ticks: usize) -> Vec<EffectContributions> {
    let mut effects = FfbEffects::default();
    (0..ticks)
        .map(|_| effects.step(settings, input, DT))
        .collect()
}

/// Sign changes per second of a signal sampled at 1 kHz: twice its frequency.
fn frequency_hz(signal: &[f64]) -> f64 {
    let crossings = signal
        .windows(2)
        .filter(|w| (w[0] < 0.0) != (w[1] < 0.0) && w[0] != 0.0)
        .count();
    crossings as f64 / (2.0 * signal.len() as f64 * DT)
}

fn peak(signal: impl Iterator<Item = f64>) -> f64 {
    signal.map(f64::abs).fold(0.0, f64::max)
}

#[test]
fn nothing_on_a_smooth_straight() {
    let out = run(&all_on(), &cruising(), 2000);
    for c in &out[100..] {
        assert!(c.total().abs() < 1e-9, "{c:?}");
    }
}

#[test]
fn kerb_ripple_above_20_hz_only_on_the_kerb() {
    let on_kerb = FeelInput {
        front_on_kerb: 1,
        ..cruising()
    };
    let out = run(&all_on(), &on_kerb, 1000);
    let kerb: Vec<f64> = out[50..].iter().map(|c| c.kerb_nm).collect();
    let hz = frequency_hz(&kerb);
    // 20 m/s over 0.5 m stripes: 40 Hz.
    assert!((hz - 40.0).abs() < 1.5, "{hz} Hz");
    assert!(hz > 20.0);
    // One tyre of two at full speed: half the strength.
    assert!((peak(kerb.iter().copied()) - 0.5).abs() < 0.02);
    assert!(
        run(&all_on(), &cruising(), 500)
            .iter()
            .all(|c| c.kerb_nm == 0.0)
    );
}

#[test]
fn scrub_past_the_peak_only() {
    let below = FeelInput {
        front_alpha_ratio: 0.8,
        ..cruising()
    };
    assert!(
        run(&all_on(), &below, 500)
            .iter()
            .all(|c| c.scrub_nm == 0.0)
    );
    let past = FeelInput {
        front_alpha_ratio: 1.3,
        ..cruising()
    };
    let out = run(&all_on(), &past, 500);
    let scrub = peak(out[100..].iter().map(|c| c.scrub_nm));
    assert!(
        (scrub - 0.8).abs() < 0.05,
        "(1.3 - 0.9) / 0.5 of full: {scrub}"
    );
}

#[test]
fn lockup_vibrates_when_locked_at_speed_only() {
    let locked = FeelInput {
        front_min_slip_ratio: -1.0,
        ..cruising()
    };
    let out = run(&all_on(), &locked, 1000);
    let lock: Vec<f64> = out[100..].iter().map(|c| c.lockup_nm).collect();
    assert!((peak(lock.iter().copied()) - 1.0).abs() < 0.02);
    assert!((frequency_hz(&lock) - tyre_slip::LOCKUP_HZ).abs() < 1.5);
    let braking = FeelInput {
        front_min_slip_ratio: -0.02,
        ..cruising()
    };
    assert!(
        run(&all_on(), &braking, 500)
            .iter()
            .all(|c| c.lockup_nm == 0.0)
    );
    let parked = FeelInput {
        front_min_slip_ratio: -1.0,
        speed_m_s: 0.5,
        ..cruising()
    };
    assert!(
        run(&all_on(), &parked, 500)
            .iter()
            .all(|c| c.lockup_nm == 0.0)
    );
}

#[test]
fn wheelspin_and_abs_pulses() {
    let spinning = FeelInput {
        driven_max_slip_ratio: 0.6,
        ..cruising()
    };
    let out = run(&all_on(), &spinning, 1000);
    let spin: Vec<f64> = out[100..].iter().map(|c| c.wheelspin_nm).collect();
    assert!(peak(spin.iter().copied()) > 0.9);
    assert!((frequency_hz(&spin) - tyre_slip::WHEELSPIN_HZ).abs() < 1.5);
    let abs = FeelInput {
        abs_active: true,
        ..cruising()
    };
    let out = run(&all_on(), &abs, 2000);
    let pulses: Vec<f64> = out[100..].iter().map(|c| c.abs_nm).collect();
    assert!((frequency_hz(&pulses) - abs_pulses::PULSE_HZ).abs() < 1.0);
    assert!(
        run(&all_on(), &cruising(), 500)
            .iter()
            .all(|c| c.abs_nm == 0.0)
    );
}

#[test]
fn road_texture_from_a_bump_and_lateral_g_in_a_corner() {
    let mut effects = FfbEffects::default();
    let s = all_on();
    let smooth = cruising();
    for _ in 0..100 {
        effects.step(&s, &smooth, DT);
    }
    let bump = FeelInput {
        front_load_n: [3500.0, 4500.0],
        ..smooth
    };
    let c = effects.step(&s, &bump, DT);
    assert!(
        c.road_nm > 1.5,
        "a bump under the right wheel twists left: {c:?}"
    );
    // A steady 1 g left turn: -1 N·m (adds to the self-aligning torque).
    let corner = FeelInput {
        lateral_m_s2: GRAVITY,
        ..smooth
    };
    let c = effects.step(&s, &corner, DT);
    assert!((c.lateral_nm + 1.0).abs() < 1e-12);
}

#[test]
fn zero_strength_is_exactly_zero() {
    let busy = FeelInput {
        front_load_n: [3000.0, 6000.0],
        front_on_kerb: 2,
        front_alpha_ratio: 2.0,
        front_min_slip_ratio: -1.0,
        driven_max_slip_ratio: 1.0,
        lateral_m_s2: 12.0,
        abs_active: true,
        ..cruising()
    };
    let off = FfbEffectSettings::OFF;
    let mut effects = FfbEffects::default();
    for i in 0..500 {
        let load = 3000.0 + 500.0 * f64::from(i % 7);
        let input = FeelInput {
            front_load_n: [load, 6000.0],
            ..busy
        };
        let c = effects.step(&off, &input, DT);
        assert_eq!(c, EffectContributions::default());
    }
}

proptest! {
    #[test]
    fn bounded_and_finite_for_any_input(
        loads in prop::array::uniform2(any::<f64>()),
        kerb in 0u32..5,
        alpha in any::<f64>(), slip in any::<f64>(), spin in any::<f64>(),
        speed in any::<f64>(), lateral in any::<f64>(), abs in any::<bool>(),
        dt in prop_oneof![any::<f64>(), 0.0005..0.002f64],
    ) {
        let input = FeelInput {
            front_load_n: loads,
            front_on_kerb: kerb,
            front_alpha_ratio: alpha,
            front_min_slip_ratio: slip,
            driven_max_slip_ratio: spin,
            front_peak_slip_ratio: 0.1,
            driven_peak_slip_ratio: 0.1,
            speed_m_s: speed,
            lateral_m_s2: lateral,
            abs_active: abs,
        };
        let s = all_on();
        let mut effects = FfbEffects::default();
        for _ in 0..3 {
            let c = effects.step(&s, &input, dt);
            prop_assert!(c.total().is_finite());
            // Each effect within its strength (road: its clamp; lateral: 5 g at most).
            prop_assert!(c.kerb_nm.abs() <= 1.0 + 1e-9 && c.scrub_nm.abs() <= 1.0 + 1e-9);
            prop_assert!(c.lockup_nm.abs() <= 1.0 + 1e-9 && c.wheelspin_nm.abs() <= 1.0 + 1e-9);
            prop_assert!(c.abs_nm.abs() <= 1.0 + 1e-9 && c.lateral_nm.abs() <= 5.0 + 1e-9);
            prop_assert!(c.road_nm.abs() <= MAX_EFFECT_NM);
        }
    }
}

#[test]
fn from_snapshot_maps_the_fields() {
    use gripline_physics::vehicle::WheelTelemetry;
    let mut s = Snapshot::default();
    let wheel = |load_n, slip_ratio, slip_angle_rad, surface| WheelTelemetry {
        load_n,
        slip_ratio,
        slip_angle_rad,
        surface,
        contact: true,
        ..WheelTelemetry::default()
    };
    s.wheels = [
        wheel(3000.0, -0.3, 0.05, Surface::Kerb),
        wheel(3200.0, -0.1, -0.12, Surface::Asphalt),
        wheel(2800.0, 0.4, 0.01, Surface::Asphalt),
        wheel(2900.0, 0.2, 0.01, Surface::Grass),
    ];
    s.speed_m_per_s = 25.0;
    s.specific_force_body.y = 4.0;
    s.abs_active = true;
    let feel = SteeringFeel {
        front_peak_slip_angle_rad: 0.1,
        front_peak_slip_ratio: 0.12,
        rear_peak_slip_ratio: 0.15,
        peak_column_torque_nm: 10.0,
        driven: [false, false, true, true],
    };
    let f = FeelInput::from_snapshot(&s, &feel);
    assert!(
        (f.front_load_n[0] - 3000.0).abs() < 1e-12 && (f.front_load_n[1] - 3200.0).abs() < 1e-12
    );
    assert_eq!(f.front_on_kerb, 1);
    assert!((f.front_alpha_ratio - 1.2).abs() < 1e-12);
    assert!((f.front_min_slip_ratio + 0.3).abs() < 1e-12);
    assert!((f.driven_max_slip_ratio - 0.4).abs() < 1e-12);
    assert!(
        (f.driven_peak_slip_ratio - 0.15).abs() < 1e-12,
        "RWD: the rear tyre's peak"
    );
    assert!((f.speed_m_s - 25.0).abs() < 1e-12 && (f.lateral_m_s2 - 4.0).abs() < 1e-12);
    assert!(f.abs_active);
}

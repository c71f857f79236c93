//! Validation of the vehicle model through the headless runner, as a user runs it.
//!
//! The Corvette C5 against its published road tests (Car and Driver, Motor Trend and
//! Chevrolet's figures for the 1997-2004 coupe): 0-60 mph 4.8 s, quarter mile 13.3 s at
//! 108 mph, 60-0 mph in 116 ft, top speed 172 mph (drag-limited in 6th), skidpad 0.90-0.93 g.
//! Bands: +-7 % on times and distances, +-3 % on top speed, +-0.05 g on the skidpad.
//! Every other scenario runs for all three shipped cars and gives finite, plausible figures.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

fn headless(vehicle: &str, scenario: &str) -> serde_json::Map<String, Value> {
    headless_with(vehicle, scenario, &[])
}

fn headless_with(vehicle: &str, scenario: &str, extra: &[&str]) -> serde_json::Map<String, Value> {
    let out = Command::new(env!("CARGO_BIN_EXE_gripline"))
        .args(["headless", "--vehicle", vehicle, "--scenario", scenario])
        .args(extra)
        .env(
            "GRIPLINE_ASSETS",
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets"),
        )
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{vehicle} {scenario}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    summary["metrics"].as_object().unwrap().clone()
}

fn number(metrics: &serde_json::Map<String, Value>, name: &str) -> f64 {
    metrics[name]
        .as_f64()
        .unwrap_or_else(|| panic!("{name} missing or null in {metrics:?}"))
}

fn within(name: &str, got: f64, reference: f64, band: f64) {
    let error = got / reference - 1.0;
    eprintln!("{name}: {got:.3} vs {reference} ({:+.1} %)", 100.0 * error);
    assert!(
        error.abs() <= band,
        "{name}: {got} is {:+.1} % from the road test's {reference} (band {:.0} %)",
        100.0 * error,
        100.0 * band
    );
}

#[test]
fn corvette_launch_matches_road_tests() {
    let m = headless("corvette-c5", "launch");
    within("0-60 mph (s)", number(&m, "t_0_60mph_s"), 4.8, 0.07);
    within("quarter mile (s)", number(&m, "quarter_mile_s"), 13.3, 0.07);
    // Issue 32 holds the trap speed to ±5 %: it was +5.1 % while the car ran without its
    // driver (the C5's file gave the curb mass), +3.6 % with the driver.
    within(
        "trap speed (mph)",
        number(&m, "quarter_mile_speed_mph"),
        108.0,
        0.05,
    );
}

#[test]
fn corvette_braking_matches_road_tests() {
    let m = headless("corvette-c5", "braking");
    within(
        "60-0 mph (ft)",
        number(&m, "stop_distance_60_0mph_ft"),
        116.0,
        0.07,
    );
    // Locked wheels stop longer than ABS at the tyres' peak.
    assert!(number(&m, "stop_distance_60_0mph_no_abs_m") > number(&m, "stop_distance_60_0mph_m"));
}

#[test]
fn corvette_top_speed_matches_the_published_figure() {
    let m = headless("corvette-c5", "top-speed");
    within("top speed (mph)", number(&m, "top_speed_mph"), 172.0, 0.03);
    assert_eq!(m["top_speed_gear"], 6, "drag-limited in 6th");
}

#[test]
fn corvette_skidpad_matches_road_tests() {
    let g = number(&headless("corvette-c5", "skidpad"), "skidpad_max_lat_g");
    eprintln!("skidpad: {g:.3} g vs 0.90-0.93 g");
    assert!(
        (0.85..=0.98).contains(&g),
        "skidpad {g} g outside 0.90-0.93 +- 0.05"
    );
}

/// The C5's steady-state gradients (ISO 4138 constant radius, the skidpad's 0.25-0.45 g): the
/// roll gradient is what its springs and bars give by the textbook formula
/// `φ/a_y = m g (h - h_ra) / (K_φ - m g (h - h_ra))`, with each axle's roll stiffness
/// `K_φ = (k_spring / 2 + k_bar) t²` in series with its tyres' `k_tyre t² / 2` (the tyres'
/// vertical stiffness from their files) and the roll axis at `h_ra` under the CG (Gillespie,
/// ch. 8; Milliken, *Race Car Vehicle Dynamics*, ch. 16, roll rate with the tyres in series),
/// within 6 % (the links jack the body up a little and the fuel burns); the car understeers,
/// mildly (0.3-1.5 deg/g, a sports car's range).
#[test]
fn corvette_gradients_follow_its_springs_and_bars() {
    let m = headless("corvette-c5", "skidpad");
    let roll = number(&m, "roll_gradient_deg_per_g");
    let understeer = number(&m, "understeer_gradient_deg_per_g");
    let path = gripline_formats::assets::resolve_vehicle("corvette-c5").expect("shipped");
    let loaded = gripline_formats::vehicle_file::load_vehicle(&path).expect("loads");
    let p = loaded.params;
    let c = &p.chassis;
    let mass = c.mass_kg + c.fuel_mass_kg;
    let (a, b) = (p.cg_to_front_axle_m(), p.cg_to_rear_axle_m());
    let h_ra = (p.front.roll_centre_height_m * b + p.rear.roll_centre_height_m * a) / c.wheelbase_m;
    let stiffness = |axle: &gripline_physics::vehicle::AxleParams, tire: usize| {
        let t2 = axle.track_m * axle.track_m;
        let springs = (0.5 * axle.suspension.spring_rate_n_per_m + axle.anti_roll_bar_n_per_m) * t2;
        let (k_tyre, _) = loaded.tires[tire]
            .vertical_stiffness_and_damping(axle.wheel.tyre_pressure_pa)
            .expect("the C5's tyre files give their vertical stiffness");
        let tyres = 0.5 * k_tyre * t2;
        springs * tyres / (springs + tyres)
    };
    let moment = mass * gripline_physics::vehicle::GRAVITY * (c.cg_height_m - h_ra);
    let expected =
        (moment / (stiffness(&p.front, 0) + stiffness(&p.rear, 1) - moment)).to_degrees();
    eprintln!(
        "C5: roll gradient {roll:.3} deg/g (springs and bars: {expected:.3}), understeer \
         gradient {understeer:.3} deg/g"
    );
    assert!((roll / expected - 1.0).abs() < 0.06, "{roll} vs {expected}");
    assert!((0.3..=1.5).contains(&understeer), "{understeer}");
}

/// Camber acts as on a real car (issue 31): moderate negative camber, -3° front and -2° rear,
/// offsets the outer wheels' roll and holds more lateral acceleration on the skidpad than +1°
/// all round (a tyre's peak lateral force comes at a few degrees of inclination into the
/// turn: Milliken, *Race Car Vehicle Dynamics*, ch. 2). Before the camber reached the tyres
/// with the ISO sign the C5 held 0.857 g with the first and 0.890 g with the second.
#[test]
fn corvette_negative_camber_holds_more_on_the_skidpad() {
    let dir = tempfile::tempdir().unwrap();
    let skidpad_g = |name: &str, front: f64, rear: f64| {
        let path = dir.path().join(format!("{name}.ron"));
        let text = format!("(front: (camber_deg: {front:.1}), rear: (camber_deg: {rear:.1}))\n");
        std::fs::write(&path, text).unwrap();
        let m = headless_with(
            "corvette-c5",
            "skidpad",
            &["--setup", path.to_str().unwrap()],
        );
        number(&m, "skidpad_max_lat_g")
    };
    let negative = skidpad_g("negative", -3.0, -2.0);
    let positive = skidpad_g("positive", 1.0, 1.0);
    eprintln!("skidpad: {negative:.3} g at -3/-2 deg, {positive:.3} g at +1/+1 deg");
    // 0.01 g: well above the metric's resolution (the speed ramps 0.5 km/h per second).
    assert!(
        negative > positive + 0.01,
        "negative camber {negative} g against positive {positive} g"
    );
}

/// The driver model laps the circuit with every car: at least two laps in 300 s, on the road.
#[test]
fn every_car_laps_the_circuit() {
    for vehicle in ["corvette-c5", "hatchback-fwd", "rally-awd"] {
        let m = headless_with(vehicle, "laps", &["--duration", "300"]);
        let laps = m["laps_completed"].as_u64().unwrap();
        let best = number(&m, "best_lap_s");
        let offset = number(&m, "max_lateral_offset_m");
        eprintln!("{vehicle}: {laps} laps, best {best:.2} s, widest {offset:.2} m off the line");
        assert!(laps >= 2, "{vehicle}: {laps} laps");
        // 3.6 km at 0.7 g: between 80 and 180 s a lap.
        assert!(
            (80.0..180.0).contains(&best),
            "{vehicle}: best lap {best} s"
        );
        // The road is 12 m wide: the car stays on it.
        assert!(offset < 5.0, "{vehicle}: {offset} m off the centre line");
    }
}

#[test]
fn every_car_runs_every_scenario() {
    for vehicle in ["corvette-c5", "hatchback-fwd", "rally-awd"] {
        let launch = headless(vehicle, "launch");
        let t60 = number(&launch, "t_0_60mph_s");
        assert!((2.5..20.0).contains(&t60), "{vehicle}: 0-60 {t60} s");
        let stop = number(&headless(vehicle, "braking"), "stop_distance_60_0mph_m");
        assert!((25.0..60.0).contains(&stop), "{vehicle}: 60-0 {stop} m");
        let top = number(&headless(vehicle, "top-speed"), "top_speed_kmh");
        assert!(
            (150.0..320.0).contains(&top),
            "{vehicle}: top speed {top} km/h"
        );
        let skidpad = number(&headless(vehicle, "skidpad"), "skidpad_max_lat_g");
        assert!(
            (0.6..1.2).contains(&skidpad),
            "{vehicle}: skidpad {skidpad} g"
        );
        let lane = headless(vehicle, "iso3888-1");
        let yaw = number(&lane, "peak_yaw_rate_deg_s");
        assert!(
            yaw > 5.0 && yaw < 90.0,
            "{vehicle}: lane-change yaw rate {yaw}"
        );
        let step = headless(vehicle, "step-steer");
        let response = number(&step, "yaw_rate_response_time_s");
        assert!(
            (0.05..0.6).contains(&response),
            "{vehicle}: response {response} s"
        );
        let script = headless(vehicle, "scripted-brake-turn");
        let distance = number(&script, "distance_m");
        assert!(
            (50.0..200.0).contains(&distance),
            "{vehicle}: scripted run {distance} m"
        );
        assert!(
            number(&script, "max_lat_g") > 0.1,
            "{vehicle}: the scripted turn turned"
        );
        let coast = headless(vehicle, "coastdown");
        // The fitted aerodynamic term is the car's own 0.5 rho Cd A within 5 %, and the
        // constant term its rolling resistance m g c0 within 10 % (SAE J2263 road load).
        let file =
            Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../assets/vehicles/{vehicle}.ron"));
        let p = gripline_formats::vehicle_file::load_vehicle(&file)
            .unwrap()
            .params;
        let aero =
            0.5 * p.aero.air_density_kg_per_m3 * p.aero.drag_coefficient * p.aero.frontal_area_m2;
        within(
            &format!("{vehicle} coast-down c"),
            number(&coast, "coast_c_n_per_m2s2"),
            aero,
            0.05,
        );
        let rolling = p.chassis.mass_kg * 9.81 * p.front.wheel.rolling_resistance_c0;
        within(
            &format!("{vehicle} coast-down a"),
            number(&coast, "coast_a_n"),
            rolling,
            0.10,
        );
    }
}

//! Prints the built-in vehicle parameter sets as RON (the starting point of the shipped
//! vehicle files).
use gripline_physics::powertrain::{GearboxMode, PowertrainParams};
use gripline_physics::vehicle::VehicleParams;

fn main() {
    let which = std::env::args().nth(1).unwrap_or_default();
    let mut p = VehicleParams::default();
    match which.as_str() {
        "fwd" => {
            p.name = "Hatchback 1.6 FWD".into();
            p.front_tyre = "TNO_car205_60R15".into();
            p.rear_tyre = "TNO_car205_60R15".into();
            p.powertrain = PowertrainParams::fwd_hatchback();
            let c = &mut p.chassis;
            (
                c.mass_kg,
                c.fuel_mass_kg,
                c.wheelbase_m,
                c.front_weight_fraction,
                c.cg_height_m,
            ) = (1250.0, 30.0, 2.578, 0.61, 0.55);
            let (a, b): (f64, f64) = (2.578 * 0.39, 2.578 * 0.61);
            c.yaw_inertia_kg_m2 = (1250.0 * 0.9 * a * b).round();
            c.pitch_inertia_kg_m2 = (0.95 * c.yaw_inertia_kg_m2).round();
            c.roll_inertia_kg_m2 = (1250.0 * (0.35f64 * 1.50).powi(2)).round();
            let body = &mut p.body;
            (
                body.length_m,
                body.width_m,
                body.height_m,
                body.ground_clearance_m,
                body.front_overhang_m,
            ) = (4.15, 1.735, 1.44, 0.14, 0.85);
            for (axle, track, k, travel, bump, rebound, arb, radius, inertia) in [
                (
                    &mut p.front,
                    1.513,
                    25_400.0,
                    0.22,
                    1_900.0,
                    3_700.0,
                    15_000.0,
                    0.30,
                    0.7,
                ),
                (
                    &mut p.rear,
                    1.494,
                    21_700.0,
                    0.18,
                    1_400.0,
                    2_800.0,
                    8_000.0,
                    0.30,
                    0.7,
                ),
            ] {
                axle.track_m = track;
                axle.suspension.spring_rate_n_per_m = k;
                axle.suspension.travel_m = travel;
                axle.suspension.bump_damping_n_s_per_m = bump;
                axle.suspension.rebound_damping_n_s_per_m = rebound;
                axle.suspension.fast_bump_damping_n_s_per_m = bump / 2.0;
                axle.suspension.fast_rebound_damping_n_s_per_m = rebound / 2.0;
                axle.anti_roll_bar_n_per_m = arb;
                axle.wheel.radius_m = radius;
                axle.wheel.spin_inertia_kg_m2 = inertia;
                axle.wheel.tyre_pressure_pa = 2.2e5;
            }
            p.steering.ratio = 15.0;
            p.steering.lock_deg = 540.0;
            p.brakes.max_torque_n_m = 5_000.0;
            p.brakes.bias_front = 0.7;
            p.brakes.handbrake_torque_n_m = 700.0;
            p.aero.drag_coefficient = 0.32;
            p.aero.frontal_area_m2 = 2.15;
        }
        "awd" => {
            p.name = "Rally car 2.0 turbo AWD".into();
            p.front_tyre = "TNO_car205_60R15".into();
            p.rear_tyre = "TNO_car205_60R15".into();
            p.powertrain = PowertrainParams::awd_rally();
            let c = &mut p.chassis;
            (
                c.mass_kg,
                c.fuel_mass_kg,
                c.wheelbase_m,
                c.front_weight_fraction,
                c.cg_height_m,
            ) = (1350.0, 40.0, 2.65, 0.56, 0.50);
            let (a, b): (f64, f64) = (2.65 * 0.44, 2.65 * 0.56);
            c.yaw_inertia_kg_m2 = (1350.0 * 0.9 * a * b).round();
            c.pitch_inertia_kg_m2 = (0.95 * c.yaw_inertia_kg_m2).round();
            c.roll_inertia_kg_m2 = (1350.0 * (0.35f64 * 1.55).powi(2)).round();
            let body = &mut p.body;
            (
                body.length_m,
                body.width_m,
                body.height_m,
                body.ground_clearance_m,
                body.front_overhang_m,
            ) = (4.5, 1.80, 1.45, 0.20, 0.9);
            for (axle, k, bump, rebound, arb) in [
                (&mut p.front, 29_200.0, 2_000.0, 4_300.0, 12_000.0),
                (&mut p.rear, 26_400.0, 1_700.0, 3_600.0, 10_000.0),
            ] {
                axle.track_m = 1.55;
                axle.suspension.spring_rate_n_per_m = k;
                axle.suspension.travel_m = 0.25;
                axle.suspension.bump_damping_n_s_per_m = bump;
                axle.suspension.rebound_damping_n_s_per_m = rebound;
                axle.suspension.fast_bump_damping_n_s_per_m = bump / 2.0;
                axle.suspension.fast_rebound_damping_n_s_per_m = rebound / 2.0;
                axle.anti_roll_bar_n_per_m = arb;
                axle.wheel.radius_m = 0.31;
                axle.wheel.spin_inertia_kg_m2 = 0.8;
                axle.wheel.tyre_pressure_pa = 2.2e5;
            }
            p.steering.ratio = 12.0;
            p.steering.lock_deg = 360.0;
            p.brakes.max_torque_n_m = 6_000.0;
            p.brakes.bias_front = 0.6;
            p.brakes.handbrake_torque_n_m = 2_000.0;
            p.aero.drag_coefficient = 0.36;
            p.aero.frontal_area_m2 = 2.1;
        }
        _ => {
            p.front_tyre = "corvette-c5-front".into();
            p.rear_tyre = "corvette-c5-rear".into();
            p.powertrain.gearbox.mode = GearboxMode::HPattern;
        }
    }
    println!("{}", gripline_config::ron_text::to_pretty(&p).unwrap());
}

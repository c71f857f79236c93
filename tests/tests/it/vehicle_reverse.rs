//! A car rolling backwards in neutral slows down, with its wheels rolling with the road,
//! whatever its tyre model: no energy appears from the tyre-wheel coupling in reverse.

use gripline_formats::tyre_file::load_tyre;
use gripline_formats::vehicle_file::load_vehicle;
use gripline_physics::controls::Controls;
use gripline_physics::ground::FlatGround;
use gripline_physics::powertrain::GearboxMode;
use gripline_tests::{assets_dir, shipped_tyre_files};

#[test]
fn reverse_rolling_decays_for_every_tyre() {
    let path = assets_dir().join("vehicles/corvette-c5.ron");
    let loaded = load_vehicle(&path).unwrap();
    for tyre_path in shipped_tyre_files() {
        let tyre = load_tyre(&tyre_path).unwrap();
        let tire = tyre.tire.with_input_limits(true);
        let mut v =
            gripline_physics::vehicle::Vehicle::new(loaded.params.clone(), [tire.clone(), tire])
                .unwrap();
        v.powertrain_mut().set_mode(GearboxMode::Sequential);
        v.powertrain_mut().set_gear(0);
        let g = FlatGround::default();
        for _ in 0..500 {
            v.step(&Controls::default(), &g, 0.001);
        }
        v.set_forward_speed(-3.0);
        for _ in 0..3000 {
            v.step(&Controls::default(), &g, 0.001);
        }
        let s = v.snapshot();
        let name = &tyre.name;
        assert!(
            s.velocity_body.x > -3.0 && s.velocity_body.x < 0.0,
            "{name}: after 3 s rolling back from 3 m/s: {} m/s",
            s.velocity_body.x
        );
        for (w, radius) in s.wheels.iter().zip([0.315, 0.315, 0.339, 0.339]) {
            let rolling = s.velocity_body.x / radius;
            assert!(
                (w.spin_rad_per_s - rolling).abs() < 0.05 * rolling.abs() + 0.5,
                "{name}: wheel spins at {} rad/s, the road at {rolling}",
                w.spin_rad_per_s
            );
        }
    }
}

//! Standing still: static loads, settling, parking on the level and on a grade, landing.

use glam::DVec3;

use super::{DT, TiltedPlane, car, run};
use crate::controls::Controls;
use crate::ground::FlatGround;
use crate::vehicle::GRAVITY;

#[test]
fn explore() {
    let mut v = car();
    let g = FlatGround::default();
    let c = Controls::default();
    for k in 0..6 {
        run(&mut v, &c, &g, 0.5, DT);
        let s = v.snapshot();
        let loads: Vec<f64> = s.wheels.iter().map(|w| w.load_n).collect();
        eprintln!(
            "t={:.1} z={:.6} vz={:.2e} loads={:?} v={:?} spins={:?}",
            s.time_s,
            s.position.z,
            s.velocity_world.z,
            loads,
            s.velocity_world,
            s.wheels
                .iter()
                .map(|w| w.spin_rad_per_s)
                .collect::<Vec<_>>()
        );
        let _ = k;
    }
    let _ = (GRAVITY, DVec3::ZERO, TiltedPlane::grade_along_x(0.1));
}

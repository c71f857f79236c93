//! The driver model laps imported TORCS circuits (issue 12): forza, e-track-1 and aalborg,
//! each for at least one timed lap, the car's centre never further from the centre line than
//! half the narrowest road width less half the car's track (so its wheels stay on the road).
//! Needs Debian's `torcs-data`; without it the test prints why it skips.

use std::path::Path;

use gripline_sim::headless::{self, HeadlessOptions};
use gripline_torcs::track::convert::import_track;
use gripline_torcs::track::discover::find_track;

#[test]
fn the_driver_model_laps_three_imported_road_circuits_on_the_road() {
    if !Path::new("/usr/share/games/torcs/tracks").is_dir() {
        println!("skipped: /usr/share/games/torcs/tracks is absent (install Debian's torcs-data)");
        return;
    }
    // The C5's track widths: 1.575 m front, 1.577 m rear (its vehicle file).
    let half_car_m = 0.5 * 1.577;
    for name in ["forza", "e-track-1", "aalborg"] {
        let xml = find_track(name).expect("installed");
        let layout = import_track(&xml).expect("imports").layout;
        let narrowest_m = layout
            .centre_line
            .iter()
            .map(|p| p.width_m)
            .fold(f64::INFINITY, f64::min);
        let summary = headless::run(&HeadlessOptions {
            vehicle: "corvette-c5".into(),
            track: Some(format!("torcs:{name}")),
            scenario: "torcs-laps".into(),
            duration: Some(220.0),
            decimate: 1000,
            ..HeadlessOptions::default()
        })
        .unwrap_or_else(|e| panic!("{name}: {e:#}"));
        let m = &summary["metrics"];
        let laps = m["laps_completed"].as_u64().expect("laps");
        let offset = m["max_lateral_offset_m"].as_f64().expect("offset");
        println!(
            "{name}: {laps} laps, best {:.1} s, worst offset {offset:.2} m of {:.2} m allowed",
            m["best_lap_s"].as_f64().unwrap_or(f64::NAN),
            0.5 * narrowest_m - half_car_m
        );
        assert!(laps >= 1, "{name}: no lap completed: {m}");
        assert!(
            offset < 0.5 * narrowest_m - half_car_m,
            "{name}: {offset:.2} m off the centre line, the road is {narrowest_m:.1} m wide"
        );
    }
}

/// Surface mapping: a car rolled onto forza's grass is on Gripline's grass (every wheel says
/// so) and coasts to a stop faster than on the road, by at least the grass's extra rolling
/// resistance (0.03 of the load, `Surface::properties`; its loose drag adds more).
#[test]
fn a_car_on_imported_grass_gets_the_grass() {
    use glam::{DVec2, DVec3};
    use gripline_physics::controls::Controls;
    use gripline_physics::ground::{Ground, Surface};
    use gripline_physics::powertrain::GearboxMode;
    use gripline_physics::vehicle::GRAVITY;
    use gripline_sim::session::Session;

    if !Path::new("/usr/share/games/torcs/tracks").is_dir() {
        println!("skipped: /usr/share/games/torcs/tracks is absent (install Debian's torcs-data)");
        return;
    }
    let mut session = Session::load("corvette-c5", "torcs:forza").expect("forza");
    let path = session.autopilot().expect("a centre line").path().clone();
    let world = session.world().clone();
    let surface_at = |xy: DVec2| {
        world
            .ray_cast(xy.extend(1000.0), DVec3::NEG_Z, 2000.0)
            .filter(|hit| hit.normal.z > 6f64.to_radians().cos())
            .map(|hit| hit.surface)
    };
    // A straight stretch with 30 m of level grass (within 6°) to the left, 12 m beyond the
    // centre line, two metres either side of it too.
    let (start, heading) = (0..2000)
        .map(|i| f64::from(i) * 2.5)
        .find_map(|s| {
            let (p, t) = path.point_at(s);
            let left = t.perp();
            let on_grass = (0..=30).all(|k| {
                let (q, u) = path.point_at(s + f64::from(k));
                [10.0, 12.0, 14.0]
                    .iter()
                    .all(|&d| surface_at(q + u.perp() * d) == Some(Surface::Grass))
                    && path.curvature_at(s + f64::from(k), 5.0).abs() < 1e-3
            });
            on_grass.then(|| (p + left * 12.0, t.y.atan2(t.x)))
        })
        .expect("forza has grass beside a straight");
    let coast = |session: &mut Session, at: DVec2| {
        session.place(at, heading, GearboxMode::Automatic).unwrap();
        session.set_gear(0);
        session.set_forward_speed(10.0);
        let ticks = session.ticks_in(1.0);
        for _ in 0..ticks {
            session.step(&Controls::default());
        }
        (10.0 - session.forward_speed(), session.snapshot().wheels)
    };
    let (lost_on_grass, wheels) = coast(&mut session, start);
    assert!(
        wheels.iter().all(|w| w.surface == Surface::Grass),
        "{:?}",
        wheels.map(|w| w.surface)
    );
    let road = start - (start - path.project(start).point).normalize() * 12.0;
    let (lost_on_road, wheels) = coast(&mut session, road);
    assert!(wheels.iter().all(|w| w.surface != Surface::Grass));
    println!("speed lost in 1 s from 10 m/s: grass {lost_on_grass:.2} m/s, road {lost_on_road:.2}");
    assert!(
        lost_on_grass - lost_on_road > 0.03 * GRAVITY,
        "grass {lost_on_grass:.3} m/s, road {lost_on_road:.3} m/s"
    );
}

//! The car body against solid objects of any shape (`vehicle::solid_contact`): a building
//! struck head-on at 100 and 300 km/h, a pole narrower than the gap between the body's
//! points, a board with no thickness struck at 30° at 300 km/h, and nothing changed where no
//! solid is near.
//!
//! Expectations from the contact law (`vehicle::contact_response`): a head-on impact at speed
//! `u` on `n` contacts of stiffness `k` each is a spring-mass impact of stiffness `n k` on
//! the mass `m`: it reaches the depth `u sqrt(m / n k)`, and the car leaves at about `e u`.

use glam::DVec3;

use super::{DT, car, coast_in_neutral};
use crate::controls::Controls;
use crate::ground::{FlatGround, Ground, GroundHit, RayHint, Solids};
use crate::vehicle::Vehicle;

/// Flat asphalt with solid objects.
struct SolidPlane {
    plane: FlatGround,
    solids: Solids,
}

impl Ground for SolidPlane {
    fn ray_cast(&self, origin: DVec3, direction: DVec3, max_distance: f64) -> Option<GroundHit> {
        self.plane.ray_cast(origin, direction, max_distance)
    }

    fn ray_cast_hinted(
        &self,
        origin: DVec3,
        direction: DVec3,
        max_distance: f64,
        hint: &mut RayHint,
    ) -> Option<GroundHit> {
        self.plane
            .ray_cast_hinted(origin, direction, max_distance, hint)
    }

    fn solids(&self) -> Option<&Solids> {
        Some(&self.solids)
    }
}

/// A closed box from `lo` to `hi`, two triangles a face, wound at random (as scenes are).
fn box_triangles(lo: DVec3, hi: DVec3) -> Vec<[DVec3; 3]> {
    let c = |i: usize| {
        DVec3::new(
            if i & 1 == 0 { lo.x } else { hi.x },
            if i & 2 == 0 { lo.y } else { hi.y },
            if i & 4 == 0 { lo.z } else { hi.z },
        )
    };
    let quads = [
        [0, 1, 3, 2],
        [4, 5, 7, 6],
        [0, 1, 5, 4],
        [2, 6, 7, 3],
        [0, 4, 6, 2],
        [1, 3, 7, 5],
    ];
    quads
        .iter()
        .flat_map(|q| [[c(q[0]), c(q[1]), c(q[2])], [c(q[0]), c(q[2]), c(q[3])]])
        .collect()
}

fn plane_with(triangles: &[[DVec3; 3]]) -> SolidPlane {
    SolidPlane {
        plane: FlatGround::default(),
        solids: Solids::new(triangles, 1, 0.5, 0.2),
    }
}

/// The farthest the body's box reaches along `dir` (m), through its eight corners.
fn reach(v: &Vehicle, dir: DVec3) -> f64 {
    let p = v.params();
    let body = &p.body;
    let h = p.chassis.cg_height_m;
    let front = p.cg_to_front_axle_m() + body.front_overhang_m;
    let mut best = f64::MIN;
    for x in [front, front - body.length_m] {
        for y in [0.5 * body.width_m, -0.5 * body.width_m] {
            for z in [body.ground_clearance_m - h, body.height_m - h] {
                best = best.max(v.pose().world_point(DVec3::new(x, y, z)).dot(dir));
            }
        }
    }
    best
}

/// A car at the origin heading `heading_rad`, at rest on the plane.
fn placed(heading_rad: f64) -> Vehicle {
    let mut v = car();
    let pose = v.pose_at_rest(DVec3::ZERO, DVec3::Z, heading_rad);
    v.reset_to(pose);
    v
}

/// What a run into a solid records.
#[derive(Debug, Default)]
struct Impact {
    /// Deepest the body's box reached past `face` along -`normal` (m).
    deepest: f64,
    /// Whether any solid contact happened.
    touched: bool,
    /// Most solid contacts in one tick.
    most_contacts: u32,
    /// The CG's velocity 0.3 s after the first contact.
    velocity_after: DVec3,
    finite: bool,
    final_speed: f64,
}

/// Coasts `v` in neutral at `speed` along its heading into `ground`'s solids (a face at
/// `face` with outward unit `normal`), braking 0.3 s after the first contact; `seconds` long.
fn crash(
    v: &mut Vehicle,
    ground: &SolidPlane,
    speed: f64,
    face: DVec3,
    normal: DVec3,
    seconds: f64,
) -> Impact {
    let mut out = Impact {
        finite: true,
        ..Impact::default()
    };
    coast_in_neutral(v);
    v.set_forward_speed(speed);
    let mut contact_at: Option<usize> = None;
    let steps = (seconds / DT).round() as usize;
    for i in 0..steps {
        let leaving = contact_at.is_some_and(|t| i > t + 300);
        let controls = Controls {
            brake: if leaving { 1.0 } else { 0.0 },
            ..Controls::default()
        };
        v.step(&controls, ground, DT);
        let s = v.snapshot();
        out.most_contacts = out.most_contacts.max(s.solid_contacts);
        if s.solid_contacts > 0 && contact_at.is_none() {
            contact_at = Some(i);
            out.touched = true;
        }
        if contact_at.is_some_and(|t| i == t + 300) {
            out.velocity_after = v.body().velocity;
        }
        out.deepest = out.deepest.max(reach(v, -normal) + face.dot(normal));
        out.finite &= v.body().pose.position.is_finite() && v.body().velocity.is_finite();
    }
    out.final_speed = v.body().velocity.length();
    out
}

/// A building (10 m wide, 4 m deep, 3 m tall) across the car's path 5 m ahead, struck
/// head-on at 100 and 300 km/h: its four front corners meet the face, so the crush is the
/// spring-mass depth `u sqrt(m / 4k)` within 15 %, and the car ends in front of the face,
/// at rest. 300 km/h is 8.3 cm a tick; nothing but the swept test and the contact memory
/// keeps the points from passing the face.
#[test]
fn a_building_struck_head_on_at_100_and_300_km_h_stops_the_car_in_front_of_it() {
    for speed_km_h in [100.0, 300.0] {
        let mut v = placed(0.0);
        let x = reach(&v, DVec3::X) + 5.0;
        let ground = plane_with(&box_triangles(
            DVec3::new(x, -5.0, 0.0),
            DVec3::new(x + 4.0, 5.0, 3.0),
        ));
        let u = speed_km_h / 3.6;
        let r = crash(&mut v, &ground, u, DVec3::new(x, 0.0, 0.0), -DVec3::X, 8.0);
        let k4 = 4.0 * v.params().body.contact_stiffness_n_per_m;
        let depth = u * (v.mass_kg() / k4).sqrt();
        eprintln!(
            "{speed_km_h} km/h into a building: depth {:.3} m (spring-mass {depth:.3}), {} \
             contacts at most, rebound {:.2} m/s (e u = {:.2}), final speed {:.3}",
            r.deepest,
            r.most_contacts,
            -r.velocity_after.x,
            0.2 * u,
            r.final_speed
        );
        assert!(r.finite && r.touched);
        assert!(r.deepest < 1.15 * depth, "{}", r.deepest);
        assert!(reach(&v, DVec3::X) < x, "{:?}", v.pose());
        assert!(
            -r.velocity_after.x < 0.2 * u * 1.25 + 0.1,
            "{}",
            r.velocity_after
        );
        assert!(r.final_speed < 0.05, "{}", r.final_speed);
    }
}

/// A pole 20 cm square and 2 m tall, dead ahead of the middle of the bumper, where no body
/// point meets it (they stand at the box's corners and long edges): its two front edges
/// enter the box through its front face and stop the car, the crush the spring-mass depth
/// `u sqrt(m / 2k)` of those two within 25 % at 100 km/h (the rear edges join past 20 cm).
#[test]
fn a_pole_between_the_body_points_stops_the_car() {
    let mut v = placed(0.0);
    let x = reach(&v, DVec3::X) + 5.0;
    let ground = plane_with(&box_triangles(
        DVec3::new(x, -0.1, 0.0),
        DVec3::new(x + 0.2, 0.1, 2.0),
    ));
    let u = 100.0 / 3.6;
    let r = crash(&mut v, &ground, u, DVec3::new(x, 0.0, 0.0), -DVec3::X, 6.0);
    let k2 = 2.0 * v.params().body.contact_stiffness_n_per_m;
    let depth = u * (v.mass_kg() / k2).sqrt();
    eprintln!(
        "100 km/h into a pole: depth {:.3} m (two edges' spring-mass {depth:.3}), {} contacts \
         at most, final speed {:.3}",
        r.deepest, r.most_contacts, r.final_speed
    );
    assert!(r.finite && r.touched);
    assert!(r.deepest < 1.25 * depth, "{}", r.deepest);
    assert!(reach(&v, DVec3::X) < x + 0.2, "{:?}", v.pose());
    assert!(v.pose().position.x < x, "{:?}", v.pose());
    assert!(r.final_speed < 0.05, "{}", r.final_speed);
}

/// A board with no thickness (one quad, 40 m long, 2 m tall) struck at 300 km/h at 30°:
/// the car ends on its side of it (only the sides the points came from hold them).
#[test]
fn a_board_struck_at_300_km_h_at_30_degrees_is_not_passed() {
    let mut v = placed(30f64.to_radians());
    let x = reach(&v, DVec3::X) + 5.0;
    let quad = [
        [
            DVec3::new(x, -20.0, 0.0),
            DVec3::new(x, 40.0, 0.0),
            DVec3::new(x, 40.0, 2.0),
        ],
        [
            DVec3::new(x, -20.0, 0.0),
            DVec3::new(x, 40.0, 2.0),
            DVec3::new(x, -20.0, 2.0),
        ],
    ];
    let ground = plane_with(&quad);
    let r = crash(
        &mut v,
        &ground,
        300.0 / 3.6,
        DVec3::new(x, 0.0, 0.0),
        -DVec3::X,
        6.0,
    );
    eprintln!(
        "300 km/h at 30 deg into a board: depth {:.3} m, final speed {:.3}",
        r.deepest, r.final_speed
    );
    assert!(r.finite && r.touched);
    assert!(reach(&v, DVec3::X) < x, "{:?}", v.pose());
}

/// Solids that no body point or box reaches change nothing, bit for bit, even right beside
/// the car.
#[test]
fn solids_out_of_reach_change_nothing() {
    let controls = Controls {
        throttle: 0.6,
        ..Controls::default()
    };
    let mut a = placed(0.0);
    let mut b = placed(0.0);
    // A row of posts 30 cm beside the car's left side, along its path.
    let y = reach(&b, DVec3::Y) + 0.3;
    let posts: Vec<[DVec3; 3]> = (0..100)
        .flat_map(|i| {
            let x = f64::from(i) * 4.0 - 20.0;
            box_triangles(DVec3::new(x, y, 0.0), DVec3::new(x + 0.3, y + 0.3, 1.5))
        })
        .collect();
    let ground = plane_with(&posts);
    for _ in 0..3000 {
        a.step(&controls, &FlatGround::default(), DT);
        b.step(&controls, &ground, DT);
        assert_eq!(a.body(), b.body());
        assert_eq!(b.snapshot().solid_contacts, 0);
    }
    assert!(b.pose().position.x > 10.0, "{:?}", b.pose());
}

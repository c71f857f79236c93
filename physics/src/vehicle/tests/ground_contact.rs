//! The tyre meeting a mesh: the disc over a fold and a raised kerb, against the one-ray
//! contact with flat normals; and on a plane, the disc is the one ray to the bit.

use glam::{DQuat, DVec3};

use super::{DT, TiltedPlane, car, coast_in_neutral};
use crate::controls::Controls;
use crate::ground::{FlatGround, Ground, GroundHit, RayHint, Surface, TriangleMesh};
use crate::track::KerbSpec;
use crate::track::kerb::kerb_profile;
use crate::vehicle::RigidBody;
use crate::vehicle::tyre_envelope::{PROBES, TyrePatch};
use crate::vehicle::unsprung::WheelTravel;
use crate::vehicle::wheel::{ContactGeometry, Corner};

/// The ground as the contact saw it before smoothing: the mesh's flat triangle normals.
struct FlatNormals<'a>(&'a TriangleMesh);

impl Ground for FlatNormals<'_> {
    fn ray_cast(&self, origin: DVec3, direction: DVec3, max_distance: f64) -> Option<GroundHit> {
        self.0
            .ray_cast_triangle(origin, direction, max_distance)
            .map(|(t, hit)| GroundHit {
                normal: self.0.normals()[t],
                ..hit
            })
    }
}

/// A grid of strips along x at the given x positions and heights (one height per x), from
/// y = -5 to 5 m, cut at the y positions `ys`; `lift(x_index, y_index)` adds to a vertex.
fn strips(xs: &[f64], zs: &[f64], ys: &[f64], lift: impl Fn(usize, usize) -> f64) -> TriangleMesh {
    let cols = ys.len();
    let mut vertices = Vec::new();
    for (i, (&x, &z)) in xs.iter().zip(zs).enumerate() {
        for (j, &y) in ys.iter().enumerate() {
            vertices.push(DVec3::new(x, y, z + lift(i, j)));
        }
    }
    let mut triangles = Vec::new();
    for i in 0..xs.len() - 1 {
        for j in 0..cols - 1 {
            let a = (i * cols + j) as u32;
            let (b, c, d) = (a + 1, a + cols as u32, a + cols as u32 + 1);
            triangles.push([a, b, d]);
            triangles.push([a, d, c]);
        }
    }
    let surfaces = vec![Surface::Asphalt; triangles.len()];
    TriangleMesh::new(vertices, triangles, surfaces).expect("valid mesh")
}

/// One corner of the default car and its tyre's figures.
fn front_left() -> Corner {
    car().corners()[0]
}

/// The tyre load along a wheel moved at 100 km/h along +x at a fixed height over `ground`,
/// probing over `patch`, from `from_x` (m), one load per step of `dt` (s).
fn loads_along(
    ground: &impl Ground,
    patch: TyrePatch,
    from_x: f64,
    steps: usize,
    dt: f64,
) -> Vec<f64> {
    let corner = front_left();
    let m = corner.mount;
    let travel = m.static_travel();
    let speed = 100.0 / 3.6;
    let mut hints = [RayHint::default(); PROBES];
    let mut body = RigidBody {
        velocity: DVec3::new(speed, 0.0, 0.0),
        ..RigidBody::default()
    };
    (0..steps)
        .map(|k| {
            // The static wheel centre at the loaded radius over z = 0, 10 mm lower: a wheel
            // pressed 10 mm more than at rest, as a rig holds it.
            let centre_z = corner.radius - 0.01;
            body.pose.position = DVec3::new(
                from_x + speed * dt * k as f64 - m.hardpoint.x,
                -m.hardpoint.y,
                centre_z - m.hardpoint.z + (m.max_length_m - travel.compression_m),
            );
            let c = corner.find_contact_over(patch, &body, &travel, ground, &mut hints);
            m.tyre_normal_load(c.tyre_deflection_m, c.tyre_deflection_rate_m_per_s)
        })
        .collect()
}

fn largest_step(loads: &[f64]) -> f64 {
    loads
        .windows(2)
        .map(|w| (w[1] - w[0]).abs())
        .fold(0.0, f64::max)
}

#[test]
fn over_a_fold_the_disc_spreads_the_load_step_the_one_ray_jumps() {
    // Flat up to x = 0, then rising at 4 degrees: one fold between 20 m triangles.
    let theta = 4f64.to_radians();
    let mesh = strips(
        &[-20.0, 0.0, 20.0],
        &[0.0, 0.0, 20.0 * theta.tan()],
        &[-5.0, 5.0],
        |_, _| 0.0,
    );
    let corner = front_left();
    let (k, c) = (
        corner.mount.tyre_stiffness_n_per_m,
        corner.mount.tyre_damping_n_s_per_m,
    );
    let patch = corner.patch();
    let speed = 100.0 / 3.6;
    // The wheel centre on a rigid horizontal path at 100 km/h from 0.2 m before the fold to
    // 0.2 m after it, sampled every 0.1 ms (2.8 mm): a load that is continuous changes by
    // little from one sample to the next, a jump by all of itself.
    let dt = 1e-4;
    let steps = (0.4 / (speed * dt)) as usize;
    let one_ray = loads_along(
        &FlatNormals(&mesh),
        TyrePatch::of(0.0, 0.0),
        -0.2,
        steps,
        dt,
    );
    let disc = loads_along(&mesh, patch, -0.2, steps, dt);
    // Past the fold the deflection grows by v dt sin(theta) a sample (the path runs into
    // the slope).
    let ramp = k * speed * dt * theta.sin();
    // What the one ray adds at once where the normal turns: the damper sees the contact
    // climb at v sin(theta), and the centre's distance along the tilted normal shortens by
    // (R - δ)(1 - cos theta), R - δ the centre's height (δ the deflection at the fold).
    let deflection = one_ray[0] / k;
    let jump = c * speed * theta.sin()
        + k * (corner.mount.free_radius_m - deflection) * (1.0 - theta.cos());
    let one_step = largest_step(&one_ray);
    let disc_step = largest_step(&disc);
    eprintln!(
        "fold: one ray {one_step:.1} N, disc {disc_step:.1} N, ramp {ramp:.1} N, jump {jump:.1} N"
    );
    // The one ray jumps by all of it, plus at most a sample of the ramp (1 % for rounding).
    assert!(
        (one_step - jump) > -0.01 * jump && one_step < jump + ramp * 1.01,
        "one ray {one_step} N, jump {jump} N"
    );
    // The disc turns its plane while the patch's front and rear probes straddle the fold,
    // 2a / (v dt) = 40 samples: the jump is shared over them, 6 N a sample if evenly. Bound:
    // a sample of the ramp and a tenth of the jump (four even shares: the sharing is uneven,
    // the side probes crossing with the centre).
    assert!(2.0 * patch.half_length_m / (speed * dt) > 30.0);
    assert!(
        disc_step <= ramp + 0.1 * jump,
        "disc {disc_step} N against ramp {ramp} N + jump {jump} N / 10 (one ray {one_step} N)"
    );
    // Both end on the slope with the same load and load rate.
    let n = one_ray.len();
    assert!((one_ray[n - 1] - disc[n - 1]).abs() < 1e-6 * one_ray[n - 1]);
    assert!(((disc[n - 1] - disc[n - 2]) - ramp).abs() < 0.01 * ramp);
}

#[test]
fn on_a_plane_the_disc_is_the_one_ray_contact_to_the_bit() {
    let corner = front_left();
    let travel = corner.mount.static_travel();
    let tilted = TiltedPlane::grade_along_x(0.06);
    let mesh = strips(
        &[-20.0, 0.0, 20.0],
        &[0.0, 0.0, 0.0],
        &[-5.0, 0.0, 5.0],
        |_, _| 0.0,
    );
    let mut body = RigidBody {
        velocity: DVec3::new(12.0, -0.7, 0.3),
        angular_velocity: DVec3::new(0.1, -0.2, 0.3),
        ..RigidBody::default()
    };
    for (i, &(x, roll, pitch)) in [(-3.0, 0.0, 0.0), (1.0, 0.02, -0.03), (7.5, -0.04, 0.05)]
        .iter()
        .enumerate()
    {
        body.pose.orientation = DQuat::from_euler(glam::EulerRot::XYZ, roll, pitch, 0.3 * x);
        body.pose.position = DVec3::new(x, 0.4, 0.31 + 0.01 * i as f64);
        let mut lifted = body;
        lifted.pose.position.z += 0.06 * x;
        let pairs = [
            contact_pair(&corner, &body, &travel, &FlatGround::default()),
            contact_pair(&corner, &body, &travel, &mesh),
            contact_pair(&corner, &lifted, &travel, &tilted),
        ];
        for (disc, one_ray) in pairs {
            assert!(disc.contact);
            assert_eq!(disc, one_ray);
        }
    }
}

/// The contact of `corner` over its own patch and over a zero patch (the one ray).
fn contact_pair(
    corner: &Corner,
    body: &RigidBody,
    travel: &WheelTravel,
    ground: &impl Ground,
) -> (ContactGeometry, ContactGeometry) {
    let contact = |patch| {
        corner.find_contact_over(
            patch,
            body,
            travel,
            ground,
            &mut [RayHint::default(); PROBES],
        )
    };
    (contact(corner.patch()), contact(TyrePatch::of(0.0, 0.0)))
}

/// The default car rolling straight along +x at `speed` (m/s), coasting, its left wheels
/// over `ground`'s kerb; returns per tick (front-left load, column torque).
fn drive(ground: &TriangleMesh, speed: f64, seconds: f64) -> Vec<(f64, f64)> {
    let mut v = car();
    coast_in_neutral(&mut v);
    let pose = v.pose_at_rest(DVec3::new(-20.0, 0.0, 0.0), DVec3::Z, 0.0);
    v.reset_to(pose);
    v.set_forward_speed(speed);
    let steps = (seconds / DT).round() as usize;
    (0..steps)
        .map(|_| {
            v.step(&Controls::default(), ground, DT);
            let s = v.snapshot();
            (s.wheels[0].load_n, s.column_torque_n_m)
        })
        .collect()
}

#[test]
fn a_raised_kerb_is_felt_in_the_wheel_load_and_the_column() {
    // A 50 mm kerb of the shipped profile (1.2 m wide), lying across the road at x = 10 m
    // under the left wheels only (y > 0.2 m; the right wheels stay on flat road).
    let spec = KerbSpec {
        width_m: 1.2,
        height_m: 0.05,
        straight_surface: Surface::Asphalt,
    };
    let profile = kerb_profile(&spec, 1.0, true);
    let x0 = 10.0;
    let mut xs = vec![-40.0, x0];
    let mut zs = vec![0.0, 0.0];
    for (across, _) in profile {
        xs.push(x0 + across);
        zs.push(0.0);
    }
    xs.push(60.0);
    zs.push(0.0);
    let heights = [0.0, 0.0, profile[0].1, profile[1].1, profile[2].1, 0.0];
    let ys = [-5.0, 0.0, 0.2, 5.0];
    let kerb = strips(&xs, &zs, &ys, |i, j| if j >= 2 { heights[i] } else { 0.0 });
    let flat = strips(&xs, &zs, &ys, |_, _| 0.0);
    let speed = 50.0 / 3.6;
    let seconds = 3.0;
    let on_kerb = drive(&kerb, speed, seconds);
    let on_flat = drive(&flat, speed, seconds);
    let k = front_left().mount.tyre_stiffness_n_per_m;
    // The front wheels reach the kerb after (30 m - a) / v; compare from 1 s, when the
    // start-up transient has settled, on both grounds alike.
    let from = (1.0 / DT) as usize;
    let load_rise = on_kerb[from..]
        .iter()
        .zip(&on_flat[from..])
        .map(|(a, b)| a.0 - b.0)
        .fold(0.0, f64::max);
    let torque_change = on_kerb[from..]
        .iter()
        .zip(&on_flat[from..])
        .map(|(a, b)| (a.1 - b.1).abs())
        .fold(0.0, f64::max);
    eprintln!("kerb: load rise {load_rise:.0} N, column torque change {torque_change:.2} N·m");
    // The tyre alone pressed by the kerb's height: k h. The wheel (40 kg on the tyre's
    // spring, hop near 12 Hz) climbs the 250 mm ramp in 18 ms, about a quarter of its hop
    // period, so it is struck almost as by a step of velocity h v / ramp = 2.8 m/s, whose
    // peak load is that velocity times sqrt(k m): 0.79 k h. Band: 0.4 to 1.2 k h.
    let kh = k * spec.height_m;
    assert!(
        load_rise > 0.4 * kh && load_rise < 1.2 * kh,
        "load rise {load_rise} N against k h = {kh} N"
    );
    assert!(
        torque_change > 0.5,
        "column torque change {torque_change} N·m"
    );
    // Before the kerb the two runs are the same car on the same flat road.
    let before = ((x0 - 0.5 - (-20.0 + front_left().mount.hardpoint.x)) / speed / DT) as usize;
    assert!(before > from);
    for i in from..before {
        assert_eq!(on_kerb[i], on_flat[i], "tick {i}");
    }
}

/// A ground that answers every ray through `mesh`'s full query, knowing no sole faces, and
/// counts its face queries.
struct FullQueries<'a> {
    mesh: &'a TriangleMesh,
    sole_faces: bool,
    face_queries: std::cell::Cell<usize>,
}

impl Ground for FullQueries<'_> {
    fn ray_cast(&self, origin: DVec3, direction: DVec3, max_distance: f64) -> Option<GroundHit> {
        self.mesh.ray_cast(origin, direction, max_distance)
    }

    fn ray_cast_hinted(
        &self,
        origin: DVec3,
        direction: DVec3,
        max_distance: f64,
        hint: &mut RayHint,
    ) -> Option<GroundHit> {
        self.mesh
            .ray_cast_hinted(origin, direction, max_distance, hint)
    }

    fn ray_cast_face_hinted(
        &self,
        origin: DVec3,
        direction: DVec3,
        max_distance: f64,
        hint: &mut RayHint,
    ) -> Option<GroundHit> {
        self.face_queries.set(self.face_queries.get() + 1);
        self.mesh
            .ray_cast_face_hinted(origin, direction, max_distance, hint)
    }

    fn sole_face(&self, hint: RayHint) -> Option<crate::ground::SoleFace> {
        if self.sole_faces {
            self.mesh.sole_face(hint)
        } else {
            None
        }
    }
}

/// The patch probes meeting the centre face's plane ([`Ground::sole_face`]) give the patch
/// the full queries give, to rounding (1e-12 m, 1e-12 in the normal), over a wander of a
/// wheel across folded ground (4 m triangles, folds of 2-5 degrees, where the smooth normal
/// under the centre differs from the faces', so the probes' heights are not zero), while
/// most probes take that path.
#[test]
fn probes_on_the_centre_face_give_the_patch_the_full_queries_give() {
    let xs: Vec<f64> = (0..=12).map(|i| -24.0 + 4.0 * f64::from(i)).collect();
    let zs: Vec<f64> = (0..=12).map(|i| 0.3 * (0.7 * f64::from(i)).sin()).collect();
    let ys: Vec<f64> = (0..=5).map(|j| -5.0 + 2.0 * f64::from(j)).collect();
    let mesh = strips(&xs, &zs, &ys, |i, j| 0.05 * ((i * 7 + j * 3) % 5) as f64);
    let [with, without] = [true, false].map(|sole_faces| FullQueries {
        mesh: &mesh,
        sole_faces,
        face_queries: std::cell::Cell::new(0),
    });
    let patch = TyrePatch::of(0.33, 0.015);
    let (mut hints_with, mut hints_without) =
        ([RayHint::default(); PROBES], [RayHint::default(); PROBES]);
    let mut worst = (0.0_f64, 0.0_f64);
    let mut lifted = 0;
    let steps: u32 = 1500;
    for k in 0..steps {
        let s = f64::from(k);
        let q = DQuat::from_euler(
            glam::EulerRot::XYZ,
            0.02 * (0.01 * s).sin(),
            -0.03,
            0.2 * (0.003 * s).sin(),
        );
        let axis = q.mul_vec3(-DVec3::Z);
        let x = -20.0 + 0.025 * s;
        let hardpoint = DVec3::new(x, 3.0 * (0.002 * s).sin(), 1.0);
        let wheel = (hardpoint, axis, q);
        let fast =
            crate::vehicle::tyre_envelope::probe(&with, wheel, 1.5, patch, 0.3, &mut hints_with)
                .expect("ground below");
        let full = crate::vehicle::tyre_envelope::probe(
            &without,
            wheel,
            1.5,
            patch,
            0.3,
            &mut hints_without,
        )
        .expect("ground below");
        assert_eq!(fast.centre, full.centre);
        worst.0 = worst.0.max((fast.lift_m - full.lift_m).abs());
        worst.1 = worst.1.max((fast.normal - full.normal).length());
        assert!(fast.lift_m.is_finite() && fast.normal.is_finite());
        if full.lift_m != 0.0 {
            lifted += 1;
        }
    }
    assert!(worst.0 < 1e-12 && worst.1 < 1e-12, "{worst:?}");
    // The probes see the folds and the smooth normal's tilt ...
    assert!(
        lifted * 2 > steps,
        "{lifted} of {steps} patches off the centre's plane"
    );
    let (fast_queries, full_queries) = (with.face_queries.get(), without.face_queries.get());
    assert_eq!(full_queries, 4 * steps as usize);
    // ... and most probes meet the centre's plane: a probe leaves the centre's face only
    // within its reach (0.1 m) of an edge.
    assert!(
        fast_queries * 4 < full_queries,
        "{fast_queries} of {full_queries}"
    );
}

//! The track's barriers as triangles, read from the physics barriers
//! ([`gripline_physics::track::Barrier`]) and never recomputed: the foot of each face is the
//! barrier's own points, the top is `height_m` above them, and the thickness runs along its
//! `outward` vectors, so what the driver sees is exactly what the car body meets.
//!
//! - A **wall** is a concrete face towards the road with red and white blocks along its foot,
//!   a top and a back face (carried a little below the foot, where the ground beyond the
//!   run-off ends), and end caps where the wall stops.
//! - A **fence** is posts every [`FENCE_POST_SPACING_M`] and three rails, both faces drawn.
//!
//! All triangles are matte props: they cast shadows and are culled by tiles with the rest of
//! the roadside. A segment with a non-finite point is left out.

use glam::{DVec3, Vec3};
use gripline_physics::track::{Barrier, BarrierKind};

use crate::mesh::{MeshBuilder, material};

/// Distance between a fence's posts along it (m).
pub const FENCE_POST_SPACING_M: f64 = 3.0;
/// Height of the red and white blocks at a wall's foot (m).
pub const WALL_STRIPE_HEIGHT_M: f64 = 0.25;
/// Length of one block of the wall's foot stripe (m).
const WALL_BLOCK_M: f64 = 2.0;
/// Depth to which a wall's back face and caps reach below its foot (m).
const BACK_DROP_M: f64 = 1.5;

const CONCRETE_FACE: [f32; 3] = [0.6, 0.6, 0.58];
const CONCRETE_TOP: [f32; 3] = [0.72, 0.72, 0.7];
const CONCRETE_BACK: [f32; 3] = [0.48, 0.48, 0.46];
const STRIPE_RED: [f32; 3] = [0.72, 0.06, 0.04];
const STRIPE_WHITE: [f32; 3] = [0.9, 0.9, 0.9];
const FENCE_METAL: [f32; 3] = [0.42, 0.44, 0.46];

/// A quad `q`, its winding flipped if needed so that its front faces along `facing`.
pub(crate) fn quad_facing(mesh: &mut MeshBuilder, q: [Vec3; 4], facing: Vec3, color: [f32; 3]) {
    let n = (q[1] - q[0]).cross(q[2] - q[0]) + (q[2] - q[0]).cross(q[3] - q[0]);
    let q = if n.dot(facing) < 0.0 {
        [q[3], q[2], q[1], q[0]]
    } else {
        q
    };
    mesh.quad(q, color, material::MATTE);
}

/// Adds the triangles of every barrier; `local` maps a world point to mesh coordinates.
pub fn add_barriers(mesh: &mut MeshBuilder, barriers: &[Barrier], local: &impl Fn(DVec3) -> Vec3) {
    for barrier in barriers {
        match barrier.spec.kind {
            BarrierKind::Wall => add_wall(mesh, barrier, local),
            BarrierKind::Fence => add_fence(mesh, barrier, local),
        }
    }
}

/// Consecutive point pairs of `barrier` (the closing pair too on a closed one), with the
/// path distance of the pair's start, leaving out pairs with a non-finite value.
fn segments(barrier: &Barrier) -> Vec<(usize, usize, f64)> {
    let n = barrier.points.len().min(barrier.outward.len());
    if n < 2 {
        return Vec::new();
    }
    let pairs = if barrier.closed { n } else { n - 1 };
    let mut out = Vec::with_capacity(pairs);
    let mut along = 0.0;
    for i in 0..pairs {
        let j = (i + 1) % n;
        let ok = [
            barrier.points[i],
            barrier.points[j],
            barrier.outward[i],
            barrier.outward[j],
        ]
        .iter()
        .all(|v| v.is_finite());
        if ok {
            out.push((i, j, along));
            along += (barrier.points[j] - barrier.points[i]).length();
        }
    }
    out
}

fn add_wall(mesh: &mut MeshBuilder, barrier: &Barrier, local: &impl Fn(DVec3) -> Vec3) {
    let spec = &barrier.spec;
    let (h, t) = (spec.height_m, spec.thickness_m.max(0.0));
    if !(h.is_finite() && h > 0.0 && t.is_finite()) {
        return;
    }
    let up = DVec3::Z;
    let stripe = WALL_STRIPE_HEIGHT_M.min(0.5 * h);
    for (i, j, along) in segments(barrier) {
        let (p0, p1) = (barrier.points[i], barrier.points[j]);
        let (o0, o1) = (barrier.outward[i], barrier.outward[j]);
        let towards_road = -(o0 + o1).as_vec3();
        // The face: the foot stripe, then concrete to the top.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let block = ((along + 0.5 * (p1 - p0).length()) / WALL_BLOCK_M).floor() as u64;
        let stripe_colour = if block.is_multiple_of(2) {
            STRIPE_RED
        } else {
            STRIPE_WHITE
        };
        let at = |p: DVec3, z: f64| local(p + up * z);
        quad_facing(
            mesh,
            [at(p0, 0.0), at(p1, 0.0), at(p1, stripe), at(p0, stripe)],
            towards_road,
            stripe_colour,
        );
        quad_facing(
            mesh,
            [at(p0, stripe), at(p1, stripe), at(p1, h), at(p0, h)],
            towards_road,
            CONCRETE_FACE,
        );
        let (b0, b1) = (p0 + o0 * t, p1 + o1 * t);
        if t >= 1e-3 {
            quad_facing(
                mesh,
                [at(p0, h), at(p1, h), at(b1, h), at(b0, h)],
                Vec3::Z,
                CONCRETE_TOP,
            );
        }
        // The back, down below the foot where the ground ends.
        quad_facing(
            mesh,
            [
                at(b0, -BACK_DROP_M),
                at(b1, -BACK_DROP_M),
                at(b1, h),
                at(b0, h),
            ],
            -towards_road,
            CONCRETE_BACK,
        );
    }
    // End caps where an open wall stops.
    if !barrier.closed && t >= 1e-3 {
        let n = barrier.points.len().min(barrier.outward.len());
        for (k, other) in [(0usize, 1usize), (n.saturating_sub(1), n.saturating_sub(2))] {
            let (Some(&p), Some(&o), Some(&q)) = (
                barrier.points.get(k),
                barrier.outward.get(k),
                barrier.points.get(other),
            ) else {
                continue;
            };
            if !(p.is_finite() && o.is_finite() && q.is_finite()) || k == other {
                continue;
            }
            let b = p + o * t;
            let at = |p: DVec3, z: f64| local(p + up * z);
            quad_facing(
                mesh,
                [at(p, -BACK_DROP_M), at(b, -BACK_DROP_M), at(b, h), at(p, h)],
                (p - q).as_vec3(),
                CONCRETE_FACE,
            );
        }
    }
}

/// A box of `half_width` about the vertical axis through `foot`, from `z0` to `z1` above it,
/// aligned with `along`.
fn post(
    mesh: &mut MeshBuilder,
    foot: DVec3,
    along: DVec3,
    half_width: f64,
    (z0, z1): (f64, f64),
    local: &impl Fn(DVec3) -> Vec3,
) {
    let Some(x) = DVec3::new(along.x, along.y, 0.0).try_normalize() else {
        return;
    };
    let y = DVec3::Z.cross(x);
    let corners = [(1.0, -1.0), (1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0)]
        .map(|(a, b)| foot + (x * a + y * b) * half_width);
    let bottom = corners.map(|c| local(c + DVec3::Z * z0));
    let top = corners.map(|c| local(c + DVec3::Z * z1));
    mesh.hexahedron(bottom, top, FENCE_METAL, material::MATTE);
}

fn add_fence(mesh: &mut MeshBuilder, barrier: &Barrier, local: &impl Fn(DVec3) -> Vec3) {
    let h = barrier.spec.height_m;
    if !(h.is_finite() && h > 0.0) {
        return;
    }
    let up = DVec3::Z;
    let rail = 0.06f64.min(0.2 * h);
    let mut next_post = 0.0;
    let segs = segments(barrier);
    for &(i, j, along) in &segs {
        let (p0, p1) = (barrier.points[i], barrier.points[j]);
        let (o0, o1) = (barrier.outward[i], barrier.outward[j]);
        let towards_road = -(o0 + o1).as_vec3();
        if along >= next_post {
            post(mesh, p0, p1 - p0, 0.04, (-0.3, h), local);
            next_post = along + FENCE_POST_SPACING_M;
        }
        for level in [0.15, 0.55, 1.0] {
            let z1 = level * h;
            let z0 = z1 - rail;
            let q = [
                local(p0 + up * z0),
                local(p1 + up * z0),
                local(p1 + up * z1),
                local(p0 + up * z1),
            ];
            quad_facing(mesh, q, towards_road, FENCE_METAL);
            quad_facing(mesh, q, -towards_road, FENCE_METAL);
        }
    }
    // A post at the far end of an open fence.
    if let (false, Some(&(i, j, _))) = (barrier.closed, segs.last()) {
        let (p0, p1) = (barrier.points[i], barrier.points[j]);
        post(mesh, p1, p1 - p0, 0.04, (-0.3, h), local);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gripline_physics::ground::Surface;
    use gripline_physics::track::{
        BarrierSpec, ControlPoint, KerbSpec, TrackLayout, TrackMesh, VergeBand,
    };

    /// A small closed loop (a rounded square, some 400 m round) with a wall all round.
    fn walled_loop(kind: BarrierKind) -> TrackMesh {
        let corners = [(0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (0.0, 100.0)];
        let mut centre_line = Vec::new();
        for (k, &(x, y)) in corners.iter().enumerate() {
            let (nx, ny) = corners[(k + 1) % 4];
            for t in [0.2, 0.5, 0.8] {
                centre_line.push(ControlPoint {
                    x_m: x + (nx - x) * t,
                    y_m: y + (ny - y) * t,
                    z_m: 2.0 * (x + (nx - x) * t) / 100.0,
                    banking_deg: 0.0,
                    width_m: 10.0,
                });
            }
        }
        let layout = TrackLayout {
            closed: true,
            centre_line,
            kerb: Some(KerbSpec {
                width_m: 1.0,
                height_m: 0.0,
                straight_surface: Surface::Asphalt,
            }),
            verge: vec![VergeBand {
                surface: Surface::Grass,
                width_m: 5.0,
                slope_pct: -3.0,
                corner_surface: None,
            }],
            barriers: Some(BarrierSpec {
                thickness_m: 0.5,
                kind,
                ..BarrierSpec::wall(1.2)
            }),
            ..TrackLayout::default()
        };
        layout.build_mesh().expect("mesh")
    }

    fn nearest(mesh: &MeshBuilder, p: Vec3) -> f32 {
        mesh.vertices
            .iter()
            .map(|v| Vec3::from(v.position).distance(p))
            .fold(f32::INFINITY, f32::min)
    }

    #[test]
    fn wall_faces_stand_on_the_physics_points_and_reach_their_height() {
        let track = walled_loop(BarrierKind::Wall);
        assert_eq!(track.barriers.len(), 2);
        let origin = DVec3::new(50.0, 50.0, 0.0);
        let local = |p: DVec3| (p - origin).as_vec3();
        let mut mesh = MeshBuilder::new();
        add_barriers(&mut mesh, &track.barriers, &local);
        assert!(mesh.triangle_count() > 4 * track.barriers[0].points.len());
        for b in &track.barriers {
            for (p, o) in b.points.iter().zip(&b.outward) {
                let h = b.spec.height_m;
                // Foot and top of the face, and the top of the back: within 1 mm.
                for q in [*p, *p + DVec3::Z * h, *p + *o * 0.5 + DVec3::Z * h] {
                    let d = nearest(&mesh, local(q));
                    assert!(d < 1e-3, "{q}: nearest vertex {d} m away");
                }
            }
        }
        // Every face towards the road has its normal pointing at the road (the face is lit
        // and not culled from the road side).
        let b = &track.barriers[0];
        let towards = -b.outward[0].as_vec3();
        let foot = local(b.points[0]);
        let facing = mesh
            .vertices
            .chunks_exact(3)
            .filter(|t| {
                t.iter()
                    .all(|v| Vec3::from(v.position).distance(foot) < 3.0)
            })
            .any(|t| Vec3::from(t[0].normal).dot(towards) > 0.99);
        assert!(facing);
        // No vertex is higher than the wall's top.
        let top = b
            .points
            .iter()
            .map(|p| local(*p).z + 1.2)
            .fold(f32::MIN, f32::max);
        assert!(mesh.vertices.iter().all(|v| v.position[2] <= top + 1e-3));
    }

    #[test]
    fn fences_have_posts_and_rails_up_to_their_height() {
        let track = walled_loop(BarrierKind::Fence);
        let local = |p: DVec3| p.as_vec3();
        let mut mesh = MeshBuilder::new();
        add_barriers(&mut mesh, &track.barriers, &local);
        for b in &track.barriers {
            for p in &b.points {
                let d = nearest(&mesh, local(*p + DVec3::Z * b.spec.height_m));
                assert!(d < 1e-3);
            }
        }
    }

    #[test]
    fn non_finite_points_are_left_out() {
        let mut track = walled_loop(BarrierKind::Wall);
        track.barriers[0].points[3] = DVec3::NAN;
        track.barriers[1].outward[5] = DVec3::new(f64::INFINITY, 0.0, 0.0);
        track.barriers[1].spec.height_m = f64::NAN;
        let mut mesh = MeshBuilder::new();
        add_barriers(&mut mesh, &track.barriers, &|p: DVec3| p.as_vec3());
        assert!(mesh.triangle_count() > 0);
        assert!(
            mesh.vertices
                .iter()
                .all(|v| v.position.iter().all(|c| c.is_finite()))
        );
    }
}

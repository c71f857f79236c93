//! The track as triangles for the GPU: the ground mesh with a material per surface, painted
//! edge lines and a start line generated from the centre line, cones and marker boards, and a
//! far ground plane so the horizon is never empty; apart from these, the roadside: the
//! barriers ([`crate::barrier_geometry`]) and the braking boards, trees and buildings
//! ([`crate::roadside`]) of the generated track, which an imported scene replaces.
//!
//! Positions are stored relative to the track's `origin` (the centre of its bounds) in `f32`:
//! a few kilometres from it they are still precise to a fraction of a millimetre, and the
//! renderer adds `origin - eye` in `f64` each frame.

use glam::{DVec3, Mat4, Vec3};
use gripline_physics::ground::Surface;
use gripline_physics::track::{ObjectKind, TrackMesh};

use crate::barrier_geometry::add_barriers;
use crate::mesh::{MeshBuilder, material};
use crate::roadside::{Detail, add_roadside};
use crate::roadside_placement::place_roadside;

/// Distance the far ground plane extends beyond the track's bounds (m).
const FAR_GROUND_MARGIN_M: f64 = 6000.0;

/// The track's triangles and the origin they are relative to.
#[derive(Debug, Clone)]
pub struct TrackGeometry {
    /// World position of the mesh's origin (m).
    pub origin: DVec3,
    /// The triangles, relative to `origin`.
    pub mesh: MeshBuilder,
    /// The barriers, braking boards, trees and buildings (matte props), relative to
    /// `origin`; not drawn over an imported scene, which has its own.
    pub roadside: MeshBuilder,
    /// The same with far trees ([`Detail::Far`]), drawn beyond the detail distance.
    pub roadside_far: MeshBuilder,
}

/// Material id of a surface.
pub fn surface_material(surface: Surface) -> u32 {
    match surface {
        Surface::Asphalt => material::ASPHALT,
        Surface::WetAsphalt => material::WET_ASPHALT,
        Surface::Concrete => material::CONCRETE,
        Surface::Kerb => material::KERB,
        Surface::Grass => material::GRASS,
        Surface::Gravel => material::GRAVEL,
        Surface::Sand => material::SAND,
        Surface::Ice => material::ICE,
    }
}

impl TrackGeometry {
    /// Builds the triangles of `track`.
    #[allow(clippy::cast_possible_truncation)]
    pub fn new(track: &TrackMesh) -> Self {
        let (lo, hi) = track.ground.bounds();
        let origin = if lo.is_finite() && hi.is_finite() {
            DVec3::new(0.5 * (lo.x + hi.x), 0.5 * (lo.y + hi.y), lo.z)
        } else {
            DVec3::ZERO
        };
        let local = |p: DVec3| (p - origin).as_vec3();
        let mut mesh = MeshBuilder::new();
        let vertices = track.ground.vertices();
        let mut hint = 0usize;
        for (tri, &surface) in track.ground.triangles().iter().zip(track.ground.surfaces()) {
            let [a, b, c] = tri.map(|i| vertices.get(i as usize).copied().unwrap_or(origin));
            // Counter-clockwise seen from above, whatever the source winding.
            let (b, c) = if (b - a).cross(c - a).z < 0.0 {
                (c, b)
            } else {
                (b, c)
            };
            let uv = if surface == Surface::Kerb {
                [a, b, c].map(|p| {
                    track
                        .centre_line
                        .project_near(p, hint, 24)
                        .map_or([0.0, 0.0], |proj| {
                            hint = proj.segment;
                            [proj.distance_m as f32, proj.lateral_m as f32]
                        })
                })
            } else {
                [[0.0; 2]; 3]
            };
            mesh.triangle_uv(
                [local(a), local(b), local(c)],
                uv,
                [1.0; 3],
                surface_material(surface),
            );
        }
        add_markings(&mut mesh, track, &local);
        add_objects(&mut mesh, track, &local);
        // The far ground: a big grass plane a little below the lowest point of the track.
        let m = FAR_GROUND_MARGIN_M;
        let z = -0.6f32;
        let (x0, x1) = ((lo.x - origin.x - m) as f32, (hi.x - origin.x + m) as f32);
        let (y0, y1) = ((lo.y - origin.y - m) as f32, (hi.y - origin.y + m) as f32);
        if [x0, x1, y0, y1].iter().all(|v| v.is_finite()) {
            mesh.quad(
                [
                    Vec3::new(x0, y0, z),
                    Vec3::new(x1, y0, z),
                    Vec3::new(x1, y1, z),
                    Vec3::new(x0, y1, z),
                ],
                [1.0; 3],
                material::FAR_GROUND,
            );
        }
        let items = place_roadside(track);
        let [roadside, roadside_far] = [Detail::Near, Detail::Far].map(|detail| {
            let mut roadside = MeshBuilder::new();
            add_barriers(&mut roadside, &track.barriers, &local);
            add_roadside(&mut roadside, &items, &local, detail);
            roadside
        });
        Self {
            origin,
            mesh,
            roadside,
            roadside_far,
        }
    }
}

/// White edge lines along both road edges and a start line on a closed track.
#[allow(clippy::cast_possible_truncation)]
fn add_markings(mesh: &mut MeshBuilder, track: &TrackMesh, local: &impl Fn(DVec3) -> Vec3) {
    let samples = track.centre_line.samples();
    if samples.len() < 2 {
        return;
    }
    let lift = 0.012;
    let line_w = 0.15;
    let white = [1.0; 3];
    let pairs = samples.len() - 1 + usize::from(track.centre_line.is_closed());
    for k in 0..pairs {
        let (s0, s1) = (&samples[k], &samples[(k + 1) % samples.len()]);
        for side in [-1.0, 1.0] {
            let off = |s: &gripline_physics::track::CentreLineSample, d: f64| {
                local(s.position + s.left * side * (0.5 * s.width_m - 0.3 - d) + s.normal * lift)
            };
            let (a0, a1) = (off(s0, 0.0), off(s0, line_w));
            let (b0, b1) = (off(s1, 0.0), off(s1, line_w));
            mesh.quad([a0, b0, b1, a1], white, material::PAINT);
        }
    }
    if track.centre_line.is_closed() {
        let s = &samples[0];
        let half = 0.5 * s.width_m - 0.3;
        let p = |along: f64, across: f64| {
            local(s.position + s.tangent * along + s.left * across + s.normal * lift)
        };
        // A chequered start line: two rows of squares.
        let cells = (2.0 * half / 0.5).floor().max(2.0);
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let n = cells as usize;
        let cell = 2.0 * half / cells;
        for i in 0..n {
            for row in 0..2 {
                let colour = if (i + row).is_multiple_of(2) {
                    white
                } else {
                    [0.02; 3]
                };
                let y0 = -half + cell * i as f64;
                let x0 = if row == 0 { -cell } else { 0.0 };
                mesh.quad(
                    [
                        p(x0, y0),
                        p(x0 + cell, y0),
                        p(x0 + cell, y0 + cell),
                        p(x0, y0 + cell),
                    ],
                    colour,
                    material::PAINT,
                );
            }
        }
    }
}

/// Cones (orange, white band, black base) and marker boards (white board on a post).
#[allow(clippy::cast_possible_truncation)]
fn add_objects(mesh: &mut MeshBuilder, track: &TrackMesh, local: &impl Fn(DVec3) -> Vec3) {
    let orange = [0.9, 0.18, 0.01];
    let white = [0.85; 3];
    let black = [0.02; 3];
    let mut hint = 0usize;
    for object in &track.objects {
        if !object.position.is_finite() {
            continue;
        }
        let base = local(object.position);
        match object.kind {
            ObjectKind::Cone => {
                mesh.set_transform(Some(Mat4::from_translation(base)));
                mesh.cuboid(
                    Vec3::new(-0.19, -0.19, 0.0),
                    Vec3::new(0.19, 0.19, 0.03),
                    black,
                    material::MATTE,
                );
                let rings = [
                    (0.03, 0.16, orange),
                    (0.32, 0.11, white),
                    (0.45, 0.085, orange),
                    (0.7, 0.025, orange),
                ];
                for w in rings.windows(2) {
                    frustum(mesh, w[0].0, w[1].0, w[0].1, w[1].1, w[0].2);
                }
                mesh.set_transform(None);
            }
            ObjectKind::Marker => {
                let facing = track
                    .centre_line
                    .project_near(object.position, hint, 24)
                    .map_or(DVec3::X, |p| {
                        hint = p.segment;
                        p.tangent
                    });
                let yaw = facing.y.atan2(facing.x) as f32;
                mesh.set_transform(Some(
                    Mat4::from_translation(base) * Mat4::from_rotation_z(yaw),
                ));
                mesh.cuboid(
                    Vec3::new(-0.04, -0.04, 0.0),
                    Vec3::new(0.04, 0.04, 1.2),
                    [0.3; 3],
                    material::MATTE,
                );
                mesh.cuboid(
                    Vec3::new(-0.03, -0.35, 0.8),
                    Vec3::new(0.03, 0.35, 1.4),
                    white,
                    material::MATTE,
                );
                mesh.cuboid(
                    Vec3::new(-0.035, -0.3, 1.05),
                    Vec3::new(0.035, 0.3, 1.15),
                    black,
                    material::MATTE,
                );
                mesh.set_transform(None);
            }
        }
    }
}

/// A truncated cone about z from `z0` (radius `r0`) to `z1` (radius `r1`).
fn frustum(mesh: &mut MeshBuilder, z0: f32, z1: f32, r0: f32, r1: f32, color: [f32; 3]) {
    let n = 12;
    let p = |k: u32, r: f32, z: f32| {
        let a = std::f32::consts::TAU * k as f32 / n as f32;
        Vec3::new(r * a.cos(), r * a.sin(), z)
    };
    for k in 0..n {
        mesh.quad(
            [
                p(k, r0, z0),
                p(k + 1, r0, z0),
                p(k + 1, r1, z1),
                p(k, r1, z1),
            ],
            color,
            material::MATTE,
        );
    }
}

/// Splits the track mesh into ground (surfaces, markings, far plane: no shadows cast) and
/// objects (matte vertex-coloured props, which cast shadows).
pub(crate) fn split_props(mesh: &MeshBuilder) -> (MeshBuilder, MeshBuilder) {
    let mut ground = MeshBuilder::new();
    let mut props = MeshBuilder::new();
    for tri in mesh.vertices.chunks_exact(3) {
        if tri[0].material == crate::mesh::material::MATTE {
            props.vertices.extend_from_slice(tri);
        } else {
            ground.vertices.extend_from_slice(tri);
        }
    }
    (ground, props)
}

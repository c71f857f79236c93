//! Roadside furniture as triangles: the braking boards, trees and buildings placed by the
//! track's rules ([`RoadsideItem`], from [`crate::roadside_placement`]).
//!
//! - A **braking board** is a white board on two posts facing the oncoming traffic, its
//!   distance in black seven-segment digits ("300", "200", "100"). Digits rather than the
//!   3/2/1 stripes some circuits use: they say the distance itself, for any distance a track
//!   file asks for (150 m has no stripe count), and a driver new to the track needs no code.
//! - A **tree** is low-poly: a trunk and two or three crowns (stacked cones for a conifer,
//!   icosahedral blobs for a broad-leaved tree, tall cones for a poplar), its variant, size,
//!   yaw and greens drawn from its seed. The trunk reaches a little below its base, so a
//!   tree on uneven ground does not float.
//! - A **building** is a pit building (a block with a window band and garage doors facing
//!   the road, a darker roof) or a grandstand (stepped rows of coloured seats under a roof
//!   on posts).
//!
//! Every triangle is a matte prop (casts shadows). The furniture is batched with the barriers
//! into one mesh that the scene groups into tiles for frustum culling.

use glam::{DVec3, Mat4, Vec3};
use gripline_physics::track::BuildingStyle;

use crate::barrier_geometry::quad_facing;
use crate::mesh::{MeshBuilder, material};
use crate::roadside_placement::{RoadsideItem, RoadsideKind, mix};

/// Height of a braking board's lower edge above the ground (m).
pub const BOARD_BOTTOM_M: f32 = 0.8;
/// Height of a braking board (m).
pub const BOARD_HEIGHT_M: f32 = 1.4;
/// Width of a braking board (m).
pub const BOARD_WIDTH_M: f32 = 2.0;

const BOARD_WHITE: [f32; 3] = [0.92, 0.92, 0.9];
const BOARD_BACK: [f32; 3] = [0.3, 0.3, 0.3];
const DIGIT_BLACK: [f32; 3] = [0.02, 0.02, 0.02];
const POST_GREY: [f32; 3] = [0.35, 0.35, 0.35];
const TRUNK_BROWN: [f32; 3] = [0.28, 0.18, 0.1];

/// How finely repeated objects (trees) are built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detail {
    /// In full (about 35 to 70 triangles a tree), for the tiles near the camera.
    Near,
    /// A few triangles a tree (a three-sided trunk and a four-sided crown, about 14), for
    /// the tiles beyond [`crate::RenderSettings::detail_distance_m`], where a tree covers a
    /// few pixels: on a software rasteriser the full trees cost as much as the rest of the
    /// frame.
    Far,
}

/// Adds every roadside item at `detail`; `local` maps a world point to mesh coordinates.
pub fn add_roadside(
    mesh: &mut MeshBuilder,
    items: &[RoadsideItem],
    local: &impl Fn(DVec3) -> Vec3,
    detail: Detail,
) {
    for item in items {
        if !(item.position.is_finite() && item.along.is_finite() && item.outward.is_finite()) {
            continue;
        }
        match item.kind {
            RoadsideKind::BrakingBoard { distance_m, .. } => {
                add_board(mesh, item, distance_m, local);
            }
            RoadsideKind::Tree { seed } => match detail {
                Detail::Near => add_tree(mesh, local(item.position), seed),
                Detail::Far => add_far_tree(mesh, local(item.position), seed),
            },
            RoadsideKind::Building {
                style,
                length_m,
                depth_m,
                height_m,
            } => {
                #[allow(clippy::cast_possible_truncation)]
                let size = Vec3::new(length_m as f32, depth_m as f32, height_m as f32);
                if size.is_finite() && size.min_element() > 0.0 {
                    add_building(mesh, item, style, size, local);
                }
            }
        }
    }
    mesh.set_transform(None);
}

/// A right-handed frame at `origin` whose x axis is `x` (made horizontal) and z is up.
fn frame(origin: Vec3, x: DVec3) -> Option<Mat4> {
    let x = DVec3::new(x.x, x.y, 0.0).try_normalize()?.as_vec3();
    let y = Vec3::Z.cross(x);
    Some(Mat4::from_cols(
        x.extend(0.0),
        y.extend(0.0),
        Vec3::Z.extend(0.0),
        origin.extend(1.0),
    ))
}

/// Segments `a b c d e f g` lit by each decimal digit.
const SEGMENTS: [[bool; 7]; 10] = [
    [true, true, true, true, true, true, false],
    [false, true, true, false, false, false, false],
    [true, true, false, true, true, false, true],
    [true, true, true, true, false, false, true],
    [false, true, true, false, false, true, true],
    [true, false, true, true, false, true, true],
    [true, false, true, true, true, true, true],
    [true, true, true, false, false, false, false],
    [true; 7],
    [true, true, true, true, false, true, true],
];

/// The decimal digits of `value` (at most six).
fn digits(value: u32) -> Vec<u32> {
    let text = value.min(999_999).to_string();
    text.chars().filter_map(|c| c.to_digit(10)).collect()
}

/// Seven-segment `digit` in the plane `x = x_front`, facing +x, its lower left corner at
/// `(y0, z0)` (y to the viewer's right), `w` wide and `h` high with strokes `s` thick.
#[allow(clippy::many_single_char_names)]
fn seven_segment(mesh: &mut MeshBuilder, digit: u32, x: f32, (y0, z0): (f32, f32), w: f32, h: f32) {
    let Some(lit) = SEGMENTS.get(digit as usize) else {
        return;
    };
    let s = 0.22 * w;
    let zm = z0 + 0.5 * h;
    // (y from, y to, z from, z to) per segment a..g.
    let rects = [
        (y0, y0 + w, z0 + h - s, z0 + h),
        (y0 + w - s, y0 + w, zm, z0 + h),
        (y0 + w - s, y0 + w, z0, zm),
        (y0, y0 + w, z0, z0 + s),
        (y0, y0 + s, z0, zm),
        (y0, y0 + s, zm, z0 + h),
        (y0, y0 + w, zm - 0.5 * s, zm + 0.5 * s),
    ];
    for (on, (ya, yb, za, zb)) in lit.iter().zip(rects) {
        if *on {
            mesh.quad(
                [
                    Vec3::new(x, ya, za),
                    Vec3::new(x, yb, za),
                    Vec3::new(x, yb, zb),
                    Vec3::new(x, ya, zb),
                ],
                DIGIT_BLACK,
                material::MATTE,
            );
        }
    }
}

fn add_board(
    mesh: &mut MeshBuilder,
    item: &RoadsideItem,
    distance_m: f64,
    local: &impl Fn(DVec3) -> Vec3,
) {
    // Facing the oncoming traffic: the board's +x points back down the road.
    let Some(m) = frame(local(item.position), -item.along) else {
        return;
    };
    mesh.set_transform(Some(m));
    let (half, bottom, top) = (
        0.5 * BOARD_WIDTH_M,
        BOARD_BOTTOM_M,
        BOARD_BOTTOM_M + BOARD_HEIGHT_M,
    );
    for y in [-0.7 * half, 0.7 * half] {
        mesh.cuboid(
            Vec3::new(-0.08, y - 0.05, -0.5),
            Vec3::new(-0.02, y + 0.05, top - 0.05),
            POST_GREY,
            material::MATTE,
        );
    }
    mesh.cuboid(
        Vec3::new(-0.02, -half, bottom),
        Vec3::new(0.02, half, top),
        BOARD_WHITE,
        material::MATTE,
    );
    // A grey back so the board reads as a sign from behind too.
    mesh.quad(
        [
            Vec3::new(-0.021, half, bottom),
            Vec3::new(-0.021, -half, bottom),
            Vec3::new(-0.021, -half, top),
            Vec3::new(-0.021, half, top),
        ],
        BOARD_BACK,
        material::MATTE,
    );
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let value = distance_m.round().clamp(0.0, 999_999.0) as u32;
    let ds = digits(value);
    #[allow(clippy::cast_precision_loss)]
    let n = ds.len().max(1) as f32;
    // Digits 0.7 of the board's height, spaced by a third of their width.
    let h = 0.7 * BOARD_HEIGHT_M;
    let w = (0.5 * h).min(0.85 * BOARD_WIDTH_M / (n + (n - 1.0) / 3.0));
    let total = n * w + (n - 1.0) * w / 3.0;
    let z0 = bottom + 0.5 * (BOARD_HEIGHT_M - h);
    for (k, d) in ds.into_iter().enumerate() {
        #[allow(clippy::cast_precision_loss)]
        let y0 = -0.5 * total + k as f32 * (w + w / 3.0);
        seven_segment(mesh, d, 0.025, (y0, z0), w, h);
    }
    mesh.set_transform(None);
}

/// A number in `[0, 1)` from the `k`th draw of `seed`.
#[allow(clippy::cast_precision_loss)]
fn draw(seed: u64, k: u64) -> f32 {
    (mix(seed ^ k.wrapping_mul(0x2545_F491_4F6C_DD1D)) >> 40) as f32 / (1u64 << 24) as f32
}

/// A cone about z from `z0` (radius `r`) to its tip at `z1`, `sides` sides, with its base.
fn cone(
    mesh: &mut MeshBuilder,
    c: Vec3,
    r: f32,
    (z0, z1): (f32, f32),
    sides: u32,
    colour: [f32; 3],
) {
    let rim = |k: u32| {
        #[allow(clippy::cast_precision_loss)]
        let a = std::f32::consts::TAU * k as f32 / sides as f32;
        c + Vec3::new(r * a.cos(), r * a.sin(), z0)
    };
    let tip = c + Vec3::Z * z1;
    let base = c + Vec3::Z * z0;
    for k in 0..sides {
        mesh.triangle([rim(k), rim(k + 1), tip], colour, material::MATTE);
        mesh.triangle([base, rim(k + 1), rim(k)], colour, material::MATTE);
    }
}

/// The faces of the icosahedron of [`blob`], counter-clockwise seen from outside.
const FACES: [[usize; 3]; 20] = [
    [0, 11, 5],
    [0, 5, 1],
    [0, 1, 7],
    [0, 7, 10],
    [0, 10, 11],
    [1, 5, 9],
    [5, 11, 4],
    [11, 10, 2],
    [10, 7, 6],
    [7, 1, 8],
    [3, 9, 4],
    [3, 4, 2],
    [3, 2, 6],
    [3, 6, 8],
    [3, 8, 9],
    [4, 9, 5],
    [2, 4, 11],
    [6, 2, 10],
    [8, 6, 7],
    [9, 8, 1],
];

/// An icosahedron at `c` with radii `r` (x, y, z).
fn blob(mesh: &mut MeshBuilder, c: Vec3, r: Vec3, colour: [f32; 3]) {
    let phi = 0.5 * (1.0 + 5f32.sqrt());
    let v = [
        (-1.0, phi, 0.0),
        (1.0, phi, 0.0),
        (-1.0, -phi, 0.0),
        (1.0, -phi, 0.0),
        (0.0, -1.0, phi),
        (0.0, 1.0, phi),
        (0.0, -1.0, -phi),
        (0.0, 1.0, -phi),
        (phi, 0.0, -1.0),
        (phi, 0.0, 1.0),
        (-phi, 0.0, -1.0),
        (-phi, 0.0, 1.0),
    ]
    .map(|(x, y, z)| c + Vec3::new(x, y, z).normalize() * r);
    for [a, b, d] in FACES {
        mesh.triangle([v[a], v[b], v[d]], colour, material::MATTE);
    }
}

/// A tree standing at `base` (mesh coordinates), its shape from `seed`.
fn add_tree(mesh: &mut MeshBuilder, base: Vec3, seed: u64) {
    if !base.is_finite() {
        return;
    }
    let TreeShape {
        variant,
        height,
        green,
        darker,
        trunk_r,
        trunk_top,
    } = TreeShape::of(seed);
    // A five-sided trunk from below the ground to the crown.
    let ring = |k: u32, z: f32| {
        #[allow(clippy::cast_precision_loss)]
        let a = std::f32::consts::TAU * k as f32 / 5.0;
        base + Vec3::new(trunk_r * a.cos(), trunk_r * a.sin(), z)
    };
    for k in 0..5 {
        mesh.quad(
            [
                ring(k, -1.5),
                ring(k + 1, -1.5),
                ring(k + 1, trunk_top),
                ring(k, trunk_top),
            ],
            TRUNK_BROWN,
            material::MATTE,
        );
    }
    match variant {
        0 => {
            // A conifer: three stacked cones.
            let r = (0.22 * height).min(2.8);
            for (i, (z0, z1, scale)) in [(0.2, 0.6, 1.0), (0.42, 0.8, 0.78), (0.62, 1.0, 0.55)]
                .into_iter()
                .enumerate()
            {
                let colour = if i % 2 == 0 { green } else { darker };
                cone(mesh, base, r * scale, (z0 * height, z1 * height), 7, colour);
            }
        }
        1 => {
            // A broad-leaved tree: two or three blobs.
            let r = (0.2 * height).min(2.4);
            blob(
                mesh,
                base + Vec3::Z * 0.66 * height,
                Vec3::new(r, r, 0.75 * r),
                green,
            );
            let a = std::f32::consts::TAU * draw(seed, 5);
            let off = Vec3::new(a.cos(), a.sin(), 0.0) * 0.45 * r;
            blob(
                mesh,
                base + off + Vec3::Z * 0.84 * height,
                Vec3::splat(0.6 * r),
                darker,
            );
            if draw(seed, 6) > 0.5 {
                blob(
                    mesh,
                    base - off + Vec3::Z * 0.55 * height,
                    Vec3::splat(0.55 * r),
                    darker,
                );
            }
        }
        _ => {
            // A poplar: two tall narrow cones.
            let r = 0.12 * height;
            cone(mesh, base, r, (0.2 * height, 0.85 * height), 6, green);
            cone(mesh, base, 0.7 * r, (0.55 * height, height), 6, darker);
        }
    }
}

/// The shape of a tree from its seed: variant (0 conifer, 1 broad-leaved, 2 poplar),
/// height, crown colours and trunk radius and top, shared by both levels of detail.
struct TreeShape {
    variant: u64,
    height: f32,
    green: [f32; 3],
    darker: [f32; 3],
    trunk_r: f32,
    trunk_top: f32,
}

impl TreeShape {
    fn of(seed: u64) -> Self {
        let variant = mix(seed) % 3;
        let height = 7.0 + 7.0 * draw(seed, 1);
        let shade = draw(seed, 2);
        let green = [
            0.04 + 0.06 * shade,
            0.12 + 0.1 * draw(seed, 3),
            0.03 + 0.03 * shade,
        ];
        let trunk_top = match variant {
            0 => 0.35 * height,
            1 => 0.45 * height,
            _ => 0.25 * height,
        };
        Self {
            variant,
            height,
            green,
            darker: green.map(|c| c * 0.8),
            trunk_r: 0.16 + 0.1 * draw(seed, 4),
            trunk_top,
        }
    }
}

/// A far tree at `base`: a three-sided trunk and one four-sided crown of the tree's
/// outline (no base: seen from a distance the crown's underside is out of sight).
fn add_far_tree(mesh: &mut MeshBuilder, base: Vec3, seed: u64) {
    if !base.is_finite() {
        return;
    }
    let t = TreeShape::of(seed);
    let h = t.height;
    let ring = |k: u32, r: f32, z: f32| {
        #[allow(clippy::cast_precision_loss)]
        let a = std::f32::consts::TAU * k as f32 / 3.0;
        base + Vec3::new(r * a.cos(), r * a.sin(), z)
    };
    for k in 0..3 {
        mesh.quad(
            [
                ring(k, t.trunk_r, -1.5),
                ring(k + 1, t.trunk_r, -1.5),
                ring(k + 1, t.trunk_r, t.trunk_top),
                ring(k, t.trunk_r, t.trunk_top),
            ],
            TRUNK_BROWN,
            material::MATTE,
        );
    }
    // The crown: a cone for the conifer and the poplar, a double cone (an octahedron) for
    // the broad-leaved tree, over the full crown's height and width.
    let (r, z0, z_widest, z1) = match t.variant {
        0 => ((0.22 * h).min(2.8), 0.2 * h, 0.2 * h, h),
        1 => ((0.2 * h).min(2.4), 0.45 * h, 0.68 * h, h),
        _ => (0.12 * h, 0.2 * h, 0.2 * h, h),
    };
    let rim = |k: u32| {
        #[allow(clippy::cast_precision_loss)]
        let a = std::f32::consts::TAU * (k as f32 + 0.5) / 4.0;
        base + Vec3::new(r * a.cos(), r * a.sin(), z_widest)
    };
    let (tip, foot) = (base + Vec3::Z * z1, base + Vec3::Z * z0);
    for k in 0..4 {
        mesh.triangle([rim(k), rim(k + 1), tip], t.green, material::MATTE);
        if z_widest > z0 {
            mesh.triangle([foot, rim(k + 1), rim(k)], t.darker, material::MATTE);
        }
    }
}

fn add_building(
    mesh: &mut MeshBuilder,
    item: &RoadsideItem,
    style: BuildingStyle,
    size: Vec3,
    local: &impl Fn(DVec3) -> Vec3,
) {
    // x along the road (either way), y away from it, z up; the near face at y = 0.
    let Some(m) = frame(local(item.position), item.outward.cross(DVec3::Z)) else {
        return;
    };
    mesh.set_transform(Some(m));
    let (hl, depth, height) = (0.5 * size.x, size.y, size.z);
    let ground = -2.0;
    match style {
        BuildingStyle::PitBuilding => {
            mesh.cuboid(
                Vec3::new(-hl, 0.0, ground),
                Vec3::new(hl, depth, height),
                [0.78, 0.78, 0.76],
                material::MATTE,
            );
            mesh.cuboid(
                Vec3::new(-hl - 0.3, -0.6, height),
                Vec3::new(hl + 0.3, depth + 0.3, height + 0.4),
                [0.25, 0.27, 0.3],
                material::MATTE,
            );
            // A window band above garage doors, on the face towards the road.
            let face = -0.02;
            let band = |z0: f32, z1: f32, x0: f32, x1: f32, colour, mesh: &mut MeshBuilder| {
                quad_facing(
                    mesh,
                    [
                        Vec3::new(x0, face, z0),
                        Vec3::new(x1, face, z0),
                        Vec3::new(x1, face, z1),
                        Vec3::new(x0, face, z1),
                    ],
                    -Vec3::Y,
                    colour,
                );
            };
            band(
                0.62 * height,
                0.85 * height,
                -hl + 1.0,
                hl - 1.0,
                [0.12, 0.2, 0.28],
                mesh,
            );
            let doors = ((2.0 * hl) / 8.0).floor().max(1.0);
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            for k in 0..doors as u32 {
                #[allow(clippy::cast_precision_loss)]
                let x0 = -hl + 8.0 * k as f32 + 1.5;
                band(0.0, 0.45 * height, x0, x0 + 5.0, [0.2, 0.2, 0.22], mesh);
            }
        }
        BuildingStyle::Grandstand => {
            let rows = 8u8;
            let step_d = 0.8 * depth / f32::from(rows);
            let step_h = 0.7 * height / f32::from(rows);
            for row in 0..rows {
                let r = f32::from(row);
                let colour = if row.is_multiple_of(2) {
                    [0.1, 0.25, 0.6]
                } else {
                    [0.75, 0.75, 0.75]
                };
                mesh.cuboid(
                    Vec3::new(-hl, r * step_d, ground),
                    Vec3::new(hl, depth, 0.8 + (r + 1.0) * step_h),
                    colour,
                    material::MATTE,
                );
            }
            // The roof on posts at the front and a wall behind.
            mesh.cuboid(
                Vec3::new(-hl - 1.0, -1.0, height - 0.3),
                Vec3::new(hl + 1.0, depth + 0.3, height),
                [0.85, 0.85, 0.85],
                material::MATTE,
            );
            let posts = (size.x / 15.0).floor().max(1.0);
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            for k in 0..=posts as u32 {
                #[allow(clippy::cast_precision_loss)]
                let x = -hl + size.x * k as f32 / posts;
                mesh.cuboid(
                    Vec3::new(x - 0.15, 0.0, 0.0),
                    Vec3::new(x + 0.15, 0.3, height - 0.3),
                    POST_GREY,
                    material::MATTE,
                );
            }
        }
    }
    mesh.set_transform(None);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_of_distances() {
        assert_eq!(digits(300), vec![3, 0, 0]);
        assert_eq!(digits(50), vec![5, 0]);
        assert_eq!(digits(0), vec![0]);
    }

    fn item(kind: RoadsideKind) -> RoadsideItem {
        RoadsideItem {
            kind,
            position: DVec3::new(10.0, 20.0, 3.0),
            along: DVec3::X,
            outward: DVec3::NEG_Y,
        }
    }

    #[test]
    fn a_board_faces_the_oncoming_traffic_with_its_digits() {
        let mut mesh = MeshBuilder::new();
        add_roadside(
            &mut mesh,
            &[item(RoadsideKind::BrakingBoard {
                distance_m: 200.0,
                corner_station_m: 0.0,
            })],
            &|p: DVec3| p.as_vec3(),
            Detail::Near,
        );
        // The digits are black quads facing back down the road (-x), in front of the board.
        let black: Vec<_> = mesh
            .vertices
            .chunks_exact(3)
            .filter(|t| t[0].color == DIGIT_BLACK)
            .collect();
        // "200": 5 + 6 + 6 segments, two triangles each.
        assert_eq!(black.len(), 2 * 17);
        for t in black {
            assert!(Vec3::from(t[0].normal).dot(Vec3::NEG_X) > 0.99);
            for v in t {
                let p = Vec3::from(v.position);
                assert!(p.x < 10.0 && p.z > 3.0 + BOARD_BOTTOM_M);
            }
        }
    }

    #[test]
    fn trees_vary_and_stay_within_their_reach() {
        let mut mesh = MeshBuilder::new();
        let mut heights = Vec::new();
        for seed in 0..30u64 {
            let mut one = MeshBuilder::new();
            add_roadside(
                &mut one,
                &[item(RoadsideKind::Tree { seed: mix(seed) })],
                &|p: DVec3| p.as_vec3(),
                Detail::Near,
            );
            let top = one
                .vertices
                .iter()
                .map(|v| v.position[2])
                .fold(f32::MIN, f32::max);
            heights.push(top);
            for v in &one.vertices {
                let p = Vec3::from(v.position);
                let r = (p.truncate() - glam::Vec2::new(10.0, 20.0)).length();
                assert!(f64::from(r) <= crate::roadside_placement::TREE_CLEARANCE_M + 0.5);
            }
            mesh.vertices.extend(one.vertices);
        }
        let (lo, hi) = heights
            .iter()
            .fold((f32::MAX, f32::MIN), |(a, b), &h| (a.min(h), b.max(h)));
        assert!(hi - lo > 2.0, "{lo} {hi}");
        assert!(mesh.vertices.iter().all(|v| v.position[2].is_finite()));
    }

    #[test]
    fn far_trees_are_a_few_triangles_in_the_near_trees_place_and_size() {
        for seed in 0..30u64 {
            let tree = [item(RoadsideKind::Tree { seed: mix(seed) })];
            let [near, far] = [Detail::Near, Detail::Far].map(|detail| {
                let mut m = MeshBuilder::new();
                add_roadside(&mut m, &tree, &|p: DVec3| p.as_vec3(), detail);
                m
            });
            assert!(near.triangle_count() >= 30, "{}", near.triangle_count());
            assert!(far.triangle_count() <= 14, "{}", far.triangle_count());
            let extent = |m: &MeshBuilder| {
                m.vertices.iter().fold((f32::MIN, f32::MIN), |(r, z), v| {
                    let p = Vec3::from(v.position) - tree[0].position.as_vec3();
                    (r.max(p.truncate().length()), z.max(p.z))
                })
            };
            let ((rn, zn), (rf, zf)) = (extent(&near), extent(&far));
            assert!(
                rf <= rn + 0.01 && rf >= 0.6 * rn,
                "radius {rf} against {rn}"
            );
            assert!((zf - zn).abs() <= 0.1 * zn, "height {zf} against {zn}");
        }
    }
}

//! Roadside furniture that a track's layout asks for by rule ([`ObjectSpec::BrakingBoards`],
//! [`ObjectSpec::Trees`], [`ObjectSpec::Building`], carried by the built track as
//! [`RoadsideRules`]), placed along its centre line and beyond its run-off's edges
//! ([`TrackMesh::edges`]) for drawing ([`crate::roadside`]).
//!
//! Nothing here collides with the car: the trees and buildings stand beyond the run-off and
//! its barriers, where the car cannot go, and the boards, like cones and markers, are not
//! part of the ground or of the walls. Placement is deterministic (the trees' pseudo-random
//! jitter comes from the layout's seed).
//!
//! - **Braking boards.** A corner starts at a sample whose horizontal radius is below the
//!   layout's `corner_radius_m` after at least [`MIN_STRAIGHT_M`] of samples that are not
//!   (the same test that lays kerbs, without their margin). Before each corner start, a board stands at each requested path distance
//!   that still lies on the straight before it (the run of samples that are not corners), on
//!   the outside of the approach (the right before a left-hander), `side_offset_m` beyond the
//!   road's edge, on the ground there.
//! - **Trees.** On a grid of `spacing_m` along and across a band `band_from_m..band_to_m`
//!   beyond the outer edge of the run-off on each side, each jittered by up to 40 % of the
//!   spacing. A tree is left out where its trunk or its crown's reach ([`TREE_CLEARANCE_M`])
//!   lies over any ground of the track; the rest stand at the height of the run-off's
//!   outer edge where they start from.
//! - **Buildings.** A box beside the road, its near face `offset_m` beyond the run-off's
//!   outer edge at its station, its length along the road's direction there.

use glam::DVec3;

use gripline_physics::ground::TriangleMesh;
use gripline_physics::track::{
    BuildingStyle, CentreLine, ObjectSpec, RoadsideRules, SampleEdges, Side, TrackMesh,
};

/// Horizontal distance around a tree's trunk that must be free of ground (m): its crown's
/// reach.
pub const TREE_CLEARANCE_M: f64 = 3.0;

/// Most rows of trees across a band (more are left out): bounds the work of a wide band.
const MAX_TREE_ROWS: f64 = 63.0;
/// Most stations of trees along the road (more are left out).
const MAX_TREE_STATIONS: f64 = 50_000.0;

/// What a [`RoadsideItem`] is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RoadsideKind {
    /// A braking board facing the oncoming traffic.
    BrakingBoard {
        /// Path distance to the corner start that it announces (m).
        distance_m: f64,
        /// Station of that corner start along the centre line (m).
        corner_station_m: f64,
    },
    /// A tree; `seed` picks its variant, size and colour.
    Tree {
        /// Pseudo-random bits for its shape.
        seed: u64,
    },
    /// A building, its near face centred on the item's position.
    Building {
        /// What it looks like.
        style: BuildingStyle,
        /// Length along the road (m).
        length_m: f64,
        /// Depth away from the road (m).
        depth_m: f64,
        /// Height (m).
        height_m: f64,
    },
}

/// One piece of roadside furniture, placed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RoadsideItem {
    /// What it is.
    pub kind: RoadsideKind,
    /// Its base (world frame, m).
    pub position: DVec3,
    /// Horizontal unit vector of the road's direction of travel beside it.
    pub along: DVec3,
    /// Horizontal unit vector away from the road.
    pub outward: DVec3,
}

/// `SplitMix64`: a small, good, deterministic hash (also the renderer's, for the trees'
/// shapes).
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A uniform number in `[0, 1)` from `bits`.
#[allow(clippy::cast_precision_loss)]
fn unit(bits: u64) -> f64 {
    (bits >> 11) as f64 / (1u64 << 53) as f64
}

/// Horizontal unit vector of `v`, `None` when it has none.
fn horizontal(v: DVec3) -> Option<DVec3> {
    DVec3::new(v.x, v.y, 0.0).try_normalize()
}

/// Whether any ground of the track lies under `p` or within `reach` of it horizontally: any
/// of `ground`'s first `built` triangles (the rest are the terrain round a closed track,
/// which trees stand on).
fn over_ground(ground: &TriangleMesh, built: usize, p: DVec3, reach: f64) -> bool {
    let top = ground.bounds().1.z + 10.0;
    let depth = top - ground.bounds().0.z + 10.0;
    let mut probes = vec![(0.0, 0.0)];
    for k in 0..8 {
        let a = std::f64::consts::TAU * f64::from(k) / 8.0;
        probes.push((reach * a.cos(), reach * a.sin()));
    }
    probes.iter().any(|(dx, dy)| {
        ground
            .ray_cast_triangle(DVec3::new(p.x + dx, p.y + dy, top), -DVec3::Z, depth)
            .is_some_and(|(triangle, _)| triangle < built)
    })
}

/// The outer edge of the run-off on `side` of sample `i` and the horizontal outward unit
/// vector there; the road's edge when the build recorded no edges.
fn outer_edge(
    centre_line: &CentreLine,
    edges: &[SampleEdges],
    i: usize,
    side: Side,
) -> (DVec3, DVec3) {
    let s = &centre_line.samples()[i];
    let left = edges
        .get(i)
        .map(|e| e.horizontal_left)
        .or_else(|| horizontal(s.left))
        .unwrap_or(DVec3::Y);
    let (edge, sign) = match (edges.get(i), side) {
        (Some(e), Side::Left) => (e.outer[0], 1.0),
        (Some(e), Side::Right) => (e.outer[1], -1.0),
        (None, Side::Left) => (s.left_edge(), 1.0),
        (None, Side::Right) => (s.right_edge(), -1.0),
    };
    (edge, left * sign)
}

/// Shortest run of samples that are not corners that counts as a straight (m): shorter
/// ones are the wobble of a corner's radius about the limit, or the flick between the two
/// halves of a chicane.
pub const MIN_STRAIGHT_M: f64 = 50.0;

/// Stations of the corner starts of `centre_line` (a sample tighter than `corner_radius_m`
/// after at least [`MIN_STRAIGHT_M`] of samples that are not) and the side the corner turns
/// to (`Side::Left` for a left-hander), each with the length of the straight before it (m).
pub fn corner_starts(centre_line: &CentreLine, corner_radius_m: f64) -> Vec<(f64, Side, f64)> {
    let samples = centre_line.samples();
    let n = samples.len();
    if corner_radius_m <= 0.0 || n < 3 {
        return Vec::new();
    }
    let closed = centre_line.is_closed();
    let corner: Vec<bool> = samples
        .iter()
        .map(|s| (s.curvature_per_m * corner_radius_m).abs() > 1.0)
        .collect();
    if corner.iter().all(|&c| c) {
        return Vec::new();
    }
    let lap = centre_line.length_m();
    let mut starts = Vec::new();
    for i in 0..n {
        let previous = if i > 0 {
            i - 1
        } else if closed {
            n - 1
        } else {
            continue;
        };
        if !corner[i] || corner[previous] {
            continue;
        }
        // Walk back over the straight to its first sample.
        let mut j = previous;
        let mut steps = 0;
        while steps < n {
            let before = if j > 0 {
                j - 1
            } else if closed {
                n - 1
            } else {
                break;
            };
            if corner[before] {
                break;
            }
            j = before;
            steps += 1;
        }
        let (start, from) = (samples[i].distance_m, samples[j].distance_m);
        let straight = if closed {
            (start - from).rem_euclid(lap)
        } else {
            start - from
        };
        if straight < MIN_STRAIGHT_M {
            continue;
        }
        let turn = if samples[i].curvature_per_m > 0.0 {
            Side::Left
        } else {
            Side::Right
        };
        starts.push((start, turn, straight));
    }
    starts
}

fn braking_boards(
    centre_line: &CentreLine,
    ground: &TriangleMesh,
    corner_radius_m: f64,
    distances_m: &[f64],
    side_offset_m: f64,
    out: &mut Vec<RoadsideItem>,
) {
    let top = ground.bounds().1.z + 10.0;
    for (corner_station_m, turn, straight_m) in corner_starts(centre_line, corner_radius_m) {
        for &distance_m in distances_m {
            if !(distance_m.is_finite() && distance_m <= straight_m) {
                continue;
            }
            let Some(s) = centre_line.sample_at(corner_station_m - distance_m) else {
                continue;
            };
            let (Some(left), Some(along)) = (horizontal(s.left), horizontal(s.tangent)) else {
                continue;
            };
            // The outside of the approach: away from the way the corner turns.
            let outward = if turn == Side::Left { -left } else { left };
            let p = s.position + outward * (0.5 * s.width_m + side_offset_m);
            let position = ground
                .height_below(p.x, p.y, top)
                .map_or(p, |hit| hit.point);
            if position.is_finite() {
                out.push(RoadsideItem {
                    kind: RoadsideKind::BrakingBoard {
                        distance_m,
                        corner_station_m,
                    },
                    position,
                    along,
                    outward,
                });
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn trees(
    centre_line: &CentreLine,
    edges: &[SampleEdges],
    ground: &TriangleMesh,
    built: usize,
    spacing_m: f64,
    band: (f64, f64),
    seed: u64,
    out: &mut Vec<RoadsideItem>,
) {
    let samples = centre_line.samples();
    if samples.len() < 2 || spacing_m.is_nan() || spacing_m <= 0.0 {
        return;
    }
    let length = centre_line.length_m();
    let (from, to) = band;
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let stations = (length / spacing_m).floor().clamp(0.0, MAX_TREE_STATIONS) as u64;
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let rows = (((to - from) / spacing_m).floor().clamp(0.0, MAX_TREE_ROWS) as u64) + 1;
    for (side_index, side) in [Side::Left, Side::Right].into_iter().enumerate() {
        for k in 0..stations {
            for row in 0..rows {
                let key = mix(seed ^ mix((k << 16) ^ (row << 1) ^ side_index as u64));
                #[allow(clippy::cast_precision_loss)]
                let station = (k as f64 + 0.5 + 0.8 * (unit(key) - 0.5)) * spacing_m;
                #[allow(clippy::cast_precision_loss)]
                let across = (from + (row as f64 + 0.5 + 0.8 * (unit(mix(key)) - 0.5)) * spacing_m)
                    .clamp(from, to);
                // The sample at or before the station (samples are ordered by distance).
                let i = samples
                    .partition_point(|s| s.distance_m <= station)
                    .saturating_sub(1);
                let (edge, outward) = outer_edge(centre_line, edges, i, side);
                let Some(along) = horizontal(samples[i].tangent) else {
                    continue;
                };
                let offset = station - samples[i].distance_m;
                let position = edge + along * offset + outward * across;
                if !position.is_finite() || over_ground(ground, built, position, TREE_CLEARANCE_M) {
                    continue;
                }
                out.push(RoadsideItem {
                    kind: RoadsideKind::Tree {
                        seed: mix(key ^ 0x5EED),
                    },
                    position,
                    along,
                    outward,
                });
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn building(
    centre_line: &CentreLine,
    edges: &[SampleEdges],
    style: BuildingStyle,
    station_m: f64,
    side: Side,
    offset_m: f64,
    size: [f64; 3],
    out: &mut Vec<RoadsideItem>,
) {
    let samples = centre_line.samples();
    let Some(s) = centre_line.sample_at(station_m) else {
        return;
    };
    let i = samples
        .partition_point(|q| q.distance_m <= s.distance_m)
        .saturating_sub(1);
    let (edge, outward) = outer_edge(centre_line, edges, i, side);
    let Some(along) = horizontal(s.tangent) else {
        return;
    };
    let position = edge + along * (s.distance_m - samples[i].distance_m) + outward * offset_m;
    if position.is_finite() {
        out.push(RoadsideItem {
            kind: RoadsideKind::Building {
                style,
                length_m: size[0],
                depth_m: size[1],
                height_m: size[2],
            },
            position,
            along,
            outward,
        });
    }
}

/// Places the roadside furniture that `track`'s rules ask for along its centre line, beyond
/// its run-off's edges (the road's edges when the track recorded none) and off its ground.
#[must_use]
pub fn place_roadside(track: &TrackMesh) -> Vec<RoadsideItem> {
    let centre_line = &track.centre_line;
    let ground = &track.ground;
    let RoadsideRules {
        corner_radius_m,
        rules,
    } = &track.roadside_rules;
    let mut out = Vec::new();
    if centre_line.samples().len() < 2 {
        return out;
    }
    let edges: &[SampleEdges] = if track.edges.len() == centre_line.samples().len() {
        &track.edges
    } else {
        &[]
    };
    for spec in rules {
        match spec {
            ObjectSpec::BrakingBoards {
                distances_m,
                side_offset_m,
            } => braking_boards(
                centre_line,
                ground,
                *corner_radius_m,
                distances_m,
                *side_offset_m,
                &mut out,
            ),
            ObjectSpec::Trees {
                spacing_m,
                band_from_m,
                band_to_m,
                seed,
            } => trees(
                centre_line,
                edges,
                ground,
                track.terrain_first_triangle,
                *spacing_m,
                (*band_from_m, *band_to_m),
                *seed,
                &mut out,
            ),
            ObjectSpec::Building {
                style,
                station_m,
                side,
                offset_m,
                length_m,
                depth_m,
                height_m,
            } => building(
                centre_line,
                edges,
                *style,
                *station_m,
                *side,
                *offset_m,
                [*length_m, *depth_m, *height_m],
                &mut out,
            ),
            ObjectSpec::Single { .. }
            | ObjectSpec::Ring { .. }
            | ObjectSpec::Row { .. }
            | ObjectSpec::LaneChangeCones { .. } => {}
        }
    }
    // No tree grows through a building.
    let footprints: Vec<RoadsideItem> = out
        .iter()
        .filter(|item| matches!(item.kind, RoadsideKind::Building { .. }))
        .copied()
        .collect();
    out.retain(|item| {
        !matches!(item.kind, RoadsideKind::Tree { .. })
            || !footprints
                .iter()
                .any(|b| in_footprint(b, item.position, TREE_CLEARANCE_M))
    });
    out
}

/// Whether `p` lies within `margin` (horizontally) of building `b`'s footprint.
fn in_footprint(b: &RoadsideItem, p: DVec3, margin: f64) -> bool {
    let RoadsideKind::Building {
        length_m, depth_m, ..
    } = b.kind
    else {
        return false;
    };
    let d = p - b.position;
    let (u, v) = (d.dot(b.along), d.dot(b.outward));
    u.abs() <= 0.5 * length_m + margin && v >= -margin && v <= depth_m + margin
}

//! Frustum culling of big static meshes: the triangles are grouped into square tiles on the
//! ground plane, each with its bounding box, and a frame draws only the tiles that the view
//! frustum touches. Triangles larger than a tile (the far ground plane) go into an
//! always-drawn group, drawn after the tiles.

use glam::{Mat4, Vec3, Vec4};

use crate::mesh::{MeshBuilder, Vertex};

/// Side of a tile (m).
pub const TILE_SIZE_M: f32 = 100.0;

/// A run of whole triangles of the reordered mesh and their bounding box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tile {
    /// First vertex.
    pub first: u32,
    /// One past the last vertex.
    pub end: u32,
    /// Bounding box, in the mesh's coordinates: `None` draws the tile always.
    pub bounds: Option<(Vec3, Vec3)>,
    /// The tile's grid cell (`TILE_SIZE_M` squares, x then y), `None` for the always-drawn
    /// group.
    pub cell: Option<(i32, i32)>,
}

/// A tile's grid cell, `None` for the always-drawn group.
type TileKey = Option<(i32, i32)>;

/// Reorders the triangles of `mesh` by tile and returns the tiles (the grid's cells in order,
/// then the always-drawn group; covering every vertex exactly once).
pub fn tile_mesh(mesh: &mut MeshBuilder) -> Vec<Tile> {
    let key = |tri: &[Vertex]| -> TileKey {
        let (lo, hi) = triangle_bounds(tri);
        let extent = hi - lo;
        if !(extent.x <= TILE_SIZE_M && extent.y <= TILE_SIZE_M) {
            return None;
        }
        let centre = (lo + hi) * 0.5 / TILE_SIZE_M;
        #[allow(clippy::cast_possible_truncation)]
        Some((centre.x.floor() as i32, centre.y.floor() as i32))
    };
    let mut triangles: Vec<(TileKey, [Vertex; 3])> = mesh
        .vertices
        .chunks_exact(3)
        .map(|t| (key(t), [t[0], t[1], t[2]]))
        .collect();
    // Stable: the triangles of a tile keep their order (coplanar markings over the road).
    // The always-drawn group (the far ground plane under everything) goes last: drawn first
    // it would be shaded under every ground pixel, while last its hidden pixels fail the
    // depth test before shading (on a software rasteriser that halved the ground's cost).
    triangles.sort_by_key(|(k, _)| (k.is_none(), *k));
    mesh.vertices = triangles.iter().flat_map(|(_, t)| *t).collect();
    let mut tiles: Vec<Tile> = Vec::new();
    let mut current: Option<(TileKey, Tile)> = None;
    for (i, (k, tri)) in triangles.iter().enumerate() {
        let first = u32::try_from(3 * i).unwrap_or(u32::MAX);
        let (lo, hi) = triangle_bounds(tri);
        match &mut current {
            Some((key, tile)) if key == k => {
                tile.end = first + 3;
                tile.bounds = tile.bounds.map(|(a, b)| (a.min(lo), b.max(hi)));
            }
            _ => {
                if let Some((_, tile)) = current.take() {
                    tiles.push(tile);
                }
                current = Some((
                    *k,
                    Tile {
                        first,
                        end: first + 3,
                        bounds: k.map(|_| (lo, hi)),
                        cell: *k,
                    },
                ));
            }
        }
    }
    if let Some((_, tile)) = current {
        tiles.push(tile);
    }
    tiles
}

fn triangle_bounds(tri: &[Vertex]) -> (Vec3, Vec3) {
    tri.iter().fold(
        (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
        |(lo, hi), v| {
            let p = Vec3::from(v.position);
            (lo.min(p), hi.max(p))
        },
    )
}

/// The side and near planes of the frustum of `clip_from_mesh` (each `(n, d)`: inside where
/// `n . p + d >= 0`), from the matrix's rows (Gribb and Hartmann). The far plane is left out:
/// the projection may put it at infinity.
pub fn frustum_planes(clip_from_mesh: Mat4) -> [Vec4; 5] {
    let m = clip_from_mesh.transpose();
    let (r0, r1, r2, r3) = (m.x_axis, m.y_axis, m.z_axis, m.w_axis);
    // wgpu's clip depth is 0..w; reverse-Z puts the near plane at z = w.
    [r3 + r0, r3 - r0, r3 + r1, r3 - r1, r3 - r2]
}

/// Whether the box `lo..hi` is at least partly inside every plane (conservative: a box
/// outside the frustum near a corner may still count as inside).
pub fn box_visible(planes: &[Vec4; 5], lo: Vec3, hi: Vec3) -> bool {
    planes.iter().all(|p| {
        let n = p.truncate();
        // The box corner farthest along the plane's normal.
        let corner = Vec3::select(n.cmpge(Vec3::ZERO), hi, lo);
        n.dot(corner) + p.w >= 0.0
    })
}

/// The vertex ranges to draw this frame: the visible tiles, adjacent ones merged.
pub fn visible_ranges(tiles: &[Tile], planes: &[Vec4; 5], out: &mut Vec<(u32, u32)>) {
    visible_ranges_where(tiles, planes, |_| true, out);
}

/// Which of two levels of detail a tile's grid cell takes: `Some(true)` (near) when the
/// cell's centre lies within `distance_m` of `eye` (mesh coordinates, horizontally), else
/// `Some(false)`; `None` for the always-drawn group. Both levels' meshes are tiled on the
/// same grid, so each cell is drawn at exactly one level.
pub fn is_near_cell(cell: Option<(i32, i32)>, eye: Vec3, distance_m: f32) -> Option<bool> {
    let (i, j) = cell?;
    #[allow(clippy::cast_precision_loss)]
    let centre = (Vec3::new(i as f32, j as f32, 0.0) + Vec3::new(0.5, 0.5, 0.0)) * TILE_SIZE_M;
    Some((centre - eye).truncate().length() <= distance_m)
}

/// As [`visible_ranges`], only the tiles for which `keep` holds.
pub fn visible_ranges_where(
    tiles: &[Tile],
    planes: &[Vec4; 5],
    keep: impl Fn(&Tile) -> bool,
    out: &mut Vec<(u32, u32)>,
) {
    out.clear();
    for tile in tiles {
        let visible = tile
            .bounds
            .is_none_or(|(lo, hi)| box_visible(planes, lo, hi));
        if !visible || !keep(tile) {
            continue;
        }
        match out.last_mut() {
            Some(last) if last.1 == tile.first => last.1 = tile.end,
            _ => out.push((tile.first, tile.end)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flat_triangle(mesh: &mut MeshBuilder, x: f32, y: f32, size: f32) {
        mesh.triangle_uv(
            [
                Vec3::new(x, y, 0.0),
                Vec3::new(x + size, y, 0.0),
                Vec3::new(x, y + size, 0.0),
            ],
            [[0.0; 2]; 3],
            [1.0; 3],
            0,
        );
    }

    #[test]
    fn tiles_cover_every_triangle_once_and_keep_order_within_a_tile() {
        let mut mesh = MeshBuilder::new();
        for i in 0..50 {
            let f = i as f32;
            flat_triangle(&mut mesh, (f * 37.0) % 900.0, (f * 53.0) % 700.0, 2.0);
        }
        flat_triangle(&mut mesh, -5000.0, -5000.0, 10_000.0);
        let before = mesh.vertices.len();
        let tiles = tile_mesh(&mut mesh);
        assert_eq!(mesh.vertices.len(), before);
        let mut next = 0;
        for t in &tiles {
            assert_eq!(t.first, next);
            assert!(t.end > t.first && (t.end - t.first) % 3 == 0);
            next = t.end;
        }
        assert_eq!(next as usize, before);
        assert_eq!(tiles.iter().filter(|t| t.bounds.is_none()).count(), 1);
        assert!(
            tiles.last().is_some_and(|t| t.bounds.is_none()),
            "the always-drawn group comes last, so what covers it is drawn first"
        );
    }

    #[test]
    fn the_frustum_keeps_what_is_ahead_and_drops_what_is_behind() {
        // Looking along +x from the origin, 60° vertical, 16:9, reverse-Z infinite.
        let proj = glam::camera::rh::proj::directx::perspective_infinite_reverse(
            60f32.to_radians(),
            16.0 / 9.0,
            0.1,
        );
        let view = glam::camera::rh::view::look_at_mat4(Vec3::ZERO, Vec3::X, Vec3::Z);
        let planes = frustum_planes(proj * view);
        let cube = |c: Vec3| (c - Vec3::splat(1.0), c + Vec3::splat(1.0));
        let (lo, hi) = cube(Vec3::new(50.0, 0.0, 0.0));
        assert!(box_visible(&planes, lo, hi));
        let (lo, hi) = cube(Vec3::new(5000.0, 10.0, -3.0));
        assert!(
            box_visible(&planes, lo, hi),
            "far away stays (no far plane)"
        );
        let (lo, hi) = cube(Vec3::new(-50.0, 0.0, 0.0));
        assert!(!box_visible(&planes, lo, hi), "behind");
        let (lo, hi) = cube(Vec3::new(10.0, 200.0, 0.0));
        assert!(!box_visible(&planes, lo, hi), "far to the left");
        let (lo, hi) = cube(Vec3::new(10.0, 0.0, 100.0));
        assert!(!box_visible(&planes, lo, hi), "far above");
        let mut ranges = Vec::new();
        let tiles = [
            Tile {
                first: 0,
                end: 3,
                bounds: Some(cube(Vec3::new(50.0, 0.0, 0.0))),
                cell: None,
            },
            Tile {
                first: 3,
                end: 6,
                bounds: None,
                cell: None,
            },
            Tile {
                first: 6,
                end: 9,
                bounds: Some(cube(Vec3::new(-50.0, 0.0, 0.0))),
                cell: None,
            },
            Tile {
                first: 9,
                end: 12,
                bounds: Some(cube(Vec3::new(60.0, 0.0, 0.0))),
                cell: None,
            },
        ];
        visible_ranges(&tiles, &planes, &mut ranges);
        assert_eq!(ranges, vec![(0, 6), (9, 12)]);
    }

    #[test]
    fn each_cell_takes_one_level_of_detail_by_its_centre_distance() {
        let eye = Vec3::new(10.0, 10.0, 50.0);
        // Cell (0, 0) has its centre at (50, 50): 56.6 m away horizontally.
        assert_eq!(is_near_cell(Some((0, 0)), eye, 60.0), Some(true));
        assert_eq!(is_near_cell(Some((0, 0)), eye, 50.0), Some(false));
        assert_eq!(is_near_cell(Some((-3, 0)), eye, 200.0), Some(false));
        assert_eq!(is_near_cell(None, eye, 0.0), None);
    }
}

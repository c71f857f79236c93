//! A track's boundary: terrain around everything the layout builds (road, run-off, pads) out
//! to a rectangle, and a wall all round that rectangle, so that no car can leave the world.
//!
//! The rectangle is the horizontal bounding box of the built ground grown by
//! [`BoundarySpec::margin_m`] on every side. The terrain is a grid of square cells over it
//! (at least [`TERRAIN_CELL_M`] on a side, larger for very large tracks); each grid vertex
//! lies [`TERRAIN_DROP_M`] below the lowest point of the built triangles that touch any of
//! its cells, so the terrain never rises through the built ground (the ground's ray casts
//! return the highest surface: the road is still what the car drives on). A vertex whose
//! cells touch nothing takes the lowest of its neighbours', wave by wave, so the terrain far
//! from the road continues the height of the ground nearest it. The wall's foot follows the
//! grid's outer vertices, counter-clockwise seen from above (the world inside, to its left).

use glam::{DVec2, DVec3};

use super::barrier::Barrier;
use super::barrier_spec::BarrierSpec;
use super::boundary_spec::BoundarySpec;
use super::side::Side;

/// Smallest side of a terrain cell (m).
pub const TERRAIN_CELL_M: f64 = 20.0;

/// Most cells along either side of the terrain grid; larger tracks get larger cells.
const MAX_CELLS_PER_SIDE: f64 = 400.0;

/// How far below the lowest built point of its cells a terrain vertex lies (m).
pub const TERRAIN_DROP_M: f64 = 0.2;

/// The terrain and wall built for a [`BoundarySpec`].
pub(super) struct Closure {
    /// The terrain's vertices (world frame, m).
    pub vertices: Vec<DVec3>,
    /// Its triangles, indexing `vertices` (counter-clockwise seen from above).
    pub triangles: Vec<[u32; 3]>,
    /// The wall round it.
    pub wall: Barrier,
}

/// The terrain and wall that close the ground of `vertices` and `triangles` (the built
/// road and pads); `None` when there is no ground or it is not finite.
pub(super) fn close(
    spec: &BoundarySpec,
    vertices: &[DVec3],
    triangles: &[[u32; 3]],
) -> Option<Closure> {
    let mut min = DVec2::splat(f64::INFINITY);
    let mut max = DVec2::splat(f64::NEG_INFINITY);
    for v in vertices {
        min = min.min(v.truncate());
        max = max.max(v.truncate());
    }
    if vertices.is_empty() || !min.is_finite() || !max.is_finite() {
        return None;
    }
    let min = min - DVec2::splat(spec.margin_m);
    let size = max + DVec2::splat(spec.margin_m) - min;
    let cell_m = TERRAIN_CELL_M.max(size.max_element() / MAX_CELLS_PER_SIDE);
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let (columns, rows) = (
        (size.x / cell_m).ceil().max(1.0) as usize,
        (size.y / cell_m).ceil().max(1.0) as usize,
    );
    let step = DVec2::new(size.x / columns as f64, size.y / rows as f64);
    // The lowest built point over each cell.
    let mut cell_low = vec![f64::INFINITY; columns * rows];
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let cell_of = |x: f64, count: usize| (x.max(0.0) as usize).min(count - 1);
    for t in triangles {
        let [a, b, c] = t.map(|i| vertices[i as usize]);
        let lo = a.min(b).min(c);
        let hi = a.max(b).max(c);
        let (i0, i1) = (
            cell_of((lo.x - min.x) / step.x, columns),
            cell_of((hi.x - min.x) / step.x, columns),
        );
        let (j0, j1) = (
            cell_of((lo.y - min.y) / step.y, rows),
            cell_of((hi.y - min.y) / step.y, rows),
        );
        for j in j0..=j1 {
            for i in i0..=i1 {
                let low = &mut cell_low[j * columns + i];
                *low = low.min(lo.z);
            }
        }
    }
    // Each grid vertex below the lowest point of the cells around it.
    let stride = columns + 1;
    let mut height = vec![f64::INFINITY; stride * (rows + 1)];
    for j in 0..=rows {
        for i in 0..=columns {
            let mut low = f64::INFINITY;
            for (ci, cj) in [(i, j), (i.wrapping_sub(1), j), (i, j.wrapping_sub(1))]
                .into_iter()
                .chain([(i.wrapping_sub(1), j.wrapping_sub(1))])
            {
                if ci < columns && cj < rows {
                    low = low.min(cell_low[cj * columns + ci]);
                }
            }
            height[j * stride + i] = low - TERRAIN_DROP_M;
        }
    }
    fill_from_neighbours(&mut height, stride, rows + 1);
    let vertex = |i: usize, j: usize| {
        DVec3::new(
            min.x + step.x * i as f64,
            min.y + step.y * j as f64,
            height[j * stride + i],
        )
    };
    let mut terrain = Vec::with_capacity(height.len());
    for j in 0..=rows {
        for i in 0..=columns {
            terrain.push(vertex(i, j));
        }
    }
    let base = u32::try_from(vertices.len()).ok()?;
    let index = |i: usize, j: usize| u32::try_from(j * stride + i).ok().map(|k| base + k);
    let mut cells = Vec::with_capacity(2 * columns * rows);
    for j in 0..rows {
        for i in 0..columns {
            let (a, b) = (index(i, j)?, index(i + 1, j)?);
            let (c, d) = (index(i, j + 1)?, index(i + 1, j + 1)?);
            cells.push([a, b, d]);
            cells.push([a, d, c]);
        }
    }
    // The wall's foot, counter-clockwise: along the bottom row, up the right column, back
    // along the top row and down the left column.
    let mut points = Vec::with_capacity(2 * (columns + rows));
    let mut outward = Vec::with_capacity(2 * (columns + rows));
    let corner = std::f64::consts::FRAC_1_SQRT_2;
    for i in 0..columns {
        points.push(vertex(i, 0));
        outward.push(if i == 0 {
            DVec3::new(-corner, -corner, 0.0)
        } else {
            -DVec3::Y
        });
    }
    for j in 0..rows {
        points.push(vertex(columns, j));
        outward.push(if j == 0 {
            DVec3::new(corner, -corner, 0.0)
        } else {
            DVec3::X
        });
    }
    for i in (1..=columns).rev() {
        points.push(vertex(i, rows));
        outward.push(if i == columns {
            DVec3::new(corner, corner, 0.0)
        } else {
            DVec3::Y
        });
    }
    for j in (1..=rows).rev() {
        points.push(vertex(0, j));
        outward.push(if j == rows {
            DVec3::new(-corner, corner, 0.0)
        } else {
            -DVec3::X
        });
    }
    Some(Closure {
        vertices: terrain,
        triangles: cells,
        wall: Barrier {
            // A right-hand barrier has the road to the left of its direction.
            side: Side::Right,
            spec: BarrierSpec::wall(spec.wall_height_m),
            points,
            outward,
            closed: true,
        },
    })
}

/// Gives every vertex still at infinity (no built ground near it) the lowest height among
/// its four neighbours that have one, wave by wave from the ground outwards; all zero when
/// none has one.
fn fill_from_neighbours(height: &mut [f64], stride: usize, rows: usize) {
    loop {
        let mut next = height.to_vec();
        let mut missing = false;
        let mut changed = false;
        for j in 0..rows {
            for i in 0..stride {
                let k = j * stride + i;
                if height[k].is_finite() {
                    continue;
                }
                let mut low = f64::INFINITY;
                if i > 0 {
                    low = low.min(height[k - 1]);
                }
                if i + 1 < stride {
                    low = low.min(height[k + 1]);
                }
                if j > 0 {
                    low = low.min(height[k - stride]);
                }
                if j + 1 < rows {
                    low = low.min(height[k + stride]);
                }
                if low.is_finite() {
                    next[k] = low;
                    changed = true;
                } else {
                    missing = true;
                }
            }
        }
        height.copy_from_slice(&next);
        if !missing {
            return;
        }
        if !changed {
            height.fill(0.0);
            return;
        }
    }
}

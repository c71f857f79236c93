//! The boundary wall: a wall all round the ground of a world, so that no car leaves it.
//!
//! The ground (the generated road and its sides, and a scene's ground beyond them) is
//! rasterised in plan on a grid of nodes [`BOUNDARY_CELL_M`] apart: a node is covered when a
//! ground triangle, grown by [`GROW_M`] in plan, lies over it (so a seam narrower than
//! twice that between two pieces of ground uncovers nothing); its height is that of the
//! highest such triangle (forza's scene leaves seams up to a metre wide between its ground
//! and the generated ground's edge; a car bridges them, and a wall along them would stand in
//! the run-off). A cell is inside when its four corners are covered, so the wall
//! stands on ground, at most a cell's diagonal inside the ground's real edge. The wall runs
//! along every side between an inside cell and one that is not, chained into closed
//! polylines with the inside on their left (an outer loop counter-clockwise, a hole's
//! clockwise), its foot at the ground's height at each node, [`BOUNDARY_HEIGHT_M`] high,
//! with the barriers' default friction and restitution.

use std::collections::HashMap;

use glam::DVec3;
use gripline_physics::ground::{TriangleMesh, WallRun, Walls};
use gripline_physics::track::barrier_spec::{
    DEFAULT_BARRIER_FRICTION, DEFAULT_BARRIER_RESTITUTION,
};

/// Spacing of the grid's nodes (m).
pub const BOUNDARY_CELL_M: f64 = 2.0;
/// How far (m) a triangle is grown in plan when the grid is rasterised.
pub const GROW_M: f64 = 1.0;
/// Height of the boundary wall above the ground (m).
pub const BOUNDARY_HEIGHT_M: f64 = 3.0;
/// Most nodes the grid may have; a larger world gets larger cells.
const MAX_NODES: usize = 1 << 24;

/// The ground's covered nodes: heights, NaN where uncovered.
struct Raster {
    origin: [f64; 2],
    cell_m: f64,
    columns: usize,
    rows: usize,
    z: Vec<f64>,
}

impl Raster {
    fn covered(&self, i: usize, j: usize) -> bool {
        i < self.columns && j < self.rows && !self.z[j * self.columns + i].is_nan()
    }

    /// Whether cell `(i, j)` (nodes `i..=i+1`, `j..=j+1`) is inside; cells off the grid
    /// (negative or past the end) are not.
    fn inside(&self, i: isize, j: isize) -> bool {
        let (Ok(i), Ok(j)) = (usize::try_from(i), usize::try_from(j)) else {
            return false;
        };
        self.covered(i, j)
            && self.covered(i + 1, j)
            && self.covered(i, j + 1)
            && self.covered(i + 1, j + 1)
    }

    fn node(&self, i: usize, j: usize) -> DVec3 {
        #[allow(clippy::cast_precision_loss)]
        DVec3::new(
            self.origin[0] + i as f64 * self.cell_m,
            self.origin[1] + j as f64 * self.cell_m,
            self.z[j * self.columns + i],
        )
    }
}

/// Rasterises the meshes' triangles (see the module docs); `None` when they hold none.
fn rasterise(meshes: &[&TriangleMesh]) -> Option<Raster> {
    let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    for mesh in meshes {
        let (a, b) = mesh.bounds();
        lo = [lo[0].min(a.x), lo[1].min(a.y)];
        hi = [hi[0].max(b.x), hi[1].max(b.y)];
    }
    if !(lo[0] <= hi[0] && lo[1] <= hi[1]) {
        return None;
    }
    // One empty ring of nodes round the ground, so every loop closes on the grid.
    let margin = 2.0 * BOUNDARY_CELL_M;
    let origin = [lo[0] - margin, lo[1] - margin];
    let mut cell_m = BOUNDARY_CELL_M;
    let size = |c: f64| {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let n = |span: f64| ((span + 2.0 * margin) / c).ceil() as usize + 1;
        (n(hi[0] - lo[0]), n(hi[1] - lo[1]))
    };
    while size(cell_m).0.saturating_mul(size(cell_m).1) > MAX_NODES {
        cell_m *= 2.0;
    }
    let (columns, rows) = size(cell_m);
    let mut z = vec![f64::NAN; columns * rows];
    for mesh in meshes {
        let v = mesh.vertices();
        for (t, normal) in mesh.triangles().iter().zip(mesh.normals()) {
            if normal.z < 1e-3 {
                continue;
            }
            let p = t.map(|i| v[i as usize]);
            rasterise_triangle(&p, *normal, origin, cell_m, columns, rows, &mut z);
        }
    }
    Some(Raster {
        origin,
        cell_m,
        columns,
        rows,
        z,
    })
}

/// Marks the nodes under triangle `p` grown by [`GROW_M`] with its plane's height.
fn rasterise_triangle(
    p: &[DVec3; 3],
    normal: DVec3,
    origin: [f64; 2],
    cell_m: f64,
    columns: usize,
    rows: usize,
    z: &mut [f64],
) {
    // Inward edge normals in plan: a point is inside the grown triangle when its signed
    // distance to every edge is at least -GROW_M.
    let area2 = (p[1] - p[0]).truncate().perp_dot((p[2] - p[0]).truncate());
    if area2.abs() < 1e-9 {
        return;
    }
    let sign = area2.signum();
    let edges: [(glam::DVec2, glam::DVec2); 3] = std::array::from_fn(|k| {
        let a = p[k].truncate();
        let d = p[(k + 1) % 3].truncate() - a;
        (a, d.perp().normalize_or_zero() * sign)
    });
    let min = p[0].min(p[1]).min(p[2]).truncate() - glam::DVec2::splat(GROW_M);
    let max = p[0].max(p[1]).max(p[2]).truncate() + glam::DVec2::splat(GROW_M);
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let range = |lo: f64, hi: f64, o: f64, n: usize| {
        let a = ((lo - o) / cell_m).ceil().max(0.0) as usize;
        let b = (((hi - o) / cell_m).floor().max(-1.0) + 1.0) as usize;
        a..b.min(n)
    };
    for j in range(min.y, max.y, origin[1], rows) {
        for i in range(min.x, max.x, origin[0], columns) {
            #[allow(clippy::cast_precision_loss)]
            let q = glam::DVec2::new(origin[0] + i as f64 * cell_m, origin[1] + j as f64 * cell_m);
            if edges.iter().all(|(a, n)| (q - a).dot(*n) >= -GROW_M) {
                // The plane through p[0] with the (upward) normal.
                let h = p[0].z - ((q.x - p[0].x) * normal.x + (q.y - p[0].y) * normal.y) / normal.z;
                let slot = &mut z[j * columns + i];
                if slot.is_nan() || h > *slot {
                    *slot = h;
                }
            }
        }
    }
}

/// The boundary's closed polylines round the meshes' ground, the inside on their left (see
/// the module docs).
pub fn boundary_loops(meshes: &[&TriangleMesh]) -> Vec<Vec<DVec3>> {
    let Some(r) = rasterise(meshes) else {
        return Vec::new();
    };
    // Directed sides with the inside cell on their left, keyed by their start node.
    let mut out: HashMap<(usize, usize), Vec<(usize, usize)>> = HashMap::new();
    for j in 0..r.rows.saturating_sub(1) {
        for i in 0..r.columns.saturating_sub(1) {
            #[allow(clippy::cast_possible_wrap)]
            let (ci, cj) = (i as isize, j as isize);
            if !r.inside(ci, cj) {
                continue;
            }
            let mut side = |from: (usize, usize), to: (usize, usize), neighbour: (isize, isize)| {
                if !r.inside(neighbour.0, neighbour.1) {
                    out.entry(from).or_default().push(to);
                }
            };
            side((i, j), (i + 1, j), (ci, cj - 1));
            side((i + 1, j), (i + 1, j + 1), (ci + 1, cj));
            side((i + 1, j + 1), (i, j + 1), (ci, cj + 1));
            side((i, j + 1), (i, j), (ci - 1, cj));
        }
    }
    let mut starts: Vec<(usize, usize)> = out.keys().copied().collect();
    starts.sort_unstable();
    let mut loops = Vec::new();
    for start in starts {
        while let Some(next) = out.get_mut(&start).and_then(Vec::pop) {
            // Every node has as many sides in as out, so a walk returns to its start.
            let mut nodes = vec![start];
            let mut at = next;
            while at != start {
                nodes.push(at);
                match out.get_mut(&at).and_then(Vec::pop) {
                    Some(n) => at = n,
                    None => break,
                }
            }
            loops.push(simplify(nodes.iter().map(|&(i, j)| r.node(i, j)).collect()));
        }
    }
    loops
}

/// Drops the middle node of three in a straight line at one height.
fn simplify(points: Vec<DVec3>) -> Vec<DVec3> {
    let n = points.len();
    if n < 4 {
        return points;
    }
    let keep = |k: usize| {
        let (a, b, c) = (points[(k + n - 1) % n], points[k], points[(k + 1) % n]);
        let straight = (b - a).truncate().perp_dot((c - b).truncate()).abs() < 1e-9;
        let level = (a.z - b.z).abs() < 1e-3 && (b.z - c.z).abs() < 1e-3;
        !(straight && level)
    };
    (0..n).filter(|&k| keep(k)).map(|k| points[k]).collect()
}

/// `walls` and the boundary wall round the meshes' ground together.
pub fn with_boundary(walls: &Walls, meshes: &[&TriangleMesh]) -> Walls {
    let loops = boundary_loops(meshes);
    let runs: Vec<WallRun<'_>> = loops
        .iter()
        .map(|points| WallRun {
            points,
            closed: true,
            height_m: BOUNDARY_HEIGHT_M,
            open_to_left: true,
            friction: DEFAULT_BARRIER_FRICTION,
            restitution: DEFAULT_BARRIER_RESTITUTION,
        })
        .collect();
    walls.with_runs(&runs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use gripline_physics::ground::Surface;

    fn square(x0: f64, y0: f64, side: f64, z: f64) -> (Vec<DVec3>, Vec<[u32; 3]>) {
        (
            vec![
                DVec3::new(x0, y0, z),
                DVec3::new(x0 + side, y0, z),
                DVec3::new(x0 + side, y0 + side, z),
                DVec3::new(x0, y0 + side, z),
            ],
            vec![[0, 1, 2], [0, 2, 3]],
        )
    }

    #[test]
    fn a_square_of_ground_gets_one_loop_just_inside_its_edge() {
        let (v, t) = square(0.0, 0.0, 40.0, 1.5);
        let mesh = TriangleMesh::new(v, t, vec![Surface::Grass; 2]).expect("mesh");
        let loops = boundary_loops(&[&mesh]);
        assert_eq!(loops.len(), 1);
        let ring = &loops[0];
        // Simplified to its four corners, counter-clockwise (inside on the left).
        assert_eq!(ring.len(), 4, "{ring:?}");
        let area: f64 = (0..4)
            .map(|k| ring[k].truncate().perp_dot(ring[(k + 1) % 4].truncate()))
            .sum::<f64>()
            / 2.0;
        assert!(area > 0.0);
        for p in ring {
            // Within a cell of the edge, on the ground, at its height.
            let inset = p.x.min(p.y).min(40.0 - p.x).min(40.0 - p.y);
            assert!((-GROW_M..=BOUNDARY_CELL_M).contains(&inset), "{p}");
            assert!((p.z - 1.5).abs() < 1e-9);
        }
        // A car inside is in front of every face; one beyond the edge behind one.
        let walls = with_boundary(&Walls::default(), &[&mesh]);
        assert!(
            walls
                .find_entry(DVec3::new(20.0, 20.0, 2.0), 0.25)
                .is_none()
        );
        let edge_x = ring.iter().map(|p| p.x).fold(f64::MIN, f64::max);
        let hit = walls
            .find_entry(DVec3::new(edge_x + 0.1, 20.0, 2.0), 0.25)
            .expect("behind the east face");
        assert!((hit.normal - DVec3::NEG_X).length() < 1e-12, "{hit:?}");
    }

    #[test]
    fn a_narrow_seam_makes_no_wall_and_a_hole_gets_its_own_loop() {
        // Two squares 1.5 m apart (a seam narrower than 2 x GROW_M): one ground.
        let (mut v, mut t) = square(0.0, 0.0, 40.0, 0.0);
        let (v2, t2) = square(41.5, 0.0, 40.0, 0.0);
        t.extend(t2.iter().map(|tri| tri.map(|i| i + 4)));
        v.extend(v2);
        let mesh = TriangleMesh::new(v, t, vec![Surface::Grass; 4]).expect("mesh");
        assert_eq!(boundary_loops(&[&mesh]).len(), 1);
        // A ring of ground round a 20 m hole: an outer loop and the hole's.
        let mut v = Vec::new();
        let mut t = Vec::new();
        for (x, y, w, h) in [
            (0.0, 0.0, 60.0, 20.0),
            (0.0, 40.0, 60.0, 20.0),
            (0.0, 20.0, 20.0, 20.0),
            (40.0, 20.0, 20.0, 20.0),
        ] {
            let first = u32::try_from(v.len()).expect("small");
            v.extend([
                DVec3::new(x, y, 0.0),
                DVec3::new(x + w, y, 0.0),
                DVec3::new(x + w, y + h, 0.0),
                DVec3::new(x, y + h, 0.0),
            ]);
            t.extend([[first, first + 1, first + 2], [first, first + 2, first + 3]]);
        }
        let mesh = TriangleMesh::new(v, t, vec![Surface::Grass; 8]).expect("mesh");
        let loops = boundary_loops(&[&mesh]);
        assert_eq!(loops.len(), 2);
        let walls = with_boundary(&Walls::default(), &[&mesh]);
        // The middle of the hole is far from every face; its edge from the ring's side is
        // behind the hole's face.
        assert!(
            walls
                .find_entry(DVec3::new(30.0, 30.0, 1.0), 0.25)
                .is_none()
        );
        let hole_edge = loops
            .iter()
            .flatten()
            .filter(|p| (p.y - 30.0).abs() <= 10.0 && p.x < 30.0)
            .map(|p| p.x)
            .fold(f64::MIN, f64::max);
        assert!(
            walls
                .find_entry(DVec3::new(hole_edge + 0.1, 30.0, 1.0), 0.25)
                .is_some()
        );
    }
}

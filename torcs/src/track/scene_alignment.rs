//! Whether a TORCS scene lies on the imported road: its surface is looked up under points of
//! the track's centre line. A scene made from another version of the track file, or in a
//! frame the importer does not know (dirt-4's `.ac` lies 705 m north of its XML's road), is
//! refused so that the generated ground is drawn instead of a world the car floats beside.

use gripline_physics::track::TrackMesh;

use crate::track::scene_file::TrackScene;

/// Points of the centre line checked.
pub const ALIGNMENT_POINTS: usize = 8;
/// Largest median height difference between the scene and the road for the scene to count
/// as lying on it (m). Imported tracks agree within a centimetre; heights smoothed over 10 m
/// move the road by about a millimetre.
pub const MAX_SCENE_OFFSET_M: f64 = 0.5;

/// Median over [`ALIGNMENT_POINTS`] points spread along `mesh`'s centre line of the height
/// difference between the road there and the nearest scene surface directly above or below
/// it (m); a point with no scene surface above or below counts as infinitely far.
pub fn scene_offset_m(scene: &TrackScene, mesh: &TrackMesh) -> f64 {
    let length = mesh.centre_line.length_m();
    let mut offsets: Vec<f64> = (0..ALIGNMENT_POINTS)
        .filter_map(|i| {
            #[allow(clippy::cast_precision_loss)]
            let station = length * (i as f64 + 0.5) / ALIGNMENT_POINTS as f64;
            mesh.centre_line.sample_at(station)
        })
        .map(|sample| nearest_surface_m(scene, sample.position.to_array()))
        .collect();
    if offsets.is_empty() {
        return f64::INFINITY;
    }
    offsets.sort_by(f64::total_cmp);
    offsets[offsets.len() / 2]
}

/// Height difference from `p` to the nearest scene triangle directly above or below it.
fn nearest_surface_m(scene: &TrackScene, p: [f64; 3]) -> f64 {
    let o = scene.origin;
    let (x, y) = (p[0] - o[0], p[1] - o[1]);
    let mut best = f64::INFINITY;
    for batch in &scene.batches {
        for tri in batch.indices.chunks_exact(3) {
            let v: [[f64; 3]; 3] = std::array::from_fn(|k| {
                batch
                    .vertices
                    .get(tri[k] as usize)
                    .map_or([f64::NAN; 3], |v| v.position.map(f64::from))
            });
            if let Some(z) = height_in_triangle(v, x, y) {
                best = best.min((z + o[2] - p[2]).abs());
            }
        }
    }
    best
}

/// Height of the plane of triangle `v` at `(x, y)` when `(x, y)` lies inside its plan.
pub(crate) fn height_in_triangle(v: [[f64; 3]; 3], x: f64, y: f64) -> Option<f64> {
    let d = (v[1][1] - v[2][1]) * (v[0][0] - v[2][0]) + (v[2][0] - v[1][0]) * (v[0][1] - v[2][1]);
    if d.abs() < 1e-12 || !d.is_finite() {
        return None;
    }
    let a = ((v[1][1] - v[2][1]) * (x - v[2][0]) + (v[2][0] - v[1][0]) * (y - v[2][1])) / d;
    let b = ((v[2][1] - v[0][1]) * (x - v[2][0]) + (v[0][0] - v[2][0]) * (y - v[2][1])) / d;
    let c = 1.0 - a - b;
    (a >= 0.0 && b >= 0.0 && c >= 0.0).then(|| a * v[0][2] + b * v[1][2] + c * v[2][2])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_point_inside_a_triangle_gets_its_plane_height_and_one_outside_none() {
        let tri = [[0.0, 0.0, 1.0], [10.0, 0.0, 2.0], [0.0, 10.0, 3.0]];
        let z = height_in_triangle(tri, 2.0, 3.0).expect("inside");
        assert!((z - (1.0 + 0.2 + 0.6)).abs() < 1e-12, "{z}");
        assert!(height_in_triangle(tri, 8.0, 8.0).is_none());
        assert!(height_in_triangle([[0.0; 3]; 3], 0.0, 0.0).is_none());
    }
}

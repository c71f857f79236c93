//! A closed world on a TORCS track: the generated ground, the scene's ground beyond it, and
//! a boundary wall round both (DESIGN.md section 15).
//!
//! [`close_world`] reads the track's scene (geometry only, no textures), classifies its
//! triangles ([`super::scene_ground`]), checks that its ground lies on the generated road
//! (as [`super::scene_alignment`] does for drawing: a scene off by more than
//! [`MAX_SCENE_OFFSET_M`] is refused, and the world is the generated ground alone), keeps
//! the ground beyond the generated one as the track's
//! [`outer_ground`](gripline_physics::track::TrackMesh::outer_ground), and adds the
//! boundary wall ([`super::boundary_wall`]) round all the ground to the track's walls, and
//! the scene's solid objects ([`super::scene_solids`]) as the track's
//! [`solids`](gripline_physics::track::TrackMesh::solids).

use std::path::{Path, PathBuf};

use gripline_formats::track_file::LoadedTrack;
use gripline_physics::ground::{Surface, TriangleMesh};
use gripline_physics::track::TrackMesh;

use crate::ac3d::parse_ac3d;
use crate::error::TorcsError;
use crate::track::boundary_wall::{boundary_loops, with_boundary};
use crate::track::scene_alignment::{ALIGNMENT_POINTS, MAX_SCENE_OFFSET_M, height_in_triangle};
use crate::track::scene_file::scene_path_for_track;
use crate::track::scene_ground::{SceneCounts, classify_scene, outer_ground};
use crate::track::scene_solids::{SolidCounts, scene_solids};
use crate::track::surfaces::SurfaceTable;

/// What [`close_world`] made of a track.
#[derive(Debug, Default)]
pub struct ClosedWorld {
    /// The scene file whose ground was added, if one was.
    pub scene: Option<PathBuf>,
    /// Why a scene the track has was not used (unreadable, or not on the road).
    pub scene_refused: Option<String>,
    /// How the scene's triangles were classified.
    pub counts: SceneCounts,
    /// What of the scene's solid triangles collides.
    pub solids: SolidCounts,
    /// Number of closed polylines of the boundary wall.
    pub boundary_loops: usize,
}

/// Adds the scene's ground and the boundary wall to `track`, imported from the TORCS file
/// `xml` with its `surfaces` and TORCS's lower corner `lower` (see
/// [`super::scene_file::scene_for_track`]). Never fails: a missing, unreadable or misplaced
/// scene leaves the generated ground, with the boundary round it.
pub fn close_world(
    track: &mut LoadedTrack,
    xml: &Path,
    surfaces: &SurfaceTable,
    lower: [f64; 3],
) -> ClosedWorld {
    let mut report = ClosedWorld::default();
    if let Some(path) = scene_path_for_track(xml) {
        match scene_ground(&path, surfaces, lower, &track.mesh) {
            Ok((outer, solid, counts)) => {
                report.counts = counts;
                track.mesh.outer_ground = outer;
                let (solids, solid_counts) = scene_solids(&solid, &track.mesh);
                track.mesh.solids = solids;
                report.solids = solid_counts;
                track.files.push(path.clone());
                report.scene = Some(path);
            }
            Err(reason) => report.scene_refused = Some(reason),
        }
    }
    let mesh = &track.mesh;
    let mut meshes: Vec<&TriangleMesh> = vec![&mesh.ground];
    meshes.extend(mesh.outer_ground.as_ref());
    report.boundary_loops = boundary_loops(&meshes).len();
    track.mesh.walls = with_boundary(&mesh.walls, &meshes);
    report
}

/// The scene's ground beyond the generated one and its solid triangles (each with its
/// object's index), or why there are none.
#[allow(clippy::type_complexity)]
fn scene_ground(
    path: &Path,
    surfaces: &SurfaceTable,
    lower: [f64; 3],
    mesh: &TrackMesh,
) -> Result<
    (
        Option<TriangleMesh>,
        Vec<([glam::DVec3; 3], usize)>,
        SceneCounts,
    ),
    String,
> {
    let bytes = std::fs::read(path).map_err(|e| {
        TorcsError::Io {
            path: path.to_owned(),
            source: e,
        }
        .to_string()
    })?;
    let file = parse_ac3d(&String::from_utf8_lossy(&bytes)).map_err(|e| {
        TorcsError::Scene {
            path: path.to_owned(),
            line: e.line,
            message: e.message,
        }
        .to_string()
    })?;
    let scene = classify_scene(&file, lower, surfaces);
    let offset_m = ground_offset_m(&scene.ground, mesh);
    if offset_m.is_nan() || offset_m > MAX_SCENE_OFFSET_M {
        return Err(TorcsError::SceneMisplaced {
            path: path.to_owned(),
            offset_m,
            points: ALIGNMENT_POINTS,
        }
        .to_string());
    }
    let (outer, counts) = outer_ground(&mesh.ground, &scene.ground, scene.counts);
    Ok((outer, scene.solid, counts))
}

/// [`super::scene_alignment::scene_offset_m`] for the scene's ground triangles.
fn ground_offset_m(ground: &[([glam::DVec3; 3], Surface)], mesh: &TrackMesh) -> f64 {
    let length = mesh.centre_line.length_m();
    let mut offsets: Vec<f64> = (0..ALIGNMENT_POINTS)
        .filter_map(|i| {
            #[allow(clippy::cast_precision_loss)]
            let station = length * (i as f64 + 0.5) / ALIGNMENT_POINTS as f64;
            mesh.centre_line.sample_at(station)
        })
        .map(|s| {
            let p = s.position;
            ground
                .iter()
                .filter_map(|(c, _)| height_in_triangle(c.map(|v| v.to_array()), p.x, p.y))
                .map(|z| (z - p.z).abs())
                .fold(f64::INFINITY, f64::min)
        })
        .collect();
    if offsets.is_empty() {
        return f64::INFINITY;
    }
    offsets.sort_by(f64::total_cmp);
    offsets[offsets.len() / 2]
}

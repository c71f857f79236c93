//! The scene (`.acc` / `.ac` model and textures) of every TORCS track installed by Debian's
//! `torcs-data` loads (all in the full check, nine of every kind by default: `DEFAULT_SWEEP` in
//! `main.rs`), and lines up with the centre line imported from the same track's XML.
//! Without the package the tests print why they skip (`scripts/setup.sh --test` installs it).

use gripline_torcs::track::convert::import_track;
use gripline_torcs::track::load::load_torcs_track;
use gripline_torcs::track::scene_file::{
    TrackScene, load_scene, scene_for_track, scene_path_for_track,
};

use crate::{installed, swept_tracks};

#[test]
fn every_installed_track_scene_loads_and_lists_missing_textures() {
    let Some(tracks) = swept_tracks() else { return };
    let mut failures = Vec::new();
    for track in &tracks {
        let Some(path) = scene_path_for_track(&track.xml) else {
            failures.push(format!("{}: no scene file", track.name));
            continue;
        };
        match load_scene(&path) {
            Ok(scene) => {
                let decoded = scene.textures.iter().filter(|t| t.image.is_some()).count();
                println!(
                    "{:>14}: {} ({} batches, {} triangles, {decoded} textures)",
                    track.name,
                    path.file_name()
                        .map_or_else(String::new, |n| n.to_string_lossy().into()),
                    scene.batches.len(),
                    scene.triangle_count(),
                );
                for name in &scene.missing_textures {
                    println!("                missing texture: {name}");
                }
                for w in scene.warnings.iter().filter(|w| !w.starts_with("texture")) {
                    println!("                {w}");
                }
                // Triangles wind counter-clockwise seen from the side the file's own vertex
                // normals point to (strip parity and the frame change keep the winding).
                let (mut agree, mut with_normals) = (0usize, 0usize);
                for batch in &scene.batches {
                    for tri in batch.indices.chunks_exact(3) {
                        let [a, b, c] = [0, 1, 2].map(|k| batch.vertices[tri[k] as usize]);
                        let u = [0, 1, 2].map(|k| b.position[k] - a.position[k]);
                        let v = [0, 1, 2].map(|k| c.position[k] - a.position[k]);
                        let cross = [
                            u[1] * v[2] - u[2] * v[1],
                            u[2] * v[0] - u[0] * v[2],
                            u[0] * v[1] - u[1] * v[0],
                        ];
                        let n = [0, 1, 2].map(|k| a.normal[k] + b.normal[k] + c.normal[k]);
                        let dot: f32 = (0..3).map(|k| cross[k] * n[k]).sum();
                        with_normals += 1;
                        if dot > 0.0 {
                            agree += 1;
                        }
                    }
                }
                println!(
                    "                {:.1} % of triangles wound towards their normals",
                    100.0 * agree as f64 / with_normals.max(1) as f64
                );
                if agree * 10 < with_normals * 9 {
                    failures.push(format!(
                        "{}: triangles wound against their normals",
                        track.name
                    ));
                }
                if scene.triangle_count() < 1000 || decoded == 0 {
                    failures.push(format!("{}: an empty or untextured scene", track.name));
                }
            }
            Err(e) => failures.push(format!("{}: {e}", track.name)),
        }
    }
    for f in &failures {
        println!("FAILED {f}");
    }
    assert!(failures.is_empty(), "{} scenes failed", failures.len());
}

/// The height of the scene's surface under `(x, y)` closest to `z`, if any triangle is there.
fn height_near(scene: &TrackScene, x: f64, y: f64, z: f64) -> Option<f64> {
    let (px, py) = (x - scene.origin[0], y - scene.origin[1]);
    let mut best: Option<f64> = None;
    for batch in &scene.batches {
        for chunk in &batch.chunks {
            let inside = f64::from(chunk.min[0]) <= px
                && px <= f64::from(chunk.max[0])
                && f64::from(chunk.min[1]) <= py
                && py <= f64::from(chunk.max[1]);
            if !inside {
                continue;
            }
            let start = chunk.first_index as usize;
            let end = start + chunk.index_count as usize;
            for tri in batch.indices[start..end].chunks_exact(3) {
                let [a, b, c] =
                    [0, 1, 2].map(|k| batch.vertices[tri[k] as usize].position.map(f64::from));
                let det = (b[1] - c[1]) * (a[0] - c[0]) + (c[0] - b[0]) * (a[1] - c[1]);
                if det.abs() < 1e-9 {
                    continue;
                }
                let l1 = ((b[1] - c[1]) * (px - c[0]) + (c[0] - b[0]) * (py - c[1])) / det;
                let l2 = ((c[1] - a[1]) * (px - c[0]) + (a[0] - c[0]) * (py - c[1])) / det;
                let l3 = 1.0 - l1 - l2;
                if l1 < -1e-6 || l2 < -1e-6 || l3 < -1e-6 {
                    continue;
                }
                let h = l1 * a[2] + l2 * b[2] + l3 * c[2] + scene.origin[2];
                if best.is_none_or(|b| (h - z).abs() < (b - z).abs()) {
                    best = Some(h);
                }
            }
        }
    }
    best
}

#[test]
fn scenes_line_up_with_the_imported_centre_lines() {
    let Some(tracks) = installed() else { return };
    for name in ["forza", "e-track-1", "aalborg", "a-speedway"] {
        let Some(track) = tracks.iter().find(|t| t.name == name) else {
            panic!("{name} is not installed");
        };
        let imported = import_track(&track.xml).expect("imports");
        let loaded = load_torcs_track(&track.xml).expect("loads");
        let scene = scene_for_track(&loaded)
            .expect("a TORCS track with a scene")
            .expect("loads");
        let points = &imported.layout.centre_line;
        let (lo, hi) = points.iter().fold(
            ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]),
            |(lo, hi), p| {
                (
                    [lo[0].min(p.x_m), lo[1].min(p.y_m)],
                    [hi[0].max(p.x_m), hi[1].max(p.y_m)],
                )
            },
        );
        println!(
            "{name}: centre line x {:.1}..{:.1}, y {:.1}..{:.1}, starts at ({:.1}, {:.1}, {:.2}); \
             scene origin {:?}",
            lo[0], hi[0], lo[1], hi[1], points[0].x_m, points[0].y_m, points[0].z_m, scene.origin
        );
        let step = (points.len() / 120).max(1);
        let (mut checked, mut close, mut worst) = (0, 0, 0.0f64);
        for p in points.iter().step_by(step) {
            checked += 1;
            if let Some(h) = height_near(&scene, p.x_m, p.y_m, p.z_m) {
                let dz = (h - p.z_m).abs();
                worst = worst.max(dz);
                if dz < 0.25 {
                    close += 1;
                }
            }
        }
        println!(
            "{name}: {close} of {checked} centre-line points have the scene's surface within \
             0.25 m above or below (largest gap {worst:.3} m)"
        );
        assert!(
            close * 100 >= checked * 95,
            "{name}: the scene does not line up"
        );
    }
}

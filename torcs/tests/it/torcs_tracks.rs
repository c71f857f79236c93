//! Every TORCS track installed by Debian's `torcs-data` (`/usr/share/games/torcs/tracks`)
//! imports and builds its ground mesh, and its centre line is as long as its XML segments say
//! (all 38 in the full check; the default check sweeps nine of every kind, `DEFAULT_SWEEP`).
//! Without the package the tests print why they skip (`scripts/setup.sh --test` installs it).
//!
//! Loading a track (reading its XML, building its ground and barriers) is most of the time
//! here, about a second a track: the three tests that go through every track share one load
//! of each ([`swept`]), keeping what they check, instead of loading each three times.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use gripline_physics::track::{Barrier, CentreLine};
use gripline_torcs::params::Section;
use gripline_torcs::track::convert::import_track;
use gripline_torcs::track::discover::InstalledTrack;
use gripline_torcs::track::load::load_torcs_track;
use gripline_torcs::xml::read_params;

use crate::{installed, swept_tracks};

/// What the tests check of one installed track, from one `load_torcs_track` and one
/// `import_track` (the errors as their messages).
struct Swept {
    track: InstalledTrack,
    loaded: Result<Loaded, String>,
    imported: Result<Imported, String>,
}

/// Of `load_torcs_track`'s track: all but the ground mesh, which only its triangle count is
/// needed of.
struct Loaded {
    name: String,
    files: Vec<PathBuf>,
    length_m: f64,
    triangles: usize,
    centre_line: CentreLine,
    barriers: Vec<Barrier>,
    wall_segments: usize,
}

/// Of `import_track`'s track.
struct Imported {
    main_length_m: f64,
    warnings: Vec<String>,
}

/// Every installed track, loaded and imported once for all the tests of this module (`None`
/// without `torcs-data`).
fn swept() -> Option<&'static [Swept]> {
    static SWEPT: OnceLock<Option<Vec<Swept>>> = OnceLock::new();
    SWEPT
        .get_or_init(|| {
            let tracks = swept_tracks()?;
            Some(
                tracks
                    .into_iter()
                    .map(|track| {
                        let loaded = load_torcs_track(&track.xml)
                            .map(|t| Loaded {
                                name: t.name,
                                files: t.files,
                                length_m: t.mesh.length_m,
                                triangles: t.mesh.ground.triangle_count(),
                                centre_line: t.mesh.centre_line,
                                barriers: t.mesh.barriers,
                                wall_segments: t.mesh.walls.segments().len(),
                            })
                            .map_err(|e| e.to_string());
                        let imported = import_track(&track.xml)
                            .map(|t| Imported {
                                main_length_m: t.main.length_m,
                                warnings: t.warnings,
                            })
                            .map_err(|e| e.to_string());
                        Swept {
                            track,
                            loaded,
                            imported,
                        }
                    })
                    .collect(),
            )
        })
        .as_deref()
}

fn num(s: &Section, name: &str, default: f64) -> f64 {
    s.number(name).expect("numeric").unwrap_or(default)
}

/// The main track's length straight from the XML: straights by `lg`, arcs by
/// `(radius + end radius) / 2 * arc`, and spirals cut into several profile steps by TORCS's
/// formula (the steps' radii run linearly from `radius` to `end radius`, and the steps share
/// the length so that they turn through `arc`: `length = arc * steps / sum(1 / r_k)`).
fn xml_length_m(xml: &Path) -> f64 {
    let params = read_params(xml).expect("parses");
    let main = params.root.section("Main Track").expect("main track");
    let global_step = num(main, "profil steps length", 0.0);
    let mut total = 0.0;
    let list = main
        .section("Track Segments")
        .or_else(|| main.section("segments"))
        .expect("segments");
    for seg in &list.sections {
        match seg.text("type").expect("text") {
            Some("str") => total += num(seg, "lg", 0.0),
            Some("lft" | "rgt") => {
                let r = num(seg, "radius", 0.0);
                let re = num(seg, "end radius", r);
                let arc = num(seg, "arc", 0.0);
                let plain = 0.5 * (r + re) * arc;
                let linear = seg.text("profil").expect("text") == Some("linear");
                let mut steps = num(seg, "profil steps", 1.0).floor();
                if steps <= 1.0 {
                    let step = num(seg, "profil steps length", global_step);
                    steps = if step > 0.0 {
                        (plain / step).floor() + 1.0
                    } else {
                        1.0
                    };
                }
                if linear {
                    steps = 1.0;
                }
                if (re - r).abs() > 0.0 && steps > 1.0 {
                    let dr = (re - r) / (steps - 1.0);
                    let mut inverse = 0.0;
                    let mut k = 0.0;
                    while k < steps {
                        inverse += 1.0 / (r + k * dr);
                        k += 1.0;
                    }
                    total += arc * steps / inverse;
                } else {
                    total += plain;
                }
            }
            _ => {}
        }
    }
    total
}

#[test]
fn every_installed_track_imports_and_builds_its_ground() {
    let Some(tracks) = swept() else { return };
    println!("{} tracks installed", tracks.len());
    let mut failures = Vec::new();
    for Swept {
        track,
        loaded,
        imported,
    } in tracks
    {
        match loaded {
            Ok(loaded) => {
                let imported = imported.as_ref().expect("imports");
                println!(
                    "{}/{}: '{}' {:.1} m, {} triangles",
                    track.category, track.name, loaded.name, loaded.length_m, loaded.triangles
                );
                for w in &imported.warnings {
                    println!("  not fully read: {w}");
                }
                // What a replay hashes: the track file, then the shared surfaces it includes.
                let names: Vec<_> = loaded
                    .files
                    .iter()
                    .map(|f| f.file_name().unwrap_or_default().to_string_lossy())
                    .collect();
                if loaded.files.first() != Some(&track.xml)
                    || !names.contains(&"surfaces.xml".into())
                {
                    failures.push(format!(
                        "{}/{}: files {names:?}",
                        track.category, track.name
                    ));
                }
            }
            Err(e) => failures.push(format!("{}/{}: {e}", track.category, track.name)),
        }
    }
    for f in &failures {
        println!("FAILED {f}");
    }
    assert!(failures.is_empty(), "{} tracks failed", failures.len());
}

#[test]
fn centre_line_lengths_match_the_xml_segments_within_half_a_percent() {
    let Some(tracks) = swept() else { return };
    let mut worst: f64 = 0.0;
    let mut bad = Vec::new();
    for Swept {
        track,
        loaded,
        imported,
    } in tracks
    {
        let expected = xml_length_m(&track.xml);
        let loaded = loaded.as_ref().expect("loads");
        let imported = imported.as_ref().expect("imports");
        let error = (loaded.length_m - expected) / expected;
        println!(
            "{:>14}: XML {expected:9.2} m, TORCS steps {:9.2} m, centre line {:9.2} m, error {:+.3} %",
            track.name,
            imported.main_length_m,
            loaded.length_m,
            100.0 * error
        );
        // The sampled steps add up to the XML's length (rounding only).
        assert!(
            (imported.main_length_m - expected).abs() < 1e-6 * expected,
            "{}",
            track.name
        );
        worst = worst.max(error.abs());
        if error.abs() > 0.005 {
            bad.push(track.name.clone());
        }
    }
    println!("largest error {:.3} %", 100.0 * worst);
    assert!(bad.is_empty(), "off by more than 0.5 %: {bad:?}");
}

/// Every installed track has its barriers, and none stands on its road: each barrier point
/// lies at least half the road's (horizontal) width from every sample of the centre line.
#[test]
fn every_installed_track_has_barriers_beside_its_road() {
    let Some(tracks) = swept() else { return };
    for Swept { track, loaded, .. } in tracks {
        let mesh = loaded.as_ref().expect("loads");
        // Half the road's horizontal width (a banked road is wider along its slope).
        let half = mesh
            .centre_line
            .samples()
            .iter()
            .map(|s| (s.left_edge() - s.position).truncate().length())
            .fold(f64::MAX, f64::min);
        let points: usize = mesh.barriers.iter().map(|b| b.points.len()).sum();
        println!(
            "{}/{}: {} barrier polylines, {points} points, {} wall segments",
            track.category,
            track.name,
            mesh.barriers.len(),
            mesh.wall_segments
        );
        assert!(!mesh.barriers.is_empty(), "{}", track.name);
        for b in &mesh.barriers {
            assert!(b.points.len() >= 2 && b.points.len() == b.outward.len());
            for p in b.points.iter().step_by(7) {
                // In three dimensions: a track that crosses itself has barriers above or
                // below its other road.
                let lateral = mesh
                    .centre_line
                    .samples()
                    .iter()
                    .map(|s| s.position.distance(*p))
                    .fold(f64::MAX, f64::min);
                assert!(
                    lateral >= half - 0.01,
                    "{}: barrier point {p} {lateral:.2} m from the centre line",
                    track.name
                );
            }
        }
    }
}

/// Forza's lap starts where TORCS's does (the start of its first segment, heading along it),
/// and its pit lane (the 15 m right side of the segments from "pit start" to "pit end",
/// surface `b-pits`) is ground a car drives on, with no barrier between it and the road.
#[test]
fn forza_times_from_its_own_start_line_and_its_pit_lane_is_drivable() {
    use gripline_physics::ground::Surface;

    let Some(tracks) = installed() else { return };
    let forza = tracks.iter().find(|t| t.name == "forza").expect("forza");
    let main = gripline_torcs::track::geometry::main_track(&read_params(&forza.xml).expect("xml"))
        .expect("main track");
    let loaded = load_torcs_track(&forza.xml).expect("loads");
    let mesh = &loaded.mesh;

    // The start line: station 0 of the lap timer's centre line.
    let start = &mesh.centre_line.samples()[0];
    let torcs_start = &main.samples[0];
    let gap =
        (start.position.truncate() - glam::DVec2::new(torcs_start.x_m, torcs_start.y_m)).length();
    assert!(gap < 0.05, "the start line is {gap:.3} m from TORCS's");
    // Heading a few metres in: at station 0 itself the tangent blends the loop's last piece
    // (forza's last segment is an arc) with the first straight.
    let tangent = mesh.centre_line.sample_at(5.0).expect("5 m in").tangent;
    let heading = tangent.y.atan2(tangent.x);
    let turn = (heading - torcs_start.heading_rad + std::f64::consts::PI)
        .rem_euclid(std::f64::consts::TAU)
        - std::f64::consts::PI;
    assert!(
        turn.abs() < 0.002,
        "the start heads {turn:.4} rad off TORCS's"
    );

    // The pit lane: halfway along "pit start", in the middle of the right side.
    let pit: Vec<_> = main
        .samples
        .iter()
        .filter(|s| s.segment == "pit start")
        .collect();
    assert!(pit.len() > 10, "forza has a 130 m 'pit start' segment");
    let s = pit[pit.len() / 2];
    let side = &s.sides[0];
    assert_eq!(side.side_surface, "b-pits");
    let forward = glam::DVec2::new(s.heading_rad.cos(), s.heading_rad.sin());
    let right = glam::DVec2::new(forward.y, -forward.x);
    let centre = glam::DVec2::new(s.x_m, s.y_m);
    let lateral = 0.5 * main.width_m + side.border_width_m + 0.5 * side.side_width_m;
    let p = centre + right * lateral;
    let z_road = 0.5 * (s.z_left_m + s.z_right_m);
    let hit = mesh
        .ground
        .height_below(p.x, p.y, z_road + 20.0)
        .expect("ground under the pit lane");
    println!(
        "pit lane at ({:.1}, {:.1}): {:?}, {:.2} m from the road's height",
        p.x,
        p.y,
        hit.surface,
        hit.point.z - z_road
    );
    assert!(
        matches!(hit.surface, Surface::Asphalt | Surface::Concrete),
        "the pit lane is {:?}",
        hit.surface
    );
    assert!((hit.point.z - z_road).abs() < 1.0);
    assert!(
        hit.normal.z > 0.98,
        "the pit lane is level: normal {}",
        hit.normal
    );
    // No barrier stands between the road and the pit lane there.
    for b in &mesh.barriers {
        for q in &b.points {
            let d = q.truncate() - centre;
            let (along, across) = (d.dot(forward), d.dot(right));
            assert!(
                along.abs() > 10.0 || across < 0.0 || across > lateral + 0.5,
                "a barrier at {q} stands between the road and the pit lane"
            );
        }
    }
}

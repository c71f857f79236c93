//! A TORCS scene's triangles as physics: which are ground, which are solid, which are only
//! drawn, and the ground that lies beyond the generated road.
//!
//! TORCS scenes name their objects loosely (forza's 1901 objects are mostly `OBJECT...`,
//! aalborg's and dirt-1's `OBJ...`; the track generator's `TKMN`, `B0LT`, `T0RB`... are the
//! road, its borders and barriers), so a triangle is classified by its texture file name
//! (else its object's name), its material and its slope, in this order:
//!
//! | test (texture, else object name, lower case) | class | Gripline surface |
//! |---|---|---|
//! | material transparency above 0.5 | drawn only | — |
//! | `tree`, `arbor`, `forest`, `bush`, `leaf`, `plant`, `sky`, `cloud`, `shadow`, `raceline`, `skid`, `flag`, `banner`, `spectator`, `crowd`, `people`, `lamp`, `light` | drawn only | — |
//! | steeper than 60° (`abs(n_z) < 0.5`) | solid | — |
//! | `sand` | ground | TORCS `sand` mapped ([`SurfaceTable::map`]): [`Surface::Sand`] |
//! | `gravel`, `grav` | ground | [`Surface::Gravel`] |
//! | `curb`, `kerb` | ground | [`Surface::Kerb`] |
//! | `dirt`, `mud`, `earth` | ground | TORCS `dirt` mapped: [`Surface::Concrete`] (as the road importer maps it) |
//! | `grass`, `gras`, `green`, `lawn`, `terr`, `ground` | ground | TORCS `grass` mapped: [`Surface::Grass`] |
//! | `conc`, `pit`, `pave`, `beton` | ground | TORCS `concrete` mapped: [`Surface::Concrete`] |
//! | `asph`, `road`, `tarmac` | ground | TORCS `asphalt` mapped: [`Surface::Asphalt`] |
//! | anything else | ground | [`Surface::Grass`] (unnamed terrain) |
//!
//! The surface names go through the track's own [`SurfaceTable`] (the track's `Surfaces`
//! and TORCS's shared `surfaces.xml`), so a track that redefines `grass` gets its own
//! mapping; a table without the name gives the surface the table shows.
//!
//! Solid triangles (stands, walls, fences, buildings' sides, tyre stacks, poles) collide with
//! the car body ([`super::scene_solids`]), besides the track's barriers
//! ([`gripline_physics::track::barrier`]) and the boundary wall around the ground
//! ([`super::boundary_wall`]). A tree drawn as crossed billboards (textures named `tree`...)
//! is drawn only, since the billboards are as wide as the crown; a tree whose trunk is its
//! own textured object (forza's `TRETRNK.png`, 19 trunks) is solid.
//!
//! Ground under the generated road: a scene's own road, borders and run-offs lie on the
//! generated ground within centimetres (see [`super::scene_alignment`]). A ground triangle
//! whose corners (pulled 5 % towards its centre) and centre all lie within
//! [`UNDER_ROAD_M`] of the generated ground straight above or below is dropped; a triangle
//! reaching beyond the generated ground's edge is kept, and where it overlaps the generated
//! ground, the generated ground answers first ([`gripline_physics::track::TrackMesh`]'s
//! `outer_ground`), so there is never a double surface.

use glam::DVec3;
use gripline_physics::ground::{Ground, Surface, TriangleMesh};

use crate::ac3d::Ac3dFile;
use crate::track::scene_file::{to_world, triangulate};
use crate::track::surfaces::SurfaceTable;

/// How far (m) a scene ground triangle may lie from the generated ground, straight above or
/// below, to count as lying on it (and be dropped).
pub const UNDER_ROAD_M: f64 = 1.0;

/// Largest slope of a ground triangle: `abs(n_z)` at least this (cos 60°).
pub const GROUND_MIN_NORMAL_Z: f64 = 0.5;

/// What physics makes of a scene triangle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SceneClass {
    /// Ground a wheel stands on, with its surface.
    Ground(Surface),
    /// What the car body must not pass (see the module docs).
    Solid,
    /// Drawn only: physics ignores it.
    DrawnOnly,
}

/// Keywords of triangles that are only drawn.
const DRAWN_ONLY: [&str; 18] = [
    "tree",
    "arbor",
    "forest",
    "bush",
    "leaf",
    "plant",
    "sky",
    "cloud",
    "shadow",
    "raceline",
    "skid",
    "flag",
    "banner",
    "spectator",
    "crowd",
    "people",
    "lamp",
    "light",
];

/// Classifies one triangle: `key` is its texture file name (else its object's name),
/// `transparency` its material's (0 opaque, 1 invisible), `normal_z` the vertical component
/// of its unit normal. See the module docs for the table.
pub fn classify(key: &str, transparency: f32, normal_z: f64, table: &SurfaceTable) -> SceneClass {
    let key = key.to_ascii_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| key.contains(w));
    if transparency > 0.5 || has(&DRAWN_ONLY) {
        return SceneClass::DrawnOnly;
    }
    if normal_z.is_nan() || normal_z.abs() < GROUND_MIN_NORMAL_Z {
        return SceneClass::Solid;
    }
    // The track's own mapping of a TORCS surface name; the fallback when it has no such name.
    let via =
        |name: &str, fallback: Surface| table.get(name).map_or(fallback, |_| table.map(name, None));
    let surface = if has(&["sand"]) {
        via("sand", Surface::Sand)
    } else if has(&["gravel", "grav"]) {
        Surface::Gravel
    } else if has(&["curb", "kerb"]) {
        Surface::Kerb
    } else if has(&["dirt", "mud", "earth"]) {
        via("dirt", Surface::Concrete)
    } else if has(&["grass", "gras", "green", "lawn", "terr", "ground"]) {
        via("grass", Surface::Grass)
    } else if has(&["conc", "pit", "pave", "beton"]) {
        via("concrete", Surface::Concrete)
    } else if has(&["asph", "road", "tarmac"]) {
        via("asphalt", Surface::Asphalt)
    } else {
        Surface::Grass
    };
    SceneClass::Ground(surface)
}

/// How a scene's triangles were classified.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SceneCounts {
    /// Ground triangles kept (beyond the generated ground).
    pub ground: usize,
    /// Ground triangles dropped because they lie on the generated ground.
    pub under_road: usize,
    /// Solid triangles.
    pub solid: usize,
    /// Drawn-only triangles.
    pub drawn_only: usize,
}

/// A scene's triangles as [`classify_scene`] sorts them.
#[derive(Clone, Debug, Default)]
pub struct ClassifiedScene {
    /// The ground triangles, each with its surface.
    pub ground: Vec<([DVec3; 3], Surface)>,
    /// The solid triangles, each with the index of its object in the file.
    pub solid: Vec<([DVec3; 3], usize)>,
    /// How many of each there are (`ground` and `under_road` are set by [`outer_ground`]).
    pub counts: SceneCounts,
}

/// The scene's ground and solid triangles in the track's frame (`offset` added to TORCS's
/// world frame: the track's lower corner), and the counts of the others.
pub fn classify_scene(file: &Ac3dFile, offset: [f64; 3], table: &SurfaceTable) -> ClassifiedScene {
    let mut ground = Vec::new();
    let mut solid = Vec::new();
    let mut counts = SceneCounts::default();
    for (object_index, object) in file.objects.iter().enumerate() {
        let world: Vec<[f64; 3]> = object.vertices.iter().map(|&v| to_world(v)).collect();
        let key = object.textures[0].as_deref().unwrap_or(&object.name);
        for surface in &object.surfaces {
            let transparency = file
                .materials
                .get(surface.material)
                .map_or(0.0, |m| m.trans);
            for tri in triangulate(surface, &world) {
                let corners = tri.map(|c| {
                    let p = world[surface.refs[c].vertex as usize];
                    DVec3::new(p[0] + offset[0], p[1] + offset[1], p[2] + offset[2])
                });
                let normal = (corners[1] - corners[0])
                    .cross(corners[2] - corners[0])
                    .normalize_or_zero();
                if !corners.iter().all(|c| c.is_finite()) || normal == DVec3::ZERO {
                    continue;
                }
                match classify(key, transparency, normal.z, table) {
                    SceneClass::Ground(s) => ground.push((corners, s)),
                    SceneClass::Solid => {
                        counts.solid += 1;
                        solid.push((corners, object_index));
                    }
                    SceneClass::DrawnOnly => counts.drawn_only += 1,
                }
            }
        }
    }
    ClassifiedScene {
        ground,
        solid,
        counts,
    }
}

/// Whether a triangle lies on `generated` (see the module docs).
pub fn lies_on(generated: &TriangleMesh, corners: &[DVec3; 3]) -> bool {
    let centre = (corners[0] + corners[1] + corners[2]) / 3.0;
    std::iter::once(centre)
        .chain(corners.iter().map(|&c| c + (centre - c) * 0.05))
        .all(|p| {
            generated
                .ray_cast(
                    p + DVec3::Z * UNDER_ROAD_M,
                    DVec3::NEG_Z,
                    2.0 * UNDER_ROAD_M,
                )
                .is_some()
        })
}

/// The scene's ground beyond `generated` as a mesh (`None` when nothing is left), with the
/// counts: `ground` as [`classify_scene`] gives it.
pub fn outer_ground(
    generated: &TriangleMesh,
    ground: &[([DVec3; 3], Surface)],
    mut counts: SceneCounts,
) -> (Option<TriangleMesh>, SceneCounts) {
    let mut vertices = Vec::new();
    let mut triangles = Vec::new();
    let mut surfaces = Vec::new();
    for (corners, surface) in ground {
        if lies_on(generated, corners) {
            counts.under_road += 1;
            continue;
        }
        let Ok(first) = u32::try_from(vertices.len()) else {
            break;
        };
        vertices.extend_from_slice(corners);
        triangles.push([first, first + 1, first + 2]);
        surfaces.push(*surface);
    }
    counts.ground = triangles.len();
    (
        TriangleMesh::new(vertices, triangles, surfaces).ok(),
        counts,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn textures_and_slopes_classify_as_the_table_says() {
        let table = SurfaceTable::default();
        let ground = |k: &str| classify(k, 0.0, 1.0, &table);
        assert_eq!(ground("SAND_n.png"), SceneClass::Ground(Surface::Sand));
        assert_eq!(ground("gravel.rgb"), SceneClass::Ground(Surface::Gravel));
        assert_eq!(ground("GRAS2B.png"), SceneClass::Ground(Surface::Grass));
        assert_eq!(ground("tr-curb-r.rgb"), SceneClass::Ground(Surface::Kerb));
        assert_eq!(ground("conc.png"), SceneClass::Ground(Surface::Concrete));
        assert_eq!(ground("Road.png"), SceneClass::Ground(Surface::Asphalt));
        assert_eq!(ground("treel3_n.png"), SceneClass::DrawnOnly);
        assert_eq!(ground("shadow2.rgb"), SceneClass::DrawnOnly);
        assert_eq!(ground("mystery.png"), SceneClass::Ground(Surface::Grass));
        // A face steeper than 60° is solid, a transparent one only drawn; a NaN is solid.
        assert_eq!(classify("mur2.rgb", 0.0, 0.3, &table), SceneClass::Solid);
        assert_eq!(
            classify("mur2.rgb", 0.0, f64::NAN, &table),
            SceneClass::Solid
        );
        assert_eq!(classify("glass", 0.8, 1.0, &table), SceneClass::DrawnOnly);
        // A face at exactly 60° is still ground; facing down counts by its slope too.
        assert!(matches!(
            classify("x", 0.0, -0.5, &table),
            SceneClass::Ground(_)
        ));
    }

    #[test]
    fn ground_on_the_generated_road_is_dropped_and_ground_beyond_kept() {
        // Generated ground: a 10 m square at z = 0.
        let generated = TriangleMesh::new(
            vec![
                DVec3::new(0.0, 0.0, 0.0),
                DVec3::new(10.0, 0.0, 0.0),
                DVec3::new(10.0, 10.0, 0.0),
                DVec3::new(0.0, 10.0, 0.0),
            ],
            vec![[0, 1, 2], [0, 2, 3]],
            vec![Surface::Asphalt; 2],
        )
        .expect("mesh");
        let tri = |x: f64, z: f64| {
            (
                [
                    DVec3::new(x, 1.0, z),
                    DVec3::new(x + 3.0, 1.0, z),
                    DVec3::new(x, 4.0, z),
                ],
                Surface::Grass,
            )
        };
        // On the road 2 cm up (dropped), beyond it (kept), straddling its edge (kept), on
        // the road's footprint but 5 m up, a bridge (kept).
        let scene = [tri(2.0, 0.02), tri(20.0, 0.0), tri(8.0, 0.0), tri(2.0, 5.0)];
        let (mesh, counts) = outer_ground(&generated, &scene, SceneCounts::default());
        assert_eq!(counts.under_road, 1);
        assert_eq!(counts.ground, 3);
        assert_eq!(mesh.expect("kept").triangle_count(), 3);
        let (none, counts) = outer_ground(&generated, &scene[..1], SceneCounts::default());
        assert!(none.is_none());
        assert_eq!(counts.ground, 0);
    }
}

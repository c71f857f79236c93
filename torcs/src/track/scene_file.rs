//! A TORCS track's scene (its `.acc` / `.ac` model and textures) as plain data for the
//! renderer: triangles in Gripline's world frame, batched by texture, cut into chunks with
//! bounding boxes for frustum culling, with the decoded texture images.
//!
//! Frames: AC3D is y up; TORCS turns a file point `(x, y, z)` into its world `(x, -z, y)`
//! (x east, y north, z up), the frame its track XML is built in, moved so that the track's
//! lower corner is at the origin ([`scene_for_track`] moves it back onto the imported track). Texture `v` is flipped
//! (`1 - v`): AC3D's `v = 0` is the bottom of the image, [`TextureImage`] rows run top down.
//!
//! Triangles: polygons (type 0) are fans, as TORCS draws them; triangle strips (type 4, in
//! `.acc` files) alternate their winding and drop degenerate triangles; lines are not drawn.
//! Normals: the file's per-vertex normals where it gives them; otherwise flat, or for smooth
//! surfaces the average of the faces around a vertex within the crease angle (61 degrees
//! unless the object says otherwise, AC3D's default).
//!
//! Textures are searched like TORCS (see [`texture_dirs`]); one that is missing or cannot be
//! decoded is listed in [`TrackScene::missing_textures`] with a warning, and its triangles
//! are drawn in their material's plain colour.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::ac3d::{Ac3dFile, Ac3dObject, Ac3dSurface, parse_ac3d};
use crate::error::TorcsError;
use crate::image::TextureImage;
use crate::texture_image::{find_texture, load_image, texture_dirs};
use gripline_formats::track_file::LoadedTrack;

/// Side of a culling chunk on the ground (m).
pub const CHUNK_SIZE_M: f64 = 100.0;
/// AC3D's default crease angle (degrees).
const DEFAULT_CREASE_DEG: f32 = 61.0;

/// One vertex of the scene.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SceneVertex {
    /// Position relative to [`TrackScene::origin`] (world frame, z up; m).
    pub position: [f32; 3],
    /// Unit normal (world frame).
    pub normal: [f32; 3],
    /// Texture coordinates of the base layer (v down the image).
    pub uv: [f32; 2],
    /// Texture coordinates of the second (`tiled`) layer, zero where there is none.
    pub uv_tiled: [f32; 2],
}

/// A run of a batch's indices whose triangles lie in one ground cell, with their bounds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SceneChunk {
    /// First index into [`SceneBatch::indices`].
    pub first_index: u32,
    /// Number of indices (a multiple of 3).
    pub index_count: u32,
    /// Lower corner of the bounding box (relative to the origin; m).
    pub min: [f32; 3],
    /// Upper corner of the bounding box.
    pub max: [f32; 3],
}

/// Triangles drawn with one state: one texture (or a plain colour), one face mode.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneBatch {
    /// Index into [`TrackScene::textures`] of the base texture; `None` draws `colour`.
    pub texture: Option<usize>,
    /// Index into [`TrackScene::textures`] of the second (`tiled`) layer, if any.
    pub tiled: Option<usize>,
    /// The material's colour (linear RGB 0..1): used where there is no texture.
    pub colour: [f32; 3],
    /// Whether both faces are drawn (back faces lit with the normal reversed).
    pub two_sided: bool,
    /// The vertices.
    pub vertices: Vec<SceneVertex>,
    /// Triangle list indices into `vertices`.
    pub indices: Vec<u32>,
    /// Index runs by ground cell, covering `indices` exactly once.
    pub chunks: Vec<SceneChunk>,
}

/// A texture the scene names.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneTexture {
    /// The name in the model file.
    pub name: String,
    /// The file found for it.
    pub path: Option<PathBuf>,
    /// The decoded image; `None` when missing or undecodable.
    pub image: Option<TextureImage>,
}

/// A track's scene. See the module docs.
#[derive(Clone, Debug, PartialEq)]
pub struct TrackScene {
    /// The model file.
    pub source: PathBuf,
    /// World position of the vertices' origin (m).
    pub origin: [f64; 3],
    /// The batches, each with at least one triangle.
    pub batches: Vec<SceneBatch>,
    /// Every texture the batches name.
    pub textures: Vec<SceneTexture>,
    /// Names of textures not found or not decodable (each also has a warning).
    pub missing_textures: Vec<String>,
    /// Everything worth telling the user: missing textures, skipped surfaces.
    pub warnings: Vec<String>,
}

impl TrackScene {
    /// Number of triangles.
    pub fn triangle_count(&self) -> usize {
        self.batches.iter().map(|b| b.indices.len() / 3).sum()
    }
}

/// The scene file of the TORCS track whose XML is `xml`: the file its `Graphic` section's
/// `3d description` names, else `NAME.acc` or `NAME.ac` beside it; `None` when there is none.
pub fn scene_path_for_track(xml: &Path) -> Option<PathBuf> {
    let dir = xml.parent()?;
    if let Ok(params) = crate::xml::read_params(xml)
        && let Some(name) = params
            .root
            .section("Graphic")
            .and_then(|g| g.text("3d description").ok().flatten())
    {
        let path = dir.join(name);
        if path.is_file() {
            return Some(path);
        }
    }
    let stem = xml.file_stem()?.to_str()?;
    ["acc", "ac"]
        .iter()
        .map(|ext| dir.join(format!("{stem}.{ext}")))
        .find(|p| p.is_file())
}

/// The scene of `track` when it is an imported TORCS track (loaded from an `.xml` file) with
/// a scene file, placed in the track's frame: `None` for Gripline's own tracks and for TORCS
/// tracks without one.
///
/// TORCS moves a track by the lower corner of its own bounding box before its scene is made
/// (see the `bounds` module for how TORCS grows that box); the importer keeps the XML's own
/// frame. So the scene is moved back by that corner, computed from the track file again.
/// A scene that does not lie on the imported road (see [`super::scene_alignment`]) is an
/// error, so that the caller draws the generated ground instead.
pub fn scene_for_track(track: &LoadedTrack) -> Option<Result<TrackScene, TorcsError>> {
    if !track
        .source
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("xml"))
    {
        return None;
    }
    let path = scene_path_for_track(&track.source)?;
    let lower = match crate::xml::read_params(&track.source)
        .and_then(|p| crate::track::geometry::main_track(&p))
    {
        Ok(main) => main.torcs_lower_corner_m,
        Err(e) => return Some(Err(e)),
    };
    let mut scene = match load_scene(&path) {
        Ok(scene) => scene,
        Err(e) => return Some(Err(e)),
    };
    scene.origin = [
        scene.origin[0] + lower[0],
        scene.origin[1] + lower[1],
        scene.origin[2] + lower[2],
    ];
    let offset_m = crate::track::scene_alignment::scene_offset_m(&scene, &track.mesh);
    if offset_m > crate::track::scene_alignment::MAX_SCENE_OFFSET_M {
        return Some(Err(TorcsError::SceneMisplaced {
            path,
            offset_m,
            points: crate::track::scene_alignment::ALIGNMENT_POINTS,
        }));
    }
    Some(Ok(scene))
}

/// Loads the scene of the model file `path`, with its textures (see the module docs).
///
/// # Errors
/// [`TorcsError::Io`] when the file cannot be read, [`TorcsError::Scene`] with the line when
/// it is malformed. Missing textures are warnings, not errors.
pub fn load_scene(path: &Path) -> Result<TrackScene, TorcsError> {
    let bytes = std::fs::read(path).map_err(|source| TorcsError::Io {
        path: path.to_owned(),
        source,
    })?;
    let text = String::from_utf8_lossy(&bytes);
    let file = parse_ac3d(&text).map_err(|e| TorcsError::Scene {
        path: path.to_owned(),
        line: e.line,
        message: e.message,
    })?;
    let dirs = path.parent().map(texture_dirs).unwrap_or_default();
    Ok(build_scene(path, &file, |name| {
        let found = find_texture(name, &dirs).ok_or_else(|| "not found".to_owned())?;
        let image = load_image(&found).map_err(|e| e.to_string())?;
        Ok((found, image))
    }))
}

/// A texture source: the file and image for a name, or why there is none.
type TextureLoader<'a> = dyn FnMut(&str) -> Result<(PathBuf, TextureImage), String> + 'a;

/// Builds the scene of a parsed file, loading each texture once through `load`.
pub fn build_scene(
    source: &Path,
    file: &Ac3dFile,
    mut load: impl FnMut(&str) -> Result<(PathBuf, TextureImage), String>,
) -> TrackScene {
    let mut builder = Builder {
        textures: Vec::new(),
        by_name: HashMap::new(),
        missing: Vec::new(),
        warnings: Vec::new(),
        batches: HashMap::new(),
        load: &mut load,
    };
    let origin = scene_origin(file);
    let mut skipped_lines = 0usize;
    for object in &file.objects {
        skipped_lines += builder.add_object(file, object, origin);
    }
    if skipped_lines > 0 {
        builder.warnings.push(format!(
            "{skipped_lines} line surfaces not drawn (only polygons and strips are)"
        ));
    }
    let Builder {
        textures,
        missing,
        warnings,
        batches,
        ..
    } = builder;
    let mut batches: Vec<(BatchKey, PendingBatch)> = batches.into_iter().collect();
    batches.sort_by_key(|b| b.0);
    TrackScene {
        source: source.to_owned(),
        origin,
        batches: batches
            .into_iter()
            .filter_map(|(key, pending)| pending.finish(&key))
            .collect(),
        textures,
        missing_textures: missing,
        warnings,
    }
}

/// A surface, its triangles (as indices into its refs) and its normal.
type Face<'a> = (&'a Ac3dSurface, Vec<[usize; 3]>, [f32; 3]);

/// (base texture, tiled texture, material colour bits, two-sided).
type BatchKey = (Option<usize>, Option<usize>, [u32; 3], bool);

/// A batch being filled: triangles keyed by ground cell, vertices deduplicated.
#[derive(Default)]
struct PendingBatch {
    vertices: Vec<SceneVertex>,
    /// (cell, triangle) in insertion order.
    triangles: Vec<((i64, i64), [u32; 3])>,
}

impl PendingBatch {
    fn finish(mut self, key: &BatchKey) -> Option<SceneBatch> {
        if self.triangles.is_empty() {
            return None;
        }
        // Stable: triangles of a cell keep their order (coplanar decals over the road).
        self.triangles.sort_by_key(|(cell, _)| *cell);
        let mut indices = Vec::with_capacity(self.triangles.len() * 3);
        let mut chunks: Vec<SceneChunk> = Vec::new();
        let mut current = None;
        for (cell, tri) in &self.triangles {
            let first = u32::try_from(indices.len()).unwrap_or(u32::MAX);
            indices.extend_from_slice(tri);
            let (lo, hi) = tri.iter().fold(
                ([f32::INFINITY; 3], [f32::NEG_INFINITY; 3]),
                |(lo, hi), &i| {
                    let p = self.vertices[i as usize].position;
                    (
                        [0, 1, 2].map(|k| lo[k].min(p[k])),
                        [0, 1, 2].map(|k| hi[k].max(p[k])),
                    )
                },
            );
            match chunks.last_mut() {
                Some(chunk) if current == Some(*cell) => {
                    chunk.index_count += 3;
                    chunk.min = [0, 1, 2].map(|k| chunk.min[k].min(lo[k]));
                    chunk.max = [0, 1, 2].map(|k| chunk.max[k].max(hi[k]));
                }
                _ => {
                    current = Some(*cell);
                    chunks.push(SceneChunk {
                        first_index: first,
                        index_count: 3,
                        min: lo,
                        max: hi,
                    });
                }
            }
        }
        Some(SceneBatch {
            texture: key.0,
            tiled: key.1,
            colour: key.2.map(f32::from_bits),
            two_sided: key.3,
            vertices: self.vertices,
            indices,
            chunks,
        })
    }
}

struct Builder<'l, 'a> {
    textures: Vec<SceneTexture>,
    by_name: HashMap<String, Option<usize>>,
    missing: Vec<String>,
    warnings: Vec<String>,
    batches: HashMap<BatchKey, PendingBatch>,
    load: &'l mut TextureLoader<'a>,
}

impl Builder<'_, '_> {
    /// The texture's index, loading it the first time; `None` when it cannot be had.
    fn texture(&mut self, name: &str) -> Option<usize> {
        if let Some(&known) = self.by_name.get(name) {
            return known;
        }
        let index = match (self.load)(name) {
            Ok((path, image)) => {
                self.textures.push(SceneTexture {
                    name: name.to_owned(),
                    path: Some(path),
                    image: Some(image),
                });
                Some(self.textures.len() - 1)
            }
            Err(reason) => {
                self.warnings.push(format!(
                    "texture '{name}': {reason}; drawn in a plain colour"
                ));
                self.missing.push(name.to_owned());
                None
            }
        };
        self.by_name.insert(name.to_owned(), index);
        index
    }

    /// Adds an object's triangles; returns the number of line surfaces skipped.
    fn add_object(&mut self, file: &Ac3dFile, object: &Ac3dObject, origin: [f64; 3]) -> usize {
        let base = object.textures[0].as_deref().and_then(|n| self.texture(n));
        let tiled = object.textures[1].as_deref().and_then(|n| self.texture(n));
        let world: Vec<[f64; 3]> = object.vertices.iter().map(|&v| to_world(v)).collect();
        let crease_cos = object
            .crease_deg
            .unwrap_or(DEFAULT_CREASE_DEG)
            .to_radians()
            .cos();
        // Faces as (surface, corner refs as triangles) and their normals.
        let mut faces: Vec<Face<'_>> = Vec::new();
        let mut skipped = 0;
        for surface in &object.surfaces {
            let triangles = triangulate(surface, &world);
            if matches!(surface.kind(), 1 | 2) {
                skipped += 1;
                continue;
            }
            if triangles.is_empty() {
                continue;
            }
            let normal = face_normal(&triangles, surface, &world);
            faces.push((surface, triangles, normal));
        }
        // Faces around each vertex, for smooth normals.
        let needs_smooth = object.normals.is_none() && faces.iter().any(|f| f.0.smooth());
        let mut around: HashMap<u32, Vec<usize>> = HashMap::new();
        if needs_smooth {
            for (i, (surface, _, _)) in faces.iter().enumerate() {
                for r in &surface.refs {
                    let list = around.entry(r.vertex).or_default();
                    if list.last() != Some(&i) {
                        list.push(i);
                    }
                }
            }
        }
        for (i, (surface, triangles, face_n)) in faces.iter().enumerate() {
            let material = file.materials.get(surface.material);
            let colour = material.map_or([0.6; 3], |m| m.rgb.map(srgb_to_linear));
            let key: BatchKey = (
                base,
                tiled,
                if base.is_some() {
                    [0; 3]
                } else {
                    colour.map(f32::to_bits)
                },
                surface.two_sided(),
            );
            let batch = self.batches.entry(key).or_default();
            let mut local: HashMap<usize, u32> = HashMap::new();
            for tri in triangles {
                let mut ids = [0u32; 3];
                for (slot, &corner) in ids.iter_mut().zip(tri) {
                    *slot = *local.entry(corner).or_insert_with(|| {
                        let r = &surface.refs[corner];
                        let normal = match &object.normals {
                            Some(normals) => normalise(to_world_dir(normals[r.vertex as usize])),
                            None if surface.smooth() => smooth_normal(
                                around.get(&r.vertex).map_or(&[][..], Vec::as_slice),
                                &faces,
                                *face_n,
                                crease_cos,
                                i,
                            ),
                            None => *face_n,
                        };
                        let p = world[r.vertex as usize];
                        #[allow(clippy::cast_possible_truncation)]
                        let position = [0, 1, 2].map(|k| (p[k] - origin[k]) as f32);
                        batch.vertices.push(SceneVertex {
                            position,
                            normal,
                            uv: [r.uv[0][0], 1.0 - r.uv[0][1]],
                            uv_tiled: [r.uv[1][0], 1.0 - r.uv[1][1]],
                        });
                        u32::try_from(batch.vertices.len() - 1).unwrap_or(u32::MAX)
                    });
                }
                let centre = tri.iter().fold([0.0; 2], |acc, &c| {
                    let p = world[surface.refs[c].vertex as usize];
                    [acc[0] + p[0] / 3.0, acc[1] + p[1] / 3.0]
                });
                #[allow(clippy::cast_possible_truncation)]
                let cell = (
                    (centre[0] / CHUNK_SIZE_M).floor() as i64,
                    (centre[1] / CHUNK_SIZE_M).floor() as i64,
                );
                batch.triangles.push((cell, ids));
            }
        }
        skipped
    }
}

/// TORCS's world from an AC3D file point: `(x, -z, y)`.
pub(crate) fn to_world(p: [f64; 3]) -> [f64; 3] {
    [p[0], -p[2], p[1]]
}

fn to_world_dir(n: [f32; 3]) -> [f32; 3] {
    [n[0], -n[2], n[1]]
}

fn normalise(n: [f32; 3]) -> [f32; 3] {
    let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    if len > 1e-12 && len.is_finite() {
        n.map(|c| c / len)
    } else {
        [0.0, 0.0, 1.0]
    }
}

/// Triangles of a surface as indices into its refs (see the module docs).
pub(crate) fn triangulate(surface: &Ac3dSurface, world: &[[f64; 3]]) -> Vec<[usize; 3]> {
    let n = surface.refs.len();
    if n < 3 {
        return Vec::new();
    }
    let vertex = |i: usize| surface.refs[i].vertex;
    let degenerate = |t: &[usize; 3]| {
        let [a, b, c] = t.map(vertex);
        a == b || b == c || a == c || {
            let [p, q, r] = [a, b, c].map(|v| world[v as usize]);
            let u = [q[0] - p[0], q[1] - p[1], q[2] - p[2]];
            let v = [r[0] - p[0], r[1] - p[1], r[2] - p[2]];
            let cross = [
                u[1] * v[2] - u[2] * v[1],
                u[2] * v[0] - u[0] * v[2],
                u[0] * v[1] - u[1] * v[0],
            ];
            cross.iter().map(|c| c * c).sum::<f64>() < 1e-20
        }
    };
    let triangles: Vec<[usize; 3]> = match surface.kind() {
        0 => (1..n - 1).map(|i| [0, i, i + 1]).collect(),
        4 => (0..n - 2)
            .map(|i| {
                if i % 2 == 0 {
                    [i, i + 1, i + 2]
                } else {
                    [i + 1, i, i + 2]
                }
            })
            .collect(),
        _ => Vec::new(),
    };
    triangles.into_iter().filter(|t| !degenerate(t)).collect()
}

/// The area-weighted normal of a face's triangles.
#[allow(clippy::cast_possible_truncation)]
fn face_normal(triangles: &[[usize; 3]], surface: &Ac3dSurface, world: &[[f64; 3]]) -> [f32; 3] {
    let mut sum = [0.0f64; 3];
    for tri in triangles {
        let [p, q, r] = tri.map(|c| world[surface.refs[c].vertex as usize]);
        let u = [q[0] - p[0], q[1] - p[1], q[2] - p[2]];
        let v = [r[0] - p[0], r[1] - p[1], r[2] - p[2]];
        sum[0] += u[1] * v[2] - u[2] * v[1];
        sum[1] += u[2] * v[0] - u[0] * v[2];
        sum[2] += u[0] * v[1] - u[1] * v[0];
    }
    normalise(sum.map(|c| c as f32))
}

/// The normal at a corner of face `this`: the mean of the faces in `around` whose normal is
/// within the crease angle of this face's.
fn smooth_normal(
    around: &[usize],
    faces: &[Face<'_>],
    this_n: [f32; 3],
    crease_cos: f32,
    this: usize,
) -> [f32; 3] {
    let mut sum = this_n;
    for &f in around {
        if f == this || !faces[f].0.smooth() {
            continue;
        }
        let n = faces[f].2;
        let dot = n[0] * this_n[0] + n[1] * this_n[1] + n[2] * this_n[2];
        if dot >= crease_cos {
            sum = [0, 1, 2].map(|k| sum[k] + n[k]);
        }
    }
    normalise(sum)
}

/// The centre of the file's bounding box in the world frame, to whole metres.
fn scene_origin(file: &Ac3dFile) -> [f64; 3] {
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for v in file.objects.iter().flat_map(|o| &o.vertices) {
        let p = to_world(*v);
        for k in 0..3 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    if lo[0] > hi[0] {
        return [0.0; 3];
    }
    [0, 1, 2].map(|k| ((lo[k] + hi[k]) * 0.5).round())
}

/// sRGB-encoded channel to linear.
fn srgb_to_linear(c: f32) -> f32 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

//! glTF 2.0 car models (`.gltf` with its buffers beside it or in `data:` URIs, or `.glb`)
//! read into the same plain scene data as an AC3D model ([`TrackScene`]), so that both are
//! drawn by one textured path.
//!
//! Frames: glTF is y up, its assets face +z and +x is their left; a car model's frame here is
//! x forward, y left, z up, so a glTF point `(x, y, z)` is `(z, x, y)` (a rotation: windings
//! and handedness are kept). The model's origin is on the ground, midway between the axles
//! (see [`crate::car_model`]).
//!
//! What is read: the default scene's node tree with its transforms, triangle primitives
//! (indexed or not) with positions, normals (flat ones are made where a primitive has none)
//! and the first UV set, each material's base colour factor and base colour texture (PNG;
//! another format is a warning and the factor's colour), double-sidedness. Nodes named
//! `driver` and `brake_lamp...` (any case) mark the driver's eyes and the brake lamps.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use glam::{DMat4, DVec3};
use gripline_torcs::image::TextureImage;
use gripline_torcs::texture_image::decode_image;
use gripline_torcs::track::scene_file::{
    SceneBatch, SceneChunk, SceneTexture, SceneVertex, TrackScene,
};

/// Deepest node nesting followed (a cycle in a malformed file ends here).
const MAX_DEPTH: usize = 32;
/// Most triangles read from one file (a sane car is under a million).
const MAX_TRIANGLES: usize = 4_000_000;

/// A glTF model read as scene data, with the marker nodes' positions (car frame, m).
pub struct GltfModel {
    /// The triangles and textures.
    pub scene: TrackScene,
    /// The `driver` node's position, if there is one.
    pub driver_eye: Option<DVec3>,
    /// The `brake_lamp...` nodes' positions.
    pub brake_lamps: Vec<DVec3>,
}

/// Reads the glTF file at `path`.
///
/// # Errors
/// A message naming what is wrong: the file unreadable, not glTF, a buffer missing, no
/// triangles.
pub fn load_gltf(path: &Path) -> Result<GltfModel, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read: {e}"))?;
    let gltf = gltf::Gltf::from_slice(&bytes).map_err(|e| format!("not glTF 2.0: {e}"))?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut buffers = Vec::new();
    for buffer in gltf.buffers() {
        let data = match buffer.source() {
            gltf::buffer::Source::Bin => gltf
                .blob
                .clone()
                .ok_or("buffer in the binary chunk, but the file has none")?,
            gltf::buffer::Source::Uri(uri) => read_uri(dir, uri)?,
        };
        if data.len() < buffer.length() {
            return Err(format!(
                "buffer {} has {} bytes, {} declared",
                buffer.index(),
                data.len(),
                buffer.length()
            ));
        }
        buffers.push(data);
    }
    let mut reader = Reader {
        buffers: &buffers,
        dir,
        scene: TrackScene {
            source: path.to_owned(),
            origin: [0.0; 3],
            batches: Vec::new(),
            textures: Vec::new(),
            missing_textures: Vec::new(),
            warnings: Vec::new(),
        },
        texture_of_image: HashMap::new(),
        driver_eye: None,
        brake_lamps: Vec::new(),
        triangles: 0,
    };
    let scene = gltf
        .default_scene()
        .or_else(|| gltf.scenes().next())
        .ok_or("no scene")?;
    for node in scene.nodes() {
        reader.node(&node, DMat4::IDENTITY, 0)?;
    }
    if reader.scene.batches.is_empty() {
        return Err("no triangles".into());
    }
    Ok(GltfModel {
        scene: reader.scene,
        driver_eye: reader.driver_eye,
        brake_lamps: reader.brake_lamps,
    })
}

/// The bytes of a buffer or image URI: a `data:...;base64,` URI or a file beside the model.
fn read_uri(dir: &Path, uri: &str) -> Result<Vec<u8>, String> {
    if let Some(rest) = uri.strip_prefix("data:") {
        let (_, data) = rest
            .split_once(";base64,")
            .ok_or("a data URI that is not base64")?;
        return decode_base64(data).ok_or_else(|| "malformed base64 data URI".to_owned());
    }
    let file: PathBuf = dir.join(uri.replace("%20", " "));
    std::fs::read(&file).map_err(|e| format!("{}: cannot read: {e}", file.display()))
}

/// Standard base64 (with or without padding); `None` for any other character.
fn decode_base64(text: &str) -> Option<Vec<u8>> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for &c in text.as_bytes().iter().filter(|c| **c != b'=') {
        acc = (acc << 6) | u32::from(value(c)?);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push(u8::try_from((acc >> bits) & 0xff).ok()?);
        }
    }
    Some(out)
}

struct Reader<'a> {
    buffers: &'a [Vec<u8>],
    dir: &'a Path,
    scene: TrackScene,
    /// The scene texture of each glTF image loaded so far (`None`: it could not be).
    texture_of_image: HashMap<usize, Option<usize>>,
    driver_eye: Option<DVec3>,
    brake_lamps: Vec<DVec3>,
    triangles: usize,
}

/// glTF's frame to the car's: `(x, y, z)` to `(z, x, y)`.
fn to_car(p: DVec3) -> DVec3 {
    DVec3::new(p.z, p.x, p.y)
}

impl Reader<'_> {
    fn node(&mut self, node: &gltf::Node<'_>, parent: DMat4, depth: usize) -> Result<(), String> {
        if depth > MAX_DEPTH {
            return Err(format!("nodes nested deeper than {MAX_DEPTH}"));
        }
        let local = node.transform().matrix().map(|c| c.map(f64::from));
        let world = parent * DMat4::from_cols_array_2d(&local);
        if !world.is_finite() {
            return Err(format!("node {} has a non-finite transform", node.index()));
        }
        let name = node.name().unwrap_or("").to_ascii_lowercase();
        let at = to_car(world.transform_point3(DVec3::ZERO));
        if name == "driver" {
            self.driver_eye = Some(at);
        } else if name.starts_with("brake_lamp") {
            self.brake_lamps.push(at);
        }
        if let Some(mesh) = node.mesh() {
            for primitive in mesh.primitives() {
                self.primitive(&primitive, world)?;
            }
        }
        for child in node.children() {
            self.node(&child, world, depth + 1)?;
        }
        Ok(())
    }

    fn primitive(&mut self, primitive: &gltf::Primitive<'_>, world: DMat4) -> Result<(), String> {
        if primitive.mode() != gltf::mesh::Mode::Triangles {
            self.scene
                .warnings
                .push("a primitive that is not a triangle list: not drawn".into());
            return Ok(());
        }
        let buffers = self.buffers;
        let reader = primitive.reader(|b| buffers.get(b.index()).map(Vec::as_slice));
        let positions: Vec<DVec3> = reader
            .read_positions()
            .ok_or("a primitive without positions")?
            .map(|p| to_car(world.transform_point3(DVec3::from_array(p.map(f64::from)))))
            .collect();
        let indices: Vec<u32> = match reader.read_indices() {
            Some(i) => i.into_u32().collect(),
            None => (0..u32::try_from(positions.len()).map_err(|_| "too many vertices")?).collect(),
        };
        if indices.iter().any(|&i| i as usize >= positions.len()) {
            return Err("an index beyond the vertices".into());
        }
        self.triangles += indices.len() / 3;
        if self.triangles > MAX_TRIANGLES {
            return Err(format!("more than {MAX_TRIANGLES} triangles"));
        }
        let normal_matrix = world.inverse().transpose();
        let normals: Option<Vec<[f32; 3]>> = reader.read_normals().map(|n| {
            n.map(|n| {
                let v =
                    to_car(normal_matrix.transform_vector3(DVec3::from_array(n.map(f64::from))));
                v.normalize_or(DVec3::Z).as_vec3().to_array()
            })
            .collect()
        });
        let uvs: Option<Vec<[f32; 2]>> = reader.read_tex_coords(0).map(|t| t.into_f32().collect());
        let material = primitive.material();
        let pbr = material.pbr_metallic_roughness();
        let factor = pbr.base_color_factor();
        let texture = pbr
            .base_color_texture()
            .and_then(|info| self.texture(&info.texture().source()));
        let mut batch = SceneBatch {
            texture,
            tiled: None,
            colour: [factor[0], factor[1], factor[2]],
            two_sided: material.double_sided(),
            vertices: Vec::with_capacity(indices.len()),
            indices: Vec::with_capacity(indices.len()),
            chunks: Vec::new(),
        };
        // Unshared vertices: flat normals need them, and a car's primitives are small.
        for tri in indices.chunks_exact(3) {
            let p = [0, 1, 2].map(|k| positions[tri[k] as usize]);
            let flat = (p[1] - p[0])
                .cross(p[2] - p[0])
                .normalize_or(DVec3::Z)
                .as_vec3()
                .to_array();
            for &i in tri {
                let i = i as usize;
                batch.vertices.push(SceneVertex {
                    position: positions[i].as_vec3().to_array(),
                    normal: normals
                        .as_ref()
                        .and_then(|n| n.get(i).copied())
                        .unwrap_or(flat),
                    uv: uvs
                        .as_ref()
                        .and_then(|u| u.get(i).copied())
                        .unwrap_or([0.0; 2]),
                    uv_tiled: [0.0; 2],
                });
                batch
                    .indices
                    .push(u32::try_from(batch.vertices.len() - 1).map_err(|_| "too big")?);
            }
        }
        if batch.indices.is_empty() {
            return Ok(());
        }
        let (lo, hi) = batch.vertices.iter().fold(
            ([f32::INFINITY; 3], [f32::NEG_INFINITY; 3]),
            |(lo, hi), v| {
                (
                    [0, 1, 2].map(|k| lo[k].min(v.position[k])),
                    [0, 1, 2].map(|k| hi[k].max(v.position[k])),
                )
            },
        );
        batch.chunks.push(SceneChunk {
            first_index: 0,
            index_count: u32::try_from(batch.indices.len()).map_err(|_| "too big")?,
            min: lo,
            max: hi,
        });
        self.scene.batches.push(batch);
        Ok(())
    }

    /// The scene texture of a glTF image, loading it the first time.
    fn texture(&mut self, image: &gltf::Image<'_>) -> Option<usize> {
        if let Some(&known) = self.texture_of_image.get(&image.index()) {
            return known;
        }
        let name = image
            .name()
            .map_or_else(|| format!("image {}", image.index()), str::to_owned);
        let decoded: Result<(Option<PathBuf>, TextureImage), String> = match image.source() {
            gltf::image::Source::View { view, .. } => self
                .buffers
                .get(view.buffer().index())
                .and_then(|b| b.get(view.offset()..view.offset() + view.length()))
                .ok_or_else(|| "its buffer view is out of range".to_owned())
                .and_then(|bytes| decode_image(bytes).map(|i| (None, i))),
            gltf::image::Source::Uri { uri, .. } => read_uri(self.dir, uri)
                .and_then(|bytes| decode_image(&bytes))
                .map(|i| ((!uri.starts_with("data:")).then(|| self.dir.join(uri)), i)),
        };
        let index = match decoded {
            Ok((path, image)) => {
                self.scene.textures.push(SceneTexture {
                    name,
                    path,
                    image: Some(image),
                });
                Some(self.scene.textures.len() - 1)
            }
            Err(reason) => {
                self.scene.warnings.push(format!(
                    "texture '{name}': {reason}; drawn in its material's colour"
                ));
                self.scene.missing_textures.push(name);
                None
            }
        };
        self.texture_of_image.insert(image.index(), index);
        index
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_decodes_the_rfc_4648_vectors() {
        // RFC 4648, section 10.
        for (text, plain) in [
            ("", ""),
            ("Zg==", "f"),
            ("Zm8=", "fo"),
            ("Zm9v", "foo"),
            ("Zm9vYg==", "foob"),
            ("Zm9vYmE=", "fooba"),
            ("Zm9vYmFy", "foobar"),
        ] {
            assert_eq!(decode_base64(text).unwrap(), plain.as_bytes(), "{text}");
        }
        assert_eq!(decode_base64("Zm9v!"), None);
    }

    #[test]
    fn gltf_axes_become_the_car_frame() {
        // glTF: +z is the asset's front, +y up, +x its left.
        assert_eq!(to_car(DVec3::Z), DVec3::X);
        assert_eq!(to_car(DVec3::X), DVec3::Y);
        assert_eq!(to_car(DVec3::Y), DVec3::Z);
    }
}

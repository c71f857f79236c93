//! AC3D model files (`.ac`) and TORCS's variant of them (`.acc`), read into a flat list of
//! polygon objects in the file's own frame (y up).
//!
//! The format is line based: `AC3Db`, then `MATERIAL` lines, then one `OBJECT world` with its
//! tree of `OBJECT group` / `poly` children. An object has `name`, `texture`, `texrep`,
//! `texoff`, `rot` (nine numbers), `loc`, `crease`, `numvert N` and N vertex lines, `numsurf
//! N` and N surfaces (`SURF flags`, `mat index`, `refs N` and N lines `vertex u v`), and ends
//! with `kids N` followed by its N children.
//!
//! TORCS's `.acc` adds (see TORCS's `grloadac.cpp`): up to four `texture "NAME" LAYER` lines
//! per object, the layers `base`, `tiled`, `skids` and `shad` (`empty_texture_no_mapping`
//! for an unused one); a `refs` line carries one UV pair per layer; vertex lines may carry a
//! normal after the position; surfaces may be triangle strips (type 4) as well as polygons.
//!
//! Transforms: `loc` and `rot` place an object in its parent; the nine numbers of `rot` are
//! the images of the x, y and z axes in turn (the reading of plib and `OpenSceneGraph`). The
//! reader applies them, so every [`Ac3dObject`] is in the file's world frame.
//!
//! Every malformed file is an [`Ac3dError`] with the line it was found on, never a panic.

/// Deepest nesting of objects accepted (real files use fewer than ten levels).
const MAX_DEPTH: usize = 64;
/// Texture layers TORCS uses: base, tiled, skids, shad.
pub const LAYERS: usize = 4;
/// The name TORCS writes for an unused texture layer.
const NO_TEXTURE: &str = "empty_texture_no_mapping";

/// A material of the file.
#[derive(Clone, Debug, PartialEq)]
pub struct Ac3dMaterial {
    /// Its name (may be empty).
    pub name: String,
    /// Diffuse colour (0..1).
    pub rgb: [f32; 3],
    /// Transparency (0 opaque .. 1 invisible).
    pub trans: f32,
}

/// One corner of a surface: a vertex and its texture coordinates per layer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ac3dRef {
    /// Index into the object's vertices.
    pub vertex: u32,
    /// UV of each texture layer (base first); layers the line does not give are zero.
    pub uv: [[f32; 2]; LAYERS],
}

/// A surface: a polygon, a triangle strip, or a line.
#[derive(Clone, Debug, PartialEq)]
pub struct Ac3dSurface {
    /// The `SURF` flags: bits 0-3 the type (0 polygon, 1 closed line, 2 line, 4 triangle
    /// strip), bit 4 smooth shaded, bit 5 two-sided.
    pub flags: u32,
    /// Index into the file's materials.
    pub material: usize,
    /// The corners in order.
    pub refs: Vec<Ac3dRef>,
}

impl Ac3dSurface {
    /// The surface type (`flags & 0xf`).
    pub fn kind(&self) -> u32 {
        self.flags & 0xf
    }

    /// Whether it is smooth shaded.
    pub fn smooth(&self) -> bool {
        self.flags & 0x10 != 0
    }

    /// Whether both faces are drawn.
    pub fn two_sided(&self) -> bool {
        self.flags & 0x20 != 0
    }
}

/// A `poly` object with its geometry in the file's world frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Ac3dObject {
    /// Its name.
    pub name: String,
    /// Texture file per layer (base, tiled, skids, shad); `None` where unused.
    pub textures: [Option<String>; LAYERS],
    /// `texrep`: scale of the base layer's UVs.
    pub texrep: [f32; 2],
    /// `texoff`: offset of the base layer's UVs.
    pub texoff: [f32; 2],
    /// Crease angle (degrees) for smooth surfaces, when the object gives one.
    pub crease_deg: Option<f32>,
    /// Vertex positions (file frame, y up; m).
    pub vertices: Vec<[f64; 3]>,
    /// Vertex normals, when every vertex line gives one.
    pub normals: Option<Vec<[f32; 3]>>,
    /// Its surfaces.
    pub surfaces: Vec<Ac3dSurface>,
}

/// A whole AC3D file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ac3dFile {
    /// The materials, indexed by [`Ac3dSurface::material`].
    pub materials: Vec<Ac3dMaterial>,
    /// Every `poly` object with at least one surface, in file order.
    pub objects: Vec<Ac3dObject>,
    /// Children announced by `kids` lines but absent because the file ended first. TORCS's
    /// `.acc` writer announces more children of the world than it writes, and TORCS reads
    /// such files (its loader stops at the end of the file), so this reader does too.
    pub missing_children: usize,
}

/// Why an AC3D file cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct Ac3dError {
    /// 1-based line (the line after the last for an early end).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// Parses the text of an AC3D or TORCS `.acc` file.
///
/// # Errors
/// [`Ac3dError`] with the line for anything malformed: a missing header, an unknown or
/// incomplete record, a number that does not parse, an index out of range, an early end.
pub fn parse_ac3d(text: &str) -> Result<Ac3dFile, Ac3dError> {
    let mut parser = Parser {
        lines: text.lines().enumerate(),
        line: 0,
        file: Ac3dFile::default(),
    };
    let header = parser
        .next_line()
        .ok_or_else(|| parser.error("empty file"))?;
    if !header.starts_with("AC3D") {
        return Err(parser.error("not an AC3D file (no 'AC3D' header)"));
    }
    while let Some(line) = parser.next_line() {
        let (keyword, rest) = split_keyword(line);
        match keyword {
            "MATERIAL" => {
                let material = parse_material(rest).map_err(|m| parser.error(&m))?;
                parser.file.materials.push(material);
            }
            "OBJECT" => parser.object(rest, &Transform::IDENTITY, 0)?,
            other => return Err(parser.error(&format!("unexpected '{other}' at the top level"))),
        }
    }
    Ok(parser.file)
}

/// A rigid placement: `p_parent = rot * p + loc`, `rot` as columns.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Transform {
    rot: [[f64; 3]; 3],
    loc: [f64; 3],
}

impl Transform {
    const IDENTITY: Self = Self {
        rot: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
        loc: [0.0; 3],
    };

    fn apply_dir(&self, v: [f64; 3]) -> [f64; 3] {
        let c = &self.rot;
        [0, 1, 2].map(|i| c[0][i] * v[0] + c[1][i] * v[1] + c[2][i] * v[2])
    }

    fn apply(&self, p: [f64; 3]) -> [f64; 3] {
        let r = self.apply_dir(p);
        [0, 1, 2].map(|i| r[i] + self.loc[i])
    }

    /// `self` after `child` (the child's frame expressed in `self`'s parent).
    fn then(&self, child: &Transform) -> Transform {
        Transform {
            rot: child.rot.map(|col| self.apply_dir(col)),
            loc: self.apply(child.loc),
        }
    }

    fn is_identity(&self) -> bool {
        *self == Self::IDENTITY
    }
}

struct Parser<'a> {
    lines: std::iter::Enumerate<std::str::Lines<'a>>,
    line: usize,
    file: Ac3dFile,
}

impl<'a> Parser<'a> {
    /// The next line that is not blank, trimmed.
    fn next_line(&mut self) -> Option<&'a str> {
        for (i, line) in self.lines.by_ref() {
            self.line = i + 1;
            let trimmed = line.trim();
            if !trimmed.is_empty() {
                return Some(trimmed);
            }
        }
        self.line += 1;
        None
    }

    fn error(&self, message: &str) -> Ac3dError {
        Ac3dError {
            line: self.line,
            message: message.to_owned(),
        }
    }

    fn require_line(&mut self, what: &str) -> Result<&'a str, Ac3dError> {
        match self.next_line() {
            Some(line) => Ok(line),
            None => Err(self.error(&format!("the file ends inside {what}"))),
        }
    }

    /// Reads one object (after its `OBJECT` keyword) and its children.
    fn object(&mut self, kind: &str, parent: &Transform, depth: usize) -> Result<(), Ac3dError> {
        if depth > MAX_DEPTH {
            return Err(self.error(&format!("objects nested deeper than {MAX_DEPTH}")));
        }
        let kind = kind.trim();
        if !matches!(kind, "world" | "poly" | "group" | "light") {
            return Err(self.error(&format!("unknown object type '{kind}'")));
        }
        let mut local = Transform::IDENTITY;
        let mut object = Ac3dObject {
            name: String::new(),
            textures: Default::default(),
            texrep: [1.0, 1.0],
            texoff: [0.0, 0.0],
            crease_deg: None,
            vertices: Vec::new(),
            normals: None,
            surfaces: Vec::new(),
        };
        let kids = loop {
            let line = self.require_line("an object")?;
            let (keyword, rest) = split_keyword(line);
            match keyword {
                "name" => unquote(rest).clone_into(&mut object.name),
                "texture" => texture(rest, &mut object),
                "texrep" => object.texrep = self.floats::<2>(rest, "texrep")?,
                "texoff" => object.texoff = self.floats::<2>(rest, "texoff")?,
                "crease" => object.crease_deg = Some(self.floats::<1>(rest, "crease")?[0]),
                "loc" => local.loc = self.floats::<3>(rest, "loc")?.map(f64::from),
                "rot" => {
                    let m = self.floats::<9>(rest, "rot")?.map(f64::from);
                    local.rot = [[m[0], m[1], m[2]], [m[3], m[4], m[5]], [m[6], m[7], m[8]]];
                }
                "data" => self.skip_data(rest)?,
                "url" | "subdiv" | "hidden" | "locked" | "folded" => {}
                "numvert" => self.vertices(rest, &mut object)?,
                "numsurf" => self.surfaces(rest, &mut object)?,
                "kids" => break self.count(rest, "kids")?,
                other => return Err(self.error(&format!("unknown record '{other}' in an object"))),
            }
        };
        let world = parent.then(&local);
        if kind == "poly" && !object.surfaces.is_empty() {
            if !world.is_identity() {
                for v in &mut object.vertices {
                    *v = world.apply(*v);
                }
                if let Some(normals) = &mut object.normals {
                    for n in normals.iter_mut() {
                        #[allow(clippy::cast_possible_truncation)]
                        let rotated = world.apply_dir(n.map(f64::from)).map(|c| c as f32);
                        *n = rotated;
                    }
                }
            }
            self.file.objects.push(object);
        }
        for read in 0..kids {
            let Some(line) = self.next_line() else {
                self.file.missing_children += kids - read;
                return Ok(());
            };
            let (keyword, rest) = split_keyword(line);
            if keyword != "OBJECT" {
                return Err(self.error(&format!("expected a child OBJECT, found '{keyword}'")));
            }
            self.object(rest, &world, depth + 1)?;
        }
        Ok(())
    }

    fn count(&self, rest: &str, what: &str) -> Result<usize, Ac3dError> {
        rest.split_whitespace()
            .next()
            .and_then(|t| t.parse::<usize>().ok())
            .ok_or_else(|| self.error(&format!("'{what}' needs a whole number, found '{rest}'")))
    }

    fn floats<const N: usize>(&self, rest: &str, what: &str) -> Result<[f32; N], Ac3dError> {
        let mut out = [0.0f32; N];
        let mut tokens = rest.split_whitespace();
        for slot in &mut out {
            *slot = tokens
                .next()
                .and_then(|t| t.parse::<f32>().ok())
                .filter(|v| v.is_finite())
                .ok_or_else(|| self.error(&format!("'{what}' needs {N} numbers: '{rest}'")))?;
        }
        Ok(out)
    }

    /// `data N`: N characters of text follow, possibly over several lines.
    fn skip_data(&mut self, rest: &str) -> Result<(), Ac3dError> {
        let mut left = self.count(rest, "data")?;
        while left > 0 {
            let line = self.require_line("a data block")?;
            left = left.saturating_sub(line.len() + 1);
        }
        Ok(())
    }

    fn vertices(&mut self, rest: &str, object: &mut Ac3dObject) -> Result<(), Ac3dError> {
        let n = self.count(rest, "numvert")?;
        let mut vertices = Vec::with_capacity(n.min(1 << 20));
        let mut normals = Vec::with_capacity(n.min(1 << 20));
        for _ in 0..n {
            let line = self.require_line("a vertex list")?;
            let values: Vec<f64> = line
                .split_whitespace()
                .map(str::parse::<f64>)
                .collect::<Result<_, _>>()
                .map_err(|_| self.error(&format!("a vertex needs numbers: '{line}'")))?;
            if values.len() < 3 || values.iter().any(|v| !v.is_finite()) {
                return Err(self.error(&format!("a vertex needs 3 finite numbers: '{line}'")));
            }
            vertices.push([values[0], values[1], values[2]]);
            if values.len() >= 6 {
                #[allow(clippy::cast_possible_truncation)]
                normals.push([values[3] as f32, values[4] as f32, values[5] as f32]);
            }
        }
        object.normals = (n > 0 && normals.len() == n).then_some(normals);
        object.vertices = vertices;
        Ok(())
    }

    fn surfaces(&mut self, rest: &str, object: &mut Ac3dObject) -> Result<(), Ac3dError> {
        let n = self.count(rest, "numsurf")?;
        object.surfaces.reserve(n.min(1 << 20));
        for _ in 0..n {
            let line = self.require_line("a surface list")?;
            let (keyword, flags) = split_keyword(line);
            if keyword != "SURF" {
                return Err(self.error(&format!("expected SURF, found '{keyword}'")));
            }
            let flags = parse_flags(flags)
                .ok_or_else(|| self.error(&format!("bad SURF flags '{flags}'")))?;
            let mut material = 0;
            let refs = loop {
                let line = self.require_line("a surface")?;
                let (keyword, rest) = split_keyword(line);
                match keyword {
                    "mat" => material = self.count(rest, "mat")?,
                    "refs" => break self.count(rest, "refs")?,
                    other => {
                        return Err(self.error(&format!("unknown record '{other}' in a surface")));
                    }
                }
            };
            if material >= self.file.materials.len().max(1) {
                return Err(self.error(&format!(
                    "material {material} does not exist ({} defined)",
                    self.file.materials.len()
                )));
            }
            let mut corners = Vec::with_capacity(refs.min(1 << 16));
            for _ in 0..refs {
                let line = self.require_line("a surface's refs")?;
                corners.push(self.corner(
                    line,
                    object.texrep,
                    object.texoff,
                    object.vertices.len(),
                )?);
            }
            object.surfaces.push(Ac3dSurface {
                flags,
                material,
                refs: corners,
            });
        }
        Ok(())
    }

    fn corner(
        &self,
        line: &str,
        texrep: [f32; 2],
        texoff: [f32; 2],
        vertex_count: usize,
    ) -> Result<Ac3dRef, Ac3dError> {
        let mut tokens = line.split_whitespace();
        let vertex = tokens
            .next()
            .and_then(|t| t.parse::<u32>().ok())
            .ok_or_else(|| self.error(&format!("a ref needs a vertex index: '{line}'")))?;
        if vertex as usize >= vertex_count {
            return Err(self.error(&format!(
                "ref to vertex {vertex}, but the object has {vertex_count}"
            )));
        }
        let numbers: Vec<f32> = tokens
            .take(2 * LAYERS)
            .map(str::parse::<f32>)
            .collect::<Result<_, _>>()
            .map_err(|_| self.error(&format!("a ref's texture coordinates: '{line}'")))?;
        if numbers.len() < 2 || numbers.iter().any(|v| !v.is_finite()) {
            return Err(self.error(&format!("a ref needs a UV pair: '{line}'")));
        }
        let mut uv = [[0.0f32; 2]; LAYERS];
        for (layer, pair) in numbers.chunks_exact(2).enumerate() {
            uv[layer] = [pair[0], pair[1]];
        }
        uv[0] = [
            uv[0][0] * texrep[0] + texoff[0],
            uv[0][1] * texrep[1] + texoff[1],
        ];
        Ok(Ac3dRef { vertex, uv })
    }
}

/// A `texture` line: `"NAME"` alone (the base layer, resetting the others, as TORCS
/// does) or followed by its layer.
fn texture(rest: &str, object: &mut Ac3dObject) {
    let (name, layer) = match rest.rsplit_once(char::is_whitespace) {
        Some((name, layer)) if !layer.contains('"') => (name.trim(), Some(layer)),
        _ => (rest.trim(), None),
    };
    let name = unquote(name);
    let name =
        (!name.is_empty() && name != NO_TEXTURE && name != "(null)").then(|| name.to_owned());
    match layer {
        None | Some("base") => object.textures = [name, None, None, None],
        Some("tiled") => object.textures[1] = name,
        Some("skids") => object.textures[2] = name,
        Some("shad") => object.textures[3] = name,
        // An unknown layer word: the whole line is a name with a space in it.
        Some(_) => object.textures = [Some(unquote(rest.trim()).to_owned()), None, None, None],
    }
}

fn split_keyword(line: &str) -> (&str, &str) {
    match line.split_once(char::is_whitespace) {
        Some((k, rest)) => (k, rest.trim()),
        None => (line, ""),
    }
}

fn unquote(s: &str) -> &str {
    let s = s.trim();
    s.strip_prefix('"')
        .map_or(s, |inner| inner.strip_suffix('"').unwrap_or(inner))
}

fn parse_flags(s: &str) -> Option<u32> {
    let s = s.split_whitespace().next()?;
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => u32::from_str_radix(hex, 16).ok(),
        None => s.parse().ok(),
    }
}

/// `"name" rgb r g b amb r g b emis r g b spec r g b shi n trans t`.
fn parse_material(rest: &str) -> Result<Ac3dMaterial, String> {
    let (name, values) = if let Some(after) = rest.strip_prefix('"') {
        let end = after
            .find('"')
            .ok_or_else(|| format!("MATERIAL name without its closing quote: '{rest}'"))?;
        (&after[..end], &after[end + 1..])
    } else {
        split_keyword(rest)
    };
    let tokens: Vec<&str> = values.split_whitespace().collect();
    let field = |key: &str, n: usize| -> Result<Vec<f32>, String> {
        let at = tokens
            .iter()
            .position(|t| *t == key)
            .ok_or_else(|| format!("MATERIAL without '{key}'"))?;
        tokens
            .get(at + 1..at + 1 + n)
            .ok_or_else(|| format!("MATERIAL '{key}' needs {n} numbers"))?
            .iter()
            .map(|t| {
                t.parse::<f32>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| format!("MATERIAL '{key}': '{t}' is not a number"))
            })
            .collect()
    };
    let rgb = field("rgb", 3)?;
    let trans = field("trans", 1).map_or(0.0, |t| t[0]);
    Ok(Ac3dMaterial {
        name: name.to_owned(),
        rgb: [rgb[0], rgb[1], rgb[2]],
        trans,
    })
}

//! Triangle-mesh ground: the track as physics sees it.
//!
//! [`TriangleMesh`] holds vertices, triangles and one [`Surface`] per triangle. Ray casts go
//! through the bounding-volume hierarchy of `parry3d-f64`'s `TriMesh` (built once, when the
//! mesh is made), so a query visits a handful of triangles whatever the size of the track, and
//! allocates nothing: parry's traversal stack lives on the call stack.
//!
//! Each triangle's normal is computed once, at build time, and turned to point up (positive z)
//! whatever the winding of the triangle's vertices, so a wheel always sees the ground's normal
//! pointing out of the ground. A triangle of zero area keeps the normal `+z`; it can never be
//! hit, since a ray cannot cross a figure without area.
//!
//! A hit reports the *smooth* normal: each triangle corner has a normal averaged over the
//! triangles around its vertex, up to a crease angle ([`super::smooth_normals`]), blended at
//! the hit point. [`TriangleMesh::normals`] keeps the flat ones.

use std::fmt;

use glam::DVec3;
use parry3d_f64::bounding_volume::Aabb;
use parry3d_f64::query::Ray;
use parry3d_f64::shape::{CompositeShapeRef, TriMesh};

use super::neighbourhood::{COVER_MARGIN_M, Neighbourhoods, RayHint};
use super::query::{Ground, GroundHit};
use super::ray_triangle::ray_triangle_toi;
use super::smooth_normals::{corner_normals, interpolate};
use super::sole_column::SoleColumns;
use super::sole_face::SoleFace;
use super::surface::Surface;

/// Why a [`TriangleMesh`] could not be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MeshError {
    /// The mesh has no triangles (or no vertices).
    #[error("the mesh is empty: it needs at least one triangle")]
    Empty,
    /// A triangle names a vertex that does not exist.
    #[error("triangle {triangle} uses vertex {index}, but the mesh has {vertex_count} vertices")]
    IndexOutOfRange {
        /// The triangle's index.
        triangle: usize,
        /// The vertex index it names.
        index: u32,
        /// How many vertices there are.
        vertex_count: usize,
    },
    /// A vertex has a NaN or infinite coordinate.
    #[error("vertex {index} has a coordinate that is not a finite number")]
    NonFiniteVertex {
        /// The vertex's index.
        index: usize,
    },
    /// The surface list does not have one entry per triangle.
    #[error("{surfaces} surfaces given for {triangles} triangles (one per triangle is needed)")]
    SurfaceCountMismatch {
        /// Number of triangles.
        triangles: usize,
        /// Number of surfaces.
        surfaces: usize,
    },
    /// More vertices than 32-bit indices can address.
    #[error("{count} vertices: more than 32-bit indices can address")]
    TooManyVertices {
        /// Number of vertices.
        count: usize,
    },
}

/// A static triangle mesh with one surface per triangle, queried through a BVH.
#[derive(Clone)]
pub struct TriangleMesh {
    shape: TriMesh,
    surfaces: Vec<Surface>,
    /// Unit normal of each triangle, turned to point up (z >= 0).
    normals: Vec<DVec3>,
    /// Smooth unit normal of each triangle's corners, in the triangle's vertex order.
    corner_normals: Vec<[DVec3; 3]>,
    aabb_min: DVec3,
    aabb_max: DVec3,
    /// Each triangle's neighbourhood, for hinted queries.
    neighbourhoods: Neighbourhoods,
    /// The triangles alone in their column, for the hinted queries' shortest path.
    sole: SoleColumns,
}

impl fmt::Debug for TriangleMesh {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TriangleMesh")
            .field("vertices", &self.vertex_count())
            .field("triangles", &self.triangle_count())
            .field("aabb_min", &self.aabb_min)
            .field("aabb_max", &self.aabb_max)
            .finish_non_exhaustive()
    }
}

impl TriangleMesh {
    /// Builds a mesh from vertices (world frame, m), triangles (indices into `vertices`, any
    /// winding) and one surface per triangle, and builds its BVH.
    ///
    /// # Errors
    /// [`MeshError`] for an empty mesh, an index out of range, a non-finite vertex, or a
    /// surface list whose length differs from the triangle count. Never panics.
    pub fn new(
        vertices: Vec<DVec3>,
        triangles: Vec<[u32; 3]>,
        surfaces: Vec<Surface>,
    ) -> Result<Self, MeshError> {
        if triangles.is_empty() || vertices.is_empty() {
            return Err(MeshError::Empty);
        }
        if u32::try_from(vertices.len()).is_err() {
            return Err(MeshError::TooManyVertices {
                count: vertices.len(),
            });
        }
        if surfaces.len() != triangles.len() {
            return Err(MeshError::SurfaceCountMismatch {
                triangles: triangles.len(),
                surfaces: surfaces.len(),
            });
        }
        if let Some(index) = vertices.iter().position(|v| !v.is_finite()) {
            return Err(MeshError::NonFiniteVertex { index });
        }
        for (triangle, tri) in triangles.iter().enumerate() {
            if let Some(&index) = tri.iter().find(|&&i| i as usize >= vertices.len()) {
                return Err(MeshError::IndexOutOfRange {
                    triangle,
                    index,
                    vertex_count: vertices.len(),
                });
            }
        }
        let normals = triangles
            .iter()
            .map(|&[a, b, c]| {
                let (a, b, c) = (
                    vertices[a as usize],
                    vertices[b as usize],
                    vertices[c as usize],
                );
                let n = (b - a).cross(c - a).normalize_or_zero();
                if n == DVec3::ZERO {
                    DVec3::Z
                } else if n.z < 0.0 {
                    -n
                } else {
                    n
                }
            })
            .collect::<Vec<DVec3>>();
        let corner_normals = corner_normals(&vertices, &triangles, &normals);
        let (aabb_min, aabb_max) = vertices.iter().fold(
            (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY)),
            |(lo, hi), v| (lo.min(*v), hi.max(*v)),
        );
        let shape = TriMesh::new(vertices, triangles).map_err(|_| MeshError::Empty)?;
        let boxes: Vec<(DVec3, DVec3)> = shape
            .triangles()
            .map(|triangle| {
                let aabb = triangle.local_aabb();
                (aabb.mins, aabb.maxs)
            })
            .collect();
        let bvh = shape.bvh();
        let neighbourhoods = Neighbourhoods::build(&boxes, |lo, hi, row| {
            row.extend(bvh.intersect_aabb(&Aabb::new(lo, hi)));
        });
        let sole = SoleColumns::build(
            boxes.len(),
            |t| {
                let tri = shape.triangle(u32::try_from(t).unwrap_or(u32::MAX));
                [tri.a, tri.b, tri.c]
            },
            |t| neighbourhoods.row(t),
        );
        Ok(Self {
            shape,
            surfaces,
            normals,
            corner_normals,
            aabb_min,
            aabb_max,
            neighbourhoods,
            sole,
        })
    }

    /// The vertices (world frame, m).
    pub fn vertices(&self) -> &[DVec3] {
        self.shape.vertices()
    }

    /// The triangles, as indices into [`TriangleMesh::vertices`], in their original winding.
    pub fn triangles(&self) -> &[[u32; 3]] {
        self.shape.indices()
    }

    /// The surface of each triangle.
    pub fn surfaces(&self) -> &[Surface] {
        &self.surfaces
    }

    /// The up-pointing unit normal of each triangle (flat: a hit reports the smooth one).
    pub fn normals(&self) -> &[DVec3] {
        &self.normals
    }

    /// The smooth unit normal at `point` on triangle `index` (the corners' normals blended
    /// by `point`'s barycentric coordinates), or `None` for an index out of range.
    pub fn smooth_normal(&self, index: usize, point: DVec3) -> Option<DVec3> {
        let corners = self.corner_normals.get(index)?;
        let tri = self.shape.triangle(u32::try_from(index).ok()?);
        Some(interpolate(
            [tri.a, tri.b, tri.c],
            corners,
            point,
            *self.normals.get(index)?,
        ))
    }

    /// Number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.shape.vertices().len()
    }

    /// Number of triangles.
    pub fn triangle_count(&self) -> usize {
        self.surfaces.len()
    }

    /// Corners of the axis-aligned box holding every vertex: `(min, max)`.
    pub fn bounds(&self) -> (DVec3, DVec3) {
        (self.aabb_min, self.aabb_max)
    }

    /// Like [`Ground::ray_cast`], but also returns the index of the triangle hit.
    pub fn ray_cast_triangle(
        &self,
        origin: DVec3,
        direction: DVec3,
        max_distance: f64,
    ) -> Option<(usize, GroundHit)> {
        if !(origin.is_finite() && direction.is_finite() && max_distance >= 0.0) {
            return None;
        }
        let ray = Ray::new(origin, direction);
        // `solid = true`: a ray starting exactly on a triangle reports it at distance zero.
        let (triangle, distance) =
            CompositeShapeRef(&self.shape).cast_local_ray(&ray, max_distance, true)?;
        let index = triangle as usize;
        let point = origin + direction * distance;
        let hit = GroundHit {
            point,
            normal: self.smooth_normal(index, point)?,
            distance,
            surface: *self.surfaces.get(index)?,
        };
        Some((index, hit))
    }

    /// Like [`TriangleMesh::ray_cast_triangle`], exactly (the same triangle and distance), but
    /// first testing only the neighbourhood of the triangle `hint` remembers when the whole
    /// ray lies inside its cover box; otherwise the BVH. Updates `hint` to the triangle hit.
    /// See [`super::neighbourhood`].
    pub fn ray_cast_triangle_hinted(
        &self,
        origin: DVec3,
        direction: DVec3,
        max_distance: f64,
        hint: &mut RayHint,
    ) -> Option<(usize, GroundHit)> {
        self.ray_cast_hinted_with(origin, direction, max_distance, hint, HitNormal::Smooth)
    }

    /// [`TriangleMesh::ray_cast_triangle_hinted`] reporting the normal `normal` asks for.
    fn ray_cast_hinted_with(
        &self,
        origin: DVec3,
        direction: DVec3,
        max_distance: f64,
        hint: &mut RayHint,
        normal: HitNormal,
    ) -> Option<(usize, GroundHit)> {
        if !(origin.is_finite() && direction.is_finite() && max_distance >= 0.0) {
            return None;
        }
        let end = origin + direction * max_distance;
        // The shortest path: a segment inside a sole triangle's column can meet only it
        // (see `sole_column`), so the row's answer is this one test's.
        if let Some(t) = self.sole_triangle(*hint, origin, end) {
            let tri = self.shape.triangle(u32::try_from(t).ok()?);
            let toi = ray_triangle_toi([tri.a, tri.b, tri.c], origin, direction, max_distance)
                .filter(|&toi| toi < max_distance)?;
            return self.hit_on(t, origin + direction * toi, toi, normal);
        }
        let candidates = hint
            .triangle()
            .and_then(|t| self.neighbourhoods.candidates(t, origin, end));
        let Some((candidates, mins, maxs)) = candidates else {
            let found = self.ray_cast_triangle(origin, direction, max_distance);
            // A miss (a body probe above the ground) remembers the triangle straight below
            // instead, so the next misses nearby are answered from its neighbourhood too.
            let remembered = found.map(|(triangle, _)| triangle).or_else(|| {
                self.ray_cast_triangle(origin, DVec3::NEG_Z, COVER_MARGIN_M)
                    .map(|(triangle, _)| triangle)
            });
            if let Some(triangle) = remembered {
                hint.remember(triangle);
            }
            return match normal {
                HitNormal::Smooth => found,
                HitNormal::Face => found.and_then(|(index, hit)| {
                    let normal = *self.normals.get(index)?;
                    Some((index, GroundHit { normal, ..hit }))
                }),
            };
        };
        // The BVH's rules: a hit must come strictly before the best so far (the first found
        // wins a tie) and strictly before `max_distance`.
        let mut best = (usize::MAX, max_distance);
        let (lo, hi) = (origin.min(end), origin.max(end));
        for ((&t, min), max) in candidates.iter().zip(mins).zip(maxs) {
            // A triangle whose bounding box misses the segment's cannot meet the segment.
            if !(min.cmple(hi).all() && max.cmpge(lo).all()) {
                continue;
            }
            let tri = self.shape.triangle(t);
            if let Some(toi) = ray_triangle_toi([tri.a, tri.b, tri.c], origin, direction, best.1)
                && toi < best.1
            {
                best = (t as usize, toi);
            }
        }
        let (index, distance) = best;
        if index == usize::MAX {
            return None;
        }
        hint.remember(index);
        self.hit_on(index, origin + direction * distance, distance, normal)
    }

    /// The triangle `hint` remembers when it is the only one the segment from `a` to `b` can
    /// meet: the segment lies inside its cover box and inside its sole area.
    #[inline]
    fn sole_triangle(&self, hint: RayHint, a: DVec3, b: DVec3) -> Option<usize> {
        let t = hint.triangle()?;
        (self.neighbourhoods.covers(t, a, b) && self.sole.holds(t, a, b)).then_some(t)
    }

    /// The hit on triangle `index` at `point`, `distance` along the ray, with the normal
    /// `normal` asks for.
    fn hit_on(
        &self,
        index: usize,
        point: DVec3,
        distance: f64,
        normal: HitNormal,
    ) -> Option<(usize, GroundHit)> {
        let normal = match normal {
            HitNormal::Smooth => self.smooth_normal(index, point)?,
            HitNormal::Face => *self.normals.get(index)?,
        };
        Some((
            index,
            GroundHit {
                point,
                normal,
                distance,
                surface: *self.surfaces.get(index)?,
            },
        ))
    }

    /// Number of triangles alone in their column (see [`super::sole_column`]).
    pub fn sole_triangles(&self) -> usize {
        self.sole.count()
    }

    /// Size of the triangles' neighbourhoods for hinted queries: (largest, mean).
    pub fn neighbourhood_size(&self) -> (usize, f64) {
        (self.neighbourhoods.largest(), self.neighbourhoods.mean())
    }

    /// Height of the ground at `(x, y)`: the highest surface below `z_from` (m), with its hit.
    /// A convenience for placing objects; physics uses [`Ground::ray_cast`].
    pub fn height_below(&self, x: f64, y: f64, z_from: f64) -> Option<GroundHit> {
        let origin = DVec3::new(x, y, z_from);
        let depth = z_from - self.aabb_min.z + 1.0;
        self.ray_cast(origin, DVec3::NEG_Z, depth.max(0.0))
    }
}

impl Ground for TriangleMesh {
    fn ray_cast(&self, origin: DVec3, direction: DVec3, max_distance: f64) -> Option<GroundHit> {
        self.ray_cast_triangle(origin, direction, max_distance)
            .map(|(_, hit)| hit)
    }

    fn ray_cast_hinted(
        &self,
        origin: DVec3,
        direction: DVec3,
        max_distance: f64,
        hint: &mut RayHint,
    ) -> Option<GroundHit> {
        self.ray_cast_triangle_hinted(origin, direction, max_distance, hint)
            .map(|(_, hit)| hit)
    }

    /// The triangle's own normal: no blending of its corners' normals.
    fn ray_cast_face_hinted(
        &self,
        origin: DVec3,
        direction: DVec3,
        max_distance: f64,
        hint: &mut RayHint,
    ) -> Option<GroundHit> {
        self.ray_cast_hinted_with(origin, direction, max_distance, hint, HitNormal::Face)
            .map(|(_, hit)| hit)
    }

    /// The hinted triangle's plane, where it is alone in its column ([`super::sole_column`]).
    fn sole_face(&self, hint: RayHint) -> Option<SoleFace> {
        let t = hint.triangle()?;
        Some(SoleFace::new(
            self.shape.triangle(u32::try_from(t).ok()?).a,
            *self.normals.get(t)?,
            *self.surfaces.get(t)?,
            self.neighbourhoods.cover_box(t)?,
            *self.sole.area(t)?,
        ))
    }
}

/// Which normal a mesh hit reports.
#[derive(Clone, Copy, Debug)]
enum HitNormal {
    /// The corners' normals blended at the point ([`TriangleMesh::smooth_normal`]).
    Smooth,
    /// The triangle's own normal.
    Face,
}

#[cfg(test)]
#[path = "mesh_tests.rs"]
mod tests;

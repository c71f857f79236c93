//! Tracks: from a layout description to the ground mesh, the centre line, the objects and the
//! named references that physics, the driver model, scenarios and the renderer use.
//!
//! - [`TrackLayout`] (in [`layout`]) is what a track file holds: centre-line control points
//!   (position, elevation, banking, width; open or closed), a kerb strip and verge bands beside
//!   the road, pads (skidpads, surface tiles, grades), objects (cones, markers) and references
//!   (points, lines, stations, circles, lane-change courses). An imported track gives instead
//!   a [`CrossSection`] per control point (in [`cross_section`]): its road surface and the
//!   bands on each side, varying along the road.
//! - [`TrackLayout::build_mesh`] turns it into a [`TrackMesh`]: a [`TriangleMesh`] ground with a
//!   surface per triangle (which implements [`Ground`]), the sampled [`CentreLine`] with
//!   station queries, the objects standing on the ground and the references resolved, and
//!   the barriers beside the road ([`barrier`]) as polylines and as [`Walls`] the car body
//!   collides with, the edges of the road and run-off at each sample ([`SampleEdges`]), and
//!   the layout's rules for roadside furniture ([`RoadsideRules`]: braking boards, trees,
//!   buildings), which the renderer places. An importer may add an outer ground beyond the
//!   generated one ([`TrackMesh::outer_ground`], a TORCS scene's terrain), asked where the
//!   generated ground has nothing, and solid objects ([`TrackMesh::solids`], a scene's stands
//!   and buildings) the body collides with.
//! - A layout's [`BoundarySpec`] (in [`boundary`]) closes the world: terrain round
//!   everything built, out to a margin, under a wall that no car passes.
//!
//! Conventions: world frame right-handed, z up; x east, y north. Headings are measured
//! counter-clockwise from east. Banking is a rotation of the road's cross-section about the
//! direction of travel: positive raises the left edge (a right-hand corner's banking).

pub mod barrier;
pub mod barrier_spec;
pub mod boundary;
pub mod boundary_spec;
mod build;
mod build_sections;
pub mod centre_line;
pub mod cross_section;
pub mod kerb;
pub mod layout;
pub mod reference;
pub mod roadside_rules;
pub mod sample_edges;
pub mod side;

#[cfg(test)]
mod barrier_tests;
#[cfg(test)]
mod boundary_tests;
#[cfg(test)]
mod tests;

use glam::DVec3;

use crate::ground::{Ground, GroundHit, MeshError, RayHint, SoleFace, Solids, TriangleMesh, Walls};
use crate::validate::Violations;

pub use barrier::Barrier;
pub use barrier_spec::{BarrierKind, BarrierPlacement, BarrierSpec};
pub use boundary_spec::BoundarySpec;
pub use centre_line::{CentreLine, CentreLineSample, Projection};
pub use cross_section::{CrossSection, SideBand};
pub use layout::{
    BuildingStyle, ControlPoint, KerbSpec, ObjectKind, ObjectSpec, Pad, PadShape, Reference,
    TrackLayout, VergeBand,
};
pub use reference::{
    Lane, LaneChange, LaneChangeSection, LaneSpec, NamedReference, ReferenceGeometry,
};
pub use roadside_rules::RoadsideRules;
pub use sample_edges::SampleEdges;
pub use side::Side;

/// Why a layout could not be turned into a mesh.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TrackError {
    /// The layout's values make no sense; every problem with its field path.
    #[error("invalid layout: {0}")]
    Invalid(#[from] Violations),
    /// The generated triangles could not form a mesh.
    #[error("cannot build the ground mesh: {0}")]
    Mesh(#[from] MeshError),
    /// The generated mesh would need more vertices than 32-bit indices can address.
    #[error("the track needs {vertices} vertices, more than a mesh can index")]
    TooLarge {
        /// Vertices counted when the limit was passed.
        vertices: usize,
    },
    /// A pad polygon is not convex.
    #[error("a pad polygon is not convex")]
    BadPolygon,
    /// An object stands where there is no ground.
    #[error("object {index} at ({x_m}, {y_m}) has no ground under it")]
    ObjectOffGround {
        /// Index in the layout's `objects`.
        index: usize,
        /// East (m).
        x_m: f64,
        /// North (m).
        y_m: f64,
    },
    /// A reference point lies where there is no ground.
    #[error("reference '{name}' has no ground under it")]
    ReferenceOffGround {
        /// The reference's name.
        name: String,
    },
    /// A station reference lies beyond the end of an open centre line.
    #[error("reference '{name}' at {distance_m} m lies beyond the centre line's {length_m} m")]
    StationBeyondEnd {
        /// The reference's name.
        name: String,
        /// Its station (m).
        distance_m: f64,
        /// Length of the centre line (m).
        length_m: f64,
    },
}

/// An object standing on the ground.
#[derive(Clone, Debug, PartialEq)]
pub struct PlacedObject {
    /// What it is.
    pub kind: ObjectKind,
    /// Its group (from the layout; may be empty).
    pub group: String,
    /// Its base, on the ground (world frame, m).
    pub position: DVec3,
}

/// A built track: the ground, the centre line, the objects and the references.
#[derive(Clone, Debug)]
pub struct TrackMesh {
    /// The ground, with a surface per triangle.
    pub ground: TriangleMesh,
    /// Ground beyond the generated one (an imported track's scene terrain and run-offs),
    /// asked only where [`TrackMesh::ground`] has nothing within a ray's reach, so the
    /// generated road keeps priority where it exists; `None` for a generated world alone.
    pub outer_ground: Option<TriangleMesh>,
    /// The sampled centre line (empty for a layout without a road).
    pub centre_line: CentreLine,
    /// Length of the centre line (m), the lap length of a closed track.
    pub length_m: f64,
    /// Cones and markers on the ground.
    pub objects: Vec<PlacedObject>,
    /// Named references, resolved onto the ground.
    pub references: Vec<NamedReference>,
    /// Barriers and walls along the road, and the boundary wall round the world when the
    /// layout has one, as polylines with their heights (for drawing).
    pub barriers: Vec<Barrier>,
    /// The barriers as collision geometry for the car body.
    pub walls: Walls,
    /// Solid objects of any shape the car body collides with (an imported track's scene's
    /// stands and buildings); empty for a generated world.
    pub solids: Solids,
    /// The index of the first triangle of `ground` that belongs to the boundary's terrain
    /// (the terrain runs to the end); the triangle count when there is no boundary.
    pub terrain_first_triangle: usize,
    /// The road's and the run-off's edges at each centre-line sample, in the samples'
    /// order; empty when the build did not record one per sample.
    pub edges: Vec<SampleEdges>,
    /// The layout's rules for braking boards, trees and buildings, placed and drawn by the
    /// renderer (nothing there collides with the car).
    pub roadside_rules: RoadsideRules,
}

impl TrackMesh {
    /// The reference called `name`.
    pub fn reference(&self, name: &str) -> Option<&NamedReference> {
        self.references.iter().find(|r| r.name == name)
    }

    /// The objects of one group.
    pub fn objects_in<'a>(&'a self, group: &'a str) -> impl Iterator<Item = &'a PlacedObject> + 'a {
        self.objects.iter().filter(move |o| o.group == group)
    }
}

impl TrackMesh {
    /// The outer ground's hit ([`TrackMesh::outer_ground`]), asked where the generated ground
    /// has none; through its BVH (the hints serve the generated ground, where a car spends
    /// its time).
    fn outer_hit(&self, origin: DVec3, direction: DVec3, max_distance: f64) -> Option<GroundHit> {
        self.outer_ground
            .as_ref()?
            .ray_cast(origin, direction, max_distance)
    }
}

impl Ground for TrackMesh {
    /// The generated ground's hit, else the outer ground's ([`TrackMesh::outer_ground`]).
    fn ray_cast(&self, origin: DVec3, direction: DVec3, max_distance: f64) -> Option<GroundHit> {
        self.ground
            .ray_cast(origin, direction, max_distance)
            .or_else(|| self.outer_hit(origin, direction, max_distance))
    }

    fn ray_cast_hinted(
        &self,
        origin: DVec3,
        direction: DVec3,
        max_distance: f64,
        hint: &mut RayHint,
    ) -> Option<GroundHit> {
        self.ground
            .ray_cast_hinted(origin, direction, max_distance, hint)
            .or_else(|| self.outer_hit(origin, direction, max_distance))
    }

    fn ray_cast_face_hinted(
        &self,
        origin: DVec3,
        direction: DVec3,
        max_distance: f64,
        hint: &mut RayHint,
    ) -> Option<GroundHit> {
        self.ground
            .ray_cast_face_hinted(origin, direction, max_distance, hint)
            .or_else(|| self.outer_hit(origin, direction, max_distance))
    }

    /// The generated ground's: where its face's plane meets a ray, the generated ground
    /// answers and the outer ground is not asked.
    fn sole_face(&self, hint: RayHint) -> Option<SoleFace> {
        self.ground.sole_face(hint)
    }

    fn walls(&self) -> Option<&Walls> {
        (!self.walls.is_empty()).then_some(&self.walls)
    }

    fn solids(&self) -> Option<&Solids> {
        (!self.solids.is_empty()).then_some(&self.solids)
    }
}

impl TrackLayout {
    /// Validates the layout and generates its mesh, centre line, objects and references.
    /// Deterministic.
    ///
    /// # Errors
    /// [`TrackError::Invalid`] with field paths when the layout makes no sense; the other
    /// [`TrackError`]s when objects or references lie off the ground.
    pub fn build_mesh(&self) -> Result<TrackMesh, TrackError> {
        build::build(self)
    }
}

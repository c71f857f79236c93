//! The ground: what a wheel or the body touches, and what it is made of.
//!
//! Physics asks the ground one question, through the [`Ground`] trait: where does this ray
//! first hit you, with which normal, on which [`Surface`]? Implementations: [`FlatGround`]
//! (an infinite plane, for tests) and, in [`mesh`], [`TriangleMesh`]: a triangle mesh with a
//! bounding-volume hierarchy and a surface per triangle, built from a track layout
//! (`crate::track`), whose hits carry normals smoothed across gentle folds
//! ([`smooth_normals`]). Walls and barriers, which only the car body meets, are a second kind of
//! geometry a ground may carry: [`Ground::walls`] gives them ([`walls`]); solid objects of any
//! shape (a scene's stands, buildings, tyre stacks) are a third, [`Ground::solids`]
//! ([`solids`]).

pub mod flat;
pub mod hit;
pub mod mesh;
pub mod neighbourhood;
pub mod query;
mod ray_triangle;
pub mod smooth_normals;
pub mod sole_column;
pub mod sole_face;
#[cfg(test)]
mod sole_face_tests;
pub mod solids;
pub mod surface;
pub mod walls;

pub use flat::FlatGround;
pub use mesh::{MeshError, TriangleMesh};
pub use neighbourhood::RayHint;
pub use query::{Ground, GroundHit};
pub use sole_face::SoleFace;
pub use solids::{SolidEdge, SolidTriangle, Solids};
pub use surface::{Surface, SurfaceProperties};
pub use walls::{WallHit, WallRun, WallSegment, Walls};

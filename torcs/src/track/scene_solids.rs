//! A TORCS scene's solid triangles (stands, walls, fences, buildings' sides, tyre stacks,
//! poles, tree trunks: what [`super::scene_ground`] classifies solid) as collision geometry
//! for the car body ([`gripline_physics::ground::Solids`], met as
//! `gripline_physics::vehicle::solid_contact` says).
//!
//! One kind is left out: *ledges*, solid triangles less than [`LEDGE_HEIGHT_M`] tall whose
//! lowest corner lies within [`LEDGE_HEIGHT_M`] of the ground under their centre: a kerb's
//! riser, the step of a border or a pavement, the lip of a track-side strip (forza's
//! rumble-strip objects are 619 of its 946). The wheels meet those steps as ground (the
//! generated ground carries the road's own kerbs), and the body's lowest points ride above
//! them; as walls they would snag a car crossing a kerb.
//!
//! All solids get the barriers' friction and restitution
//! ([`DEFAULT_BARRIER_FRICTION`], [`DEFAULT_BARRIER_RESTITUTION`]): TORCS gives its scene
//! objects no material for collisions.

use std::collections::BTreeSet;

use glam::DVec3;
use gripline_physics::ground::{Ground, Solids};
use gripline_physics::track::TrackMesh;
use gripline_physics::track::barrier_spec::{
    DEFAULT_BARRIER_FRICTION, DEFAULT_BARRIER_RESTITUTION,
};

/// A solid triangle lower than this (m), standing on the ground, is a ledge (see the module
/// docs).
pub const LEDGE_HEIGHT_M: f64 = 0.3;

/// How far above a triangle's centre (m) the ground under it is looked for.
const GROUND_SEARCH_M: f64 = 2.0;

/// What [`scene_solids`] kept and left out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolidCounts {
    /// Solid triangles kept.
    pub triangles: usize,
    /// Objects of the scene they belong to.
    pub objects: usize,
    /// Feature edges of the kept triangles.
    pub edges: usize,
    /// Ledges left out.
    pub ledges: usize,
}

/// Whether the solid triangle `corners` is a ledge on `mesh`'s ground (see the module docs).
pub fn is_ledge(corners: &[DVec3; 3], mesh: &TrackMesh) -> bool {
    let low = corners.iter().map(|c| c.z).fold(f64::INFINITY, f64::min);
    let high = corners
        .iter()
        .map(|c| c.z)
        .fold(f64::NEG_INFINITY, f64::max);
    if high - low >= LEDGE_HEIGHT_M {
        return false;
    }
    let centre = (corners[0] + corners[1] + corners[2]) / 3.0;
    let from = DVec3::new(centre.x, centre.y, high + GROUND_SEARCH_M);
    mesh.ray_cast(from, DVec3::NEG_Z, 2.0 * GROUND_SEARCH_M + LEDGE_HEIGHT_M)
        .is_some_and(|hit| (low - hit.point.z).abs() < LEDGE_HEIGHT_M)
}

/// The scene's solid triangles (each with the index of its object), ledges on `mesh`'s
/// ground left out, as [`Solids`], with what was kept.
pub fn scene_solids(solid: &[([DVec3; 3], usize)], mesh: &TrackMesh) -> (Solids, SolidCounts) {
    let mut objects = BTreeSet::new();
    let mut kept = Vec::with_capacity(solid.len());
    let mut ledges = 0;
    for (corners, object) in solid {
        if is_ledge(corners, mesh) {
            ledges += 1;
            continue;
        }
        objects.insert(*object);
        kept.push(*corners);
    }
    let solids = Solids::new(
        &kept,
        objects.len(),
        DEFAULT_BARRIER_FRICTION,
        DEFAULT_BARRIER_RESTITUTION,
    );
    let counts = SolidCounts {
        triangles: solids.triangles().len(),
        objects: objects.len(),
        edges: solids.edges().len(),
        ledges,
    };
    (solids, counts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use gripline_physics::track::{ControlPoint, TrackLayout};

    /// A straight road 200 m long, 10 m wide, at z = 0 (no barriers).
    fn road() -> TrackMesh {
        let layout = TrackLayout {
            closed: false,
            centre_line: (0..5)
                .map(|i| ControlPoint {
                    x_m: f64::from(i) * 50.0,
                    y_m: 0.0,
                    z_m: 0.0,
                    banking_deg: 0.0,
                    width_m: 10.0,
                })
                .collect(),
            ..TrackLayout::default()
        };
        layout.build_mesh().expect("a straight road")
    }

    /// A vertical quad from `(x, y0)` to `(x, y1)`, `z0` to `z1`, as two triangles.
    fn riser(
        x: f64,
        (y0, y1): (f64, f64),
        (z0, z1): (f64, f64),
        object: usize,
    ) -> Vec<([DVec3; 3], usize)> {
        let c = [
            DVec3::new(x, y0, z0),
            DVec3::new(x, y1, z0),
            DVec3::new(x, y1, z1),
            DVec3::new(x, y0, z1),
        ];
        vec![([c[0], c[1], c[2]], object), ([c[0], c[2], c[3]], object)]
    }

    #[test]
    fn a_kerb_riser_on_the_road_is_a_ledge_and_a_wall_is_solid() {
        let mesh = road();
        // A 10 cm riser standing on the road, a 1.2 m wall on it, a 10 cm sign panel 2 m up.
        let mut solid = riser(50.0, (-2.0, 2.0), (0.0, 0.1), 0);
        solid.extend(riser(80.0, (-2.0, 2.0), (0.0, 1.2), 1));
        solid.extend(riser(120.0, (-2.0, 2.0), (2.0, 2.1), 2));
        let (solids, counts) = scene_solids(&solid, &mesh);
        assert_eq!(counts.ledges, 2);
        assert_eq!(counts.triangles, 4);
        assert_eq!(counts.objects, 2);
        assert_eq!(solids.objects(), 2);
        // Each quad keeps its four sides (not its diagonal).
        assert_eq!(counts.edges, 8);
    }
}

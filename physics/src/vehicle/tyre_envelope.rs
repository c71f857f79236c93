//! The tyre as a disc: where its contact patch meets the ground, probed at five points and
//! combined into one effective ground plane per wheel.
//!
//! One ray under the wheel centre sees an edge or a step the instant the centre crosses it,
//! and the load jumps. A tyre envelops an obstacle: its patch, about a tenth of a metre long,
//! meets a step over its whole length. Following Rill's four-point contact (G. Rill, *Road
//! Vehicle Dynamics: Fundamentals and Modeling*, CRC 2012, the tyre's contact geometry; the same scheme as
//! Project Chrono's `ChTire::DiscTerrainCollision4pt`), the ground is probed at the front and
//! rear ends of the patch (`±a` along the body's x) and at its sides (`±b` along the body's y);
//! the effective ground is the mean of the four heights, and its normal is the cross product of
//! the front-rear and left-right chords, so a step ahead tilts the plane and lifts it by a
//! quarter of its height per probe that has crossed it, while the chords turn the plane's
//! normal smoothly across a fold. Each probe is a ray along the suspension axis, as the wheel's
//! own, from the hardpoint moved by the probe's offset (one [`RayHint`] each, kept between
//! ticks). A fifth ray under the centre gives the reference plane (its hit and smooth normal)
//! against which the four are measured, the surface under the wheel, and whether there is
//! ground at all. Where the face the centre ray met is the only face a probe's ray can meet
//! ([`Ground::sole_face`]: on a road, nearly always), the probe meets that face's plane
//! instead of casting its ray: the same point up to rounding, at a fraction of the cost.
//!
//! The plane is described relative to the centre's: `lift`, the mean of the probes' heights
//! above the centre's tangent plane, and `normal`, the chords' normal. On a plane (flat ground,
//! a banked road inside one triangle) every probe lies on the centre's plane, so `lift` is zero
//! and the normal the centre's: the wheel sees exactly the one-ray contact of before, to the
//! bit, which keeps every flat-ground figure (launch, braking, skidpad) where it was. Heights
//! within [`PLANE_TOLERANCE_M`] of the centre's plane count as on it (the rounding of a ray
//! cast is ~1e-16 m). A probe that misses, or hits a face too steep to stand on, or ground more
//! than [`MAX_PROBE_OFFSET_M`] off the centre's plane (a wall's top, a ditch: not what a tyre
//! patch rests on) stands on the centre's plane instead.
//!
//! The patch's size is the tyre's at its static load. Half-length, MF-Swift's contact-length
//! formula (Pacejka, *Tire and Vehicle Dynamics*, 3rd ed., chapter 10; the `Q_RA1`, `Q_RA2`
//! terms of an MF 6.1 tyre file) with the
//! coefficients of the MF 6.1 reference tyre shipped in `assets/tyres/MagicFormula61_Parameters.tir`
//! (`Q_RA1 = 0.60147`, `Q_RA2 = 0.81974`): `a = R0 (Q_RA2 ρ / R0 + Q_RA1 sqrt(ρ / R0))`, `ρ`
//! the static deflection; a Corvette C5 front tyre (R0 0.33 m, ρ 15 mm) gets 55 mm. Half-width:
//! `0.3 R0` (estimate: a 245-275 mm tread on a 0.32-0.34 m radius, probed a little inside its
//! edges). The probes follow the body, not the steered wheel: within 35 degrees of lock the
//! patch is still sampled over its length and width, if turned.

use glam::{DQuat, DVec3};

use crate::ground::{Ground, GroundHit, RayHint};

/// Rays per wheel: the centre and the four patch probes.
pub const PROBES: usize = 5;

/// Heights within this of the centre's tangent plane (m) are on it.
pub const PLANE_TOLERANCE_M: f64 = 1e-9;

/// A probe finding ground farther than this (m) off the centre's tangent plane ignores it.
pub const MAX_PROBE_OFFSET_M: f64 = 0.15;

/// MF 6.1 reference tyre's square-root term of the contact length (`Q_RA1`).
const Q_RA1: f64 = 0.60147;
/// MF 6.1 reference tyre's linear term of the contact length (`Q_RA2`).
const Q_RA2: f64 = 0.81974;
/// Half-width of the probed tread as a fraction of the free radius (estimate, see above).
const HALF_WIDTH_PER_RADIUS: f64 = 0.3;

/// The ground queries' hints of one wheel: centre, front, rear, left, right.
pub type ProbeHints = [RayHint; PROBES];

/// The contact patch probed: its half-length and half-width (m).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TyrePatch {
    /// Half the patch length, along the body's x (m).
    pub half_length_m: f64,
    /// Half the probed width, along the body's y (m).
    pub half_width_m: f64,
}

impl TyrePatch {
    /// The patch of a tyre of free radius `free_radius_m` at its static deflection
    /// `static_deflection_m` (see the module docs). Non-finite or negative figures give a
    /// zero patch: the five probes then coincide, a one-ray contact.
    #[must_use]
    pub fn of(free_radius_m: f64, static_deflection_m: f64) -> Self {
        let r0 = free_radius_m;
        let rho = static_deflection_m.max(0.0);
        let a = r0 * (Q_RA2 * rho / r0 + Q_RA1 * (rho / r0).sqrt());
        let b = HALF_WIDTH_PER_RADIUS * r0;
        let ok = |x: f64| if x.is_finite() && x > 0.0 { x } else { 0.0 };
        Self {
            half_length_m: ok(a),
            half_width_m: ok(b),
        }
    }
}

/// The effective ground under one wheel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PatchGround {
    /// The centre ray's hit: its distance along the axis, its point, smooth normal and surface.
    pub centre: GroundHit,
    /// Height of the effective plane above the centre's tangent plane (m, along its normal).
    pub lift_m: f64,
    /// Unit normal of the effective plane (the centre's on a plane).
    pub normal: DVec3,
}

impl PatchGround {
    /// Height (m) of the point `distance_along_axis` along `axis` from the rays' origin above
    /// the effective plane, measured along its normal; `cosine = -axis . normal`.
    #[inline]
    #[must_use]
    pub fn height_of(&self, distance_along_axis: f64, cosine: f64) -> f64 {
        // (centre - hit) . n less the lift's part along n; on a plane, exactly (d - len) c.
        (self.centre.distance - distance_along_axis) * cosine
            - self.lift_m * self.centre.normal.dot(self.normal)
    }
}

/// Probes the ground under a wheel whose axis runs from `hardpoint` along the unit `axis`
/// (body `-z` turned by `orientation`), `reach` long, over `patch`; `min_cosine` is the least
/// cosine between the axis and a face a probe may stand on. `None` when the centre ray finds
/// no ground.
pub fn probe(
    ground: &impl Ground,
    (hardpoint, axis, orientation): (DVec3, DVec3, DQuat),
    reach: f64,
    patch: TyrePatch,
    min_cosine: f64,
    hints: &mut ProbeHints,
) -> Option<PatchGround> {
    let [centre_hint, probe_hints @ ..] = hints;
    let centre = ground.ray_cast_hinted(hardpoint, axis, reach, centre_hint)?;
    let (p0, n0) = (centre.point, centre.normal);
    let along = orientation.mul_vec3(DVec3::X) * patch.half_length_m;
    let across = orientation.mul_vec3(DVec3::Y) * patch.half_width_m;
    let offsets = [along, -along, across, -across];
    let axis_cosine = axis.dot(n0);
    let centre_face = ground.sole_face(*centre_hint);
    let mut points = [DVec3::ZERO; 4];
    let mut heights = [0.0; 4];
    for (k, (offset, hint)) in offsets.into_iter().zip(probe_hints).enumerate() {
        let origin = hardpoint + offset;
        let on_plane = |origin: DVec3| {
            // Where this probe's ray meets the centre's tangent plane.
            let t = (p0 - origin).dot(n0) / axis_cosine;
            origin + axis * if t.is_finite() { t } else { 0.0 }
        };
        // Only the point and whether the face could be stood on count here: the face's own
        // normal serves (`ray_cast_face_hinted` skips blending the mesh's corner normals).
        // Where the centre's face is alone under this probe's whole ray, its plane answers.
        let on_centre_face = centre_face
            .filter(|face| face.holds(origin, origin + axis * reach))
            .and_then(|face| face.hit(origin, axis, reach));
        let found = match on_centre_face {
            Some(hit) => {
                *hint = *centre_hint;
                Some(hit)
            }
            None => ground.ray_cast_face_hinted(origin, axis, reach, hint),
        }
        .filter(|hit| -axis.dot(hit.normal) >= min_cosine);
        let (point, height) = match found {
            Some(hit) => {
                let h = (hit.point - p0).dot(n0);
                if h.abs() <= PLANE_TOLERANCE_M {
                    (hit.point, 0.0)
                } else if h.abs() <= MAX_PROBE_OFFSET_M {
                    (hit.point, h)
                } else {
                    (on_plane(origin), 0.0)
                }
            }
            None => (on_plane(origin), 0.0),
        };
        points[k] = point;
        heights[k] = height;
    }
    if heights.iter().all(|&h| h == 0.0) {
        return Some(PatchGround {
            centre,
            lift_m: 0.0,
            normal: n0,
        });
    }
    let lift_m = 0.25 * (heights[0] + heights[1] + heights[2] + heights[3]);
    // Rill's chord normal; a degenerate patch (zero size) keeps the centre's.
    let chords = (points[0] - points[1]).cross(points[2] - points[3]);
    let normal = chords
        .try_normalize()
        .map_or(n0, |n| if n.dot(n0) < 0.0 { -n } else { n });
    Some(PatchGround {
        centre,
        lift_m,
        normal,
    })
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // the point: the same bits
mod tests {
    use super::*;
    use crate::ground::FlatGround;

    #[test]
    fn patch_size_of_a_car_tyre() {
        // R0 0.33 m, 15 mm deflection: a = 0.33 (0.81974 * 0.04545 + 0.60147 * 0.21320).
        let p = TyrePatch::of(0.33, 0.015);
        let expected = 0.33 * (0.81974 * 0.015 / 0.33 + 0.60147 * (0.015f64 / 0.33).sqrt());
        assert!((p.half_length_m - expected).abs() < 1e-15);
        assert!(
            (p.half_length_m - 0.0546).abs() < 5e-4,
            "{}",
            p.half_length_m
        );
        assert!((p.half_width_m - 0.099).abs() < 1e-12);
        let bad = TyrePatch::of(f64::NAN, 0.01);
        assert_eq!((bad.half_length_m, bad.half_width_m), (0.0, 0.0));
    }

    #[test]
    fn on_a_plane_the_patch_is_the_centre_ray_to_the_bit() {
        let ground = FlatGround::default();
        let q = DQuat::from_euler(glam::EulerRot::XYZ, 0.03, -0.02, 0.7);
        let axis = q.mul_vec3(-DVec3::Z);
        let hardpoint = DVec3::new(3.0, -2.0, 0.61);
        let mut hints = [RayHint::default(); PROBES];
        let patch = TyrePatch::of(0.33, 0.015);
        let g = probe(&ground, (hardpoint, axis, q), 1.5, patch, 0.3, &mut hints).expect("hit");
        let one = ground.ray_cast(hardpoint, axis, 1.5).expect("hit");
        assert_eq!(g.centre, one);
        assert_eq!((g.lift_m, g.normal), (0.0, one.normal));
        let c = -axis.dot(g.normal);
        assert_eq!(g.height_of(0.3, c), (one.distance - 0.3) * c);
        // Nothing below: no ground.
        let high = DVec3::new(0.0, 0.0, -1.0);
        assert!(probe(&ground, (high, axis, q), 1.5, patch, 0.3, &mut hints).is_none());
    }
}

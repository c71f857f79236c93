//! The seam between the generated ground and a scene's ground beyond it: at each centre-line
//! sample, on each side, the height of the scene's ground [`SEAM_STEP_M`] outside the
//! generated ground's outer edge less that of the generated ground as far inside it. Where a
//! barrier stands on the edge (within [`BARRIER_NEAR_M`] of it, its face at its offset), the
//! scene's point is taken beyond the barrier's thickness: the scene draws the barrier as a
//! box whose top would otherwise be measured.

use glam::DVec3;
use gripline_physics::ground::Ground;
use gripline_physics::track::{Side, TrackMesh};

/// How far (m) either side of the generated ground's outer edge the heights are taken.
pub const SEAM_STEP_M: f64 = 0.05;

/// How near (m, horizontally) a barrier's foot must be to an edge point to stand there.
pub const BARRIER_NEAR_M: f64 = 1.0;

/// The seam's figures over a lap (m): height differences, scene less generated.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Seam {
    /// Every difference measured (samples times sides where both grounds are there).
    pub differences_m: Vec<f64>,
    /// Edge points with no scene ground within 2 m above or below just beyond them.
    pub missing: usize,
}

impl Seam {
    /// The `q`-quantile (0..1) of the absolute differences; NaN when there are none.
    pub fn quantile_abs_m(&self, q: f64) -> f64 {
        let mut a: Vec<f64> = self.differences_m.iter().map(|d| d.abs()).collect();
        if a.is_empty() {
            return f64::NAN;
        }
        a.sort_by(f64::total_cmp);
        #[allow(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            clippy::cast_precision_loss
        )]
        let k = ((q.clamp(0.0, 1.0) * (a.len() - 1) as f64).round()) as usize;
        a[k]
    }
}

/// Measures the seam of `mesh` (see the module docs); empty without an outer ground or
/// without per-sample edges.
pub fn measure_seam(mesh: &TrackMesh) -> Seam {
    let mut seam = Seam::default();
    let Some(outer) = &mesh.outer_ground else {
        return seam;
    };
    let down = |g: &dyn Ground, p: DVec3| {
        g.ray_cast(p + DVec3::Z * 2.0, DVec3::NEG_Z, 4.0)
            .map(|h| h.point.z)
    };
    // Each side's barrier feet with how far beyond them the scene's box ends.
    let feet = |side: Side| -> Vec<(DVec3, f64)> {
        mesh.barriers
            .iter()
            .filter(|b| b.side == side)
            .flat_map(|b| {
                let beyond = b.spec.thickness_m.max(0.0);
                b.points.iter().map(move |&p| (p, beyond))
            })
            .collect()
    };
    let feet = [feet(Side::Left), feet(Side::Right)];
    for edges in &mesh.edges {
        for (side, sign) in [(0, 1.0), (1, -1.0)] {
            let out = edges.horizontal_left * sign;
            let p = edges.outer[side];
            let skip = feet[side]
                .iter()
                .map(|&(f, beyond)| ((f - p).truncate().length(), f, beyond))
                .filter(|(d, _, _)| *d < BARRIER_NEAR_M)
                .min_by(|a, b| a.0.total_cmp(&b.0))
                .map_or(0.0, |(_, f, beyond)| {
                    (f - p).truncate().dot(out.truncate()).max(0.0) + beyond
                });
            let (Some(inside), beyond) = (
                down(&mesh.ground, p - out * SEAM_STEP_M),
                down(outer, p + out * (skip + SEAM_STEP_M)),
            ) else {
                continue;
            };
            match beyond {
                Some(z) => seam.differences_m.push(z - inside),
                None => seam.missing += 1,
            }
        }
    }
    seam
}

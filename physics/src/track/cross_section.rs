//! Cross-sections that vary along the road: per control point, the road's own surface and the
//! bands beside it on each side (kerbs, run-off, grass...), each with its own width, surface and
//! rise. An imported track (TORCS) describes its sides this way; Gripline's own tracks use the
//! uniform [`KerbSpec`](super::KerbSpec) and [`VergeBand`](super::VergeBand)s instead.

use serde::{Deserialize, Serialize};

use crate::ground::Surface;
use crate::validate::Validator;

use super::barrier_spec::BarrierSpec;

/// The road's surface and the bands beside it at one control point. Between two control points
/// the bands' widths and rises blend like the road's width; the quads between a control point
/// and the next take that control point's surfaces.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CrossSection {
    /// Surface of the road itself.
    #[serde(default)]
    pub road_surface: Surface,
    /// Bands beside the left edge, from the road outwards.
    #[serde(default)]
    pub left: Vec<SideBand>,
    /// Bands beside the right edge, from the road outwards.
    #[serde(default)]
    pub right: Vec<SideBand>,
    /// Barriers on the left, at most one per placement (see [`BarrierSpec`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left_barriers: Vec<BarrierSpec>,
    /// Barriers on the right, at most one per placement.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub right_barriers: Vec<BarrierSpec>,
}

/// One band beside the road: it runs horizontally away from the previous edge.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideBand {
    /// What the band is made of.
    pub surface: Surface,
    /// Its horizontal width (m); zero where the band is absent at this point.
    pub width_m: f64,
    /// Height of its outer edge above its inner edge (m): negative falls away.
    #[serde(default)]
    pub rise_m: f64,
}

/// Largest band width (m).
pub const MAX_BAND_WIDTH_M: f64 = 1_000.0;

/// Checks `sections` against a centre line of `points` control points: one section per point,
/// the same number of bands on each side at every point, finite widths and rises.
pub(crate) fn validate_cross_sections(sections: &[CrossSection], points: usize, v: &mut Validator) {
    if sections.is_empty() {
        return;
    }
    if sections.len() != points {
        v.fail(
            "cross_sections",
            format!(
                "must have one entry per centre-line point ({points}), has {}",
                sections.len()
            ),
        );
        return;
    }
    let (left, right) = (sections[0].left.len(), sections[0].right.len());
    v.within("cross_sections", |v| {
        for (i, section) in sections.iter().enumerate() {
            v.within(&Validator::index(i), |v| {
                if section.left.len() != left || section.right.len() != right {
                    v.fail(
                        "",
                        format!(
                            "must have {left} left and {right} right bands like the first (has {} and {})",
                            section.left.len(),
                            section.right.len()
                        ),
                    );
                }
                for (side, bands) in [("left", &section.left), ("right", &section.right)] {
                    v.within(side, |v| {
                        for (k, band) in bands.iter().enumerate() {
                            v.within(&Validator::index(k), |v| {
                                v.in_range("width_m", band.width_m, 0.0, MAX_BAND_WIDTH_M);
                                v.in_range("rise_m", band.rise_m, -MAX_BAND_WIDTH_M, MAX_BAND_WIDTH_M);
                            });
                        }
                    });
                }
                for (side, barriers) in [
                    ("left_barriers", &section.left_barriers),
                    ("right_barriers", &section.right_barriers),
                ] {
                    v.within(side, |v| {
                        for (k, barrier) in barriers.iter().enumerate() {
                            v.within(&Validator::index(k), |v| barrier.validate(v));
                            if barriers[..k].iter().any(|b| b.placement == barrier.placement) {
                                v.fail(
                                    &Validator::index(k),
                                    "repeats the placement of an earlier barrier",
                                );
                            }
                        }
                    });
                }
            });
        }
    });
}

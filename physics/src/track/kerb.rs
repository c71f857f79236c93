//! The kerb's cross-profile: kerb stones in corners are raised geometry, a trapezoid across the
//! kerb strip, so a wheel running onto them feels them through its load and the steering.
//!
//! Across the strip, from the road's edge outwards: a ramp rising by [`KerbSpec::height_m`]
//! over [`KERB_RAMP_M`], a flat top, and a ramp back down to the level of the road's plane over
//! the last [`KERB_RAMP_M`], where the verge begins as before. A strip narrower than two ramps
//! peaks in its middle. Along the road a kerb starts and ends with the corner flags of the
//! centre-line samples: the rows of the strip's vertices are raised only at corner samples, so a
//! kerb ramps up over one sample spacing (2 m on the shipped circuit) where it begins and down
//! where it ends. On the inside of a corner too tight for the bands, where the strip is narrowed,
//! the height shrinks with the width, keeping the ramps' slope.
//!
//! Figures. The shipped circuit's kerbs are 50 mm high: the order of the height steps the
//! FIA's 2016 trial kerbs used (outer edges 25 and 50 mm below the track, as reported by
//! f1i.com and crash.net; no public FIA drawing was found to cite). The ramp — 50 mm over
//! 250 mm, 11.3 degrees — takes the slope of the CIK kart-circuit internal kerb as described
//! on a karting forum (rising 60 mm over 300 mm, a 300 mm flat top, falling 60 mm over
//! 300 mm): an estimate, not a standard. The stripes' ripple (ridges about every 0.3 m) is not
//! modelled in the geometry; the force-feedback kerb rumble still gives it.

use super::layout::KerbSpec;

/// Width of each of the kerb's two ramps, rising at its inner edge and falling at its outer
/// edge (m); see the module docs.
pub const KERB_RAMP_M: f64 = 0.25;

/// Highest kerb a layout may ask for (m).
pub const MAX_KERB_HEIGHT_M: f64 = 0.2;

/// The kerb strip's profile, `scale` times `spec`'s width: `(distance from the road's edge,
/// height above the road's plane)` (m) of the three vertex columns after the road's edge —
/// top of the inner ramp, start of the outer ramp, outer edge — when the kerb is raised.
#[must_use]
pub fn kerb_profile(spec: &KerbSpec, scale: f64, raised: bool) -> [(f64, f64); 3] {
    let width = spec.width_m * scale;
    let ramp = (KERB_RAMP_M * scale).min(0.5 * width);
    let height = if raised {
        spec.height_m * scale * (ramp / (KERB_RAMP_M * scale)).min(1.0)
    } else {
        0.0
    };
    [(ramp, height), (width - ramp, height), (width, 0.0)]
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // exact figures of exact arithmetic
mod tests {
    use super::*;
    use crate::ground::Surface;

    fn spec(width_m: f64) -> KerbSpec {
        KerbSpec {
            width_m,
            height_m: 0.05,
            straight_surface: Surface::Grass,
        }
    }

    #[test]
    fn trapezoid_across_the_strip() {
        let p = kerb_profile(&spec(1.2), 1.0, true);
        assert_eq!(p, [(0.25, 0.05), (0.95, 0.05), (1.2, 0.0)]);
        // Slope 50 mm over 250 mm: 11.3 degrees.
        assert!(((p[0].1 / p[0].0).atan().to_degrees() - 11.31).abs() < 0.01);
        // Flat where it is not raised; a narrowed kerb keeps its slope.
        assert_eq!(kerb_profile(&spec(1.2), 1.0, false)[0], (0.25, 0.0));
        let half = kerb_profile(&spec(1.2), 0.5, true);
        assert!((half[0].1 / half[0].0 - 0.2).abs() < 1e-12);
        // Narrower than two ramps: a ridge in the middle, the same slope.
        let narrow = kerb_profile(&spec(0.3), 1.0, true);
        assert!((narrow[0].0 - 0.15).abs() < 1e-12 && (narrow[0].1 - 0.03).abs() < 1e-12);
        assert!((narrow[0].0 - narrow[1].0).abs() < 1e-15, "no flat top");
    }
}

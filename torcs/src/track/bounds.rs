//! The lower corner of a TORCS track's bounding box, grown exactly as TORCS's `track4.cpp`
//! grows it while it builds the track: TORCS moves the track (and so its scene file, made by
//! its track generator from the moved track) by that corner, so the scene is put back in
//! place by adding it.
//!
//! TORCS's box is not the box of the ground: it starts at the origin (`xmin = ... = zmin =
//! 0`), takes heights only at each segment's start edges and at the outer end of each side
//! and border, and takes plan positions at the end of each straight piece and at 36 points
//! along each arc of the road, its borders and its sides. An inside side wider than its
//! turn's radius gets a negative radius there and throws points across the turn's centre
//! (dirt-4's box reaches 700 m beyond its ground); the scene was made with that box, so it is
//! reproduced as it is.

use std::f64::consts::FRAC_PI_2;

/// Points TORCS samples along every arc (`track4.cpp`: "global min/max, approximation").
const ARC_POINTS: u32 = 36;

/// One profile step of the main track, in the importer's frame (TORCS's frame: the right edge
/// of the road starts at the origin, heading along +x).
pub(super) struct Step {
    /// Centre of the road at the step's start (m).
    pub centre: [f64; 2],
    /// Heading at the step's start (rad).
    pub heading_rad: f64,
    /// 0 for a straight, 1 for a left turn, -1 for a right turn.
    pub turn: f64,
    /// Radius of the road's centre along this step (m); unused on a straight.
    pub radius_m: f64,
    /// Angle the step turns through (rad); unused on a straight.
    pub arc_rad: f64,
    /// Length of the step along the centre (m).
    pub length_m: f64,
    /// Road width (m).
    pub width_m: f64,
    /// Heights of the right and left road edges at the step's end (m).
    pub end_z_m: [f64; 2],
}

/// One side (right 0, left 1) of a step: its border, and its side's widths over the step.
pub(super) struct StepSide {
    /// Border width (m), 0 for none.
    pub border_m: f64,
    /// Side width at the step's start and end (m).
    pub side_m: [f64; 2],
    /// Whether the side is banked with the road (TORCS's `tangent`) rather than level.
    pub tangent: bool,
}

/// The growing lower corner.
pub(super) struct TorcsBounds {
    lower: [f64; 3],
}

impl TorcsBounds {
    /// A box holding only the origin, as TORCS starts it.
    pub fn new() -> Self {
        Self { lower: [0.0; 3] }
    }

    /// The lower corner (m).
    pub fn lower(&self) -> [f64; 3] {
        self.lower
    }

    /// Takes a height (TORCS's `TSTZ`: the road's edges at a segment's start).
    pub fn add_z(&mut self, z: f64) {
        if z.is_finite() {
            self.lower[2] = self.lower[2].min(z);
        }
    }

    fn add_xy(&mut self, x: f64, y: f64) {
        if x.is_finite() && y.is_finite() {
            self.lower[0] = self.lower[0].min(x);
            self.lower[1] = self.lower[1].min(y);
        }
    }

    /// Takes one profile step of the road and its two sides.
    pub fn add_step(&mut self, step: &Step, sides: &[StepSide; 2]) {
        let (sin, cos) = step.heading_rad.sin_cos();
        let left = [-sin, cos];
        let half = 0.5 * step.width_m;
        let bank_tan = (step.end_z_m[1] - step.end_z_m[0]) / step.width_m;
        if step.turn == 0.0 {
            let end = [
                step.centre[0] + step.length_m * cos,
                step.centre[1] + step.length_m * sin,
            ];
            for (side, spec) in sides.iter().enumerate() {
                let out = if side == 1 { 1.0 } else { -1.0 };
                let mut edge = [end[0] + out * half * left[0], end[1] + out * half * left[1]];
                self.add_xy(edge[0], edge[1]);
                let mut z = step.end_z_m[side];
                for w in Self::bands(spec) {
                    edge = [edge[0] + out * w * left[0], edge[1] + out * w * left[1]];
                    z += Self::rise(spec, out, w, bank_tan);
                    self.add_xy(edge[0], edge[1]);
                    self.add_z(z);
                }
            }
            return;
        }
        let sign = step.turn;
        let centre = [
            step.centre[0] + sign * step.radius_m * left[0],
            step.centre[1] + sign * step.radius_m * left[1],
        ];
        let start_angle = step.heading_rad - sign * FRAC_PI_2;
        let arc_points = |bounds: &mut Self, radius: f64| {
            for j in 1..=ARC_POINTS {
                let a = start_angle + sign * step.arc_rad * f64::from(j) / f64::from(ARC_POINTS);
                bounds.add_xy(centre[0] + radius * a.cos(), centre[1] + radius * a.sin());
            }
        };
        // Radii of the road's right and left edges.
        let edge_radius = [step.radius_m + sign * half, step.radius_m - sign * half];
        for r in edge_radius {
            arc_points(self, r);
        }
        for (side, spec) in sides.iter().enumerate() {
            let out = if side == 1 { 1.0 } else { -1.0 };
            // Outwards on the left of a left turn is towards the centre.
            let grow = if side == 1 { -sign } else { sign };
            let mut radius = edge_radius[side];
            let mut z = step.end_z_m[side];
            let widest = [spec.border_m, spec.side_m[0].max(spec.side_m[1])];
            for (band, w) in Self::bands(spec).into_iter().enumerate() {
                let extent = if band == 0 && spec.border_m != 0.0 {
                    widest[0]
                } else {
                    widest[1]
                };
                radius += grow * extent;
                arc_points(self, radius);
                z += Self::rise(spec, out, w, bank_tan);
                self.add_z(z);
            }
        }
    }

    /// Widths at the step's end of the bands TORCS builds beside the road: the border (when
    /// it has a width), then the side (when it has one at either end).
    fn bands(spec: &StepSide) -> Vec<f64> {
        let mut bands = Vec::with_capacity(2);
        if spec.border_m != 0.0 {
            bands.push(spec.border_m);
        }
        if spec.side_m[0] != 0.0 || spec.side_m[1] != 0.0 {
            bands.push(spec.side_m[1]);
        }
        bands
    }

    /// Height gained across a band of width `w` on side `out` (+1 left): a tangent band
    /// continues the road's cross slope, a level one stays at the edge's height.
    fn rise(spec: &StepSide, out: f64, w: f64, bank_tan: f64) -> f64 {
        if spec.tangent {
            out * w * bank_tan
        } else {
            0.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain() -> [StepSide; 2] {
        [0, 1].map(|_| StepSide {
            border_m: 0.0,
            side_m: [0.0, 0.0],
            tangent: false,
        })
    }

    #[test]
    fn the_box_starts_at_the_origin_and_a_track_above_it_keeps_z_zero() {
        let mut b = TorcsBounds::new();
        b.add_z(10.0);
        b.add_step(
            &Step {
                centre: [0.0, 5.0],
                heading_rad: 0.0,
                turn: 0.0,
                radius_m: 0.0,
                arc_rad: 0.0,
                length_m: 100.0,
                width_m: 10.0,
                end_z_m: [9.0, 9.0],
            },
            &plain(),
        );
        assert!(b.lower().iter().all(|c| c.abs() < 1e-12), "{:?}", b.lower());
    }

    #[test]
    fn sides_and_borders_grow_the_box_at_their_outer_ends() {
        let mut b = TorcsBounds::new();
        let mut sides = plain();
        sides[0] = StepSide {
            border_m: 1.0,
            side_m: [4.0, 6.0],
            tangent: true,
        };
        // Banked 0.1 up to the left: the right side's tangent band drops 0.1 per metre.
        b.add_step(
            &Step {
                centre: [0.0, 5.0],
                heading_rad: 0.0,
                turn: 0.0,
                radius_m: 0.0,
                arc_rad: 0.0,
                length_m: 50.0,
                width_m: 10.0,
                end_z_m: [-0.5, 0.5],
            },
            &sides,
        );
        let [x, y, z] = b.lower();
        assert!(x.abs() < 1e-12);
        assert!((y - -7.0).abs() < 1e-12, "{y}");
        assert!((z - (-0.5 - 0.7)).abs() < 1e-12, "{z}");
    }

    /// A left turn of radius 10 m with an 8 m left side (its inner side) on a 10 m road:
    /// the side's outer radius is 10 - 5 - 8 = -3 m, so TORCS's points land 3 m beyond the
    /// centre, on the far side of the turn.
    #[test]
    fn an_inside_side_wider_than_the_radius_throws_points_across_the_centre() {
        let mut b = TorcsBounds::new();
        let mut sides = plain();
        sides[1].side_m = [8.0, 8.0];
        // Start heading -x at (0, 5): the centre of the turn is 10 m to the left, at
        // (0, -5); the turn's start angle points from the centre back to the start (+y).
        b.add_step(
            &Step {
                centre: [0.0, 5.0],
                heading_rad: std::f64::consts::PI,
                turn: 1.0,
                radius_m: 10.0,
                arc_rad: std::f64::consts::FRAC_PI_2,
                length_m: 10.0 * std::f64::consts::FRAC_PI_2,
                width_m: 10.0,
                end_z_m: [0.0, 0.0],
            },
            &sides,
        );
        // The road's outer (right) edge reaches x = -15 after a quarter turn; the side's
        // points at radius -3 reach y = -5 - 3 cos(pi / 72), at the first of the 36 points.
        let [x, y, _] = b.lower();
        assert!((x - -15.0).abs() < 1e-9, "{x}");
        let first = (std::f64::consts::PI / 72.0).cos();
        assert!((y - (-5.0 - 3.0 * first)).abs() < 1e-9, "{y}");
    }
}

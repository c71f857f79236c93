//! The track as a file describes it: a centre line, bands beside the road, pads, objects and
//! named references. Every field carries its unit in its name; angles are in degrees here and
//! only here.

use serde::{Deserialize, Serialize};

use crate::ground::Surface;
use crate::validate::{Validate, Validator};

use super::barrier_spec::BarrierSpec;
use super::boundary_spec::BoundarySpec;
use super::cross_section::{CrossSection, validate_cross_sections};
use super::reference::LaneChange;
use super::side::Side;

/// The description of a track, from which [`TrackLayout::build_mesh`](super::TrackLayout::build_mesh)
/// makes the ground mesh, the sampled centre line, the objects and the references.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrackLayout {
    /// Whether the centre line is a closed loop (the last control point joins the first).
    #[serde(default)]
    pub closed: bool,
    /// Control points of the road's centre line, in driving order. Empty: no road (a layout
    /// made only of pads).
    #[serde(default)]
    pub centre_line: Vec<ControlPoint>,
    /// Target distance between cross-sections of the generated road (m); 2 m when omitted.
    #[serde(default = "default_sample_spacing_m")]
    pub sample_spacing_m: f64,
    /// Surface of the road itself; asphalt when omitted.
    #[serde(default)]
    pub road_surface: Surface,
    /// Horizontal radius below which the road counts as a corner (m): kerbs are laid there and
    /// verge bands switch to their `corner_surface`. Zero or omitted: no corners.
    #[serde(default)]
    pub corner_radius_m: f64,
    /// The strip right beside the road on each side, kerb stones in corners.
    #[serde(default)]
    pub kerb: Option<KerbSpec>,
    /// Bands beyond the kerb strip on each side, from the road outwards.
    #[serde(default)]
    pub verge: Vec<VergeBand>,
    /// Cross-sections that vary along the road, one per centre-line point (an imported track's
    /// sides and surfaces). Empty: the road is `road_surface` throughout, with `kerb` and
    /// `verge` beside it; when given, `kerb`, `verge` and `corner_radius_m` must be left out.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cross_sections: Vec<CrossSection>,
    /// A barrier on both sides of the road all along it, beyond the last verge band (or at
    /// the road's edge, as its `placement` says): collision geometry for the car body. None
    /// when omitted. With `cross_sections`, barriers are given per section instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub barriers: Option<BarrierSpec>,
    /// Terrain round everything built, out to a wall that no car can pass
    /// ([`super::boundary`]). None when omitted: the world ends where its ground does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boundary: Option<BoundarySpec>,
    /// Flat or inclined areas: skidpads, tiles of test surfaces, grades, the ground around.
    #[serde(default)]
    pub pads: Vec<Pad>,
    /// Cones and markers, placed on the ground when the mesh is built.
    #[serde(default)]
    pub objects: Vec<ObjectSpec>,
    /// Named lines, points, circles and lane-change courses for scenarios and the driver model.
    #[serde(default)]
    pub references: Vec<Reference>,
}

/// Largest distance of any point from the origin (m): keeps f64 precision millimetric.
pub const MAX_COORDINATE_M: f64 = 100_000.0;
/// Largest elevation magnitude (m).
pub const MAX_ELEVATION_M: f64 = 10_000.0;
/// Longest centre line, as the sum of straight distances between control points (m).
pub const MAX_ROAD_LENGTH_M: f64 = 100_000.0;
/// Longest side of a rectangular pad (m).
pub const MAX_PAD_SIDE_M: f64 = 20_000.0;

fn default_sample_spacing_m() -> f64 {
    2.0
}

impl Default for TrackLayout {
    fn default() -> Self {
        Self {
            closed: false,
            centre_line: Vec::new(),
            sample_spacing_m: default_sample_spacing_m(),
            road_surface: Surface::Asphalt,
            corner_radius_m: 0.0,
            kerb: None,
            verge: Vec::new(),
            cross_sections: Vec::new(),
            barriers: None,
            boundary: None,
            pads: Vec::new(),
            objects: Vec::new(),
            references: Vec::new(),
        }
    }
}

/// One control point of the centre line. The line passes through every control point; width
/// and banking blend smoothly from one point to the next.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ControlPoint {
    /// East (m).
    pub x_m: f64,
    /// North (m).
    pub y_m: f64,
    /// Elevation of the road's centre (m).
    pub z_m: f64,
    /// Banking: rotation of the road's cross-section about the direction of travel (degrees).
    /// Positive raises the left edge (as a right-hand corner is banked), negative the right.
    #[serde(default)]
    pub banking_deg: f64,
    /// Width of the road, edge to edge across its surface (m).
    pub width_m: f64,
}

/// The strip between the road's edge and the verge.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KerbSpec {
    /// Width of the strip, in the plane of the road (m).
    pub width_m: f64,
    /// Height of the kerb stones above the road's plane in corners (m): a trapezoid across
    /// the strip ([`super::kerb`]). Zero (the default) lays them flat in the road's plane.
    #[serde(default)]
    pub height_m: f64,
    /// Surface of the strip where the road is not a corner (kerb stones lie only in corners);
    /// asphalt when omitted.
    #[serde(default)]
    pub straight_surface: Surface,
}

/// A band of ground beside the road (grass, gravel...), the same on both sides.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VergeBand {
    /// What the band is made of.
    pub surface: Surface,
    /// Its horizontal width (m).
    pub width_m: f64,
    /// Its slope away from the road, percent rise per horizontal run (negative falls away).
    #[serde(default)]
    pub slope_pct: f64,
    /// Surface used instead in corners (a gravel trap where there is grass along straights).
    #[serde(default)]
    pub corner_surface: Option<Surface>,
}

impl VergeBand {
    /// The band's surface, in a corner or not.
    pub fn surface_at(&self, corner: bool) -> Surface {
        if corner {
            self.corner_surface.unwrap_or(self.surface)
        } else {
            self.surface
        }
    }
}

/// An area of one surface.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pad {
    /// Label for menus and tests (may be empty).
    #[serde(default)]
    pub name: String,
    /// What the pad is made of.
    pub surface: Surface,
    /// Its outline and height.
    pub shape: PadShape,
}

/// Outline and height of a [`Pad`]. Where pads overlap, the higher one is the ground.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum PadShape {
    /// A rectangle, optionally inclined along its length (a grade).
    Rectangle {
        /// East of its centre (m).
        centre_x_m: f64,
        /// North of its centre (m).
        centre_y_m: f64,
        /// Height at its centre (m).
        z_m: f64,
        /// Horizontal length along the heading (m).
        length_m: f64,
        /// Width across the heading (m).
        width_m: f64,
        /// Direction of its length, counter-clockwise from east (degrees).
        #[serde(default)]
        heading_deg: f64,
        /// Grade along the heading, percent rise per horizontal run (uphill when positive).
        #[serde(default)]
        rise_pct: f64,
    },
    /// A flat convex polygon, its points in either winding.
    Polygon {
        /// Corners as `(x_m, y_m)` pairs (m).
        points_m: Vec<(f64, f64)>,
        /// Its height (m).
        z_m: f64,
    },
}

/// Kinds of object on a track.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ObjectKind {
    /// A traffic cone.
    #[default]
    Cone,
    /// A marker board or post (braking boards, gate posts).
    Marker,
}

/// One object, or a set of them laid out by a rule.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ObjectSpec {
    /// One object.
    Single {
        /// What it is.
        kind: ObjectKind,
        /// Group name for scenarios and the renderer (may be empty).
        #[serde(default)]
        group: String,
        /// East (m).
        x_m: f64,
        /// North (m).
        y_m: f64,
    },
    /// `count` objects evenly spaced on a circle, the first due east of the centre.
    Ring {
        /// What they are.
        kind: ObjectKind,
        /// Group name.
        #[serde(default)]
        group: String,
        /// East of the centre (m).
        centre_x_m: f64,
        /// North of the centre (m).
        centre_y_m: f64,
        /// Radius (m).
        radius_m: f64,
        /// How many.
        count: u32,
    },
    /// `count` objects evenly spaced from one point to another, both ends included.
    Row {
        /// What they are.
        kind: ObjectKind,
        /// Group name.
        #[serde(default)]
        group: String,
        /// East of the first (m).
        from_x_m: f64,
        /// North of the first (m).
        from_y_m: f64,
        /// East of the last (m).
        to_x_m: f64,
        /// North of the last (m).
        to_y_m: f64,
        /// How many (at least 2).
        count: u32,
    },
    /// Braking boards before every corner (placed by the renderer): a corner starts
    /// where the centre line's horizontal radius drops below `corner_radius_m` after a
    /// straight; one board stands at each of `distances_m` of path distance before that point
    /// that still lies on the straight, on the outside of the approach, `side_offset_m`
    /// beyond the road's edge.
    BrakingBoards {
        /// Path distances before the corner (m); 100, 200 and 300 m when omitted.
        #[serde(default = "default_board_distances_m")]
        distances_m: Vec<f64>,
        /// Horizontal distance of the boards beyond the road's edge (m).
        side_offset_m: f64,
    },
    /// Trees scattered in a band on both sides of the road, beyond the outer edge of the last
    /// band beside it (the run-off) and its barriers; a tree is left out where it, or its
    /// crown, would stand over any ground of the track (a road, a run-off, a pad). For
    /// drawing only: the car does not collide with them (they stand beyond the barriers).
    Trees {
        /// Spacing of the trees along the road and across the band (m).
        spacing_m: f64,
        /// Start of the band, beyond the outer edge of the run-off (m).
        band_from_m: f64,
        /// End of the band, beyond the outer edge of the run-off (m).
        band_to_m: f64,
        /// Seed of their pseudo-random positions, sizes and colours.
        #[serde(default)]
        seed: u64,
    },
    /// A building beside the road (a pit building, a grandstand), its long side along the
    /// road. For drawing only: the car does not collide with it (place it beyond the
    /// barriers).
    Building {
        /// What it looks like.
        style: BuildingStyle,
        /// Station of its middle along the centre line (m).
        station_m: f64,
        /// Which side of the road.
        side: Side,
        /// Horizontal distance of its near face beyond the outer edge of the run-off (m).
        offset_m: f64,
        /// Length along the road (m).
        length_m: f64,
        /// Depth away from the road (m).
        depth_m: f64,
        /// Height (m).
        height_m: f64,
    },
    /// The cones of a [`Reference::LaneChange`] course, for one vehicle width.
    LaneChangeCones {
        /// Name of the lane-change reference.
        lane_change: String,
        /// Vehicle width the lanes are sized for (m).
        vehicle_width_m: f64,
        /// Group name.
        #[serde(default)]
        group: String,
    },
}

/// What a [`ObjectSpec::Building`] looks like.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BuildingStyle {
    /// A closed block with windows and garage doors facing the road.
    #[default]
    PitBuilding,
    /// Stepped rows of seats rising away from the road under a roof.
    Grandstand,
}

fn default_board_distances_m() -> Vec<f64> {
    vec![100.0, 200.0, 300.0]
}

/// A named place that scenarios, lap timing and the driver model refer to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Reference {
    /// A point on the ground.
    Point {
        /// Its name.
        name: String,
        /// East (m).
        x_m: f64,
        /// North (m).
        y_m: f64,
    },
    /// A line on the ground between two points (a gate, a start line).
    Line {
        /// Its name.
        name: String,
        /// East of one end (m).
        from_x_m: f64,
        /// North of one end (m).
        from_y_m: f64,
        /// East of the other end (m).
        to_x_m: f64,
        /// North of the other end (m).
        to_y_m: f64,
    },
    /// A line across the road at a distance along the centre line (start/finish, sectors).
    Station {
        /// Its name.
        name: String,
        /// Distance along the centre line from its first point (m).
        distance_m: f64,
    },
    /// A circle on the ground (a skidpad's reference circle).
    Circle {
        /// Its name.
        name: String,
        /// East of the centre (m).
        centre_x_m: f64,
        /// North of the centre (m).
        centre_y_m: f64,
        /// Radius (m).
        radius_m: f64,
    },
    /// A lane-change course defined independently of vehicle width (ISO 3888-1 and the like).
    LaneChange(LaneChange),
}

impl Reference {
    /// The reference's name.
    pub fn name(&self) -> &str {
        match self {
            Reference::Point { name, .. }
            | Reference::Line { name, .. }
            | Reference::Station { name, .. }
            | Reference::Circle { name, .. } => name,
            Reference::LaneChange(lc) => &lc.name,
        }
    }
}

impl Validate for TrackLayout {
    fn validate(&self, v: &mut Validator) {
        let min_points = if self.closed { 3 } else { 2 };
        if !self.centre_line.is_empty() && self.centre_line.len() < min_points {
            v.fail(
                "centre_line",
                format!(
                    "needs at least {min_points} points for {} line",
                    if self.closed { "a closed" } else { "an open" }
                ),
            );
        }
        if self.centre_line.is_empty() && self.pads.is_empty() {
            v.fail("centre_line", "must have points when there are no pads");
        }
        v.within("centre_line", |v| {
            for (i, p) in self.centre_line.iter().enumerate() {
                v.within(&Validator::index(i), |v| {
                    v.in_range("x_m", p.x_m, -MAX_COORDINATE_M, MAX_COORDINATE_M);
                    v.in_range("y_m", p.y_m, -MAX_COORDINATE_M, MAX_COORDINATE_M);
                    v.in_range("z_m", p.z_m, -MAX_ELEVATION_M, MAX_ELEVATION_M);
                    v.in_range("banking_deg", p.banking_deg, -45.0, 45.0);
                    v.positive("width_m", p.width_m);
                    let previous = if i > 0 {
                        Some(&self.centre_line[i - 1])
                    } else if self.closed && self.centre_line.len() > 1 {
                        self.centre_line.last()
                    } else {
                        None
                    };
                    if let Some(q) = previous {
                        let gap = (p.x_m - q.x_m).hypot(p.y_m - q.y_m);
                        if gap.is_finite() && gap < 0.1 {
                            v.fail(
                                "",
                                "must lie at least 0.1 m (horizontally) from the previous point",
                            );
                        }
                    }
                });
            }
        });
        let chord: f64 = self
            .centre_line
            .windows(2)
            .map(|w| (w[1].x_m - w[0].x_m).hypot(w[1].y_m - w[0].y_m))
            .sum();
        if chord > MAX_ROAD_LENGTH_M {
            v.fail(
                "centre_line",
                format!("must be shorter than {MAX_ROAD_LENGTH_M} m (is {chord:.0} m)"),
            );
        }
        v.in_range("sample_spacing_m", self.sample_spacing_m, 0.25, 25.0);
        validate_cross_sections(&self.cross_sections, self.centre_line.len(), v);
        if !self.cross_sections.is_empty()
            && (self.kerb.is_some() || !self.verge.is_empty() || self.corner_radius_m > 0.0)
        {
            v.fail(
                "cross_sections",
                "cannot be combined with kerb, verge or corner_radius_m",
            );
        }
        if let Some(barriers) = &self.barriers {
            v.within("barriers", |v| barriers.validate(v));
            if !self.cross_sections.is_empty() {
                v.fail(
                    "barriers",
                    "cannot be combined with cross_sections (give them per section)",
                );
            }
            if self.centre_line.is_empty() {
                v.fail("barriers", "need a centre line to stand along");
            }
        }
        if let Some(boundary) = &self.boundary {
            v.within("boundary", |v| boundary.validate(v));
        }
        v.non_negative("corner_radius_m", self.corner_radius_m);
        if let Some(kerb) = &self.kerb {
            v.within("kerb", |v| {
                v.positive("width_m", kerb.width_m);
                v.in_range(
                    "height_m",
                    kerb.height_m,
                    0.0,
                    super::kerb::MAX_KERB_HEIGHT_M,
                );
            });
        }
        v.within("verge", |v| {
            for (i, band) in self.verge.iter().enumerate() {
                v.within(&Validator::index(i), |v| {
                    v.positive("width_m", band.width_m);
                    v.in_range("slope_pct", band.slope_pct, -100.0, 100.0);
                });
            }
        });
        v.within("pads", |v| {
            for (i, pad) in self.pads.iter().enumerate() {
                v.within(&Validator::index(i), |v| {
                    v.within("shape", |v| validate_pad_shape(&pad.shape, v));
                });
            }
        });
        v.within("objects", |v| {
            for (i, object) in self.objects.iter().enumerate() {
                v.within(&Validator::index(i), |v| {
                    self.validate_object(object, v);
                });
            }
        });
        v.within("references", |v| {
            for (i, reference) in self.references.iter().enumerate() {
                v.within(&Validator::index(i), |v| {
                    self.validate_reference(i, reference, v);
                });
            }
        });
    }
}

impl TrackLayout {
    fn validate_object(&self, object: &ObjectSpec, v: &mut Validator) {
        match object {
            ObjectSpec::Single { x_m, y_m, .. } => v.within("Single", |v| {
                v.finite("x_m", *x_m);
                v.finite("y_m", *y_m);
            }),
            ObjectSpec::Ring {
                centre_x_m,
                centre_y_m,
                radius_m,
                count,
                ..
            } => v.within("Ring", |v| {
                v.finite("centre_x_m", *centre_x_m);
                v.finite("centre_y_m", *centre_y_m);
                v.positive("radius_m", *radius_m);
                v.require(
                    (1..=10_000).contains(count),
                    "count",
                    "must be between 1 and 10000",
                );
            }),
            ObjectSpec::Row {
                from_x_m,
                from_y_m,
                to_x_m,
                to_y_m,
                count,
                ..
            } => v.within("Row", |v| {
                v.finite("from_x_m", *from_x_m);
                v.finite("from_y_m", *from_y_m);
                v.finite("to_x_m", *to_x_m);
                v.finite("to_y_m", *to_y_m);
                v.require(
                    (2..=10_000).contains(count),
                    "count",
                    "must be between 2 and 10000",
                );
            }),
            ObjectSpec::BrakingBoards {
                distances_m,
                side_offset_m,
            } => v.within("BrakingBoards", |v| {
                v.require(
                    distances_m.len() <= 16,
                    "distances_m",
                    "must hold at most 16 distances",
                );
                for d in distances_m {
                    v.in_range("distances_m", *d, 1.0, 10_000.0);
                }
                v.in_range("side_offset_m", *side_offset_m, 0.0, 1_000.0);
                v.require(
                    !self.centre_line.is_empty(),
                    "side_offset_m",
                    "needs a centre line to stand along",
                );
            }),
            ObjectSpec::Trees {
                spacing_m,
                band_from_m,
                band_to_m,
                ..
            } => v.within("Trees", |v| {
                v.in_range("spacing_m", *spacing_m, 2.0, 1_000.0);
                v.in_range("band_from_m", *band_from_m, 0.0, 10_000.0);
                v.in_range("band_to_m", *band_to_m, 0.0, 10_000.0);
                v.require(
                    band_to_m >= band_from_m,
                    "band_to_m",
                    "must not be less than band_from_m",
                );
            }),
            ObjectSpec::Building {
                station_m,
                offset_m,
                length_m,
                depth_m,
                height_m,
                ..
            } => v.within("Building", |v| {
                v.non_negative("station_m", *station_m);
                v.in_range("offset_m", *offset_m, 0.0, 10_000.0);
                v.in_range("length_m", *length_m, 0.5, 2_000.0);
                v.in_range("depth_m", *depth_m, 0.5, 500.0);
                v.in_range("height_m", *height_m, 0.5, 200.0);
                v.require(
                    !self.centre_line.is_empty(),
                    "station_m",
                    "needs a centre line to stand along",
                );
            }),
            ObjectSpec::LaneChangeCones {
                lane_change,
                vehicle_width_m,
                ..
            } => v.within("LaneChangeCones", |v| {
                v.in_range("vehicle_width_m", *vehicle_width_m, 0.5, 5.0);
                let known = self
                    .references
                    .iter()
                    .any(|r| matches!(r, Reference::LaneChange(lc) if lc.name == *lane_change));
                v.require(
                    known,
                    "lane_change",
                    "must name a LaneChange reference of this layout",
                );
            }),
        }
    }

    fn validate_reference(&self, index: usize, reference: &Reference, v: &mut Validator) {
        let name = reference.name();
        let variant = match reference {
            Reference::Point { .. } => "Point",
            Reference::Line { .. } => "Line",
            Reference::Station { .. } => "Station",
            Reference::Circle { .. } => "Circle",
            Reference::LaneChange(_) => "LaneChange",
        };
        v.within(variant, |v| {
            v.require(!name.trim().is_empty(), "name", "must not be empty");
            if self.references[..index].iter().any(|r| r.name() == name) {
                v.fail("name", format!("'{name}' is used by an earlier reference"));
            }
            match reference {
                Reference::Point { x_m, y_m, .. } => {
                    v.finite("x_m", *x_m);
                    v.finite("y_m", *y_m);
                }
                Reference::Line {
                    from_x_m,
                    from_y_m,
                    to_x_m,
                    to_y_m,
                    ..
                } => {
                    v.finite("from_x_m", *from_x_m);
                    v.finite("from_y_m", *from_y_m);
                    v.finite("to_x_m", *to_x_m);
                    v.finite("to_y_m", *to_y_m);
                }
                Reference::Station { distance_m, .. } => {
                    v.non_negative("distance_m", *distance_m);
                    v.require(
                        !self.centre_line.is_empty(),
                        "distance_m",
                        "needs a centre line to measure along",
                    );
                }
                Reference::Circle {
                    centre_x_m,
                    centre_y_m,
                    radius_m,
                    ..
                } => {
                    v.finite("centre_x_m", *centre_x_m);
                    v.finite("centre_y_m", *centre_y_m);
                    v.positive("radius_m", *radius_m);
                }
                Reference::LaneChange(lc) => lc.validate(v),
            }
        });
    }
}

fn validate_pad_shape(shape: &PadShape, v: &mut Validator) {
    match shape {
        PadShape::Rectangle {
            centre_x_m,
            centre_y_m,
            z_m,
            length_m,
            width_m,
            heading_deg,
            rise_pct,
        } => v.within("Rectangle", |v| {
            v.in_range(
                "centre_x_m",
                *centre_x_m,
                -MAX_COORDINATE_M,
                MAX_COORDINATE_M,
            );
            v.in_range(
                "centre_y_m",
                *centre_y_m,
                -MAX_COORDINATE_M,
                MAX_COORDINATE_M,
            );
            v.in_range("z_m", *z_m, -MAX_ELEVATION_M, MAX_ELEVATION_M);
            v.in_range("length_m", *length_m, 0.01, MAX_PAD_SIDE_M);
            v.in_range("width_m", *width_m, 0.01, MAX_PAD_SIDE_M);
            v.finite("heading_deg", *heading_deg);
            v.in_range("rise_pct", *rise_pct, -100.0, 100.0);
        }),
        PadShape::Polygon { points_m, z_m } => v.within("Polygon", |v| {
            v.finite("z_m", *z_m);
            if points_m.len() < 3 {
                v.fail("points_m", "needs at least 3 points");
                return;
            }
            let inside = |c: f64| c.is_finite() && c.abs() <= MAX_COORDINATE_M;
            if points_m.iter().any(|&(x, y)| !(inside(x) && inside(y))) {
                v.fail(
                    "points_m",
                    format!("must all be finite and within {MAX_COORDINATE_M} m of the origin"),
                );
                return;
            }
            if polygon_turn_sign(points_m).is_none() {
                v.fail(
                    "points_m",
                    "must outline a convex polygon with non-zero area, without repeated points",
                );
            }
        }),
    }
}

/// `Some(1.0)` for a strictly convex counter-clockwise polygon, `Some(-1.0)` for a clockwise
/// one, `None` when it is not convex or has collinear or repeated corners.
pub(crate) fn polygon_turn_sign(points: &[(f64, f64)]) -> Option<f64> {
    let n = points.len();
    let mut positive: Option<bool> = None;
    for i in 0..n {
        let (ax, ay) = points[i];
        let (bx, by) = points[(i + 1) % n];
        let (cx, cy) = points[(i + 2) % n];
        let cross = (bx - ax) * (cy - by) - (by - ay) * (cx - bx);
        if cross.abs() < 1e-9 {
            return None;
        }
        match positive {
            None => positive = Some(cross > 0.0),
            Some(p) if p != (cross > 0.0) => return None,
            Some(_) => {}
        }
    }
    // A star (pentagram) turns one way throughout but winds twice: check the total angle.
    let mut winding = 0.0;
    for i in 0..n {
        let (ax, ay) = points[i];
        let (bx, by) = points[(i + 1) % n];
        let (cx, cy) = points[(i + 2) % n];
        let a1 = (by - ay).atan2(bx - ax);
        let a2 = (cy - by).atan2(cx - bx);
        let mut d = a2 - a1;
        while d > std::f64::consts::PI {
            d -= std::f64::consts::TAU;
        }
        while d < -std::f64::consts::PI {
            d += std::f64::consts::TAU;
        }
        winding += d;
    }
    let sign = if positive == Some(true) { 1.0 } else { -1.0 };
    ((winding.abs() - std::f64::consts::TAU).abs() < 1e-6).then_some(sign)
}

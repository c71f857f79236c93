//! Named references (points, lines, circles, lane-change courses) as scenarios use them.
//!
//! A [`LaneChange`] course is stored independently of the vehicle: section lengths, and for
//! each coned section a width `factor * W + add` and a lateral offset. [`LaneChange::lanes`]
//! and [`LaneChange::cones`] size it for a vehicle of width `W`.
//!
//! ISO 3888-1 (double lane change) in these terms: sections of 15, 30, 25, 25 and 15 m; the
//! coned sections 1, 3 and 5 have widths `1.1 W + 0.25`, `1.2 W + 0.25` and `1.3 W + 0.25` (m);
//! sections 1 and 5 share their right-hand boundary (the baseline, offset 0) and the right-hand
//! boundary of section 3 lies 3.5 m to the left of it. Cones stand on the lane boundaries.

use glam::DVec3;
use serde::{Deserialize, Serialize};

use crate::validate::{Validate, Validator};

/// A coned lane-change course (ISO 3888-1 and the like), independent of vehicle width.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LaneChange {
    /// Its name.
    pub name: String,
    /// East of the course's origin: the start of the baseline, the right-hand boundary of the
    /// first section (m).
    pub start_x_m: f64,
    /// North of the course's origin (m).
    pub start_y_m: f64,
    /// Direction of travel, counter-clockwise from east (degrees).
    pub heading_deg: f64,
    /// The sections in driving order.
    pub sections: Vec<LaneChangeSection>,
    /// Largest distance between neighbouring cones along a lane boundary (m); 5 m when omitted.
    #[serde(default = "default_cone_spacing_m")]
    pub cone_spacing_m: f64,
}

fn default_cone_spacing_m() -> f64 {
    5.0
}

/// One section of a [`LaneChange`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LaneChangeSection {
    /// Length along the course (m).
    pub length_m: f64,
    /// The coned lane of this section; `None` for a free transition section.
    #[serde(default)]
    pub lane: Option<LaneSpec>,
}

/// A coned lane, sized by vehicle width `W`: width `width_factor * W + width_add_m`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LaneSpec {
    /// Multiplier of the vehicle width.
    pub width_factor: f64,
    /// Added width (m).
    pub width_add_m: f64,
    /// Lateral position of the lane's right-hand boundary from the baseline, positive to the
    /// left (m).
    pub offset_m: f64,
}

/// A lane of a [`LaneChange`] sized for one vehicle, in course coordinates: `station` along the
/// course from its origin, `lateral` from the baseline, positive to the left.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lane {
    /// Index of the section in [`LaneChange::sections`].
    pub section: usize,
    /// Station where the lane begins (m).
    pub start_m: f64,
    /// Station where it ends (m).
    pub end_m: f64,
    /// Lateral position of its right-hand boundary (m).
    pub right_m: f64,
    /// Lateral position of its left-hand boundary (m).
    pub left_m: f64,
}

impl Lane {
    /// Lateral position of the lane's centre (m).
    pub fn centre_m(&self) -> f64 {
        0.5 * (self.left_m + self.right_m)
    }
}

impl LaneChange {
    /// The ISO 3888-1 double lane change with its origin at `(x, y)` and the given heading.
    pub fn iso_3888_1(name: &str, start_x_m: f64, start_y_m: f64, heading_deg: f64) -> Self {
        let lane = |width_factor, offset_m| {
            Some(LaneSpec {
                width_factor,
                width_add_m: 0.25,
                offset_m,
            })
        };
        let section = |length_m, lane| LaneChangeSection { length_m, lane };
        Self {
            name: name.to_owned(),
            start_x_m,
            start_y_m,
            heading_deg,
            sections: vec![
                section(15.0, lane(1.1, 0.0)),
                section(30.0, None),
                section(25.0, lane(1.2, 3.5)),
                section(25.0, None),
                section(15.0, lane(1.3, 0.0)),
            ],
            cone_spacing_m: default_cone_spacing_m(),
        }
    }

    /// Total length of the course (m).
    pub fn length_m(&self) -> f64 {
        self.sections.iter().map(|s| s.length_m).sum()
    }

    /// Unit vectors `(forward, left)` of the course in the horizontal plane.
    pub fn axes(&self) -> (DVec3, DVec3) {
        let (s, c) = self.heading_deg.to_radians().sin_cos();
        (DVec3::new(c, s, 0.0), DVec3::new(-s, c, 0.0))
    }

    /// The horizontal world position (z = 0) of a point in course coordinates.
    pub fn world_xy(&self, station_m: f64, lateral_m: f64) -> DVec3 {
        let (forward, left) = self.axes();
        DVec3::new(self.start_x_m, self.start_y_m, 0.0) + forward * station_m + left * lateral_m
    }

    /// The coned lanes sized for a vehicle `vehicle_width_m` wide.
    pub fn lanes(&self, vehicle_width_m: f64) -> impl Iterator<Item = Lane> + '_ {
        let mut start = 0.0;
        self.sections
            .iter()
            .enumerate()
            .filter_map(move |(section, s)| {
                let lane = s.lane.map(|l| Lane {
                    section,
                    start_m: start,
                    end_m: start + s.length_m,
                    right_m: l.offset_m,
                    left_m: l.offset_m + l.width_factor * vehicle_width_m + l.width_add_m,
                });
                start += s.length_m;
                lane
            })
    }

    /// Cone positions `(station_m, lateral_m)` in course coordinates for a vehicle
    /// `vehicle_width_m` wide: on both boundaries of every lane, at its ends and evenly between
    /// them no more than [`LaneChange::cone_spacing_m`] apart.
    pub fn cones(&self, vehicle_width_m: f64) -> Vec<(f64, f64)> {
        let mut cones = Vec::new();
        for lane in self.lanes(vehicle_width_m) {
            let length = lane.end_m - lane.start_m;
            let gaps = (length / self.cone_spacing_m).ceil().max(1.0);
            // `gaps` is a small positive whole number (validated lengths and spacing).
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let gaps_n = gaps as u32;
            for k in 0..=gaps_n {
                let station = lane.start_m + length * f64::from(k) / gaps;
                cones.push((station, lane.right_m));
                cones.push((station, lane.left_m));
            }
        }
        cones
    }
}

impl Validate for LaneChange {
    fn validate(&self, v: &mut Validator) {
        v.finite("start_x_m", self.start_x_m);
        v.finite("start_y_m", self.start_y_m);
        v.finite("heading_deg", self.heading_deg);
        v.in_range("cone_spacing_m", self.cone_spacing_m, 0.5, 100.0);
        v.require(!self.sections.is_empty(), "sections", "must not be empty");
        v.within("sections", |v| {
            for (i, s) in self.sections.iter().enumerate() {
                v.within(&Validator::index(i), |v| {
                    v.in_range("length_m", s.length_m, 0.1, 10_000.0);
                    if let Some(lane) = &s.lane {
                        v.within("lane", |v| {
                            v.in_range("width_factor", lane.width_factor, 0.0, 10.0);
                            v.in_range("width_add_m", lane.width_add_m, -10.0, 100.0);
                            v.finite("offset_m", lane.offset_m);
                            v.require(
                                lane.width_factor > 0.0 || lane.width_add_m > 0.0,
                                "width_add_m",
                                "must give the lane a positive width",
                            );
                        });
                    }
                });
            }
        });
    }
}

/// A reference resolved onto the built ground: heights from the mesh, stations onto the
/// centre line.
#[derive(Clone, Debug, PartialEq)]
pub struct NamedReference {
    /// The reference's name.
    pub name: String,
    /// Where it is.
    pub geometry: ReferenceGeometry,
}

/// The geometry of a [`NamedReference`], in the world frame (m).
#[derive(Clone, Debug, PartialEq)]
pub enum ReferenceGeometry {
    /// A point on the ground.
    Point(DVec3),
    /// A line on the ground from one end to the other.
    Line {
        /// One end.
        from: DVec3,
        /// The other end.
        to: DVec3,
    },
    /// A line across the road at a station of the centre line.
    Station {
        /// Distance along the centre line (m).
        distance_m: f64,
        /// Left road edge at that station.
        left: DVec3,
        /// Right road edge at that station.
        right: DVec3,
    },
    /// A horizontal circle.
    Circle {
        /// Its centre, on the ground.
        centre: DVec3,
        /// Its radius (m).
        radius_m: f64,
    },
    /// A lane-change course (size it with [`LaneChange::lanes`]).
    LaneChange(LaneChange),
}

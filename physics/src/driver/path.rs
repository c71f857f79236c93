//! A path for the driver model to follow: a polyline in the ground plane with stations
//! (distance along it), open or closed, with an allocation-free nearest-point search that
//! starts from the previous answer. A path made from 3-D points keeps their heights, so the
//! speed planner can see crests and dips ([`Path::vertical_curvature_at`]).

use glam::{DVec2, DVec3};

/// A polyline path with cumulative distances ("stations").
#[derive(Clone, Debug, PartialEq)]
pub struct Path {
    points: Vec<DVec2>,
    /// Height of each point (m); empty for a path in the plane.
    heights: Vec<f64>,
    stations: Vec<f64>,
    closed: bool,
    length: f64,
}

/// Where a position projects onto a [`Path`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Projection {
    /// Index of the segment's first point.
    pub segment: usize,
    /// Distance along the path of the projected point (m).
    pub station: f64,
    /// The projected point.
    pub point: DVec2,
    /// Signed lateral offset of the position from the path (m), positive to the left.
    pub lateral_offset: f64,
}

/// Why a path could not be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PathError {
    /// Fewer than two distinct points.
    #[error("a path needs at least two distinct points")]
    TooShort,
    /// A point is NaN or infinite.
    #[error("path point {0} is not finite")]
    NotFinite(usize),
}

impl Path {
    /// Builds a path through `points`; a closed path joins the last point back to the first.
    /// Consecutive duplicate points are dropped.
    ///
    /// # Errors
    /// [`PathError`] when a point is not finite or fewer than two distinct points remain.
    pub fn new(points: &[DVec2], closed: bool) -> Result<Self, PathError> {
        let mut path = Self::with_heights(points.iter().map(|p| p.extend(0.0)), closed)?;
        path.heights.clear();
        Ok(path)
    }

    /// Builds a path through `points` (x, y in the ground plane, z their heights); see
    /// [`Path::new`].
    ///
    /// # Errors
    /// [`PathError`] when a point is not finite or fewer than two distinct points remain.
    pub fn new_3d(points: &[DVec3], closed: bool) -> Result<Self, PathError> {
        Self::with_heights(points.iter().copied(), closed)
    }

    fn with_heights(
        points: impl ExactSizeIterator<Item = DVec3>,
        closed: bool,
    ) -> Result<Self, PathError> {
        let mut kept: Vec<DVec2> = Vec::with_capacity(points.len());
        let mut heights: Vec<f64> = Vec::with_capacity(points.len());
        for (i, p) in points.enumerate() {
            if !p.is_finite() {
                return Err(PathError::NotFinite(i));
            }
            let plan = p.truncate();
            if kept.last().is_none_or(|last| last.distance(plan) > 1e-9) {
                kept.push(plan);
                heights.push(p.z);
            }
        }
        if closed && kept.len() > 2 && kept[0].distance(kept[kept.len() - 1]) <= 1e-9 {
            kept.pop();
            heights.pop();
        }
        if kept.len() < 2 {
            return Err(PathError::TooShort);
        }
        let mut stations = Vec::with_capacity(kept.len() + 1);
        let mut s = 0.0;
        stations.push(0.0);
        for pair in kept.windows(2) {
            s += pair[0].distance(pair[1]);
            stations.push(s);
        }
        if closed {
            s += kept[kept.len() - 1].distance(kept[0]);
            stations.push(s);
        }
        Ok(Self {
            points: kept,
            heights,
            stations,
            closed,
            length: s,
        })
    }

    /// A closed circle of `radius` around `centre`, counter-clockwise when `ccw`, as a polygon
    /// with `segments` sides starting at angle `start_rad`.
    ///
    /// # Errors
    /// [`PathError`] for a degenerate circle.
    pub fn circle(
        centre: DVec2,
        radius: f64,
        segments: usize,
        start_rad: f64,
        ccw: bool,
    ) -> Result<Self, PathError> {
        let n = segments.max(3);
        let sign = if ccw { 1.0 } else { -1.0 };
        let points: Vec<DVec2> = (0..n)
            .map(|i| {
                let a = start_rad + sign * std::f64::consts::TAU * i as f64 / n as f64;
                centre + radius * DVec2::new(a.cos(), a.sin())
            })
            .collect();
        Self::new(&points, true)
    }

    /// Total length (m); for a closed path, one lap.
    pub fn length(&self) -> f64 {
        self.length
    }

    /// Whether the path is a loop.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// The path's points.
    pub fn points(&self) -> &[DVec2] {
        &self.points
    }

    fn segment_count(&self) -> usize {
        if self.closed {
            self.points.len()
        } else {
            self.points.len() - 1
        }
    }

    fn segment(&self, i: usize) -> (DVec2, DVec2) {
        let a = self.points[i];
        // `(i + 1) % len` without the division: `i` is a point index, below `len`.
        let next = i + 1;
        let b = self.points[if next >= self.points.len() { 0 } else { next }];
        (a, b)
    }

    /// Distance from `p` to segment `i`: the first member of [`Path::project_on_segment`],
    /// computed by the same operations (the same bits) without the rest of the projection.
    #[inline]
    fn distance_to_segment(&self, i: usize, p: DVec2) -> f64 {
        let (a, b) = self.segment(i);
        let ab = b - a;
        let t = ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0);
        p.distance(a + ab * t)
    }

    /// Wraps a station into `[0, length)` on a closed path, clamps it on an open one.
    pub fn wrap_station(&self, station: f64) -> f64 {
        if self.closed {
            station.rem_euclid(self.length)
        } else {
            station.clamp(0.0, self.length)
        }
    }

    fn project_on_segment(&self, i: usize, p: DVec2) -> (f64, Projection) {
        let (a, b) = self.segment(i);
        let ab = b - a;
        let t = ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0);
        let point = a + ab * t;
        let side = ab.perp_dot(p - a).signum();
        let distance = p.distance(point);
        (
            distance,
            Projection {
                segment: i,
                station: self.stations[i] + ab.length() * t,
                point,
                lateral_offset: side * distance,
            },
        )
    }

    /// Projects `p` onto the whole path (a full scan; use [`Path::project_near`] per tick).
    pub fn project(&self, p: DVec2) -> Projection {
        let mut best = self.project_on_segment(0, p);
        for i in 1..self.segment_count() {
            let candidate = self.project_on_segment(i, p);
            if candidate.0 < best.0 {
                best = candidate;
            }
        }
        best.1
    }

    /// Projects `p` searching `window` segments either side of `hint` (the previous answer's
    /// segment): constant time per tick for a vehicle that moves along the path.
    pub fn project_near(&self, p: DVec2, hint: usize, window: usize) -> Projection {
        let n = self.segment_count();
        let hint = hint.min(n - 1);
        // The candidates are compared by distance alone; only the nearest is projected.
        let mut best = (hint, self.distance_to_segment(hint, p));
        for k in 1..=window.min(n) {
            for i in [hint + k, hint + n - k] {
                let i = if self.closed {
                    // `i % n` without the division: `i < 2n` here.
                    if i >= n { i - n } else { i }
                } else if i >= n || i < hint.saturating_sub(window) {
                    continue;
                } else {
                    i
                };
                let distance = self.distance_to_segment(i, p);
                if distance < best.1 {
                    best = (i, distance);
                }
            }
        }
        self.project_on_segment(best.0, p).1
    }

    /// The point at `station` (wrapped or clamped) and the unit tangent there.
    pub fn point_at(&self, station: f64) -> (DVec2, DVec2) {
        let s = self.wrap_station(station);
        // Binary search for the segment containing s.
        let i = match self.stations.binary_search_by(|x| x.total_cmp(&s)) {
            Ok(i) => i.min(self.segment_count() - 1),
            Err(i) => i.saturating_sub(1).min(self.segment_count() - 1),
        };
        let (a, b) = self.segment(i);
        let seg_len = self.stations[i + 1] - self.stations[i];
        let t = if seg_len > 0.0 {
            ((s - self.stations[i]) / seg_len).clamp(0.0, 1.0)
        } else {
            0.0
        };
        (a + (b - a) * t, (b - a).normalize_or_zero())
    }

    /// The height at `station` (m), interpolated between points; 0 for a path in the plane.
    pub fn height_at(&self, station: f64) -> f64 {
        if self.heights.is_empty() {
            return 0.0;
        }
        let s = self.wrap_station(station);
        let i = match self.stations.binary_search_by(|x| x.total_cmp(&s)) {
            Ok(i) => i.min(self.segment_count() - 1),
            Err(i) => i.saturating_sub(1).min(self.segment_count() - 1),
        };
        let (a, b) = (self.heights[i], self.heights[(i + 1) % self.heights.len()]);
        let seg_len = self.stations[i + 1] - self.stations[i];
        let t = if seg_len > 0.0 {
            ((s - self.stations[i]) / seg_len).clamp(0.0, 1.0)
        } else {
            0.0
        };
        a + (b - a) * t
    }

    /// Vertical curvature (1/m) at `station`: the second derivative of the height along the
    /// path over `half_span` metres each side, negative over a crest (where the road falls
    /// away from a car and takes load off its tyres), positive in a dip; 0 in the plane.
    pub fn vertical_curvature_at(&self, station: f64, half_span: f64) -> f64 {
        if self.heights.is_empty() || half_span <= 0.0 {
            return 0.0;
        }
        let ahead = if self.closed {
            half_span
        } else {
            half_span.min(self.length - station).max(0.0)
        };
        let behind = if self.closed {
            half_span
        } else {
            half_span.min(station).max(0.0)
        };
        if ahead <= 0.0 || behind <= 0.0 {
            return 0.0;
        }
        let (z0, z1, z2) = (
            self.height_at(station - behind),
            self.height_at(station),
            self.height_at(station + ahead),
        );
        2.0 * ((z2 - z1) / ahead - (z1 - z0) / behind) / (ahead + behind)
    }

    /// Signed curvature (1/m, positive turning left) at `station`, from the circle through
    /// the points `half_span` metres before and after it.
    pub fn curvature_at(&self, station: f64, half_span: f64) -> f64 {
        let (p0, _) = self.point_at(station - half_span);
        let (p1, _) = self.point_at(station);
        let (p2, _) = self.point_at(station + half_span);
        let a = p1 - p0;
        let b = p2 - p1;
        let c = p2 - p0;
        let denominator = a.length() * b.length() * c.length();
        if denominator <= 1e-12 {
            0.0
        } else {
            2.0 * a.perp_dot(b) / denominator
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stations_and_projection_on_an_open_path() {
        let path = Path::new(
            &[DVec2::ZERO, DVec2::new(10.0, 0.0), DVec2::new(10.0, 10.0)],
            false,
        )
        .unwrap();
        assert!((path.length() - 20.0).abs() < 1e-12);
        let p = path.project(DVec2::new(4.0, 1.5));
        assert!((p.station - 4.0).abs() < 1e-12);
        assert!((p.lateral_offset - 1.5).abs() < 1e-12, "left is positive");
        let p = path.project(DVec2::new(11.0, 5.0));
        assert!((p.station - 15.0).abs() < 1e-12);
        assert!((p.lateral_offset + 1.0).abs() < 1e-12, "right is negative");
        let (point, tangent) = path.point_at(12.5);
        assert!((point - DVec2::new(10.0, 2.5)).length() < 1e-12);
        assert!((tangent - DVec2::Y).length() < 1e-12);
    }

    #[test]
    fn circle_has_the_right_length_and_curvature() {
        let r = 50.0;
        let path = Path::circle(DVec2::new(5.0, -3.0), r, 720, 0.0, true).unwrap();
        // Perimeter of the inscribed 720-gon: 2 n r sin(pi/n).
        let expected = 2.0 * 720.0 * r * (std::f64::consts::PI / 720.0).sin();
        assert!((path.length() - expected).abs() < 1e-9);
        // Points between vertices lie on chords, inside the circle: 0.5 % is the polygon's error.
        for s in [0.0, 17.0, 200.0, 310.0] {
            let k = path.curvature_at(s, 5.0);
            assert!((k - 1.0 / r).abs() < 5e-3 / r, "curvature {k}");
        }
        let cw = Path::circle(DVec2::ZERO, r, 360, 0.0, false).unwrap();
        assert!(cw.curvature_at(10.0, 5.0) < 0.0);
        assert!(path.is_closed());
    }

    #[test]
    fn near_projection_matches_full_scan_and_wraps() {
        let path = Path::circle(DVec2::ZERO, 30.0, 200, 0.0, true).unwrap();
        let mut hint = 0;
        for i in 0..400 {
            let a = f64::from(i) * 0.02;
            let p = DVec2::new(a.cos(), a.sin()) * 31.0;
            let near = path.project_near(p, hint, 4);
            let full = path.project(p);
            assert!((near.station - full.station).abs() < 1e-9, "at {i}");
            hint = near.segment;
        }
        assert!((path.wrap_station(path.length() + 1.0) - 1.0).abs() < 1e-9);
        assert!((path.wrap_station(-1.0) - (path.length() - 1.0)).abs() < 1e-9);
    }

    #[test]
    fn bad_paths_are_refused() {
        assert_eq!(Path::new(&[DVec2::ZERO], false), Err(PathError::TooShort));
        assert_eq!(
            Path::new(&[DVec2::ZERO, DVec2::ZERO], true),
            Err(PathError::TooShort)
        );
        assert_eq!(
            Path::new(&[DVec2::ZERO, DVec2::new(f64::NAN, 0.0)], false),
            Err(PathError::NotFinite(1))
        );
    }
}

//! The road's centre line: a smooth curve through the control points, sampled about every
//! `sample_spacing_m`, and queries against it (station and lateral offset of a position).
//!
//! The curve is a centripetal Catmull-Rom spline (alpha = 1/2) through the control points in
//! three dimensions: it passes through every point, has a continuous tangent, and neither
//! loops nor overshoots wildly where points are unevenly spaced. An open line gets mirrored
//! end points; a closed line wraps, so its last segment joins the first point with the same
//! tangent. Width and banking blend between control points with a smoothstep. Each segment
//! is sampled at equal arc lengths, and every control point is a sample, so the road passes
//! exactly through the control points' positions and elevations.

use std::f64::consts::PI;

use glam::DVec3;

use super::layout::{ControlPoint, TrackLayout};

/// One cross-section of the road.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CentreLineSample {
    /// Centre of the road surface (world frame, m).
    pub position: DVec3,
    /// Unit direction of travel (follows the grade).
    pub tangent: DVec3,
    /// Unit vector across the road to the left, in the (banked) road surface.
    pub left: DVec3,
    /// Unit normal of the road surface, up.
    pub normal: DVec3,
    /// Road width, edge to edge (m).
    pub width_m: f64,
    /// Banking (rad): positive raises the left edge.
    pub banking_rad: f64,
    /// Distance along the centre line from its first sample (m).
    pub distance_m: f64,
    /// Horizontal curvature (1/m): positive turning left.
    pub curvature_per_m: f64,
}

impl CentreLineSample {
    /// Left road edge.
    pub fn left_edge(&self) -> DVec3 {
        self.position + self.left * (0.5 * self.width_m)
    }

    /// Right road edge.
    pub fn right_edge(&self) -> DVec3 {
        self.position - self.left * (0.5 * self.width_m)
    }
}

/// Where a position lies relative to the centre line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Projection {
    /// Index of the sample that starts the segment the position projects onto.
    pub segment: usize,
    /// Station: distance along the centre line of the projected point (m).
    pub distance_m: f64,
    /// Horizontal signed distance from the centre line, positive to the left (m).
    pub lateral_m: f64,
    /// The projected point on the centre line.
    pub point: DVec3,
    /// Unit tangent there (interpolated between the segment's samples).
    pub tangent: DVec3,
}

/// The sampled centre line of a track, with station queries.
#[derive(Clone, Debug, PartialEq)]
pub struct CentreLine {
    samples: Vec<CentreLineSample>,
    closed: bool,
    length_m: f64,
}

impl CentreLine {
    /// Samples the centre line of `layout` (which must have been validated); empty when the
    /// layout has no centre line. With each sample comes the control point that starts its
    /// spline segment and the blend (0 to 1, smoothstepped like the width) towards the next.
    pub(crate) fn from_layout_with_sources(layout: &TrackLayout) -> (Self, Vec<(usize, f64)>) {
        let points = &layout.centre_line;
        let mut samples = Vec::new();
        let mut sources = Vec::new();
        if points.len() < 2 {
            return (
                Self {
                    samples,
                    closed: layout.closed,
                    length_m: 0.0,
                },
                sources,
            );
        }
        let n = points.len();
        let segments = if layout.closed { n } else { n - 1 };
        let pos = |p: &ControlPoint| DVec3::new(p.x_m, p.y_m, p.z_m);
        let point_at = |i: isize| -> DVec3 {
            let n_i = n.cast_signed();
            if layout.closed {
                pos(&points[i.rem_euclid(n_i).cast_unsigned()])
            } else if i < 0 {
                2.0 * pos(&points[0]) - pos(&points[1])
            } else if i >= n_i {
                2.0 * pos(&points[n - 1]) - pos(&points[n - 2])
            } else {
                pos(&points[i.cast_unsigned()])
            }
        };
        for seg in 0..segments {
            let i = seg.cast_signed();
            let spline = Segment::new([
                point_at(i - 1),
                point_at(i),
                point_at(i + 1),
                point_at(i + 2),
            ]);
            let a = &points[seg];
            let b = &points[(seg + 1) % n];
            let table = spline.arc_length_table();
            let length = table[ARC_STEPS];
            let pieces = (length / layout.sample_spacing_m).ceil().max(1.0);
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let pieces_n = pieces as usize;
            let last = seg + 1 == segments && !layout.closed;
            let count = if last { pieces_n + 1 } else { pieces_n };
            for k in 0..count {
                let u = if k == 0 {
                    0.0
                } else if k == pieces_n {
                    1.0
                } else {
                    invert_arc_length(&table, length * k as f64 / pieces)
                };
                let blend = smoothstep(u);
                let position = spline.at(u);
                let tangent = spline.tangent(u);
                let width_m = a.width_m + (b.width_m - a.width_m) * blend;
                let banking_rad =
                    (a.banking_deg + (b.banking_deg - a.banking_deg) * blend).to_radians();
                samples.push(frame(position, tangent, width_m, banking_rad));
                sources.push((seg, blend));
            }
        }
        let mut distance = 0.0;
        for i in 0..samples.len() {
            if i > 0 {
                distance += samples[i].position.distance(samples[i - 1].position);
            }
            samples[i].distance_m = distance;
        }
        let mut length_m = distance;
        if layout.closed {
            length_m += samples[samples.len() - 1]
                .position
                .distance(samples[0].position);
        }
        let mut line = Self {
            samples,
            closed: layout.closed,
            length_m,
        };
        line.compute_curvature();
        (line, sources)
    }

    fn compute_curvature(&mut self) {
        let n = self.samples.len();
        let heading = |s: &CentreLineSample| s.tangent.y.atan2(s.tangent.x);
        let mut curvature = vec![0.0; n];
        for (i, k) in curvature.iter_mut().enumerate() {
            let (prev, next) = if self.closed {
                ((i + n - 1) % n, (i + 1) % n)
            } else {
                (i.saturating_sub(1), (i + 1).min(n - 1))
            };
            if prev == next {
                continue;
            }
            let mut turn = heading(&self.samples[next]) - heading(&self.samples[prev]);
            while turn > PI {
                turn -= 2.0 * PI;
            }
            while turn < -PI {
                turn += 2.0 * PI;
            }
            let run = self.horizontal_gap(prev, i) + self.horizontal_gap(i, next);
            if run > 1e-9 {
                *k = turn / run;
            }
        }
        for (s, k) in self.samples.iter_mut().zip(curvature) {
            s.curvature_per_m = k;
        }
    }

    fn horizontal_gap(&self, a: usize, b: usize) -> f64 {
        let d = self.samples[b].position - self.samples[a].position;
        d.x.hypot(d.y)
    }

    /// The samples, in driving order. A closed line does not repeat its first sample at the
    /// end: the last segment joins the last sample to the first.
    pub fn samples(&self) -> &[CentreLineSample] {
        &self.samples
    }

    /// Whether the line is a closed loop.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// Total length (m), including the closing segment of a loop.
    pub fn length_m(&self) -> f64 {
        self.length_m
    }

    /// Number of segments between samples (a loop has one more, the closing one).
    pub fn segment_count(&self) -> usize {
        match (self.samples.len(), self.closed) {
            (0 | 1, _) => 0,
            (n, true) => n,
            (n, false) => n - 1,
        }
    }

    fn segment_ends(&self, segment: usize) -> (&CentreLineSample, &CentreLineSample, f64) {
        let a = &self.samples[segment];
        let next = (segment + 1) % self.samples.len();
        let b = &self.samples[next];
        let end_distance = if next == 0 {
            self.length_m
        } else {
            b.distance_m
        };
        (a, b, end_distance)
    }

    fn project_on_segment(&self, segment: usize, p: DVec3) -> (f64, Projection) {
        let (a, b, end_distance) = self.segment_ends(segment);
        let ab = b.position - a.position;
        let ap = p - a.position;
        let ab_h = ab.truncate();
        let len2 = ab_h.length_squared();
        let t = if len2 > 0.0 {
            (ap.truncate().dot(ab_h) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let point = a.position + ab * t;
        let offset = (p - point).truncate();
        let tangent = a.tangent.lerp(b.tangent, t).normalize_or(a.tangent);
        let side = tangent.truncate().perp_dot(offset);
        let lateral_m = offset.length().copysign(side);
        (
            offset.length_squared(),
            Projection {
                segment,
                distance_m: a.distance_m + (end_distance - a.distance_m) * t,
                lateral_m,
                point,
                tangent,
            },
        )
    }

    /// Projects `position` horizontally onto the nearest point of the centre line: station
    /// and lateral offset. Scans every segment; allocation-free. `None` for an empty line.
    pub fn project(&self, position: DVec3) -> Option<Projection> {
        self.project_range(position, 0, self.segment_count())
    }

    /// Like [`CentreLine::project`], but only looks at the `window` segments either side of
    /// `hint` (the segment of the previous answer): constant time for tracking a car tick by
    /// tick. Wraps around a loop.
    pub fn project_near(&self, position: DVec3, hint: usize, window: usize) -> Option<Projection> {
        let count = self.segment_count();
        if count == 0 {
            return None;
        }
        if 2 * window + 1 >= count {
            return self.project(position);
        }
        let hint = hint.min(count - 1);
        if self.closed {
            let start = (hint + count - window) % count;
            self.project_range(position, start, 2 * window + 1)
        } else {
            let start = hint.saturating_sub(window);
            let end = (hint + window + 1).min(count);
            self.project_range(position, start, end - start)
        }
    }

    fn project_range(&self, position: DVec3, start: usize, len: usize) -> Option<Projection> {
        let count = self.segment_count();
        if count == 0 || !position.is_finite() {
            return None;
        }
        let mut best: Option<(f64, Projection)> = None;
        for k in 0..len {
            let segment = (start + k) % count;
            let (d2, proj) = self.project_on_segment(segment, position);
            if best.as_ref().is_none_or(|(b, _)| d2 < *b) {
                best = Some((d2, proj));
            }
        }
        best.map(|(_, p)| p)
    }

    /// The centre line at station `distance_m`, interpolated between samples (a loop wraps the
    /// distance into one lap). `None` for an empty line or, on an open line, a station beyond
    /// either end.
    pub fn sample_at(&self, distance_m: f64) -> Option<CentreLineSample> {
        let count = self.segment_count();
        if count == 0 || !distance_m.is_finite() {
            return None;
        }
        let d = if self.closed {
            distance_m.rem_euclid(self.length_m)
        } else if (0.0..=self.length_m).contains(&distance_m) {
            distance_m
        } else {
            return None;
        };
        // Last sample whose distance is <= d.
        let segment = self
            .samples
            .partition_point(|s| s.distance_m <= d)
            .saturating_sub(1)
            .min(count - 1);
        let (a, b, end) = self.segment_ends(segment);
        let span = end - a.distance_m;
        let t = if span > 0.0 {
            ((d - a.distance_m) / span).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let tangent = a.tangent.lerp(b.tangent, t).normalize_or(a.tangent);
        let width_m = a.width_m + (b.width_m - a.width_m) * t;
        let banking_rad = a.banking_rad + (b.banking_rad - a.banking_rad) * t;
        let mut s = frame(
            a.position.lerp(b.position, t),
            tangent,
            width_m,
            banking_rad,
        );
        s.distance_m = d;
        s.curvature_per_m = a.curvature_per_m + (b.curvature_per_m - a.curvature_per_m) * t;
        Some(s)
    }
}

/// The road's frame at a point: rotates the horizontal left vector and the up vector about the
/// tangent by the banking angle.
fn frame(position: DVec3, tangent: DVec3, width_m: f64, banking_rad: f64) -> CentreLineSample {
    let horizontal_left = DVec3::Z.cross(tangent).normalize_or(DVec3::Y);
    let up = tangent.cross(horizontal_left).normalize_or(DVec3::Z);
    let (s, c) = banking_rad.sin_cos();
    CentreLineSample {
        position,
        tangent,
        left: horizontal_left * c + up * s,
        normal: up * c - horizontal_left * s,
        width_m,
        banking_rad,
        distance_m: 0.0,
        curvature_per_m: 0.0,
    }
}

fn smoothstep(u: f64) -> f64 {
    u * u * (3.0 - 2.0 * u)
}

const ARC_STEPS: usize = 64;

/// One centripetal Catmull-Rom segment from `p[1]` (u = 0) to `p[2]` (u = 1).
struct Segment {
    p: [DVec3; 4],
    t: [f64; 4],
}

impl Segment {
    fn new(p: [DVec3; 4]) -> Self {
        let mut t = [0.0; 4];
        for i in 1..4 {
            // Centripetal knots; a floor keeps coincident points (a mirrored end) usable.
            t[i] = t[i - 1] + p[i].distance(p[i - 1]).sqrt().max(1e-6);
        }
        Self { p, t }
    }

    fn at(&self, u: f64) -> DVec3 {
        let [p0, p1, p2, p3] = self.p;
        let [t0, t1, t2, t3] = self.t;
        let t = t1 + (t2 - t1) * u;
        let lerp = |a: DVec3, b: DVec3, ta: f64, tb: f64| {
            a * ((tb - t) / (tb - ta)) + b * ((t - ta) / (tb - ta))
        };
        let a1 = lerp(p0, p1, t0, t1);
        let a2 = lerp(p1, p2, t1, t2);
        let a3 = lerp(p2, p3, t2, t3);
        let b1 = lerp(a1, a2, t0, t2);
        let b2 = lerp(a2, a3, t1, t3);
        lerp(b1, b2, t1, t2)
    }

    fn tangent(&self, u: f64) -> DVec3 {
        const H: f64 = 1e-5;
        let (lo, hi) = ((u - H).max(0.0), (u + H).min(1.0));
        let d = self.at(hi) - self.at(lo);
        d.normalize_or((self.p[2] - self.p[1]).normalize_or(DVec3::X))
    }

    fn arc_length_table(&self) -> [f64; ARC_STEPS + 1] {
        let mut table = [0.0; ARC_STEPS + 1];
        let mut previous = self.at(0.0);
        for (k, entry) in table.iter_mut().enumerate().skip(1) {
            let point = self.at(k as f64 / ARC_STEPS as f64);
            *entry = point.distance(previous);
            previous = point;
        }
        for k in 1..=ARC_STEPS {
            table[k] += table[k - 1];
        }
        table
    }
}

/// The parameter `u` at which the arc length reaches `s`, by linear interpolation of `table`.
fn invert_arc_length(table: &[f64; ARC_STEPS + 1], s: f64) -> f64 {
    let k = table.partition_point(|&len| len <= s).clamp(1, ARC_STEPS);
    let (a, b) = (table[k - 1], table[k]);
    let frac = if b > a { (s - a) / (b - a) } else { 0.0 };
    ((k - 1) as f64 + frac.clamp(0.0, 1.0)) / ARC_STEPS as f64
}

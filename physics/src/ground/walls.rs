//! Walls and barriers as collision geometry for the car body.
//!
//! A wall is a vertical face standing on a polyline (its *foot*, in the world frame), with a
//! height above the foot, a Coulomb friction coefficient and a coefficient of restitution.
//! Each straight piece of a polyline is a [`WallSegment`] whose horizontal unit normal points
//! to the side the car belongs on (towards the road). Behind the face the wall is solid: a
//! point behind it by `depth` penetrates it by that much.
//!
//! Queries must stay cheap at 1 kHz for twelve body points. [`Walls`] keeps a uniform grid of
//! square cells over the segments' horizontal extent; each cell lists the segments whose
//! horizontal bounding box, grown by [`CELL_MARGIN_M`], touches it. A point not yet touching
//! a wall looks up its one cell ([`Walls::find_entry`]); a point already touching one follows
//! that segment's neighbours along its polyline ([`Walls::follow`]), as the ground's
//! temporal coherence does, without the grid. Both pick the nearest segment (horizontal
//! distance to the clamped segment) and measure the depth along its normal, so at a joint
//! between two segments the nearest one decides, and a point in the wedge behind a convex
//! joint still finds a face. The open ends of a polyline end its wall: a point beyond them
//! touches nothing.

use glam::{DVec2, DVec3};

/// How far (m) beyond a segment's horizontal bounding box the grid cells that list it reach.
/// A new contact is only looked for this close to a face, so it must exceed the deepest
/// entry a caller asks for (see `vehicle::wall_contact`).
pub const CELL_MARGIN_M: f64 = 0.5;

/// Side of the grid's cells (m) unless the walls span so much that the grid would be too big.
pub const CELL_SIZE_M: f64 = 8.0;

/// Most cells the grid may have; larger worlds get larger cells.
const MAX_CELLS: usize = 1 << 20;

/// How far below its foot a wall still counts (m): the body's points never go far below the
/// ground, and a wall's foot follows the ground beside the road.
pub const BELOW_FOOT_M: f64 = 2.0;

/// How many neighbours [`Walls::follow`] walks at most from its hint.
const FOLLOW_STEPS: usize = 16;

/// No segment.
pub const NO_SEGMENT: u32 = u32::MAX;

/// One straight piece of a wall.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WallSegment {
    /// Foot of the face at the start (world frame, m).
    pub a: DVec3,
    /// Foot of the face at the end (world frame, m).
    pub b: DVec3,
    /// Height of the top above the foot at the start (m).
    pub height_a_m: f64,
    /// Height of the top above the foot at the end (m).
    pub height_b_m: f64,
    /// Horizontal unit normal of the face, pointing out of the wall (towards the road).
    pub normal: DVec2,
    /// Coulomb friction coefficient of the body sliding along the face (-).
    pub friction: f64,
    /// Coefficient of restitution of the body striking the face (-).
    pub restitution: f64,
    /// The previous segment of the same polyline, or [`NO_SEGMENT`] at an open start.
    pub prev: u32,
    /// The next segment of the same polyline, or [`NO_SEGMENT`] at an open end.
    pub next: u32,
    /// Horizontal unit direction from `a` to `b`.
    dir: DVec2,
    /// Horizontal length (m).
    length_m: f64,
}

/// One polyline of wall, as [`Walls::new`] takes it.
#[derive(Clone, Copy, Debug)]
pub struct WallRun<'a> {
    /// Foot of the face along the wall, in order (world frame, m).
    pub points: &'a [DVec3],
    /// Whether the last point joins the first.
    pub closed: bool,
    /// Height of the top above the foot (m).
    pub height_m: f64,
    /// Whether the open side (the road) lies to the left of the direction of the points.
    pub open_to_left: bool,
    /// Coulomb friction coefficient (-).
    pub friction: f64,
    /// Coefficient of restitution (-).
    pub restitution: f64,
}

/// How near (m) the end of one run must be to the start of another for the two to join.
const JOIN_M: f64 = 1e-3;

/// Links each open end to an open start of another run that begins where it ends (within
/// [`JOIN_M`], facing the same side): barriers split where their kind or height changes
/// (and, on a closed track, the chain of them round the loop) make one wall, so a contact
/// that goes on over the joint is followed onto the next run instead of ending as if the
/// wall stopped there.
fn link_joined_runs(segments: &mut [WallSegment]) {
    let starts: Vec<usize> = (0..segments.len())
        .filter(|&i| segments[i].prev == NO_SEGMENT)
        .collect();
    for i in 0..segments.len() {
        if segments[i].next != NO_SEGMENT {
            continue;
        }
        let (end, normal) = (segments[i].b, segments[i].normal);
        let joined = starts.iter().copied().find(|&j| {
            j != i
                && segments[j].prev == NO_SEGMENT
                && segments[j].a.distance(end) <= JOIN_M
                && segments[j].dir.perp_dot(segments[j].normal) * segments[i].dir.perp_dot(normal)
                    > 0.0
        });
        if let Some(j) = joined
            && let (Ok(ju), Ok(iu)) = (u32::try_from(j), u32::try_from(i))
        {
            segments[i].next = ju;
            segments[j].prev = iu;
        }
    }
}

/// A point found behind a wall's face.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WallHit {
    /// The segment.
    pub segment: u32,
    /// How far the point lies behind the face, along the normal (m); negative in front.
    pub depth_m: f64,
    /// The face's unit normal (horizontal), out of the wall.
    pub normal: DVec3,
    /// Coulomb friction coefficient (-).
    pub friction: f64,
    /// Coefficient of restitution (-).
    pub restitution: f64,
}

/// All the walls of a world, indexed for point queries.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Walls {
    segments: Vec<WallSegment>,
    origin: DVec2,
    cell_m: f64,
    columns: usize,
    rows: usize,
    /// `cell_start[c]..cell_start[c + 1]` indexes `cell_items` for cell `c`.
    cell_start: Vec<u32>,
    cell_items: Vec<u32>,
    /// Whether callers must look every point up every tick (see [`Walls::exhaustive`]).
    exhaustive: bool,
}

impl Walls {
    /// Builds the walls of `runs`. Pieces shorter than a millimetre are dropped, and so is a
    /// run with a non-finite point or property: a wall only ever stops a car.
    pub fn new(runs: &[WallRun<'_>]) -> Self {
        let mut segments: Vec<WallSegment> = Vec::new();
        for run in runs {
            let usable = run.points.len() >= 2
                && run.points.iter().all(|p| p.is_finite())
                && run.height_m.is_finite()
                && run.friction.is_finite()
                && run.restitution.is_finite();
            if !usable {
                continue;
            }
            let first = segments.len();
            let n = run.points.len();
            let pieces = if run.closed { n } else { n - 1 };
            for i in 0..pieces {
                let (a, b) = (run.points[i], run.points[(i + 1) % n]);
                let d = (b - a).truncate();
                let length_m = d.length();
                if length_m < 1e-3 {
                    continue;
                }
                let dir = d / length_m;
                let left = dir.perp();
                segments.push(WallSegment {
                    a,
                    b,
                    height_a_m: run.height_m,
                    height_b_m: run.height_m,
                    normal: if run.open_to_left { left } else { -left },
                    friction: run.friction,
                    restitution: run.restitution,
                    prev: NO_SEGMENT,
                    next: NO_SEGMENT,
                    dir,
                    length_m,
                });
            }
            let count = segments.len() - first;
            for k in 0..count {
                let index = |j: usize| u32::try_from(first + j).unwrap_or(NO_SEGMENT);
                let s = &mut segments[first + k];
                if k > 0 {
                    s.prev = index(k - 1);
                } else if run.closed && count > 1 {
                    s.prev = index(count - 1);
                }
                if k + 1 < count {
                    s.next = index(k + 1);
                } else if run.closed && count > 1 {
                    s.next = index(0);
                }
            }
        }
        link_joined_runs(&mut segments);
        Self::indexed(segments)
    }

    /// These walls and those of `runs` together (built as [`Walls::new`] builds them), indexed
    /// anew; keeps [`Walls::is_exhaustive`].
    #[must_use]
    pub fn with_runs(&self, runs: &[WallRun<'_>]) -> Self {
        let added = Self::new(runs);
        let offset = u32::try_from(self.segments.len()).unwrap_or(NO_SEGMENT);
        let shift = |i: u32| {
            if i == NO_SEGMENT {
                NO_SEGMENT
            } else {
                i.saturating_add(offset)
            }
        };
        let mut segments = self.segments.clone();
        segments.extend(added.segments.iter().map(|s| WallSegment {
            prev: shift(s.prev),
            next: shift(s.next),
            ..*s
        }));
        let mut walls = Self::indexed(segments);
        walls.exhaustive = self.exhaustive;
        walls
    }

    fn indexed(segments: Vec<WallSegment>) -> Self {
        if segments.is_empty() || u32::try_from(segments.len()).is_err() {
            return Self::default();
        }
        let (mut lo, mut hi) = (DVec2::splat(f64::MAX), DVec2::splat(f64::MIN));
        for s in &segments {
            lo = lo.min(s.a.truncate()).min(s.b.truncate());
            hi = hi.max(s.a.truncate()).max(s.b.truncate());
        }
        lo -= DVec2::splat(CELL_MARGIN_M);
        hi += DVec2::splat(CELL_MARGIN_M);
        let span = hi - lo;
        let mut cell_m = CELL_SIZE_M;
        let cells_for = |c: f64| {
            let (cx, cy) = ((span.x / c).ceil().max(1.0), (span.y / c).ceil().max(1.0));
            (cx, cy, cx * cy)
        };
        while cells_for(cell_m).2 > MAX_CELLS as f64 {
            cell_m *= 2.0;
        }
        let (cx, cy, _) = cells_for(cell_m);
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let (columns, rows) = (cx as usize, cy as usize);
        let cell_range = |s: &WallSegment| {
            let a = s.a.truncate().min(s.b.truncate()) - DVec2::splat(CELL_MARGIN_M) - lo;
            let b = s.a.truncate().max(s.b.truncate()) + DVec2::splat(CELL_MARGIN_M) - lo;
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let clamp = |v: f64, n: usize| ((v / cell_m).floor().max(0.0) as usize).min(n - 1);
            (
                clamp(a.x, columns),
                clamp(b.x, columns),
                clamp(a.y, rows),
                clamp(b.y, rows),
            )
        };
        let mut counts = vec![0_u32; columns * rows + 1];
        for s in &segments {
            let (x0, x1, y0, y1) = cell_range(s);
            for y in y0..=y1 {
                for x in x0..=x1 {
                    counts[y * columns + x] += 1;
                }
            }
        }
        let mut cell_start = Vec::with_capacity(counts.len());
        let mut total = 0_u32;
        for c in &counts {
            cell_start.push(total);
            total += c;
        }
        let mut fill = cell_start.clone();
        let mut cell_items = vec![0_u32; total as usize];
        for (i, s) in segments.iter().enumerate() {
            let (x0, x1, y0, y1) = cell_range(s);
            for y in y0..=y1 {
                for x in x0..=x1 {
                    let c = y * columns + x;
                    // The segment count fits in u32 (checked above).
                    #[allow(clippy::cast_possible_truncation)]
                    {
                        cell_items[fill[c] as usize] = i as u32;
                    }
                    fill[c] += 1;
                }
            }
        }
        Self {
            segments,
            origin: lo,
            cell_m,
            columns,
            rows,
            cell_start,
            cell_items,
            exhaustive: false,
        }
    }

    /// The same walls, telling callers to look every point up every tick rather than skip
    /// those that [`Walls::clearance_m`] shows to be out of reach: for tests that check that
    /// the skip changes nothing.
    #[must_use]
    pub fn exhaustive(mut self) -> Self {
        self.exhaustive = true;
        self
    }

    /// Whether [`Walls::exhaustive`] made these walls.
    pub fn is_exhaustive(&self) -> bool {
        self.exhaustive
    }

    /// Whether there are no walls at all.
    pub fn is_empty(&self) -> bool {
        self.segments.is_empty()
    }

    /// The segments.
    pub fn segments(&self) -> &[WallSegment] {
        &self.segments
    }

    /// The segments listed in the grid cell under `p` (empty outside the grid).
    fn cell(&self, p: DVec3) -> &[u32] {
        if self.segments.is_empty() {
            return &[];
        }
        let q = (p.truncate() - self.origin) / self.cell_m;
        if !(q.x >= 0.0 && q.y >= 0.0) {
            return &[];
        }
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let (x, y) = (q.x as usize, q.y as usize);
        if x >= self.columns || y >= self.rows {
            return &[];
        }
        let c = y * self.columns + x;
        &self.cell_items[self.cell_start[c] as usize..self.cell_start[c + 1] as usize]
    }

    /// The squared horizontal distance from `p` to segment `index` and what `p` meets there,
    /// or `None` when `p` lies beyond an open end or above or well below the face.
    fn measure(&self, index: u32, p: DVec3) -> Option<(f64, WallHit)> {
        let s = self.segments.get(index as usize)?;
        let w = p.truncate() - s.a.truncate();
        let t = w.dot(s.dir) / s.length_m;
        if (t < 0.0 && s.prev == NO_SEGMENT) || (t > 1.0 && s.next == NO_SEGMENT) {
            return None;
        }
        let t = t.clamp(0.0, 1.0);
        let foot = s.a.z + (s.b.z - s.a.z) * t;
        let top = foot + s.height_a_m + (s.height_b_m - s.height_a_m) * t;
        if p.z > top || p.z < foot - BELOW_FOOT_M {
            return None;
        }
        let along = w - s.dir * (t * s.length_m);
        Some((
            along.length_squared(),
            WallHit {
                segment: index,
                depth_m: -w.dot(s.normal),
                normal: s.normal.extend(0.0),
                friction: s.friction,
                restitution: s.restitution,
            },
        ))
    }

    /// A new contact: the face nearest `p` among the segments of its grid cell, when that face
    /// lies within [`CELL_MARGIN_M`] of `p` and `p` lies behind it by more than zero and at
    /// most `max_depth_m` (at most [`CELL_MARGIN_M`]).
    pub fn find_entry(&self, p: DVec3, max_depth_m: f64) -> Option<WallHit> {
        let mut best: Option<(f64, WallHit)> = None;
        for &i in self.cell(p) {
            if let Some((d2, hit)) = self.measure(i, p)
                && best.is_none_or(|(b, _)| d2 < b)
            {
                best = Some((d2, hit));
            }
        }
        let (d2, hit) = best?;
        (d2 <= CELL_MARGIN_M * CELL_MARGIN_M
            && hit.depth_m > 0.0
            && hit.depth_m <= max_depth_m.min(CELL_MARGIN_M))
        .then_some(hit)
    }

    /// A lower bound (m) on the horizontal distance from `p` to every segment, capped at
    /// `reach_m`; zero for a non-finite `p`. It is the distance to the nearest segment listed
    /// in the grid cells within `reach_m` (and a millimetre) of `p`: a segment nearer than
    /// `reach_m` has its nearest point to `p` in one of them, and every cell that point's
    /// bounding box touches lists it. So [`Walls::find_entry`] finds nothing for a point
    /// farther than [`CELL_MARGIN_M`] from every segment, and a point within
    /// `clearance_m(p) - CELL_MARGIN_M` of `p` (horizontally) is such a point.
    pub fn clearance_m(&self, p: DVec3, reach_m: f64) -> f64 {
        if !p.is_finite() || !reach_m.is_finite() {
            return 0.0;
        }
        if self.segments.is_empty() {
            return reach_m;
        }
        let q = p.truncate();
        let grown = DVec2::splat(reach_m + 1e-3);
        let lo = (q - grown - self.origin) / self.cell_m;
        let hi = (q + grown - self.origin) / self.cell_m;
        // Clamped to the grid, which holds every segment's cells.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let clamp = |v: f64, n: usize| (v.floor().max(0.0) as usize).min(n - 1);
        let mut nearest2 = reach_m * reach_m;
        for y in clamp(lo.y, self.rows)..=clamp(hi.y, self.rows) {
            let row = y * self.columns;
            for c in row + clamp(lo.x, self.columns)..=row + clamp(hi.x, self.columns) {
                let items =
                    &self.cell_items[self.cell_start[c] as usize..self.cell_start[c + 1] as usize];
                for &i in items {
                    let s = &self.segments[i as usize];
                    let w = q - s.a.truncate();
                    let t = (w.dot(s.dir) / s.length_m).clamp(0.0, 1.0);
                    let along = w - s.dir * (t * s.length_m);
                    nearest2 = nearest2.min(along.length_squared());
                }
            }
        }
        nearest2.sqrt()
    }

    /// A contact that goes on: starting from `segment` (what `p` touched last tick), walks
    /// along its polyline to the nearest segment and measures `p` against it; any depth
    /// counts, since the point was in front of the face when the contact began. `None` when
    /// `p` is no longer behind the face, has passed an open end, or is above the wall.
    pub fn follow(&self, p: DVec3, segment: u32) -> Option<WallHit> {
        let mut best = self.measure(segment, p)?;
        for _ in 0..FOLLOW_STEPS {
            let s = &self.segments[best.1.segment as usize];
            let mut moved = false;
            for n in [s.prev, s.next] {
                if n == NO_SEGMENT {
                    continue;
                }
                if let Some(m) = self.measure(n, p)
                    && m.0 < best.0
                {
                    best = m;
                    moved = true;
                }
            }
            if !moved {
                break;
            }
        }
        (best.1.depth_m > 0.0).then_some(best.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn straight(open_to_left: bool) -> Walls {
        let points = [
            DVec3::new(0.0, 5.0, 0.0),
            DVec3::new(10.0, 5.0, 0.0),
            DVec3::new(20.0, 5.0, 0.0),
        ];
        Walls::new(&[WallRun {
            points: &points,
            closed: false,
            height_m: 1.0,
            open_to_left,
            friction: 0.5,
            restitution: 0.2,
        }])
    }

    #[test]
    fn a_point_just_behind_the_face_enters_and_one_in_front_does_not() {
        // Road to the right of a wall running east: the normal points south.
        let w = straight(false);
        let hit = w
            .find_entry(DVec3::new(12.0, 5.03, 0.3), 0.25)
            .expect("behind the face");
        assert!((hit.depth_m - 0.03).abs() < 1e-12, "{hit:?}");
        assert!((hit.normal - DVec3::new(0.0, -1.0, 0.0)).length() < 1e-12);
        assert!(w.find_entry(DVec3::new(12.0, 4.97, 0.3), 0.25).is_none());
        // Too deep to be a new contact, above the top, beyond the open ends.
        assert!(w.find_entry(DVec3::new(12.0, 5.4, 0.3), 0.25).is_none());
        assert!(w.find_entry(DVec3::new(12.0, 5.03, 1.1), 0.25).is_none());
        assert!(w.find_entry(DVec3::new(-0.1, 5.03, 0.3), 0.25).is_none());
        assert!(w.find_entry(DVec3::new(20.1, 5.03, 0.3), 0.25).is_none());
        assert!(w.find_entry(DVec3::new(500.0, 5.03, 0.3), 0.25).is_none());
    }

    #[test]
    fn a_contact_is_followed_at_any_depth_along_the_polyline() {
        let w = straight(false);
        let hit = w.find_entry(DVec3::new(9.0, 5.01, 0.0), 0.25).expect("hit");
        assert_eq!(hit.segment, 0);
        let deep = w
            .follow(DVec3::new(15.0, 6.5, 0.0), hit.segment)
            .expect("deep");
        assert_eq!(deep.segment, 1);
        assert!((deep.depth_m - 1.5).abs() < 1e-12);
        assert!(w.follow(DVec3::new(15.0, 4.9, 0.0), 1).is_none());
    }

    #[test]
    fn a_closed_square_has_no_gaps_at_its_corners() {
        // Road inside a 20 m square (counter-clockwise: inside is on the left).
        let points = [
            DVec3::new(0.0, 0.0, 0.0),
            DVec3::new(20.0, 0.0, 0.0),
            DVec3::new(20.0, 20.0, 0.0),
            DVec3::new(0.0, 20.0, 0.0),
        ];
        let w = Walls::new(&[WallRun {
            points: &points,
            closed: true,
            height_m: 1.0,
            open_to_left: true,
            friction: 0.5,
            restitution: 0.2,
        }]);
        // Just outside each corner, diagonally: behind the nearest face.
        for p in [
            DVec3::new(-0.05, -0.05, 0.2),
            DVec3::new(20.05, -0.05, 0.2),
            DVec3::new(20.05, 20.05, 0.2),
            DVec3::new(-0.05, 20.05, 0.2),
        ] {
            let hit = w.find_entry(p, 0.25).expect("corner");
            assert!((hit.depth_m - 0.05).abs() < 1e-12, "{p} {hit:?}");
        }
        assert!(w.find_entry(DVec3::new(10.0, 10.0, 0.2), 0.25).is_none());
        assert!(w.find_entry(DVec3::new(0.05, 0.05, 0.2), 0.25).is_none());
    }

    #[test]
    fn walls_joined_with_more_runs_keep_both_and_their_polylines() {
        let w = straight(false).exhaustive();
        let points = [DVec3::new(0.0, -5.0, 0.0), DVec3::new(20.0, -5.0, 0.0)];
        let both = w.with_runs(&[WallRun {
            points: &points,
            closed: false,
            height_m: 1.0,
            open_to_left: true,
            friction: 0.5,
            restitution: 0.2,
        }]);
        assert_eq!(both.segments().len(), 3);
        assert!(both.is_exhaustive());
        // The old run is still linked (0 -> 1), the new one stands alone at index 2.
        assert_eq!(both.segments()[0].next, 1);
        assert_eq!(both.segments()[2].prev, NO_SEGMENT);
        assert_eq!(both.segments()[2].next, NO_SEGMENT);
        // Both faces are found: the old one's normal points south, the new one's north.
        let old = both.find_entry(DVec3::new(12.0, 5.03, 0.3), 0.25);
        assert_eq!(old.map(|h| h.segment), Some(1));
        let new = both
            .find_entry(DVec3::new(12.0, -5.03, 0.3), 0.25)
            .expect("the new face");
        assert_eq!(new.segment, 2);
        assert!((new.normal - DVec3::Y).length() < 1e-12);
    }

    /// A 400 m wall waving 10 m either side of the x axis and climbing 1 in 10.
    fn wavy_wall() -> Walls {
        let points: Vec<DVec3> = (0..200)
            .map(|i| {
                let x = f64::from(i) * 2.0;
                DVec3::new(x, 10.0 * (x / 40.0).sin(), 0.1 * x)
            })
            .collect();
        Walls::new(&[WallRun {
            points: &points,
            closed: false,
            height_m: 2.0,
            open_to_left: true,
            friction: 0.5,
            restitution: 0.2,
        }])
    }

    #[test]
    fn the_grid_finds_what_a_linear_scan_finds() {
        // A wavy wall, many query points: the grid's answer equals the nearest-segment rule
        // evaluated over every segment.
        let w = wavy_wall();
        let mut checked = 0;
        for i in 0..4000 {
            let x = f64::from(i) * 0.1;
            let y = 10.0 * (x / 40.0).sin() + 0.3 * ((f64::from(i) * 0.37).sin());
            let p = DVec3::new(x, y, 0.1 * x + 0.5);
            let scan = (0..u32::try_from(w.segments().len()).unwrap_or(0))
                .filter_map(|k| w.measure(k, p))
                .min_by(|a, b| a.0.total_cmp(&b.0))
                .filter(|(d2, h)| *d2 <= 0.25 && h.depth_m > 0.0 && h.depth_m <= 0.25)
                .map(|(_, h)| h);
            assert_eq!(w.find_entry(p, 0.25), scan, "{p}");
            checked += usize::from(scan.is_some());
        }
        assert!(checked > 500, "{checked}");
    }

    #[test]
    fn the_clearance_is_the_distance_to_the_nearest_segment_within_its_reach() {
        let w = wavy_wall();
        for i in 0..4000 {
            let x = f64::from(i) * 0.11 - 20.0;
            let y = 10.0 * (x / 40.0).sin() + 30.0 * ((f64::from(i) * 0.37).sin());
            let p = DVec3::new(x, y, 0.0);
            let nearest = w
                .segments()
                .iter()
                .map(|s| {
                    let v = p.truncate() - s.a.truncate();
                    let t = (v.dot(s.dir) / s.length_m).clamp(0.0, 1.0);
                    (v - s.dir * (t * s.length_m)).length()
                })
                .fold(f64::INFINITY, f64::min);
            for reach in [1.0, 12.0] {
                let clearance = w.clearance_m(p, reach);
                assert!(
                    (clearance - nearest.min(reach)).abs() < 1e-9,
                    "{p}: {clearance} for {nearest} within {reach}"
                );
            }
        }
        assert!(w.clearance_m(DVec3::NAN, 12.0) == 0.0);
        assert!(Walls::default().clearance_m(DVec3::ZERO, 12.0) >= 12.0);
    }
}

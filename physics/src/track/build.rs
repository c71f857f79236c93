//! From a [`TrackLayout`] to triangles: the road's cross-sections, the pads, the objects on the
//! ground and the references resolved. Deterministic: the same layout always gives the same
//! mesh, vertex for vertex.
//!
//! A road cross-section, left to right: verge bands (outermost first), the kerb strip, the road
//! (its left half and right half, meeting at the centre vertex), the kerb strip, the verge
//! bands. The road and kerb strips lie in the banked plane of the road, kerb stones in corners
//! raised above it as a trapezoid when the layout gives them a height ([`super::kerb`]); each verge band runs
//! horizontally away from the previous edge, rising or falling by its `slope_pct`. On the
//! inside of a tight corner the bands beside the road are narrowed so that they end short of
//! the corner's centre of curvature and do not fold over themselves.
//!
//! With a boundary, the terrain and its wall ([`super::boundary`]) come after the road and
//! the pads: the terrain's triangles are appended last and lie below every built triangle.

use glam::DVec3;

use crate::ground::{Solids, Surface, TriangleMesh};

use super::barrier::{build_barriers, walls_of};
use super::boundary::close;
use super::centre_line::{CentreLine, CentreLineSample};
use super::kerb::kerb_profile;
use super::layout::{ObjectSpec, PadShape, Reference, TrackLayout, polygon_turn_sign};
use super::reference::{NamedReference, ReferenceGeometry};
use super::roadside_rules::RoadsideRules;
use super::sample_edges::SampleEdges;
use super::{PlacedObject, TrackError, TrackMesh};

/// Largest side of a pad's grid cells (m): keeps triangles of big pads a sensible size.
const PAD_CELL_M: f64 = 25.0;

/// Fraction of a corner's radius that the bands on its inside may reach.
const INSIDE_REACH: f64 = 0.85;

/// Distance (m) by which a corner's kerbs and corner surfaces extend before and after it.
const CORNER_MARGIN_M: f64 = 6.0;

#[derive(Default)]
pub(super) struct MeshData {
    pub(super) vertices: Vec<DVec3>,
    pub(super) triangles: Vec<[u32; 3]>,
    pub(super) surfaces: Vec<Surface>,
    /// Per centre-line sample, the road's and the bands' outer edges (for the barriers).
    pub(super) edges: Vec<SampleEdges>,
}

impl MeshData {
    pub(super) fn index(&self) -> Result<u32, TrackError> {
        u32::try_from(self.vertices.len()).map_err(|_| TrackError::TooLarge {
            vertices: self.vertices.len(),
        })
    }

    /// Two triangles over the quad `a b` (one edge) `c d` (the next), `a`-`c` and `b`-`d`
    /// running along the strip.
    pub(super) fn quad(&mut self, a: u32, b: u32, c: u32, d: u32, surface: Surface) {
        self.triangles.push([a, b, d]);
        self.triangles.push([a, d, c]);
        self.surfaces.push(surface);
        self.surfaces.push(surface);
    }
}

/// Builds the mesh of a validated-or-not layout.
pub(super) fn build(layout: &TrackLayout) -> Result<TrackMesh, TrackError> {
    use crate::validate::Validate;
    layout.check()?;
    let (centre_line, sources) = CentreLine::from_layout_with_sources(layout);
    let mut data = MeshData::default();
    if layout.cross_sections.is_empty() {
        road(layout, &centre_line, &mut data)?;
    } else {
        super::build_sections::road(layout, &centre_line, &sources, &mut data)?;
    }
    for pad in &layout.pads {
        pad_mesh(&pad.shape, pad.surface, &mut data)?;
    }
    let mut barriers = build_barriers(layout, &centre_line, &sources, &data.edges);
    let terrain_first_triangle = data.triangles.len();
    if let Some(spec) = &layout.boundary
        && let Some(closure) = close(spec, &data.vertices, &data.triangles)
    {
        data.vertices.extend(closure.vertices);
        data.index()?;
        data.surfaces
            .extend(std::iter::repeat_n(spec.surface, closure.triangles.len()));
        data.triangles.extend(closure.triangles);
        barriers.push(closure.wall);
    }
    let walls = walls_of(&barriers);
    let ground = TriangleMesh::new(data.vertices, data.triangles, data.surfaces)?;
    let objects = place_objects(layout, &ground)?;
    let references = resolve_references(layout, &ground, &centre_line)?;
    // The edges are kept only when every sample has its own.
    let edges = if data.edges.len() == centre_line.samples().len() {
        data.edges
    } else {
        Vec::new()
    };
    Ok(TrackMesh {
        length_m: centre_line.length_m(),
        ground,
        outer_ground: None,
        centre_line,
        objects,
        references,
        barriers,
        walls,
        solids: Solids::default(),
        terrain_first_triangle,
        edges,
        roadside_rules: RoadsideRules::of(layout),
    })
}

/// What lies between two neighbouring columns of a cross-section.
#[derive(Clone, Copy)]
enum Band {
    Road,
    /// The kerb strip laid flat in the road's plane.
    Kerb,
    /// One of the three columns of a raised kerb's trapezoid ([`kerb_profile`]).
    RaisedKerb(usize),
    Verge(usize),
}

fn corner_flags(layout: &TrackLayout, samples: &[CentreLineSample], closed: bool) -> Vec<bool> {
    let n = samples.len();
    if layout.corner_radius_m <= 0.0 || n == 0 {
        return vec![false; n];
    }
    let raw: Vec<bool> = samples
        .iter()
        .map(|s| s.curvature_per_m.abs() * layout.corner_radius_m > 1.0)
        .collect();
    // Widen each corner by a margin either side, so kerbs start before the turn-in.
    let reach = (CORNER_MARGIN_M / layout.sample_spacing_m).ceil();
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let reach = reach as usize;
    (0..n)
        .map(|i| {
            (0..=2 * reach).any(|k| {
                let j = i + k;
                if closed {
                    raw[(j + n - reach % n) % n]
                } else {
                    j >= reach && j - reach < n && raw[j - reach]
                }
            })
        })
        .collect()
}

fn road(
    layout: &TrackLayout,
    centre_line: &CentreLine,
    data: &mut MeshData,
) -> Result<(), TrackError> {
    let samples = centre_line.samples();
    if samples.len() < 2 {
        return Ok(());
    }
    // Bands on one side, from the road outwards.
    let mut side: Vec<Band> = Vec::new();
    match layout.kerb {
        Some(k) if k.height_m > 0.0 => side.extend((0..3).map(Band::RaisedKerb)),
        Some(_) => side.push(Band::Kerb),
        None => {}
    }
    side.extend((0..layout.verge.len()).map(Band::Verge));
    // Bands across the whole section, left to right.
    let bands: Vec<Band> = side
        .iter()
        .rev()
        .copied()
        .chain([Band::Road, Band::Road])
        .chain(side.iter().copied())
        .collect();
    let columns = bands.len() + 1;
    let kerb_width = layout.kerb.map_or(0.0, |k| k.width_m);
    let extent: f64 = kerb_width + layout.verge.iter().map(|b| b.width_m).sum::<f64>();
    let corners = corner_flags(layout, samples, centre_line.is_closed());
    let scales = inside_scales(samples, centre_line, extent);
    let first = data.index()?;
    for ((s, scale), &corner) in samples.iter().zip(&scales).zip(&corners) {
        let horizontal_left = DVec3::Z.cross(s.tangent).normalize_or(DVec3::Y);
        let half = 0.5 * s.width_m;
        let mut row: Vec<DVec3> = Vec::with_capacity(columns);
        let mut outer = [DVec3::ZERO; 2];
        for (sign, scale) in [(1.0, scale[0]), (-1.0, scale[1])] {
            let road_edge = s.position + s.left * (sign * half);
            let mut edge = road_edge;
            let mut outward = Vec::with_capacity(side.len());
            for band in &side {
                edge = match band {
                    Band::Kerb => edge + s.left * (sign * kerb_width * scale),
                    Band::RaisedKerb(k) => {
                        let profile = layout
                            .kerb
                            .map_or([(0.0, 0.0); 3], |spec| kerb_profile(&spec, scale, corner));
                        let (across, up) = profile[*k];
                        road_edge + s.left * (sign * across) + s.normal * up
                    }
                    Band::Verge(i) => {
                        let v = &layout.verge[*i];
                        let run = v.width_m * scale;
                        edge + horizontal_left * (sign * run)
                            + DVec3::Z * (run * v.slope_pct / 100.0)
                    }
                    Band::Road => edge,
                };
                outward.push(edge);
            }
            outer[usize::from(sign < 0.0)] = outward
                .last()
                .copied()
                .unwrap_or(s.position + s.left * (sign * half));
            if sign > 0.0 {
                row.extend(outward.iter().rev());
                row.push(s.position + s.left * half);
                row.push(s.position);
            } else {
                row.push(s.position - s.left * half);
                row.extend(outward);
            }
        }
        data.edges.push(SampleEdges {
            road: [s.position + s.left * half, s.position - s.left * half],
            outer,
            horizontal_left,
        });
        data.vertices.extend(row);
    }
    data.index()?;
    let n = samples.len();
    let strips = if centre_line.is_closed() { n } else { n - 1 };
    let cols = u32::try_from(columns).map_err(|_| TrackError::TooLarge {
        vertices: data.vertices.len(),
    })?;
    for i in 0..strips {
        let j = (i + 1) % n;
        let corner = corners[i] || corners[j];
        // Indices fit: the vertex count was checked above.
        #[allow(clippy::cast_possible_truncation)]
        let (row_i, row_j) = (first + i as u32 * cols, first + j as u32 * cols);
        for (c, band) in bands.iter().enumerate() {
            #[allow(clippy::cast_possible_truncation)]
            let c = c as u32;
            let surface = match band {
                Band::Road => layout.road_surface,
                Band::Kerb | Band::RaisedKerb(_) => {
                    if corner {
                        Surface::Kerb
                    } else {
                        layout.kerb.map_or(Surface::Kerb, |k| k.straight_surface)
                    }
                }
                Band::Verge(v) => layout.verge[*v].surface_at(corner),
            };
            data.quad(row_i + c, row_i + c + 1, row_j + c, row_j + c + 1, surface);
        }
    }
    Ok(())
}

/// Scale of the bands beside the road, `[left, right]`, per sample: below one on the inside of
/// corners too tight for the bands' full width. Each sample takes the smallest scale found
/// within reach of the bands' extent along the line, so that the narrowing starts before the
/// corner and the bands of the straight before it do not cross those of the corner.
pub(super) fn inside_scales(
    samples: &[CentreLineSample],
    line: &CentreLine,
    extent: f64,
) -> Vec<[f64; 2]> {
    let n = samples.len();
    let raw: Vec<[f64; 2]> = samples
        .iter()
        .map(|s| {
            let half = 0.5 * s.width_m;
            [1.0, -1.0].map(|sign| {
                let inward = s.curvature_per_m * sign;
                if inward <= 0.0 || extent <= 0.0 {
                    return 1.0;
                }
                let room = INSIDE_REACH / inward - half;
                if room >= extent {
                    1.0
                } else {
                    room.max(0.1 * extent) / extent
                }
            })
        })
        .collect();
    if extent <= 0.0 {
        return raw;
    }
    let reach = extent + samples.iter().map(|s| 0.5 * s.width_m).fold(0.0, f64::max);
    let length = line.length_m();
    let closed = line.is_closed();
    let gap = |i: usize, j: usize| {
        let d = (samples[i].distance_m - samples[j].distance_m).abs();
        if closed { d.min(length - d) } else { d }
    };
    (0..n)
        .map(|i| {
            let mut scale = raw[i];
            for step in [1, n - 1] {
                let mut j = i;
                for _ in 1..n {
                    j = (j + step) % n;
                    if (!closed && ((step == 1 && j == 0) || (step != 1 && j == n - 1)))
                        || gap(i, j) > reach
                    {
                        break;
                    }
                    scale = [scale[0].min(raw[j][0]), scale[1].min(raw[j][1])];
                }
            }
            scale
        })
        .collect()
}

fn pad_mesh(shape: &PadShape, surface: Surface, data: &mut MeshData) -> Result<(), TrackError> {
    let first = data.index()?;
    match shape {
        PadShape::Rectangle {
            centre_x_m,
            centre_y_m,
            z_m,
            length_m,
            width_m,
            heading_deg,
            rise_pct,
        } => {
            let (sin, cos) = heading_deg.to_radians().sin_cos();
            let forward = DVec3::new(cos, sin, 0.0);
            let left = DVec3::new(-sin, cos, 0.0);
            let centre = DVec3::new(*centre_x_m, *centre_y_m, *z_m);
            let along = (length_m / PAD_CELL_M).ceil().clamp(1.0, 10_000.0);
            let across = (width_m / PAD_CELL_M).ceil().clamp(1.0, 10_000.0);
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let (nu, nv) = (along as u32, across as u32);
            for i in 0..=nu {
                let u = length_m * (f64::from(i) / along - 0.5);
                for j in 0..=nv {
                    let v = width_m * (f64::from(j) / across - 0.5);
                    data.vertices
                        .push(centre + forward * u + left * v + DVec3::Z * (u * rise_pct / 100.0));
                }
            }
            data.index()?;
            let stride = nv + 1;
            for i in 0..nu {
                for j in 0..nv {
                    let a = first + i * stride + j;
                    data.quad(a, a + 1, a + stride, a + stride + 1, surface);
                }
            }
        }
        PadShape::Polygon { points_m, z_m } => {
            if polygon_turn_sign(points_m).is_none() {
                return Err(TrackError::BadPolygon);
            }
            data.vertices
                .extend(points_m.iter().map(|&(x, y)| DVec3::new(x, y, *z_m)));
            data.index()?;
            #[allow(clippy::cast_possible_truncation)]
            let count = points_m.len() as u32;
            for k in 1..count - 1 {
                data.triangles.push([first, first + k, first + k + 1]);
                data.surfaces.push(surface);
            }
        }
    }
    Ok(())
}

/// Height to cast down from when dropping things onto the ground.
fn top_of(ground: &TriangleMesh) -> f64 {
    ground.bounds().1.z + 10.0
}

fn ground_at(ground: &TriangleMesh, x: f64, y: f64) -> Option<DVec3> {
    ground.height_below(x, y, top_of(ground)).map(|h| h.point)
}

fn place_objects(
    layout: &TrackLayout,
    ground: &TriangleMesh,
) -> Result<Vec<PlacedObject>, TrackError> {
    let mut placed = Vec::new();
    for (index, spec) in layout.objects.iter().enumerate() {
        let mut drop = |kind, group: &str, x: f64, y: f64| -> Result<(), TrackError> {
            let position = ground_at(ground, x, y).ok_or(TrackError::ObjectOffGround {
                index,
                x_m: x,
                y_m: y,
            })?;
            placed.push(PlacedObject {
                kind,
                group: group.to_owned(),
                position,
            });
            Ok(())
        };
        match spec {
            ObjectSpec::Single {
                kind,
                group,
                x_m,
                y_m,
            } => drop(*kind, group, *x_m, *y_m)?,
            ObjectSpec::Ring {
                kind,
                group,
                centre_x_m,
                centre_y_m,
                radius_m,
                count,
            } => {
                for k in 0..*count {
                    let angle = std::f64::consts::TAU * f64::from(k) / f64::from(*count);
                    let (s, c) = angle.sin_cos();
                    drop(
                        *kind,
                        group,
                        centre_x_m + radius_m * c,
                        centre_y_m + radius_m * s,
                    )?;
                }
            }
            ObjectSpec::Row {
                kind,
                group,
                from_x_m,
                from_y_m,
                to_x_m,
                to_y_m,
                count,
            } => {
                for k in 0..*count {
                    let t = f64::from(k) / f64::from(count - 1);
                    drop(
                        *kind,
                        group,
                        from_x_m + (to_x_m - from_x_m) * t,
                        from_y_m + (to_y_m - from_y_m) * t,
                    )?;
                }
            }
            // Roadside rules: carried as data (`RoadsideRules`), placed by the renderer.
            ObjectSpec::BrakingBoards { .. }
            | ObjectSpec::Trees { .. }
            | ObjectSpec::Building { .. } => {}
            ObjectSpec::LaneChangeCones {
                lane_change,
                vehicle_width_m,
                group,
            } => {
                let Some(Reference::LaneChange(course)) = layout
                    .references
                    .iter()
                    .find(|r| matches!(r, Reference::LaneChange(lc) if lc.name == *lane_change))
                else {
                    continue; // Validation has already refused this.
                };
                for (station, lateral) in course.cones(*vehicle_width_m) {
                    let p = course.world_xy(station, lateral);
                    drop(super::ObjectKind::Cone, group, p.x, p.y)?;
                }
            }
        }
    }
    Ok(placed)
}

fn resolve_references(
    layout: &TrackLayout,
    ground: &TriangleMesh,
    centre_line: &CentreLine,
) -> Result<Vec<NamedReference>, TrackError> {
    layout
        .references
        .iter()
        .map(|reference| {
            let name = reference.name().to_owned();
            let off = || TrackError::ReferenceOffGround { name: name.clone() };
            let geometry = match reference {
                Reference::Point { x_m, y_m, .. } => {
                    ReferenceGeometry::Point(ground_at(ground, *x_m, *y_m).ok_or_else(off)?)
                }
                Reference::Line {
                    from_x_m,
                    from_y_m,
                    to_x_m,
                    to_y_m,
                    ..
                } => ReferenceGeometry::Line {
                    from: ground_at(ground, *from_x_m, *from_y_m).ok_or_else(off)?,
                    to: ground_at(ground, *to_x_m, *to_y_m).ok_or_else(off)?,
                },
                Reference::Station { distance_m, .. } => {
                    let s = centre_line.sample_at(*distance_m).ok_or_else(|| {
                        TrackError::StationBeyondEnd {
                            name: name.clone(),
                            distance_m: *distance_m,
                            length_m: centre_line.length_m(),
                        }
                    })?;
                    ReferenceGeometry::Station {
                        distance_m: s.distance_m,
                        left: s.left_edge(),
                        right: s.right_edge(),
                    }
                }
                Reference::Circle {
                    centre_x_m,
                    centre_y_m,
                    radius_m,
                    ..
                } => ReferenceGeometry::Circle {
                    centre: ground_at(ground, *centre_x_m, *centre_y_m).ok_or_else(off)?,
                    radius_m: *radius_m,
                },
                Reference::LaneChange(course) => ReferenceGeometry::LaneChange(course.clone()),
            };
            Ok(NamedReference { name, geometry })
        })
        .collect()
}

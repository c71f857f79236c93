//! The road's triangles when the layout gives a [`CrossSection`](super::CrossSection) per
//! control point: a cross-section, left to right, is the left bands (outermost first), the
//! road's left and right halves (meeting at the centre vertex) and the right bands. The road
//! lies in its banked plane; each band runs horizontally away from the previous edge and rises
//! by its `rise_m`. Widths and rises blend between control points like the road's width; each
//! strip of quads takes the surfaces of the control point it starts from. Bands on the inside
//! of a corner too tight for them are narrowed as the uniform verge bands are.
//!
//! The road is cut across into lanes at most [`MAX_ROAD_LANE_M`] wide. Between two control
//! points whose cross slopes differ the road surface is twisted, and a triangulated twisted
//! quad has a crease along its diagonal whose slope step grows with the quad's width: with
//! the half road (6 m) as one quad, a car on a TORCS track's varying camber met a 0.3-0.5 %
//! grade step every 2 m, a bump every sample at speed.

use glam::DVec3;

use super::TrackError;
use super::build::{MeshData, inside_scales};
use super::centre_line::CentreLine;
use super::cross_section::SideBand;
use super::layout::TrackLayout;
use super::sample_edges::SampleEdges;

/// The widest a lane of road triangles may be (m); see the module docs.
pub const MAX_ROAD_LANE_M: f64 = 1.0;

/// Adds the road and its bands to `data`. `sources` holds, per sample, the control point that
/// starts its spline segment and the blend towards the next (from
/// `CentreLine::from_layout_with_sources`).
pub(super) fn road(
    layout: &TrackLayout,
    centre_line: &CentreLine,
    sources: &[(usize, f64)],
    data: &mut MeshData,
) -> Result<(), TrackError> {
    let samples = centre_line.samples();
    let sections = &layout.cross_sections;
    if samples.len() < 2 || sections.is_empty() || sources.len() != samples.len() {
        return Ok(());
    }
    let (left_count, right_count) = (sections[0].left.len(), sections[0].right.len());
    let extent = sections
        .iter()
        .map(|s| {
            let sum = |bands: &[SideBand]| bands.iter().map(|b| b.width_m).sum::<f64>();
            sum(&s.left).max(sum(&s.right))
        })
        .fold(0.0, f64::max);
    let scales = inside_scales(samples, centre_line, extent);
    let n_points = sections.len();
    let widest = samples.iter().map(|s| s.width_m).fold(0.0, f64::max);
    // Lanes per half road (the widest road sets it for the whole track: rows must match).
    let lanes = lanes_per_half(widest);
    let columns = left_count + right_count + 2 * lanes + 1;
    let first = data.index()?;
    for ((s, scale), &(seg, blend)) in samples.iter().zip(&scales).zip(sources) {
        let a = &sections[seg % n_points];
        let b = &sections[(seg + 1) % n_points];
        let band = |from: &[SideBand], to: &[SideBand], k: usize| {
            let (p, q) = (from[k], to[k]);
            (
                p.width_m + (q.width_m - p.width_m) * blend,
                p.rise_m + (q.rise_m - p.rise_m) * blend,
            )
        };
        let horizontal_left = DVec3::Z.cross(s.tangent).normalize_or(DVec3::Y);
        let half = 0.5 * s.width_m;
        let mut row: Vec<DVec3> = Vec::with_capacity(columns);
        // Left: from the road edge outwards, then reversed so the row runs left to right.
        let mut edge = s.position + s.left * half;
        let mut outward = Vec::with_capacity(left_count);
        for k in 0..left_count {
            let (width, rise) = band(&a.left, &b.left, k);
            edge += horizontal_left * (width * scale[0]) + DVec3::Z * (rise * scale[0]);
            outward.push(edge);
        }
        let left_outer = edge;
        row.extend(outward.iter().rev());
        // The road, left edge to right edge, in its banked plane.
        #[allow(clippy::cast_precision_loss)] // a few lanes
        let lane = half / lanes as f64;
        #[allow(clippy::cast_precision_loss)]
        row.extend((0..=2 * lanes).map(|k| s.position + s.left * (half - lane * k as f64)));
        let mut edge = s.position - s.left * half;
        for k in 0..right_count {
            let (width, rise) = band(&a.right, &b.right, k);
            edge += -horizontal_left * (width * scale[1]) + DVec3::Z * (rise * scale[1]);
            row.push(edge);
        }
        data.edges.push(SampleEdges {
            road: [s.position + s.left * half, s.position - s.left * half],
            outer: [left_outer, edge],
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
        let section = &sections[sources[i].0 % n_points];
        let surfaces = section
            .left
            .iter()
            .rev()
            .map(|b| b.surface)
            .chain(std::iter::repeat_n(section.road_surface, 2 * lanes))
            .chain(section.right.iter().map(|b| b.surface));
        // Indices fit: the vertex count was checked above.
        #[allow(clippy::cast_possible_truncation)]
        let (row_i, row_j) = (first + i as u32 * cols, first + j as u32 * cols);
        for (c, surface) in surfaces.enumerate() {
            #[allow(clippy::cast_possible_truncation)]
            let c = c as u32;
            data.quad(row_i + c, row_i + c + 1, row_j + c, row_j + c + 1, surface);
        }
    }
    Ok(())
}

/// The lanes each half of a road `width_m` wide is cut into (at least one).
fn lanes_per_half(width_m: f64) -> usize {
    let lanes = (0.5 * width_m / MAX_ROAD_LANE_M).ceil();
    // A road is tens of metres wide at most; non-finite widths were refused by validation.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let lanes = lanes.clamp(1.0, 64.0) as usize;
    lanes
}

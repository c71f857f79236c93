//! From a TORCS track file to Gripline's [`TrackLayout`]: the sampled main track becomes the
//! centre line's control points (position, height of the centre, banking, width across the
//! banked road) with a [`CrossSection`] each (the road's surface, then on each side the border
//! and the side beyond it). A kerb-style border rises by its height across its width and drops
//! back over its last 5 cm (two bands), as TORCS draws it; a plan or wall border is flat
//! ground. Sides and borders are level unless the track says they follow the banking.
//!
//! Walls are collision geometry beside the mesh: each side's barrier (a `wall` or a `fence`;
//! none for `no barrier`) stands at the outer edge of the side, as in TORCS, with its height
//! and, for a wall, its width as the thickness behind its face; a `wall`-style border with a
//! height is a wall at the road's edge as high as the border. TORCS's barrier surfaces carry
//! no usable body friction or restitution (their `friction` 0 is a tyre's grip on top of
//! them), so barriers get Gripline's defaults ([`BarrierSpec::wall`]).

use std::path::{Path, PathBuf};

use gripline_physics::track::{
    BarrierKind, BarrierPlacement, BarrierSpec, ControlPoint, CrossSection, SideBand, TrackLayout,
};

use crate::error::TorcsError;
use crate::params::Params;
use crate::track::geometry::{
    BarrierStyle, BorderStyle, MainTrack, SideSample, TrackSample, main_track,
};
use crate::track::surfaces::SurfaceTable;
use crate::xml::read_params;

/// Control points closer than this (horizontally) to the previous one are dropped (m).
const MIN_POINT_GAP_M: f64 = 0.5;
/// Spacing of the ground mesh's rows along the imported centre line (m). Real circuits' hills
/// have vertical radii down to a few hundred metres; a row every metre keeps the grade step
/// at each row (spacing over vertical radius) below 0.3 % there, which a wheel's single
/// contact point meets as a small bump at every row.
const SAMPLE_SPACING_M: f64 = 1.0;
/// Half-width of the window the elevation and banking are smoothed over (m): see
/// [`smooth_profile`].
const PROFILE_SMOOTHING_M: f64 = 5.0;
/// Width over which a kerb drops back to the level of what lies beyond it (m).
const KERB_DROP_M: f64 = 0.05;
/// Barriers and wall borders lower than this are left out (m): nothing a car body meets.
const MIN_WALL_HEIGHT_M: f64 = 0.01;
/// Largest barrier height and thickness a layout takes (m); taller ones are cut to it.
const MAX_WALL_SIZE_M: f64 = 100.0;

/// A TORCS track read and converted.
#[derive(Clone, Debug)]
pub struct ImportedTrack {
    /// The track's name (`Header/name`).
    pub name: String,
    /// Its category (`road`, `oval`, `dirt`).
    pub category: String,
    /// Its author.
    pub author: String,
    /// Its description.
    pub description: String,
    /// The sampled main track, as TORCS builds it.
    pub main: MainTrack,
    /// The surfaces it defines.
    pub surfaces: SurfaceTable,
    /// The layout for Gripline's ground-mesh builder.
    pub layout: TrackLayout,
    /// What could not be carried over exactly (undefined surfaces, walls, a gap where the
    /// track should close).
    pub warnings: Vec<String>,
    /// The files it was read from: the track file, then those it includes.
    pub files: Vec<PathBuf>,
}

/// Reads a TORCS track file and converts it.
///
/// # Errors
/// [`TorcsError`] naming the file and what is wrong.
pub fn import_track(path: &Path) -> Result<ImportedTrack, TorcsError> {
    convert(&read_params(path)?)
}

/// Converts a parsed TORCS track file.
///
/// # Errors
/// [`TorcsError`] naming the file and what is wrong.
pub fn convert(params: &Params) -> Result<ImportedTrack, TorcsError> {
    let header = params.root.section("Header");
    let header_text = |name: &str| -> Result<String, TorcsError> {
        Ok(match header {
            Some(h) => h.text(name)?.unwrap_or_default().to_owned(),
            None => String::new(),
        })
    };
    let mut name = header_text("name")?;
    if name.trim().is_empty() {
        name = params.path.file_stem().map_or_else(
            || "TORCS track".to_owned(),
            |s| s.to_string_lossy().into_owned(),
        );
    }
    let surfaces = SurfaceTable::read(params)?;
    let main = main_track(params)?;
    let mut warnings = params.warnings.clone();
    if main.closure_gap_m > 1.0 || main.closure_heading_rad.abs() > 1f64.to_radians() {
        warnings.push(format!(
            "the main track ends {:.2} m and {:.2} deg from its start; the loop is closed across the gap",
            main.closure_gap_m,
            main.closure_heading_rad.to_degrees()
        ));
    }
    let mut undefined: Vec<&str> = Vec::new();
    for s in &main.samples {
        for name in std::iter::once(s.road_surface.as_str()).chain(
            s.sides
                .iter()
                .flat_map(|side| [side.border_surface.as_str(), side.side_surface.as_str()]),
        ) {
            if surfaces.get(name).is_none() && !undefined.contains(&name) {
                undefined.push(name);
            }
        }
    }
    for name in undefined {
        warnings.push(format!(
            "surface '{name}' is not defined; TORCS's defaults (friction 0.8, rolling resistance 0.001) are used"
        ));
    }

    let kept = keep_spaced(&main.samples);
    let mut centre_line = Vec::with_capacity(kept.len());
    let mut cross_sections = Vec::with_capacity(kept.len());
    for s in kept {
        let (point, section) = cross_section(s, main.width_m, &surfaces);
        centre_line.push(point);
        cross_sections.push(section);
    }
    smooth_profile(&mut centre_line, PROFILE_SMOOTHING_M);
    let layout = TrackLayout {
        closed: true,
        centre_line,
        cross_sections,
        sample_spacing_m: SAMPLE_SPACING_M,
        ..TrackLayout::default()
    };
    Ok(ImportedTrack {
        name,
        category: header_text("category")?,
        author: header_text("author")?,
        description: header_text("description")?,
        main,
        surfaces,
        layout,
        warnings,
        files: params.files(),
    })
}

/// The samples at least [`MIN_POINT_GAP_M`] apart, the last also that far from the first.
fn keep_spaced(samples: &[TrackSample]) -> Vec<&TrackSample> {
    let gap = |a: &TrackSample, b: &TrackSample| (a.x_m - b.x_m).hypot(a.y_m - b.y_m);
    let mut kept: Vec<&TrackSample> = Vec::with_capacity(samples.len());
    for s in samples {
        if kept
            .last()
            .is_none_or(|last| gap(last, s) >= MIN_POINT_GAP_M)
        {
            kept.push(s);
        }
    }
    while kept.len() > 3 && gap(kept[kept.len() - 1], kept[0]) < MIN_POINT_GAP_M {
        kept.pop();
    }
    kept
}

fn cross_section(
    s: &TrackSample,
    width_m: f64,
    surfaces: &SurfaceTable,
) -> (ControlPoint, CrossSection) {
    let dz = s.z_left_m - s.z_right_m;
    let bank = dz.atan2(width_m);
    let point = ControlPoint {
        x_m: s.x_m,
        y_m: s.y_m,
        z_m: 0.5 * (s.z_left_m + s.z_right_m),
        banking_deg: bank.to_degrees(),
        // The edges lie `width_m` apart horizontally, as in TORCS.
        width_m: width_m.hypot(dz),
    };
    // Index 0 is the right side, 1 the left; the banking raises the left.
    let bands = |side: usize| -> Vec<SideBand> {
        let part = &s.sides[side];
        let outward_slope = if part.tangent_banking {
            if side == 1 { bank.tan() } else { -bank.tan() }
        } else {
            0.0
        };
        let bw = part.border_width_m;
        let drop = KERB_DROP_M.min(0.5 * bw);
        let kerb = if part.border_style == BorderStyle::Curb {
            part.border_height_m
        } else {
            0.0
        };
        let border_surface = surfaces.map(&part.border_surface, Some(part.border_style));
        vec![
            SideBand {
                surface: border_surface,
                width_m: bw - drop,
                rise_m: outward_slope * (bw - drop) + kerb,
            },
            SideBand {
                surface: border_surface,
                width_m: drop,
                rise_m: outward_slope * drop - kerb,
            },
            SideBand {
                surface: surfaces.map(&part.side_surface, None),
                width_m: part.side_width_m,
                rise_m: outward_slope * part.side_width_m,
            },
        ]
    };
    (
        point,
        CrossSection {
            road_surface: surfaces.map(&s.road_surface, None),
            left: bands(1),
            right: bands(0),
            left_barriers: barriers(&s.sides[1]),
            right_barriers: barriers(&s.sides[0]),
        },
    )
}

/// Smooths the heights and banking of a closed loop of control points with a triangular
/// window `half_width_m` each side (by horizontal distance along the loop).
///
/// TORCS builds a segment's elevation from straight pieces ("profil steps"), so the grade
/// changes in steps of about 0.25 % every few metres on its hills. A tyre touching the ground
/// at one point meets each step as a kick of its vertical damper, and at the steps' spacing
/// a car at 45 m/s is shaken at its wheel-hop frequency (25 Hz) and can be thrown off line.
/// Averaging over 10 m moves heights by about a millimetre (a grade step `g` over spacing
/// `s` moves the averaged line by about `g s / 8`) and removes the steps.
fn smooth_profile(points: &mut [ControlPoint], half_width_m: f64) {
    let n = points.len();
    if n < 3 || half_width_m <= 0.0 {
        return;
    }
    let gap = |i: usize| {
        let (a, b) = (&points[i], &points[(i + 1) % n]);
        (b.x_m - a.x_m).hypot(b.y_m - a.y_m)
    };
    let gaps: Vec<f64> = (0..n).map(gap).collect();
    let original: Vec<(f64, f64)> = points.iter().map(|p| (p.z_m, p.banking_deg)).collect();
    for (i, point) in points.iter_mut().enumerate() {
        let (mut sum_w, mut sum_z, mut sum_bank) = (1.0, original[i].0, original[i].1);
        for direction in [1_isize, -1] {
            let mut distance = 0.0;
            let mut j = i;
            for _ in 0..n {
                let step = if direction > 0 {
                    gaps[j]
                } else {
                    gaps[(j + n - 1) % n]
                };
                j = (j.cast_signed() + direction)
                    .rem_euclid(n.cast_signed())
                    .cast_unsigned();
                distance += step;
                if distance >= half_width_m {
                    break;
                }
                let w = 1.0 - distance / half_width_m;
                sum_w += w;
                sum_z += w * original[j].0;
                sum_bank += w * original[j].1;
            }
        }
        point.z_m = sum_z / sum_w;
        point.banking_deg = sum_bank / sum_w;
    }
}

/// The barriers of one side: its barrier at the outer edge, and a wall border at the road's.
fn barriers(side: &SideSample) -> Vec<BarrierSpec> {
    let mut out = Vec::new();
    let b = &side.barrier;
    let kind = match b.style {
        BarrierStyle::None => None,
        BarrierStyle::Wall => Some(BarrierKind::Wall),
        BarrierStyle::Fence => Some(BarrierKind::Fence),
    };
    if let Some(kind) = kind
        && b.height_m >= MIN_WALL_HEIGHT_M
    {
        out.push(BarrierSpec {
            kind,
            thickness_m: b.width_m.min(MAX_WALL_SIZE_M),
            ..BarrierSpec::wall(b.height_m.min(MAX_WALL_SIZE_M))
        });
    }
    if side.border_style == BorderStyle::Wall
        && side.border_width_m > 0.0
        && side.border_height_m >= MIN_WALL_HEIGHT_M
    {
        out.push(BarrierSpec {
            placement: BarrierPlacement::RoadEdge,
            thickness_m: side.border_width_m.min(MAX_WALL_SIZE_M),
            ..BarrierSpec::wall(side.border_height_m.min(MAX_WALL_SIZE_M))
        });
    }
    out
}

//! The main track of a TORCS file as TORCS builds it (`track4.cpp`, track version 4), sampled
//! about every 2 m: the centre line's position, heading, left and right edge heights, and the
//! borders and sides on each side.
//!
//! TORCS's conventions, followed here: the track starts with its right edge at the origin,
//! heading east (+x), so its centre is at `(0, width/2)`; headings turn counter-clockwise
//! (`lft` turns left). A segment is cut into "profile steps" (`profil steps`, or one step per
//! `profil steps length`, plus one); each step is a straight or a constant-radius arc. An arc's
//! `radius` is that of the centre line. A spiral (`end radius` differing from `radius`) changes
//! its radius linearly from step to step, each step's length scaled so that the steps turn
//! through `arc` in all; with a single step TORCS turns by length / radius, where the length is
//! `(radius + end radius) / 2 * arc`. Heights: `z start`/`z end` (or their left and right
//! variants, or `grade`), then banking (`banking start`/`banking end`) tilts the section about
//! the centre; along a segment each edge follows a cubic Hermite spline between its end
//! heights with the profile tangents (`profil start tangent`...), linear within each step.
//! Values not given carry over from the previous segment (heights, tangents, grade, widths,
//! surfaces, styles), as in TORCS. Borders lie next to the road, sides beyond them; a side's
//! width changes linearly from `start width` to `end width`; sides and borders are level, or
//! follow the road's banking when the main track's side has `banking type` other than `level`.
//! Barriers (`Left Barrier`, `Right Barrier`) carry over the same way; TORCS gives every
//! track one on each side (a 0.6 m `fence` of surface `barrier` unless the file says
//! otherwise) and places it at the outer edge of the outermost side (`AddSides` in
//! `track4.cpp`); a `wall` has a width (0.5 m unless given) beyond that edge, a `fence` none.
//! Speed Dreams's style `no barrier` leaves a side open.

use std::f64::consts::TAU;

use crate::error::TorcsError;
use crate::params::{Params, Section};
use crate::track::bounds::{Step, StepSide, TorcsBounds};

/// Largest distance between samples (m).
pub const SAMPLE_SPACING_M: f64 = 2.0;

/// How a border is shaped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BorderStyle {
    /// Flat.
    Plan,
    /// A kerb: rising by its height across its width.
    Curb,
    /// A wall (its height is not part of the ground here).
    Wall,
}

/// What stands at the outer edge of a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BarrierStyle {
    /// Nothing (Speed Dreams's `no barrier`).
    None,
    /// A wall with a width.
    Wall,
    /// A fence, without width.
    Fence,
}

/// The barrier at the outer edge of a side.
#[derive(Clone, Debug, PartialEq)]
pub struct BarrierSample {
    /// Its style.
    pub style: BarrierStyle,
    /// Its width beyond the side's edge (m); zero for a fence.
    pub width_m: f64,
    /// Its height (m).
    pub height_m: f64,
    /// Its surface's name.
    pub surface: String,
}

/// TORCS's barrier height when a file gives none (m).
pub const DEFAULT_BARRIER_HEIGHT_M: f64 = 0.6;
/// TORCS's wall width when a file gives none (m).
pub const DEFAULT_WALL_WIDTH_M: f64 = 0.5;

/// A border and a side at one sample.
#[derive(Clone, Debug, PartialEq)]
pub struct SideSample {
    /// Width of the border next to the road (m).
    pub border_width_m: f64,
    /// Height of the border (m).
    pub border_height_m: f64,
    /// The border's style.
    pub border_style: BorderStyle,
    /// Surface name of the border.
    pub border_surface: String,
    /// Width of the side beyond the border (m).
    pub side_width_m: f64,
    /// Surface name of the side.
    pub side_surface: String,
    /// Whether border and side follow the road's banking (else they are level).
    pub tangent_banking: bool,
    /// The barrier beyond the side.
    pub barrier: BarrierSample,
}

/// One cross-section of the main track.
#[derive(Clone, Debug, PartialEq)]
pub struct TrackSample {
    /// East of the centre line (m).
    pub x_m: f64,
    /// North of the centre line (m).
    pub y_m: f64,
    /// Heading, counter-clockwise from east (rad).
    pub heading_rad: f64,
    /// Height of the left road edge (m).
    pub z_left_m: f64,
    /// Height of the right road edge (m).
    pub z_right_m: f64,
    /// Distance along the centre line from the start (m).
    pub distance_m: f64,
    /// Surface name of the road.
    pub road_surface: String,
    /// The name of the segment it belongs to.
    pub segment: String,
    /// Right (0) and left (1) border and side.
    pub sides: [SideSample; 2],
}

/// The sampled main track.
#[derive(Clone, Debug, PartialEq)]
pub struct MainTrack {
    /// Road width (m), the same all round in TORCS.
    pub width_m: f64,
    /// Samples from the start line, in driving order (the end joins the start).
    pub samples: Vec<TrackSample>,
    /// Length of the centre line as TORCS computes it: the sum of its steps (m).
    pub length_m: f64,
    /// Horizontal distance between where the last segment ends and the start (m).
    pub closure_gap_m: f64,
    /// Heading difference between the end and the start (rad, within ±pi).
    pub closure_heading_rad: f64,
    /// The lower corner of TORCS's bounding box of the track (m), which TORCS moves the track
    /// and its scene by (see `super::bounds`).
    pub torcs_lower_corner_m: [f64; 3],
}

/// Sticky values of one side (TORCS carries them from segment to segment).
#[derive(Clone)]
struct SideState {
    side_start_m: f64,
    side_end_m: f64,
    side_surface: String,
    border_width_m: f64,
    border_height_m: f64,
    border_style: BorderStyle,
    border_surface: String,
    tangent: bool,
    barrier: BarrierSample,
}

const SIDE_NAMES: [&str; 2] = ["Right Side", "Left Side"];
const BORDER_NAMES: [&str; 2] = ["Right Border", "Left Border"];
const BARRIER_NAMES: [&str; 2] = ["Right Barrier", "Left Barrier"];

/// The barrier after a `Barrier` section: values it gives replace `previous`'s, a `wall`
/// keeps its width (or takes `wall_width_m` when the previous was a fence), a fence has none.
fn barrier_of(
    section: &Section,
    previous: &BarrierSample,
    wall_width_m: f64,
) -> Result<BarrierSample, TorcsError> {
    let style = match section.text("style")? {
        Some("fence") => BarrierStyle::Fence,
        Some("no barrier") => BarrierStyle::None,
        Some(_) => BarrierStyle::Wall,
        None => previous.style,
    };
    let width_m = match style {
        BarrierStyle::Wall => num(section, "width", wall_width_m)?,
        BarrierStyle::Fence | BarrierStyle::None => 0.0,
    };
    let height_m = num(section, "height", previous.height_m)?;
    if !((0.0..=1000.0).contains(&width_m) && (0.0..=1000.0).contains(&height_m)) {
        return Err(section.error(format!(
            "a barrier's width and height must be between 0 and 1000 m (are {width_m} m and {height_m} m)"
        )));
    }
    Ok(BarrierSample {
        style,
        width_m,
        height_m,
        surface: text(section, "surface", &previous.surface)?,
    })
}

fn style_of(s: &str) -> BorderStyle {
    match s {
        "plan" => BorderStyle::Plan,
        "curb" => BorderStyle::Curb,
        _ => BorderStyle::Wall,
    }
}

fn num(section: &Section, name: &str, default: f64) -> Result<f64, TorcsError> {
    Ok(section.number(name)?.unwrap_or(default))
}

fn text(section: &Section, name: &str, default: &str) -> Result<String, TorcsError> {
    Ok(section.text(name)?.unwrap_or(default).to_owned())
}

/// TORCS's cubic Hermite spline between `p0` and `p1` with end tangents `t0`, `t1`.
fn hermite(p0: f64, p1: f64, t0: f64, t1: f64, t: f64) -> f64 {
    let (t2, t3) = (t * t, t * t * t);
    (2.0 * t3 - 3.0 * t2 + 1.0) * p0
        + (-2.0 * t3 + 3.0 * t2) * p1
        + (t3 - 2.0 * t2 + t) * t0
        + (t3 - t2) * t1
}

/// How many profile steps a segment of `length_m` has.
///
/// # Errors
/// A step count that is text or absurdly large.
pub fn profile_steps(
    segment: &Section,
    length_m: f64,
    global_step_m: f64,
) -> Result<usize, TorcsError> {
    let steps = num(segment, "profil steps", 1.0)?;
    if steps > 1.0 {
        // As TORCS's (int) cast; a huge count is refused rather than allocated.
        return if steps <= 100_000.0 {
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            Ok(steps as usize)
        } else {
            Err(segment.error(format!("'profil steps' of {steps} is too many")))
        };
    }
    let step = num(segment, "profil steps length", global_step_m)?;
    if step > 0.0 {
        let n = (length_m / step).floor() + 1.0;
        if !(1.0..=100_000.0).contains(&n) {
            return Err(segment.error(format!(
                "'profil steps length' of {step} m gives {n} steps for {length_m} m"
            )));
        }
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        Ok(n as usize)
    } else {
        Ok(1)
    }
}

/// Builds and samples the main track of `params`.
///
/// # Errors
/// [`TorcsError`] naming the file and the section when the main track is missing or a
/// segment makes no sense (an unknown type, a negative length, a turn without a radius).
pub fn main_track(params: &Params) -> Result<MainTrack, TorcsError> {
    let missing = |what: &str| TorcsError::Track {
        path: params.path.clone(),
        message: format!("no '{what}' section: not a TORCS track file"),
    };
    let main = params
        .root
        .section("Main Track")
        .ok_or_else(|| missing("Main Track"))?;
    // Track version 4 lists its segments in "Track Segments" with "Left Side"... sections;
    // version 3 (TORCS's track3.cpp) in "segments", with "lside width"... attributes and no
    // borders.
    let (list, v3) = match (main.section("Track Segments"), main.section("segments")) {
        (Some(list), _) => (list, false),
        (None, Some(list)) => (list, true),
        (None, None) => return Err(missing("Main Track/Track Segments")),
    };
    let v3_prefix = ["rside", "lside"];
    let width = num(main, "width", 15.0)?;
    if !(width > 0.0 && width < 1000.0) {
        return Err(main.error(format!("the track width must be positive (is {width} m)")));
    }
    let global_step = num(main, "profil steps length", 0.0)?;
    let mut road_surface = text(main, "surface", "asphalt")?;
    let mut sides: Vec<SideState> = Vec::with_capacity(2);
    let default_barrier = BarrierSample {
        style: BarrierStyle::Fence,
        width_m: 0.0,
        height_m: DEFAULT_BARRIER_HEIGHT_M,
        surface: "barrier".to_owned(),
    };
    for side in 0..2 {
        let empty = Section {
            name: String::new(),
            file: main.file.clone(),
            line: main.line,
            attributes: Vec::new(),
            sections: Vec::new(),
        };
        if v3 {
            let p = v3_prefix[side];
            let side_width = num(main, &format!("{p} width"), 0.0)?;
            sides.push(SideState {
                side_start_m: side_width,
                side_end_m: side_width,
                side_surface: text(main, &format!("{p} surface"), "grass")?,
                border_width_m: 0.0,
                border_height_m: 0.0,
                border_style: BorderStyle::Plan,
                border_surface: "grass".to_owned(),
                tangent: text(main, &format!("{p} type"), "level")? != "level",
                barrier: default_barrier.clone(),
            });
            continue;
        }
        let s = main.section(SIDE_NAMES[side]).unwrap_or(&empty);
        let b = main.section(BORDER_NAMES[side]).unwrap_or(&empty);
        let barrier = barrier_of(
            main.section(BARRIER_NAMES[side]).unwrap_or(&empty),
            &default_barrier,
            DEFAULT_WALL_WIDTH_M,
        )?;
        let side_width = num(s, "width", 0.0)?;
        sides.push(SideState {
            side_start_m: side_width,
            side_end_m: side_width,
            side_surface: text(s, "surface", "grass")?,
            border_width_m: num(b, "width", 0.0)?,
            border_height_m: num(b, "height", 0.0)?,
            border_style: style_of(&text(b, "style", "plan")?),
            border_surface: text(b, "surface", "grass")?,
            tangent: text(s, "banking type", "level")? != "level",
            barrier,
        });
    }

    let (mut x, mut y, mut heading) = (0.0_f64, 0.5 * width, 0.0_f64);
    let (mut zel, mut zer) = (0.0_f64, 0.0_f64);
    let (mut etgtl, mut etgtr) = (0.0_f64, 0.0_f64);
    let mut grade: Option<f64> = None;
    let mut distance = 0.0;
    let mut samples = Vec::new();
    let mut bounds = TorcsBounds::new();
    for seg in &list.sections {
        let Some(kind) = seg.text("type")? else {
            continue; // TORCS skips an entry without a type.
        };
        road_surface = text(seg, "surface", &road_surface)?;
        let (length, turn, mut radius, radius_end, arc) = match kind {
            "str" => (num(seg, "lg", 0.0)?, 0.0, 0.0, 0.0, 0.0),
            "lft" | "rgt" => {
                let r = num(seg, "radius", 0.0)?;
                let re = num(seg, "end radius", r)?;
                let arc = num(seg, "arc", 0.0)?;
                if !(r > 0.0 && re > 0.0) && arc != 0.0 {
                    return Err(seg.error(format!(
                        "a turn needs a positive radius and end radius (has {r} m and {re} m)"
                    )));
                }
                let sign = if kind == "lft" { 1.0 } else { -1.0 };
                (f64::midpoint(r, re) * arc, sign, r, re, arc)
            }
            other => {
                return Err(seg.error(format!(
                    "unknown segment type '{other}' (expected str, lft or rgt)"
                )));
            }
        };
        if !(length.is_finite() && (0.0..=100_000.0).contains(&length)) {
            return Err(seg.error(format!(
                "the segment's length must be between 0 and 100 km (is {length} m)"
            )));
        }

        // Heights and banking.
        let mut zsl = zel;
        let mut zsr = zer;
        bounds.add_z(zsl);
        bounds.add_z(zsr);
        zsl = num(seg, "z start left", zsl)?;
        zsr = num(seg, "z start right", zsr)?;
        zel = num(seg, "z end left", zel)?;
        zer = num(seg, "z end right", zer)?;
        grade = seg.number("grade")?.or(grade);
        let zs = match seg.number("z start")? {
            Some(zs) => {
                zsl = zs;
                zsr = zs;
                zs
            }
            None => f64::midpoint(zsl, zsr),
        };
        let ze = match (seg.number("z end")?, grade) {
            (Some(ze), _) => {
                zel = ze;
                zer = ze;
                ze
            }
            (None, Some(g)) => zs + length * g,
            (None, None) => f64::midpoint(zel, zer),
        };
        let bank_start = num(seg, "banking start", (zsl - zsr).atan2(width))?;
        let bank_end = num(seg, "banking end", (zel - zer).atan2(width))?;
        zsl = zs + bank_start.tan() * width / 2.0;
        zsr = zs - bank_start.tan() * width / 2.0;
        zel = ze + bank_end.tan() * width / 2.0;
        zer = ze - bank_end.tan() * width / 2.0;
        bounds.add_z(zsl);
        bounds.add_z(zsr);

        // Profile.
        let mut stgtl = etgtl;
        let mut stgtr = etgtr;
        let steps;
        if text(seg, "profil", "spline")? == "spline" {
            steps = profile_steps(seg, length, global_step)?;
            stgtl = num(seg, "profil start tangent left", stgtl)?;
            etgtl = num(seg, "profil end tangent left", etgtl)?;
            stgtr = num(seg, "profil start tangent right", stgtr)?;
            etgtr = num(seg, "profil end tangent right", etgtr)?;
            if let Some(t) = seg.number("profil start tangent")? {
                stgtl = t;
                stgtr = t;
            }
            if let Some(t) = seg.number("profil end tangent")? {
                etgtl = t;
                etgtr = t;
            }
        } else {
            steps = 1;
            let safe = if length > 0.0 { length } else { 1.0 };
            stgtl = (zel - zsl) / safe;
            etgtl = stgtl;
            stgtr = (zer - zsr) / safe;
            etgtr = stgtr;
        }

        // Sides of this segment.
        for (side, state) in sides.iter_mut().enumerate() {
            if v3 {
                let p = v3_prefix[side];
                let sw = num(seg, &format!("{p} start width"), state.side_end_m)?;
                let w = num(seg, &format!("{p} width"), sw)?;
                state.side_start_m = sw;
                state.side_end_m = num(seg, &format!("{p} end width"), w)?;
                state.side_surface = text(seg, &format!("{p} surface"), &state.side_surface)?;
            } else if let Some(s) = seg.section(SIDE_NAMES[side]) {
                let sw = num(s, "start width", state.side_end_m)?;
                let w = num(s, "width", sw)?;
                state.side_start_m = sw;
                state.side_end_m = num(s, "end width", w)?;
                state.side_surface = text(s, "surface", &state.side_surface)?;
            } else {
                state.side_start_m = state.side_end_m;
            }
            if let Some(b) = seg.section(BORDER_NAMES[side]) {
                state.border_width_m = num(b, "width", state.border_width_m)?;
                state.border_height_m = num(b, "height", state.border_height_m)?;
                state.border_surface = text(b, "surface", &state.border_surface)?;
                if let Some(style) = b.text("style")? {
                    state.border_style = style_of(style);
                }
            }
            if !v3 && let Some(b) = seg.section(BARRIER_NAMES[side]) {
                let width = state.barrier.width_m;
                state.barrier = barrier_of(b, &state.barrier, width)?;
            }
            for w in [state.side_start_m, state.side_end_m, state.border_width_m] {
                if !(0.0..=1000.0).contains(&w) {
                    return Err(seg.error(format!(
                        "{} and {} widths must be between 0 and 1000 m (one is {w} m)",
                        BORDER_NAMES[side], SIDE_NAMES[side]
                    )));
                }
            }
        }

        // Steps.
        let n = steps as f64;
        let mut step_length = length / n;
        let mut step_arc = arc / n;
        let mut dradius = (radius_end - radius) / n;
        if turn != 0.0 && (radius_end - radius).abs() > 0.0 && steps > 1 {
            dradius = (radius_end - radius) / (n - 1.0);
            let turned: f64 = (0..steps)
                .map(|k| step_length / (radius + k as f64 * dradius))
                .sum();
            if turned > 0.0 {
                step_length *= arc / turned;
            }
        }
        let (t1l, t2l, t1r, t2r) = (
            stgtl * length,
            etgtl * length,
            stgtr * length,
            etgtr * length,
        );
        let (mut cur_zl, mut cur_zr) = (zsl, zsr);
        for k in 0..steps {
            let t = (k + 1) as f64 / n;
            let (start_zl, start_zr) = (cur_zl, cur_zr);
            cur_zl = hermite(zsl, zel, t1l, t2l, t);
            cur_zr = hermite(zsr, zer, t1r, t2r, t);
            if turn != 0.0 && dradius != 0.0 {
                step_arc = step_length / radius;
            }
            bounds.add_step(
                &Step {
                    centre: [x, y],
                    heading_rad: heading,
                    turn,
                    radius_m: radius,
                    arc_rad: step_arc,
                    length_m: step_length,
                    width_m: width,
                    end_z_m: [cur_zr, cur_zl],
                },
                &[0, 1].map(|side| {
                    let state = &sides[side];
                    let kew = (state.side_end_m - state.side_start_m) / n;
                    let sw = state.side_start_m + k as f64 * kew;
                    StepSide {
                        border_m: state.border_width_m,
                        side_m: [sw, sw + kew],
                        tangent: state.tangent,
                    }
                }),
            );
            let pieces = (step_length / SAMPLE_SPACING_M).ceil().max(1.0);
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let pieces_n = pieces as usize;
            for p in 0..pieces_n {
                let f = p as f64 / pieces;
                let s = step_length * f;
                let (px, py, ph) = if turn == 0.0 {
                    (x + s * heading.cos(), y + s * heading.sin(), heading)
                } else {
                    let h = heading + turn * step_arc * f;
                    let (cx, cy) = (
                        x - turn * radius * heading.sin(),
                        y + turn * radius * heading.cos(),
                    );
                    (
                        cx + turn * radius * h.sin(),
                        cy - turn * radius * h.cos(),
                        h,
                    )
                };
                if step_length <= 0.0 && p > 0 {
                    break;
                }
                let side_at = |state: &SideState| {
                    let kew = (state.side_end_m - state.side_start_m) / n;
                    let sw = state.side_start_m + k as f64 * kew;
                    SideSample {
                        border_width_m: state.border_width_m,
                        border_height_m: state.border_height_m,
                        border_style: state.border_style,
                        border_surface: state.border_surface.clone(),
                        side_width_m: sw + kew * f,
                        side_surface: state.side_surface.clone(),
                        tangent_banking: state.tangent,
                        barrier: state.barrier.clone(),
                    }
                };
                if step_length > 0.0 {
                    samples.push(TrackSample {
                        x_m: px,
                        y_m: py,
                        heading_rad: ph,
                        z_left_m: start_zl + (cur_zl - start_zl) * f,
                        z_right_m: start_zr + (cur_zr - start_zr) * f,
                        distance_m: distance + s,
                        road_surface: road_surface.clone(),
                        segment: seg.name.clone(),
                        sides: [side_at(&sides[0]), side_at(&sides[1])],
                    });
                }
            }
            // Advance to the end of the step.
            if turn == 0.0 {
                x += step_length * heading.cos();
                y += step_length * heading.sin();
            } else {
                let (cx, cy) = (
                    x - turn * radius * heading.sin(),
                    y + turn * radius * heading.cos(),
                );
                heading += turn * step_arc;
                x = cx + turn * radius * heading.sin();
                y = cy - turn * radius * heading.cos();
                radius += dradius;
            }
            distance += step_length;
        }
        zel = cur_zl;
        zer = cur_zr;
    }
    if samples.len() < 3 {
        return Err(
            list.error("the main track has fewer than three samples (no segments with length?)")
        );
    }
    let closure_gap_m = (x - 0.0).hypot(y - 0.5 * width);
    let closure_heading_rad =
        (heading + std::f64::consts::PI).rem_euclid(TAU) - std::f64::consts::PI;
    Ok(MainTrack {
        width_m: width,
        samples,
        length_m: distance,
        closure_gap_m,
        closure_heading_rad,
        torcs_lower_corner_m: bounds.lower(),
    })
}

//! Drawing of the settings screen's bars and graphs with egui's painter.
//!
//! The response curve is evaluated with the sim's own [`AxisMap`], so the graph shows
//! exactly what the car will get. Graphs are large (the screen is used from a seat, a metre
//! from the monitor) and use few, strong colours.

use egui::{Align2, Color32, FontId, Pos2, Rect, Sense, Shape, Stroke, StrokeKind, Ui, Vec2, pos2};
use gripline_input::calibration::AxisMap;
use gripline_input::device::AxisRange;
use gripline_input::settings::axis_calibration::AxisCalibration;

use gripline_input::setup::live_input::{FfbSample, HISTORY_SPAN, History};

/// Colour of raw values.
pub const RAW_COLOUR: Color32 = Color32::from_rgb(120, 160, 255);
/// Colour of calibrated values.
pub const CAL_COLOUR: Color32 = Color32::from_rgb(90, 220, 120);
/// Colour of warnings and clipping.
pub const WARN_COLOUR: Color32 = Color32::from_rgb(240, 80, 60);
/// Colour of the live point.
pub const LIVE_COLOUR: Color32 = Color32::from_rgb(255, 200, 40);
const GRID: Color32 = Color32::from_gray(70);
const BACKGROUND: Color32 = Color32::from_gray(22);

/// Maps data coordinates into a screen rectangle.
#[derive(Clone, Copy, Debug)]
struct Frame {
    rect: Rect,
    x: (f64, f64),
    y: (f64, f64),
}

impl Frame {
    fn pos(&self, x: f64, y: f64) -> Pos2 {
        let fx = ((x - self.x.0) / (self.x.1 - self.x.0)).clamp(0.0, 1.0);
        let fy = ((y - self.y.0) / (self.y.1 - self.y.0)).clamp(0.0, 1.0);
        // Screen coordinates are f32; the loss of precision is far below a pixel.
        #[allow(clippy::cast_possible_truncation)]
        pos2(
            self.rect.left() + self.rect.width() * fx as f32,
            self.rect.bottom() - self.rect.height() * fy as f32,
        )
    }
}

fn background(ui: &Ui, rect: Rect) {
    let p = ui.painter();
    p.rect_filled(rect, 4.0, BACKGROUND);
    p.rect_stroke(rect, 4.0, Stroke::new(1.0, GRID), StrokeKind::Inside);
}

/// A horizontal bar of `value` (0..1, or -1..1 when `centred`) with `text` on it.
pub fn value_bar(ui: &mut Ui, value: f64, centred: bool, colour: Color32, text: &str) {
    let size = Vec2::new(ui.available_width().clamp(120.0, 300.0), 22.0);
    let (rect, _) = ui.allocate_exact_size(size, Sense::hover());
    background(ui, rect);
    let v = if value.is_finite() { value } else { 0.0 };
    let f = Frame {
        rect,
        x: if centred { (-1.0, 1.0) } else { (0.0, 1.0) },
        y: (0.0, 1.0),
    };
    let from = f.pos(0.0, 0.0).x;
    let to = f.pos(v, 0.0).x;
    let bar = Rect::from_x_y_ranges(from.min(to)..=from.max(to), rect.y_range())
        .shrink2(Vec2::new(0.0, 2.0));
    ui.painter().rect_filled(bar, 2.0, colour);
    if centred {
        ui.painter().line_segment(
            [pos2(from, rect.top()), pos2(from, rect.bottom())],
            Stroke::new(1.0, Color32::WHITE),
        );
    }
    ui.painter().text(
        rect.center(),
        Align2::CENTER_CENTER,
        text,
        FontId::proportional(14.0),
        Color32::WHITE,
    );
}

/// A graph of an axis's last [`HISTORY_SPAN`]: raw position (blue) and calibrated value
/// (green), against time, ending at `now`.
pub fn axis_history(
    ui: &mut Ui,
    size: Vec2,
    history: &History<i32>,
    range: AxisRange,
    map: Option<(&AxisMap, bool)>,
    now: std::time::Duration,
) {
    let (rect, _) = ui.allocate_exact_size(size, Sense::hover());
    background(ui, rect);
    let span = HISTORY_SPAN.as_secs_f64();
    let t0 = now.as_secs_f64() - span;
    let centred = map.is_some_and(|(_, c)| c);
    let f = Frame {
        rect: rect.shrink(3.0),
        x: (t0, t0 + span),
        y: if centred { (-1.0, 1.0) } else { (0.0, 1.0) },
    };
    if centred {
        ui.painter().line_segment(
            [f.pos(t0, 0.0), f.pos(t0 + span, 0.0)],
            Stroke::new(1.0, GRID),
        );
    }
    let raw: Vec<Pos2> = history
        .iter()
        .map(|(t, v)| {
            let fr = gripline_input::setup::live_input::fraction(*v, range);
            let y = if centred { 2.0 * fr - 1.0 } else { fr };
            f.pos(t.as_secs_f64(), y)
        })
        .collect();
    if raw.len() >= 2 {
        ui.painter()
            .add(Shape::line(raw, Stroke::new(1.5, RAW_COLOUR)));
    }
    if let Some((m, _)) = map {
        let cal: Vec<Pos2> = history
            .iter()
            .map(|(t, v)| f.pos(t.as_secs_f64(), m.map_raw(*v, Some(range))))
            .collect();
        if cal.len() >= 2 {
            ui.painter()
                .add(Shape::line(cal, Stroke::new(2.0, CAL_COLOUR)));
        }
    }
}

/// Travel of `raw` before shaping, as the sim computes it: position in the range (around
/// the centre when `centred`), then invert. 0..1, or -1..1 when centred.
pub fn travel(cal: &AxisCalibration, raw: f64, range: (f64, f64), centred: bool) -> f64 {
    let (lo, hi) = range;
    if hi <= lo || !raw.is_finite() {
        return 0.0;
    }
    let raw = raw.clamp(lo, hi);
    if centred {
        let mut c = cal.centre.map_or(0.5 * (lo + hi), f64::from);
        if !(c > lo && c < hi) {
            c = 0.5 * (lo + hi);
        }
        let s = if raw >= c {
            (raw - c) / (hi - c)
        } else {
            -(c - raw) / (c - lo)
        };
        if cal.invert { -s } else { s }
    } else {
        let t = (raw - lo) / (hi - lo);
        if cal.invert { 1.0 - t } else { t }
    }
}

/// The range the calibration uses: its captured range, else the device's.
pub fn effective_range(cal: &AxisCalibration, device: Option<AxisRange>) -> (f64, f64) {
    if let Some(r) = cal.raw_range
        && r.max > r.min
    {
        return (f64::from(r.min), f64::from(r.max));
    }
    match device {
        Some(r) if r.max > r.min => (f64::from(r.min), f64::from(r.max)),
        _ => (0.0, 65535.0),
    }
}

/// The response-curve graph: input travel (x) to control output (y) through the sim's
/// [`AxisMap`], with the dead zone and saturation shaded and the live value as a dot.
pub fn response_curve(
    ui: &mut Ui,
    size: Vec2,
    cal: &AxisCalibration,
    centred: bool,
    device_range: Option<AxisRange>,
    live_raw: Option<i32>,
) {
    let (rect, _) = ui.allocate_exact_size(size, Sense::hover());
    background(ui, rect);
    let plot = rect.shrink2(Vec2::new(36.0, 22.0));
    let lo_x = if centred { -1.0 } else { 0.0 };
    let f = Frame {
        rect: plot,
        x: (lo_x, 1.0),
        y: (lo_x, 1.0),
    };
    let p = ui.painter();
    // Dead zone and saturation bands (fractions of one side's travel).
    let dz = cal.dead_zone.clamp(0.0, 0.5);
    let sat = cal.saturation.clamp(0.0, 0.5);
    let band = |a: f64, b: f64, colour: Color32| {
        let r = Rect::from_two_pos(f.pos(a, lo_x), f.pos(b, 1.0));
        p.rect_filled(r, 0.0, colour);
    };
    let dz_colour = Color32::from_rgba_unmultiplied(240, 80, 60, 40);
    let sat_colour = Color32::from_rgba_unmultiplied(120, 160, 255, 40);
    if centred {
        band(-dz, dz, dz_colour);
        band(-1.0, -1.0 + sat, sat_colour);
    } else {
        band(0.0, dz, dz_colour);
    }
    band(1.0 - sat, 1.0, sat_colour);
    // Grid.
    for i in 0..=4 {
        let v = lo_x + (1.0 - lo_x) * f64::from(i) / 4.0;
        p.line_segment([f.pos(v, lo_x), f.pos(v, 1.0)], Stroke::new(1.0, GRID));
        p.line_segment([f.pos(lo_x, v), f.pos(1.0, v)], Stroke::new(1.0, GRID));
        p.text(
            f.pos(v, lo_x) + Vec2::new(0.0, 4.0),
            Align2::CENTER_TOP,
            format!("{:.0}%", v * 100.0),
            FontId::proportional(11.0),
            Color32::GRAY,
        );
        p.text(
            f.pos(lo_x, v) - Vec2::new(4.0, 0.0),
            Align2::RIGHT_CENTER,
            format!("{:.0}%", v * 100.0),
            FontId::proportional(11.0),
            Color32::GRAY,
        );
    }
    // The curve, sampled over the raw range through the sim's own map.
    let map = AxisMap::new(cal, centred);
    let range = effective_range(cal, device_range);
    let dev = match device_range {
        Some(r) if r.max > r.min => Some(r),
        _ => Some(AxisRange::new(0, 65535)),
    };
    let mut pts: Vec<(f64, f64)> = (0..=400)
        .map(|i| {
            let raw = range.0 + (range.1 - range.0) * f64::from(i) / 400.0;
            (travel(cal, raw, range, centred), map.map(raw, dev))
        })
        .collect();
    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    let line: Vec<Pos2> = pts.iter().map(|&(x, y)| f.pos(x, y)).collect();
    p.add(Shape::line(line, Stroke::new(3.0, CAL_COLOUR)));
    p.text(
        plot.left_top() + Vec2::new(6.0, 4.0),
        Align2::LEFT_TOP,
        "output",
        FontId::proportional(12.0),
        Color32::GRAY,
    );
    p.text(
        plot.right_bottom() - Vec2::new(4.0, 6.0),
        Align2::RIGHT_BOTTOM,
        "input travel",
        FontId::proportional(12.0),
        Color32::GRAY,
    );
    if let Some(raw) = live_raw {
        let x = travel(cal, f64::from(raw), range, centred);
        let y = map.map(f64::from(raw), dev);
        let at = f.pos(x, y);
        p.line_segment([f.pos(x, lo_x), at], Stroke::new(1.0, LIVE_COLOUR));
        p.line_segment([f.pos(lo_x, y), at], Stroke::new(1.0, LIVE_COLOUR));
        p.circle_filled(at, 7.0, LIVE_COLOUR);
        p.text(
            plot.right_top() + Vec2::new(-6.0, 4.0),
            Align2::RIGHT_TOP,
            format!("input {:.0} %   output {:.0} %", x * 100.0, y * 100.0),
            FontId::proportional(16.0),
            LIVE_COLOUR,
        );
    }
}

/// The live torque graph: torque sent (N·m) over the last [`HISTORY_SPAN`], the maximum
/// as dashed limits, clipped moments in red.
pub fn torque_graph(
    ui: &mut Ui,
    size: Vec2,
    history: &History<FfbSample>,
    max_nm: f64,
    now: std::time::Duration,
) {
    let (rect, _) = ui.allocate_exact_size(size, Sense::hover());
    background(ui, rect);
    let plot = rect.shrink2(Vec2::new(44.0, 10.0));
    let span = HISTORY_SPAN.as_secs_f64();
    let t0 = now.as_secs_f64() - span;
    let limit = if max_nm.is_finite() && max_nm > 0.0 {
        max_nm * 1.15
    } else {
        1.0
    };
    let f = Frame {
        rect: plot,
        x: (t0, t0 + span),
        y: (-limit, limit),
    };
    let p = ui.painter();
    for v in [-max_nm, 0.0, max_nm] {
        p.add(Shape::dashed_line(
            &[f.pos(t0, v), f.pos(t0 + span, v)],
            Stroke::new(1.0, if v == 0.0 { GRID } else { WARN_COLOUR }),
            6.0,
            4.0,
        ));
        p.text(
            f.pos(t0, v) - Vec2::new(4.0, 0.0),
            Align2::RIGHT_CENTER,
            format!("{v:+.1}"),
            FontId::proportional(11.0),
            Color32::GRAY,
        );
    }
    let samples: Vec<_> = history.iter().collect();
    for pair in samples.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let colour = if b.1.clipped { WARN_COLOUR } else { CAL_COLOUR };
        p.line_segment(
            [
                f.pos(a.0.as_secs_f64(), a.1.torque_nm),
                f.pos(b.0.as_secs_f64(), b.1.torque_nm),
            ],
            Stroke::new(2.0, colour),
        );
    }
    p.text(
        plot.left_top() + Vec2::new(4.0, 2.0),
        Align2::LEFT_TOP,
        "torque (N·m)",
        FontId::proportional(12.0),
        Color32::GRAY,
    );
}

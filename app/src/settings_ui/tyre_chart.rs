//! A tyre lab chart ([`Chart`]) drawn with egui: the same curves and axes the lab writes to
//! SVG, small enough to sit beside the Garage's numbers, with a second chart's curves drawn
//! under it in grey for comparison.

use egui::{Color32, Pos2, Rect, Sense, Shape, Stroke, Ui, pos2, vec2};

use crate::tyre_lab::plot::{Chart, axis, bounds, format_tick};

/// Colour of the chart's own curves, then of the comparison.
const CURVE: Color32 = Color32::from_rgb(90, 160, 255);
const COMPARED: Color32 = Color32::from_gray(130);
const MARGIN_LEFT: f32 = 46.0;
const MARGIN_BOTTOM: f32 = 18.0;

/// Draws `chart` in a `width` by `height` box, with `compared`'s curves beneath it in grey
/// (the axes span both).
pub fn tyre_chart(ui: &mut Ui, chart: &Chart, compared: Option<&Chart>, width: f32, height: f32) {
    let (outer, _) = ui.allocate_exact_size(vec2(width, height), Sense::hover());
    let painter = ui.painter_at(outer);
    let plot = Rect::from_min_max(
        pos2(outer.left() + MARGIN_LEFT, outer.top() + 4.0),
        pos2(outer.right() - 6.0, outer.bottom() - MARGIN_BOTTOM),
    );
    let visuals = ui.visuals();
    painter.rect_filled(plot, 2.0, visuals.extreme_bg_color);
    let Some(extent) = extent(chart, compared) else {
        return;
    };
    let (x_lo, x_hi, x_step) = axis(extent.0, extent.1);
    let (y_lo, y_hi, y_step) = axis(extent.2, extent.3);
    #[allow(clippy::cast_possible_truncation)] // screen coordinates
    let to_screen = |x: f64, y: f64| -> Pos2 {
        pos2(
            plot.left() + plot.width() * ((x - x_lo) / (x_hi - x_lo)) as f32,
            plot.bottom() - plot.height() * ((y - y_lo) / (y_hi - y_lo)) as f32,
        )
    };
    let grid = Stroke::new(0.5, visuals.weak_text_color().gamma_multiply(0.5));
    let text = visuals.weak_text_color();
    let font = egui::FontId::proportional(10.0);
    for i in 0..=ticks(x_lo, x_hi, x_step) {
        let x = x_lo + x_step * f64::from(i);
        let at = to_screen(x, y_lo);
        painter.line_segment([pos2(at.x, plot.top()), pos2(at.x, plot.bottom())], grid);
        painter.text(
            pos2(at.x, plot.bottom() + 2.0),
            egui::Align2::CENTER_TOP,
            format_tick(x, x_step),
            font.clone(),
            text,
        );
    }
    let y_ticks = ticks(y_lo, y_hi, y_step);
    // Every tick gets a grid line; labels skip ticks to stay 14 points apart.
    #[allow(clippy::cast_precision_loss)] // at most 20 ticks
    let label_every = (14.0 * y_ticks.max(1) as f32 / plot.height())
        .ceil()
        .max(1.0);
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // 1..=20
    let label_every = label_every as u32;
    for i in 0..=y_ticks {
        let y = y_lo + y_step * f64::from(i);
        let at = to_screen(x_lo, y);
        painter.line_segment([pos2(plot.left(), at.y), pos2(plot.right(), at.y)], grid);
        if i % label_every != 0 {
            continue;
        }
        painter.text(
            pos2(plot.left() - 3.0, at.y),
            egui::Align2::RIGHT_CENTER,
            format_tick(y, y_step),
            font.clone(),
            text,
        );
    }
    let axes = Stroke::new(1.0, visuals.text_color().gamma_multiply(0.6));
    if x_lo < 0.0 && x_hi > 0.0 {
        let at = to_screen(0.0, y_lo);
        painter.line_segment([pos2(at.x, plot.top()), pos2(at.x, plot.bottom())], axes);
    }
    if y_lo < 0.0 && y_hi > 0.0 {
        let at = to_screen(x_lo, 0.0);
        painter.line_segment([pos2(plot.left(), at.y), pos2(plot.right(), at.y)], axes);
    }
    for (drawn, colour, stroke_width) in [(compared, COMPARED, 1.2), (Some(chart), CURVE, 1.8)] {
        for series in drawn.iter().flat_map(|c| c.series.iter()) {
            // A non-finite point ends a stroke (the lab's curves separate pieces with NaN).
            for piece in series
                .points
                .split(|(x, y)| !(x.is_finite() && y.is_finite()))
                .filter(|piece| piece.len() > 1)
            {
                let points = piece.iter().map(|&(x, y)| to_screen(x, y)).collect();
                painter.add(Shape::line(points, Stroke::new(stroke_width, colour)));
            }
        }
    }
    painter.text(
        plot.left_top() + vec2(4.0, 2.0),
        egui::Align2::LEFT_TOP,
        &chart.y_label,
        font.clone(),
        visuals.text_color(),
    );
    painter.text(
        plot.right_bottom() + vec2(-4.0, -2.0),
        egui::Align2::RIGHT_BOTTOM,
        &chart.x_label,
        font,
        visuals.text_color(),
    );
}

/// The extent of both charts' points.
fn extent(chart: &Chart, compared: Option<&Chart>) -> Option<(f64, f64, f64, f64)> {
    let own = bounds(chart)?;
    Some(compared.and_then(bounds).map_or(own, |other| {
        (
            own.0.min(other.0),
            own.1.max(other.1),
            own.2.min(other.2),
            own.3.max(other.3),
        )
    }))
}

/// The number of tick steps from `lo` to `hi` (at most 20, for a degenerate axis).
fn ticks(lo: f64, hi: f64, step: f64) -> u32 {
    let n = ((hi - lo) / step).round();
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // 0..=20
    let n = n.clamp(0.0, 20.0) as u32;
    n
}

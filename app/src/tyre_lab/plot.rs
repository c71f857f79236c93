//! Force-curve plots: a small SVG chart writer, and PNG export through resvg.
//!
//! The figure has the four graphs tyre engineers read first: lateral force against slip angle
//! and longitudinal force against slip ratio at several loads, aligning moment against slip
//! angle, and the friction ellipse (lateral against longitudinal force under combined slip).

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result, bail};

/// One curve of a chart.
#[derive(Clone, Debug)]
pub struct Series {
    /// Legend text.
    pub label: String,
    /// The points, in drawing order.
    pub points: Vec<(f64, f64)>,
}

/// One chart of the figure.
#[derive(Clone, Debug)]
pub struct Chart {
    /// Title above the chart.
    pub title: String,
    /// Horizontal axis label.
    pub x_label: String,
    /// Vertical axis label.
    pub y_label: String,
    /// The curves.
    pub series: Vec<Series>,
    /// Draw both axes at the same scale (for the friction ellipse).
    pub equal_axes: bool,
}

pub(crate) const PALETTE: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
];
const PANEL_W: f64 = 620.0;
const PANEL_H: f64 = 440.0;
const MARGIN_L: f64 = 78.0;
const MARGIN_R: f64 = 20.0;
const MARGIN_T: f64 = 40.0;
const MARGIN_B: f64 = 52.0;

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A "nice" tick step (1, 2 or 5 times a power of ten) giving about `target` ticks over `span`.
fn nice_step(span: f64, target: f64) -> f64 {
    let raw = span / target;
    let magnitude = 10f64.powf(raw.log10().floor());
    let residual = raw / magnitude;
    let nice = if residual < 1.5 {
        1.0
    } else if residual < 3.5 {
        2.0
    } else if residual < 7.5 {
        5.0
    } else {
        10.0
    };
    nice * magnitude
}

/// Axis bounds rounded out to whole ticks, and the tick step.
pub(crate) fn axis(lo: f64, hi: f64) -> (f64, f64, f64) {
    let (lo, hi) = if (hi - lo).abs() < 1e-12 {
        (lo - 1.0, hi + 1.0)
    } else {
        (lo, hi)
    };
    let step = nice_step(hi - lo, 6.0);
    ((lo / step).floor() * step, (hi / step).ceil() * step, step)
}

/// A tick label with as many decimals as the step needs.
pub(crate) fn format_tick(value: f64, step: f64) -> String {
    // Steps are 1, 2 or 5 times a power of ten: as many decimals as that power is negative.
    let decimals = if step >= 1.0 {
        0
    } else {
        format!("{step:e}")
            .split_once("e-")
            .and_then(|(_, exp)| exp.parse::<usize>().ok())
            .unwrap_or(0)
    };
    let text = format!("{value:.decimals$}");
    if text
        .trim_start_matches('-')
        .chars()
        .all(|c| c == '0' || c == '.')
    {
        "0".to_owned()
    } else {
        text
    }
}

/// The extent of a chart's finite points `(x_lo, x_hi, y_lo, y_hi)`, square for equal axes.
pub(crate) fn bounds(chart: &Chart) -> Option<(f64, f64, f64, f64)> {
    let mut points = chart
        .series
        .iter()
        .flat_map(|s| s.points.iter())
        .filter(|(x, y)| x.is_finite() && y.is_finite());
    let &(x0, y0) = points.next()?;
    let (mut x_lo, mut x_hi, mut y_lo, mut y_hi) = (x0, x0, y0, y0);
    for &(x, y) in points {
        x_lo = x_lo.min(x);
        x_hi = x_hi.max(x);
        y_lo = y_lo.min(y);
        y_hi = y_hi.max(y);
    }
    if chart.equal_axes {
        let half = (x_hi - x_lo).max(y_hi - y_lo) / 2.0;
        let (xc, yc) = (f64::midpoint(x_lo, x_hi), f64::midpoint(y_lo, y_hi));
        return Some((xc - half, xc + half, yc - half, yc + half));
    }
    Some((x_lo, x_hi, y_lo, y_hi))
}

fn draw_chart(svg: &mut String, chart: &Chart, left: f64, top: f64) {
    let plot_w = PANEL_W - MARGIN_L - MARGIN_R;
    let plot_h = PANEL_H - MARGIN_T - MARGIN_B;
    let (px, py) = (left + MARGIN_L, top + MARGIN_T);
    let _ = writeln!(
        svg,
        r#"<text x="{:.1}" y="{:.1}" font-size="17" font-weight="bold" text-anchor="middle">{}</text>"#,
        px + plot_w / 2.0,
        top + 24.0,
        escape(&chart.title)
    );
    let _ = writeln!(
        svg,
        "<rect x=\"{px:.1}\" y=\"{py:.1}\" width=\"{plot_w:.1}\" height=\"{plot_h:.1}\" fill=\"#fafafa\" stroke=\"#888\"/>"
    );
    let Some((x_lo, x_hi, y_lo, y_hi)) = bounds(chart) else {
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{:.1}" font-size="14" text-anchor="middle">no data</text>"#,
            px + plot_w / 2.0,
            py + plot_h / 2.0
        );
        return;
    };
    let (x_lo, x_hi, x_step) = axis(x_lo, x_hi);
    let (y_lo, y_hi, y_step) = axis(y_lo, y_hi);
    let sx = |x: f64| px + (x - x_lo) / (x_hi - x_lo) * plot_w;
    let sy = |y: f64| py + plot_h - (y - y_lo) / (y_hi - y_lo) * plot_h;

    // Grid and tick labels.
    let mut x = x_lo;
    while x <= x_hi + x_step * 0.5 {
        let gx = sx(x);
        let _ = writeln!(
            svg,
            "<line x1=\"{gx:.1}\" y1=\"{py:.1}\" x2=\"{gx:.1}\" y2=\"{:.1}\" stroke=\"#ddd\"/>\
             <text x=\"{gx:.1}\" y=\"{:.1}\" font-size=\"12\" text-anchor=\"middle\">{}</text>",
            py + plot_h,
            py + plot_h + 16.0,
            format_tick(x, x_step)
        );
        x += x_step;
    }
    let mut y = y_lo;
    while y <= y_hi + y_step * 0.5 {
        let gy = sy(y);
        let _ = writeln!(
            svg,
            "<line x1=\"{px:.1}\" y1=\"{gy:.1}\" x2=\"{:.1}\" y2=\"{gy:.1}\" stroke=\"#ddd\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\" text-anchor=\"end\">{}</text>",
            px + plot_w,
            px - 6.0,
            gy + 4.0,
            format_tick(y, y_step)
        );
        y += y_step;
    }
    // Zero axes.
    if x_lo < 0.0 && x_hi > 0.0 {
        let zx = sx(0.0);
        let _ = writeln!(
            svg,
            "<line x1=\"{zx:.1}\" y1=\"{py:.1}\" x2=\"{zx:.1}\" y2=\"{:.1}\" stroke=\"#555\"/>",
            py + plot_h
        );
    }
    if y_lo < 0.0 && y_hi > 0.0 {
        let zy = sy(0.0);
        let _ = writeln!(
            svg,
            "<line x1=\"{px:.1}\" y1=\"{zy:.1}\" x2=\"{:.1}\" y2=\"{zy:.1}\" stroke=\"#555\"/>",
            px + plot_w
        );
    }
    // Axis labels.
    let _ = writeln!(
        svg,
        r#"<text x="{:.1}" y="{:.1}" font-size="14" text-anchor="middle">{}</text>"#,
        px + plot_w / 2.0,
        top + PANEL_H - 12.0,
        escape(&chart.x_label)
    );
    let (lx, ly) = (left + 18.0, py + plot_h / 2.0);
    let _ = writeln!(
        svg,
        r#"<text x="{lx:.1}" y="{ly:.1}" font-size="14" text-anchor="middle" transform="rotate(-90 {lx:.1} {ly:.1})">{}</text>"#,
        escape(&chart.y_label)
    );
    // Curves.
    for (i, series) in chart.series.iter().enumerate() {
        let color = PALETTE[i % PALETTE.len()];
        let mut path = String::new();
        let mut pen_down = false;
        for &(x, y) in &series.points {
            if x.is_finite() && y.is_finite() {
                let _ = write!(
                    path,
                    "{}{:.2},{:.2} ",
                    if pen_down { "L" } else { "M" },
                    sx(x),
                    sy(y)
                );
                pen_down = true;
            } else {
                pen_down = false;
            }
        }
        let _ = writeln!(
            svg,
            r#"<path d="{}" fill="none" stroke="{color}" stroke-width="2"/>"#,
            path.trim_end()
        );
        // Legend entry, top right.
        let ly = py + 16.0 + 18.0 * i as f64;
        let lx = px + plot_w - 150.0;
        let _ = writeln!(
            svg,
            "<line x1=\"{lx:.1}\" y1=\"{ly:.1}\" x2=\"{:.1}\" y2=\"{ly:.1}\" stroke=\"{color}\" stroke-width=\"3\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\">{}</text>",
            lx + 22.0,
            lx + 28.0,
            ly + 4.0,
            escape(&series.label)
        );
    }
}

/// Lays the charts out two per row under `title` and returns the SVG document.
pub fn figure_svg(title: &str, charts: &[Chart]) -> String {
    let columns = 2usize;
    let rows = charts.len().div_ceil(columns).max(1);
    let width = PANEL_W * columns as f64;
    let height = 50.0 + PANEL_H * rows as f64;
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif">"#
    );
    let _ = writeln!(
        svg,
        r##"<rect width="100%" height="100%" fill="#ffffff"/><text x="{:.1}" y="32" font-size="22" font-weight="bold" text-anchor="middle">{}</text>"##,
        width / 2.0,
        escape(title)
    );
    for (i, chart) in charts.iter().enumerate() {
        let left = PANEL_W * (i % columns) as f64;
        let top = 50.0 + PANEL_H * (i / columns) as f64;
        draw_chart(&mut svg, chart, left, top);
    }
    svg.push_str("</svg>\n");
    svg
}

/// Writes `svg` to `path` as SVG or, for a `.png` path, rasterised with the system's fonts.
///
/// # Errors
/// Unknown extension, unwritable file, or an SVG the rasteriser rejects.
pub fn write_figure(svg: &str, path: &Path) -> Result<()> {
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match extension.as_deref() {
        Some("svg") => std::fs::write(path, svg)
            .with_context(|| format!("{}: cannot write the plot", path.display())),
        Some("png") => {
            let mut options = resvg::usvg::Options::default();
            options.fontdb_mut().load_system_fonts();
            let tree = resvg::usvg::Tree::from_str(svg, &options)
                .context("the plot's SVG could not be parsed for rasterising")?;
            let size = tree.size().to_int_size();
            let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height())
                .context("the plot is too large to rasterise")?;
            resvg::render(
                &tree,
                resvg::tiny_skia::Transform::default(),
                &mut pixmap.as_mut(),
            );
            pixmap
                .save_png(path)
                .with_context(|| format!("{}: cannot write the plot", path.display()))
        }
        _ => bail!("{}: the plot must be an .svg or .png file", path.display()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nice_steps() {
        assert!((nice_step(30.0, 6.0) - 5.0).abs() < 1e-12);
        assert!((nice_step(0.8, 6.0) - 0.1).abs() < 1e-12);
        assert!((nice_step(12000.0, 6.0) - 2000.0).abs() < 1e-9);
        assert_eq!(axis(-14.3, 14.9), (-15.0, 15.0, 5.0));
        assert_eq!(format_tick(-0.0, 0.1), "0");
        assert_eq!(format_tick(0.25, 0.05), "0.25");
    }

    #[test]
    fn svg_has_every_series_and_escapes_text() {
        let chart = Chart {
            title: "Fy <alpha>".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            series: vec![
                Series {
                    label: "a & b".into(),
                    points: vec![(0.0, 0.0), (1.0, 1.0), (f64::NAN, 2.0), (2.0, 0.5)],
                },
                Series {
                    label: "c".into(),
                    points: vec![(0.0, 1.0), (1.0, -1.0)],
                },
            ],
            equal_axes: false,
        };
        let svg = figure_svg("T", &[chart]);
        assert_eq!(svg.matches("<path").count(), 2);
        assert!(svg.contains("Fy &lt;alpha&gt;") && svg.contains("a &amp; b"));
        // The NaN point lifts the pen: two subpaths in the first curve.
        let first = svg.split("<path d=\"").nth(1).unwrap();
        assert_eq!(first.split('"').next().unwrap().matches('M').count(), 2);
    }

    #[test]
    fn empty_chart_says_no_data() {
        let chart = Chart {
            title: "t".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            series: vec![],
            equal_axes: true,
        };
        assert!(figure_svg("T", &[chart]).contains("no data"));
    }
}

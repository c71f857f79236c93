//! The lap analysis screen (L, or the pause menu): the last and the best lap overlaid
//! against distance (speed, throttle, brake, steering, gear, lateral acceleration), their
//! sector times, a track map of the best lap coloured by speed, and CSV export.

// Screen coordinates and colour channels from data already scaled to the plot.
#![allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]

use egui::{Align2, Color32, FontId, Pos2, RichText, Sense, Stroke, Ui, Vec2};
use gripline_sim::laps::{CompletedLap, LapSample, SECTORS};

use gripline_host::laps::lap_time_label;
use gripline_host::laps::{DriveLaps, WhichLap};

const LAST: Color32 = Color32::from_rgb(255, 170, 60);
const BEST: Color32 = Color32::from_rgb(90, 200, 255);
/// Points drawn per lap and plot at most (a lap has about 100 samples a second).
const POINTS: usize = 900;

/// What the user asked for on the screen this frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnalysisAction {
    /// Save a lap as CSV.
    Export(WhichLap),
    /// Close the screen.
    Close,
}

/// One plotted quantity.
struct Channel {
    name: &'static str,
    unit: &'static str,
    value: fn(&LapSample) -> f64,
    /// Fixed range, or `None` to fit the data.
    range: Option<(f64, f64)>,
}

const CHANNELS: [Channel; 6] = [
    Channel {
        name: "Speed",
        unit: "km/h",
        value: |s| s.speed_m_per_s * 3.6,
        range: None,
    },
    Channel {
        name: "Throttle",
        unit: "%",
        value: |s| s.throttle * 100.0,
        range: Some((0.0, 100.0)),
    },
    Channel {
        name: "Brake",
        unit: "%",
        value: |s| s.brake * 100.0,
        range: Some((0.0, 100.0)),
    },
    Channel {
        name: "Steering",
        unit: "°",
        value: |s| s.steering_wheel_rad.to_degrees(),
        range: None,
    },
    Channel {
        name: "Gear",
        unit: "",
        value: |s| f64::from(s.gear),
        range: None,
    },
    Channel {
        name: "Lateral",
        unit: "g",
        value: |s| s.lateral_g,
        range: None,
    },
];

/// Draws the screen; returns what the user clicked.
pub fn draw(ctx: &egui::Context, laps: &DriveLaps) -> Option<AnalysisAction> {
    let mut action = None;
    let screen = ctx.content_rect();
    egui::Window::new("Lap analysis")
        .anchor(Align2::CENTER_CENTER, Vec2::ZERO)
        .fixed_size(Vec2::new(
            (screen.width() - 60.0).clamp(400.0, 1400.0),
            (screen.height() - 80.0).clamp(300.0, 900.0),
        ))
        .collapsible(false)
        .show(ctx, |ui| {
            let book = laps.book();
            let (last, best) = (book.last(), book.best());
            ui.horizontal(|ui| {
                legend(ui, "Last", LAST, last);
                ui.add_space(24.0);
                legend(ui, "Best", BEST, best);
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    if ui.button("Close (L)").clicked() {
                        action = Some(AnalysisAction::Close);
                    }
                    if ui
                        .add_enabled(best.is_some(), egui::Button::new("Export best lap CSV"))
                        .clicked()
                    {
                        action = Some(AnalysisAction::Export(WhichLap::Best));
                    }
                    if ui
                        .add_enabled(last.is_some(), egui::Button::new("Export last lap CSV"))
                        .clicked()
                    {
                        action = Some(AnalysisAction::Export(WhichLap::Last));
                    }
                });
            });
            if last.is_none() && best.is_none() {
                ui.add_space(20.0);
                ui.label(
                    "Complete a timed lap (cross the start/finish line, then drive a whole lap) \
                     to see its analysis here.",
                );
                return;
            }
            sectors(ui, last, best);
            ui.add_space(6.0);
            let avail = ui.available_size();
            let map_w = (avail.x * 0.3).clamp(160.0, 420.0);
            ui.horizontal_top(|ui| {
                let plots_w = avail.x - map_w - 12.0;
                ui.vertical(|ui| {
                    let h = (avail.y / CHANNELS.len() as f32 - 4.0).max(40.0);
                    let length = best.or(last).map_or(1.0, |l| l.length_m);
                    for channel in &CHANNELS {
                        plot(ui, Vec2::new(plots_w, h), channel, length, last, best);
                    }
                });
                if let Some(lap) = best.or(last) {
                    track_map(ui, Vec2::new(map_w, avail.y.min(map_w * 1.4)), lap);
                }
            });
        });
    action
}

fn legend(ui: &mut Ui, name: &str, colour: Color32, lap: Option<&CompletedLap>) {
    ui.label(
        RichText::new(format!(
            "■ {name} {}",
            lap_time_label(lap.map(|l| l.lap_time_s))
        ))
        .font(FontId::monospace(16.0))
        .color(colour),
    );
}

fn sectors(ui: &mut Ui, last: Option<&CompletedLap>, best: Option<&CompletedLap>) {
    egui::Grid::new("sector-times")
        .num_columns(SECTORS + 2)
        .spacing([18.0, 2.0])
        .show(ui, |ui| {
            ui.label("");
            for k in 1..=SECTORS {
                ui.label(RichText::new(format!("S{k}")).strong());
            }
            ui.label(RichText::new("Lap").strong());
            ui.end_row();
            let row = |ui: &mut Ui, name: &str, colour: Color32, lap: Option<&CompletedLap>| {
                ui.label(RichText::new(name).color(colour));
                match lap {
                    Some(lap) => {
                        for s in lap.sector_times_s() {
                            ui.label(RichText::new(format!("{s:.3}")).monospace());
                        }
                        ui.label(RichText::new(lap_time_label(Some(lap.lap_time_s))).monospace());
                    }
                    None => {
                        for _ in 0..=SECTORS {
                            ui.label("—");
                        }
                    }
                }
                ui.end_row();
            };
            row(ui, "Last", LAST, last);
            row(ui, "Best", BEST, best);
            if let (Some(last), Some(best)) = (last, best) {
                ui.label("Δ");
                let (a, b) = (last.sector_times_s(), best.sector_times_s());
                for k in 0..SECTORS {
                    delta_label(ui, a[k] - b[k]);
                }
                delta_label(ui, last.lap_time_s - best.lap_time_s);
                ui.end_row();
            }
        });
}

fn delta_label(ui: &mut Ui, d: f64) {
    let colour = if d <= 0.0 {
        Color32::from_rgb(90, 230, 110)
    } else {
        Color32::from_rgb(255, 90, 80)
    };
    ui.label(RichText::new(format!("{d:+.3}")).monospace().color(colour));
}

/// Every `k`-th sample, at most [`POINTS`].
fn thinned(lap: &CompletedLap) -> impl Iterator<Item = &LapSample> {
    let step = lap.samples.len().div_ceil(POINTS).max(1);
    lap.samples.iter().step_by(step)
}

fn plot(
    ui: &mut Ui,
    size: Vec2,
    channel: &Channel,
    length_m: f64,
    last: Option<&CompletedLap>,
    best: Option<&CompletedLap>,
) {
    let (rect, _) = ui.allocate_exact_size(size, Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 2.0, Color32::from_rgb(18, 20, 26));
    let laps: Vec<(&CompletedLap, Color32)> = [(best, BEST), (last, LAST)]
        .into_iter()
        .filter_map(|(l, c)| l.map(|l| (l, c)))
        .collect();
    let (lo, hi) = channel.range.unwrap_or_else(|| {
        let values = laps
            .iter()
            .flat_map(|(l, _)| l.samples.iter().map(channel.value))
            .filter(|v| v.is_finite());
        let (lo, hi) = values.fold((f64::MAX, f64::MIN), |(a, b), v| (a.min(v), b.max(v)));
        if lo > hi {
            (0.0, 1.0)
        } else if hi - lo < 1e-6 {
            (lo - 1.0, hi + 1.0)
        } else {
            let pad = 0.05 * (hi - lo);
            (lo - pad, hi + pad)
        }
    });
    let inner = rect.shrink2(Vec2::new(4.0, 6.0));
    let to_screen = |station: f64, v: f64| {
        let x = inner.left() + (station / length_m.max(1.0)) as f32 * inner.width();
        let y = inner.bottom() - ((v - lo) / (hi - lo)) as f32 * inner.height();
        Pos2::new(x, y.clamp(inner.top(), inner.bottom()))
    };
    // Sector boundaries.
    for k in 1..SECTORS {
        let x = to_screen(length_m * k as f64 / SECTORS as f64, lo).x;
        painter.line_segment(
            [Pos2::new(x, rect.top()), Pos2::new(x, rect.bottom())],
            Stroke::new(1.0, Color32::from_gray(60)),
        );
    }
    if lo < 0.0 && hi > 0.0 {
        let y = to_screen(0.0, 0.0).y;
        painter.line_segment(
            [Pos2::new(rect.left(), y), Pos2::new(rect.right(), y)],
            Stroke::new(1.0, Color32::from_gray(50)),
        );
    }
    for (lap, colour) in laps {
        let points: Vec<Pos2> = thinned(lap)
            .map(|s| to_screen(s.station_m, (channel.value)(s)))
            .collect();
        painter.add(egui::Shape::line(points, Stroke::new(1.5, colour)));
    }
    painter.text(
        rect.left_top() + Vec2::new(6.0, 3.0),
        Align2::LEFT_TOP,
        format!("{} {}", channel.name, channel.unit),
        FontId::proportional(12.0),
        Color32::from_gray(200),
    );
    painter.text(
        rect.right_top() + Vec2::new(-6.0, 3.0),
        Align2::RIGHT_TOP,
        format!("{:.0} … {:.0}", lo.round() + 0.0, hi.round() + 0.0),
        FontId::monospace(11.0),
        Color32::from_gray(140),
    );
    ui.add_space(4.0);
}

/// The lap's line seen from above, coloured from blue (slow) to red (fast), north up.
fn track_map(ui: &mut Ui, size: Vec2, lap: &CompletedLap) {
    let (rect, _) = ui.allocate_exact_size(size, Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 2.0, Color32::from_rgb(18, 20, 26));
    let xs = lap.samples.iter().map(|s| s.position_m.x);
    let ys = lap.samples.iter().map(|s| s.position_m.y);
    let (x0, x1) = xs.fold((f64::MAX, f64::MIN), |(a, b), v| (a.min(v), b.max(v)));
    let (y0, y1) = ys.fold((f64::MAX, f64::MIN), |(a, b), v| (a.min(v), b.max(v)));
    let span = (x1 - x0).max(y1 - y0).max(1.0);
    let inner = rect.shrink(14.0);
    let scale = f64::from(inner.width().min(inner.height())) / span;
    let centre = Pos2::new(inner.center().x, inner.center().y);
    let to_screen = |s: &LapSample| {
        Pos2::new(
            centre.x + ((s.position_m.x - 0.5 * (x0 + x1)) * scale) as f32,
            centre.y - ((s.position_m.y - 0.5 * (y0 + y1)) * scale) as f32,
        )
    };
    let speeds = lap.samples.iter().map(|s| s.speed_m_per_s);
    let (v0, v1) = speeds.fold((f64::MAX, f64::MIN), |(a, b), v| (a.min(v), b.max(v)));
    let points: Vec<&LapSample> = thinned(lap).collect();
    for w in points.windows(2) {
        let t = ((w[0].speed_m_per_s - v0) / (v1 - v0).max(1e-6)) as f32;
        painter.line_segment(
            [to_screen(w[0]), to_screen(w[1])],
            Stroke::new(3.0, speed_colour(t)),
        );
    }
    if let Some(start) = lap.samples.first() {
        painter.circle_filled(to_screen(start), 4.0, Color32::WHITE);
    }
    painter.text(
        rect.left_bottom() + Vec2::new(6.0, -4.0),
        Align2::LEFT_BOTTOM,
        format!("{:.0} km/h", v0 * 3.6),
        FontId::monospace(11.0),
        speed_colour(0.0),
    );
    painter.text(
        rect.right_bottom() + Vec2::new(-6.0, -4.0),
        Align2::RIGHT_BOTTOM,
        format!("{:.0} km/h", v1 * 3.6),
        FontId::monospace(11.0),
        speed_colour(1.0),
    );
    painter.text(
        rect.left_top() + Vec2::new(6.0, 3.0),
        Align2::LEFT_TOP,
        "Best lap: speed",
        FontId::proportional(12.0),
        Color32::from_gray(200),
    );
}

/// Blue (slow) through green and yellow to red (fast).
fn speed_colour(t: f32) -> Color32 {
    let t = t.clamp(0.0, 1.0);
    let stops = [
        (0.0, [40.0, 90.0, 255.0]),
        (0.35, [40.0, 220.0, 120.0]),
        (0.7, [255.0, 220.0, 40.0]),
        (1.0, [255.0, 50.0, 40.0]),
    ];
    let i = stops
        .iter()
        .rposition(|(at, _)| *at <= t)
        .unwrap_or(0)
        .min(2);
    let (a, b) = (stops[i], stops[i + 1]);
    let f = (t - a.0) / (b.0 - a.0);
    let c = |k: usize| (a.1[k] + (b.1[k] - a.1[k]) * f) as u8;
    Color32::from_rgb(c(0), c(1), c(2))
}

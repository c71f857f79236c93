//! The heads-up display: speed, rpm with redline, gear, pedals, steering, force feedback,
//! per-wheel load and slip, lap times and the timing figures of the sim thread and renderer.
//!
//! Everything is drawn with egui over the scene, from plain figures ([`HudInputs`]) so the
//! layout does not depend on where the numbers come from.

use egui::{Align2, Color32, Context, FontId, Pos2, Rect, RichText, Stroke, Ui, Vec2};
use gripline_host::laps::lap_time_label;
use gripline_physics::powertrain::{GearboxMode, PowertrainTelemetry, Selector};
use gripline_physics::vehicle::Snapshot;

/// Everything the HUD shows.
#[derive(Clone, Debug)]
pub struct HudInputs<'a> {
    /// The vehicle, interpolated to the render time.
    pub snapshot: &'a Snapshot,
    /// Redline of the engine (rpm): the rpm bar turns red above it.
    pub redline_rpm: f64,
    /// Rev limiter (rpm): the end of the rpm bar.
    pub limiter_rpm: f64,
    /// Steering-wheel lock, stop to centre (degrees).
    pub lock_deg: f64,
    /// Force-feedback level sent to the wheel (−1 to 1) and the share of recent ticks that
    /// clipped (0 to 1); `None` without a force-feedback device.
    pub ffb: Option<(f64, f64)>,
    /// Force feedback is cut by the runaway trip (until the user turns it back on).
    pub ffb_cut: bool,
    /// Lap times.
    pub laps: LapFigures,
    /// Sim-thread and renderer timing.
    pub timing: TimingFigures,
    /// Name of the camera in use.
    pub camera: &'a str,
    /// The driver model is driving.
    pub autopilot: bool,
    /// Show the timing page in full.
    pub show_timing: bool,
    /// The force-feedback graph, when shown (F4).
    pub ffb_graph: Option<&'a super::ffb_graph::FfbGraph>,
}

/// Current, last and best lap (s).
#[derive(Clone, Copy, Debug, Default)]
pub struct LapFigures {
    /// Time since the current lap started, `None` before the first line crossing.
    pub current_s: Option<f64>,
    /// The previous lap.
    pub last_s: Option<f64>,
    /// The best lap of the session.
    pub best_s: Option<f64>,
    /// Completed laps.
    pub count: u32,
    /// Live delta to the reference lap (s, negative: faster), while a lap is timed and one
    /// exists.
    pub delta_s: Option<f64>,
    /// What the delta is against (`best`, `session best`).
    pub reference: &'static str,
}

/// Timing of the sim thread and of the renderer.
#[derive(Clone, Copy, Debug, Default)]
pub struct TimingFigures {
    /// Ticks per second over the last second.
    pub tick_rate_hz: f64,
    /// Tick lateness, median (µs).
    pub lateness_p50_us: f64,
    /// Tick lateness, 99th percentile (µs).
    pub lateness_p99_us: f64,
    /// Tick lateness, worst (µs).
    pub lateness_max_us: f64,
    /// Ticks that started a whole period or more after their deadline.
    pub missed_ticks: u64,
    /// Ticks skipped after stalls (not run: the physics fell behind the clock).
    pub dropped_ticks: u64,
    /// Snapshots dropped because the ring was full.
    pub dropped_snapshots: u64,
    /// Cost of one physics step, mean (µs).
    pub step_cost_us: f64,
    /// How long the sim thread spins before each deadline, as calibrated (µs).
    pub spin_us: f64,
    /// CPU time of the last frame on the render thread (ms).
    pub frame_cpu_ms: f64,
    /// Frames per second.
    pub fps: f64,
}

/// Screen geometry is `f32` in egui; the figures drawn are small and finite.
#[allow(clippy::cast_possible_truncation)]
pub(super) fn to_f32(x: f64) -> f32 {
    x as f32
}

const PANEL_FILL: Color32 = Color32::from_rgba_premultiplied(10, 12, 16, 200);

/// Draws the HUD.
pub fn draw(ctx: &Context, hud: &HudInputs<'_>) {
    panel(
        ctx,
        "hud-dash",
        Align2::CENTER_BOTTOM,
        Vec2::new(0.0, -12.0),
        10.0,
        |ui| {
            dash(ui, hud);
        },
    );
    let laps_rect = panel(
        ctx,
        "hud-laps",
        Align2::RIGHT_TOP,
        Vec2::new(-12.0, 12.0),
        8.0,
        |ui| {
            laps(ui, hud);
        },
    );
    // Below the lap times, however tall they are (the delta line comes and goes).
    let below_laps = (laps_rect.bottom() - ctx.content_rect().top() + 8.0).max(118.0);
    panel(
        ctx,
        "hud-wheels",
        Align2::RIGHT_TOP,
        Vec2::new(-12.0, below_laps),
        8.0,
        |ui| {
            wheels(ui, hud.snapshot);
        },
    );
    if let Some(graph) = hud.ffb_graph {
        panel(
            ctx,
            "hud-ffb-graph",
            Align2::LEFT_TOP,
            Vec2::new(12.0, 110.0),
            8.0,
            |ui| {
                ui.label(
                    RichText::new("Force feedback (N·m, F4 hides)")
                        .size(12.0)
                        .color(Color32::LIGHT_GRAY),
                );
                graph.draw(ui, Vec2::new(420.0, 180.0));
            },
        );
    }
    panel(
        ctx,
        "hud-timing",
        Align2::LEFT_TOP,
        Vec2::new(12.0, 12.0),
        8.0,
        |ui| {
            timing(ui, hud);
        },
    );
}

/// A translucent, non-interactive panel anchored to a corner or edge of the screen.
fn panel(
    ctx: &Context,
    id: &str,
    anchor: Align2,
    offset: Vec2,
    margin: f32,
    add_contents: impl FnOnce(&mut Ui),
) -> egui::Rect {
    egui::Area::new(egui::Id::unique(id))
        .anchor(anchor, offset)
        .interactable(false)
        .show(ctx, |ui| {
            egui::Frame::new()
                .fill(PANEL_FILL)
                .corner_radius(6.0)
                .inner_margin(margin)
                .show(ui, add_contents);
        })
        .response
        .rect
}

fn dash(ui: &mut Ui, hud: &HudInputs<'_>) {
    let s = hud.snapshot;
    let pt = &s.powertrain;
    ui.horizontal(|ui| {
        ui.vertical(|ui| {
            ui.label(
                RichText::new(format!("{:>3.0}", s.speed_m_per_s * 3.6))
                    .font(FontId::monospace(40.0))
                    .color(Color32::WHITE),
            );
            ui.label(RichText::new("km/h").color(Color32::GRAY));
        });
        ui.add_space(12.0);
        ui.vertical(|ui| {
            ui.label(
                RichText::new(gear_label(pt))
                    .font(FontId::monospace(40.0))
                    .color(Color32::from_rgb(255, 210, 80)),
            );
            ui.label(RichText::new(format!("{:?}", pt.mode)).color(Color32::GRAY));
        });
        ui.add_space(12.0);
        ui.vertical(|ui| {
            rpm_bar(ui, pt.engine_rpm, hud.redline_rpm, hud.limiter_rpm);
            ui.label(
                RichText::new(format!("{:>5.0} rpm", pt.engine_rpm))
                    .font(FontId::monospace(14.0))
                    .color(Color32::WHITE),
            );
            let mut flags = Vec::new();
            if s.abs_active {
                flags.push("ABS");
            }
            if s.tc_active {
                flags.push("TC");
            }
            if pt.stalled {
                flags.push("STALLED");
            }
            if pt.grind {
                flags.push("GRIND");
            }
            if hud.autopilot {
                flags.push("AUTOPILOT");
            }
            if hud.ffb_cut {
                flags.push("FFB CUT (runaway): Settings > Force feedback");
            }
            ui.label(RichText::new(flags.join("  ")).color(Color32::from_rgb(255, 140, 60)));
        });
        ui.add_space(12.0);
        pedals(ui, s);
        ui.add_space(12.0);
        ui.vertical(|ui| {
            steering_dial(ui, s.steering_wheel_rad, hud.lock_deg);
            ui.label(
                RichText::new(format!("{:+5.0}°", s.steering_wheel_rad.to_degrees()))
                    .font(FontId::monospace(12.0))
                    .color(Color32::WHITE),
            );
        });
        if let Some((level, clip)) = hud.ffb {
            ui.add_space(12.0);
            ffb_meter(ui, level, clip);
        }
    });
}

/// The gear as drivers read it: the mode's letter and the gear (D4 automatic, S3
/// sequential, M5 manual H-pattern), R in reverse, N only when the box is meant to be in
/// neutral (the automatic's selector in N, the sequential or the lever in neutral). During a
/// shift's neutral phase it shows the gear being shifted to; the automatic in D standing in
/// neutral (held on the brake) shows D.
pub fn gear_label(pt: &PowertrainTelemetry) -> String {
    let gear = pt.shown_gear;
    let letter = match pt.mode {
        GearboxMode::Automatic => match pt.selector {
            Selector::Reverse => return "R".to_owned(),
            Selector::Neutral => return "N".to_owned(),
            Selector::Drive => "D",
        },
        GearboxMode::Sequential => "S",
        GearboxMode::HPattern => "M",
    };
    match gear {
        g if g < 0 => "R".to_owned(),
        0 if pt.mode == GearboxMode::Automatic => letter.to_owned(),
        0 => "N".to_owned(),
        g => format!("{letter}{g}"),
    }
}

fn rpm_bar(ui: &mut Ui, rpm: f64, redline: f64, limiter: f64) {
    let (rect, _) = ui.allocate_exact_size(Vec2::new(220.0, 18.0), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 3.0, Color32::from_gray(40));
    let top = limiter.max(1.0);
    let frac = to_f32((rpm / top).clamp(0.0, 1.0));
    let red_frac = to_f32((redline / top).clamp(0.0, 1.0));
    let fill = Rect::from_min_size(rect.min, Vec2::new(rect.width() * frac, rect.height()));
    let colour = if rpm >= redline {
        Color32::from_rgb(230, 40, 40)
    } else if rpm >= 0.9 * redline {
        Color32::from_rgb(250, 200, 40)
    } else {
        Color32::from_rgb(60, 200, 90)
    };
    painter.rect_filled(fill, 3.0, colour);
    let x = rect.min.x + rect.width() * red_frac;
    painter.line_segment(
        [Pos2::new(x, rect.min.y), Pos2::new(x, rect.max.y)],
        Stroke::new(2.0, Color32::RED),
    );
}

fn pedals(ui: &mut Ui, s: &Snapshot) {
    let c = &s.controls;
    let bars = [
        ("C", c.clutch, Color32::from_rgb(80, 140, 250)),
        ("B", c.brake, Color32::from_rgb(230, 60, 60)),
        ("T", c.throttle, Color32::from_rgb(60, 210, 90)),
        ("H", c.handbrake, Color32::from_rgb(200, 200, 200)),
    ];
    ui.horizontal(|ui| {
        for (name, value, colour) in bars {
            ui.vertical(|ui| {
                let (rect, _) = ui.allocate_exact_size(Vec2::new(12.0, 56.0), egui::Sense::hover());
                let painter = ui.painter_at(rect);
                painter.rect_filled(rect, 2.0, Color32::from_gray(40));
                let h = rect.height() * to_f32(value.clamp(0.0, 1.0));
                painter.rect_filled(
                    Rect::from_min_max(Pos2::new(rect.min.x, rect.max.y - h), rect.max),
                    2.0,
                    colour,
                );
                ui.label(RichText::new(name).small().color(Color32::GRAY));
            });
        }
    });
}

fn steering_dial(ui: &mut Ui, steering_wheel_rad: f64, lock_deg: f64) {
    let (rect, _) = ui.allocate_exact_size(Vec2::splat(56.0), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    let centre = rect.center();
    let radius = rect.width() * 0.45;
    painter.circle_stroke(centre, radius, Stroke::new(3.0, Color32::from_gray(200)));
    // Positive steering is to the left (ISO 8855): the top marker turns anticlockwise.
    let angle = -to_f32(steering_wheel_rad);
    let dir = Vec2::new(angle.sin(), -angle.cos());
    painter.line_segment(
        [centre, centre + dir * radius],
        Stroke::new(3.0, Color32::from_rgb(255, 210, 80)),
    );
    if lock_deg > 0.0 {
        let near_lock = steering_wheel_rad.to_degrees().abs() >= lock_deg - 0.5;
        if near_lock {
            painter.circle_stroke(centre, radius + 3.0, Stroke::new(2.0, Color32::RED));
        }
    }
}

fn ffb_meter(ui: &mut Ui, level: f64, clip: f64) {
    ui.vertical(|ui| {
        let (rect, _) = ui.allocate_exact_size(Vec2::new(120.0, 14.0), egui::Sense::hover());
        let painter = ui.painter_at(rect);
        painter.rect_filled(rect, 2.0, Color32::from_gray(40));
        let mid = rect.center().x;
        let x = mid + rect.width() * 0.5 * to_f32(level.clamp(-1.0, 1.0));
        let bar = Rect::from_x_y_ranges(mid.min(x)..=mid.max(x), rect.y_range());
        let colour = if level.abs() >= 0.98 {
            Color32::RED
        } else {
            Color32::from_rgb(120, 180, 255)
        };
        painter.rect_filled(bar, 2.0, colour);
        ui.label(
            RichText::new(format!(
                "FFB {:>3.0}%  clip {:>4.1}%",
                level.abs() * 100.0,
                clip * 100.0
            ))
            .font(FontId::monospace(12.0))
            .color(if clip > 0.02 {
                Color32::from_rgb(255, 120, 80)
            } else {
                Color32::WHITE
            }),
        );
    });
}

fn laps(ui: &mut Ui, hud: &HudInputs<'_>) {
    let l = &hud.laps;
    let row = |ui: &mut Ui, name: &str, t: Option<f64>| {
        ui.label(
            RichText::new(format!("{name:<5} {}", lap_time_label(t)))
                .font(FontId::monospace(16.0))
                .color(Color32::WHITE),
        );
    };
    row(ui, "Lap", l.current_s);
    if let Some(delta) = l.delta_s.filter(|d| d.is_finite()) {
        // Green when gaining on the reference, red when losing, as every timing screen.
        let colour = if delta <= 0.0 {
            Color32::from_rgb(90, 230, 110)
        } else {
            Color32::from_rgb(255, 90, 80)
        };
        ui.add(
            egui::Label::new(
                RichText::new(format!("Delta {:+8.3}", delta + 0.0))
                    .font(FontId::monospace(16.0))
                    .color(colour),
            )
            .wrap_mode(egui::TextWrapMode::Extend),
        )
        .on_hover_text(format!(
            "Time gained (green) or lost (red) on the {}",
            l.reference
        ));
    }
    row(ui, "Last", l.last_s);
    row(ui, "Best", l.best_s);
    if l.delta_s.is_some() {
        ui.label(
            RichText::new(format!("delta vs {}", l.reference))
                .small()
                .color(Color32::GRAY),
        );
    }
    ui.label(
        RichText::new(format!("laps {}   camera {}", l.count, hud.camera))
            .small()
            .color(Color32::GRAY),
    );
}

fn wheels(ui: &mut Ui, s: &Snapshot) {
    egui::Grid::new("hud-wheel-grid")
        .num_columns(2)
        .spacing([10.0, 4.0])
        .show(ui, |ui| {
            for (i, w) in s.wheels.iter().enumerate() {
                let name = ["FL", "FR", "RL", "RR"][i];
                let text = format!(
                    "{name} {:>5.0} N  SR {:+5.2}  SA {:+5.1}°",
                    w.load_n,
                    w.slip_ratio,
                    w.slip_angle_rad.to_degrees()
                );
                let saturated = w.slip_ratio.abs() > 0.12 || w.slip_angle_rad.abs() > 0.14;
                ui.label(
                    RichText::new(text)
                        .font(FontId::monospace(12.0))
                        .color(if saturated {
                            Color32::from_rgb(255, 140, 60)
                        } else {
                            Color32::WHITE
                        }),
                );
                if i % 2 == 1 {
                    ui.end_row();
                    // The tyres' tread temperature, hot pressure and wear under their wheels.
                    for w in &s.wheels[i - 1..=i] {
                        if w.thermal_model {
                            ui.label(
                                RichText::new(format!(
                                    "   {:>4.0} °C  {:>4.2} bar  wear {:>3.0}%",
                                    w.tread_temp_c,
                                    w.pressure_pa / 1e5,
                                    w.wear * 100.0
                                ))
                                .font(FontId::monospace(12.0))
                                .color(tread_colour(w.tread_temp_c, w.tread_window_c)),
                            );
                        } else {
                            ui.label("");
                        }
                    }
                    ui.end_row();
                }
            }
        });
}

/// Blue when the tread is below its grip window, green inside it, red above: the window is
/// the tyre's optimum ± half its half-width, where grip is within a few percent of its best.
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // channels 0-255
pub fn tread_colour(tread_c: f64, (optimum_c, half_width_c): (f64, f64)) -> Color32 {
    if half_width_c <= 0.0 || !tread_c.is_finite() {
        return Color32::WHITE;
    }
    let d = (tread_c - optimum_c) / half_width_c;
    let cold = Color32::from_rgb(110, 170, 255);
    let good = Color32::from_rgb(90, 230, 110);
    let hot = Color32::from_rgb(255, 90, 80);
    let mix = |a: Color32, b: Color32, t: f64| {
        let t = t.clamp(0.0, 1.0);
        let c = |x: u8, y: u8| (f64::from(x) + (f64::from(y) - f64::from(x)) * t).round() as u8;
        Color32::from_rgb(c(a.r(), b.r()), c(a.g(), b.g()), c(a.b(), b.b()))
    };
    if d < -0.5 {
        mix(good, cold, (-d - 0.5) * 2.0)
    } else if d > 0.5 {
        mix(good, hot, (d - 0.5) * 2.0)
    } else {
        good
    }
}

fn timing(ui: &mut Ui, hud: &HudInputs<'_>) {
    let t = &hud.timing;
    let mono = |ui: &mut Ui, text: String| {
        ui.label(
            RichText::new(text)
                .font(FontId::monospace(12.0))
                .color(Color32::from_gray(220)),
        );
    };
    mono(
        ui,
        format!(
            "sim {:>6.1} Hz  p99 late {:>5.0} µs  {:>4.0} fps",
            t.tick_rate_hz, t.lateness_p99_us, t.fps
        ),
    );
    if hud.show_timing {
        mono(
            ui,
            format!(
                "late p50 {:>5.0} µs  max {:>6.0} µs",
                t.lateness_p50_us, t.lateness_max_us
            ),
        );
        mono(
            ui,
            format!(
                "ticks missed {}  dropped {}  step {:>5.1} µs",
                t.missed_ticks, t.dropped_ticks, t.step_cost_us
            ),
        );
        mono(
            ui,
            format!(
                "frame cpu {:>5.2} ms  spin {:>3.0} µs",
                t.frame_cpu_ms, t.spin_us
            ),
        );
        mono(ui, format!("snapshots dropped {}", t.dropped_snapshots));
    }
}

/// Draws a centred banner (for "PAUSED", "DEVICE LOST" and similar).
pub fn banner(ctx: &Context, text: &str) {
    panel(
        ctx,
        "hud-banner",
        Align2::CENTER_TOP,
        Vec2::new(0.0, 40.0),
        10.0,
        |ui| {
            ui.label(
                RichText::new(text)
                    .font(FontId::proportional(22.0))
                    .color(Color32::from_rgb(255, 210, 80)),
            );
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gears_read_as_drivers_read_them() {
        let pt = |mode, selector, gear, shown_gear| PowertrainTelemetry {
            mode,
            selector,
            gear,
            shown_gear,
            ..PowertrainTelemetry::default()
        };
        let (auto, seq, h) = (
            GearboxMode::Automatic,
            GearboxMode::Sequential,
            GearboxMode::HPattern,
        );
        assert_eq!(gear_label(&pt(auto, Selector::Drive, 4, 4)), "D4");
        // Mid-shift (neutral phase, 3 -> 4): the gear being shifted to, never N.
        assert_eq!(gear_label(&pt(auto, Selector::Drive, 0, 4)), "D4");
        assert_eq!(gear_label(&pt(auto, Selector::Drive, 0, 0)), "D");
        assert_eq!(gear_label(&pt(auto, Selector::Neutral, 0, 0)), "N");
        assert_eq!(gear_label(&pt(auto, Selector::Reverse, -1, -1)), "R");
        assert_eq!(gear_label(&pt(seq, Selector::Drive, 0, 3)), "S3");
        assert_eq!(gear_label(&pt(seq, Selector::Drive, 0, 0)), "N");
        assert_eq!(gear_label(&pt(seq, Selector::Drive, -1, -1)), "R");
        assert_eq!(gear_label(&pt(h, Selector::Drive, 5, 5)), "M5");
        assert_eq!(gear_label(&pt(h, Selector::Drive, 0, 0)), "N");
    }
}

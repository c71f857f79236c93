//! The force-feedback graph on the HUD (toggled with F4): the last few seconds of the torque
//! sent to the wheel, the clip level, and each stage's share (the car's torque, damping,
//! friction, inertia, the soft lock), so a driver can see what the wheel is being asked to
//! do and what clips.
//!
//! The window samples the newest tick once per frame, so content faster than half the frame
//! rate (a kerb's 40 Hz ripple) shows as its envelope here; `gripline headless --ffb-trace`
//! records every tick.

use std::collections::VecDeque;
use std::time::Duration;

use egui::{Align2, Color32, FontId, Pos2, Rect, Sense, Shape, Stroke, Ui, Vec2};
use gripline_input::ffb::pipeline::FfbParts;

/// How much history the graph shows.
pub const SPAN: Duration = Duration::from_secs(5);
/// Samples kept at most (a 240 Hz display for the whole span).
const CAPACITY: usize = 1200;

/// One frame's sample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GraphSample {
    /// When (time since the window opened).
    pub at: Duration,
    /// Torque sent (N·m).
    pub torque_nm: f64,
    /// The shares.
    pub parts: FfbParts,
    /// The tick clipped.
    pub clipped: bool,
}

/// The graph's history (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct FfbGraph {
    samples: VecDeque<GraphSample>,
    /// The clip level in force (N·m).
    pub max_nm: f64,
}

/// A named share and its colour.
type Series = (&'static str, Color32, fn(&GraphSample) -> f64);

const SERIES: [Series; 13] = [
    ("car", Color32::from_rgb(90, 170, 255), |s| s.parts.car_nm),
    ("road", Color32::from_rgb(150, 110, 70), |s| {
        s.parts.effects.road_nm
    }),
    ("kerb", Color32::from_rgb(255, 80, 80), |s| {
        s.parts.effects.kerb_nm
    }),
    ("scrub", Color32::from_rgb(255, 210, 80), |s| {
        s.parts.effects.scrub_nm
    }),
    ("lock-up", Color32::from_rgb(255, 120, 200), |s| {
        s.parts.effects.lockup_nm
    }),
    ("spin", Color32::from_rgb(120, 255, 230), |s| {
        s.parts.effects.wheelspin_nm
    }),
    ("ABS", Color32::from_rgb(180, 180, 255), |s| {
        s.parts.effects.abs_nm
    }),
    ("lat g", Color32::from_rgb(100, 200, 160), |s| {
        s.parts.effects.lateral_nm
    }),
    ("damping", Color32::from_rgb(120, 220, 120), |s| {
        s.parts.damping_nm
    }),
    ("friction", Color32::from_rgb(200, 200, 90), |s| {
        s.parts.friction_nm
    }),
    ("inertia", Color32::from_rgb(200, 130, 220), |s| {
        s.parts.inertia_nm
    }),
    ("soft lock", Color32::from_rgb(255, 150, 60), |s| {
        s.parts.soft_lock_nm
    }),
    ("test", Color32::from_rgb(160, 160, 160), |s| {
        s.parts.at_wheel_nm
    }),
];

impl FfbGraph {
    /// Adds a sample; forgets what is older than [`SPAN`].
    pub fn push(&mut self, sample: GraphSample, max_nm: f64) {
        self.max_nm = max_nm;
        if self.samples.back().is_some_and(|last| last.at >= sample.at) {
            return;
        }
        while self.samples.len() >= CAPACITY
            || self
                .samples
                .front()
                .is_some_and(|s| sample.at.saturating_sub(s.at) > SPAN)
        {
            self.samples.pop_front();
        }
        self.samples.push_back(sample);
    }

    /// The samples, oldest first.
    #[cfg(test)]
    pub fn samples(&self) -> impl Iterator<Item = &GraphSample> {
        self.samples.iter()
    }

    /// Draws the graph, `size` points large.
    pub fn draw(&self, ui: &mut Ui, size: Vec2) {
        let (rect, _) = ui.allocate_exact_size(size, Sense::hover());
        let plot = Rect::from_min_max(
            rect.min + Vec2::new(36.0, 4.0),
            rect.max - Vec2::new(4.0, 18.0),
        );
        let painter = ui.painter_at(rect);
        let Some(newest) = self.samples.back() else {
            painter.text(
                rect.center(),
                Align2::CENTER_CENTER,
                "no force feedback yet",
                FontId::proportional(12.0),
                Color32::GRAY,
            );
            return;
        };
        let max = if self.max_nm.is_finite() && self.max_nm > 0.0 {
            self.max_nm
        } else {
            1.0
        };
        let limit = 1.25 * max;
        let t_end = newest.at.as_secs_f64();
        let t_start = t_end - SPAN.as_secs_f64();
        let to_pos = |t: f64, nm: f64| {
            let x = (t - t_start) / SPAN.as_secs_f64();
            let y = 0.5 - 0.5 * (nm / limit).clamp(-1.0, 1.0);
            Pos2::new(
                plot.left() + plot.width() * super::hud::to_f32(x),
                plot.top() + plot.height() * super::hud::to_f32(y),
            )
        };
        // The clip level and zero.
        for (nm, colour) in [
            (max, Color32::from_rgb(220, 60, 50)),
            (-max, Color32::from_rgb(220, 60, 50)),
            (0.0, Color32::from_gray(70)),
        ] {
            painter.add(Shape::dashed_line(
                &[to_pos(t_start, nm), to_pos(t_end, nm)],
                Stroke::new(1.0, colour),
                5.0,
                4.0,
            ));
            painter.text(
                to_pos(t_start, nm) - Vec2::new(4.0, 0.0),
                Align2::RIGHT_CENTER,
                format!("{nm:+.1}"),
                FontId::proportional(10.0),
                Color32::GRAY,
            );
        }
        let sent: Vec<Pos2> = self
            .samples
            .iter()
            .map(|s| to_pos(s.at.as_secs_f64(), s.torque_nm))
            .collect();
        painter.add(Shape::line(sent, Stroke::new(2.0, Color32::WHITE)));
        // Each share that is not zero throughout, over the torque sent.
        for (_, colour, value) in SERIES {
            if self.samples.iter().all(|s| value(s) == 0.0) {
                continue;
            }
            let points: Vec<Pos2> = self
                .samples
                .iter()
                .map(|s| to_pos(s.at.as_secs_f64(), value(s)))
                .collect();
            painter.add(Shape::line(points, Stroke::new(1.2, colour)));
        }
        // Clipped ticks as red marks along the bottom.
        for s in self.samples.iter().filter(|s| s.clipped) {
            let p = to_pos(s.at.as_secs_f64(), -limit);
            painter.line_segment(
                [p, p - Vec2::new(0.0, 4.0)],
                Stroke::new(1.0, Color32::from_rgb(220, 60, 50)),
            );
        }
        // Legend.
        let mut x = plot.left();
        for (name, colour) in
            std::iter::once(("sent", Color32::WHITE)).chain(SERIES.iter().map(|(n, c, _)| (*n, *c)))
        {
            let galley =
                painter.layout_no_wrap(name.to_owned(), FontId::proportional(11.0), colour);
            let width = galley.size().x;
            painter.galley(Pos2::new(x, rect.bottom() - 15.0), galley, colour);
            x += width + 10.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(ms: u64, torque_nm: f64) -> GraphSample {
        GraphSample {
            at: Duration::from_millis(ms),
            torque_nm,
            parts: FfbParts::default(),
            clipped: false,
        }
    }

    #[test]
    fn keeps_the_last_span_in_order() {
        let mut g = FfbGraph::default();
        for ms in (0..8000).step_by(16) {
            g.push(sample(ms, 1.0), 4.0);
        }
        g.push(sample(100, 9.0), 4.0); // older than the newest: ignored
        let first = g.samples().next().unwrap().at;
        let last = g.samples().last().unwrap().at;
        assert!(last.saturating_sub(first) <= SPAN, "{first:?}..{last:?}");
        assert!(g.samples().all(|s| s.torque_nm.to_bits() == 1f64.to_bits()));
        assert!(g.samples().count() <= CAPACITY);
    }
}

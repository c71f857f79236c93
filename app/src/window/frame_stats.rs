//! Frame timing of the render thread: CPU time per frame and frame rate, over a window of
//! recent frames (no allocation per frame).

use std::time::{Duration, Instant};

/// Frames remembered.
const WINDOW: usize = 240;

/// Recent frames' CPU time and start instants.
#[derive(Clone, Debug)]
pub struct FrameStats {
    cpu_us: [u32; WINDOW],
    starts: [Option<Instant>; WINDOW],
    next: usize,
    count: u64,
}

impl Default for FrameStats {
    fn default() -> Self {
        Self {
            cpu_us: [0; WINDOW],
            starts: [None; WINDOW],
            next: 0,
            count: 0,
        }
    }
}

impl FrameStats {
    /// Records a frame that started at `start` and took `cpu` on the render thread.
    pub fn record(&mut self, cpu: Duration, start: Instant) {
        self.cpu_us[self.next] = u32::try_from(cpu.as_micros()).unwrap_or(u32::MAX);
        self.starts[self.next] = Some(start);
        self.next = (self.next + 1) % WINDOW;
        self.count += 1;
    }

    /// Frames recorded in all.
    pub fn count(&self) -> u64 {
        self.count
    }

    fn filled(&self) -> usize {
        usize::try_from(self.count).map_or(WINDOW, |c| c.min(WINDOW))
    }

    /// Median CPU time per frame over the window (ms), 0 without frames.
    pub fn cpu_median_ms(&self) -> f64 {
        self.cpu_quantile_ms(0.5)
    }

    /// A quantile (0–1) of the CPU time per frame over the window (ms).
    pub fn cpu_quantile_ms(&self, q: f64) -> f64 {
        let n = self.filled();
        if n == 0 {
            return 0.0;
        }
        let mut sorted = self.cpu_us;
        let sorted = &mut sorted[..n];
        sorted.sort_unstable();
        let rank = (q.clamp(0.0, 1.0) * (n - 1) as f64).round();
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let index = (rank as usize).min(n - 1);
        f64::from(sorted[index]) / 1000.0
    }

    /// Frames per second over the window, 0 with fewer than two frames.
    pub fn fps(&self) -> f64 {
        let n = self.filled();
        if n < 2 {
            return 0.0;
        }
        let newest = self.starts[(self.next + WINDOW - 1) % WINDOW];
        let oldest = self.starts[(self.next + WINDOW - n) % WINDOW];
        match (oldest, newest) {
            (Some(a), Some(b)) if b > a => (n - 1) as f64 / b.duration_since(a).as_secs_f64(),
            _ => 0.0,
        }
    }

    /// One line for `--stats`.
    pub fn summary(&self) -> String {
        format!(
            "frames: {}  cpu median {:.2} ms  p99 {:.2} ms  {:.1} fps",
            self.count(),
            self.cpu_median_ms(),
            self.cpu_quantile_ms(0.99),
            self.fps()
        )
    }
}

/// The sim thread's tick rate, measured by the UI over half-second windows.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct TickRate {
    mark: Option<(Instant, u64)>,
    rate_hz: f64,
}

impl TickRate {
    pub(crate) fn update(&mut self, ticks: u64, now: Instant) -> f64 {
        match self.mark {
            None => self.mark = Some((now, ticks)),
            Some((at, then)) => {
                let span = now.duration_since(at).as_secs_f64();
                if span >= 0.5 {
                    self.rate_hz = ticks.saturating_sub(then) as f64 / span;
                    self.mark = Some((now, ticks));
                }
            }
        }
        self.rate_hz
    }
}

pub(crate) fn stats_report(stats: &gripline_sim::realtime::SimStats) -> String {
    format!(
        "sim ticks: {}  lateness p50 {:.0} µs  p99 {:.0} µs  max {:.0} µs\n\
         missed ticks: {}  dropped after stalls: {}  snapshots dropped: {}\n\
         tick cost: mean {:.1} µs  p99 {:.1} µs  max {:.1} µs  priority raised: {}  \
         spin before deadlines: {:.0} µs",
        stats.ticks,
        stats.lateness_p50_us,
        stats.lateness_p99_us,
        stats.lateness_max_us,
        stats.missed_ticks,
        stats.dropped_ticks,
        stats.dropped_snapshots,
        stats.step_cost_mean_us,
        stats.step_cost_p99_us,
        stats.step_cost_max_us,
        stats.priority_raised,
        stats.spin_us
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_and_rate_of_steady_frames() {
        let mut stats = FrameStats::default();
        let t0 = Instant::now();
        for i in 0..100u32 {
            let cpu = Duration::from_micros(if i % 10 == 0 { 9000 } else { 2000 });
            stats.record(cpu, t0 + Duration::from_millis(u64::from(i) * 10));
        }
        assert!((stats.cpu_median_ms() - 2.0).abs() < 1e-9);
        assert!((stats.cpu_quantile_ms(1.0) - 9.0).abs() < 1e-9);
        // 100 frames 10 ms apart: 99 intervals in 0.99 s.
        assert!((stats.fps() - 100.0).abs() < 1e-6, "{}", stats.fps());
    }

    #[test]
    fn empty_and_single_frame_give_zeros() {
        let mut stats = FrameStats::default();
        assert!(stats.cpu_median_ms().abs() < 1e-12);
        assert!(stats.fps().abs() < 1e-12);
        stats.record(Duration::from_millis(3), Instant::now());
        assert!(stats.fps().abs() < 1e-12);
        assert!((stats.cpu_median_ms() - 3.0).abs() < 1e-9);
    }

    #[test]
    fn the_window_keeps_only_recent_frames() {
        let mut stats = FrameStats::default();
        let t0 = Instant::now();
        for i in 0..(2 * WINDOW as u64) {
            let cpu = if i < WINDOW as u64 { 50 } else { 1 };
            stats.record(
                Duration::from_millis(cpu),
                t0 + Duration::from_millis(i * 5),
            );
        }
        assert!((stats.cpu_median_ms() - 1.0).abs() < 1e-9);
        assert_eq!(stats.count(), 2 * WINDOW as u64);
    }
}

//! The sim thread's measurements of itself, shared with the UI through atomics.
//!
//! The sim thread records, per tick, its lateness (how long after the tick's deadline it
//! started) and its cost (how long the tick's work took) into fixed-size histograms of
//! atomic counters: a relaxed `fetch_add` per tick, no allocation, no lock. It also counts
//! missed ticks (started a whole period or more late), dropped ticks (skipped after a stall,
//! beyond the bounded catch-up), and snapshots the renderer did not take in time.
//!
//! The UI reads a [`SimStats`] at any time with [`SimStatsReader::read`]: the percentiles
//! are computed there, from the histograms, so the sim thread does no statistics work.
//! [`SimStats`] formats itself as one line for the HUD and for `--stats`.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// Buckets of each histogram (the last one also holds everything beyond): wide enough that a
/// bad p99 (a few ms of lateness under load) is still measured, not clipped to the maximum.
pub const BUCKETS: usize = 16_384;
/// Width of a lateness bucket (ns): 1 µs, so lateness is resolved to 1 µs up to ~16 ms.
pub const LATENESS_BUCKET_NS: u64 = 1000;
/// Width of a step-cost bucket (ns): 0.1 µs, up to ~1.6 ms.
pub const COST_BUCKET_NS: u64 = 100;

/// A fixed-size histogram of durations in atomic counters, with an exact maximum.
#[derive(Debug)]
pub struct Histogram {
    bucket_ns: u64,
    counts: Box<[AtomicU64]>,
    max_ns: AtomicU64,
    sum_ns: AtomicU64,
    total: AtomicU64,
}

impl Histogram {
    /// An empty histogram of [`BUCKETS`] buckets `bucket_ns` wide (allocates once, here).
    pub fn new(bucket_ns: u64) -> Self {
        Self {
            bucket_ns: bucket_ns.max(1),
            counts: (0..BUCKETS).map(|_| AtomicU64::new(0)).collect(),
            max_ns: AtomicU64::new(0),
            sum_ns: AtomicU64::new(0),
            total: AtomicU64::new(0),
        }
    }

    /// Records one value. Wait-free, allocation-free.
    pub fn record(&self, value: Duration) {
        let ns = u64::try_from(value.as_nanos()).unwrap_or(u64::MAX);
        let index = usize::try_from(ns / self.bucket_ns)
            .unwrap_or(BUCKETS - 1)
            .min(BUCKETS - 1);
        self.counts[index].fetch_add(1, Ordering::Relaxed);
        self.max_ns.fetch_max(ns, Ordering::Relaxed);
        self.sum_ns.fetch_add(ns, Ordering::Relaxed);
        self.total.fetch_add(1, Ordering::Relaxed);
    }

    /// Values recorded.
    pub fn count(&self) -> u64 {
        self.total.load(Ordering::Relaxed)
    }

    /// The largest value recorded (µs).
    pub fn max_us(&self) -> f64 {
        self.max_ns.load(Ordering::Relaxed) as f64 / 1000.0
    }

    /// The mean value (µs), 0 when empty.
    pub fn mean_us(&self) -> f64 {
        let n = self.count();
        if n == 0 {
            0.0
        } else {
            self.sum_ns.load(Ordering::Relaxed) as f64 / n as f64 / 1000.0
        }
    }

    /// The `q` quantile (0..1) in µs: the upper edge of the bucket where it falls (never
    /// above the maximum), or the maximum when it falls in the last, open-ended bucket.
    /// 0 when empty.
    pub fn quantile_us(&self, q: f64) -> f64 {
        self.quantiles_us([q])[0]
    }

    /// Several quantiles (see [`Histogram::quantile_us`]) from one read of the counters, so
    /// they are consistent with each other and the buckets are read once.
    pub fn quantiles_us<const N: usize>(&self, qs: [f64; N]) -> [f64; N] {
        let counts: Vec<u64> = self
            .counts
            .iter()
            .map(|c| c.load(Ordering::Relaxed))
            .collect();
        let total: u64 = counts.iter().sum();
        let max_us = self.max_us();
        qs.map(|q| {
            if total == 0 {
                return 0.0;
            }
            let q = if q.is_finite() {
                q.clamp(0.0, 1.0)
            } else {
                0.5
            };
            // The rank of the quantile, 1-based: the smallest value with at least q of the
            // data at or below it.
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let rank = ((q * total as f64).ceil() as u64).max(1);
            let mut seen = 0;
            for (i, c) in counts.iter().enumerate() {
                seen += c;
                if seen >= rank {
                    if i == BUCKETS - 1 {
                        return max_us;
                    }
                    let edge_us = ((i as u64 + 1) * self.bucket_ns) as f64 / 1000.0;
                    return edge_us.min(max_us);
                }
            }
            max_us
        })
    }

    /// Empties the histogram.
    pub fn clear(&self) {
        for c in &*self.counts {
            c.store(0, Ordering::Relaxed);
        }
        self.max_ns.store(0, Ordering::Relaxed);
        self.sum_ns.store(0, Ordering::Relaxed);
        self.total.store(0, Ordering::Relaxed);
    }
}

/// Everything the sim thread publishes about itself; written by the sim thread, read by
/// [`SimStatsReader`].
#[derive(Debug)]
pub struct SharedStats {
    /// Lateness of each tick's start after its deadline.
    pub lateness: Histogram,
    /// Work done in each tick (commands, input, physics, force feedback, publishing).
    pub step_cost: Histogram,
    /// Ticks run (scheduler ticks, paused or not).
    pub ticks: AtomicU64,
    /// Ticks that started a whole period or more after their deadline.
    pub missed: AtomicU64,
    /// Ticks skipped after a stall, beyond the bounded catch-up.
    pub dropped_ticks: AtomicU64,
    /// Session tick (the `tick` stamp) of the newest snapshot produced.
    pub latest_tick: AtomicU64,
    /// Force-feedback backend errors (force feedback is then stopped).
    pub ffb_errors: AtomicU64,
    /// Times the car was recovered by itself (upside down, stuck, out of the world) and put
    /// back on the road; the reset key's recoveries are not counted.
    pub auto_resets: AtomicU64,
    /// Whether the sim thread's priority could be raised.
    pub priority_raised: AtomicBool,
    /// The spin before each deadline the thread uses now (ns), as calibrated.
    pub spin_ns: AtomicU64,
    /// Whether the sim thread is running its loop.
    pub running: AtomicBool,
}

impl Default for SharedStats {
    fn default() -> Self {
        Self {
            lateness: Histogram::new(LATENESS_BUCKET_NS),
            step_cost: Histogram::new(COST_BUCKET_NS),
            ticks: AtomicU64::new(0),
            missed: AtomicU64::new(0),
            dropped_ticks: AtomicU64::new(0),
            latest_tick: AtomicU64::new(0),
            ffb_errors: AtomicU64::new(0),
            auto_resets: AtomicU64::new(0),
            priority_raised: AtomicBool::new(false),
            spin_ns: AtomicU64::new(0),
            running: AtomicBool::new(false),
        }
    }
}

impl SharedStats {
    /// Records the spin the sim thread uses now.
    pub fn record_spin(&self, spin: Duration) {
        let ns = u64::try_from(spin.as_nanos()).unwrap_or(u64::MAX);
        self.spin_ns.store(ns, Ordering::Relaxed);
    }
}

/// The figures at one moment (see the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SimStats {
    /// Ticks run since the thread started (or the stats were cleared).
    pub ticks: u64,
    /// Median tick lateness (µs).
    pub lateness_p50_us: f64,
    /// 99th percentile of tick lateness (µs).
    pub lateness_p99_us: f64,
    /// Largest tick lateness (µs).
    pub lateness_max_us: f64,
    /// Ticks that started a whole period or more late.
    pub missed_ticks: u64,
    /// Ticks skipped after stalls.
    pub dropped_ticks: u64,
    /// Snapshots dropped because the renderer did not drain the ring in time.
    pub dropped_snapshots: u64,
    /// Mean cost of a tick's work (µs).
    pub step_cost_mean_us: f64,
    /// 99th percentile of a tick's cost (µs).
    pub step_cost_p99_us: f64,
    /// Largest cost of a tick (µs).
    pub step_cost_max_us: f64,
    /// Session tick of the newest snapshot produced.
    pub latest_tick: u64,
    /// Force-feedback backend errors.
    pub ffb_errors: u64,
    /// Times the car was recovered by itself and put back on the road.
    pub auto_resets: u64,
    /// Whether the thread's priority was raised.
    pub priority_raised: bool,
    /// The spin before each deadline the thread uses now (µs).
    pub spin_us: f64,
}

/// The UI's view of a [`SharedStats`].
#[derive(Clone, Debug)]
pub struct SimStatsReader {
    shared: Arc<SharedStats>,
    snapshots_dropped: Arc<AtomicU64>,
}

impl SimStatsReader {
    /// A reader of `shared`, with the snapshot ring's drop counter.
    pub fn new(shared: Arc<SharedStats>, snapshots_dropped: Arc<AtomicU64>) -> Self {
        Self {
            shared,
            snapshots_dropped,
        }
    }

    /// The figures now. Allocates a little (UI side only).
    pub fn read(&self) -> SimStats {
        let s = &self.shared;
        let [lateness_p50_us, lateness_p99_us] = s.lateness.quantiles_us([0.5, 0.99]);
        SimStats {
            ticks: s.ticks.load(Ordering::Relaxed),
            lateness_p50_us,
            lateness_p99_us,
            lateness_max_us: s.lateness.max_us(),
            missed_ticks: s.missed.load(Ordering::Relaxed),
            dropped_ticks: s.dropped_ticks.load(Ordering::Relaxed),
            dropped_snapshots: self.snapshots_dropped.load(Ordering::Relaxed),
            step_cost_mean_us: s.step_cost.mean_us(),
            step_cost_p99_us: s.step_cost.quantile_us(0.99),
            step_cost_max_us: s.step_cost.max_us(),
            latest_tick: s.latest_tick.load(Ordering::Relaxed),
            ffb_errors: s.ffb_errors.load(Ordering::Relaxed),
            auto_resets: s.auto_resets.load(Ordering::Relaxed),
            priority_raised: s.priority_raised.load(Ordering::Relaxed),
            // Nanoseconds below 2^53 (104 days) convert exactly.
            #[allow(clippy::cast_precision_loss)]
            spin_us: s.spin_ns.load(Ordering::Relaxed) as f64 / 1e3,
        }
    }

    /// Whether the sim thread is running.
    pub fn running(&self) -> bool {
        self.shared.running.load(Ordering::Relaxed)
    }

    /// Clears the histograms and counters (e.g. after loading, to measure steady state).
    /// Racy by nature: a tick recorded during the clear may be half counted.
    pub fn clear(&self) {
        let s = &self.shared;
        s.lateness.clear();
        s.step_cost.clear();
        s.ticks.store(0, Ordering::Relaxed);
        s.missed.store(0, Ordering::Relaxed);
        s.dropped_ticks.store(0, Ordering::Relaxed);
        self.snapshots_dropped.store(0, Ordering::Relaxed);
    }
}

impl fmt::Display for SimStats {
    /// One line: `ticks 2000 | late p50 12 µs p99 48 µs max 310 µs | missed 0 dropped 0 |
    /// snapshots dropped 0 | step 1.8 µs (p99 3.1, max 22.0) | spin 210 µs`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ticks {} | late p50 {:.0} µs p99 {:.0} µs max {:.0} µs | missed {} dropped {} | \
             snapshots dropped {} | step {:.1} µs (p99 {:.1}, max {:.1}) | spin {:.0} µs",
            self.ticks,
            self.lateness_p50_us,
            self.lateness_p99_us,
            self.lateness_max_us,
            self.missed_ticks,
            self.dropped_ticks,
            self.dropped_snapshots,
            self.step_cost_mean_us,
            self.step_cost_p99_us,
            self.step_cost_max_us,
            self.spin_us,
        )?;
        if self.ffb_errors > 0 {
            write!(f, " | ffb errors {}", self.ffb_errors)?;
        }
        if self.auto_resets > 0 {
            write!(f, " | recoveries {}", self.auto_resets)?;
        }
        if !self.priority_raised {
            write!(f, " | normal priority")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_from_buckets() {
        let h = Histogram::new(LATENESS_BUCKET_NS);
        assert!(h.quantile_us(0.5).abs() < f64::EPSILON);
        for us in 1..=100u64 {
            h.record(Duration::from_micros(us));
        }
        // 50 values at or below 50 µs: the median falls in the bucket [50, 51) µs.
        assert!(
            (h.quantile_us(0.5) - 51.0).abs() < 1e-9,
            "{}",
            h.quantile_us(0.5)
        );
        assert!((h.quantile_us(0.99) - 100.0).abs() < 1e-9);
        assert!((h.max_us() - 100.0).abs() < 1e-9);
        assert!((h.mean_us() - 50.5).abs() < 1e-9);
        assert_eq!(h.count(), 100);
    }

    #[test]
    fn huge_values_land_in_the_last_bucket_with_an_exact_max() {
        let h = Histogram::new(LATENESS_BUCKET_NS);
        h.record(Duration::from_secs(3));
        h.record(Duration::MAX);
        assert_eq!(h.count(), 2);
        assert!(h.quantile_us(1.0) <= h.max_us());
        // Both in the open-ended last bucket: the quantile is the exact maximum.
        assert!((h.quantile_us(0.5) - h.max_us()).abs() < 1e-9);
        assert!(h.max_us() > 1e12);
        h.clear();
        assert_eq!(h.count(), 0);
        assert!(h.max_us().abs() < f64::EPSILON);
    }

    #[test]
    fn stats_format_as_one_line() {
        let s = SimStats {
            ticks: 2000,
            lateness_p50_us: 12.0,
            lateness_p99_us: 48.0,
            lateness_max_us: 310.0,
            step_cost_mean_us: 1.84,
            step_cost_p99_us: 3.1,
            step_cost_max_us: 22.0,
            priority_raised: true,
            spin_us: 210.0,
            ..SimStats::default()
        };
        assert_eq!(
            s.to_string(),
            "ticks 2000 | late p50 12 µs p99 48 µs max 310 µs | missed 0 dropped 0 | \
             snapshots dropped 0 | step 1.8 µs (p99 3.1, max 22.0) | spin 210 µs"
        );
        let bad = SimStats {
            ffb_errors: 1,
            ..SimStats::default()
        };
        assert!(
            bad.to_string()
                .ends_with("| ffb errors 1 | normal priority")
        );
    }
}

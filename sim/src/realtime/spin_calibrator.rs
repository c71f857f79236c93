//! How long before each deadline the sim thread stops sleeping and spins, learnt from how late
//! the operating system really wakes it.
//!
//! A sleep returns after the time asked for plus a wake-up delay: the timer slack (50 µs for a
//! normal thread, none at real-time priority), the scheduler's latency and, in a virtual
//! machine, the hypervisor's time to run a halted virtual CPU again. A tick starts late by
//! whatever part of that delay the spin does not cover. A fixed spin is too short somewhere
//! and wasteful elsewhere. On the 2-core virtual machines of the test set-up, at real-time
//! priority with the window open on the software rasteriser, most wake-ups came 10-30 µs late
//! but one or two in a hundred 0.3-3 ms late, and more of them the longer the sleep (the
//! virtual CPU halts): a fixed 50 µs spin left the ticks' 99th percentile lateness at
//! 0.9-1.2 ms, fixed spins of 200-300 µs at 12-430 µs from run to run, while a desktop wakes
//! a real-time thread within tens of microseconds and would spin its time away.
//!
//! [`SpinCalibrator`] keeps a histogram of the last [`WINDOW`] wake-up delays in
//! [`BUCKET_US`] buckets. After each window it takes their [`QUANTILE`] (the bucket's top)
//! plus [`MARGIN_US`]: the spin rises to that at once, and falls towards it by at most
//! [`RELEASE_US`] a window, so one quiet second does not undo what the noisy ones taught.
//! Delays longer than the largest spin allowed are stalls no spin could cover (a page fault,
//! the X server's socket copy); they are left out of the quantile instead of pinning the spin
//! to its bound. It allocates nothing and reads no clock: the sim thread passes the delays it
//! measured, tests pass made-up ones.

use std::time::Duration;

/// Wake-ups in one calibration window (a second at 1 kHz).
pub const WINDOW: u32 = 1000;
/// Width of a histogram bucket (µs).
pub const BUCKET_US: u64 = 10;
/// Buckets: delays up to `BUCKET_US * BUCKETS` (1 ms); longer ones are never covered.
pub const BUCKETS: usize = 100;
/// The share of the coverable wake-ups the spin should cover.
pub const QUANTILE: f64 = 0.999;
/// Added to the quantile (µs): the histogram's resolution and a little room.
pub const MARGIN_US: u64 = 20;
/// How far the spin may fall in one window (µs).
pub const RELEASE_US: u64 = 10;

/// The learnt spin (see the module docs).
#[derive(Clone, Debug)]
pub struct SpinCalibrator {
    counts: [u32; BUCKETS],
    /// Wake-ups in this window, stalls included.
    samples: u32,
    /// Wake-ups in this window a spin within the bounds could cover.
    coverable: u32,
    spin: Duration,
    min: Duration,
    max: Duration,
}

impl SpinCalibrator {
    /// A calibrator that spins `initial` until its first window is full, and never less than
    /// `min` nor more than `max` (`max` below `min` is raised to `min`).
    pub fn new(initial: Duration, min: Duration, max: Duration) -> Self {
        let max = max.max(min);
        Self {
            counts: [0; BUCKETS],
            samples: 0,
            coverable: 0,
            spin: initial.clamp(min, max),
            min,
            max,
        }
    }

    /// How long before a deadline to stop sleeping and spin.
    pub fn spin(&self) -> Duration {
        self.spin
    }

    /// Records one wake-up delay: how much later than asked a sleep returned.
    pub fn record(&mut self, delay: Duration) {
        if delay <= self.max {
            let bucket = usize::try_from(delay.as_micros() / u128::from(BUCKET_US))
                .unwrap_or(usize::MAX)
                .min(BUCKETS - 1);
            self.counts[bucket] += 1;
            self.coverable += 1;
        }
        self.samples += 1;
        if self.samples >= WINDOW {
            if let Some(needed) = self.quantile_top() {
                let released = self.spin.saturating_sub(Duration::from_micros(RELEASE_US));
                self.spin = needed.max(released).clamp(self.min, self.max);
            }
            self.counts = [0; BUCKETS];
            self.samples = 0;
            self.coverable = 0;
        }
    }

    /// The top of the bucket holding the window's [`QUANTILE`] of the coverable delays, plus
    /// [`MARGIN_US`]; `None` when none was coverable.
    fn quantile_top(&self) -> Option<Duration> {
        // The rank is at most WINDOW, far inside f64's exact integers.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let rank = (QUANTILE * f64::from(self.coverable)).ceil() as u32;
        let mut seen = 0;
        for (bucket, &count) in (0_u64..).zip(&self.counts) {
            seen += count;
            if count > 0 && seen >= rank {
                return Some(Duration::from_micros((bucket + 1) * BUCKET_US + MARGIN_US));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn us(n: u64) -> Duration {
        Duration::from_micros(n)
    }

    fn calibrator() -> SpinCalibrator {
        SpinCalibrator::new(us(200), us(20), us(500))
    }

    /// One window of wake-ups, delay `f(i)` for the `i`-th.
    fn window(c: &mut SpinCalibrator, f: impl Fn(u32) -> u64) {
        for i in 0..WINDOW {
            c.record(us(f(i)));
        }
    }

    #[test]
    fn keeps_the_initial_spin_until_a_window_is_full() {
        let mut c = calibrator();
        for _ in 0..WINDOW - 1 {
            c.record(us(250));
        }
        assert_eq!(c.spin(), us(200));
        c.record(us(250));
        // Every delay in the bucket [250, 260): its top plus the margin.
        assert_eq!(c.spin(), us(280));
    }

    #[test]
    fn covers_the_delays_of_a_slow_waking_machine() {
        // A virtual machine: wake-ups 60-180 µs late, 180 µs eight times in the thousand.
        let mut c = calibrator();
        window(&mut c, |i| 60 + u64::from(i % 121));
        // The 999th delay is 180 µs, in the bucket [180, 190): its top plus the margin.
        assert_eq!(c.spin(), us(210));
    }

    #[test]
    fn falls_slowly_and_rises_at_once() {
        let mut c = calibrator();
        window(&mut c, |_| 400);
        assert_eq!(c.spin(), us(430));
        // A quiet window: down by the release step only.
        window(&mut c, |_| 25);
        assert_eq!(c.spin(), us(420));
        for _ in 0..100 {
            window(&mut c, |_| 25);
        }
        // Down to what the quiet windows need (the bucket [20, 30) plus the margin).
        assert_eq!(c.spin(), us(50));
        // One wake-up in the thousand needs 300 µs, another 290: covered at once.
        window(&mut c, |i| match i {
            7 => 300,
            8 => 290,
            _ => 25,
        });
        assert_eq!(c.spin(), us(320));
    }

    #[test]
    fn stalls_no_spin_could_cover_are_left_out() {
        // Ten stalls of 3 ms in a thousand wake-ups: the spin covers the rest, and is not
        // pinned to its bound by what it could not cover anyway.
        let mut c = calibrator();
        window(&mut c, |i| if i % 100 == 0 { 3000 } else { 15 });
        assert_eq!(c.spin(), us(190));
        for _ in 0..20 {
            window(&mut c, |i| if i % 100 == 0 { 3000 } else { 15 });
        }
        assert_eq!(c.spin(), us(40));
        // Nothing coverable at all: the spin stays as it is.
        window(&mut c, |_| 3000);
        assert_eq!(c.spin(), us(40));
    }

    #[test]
    fn bounds_hold_for_any_delay() {
        let mut c = SpinCalibrator::new(us(5), us(20), us(10));
        // The maximum is raised to the minimum, and the initial spin held to them.
        assert_eq!(c.spin(), us(20));
        for _ in 0..WINDOW {
            c.record(Duration::MAX);
        }
        assert_eq!(c.spin(), us(20));
        let mut c = SpinCalibrator::new(us(20), us(20), us(1000));
        window(&mut c, |_| 0);
        assert_eq!(c.spin(), us(30));
        // A 1 ms bound: the last bucket's delays are covered, within the bound.
        window(&mut c, |_| 999);
        assert_eq!(c.spin(), us(1000));
    }
}

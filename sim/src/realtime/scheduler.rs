//! Fixed-rate scheduling against absolute deadlines, as a pure state machine.
//!
//! [`TickScheduler`] holds the next tick's deadline (`next += period` after every tick, so
//! lateness never accumulates into drift) and decides, from the time it is given, whether to
//! wait or to run a tick now. After a stall it runs the overdue ticks back to back, but at
//! most `max_catch_up` of them; the deadlines beyond are skipped and counted as dropped, so a
//! long stall costs a few fast ticks, not a death spiral. It reads no clock: the sim thread
//! passes `Instant` offsets, tests pass made-up times.
//!
//! [`wait_until`] is the waiting half: it sleeps until a little before the deadline and spins
//! (yielding the CPU's pipeline with `spin_loop`) for the rest, since an OS sleep overshoots
//! (by tens of microseconds on a desktop, by hundreds in a virtual machine). It reports each
//! overshoot, from which [`super::spin_calibrator`] learns how long to spin.

use std::time::{Duration, Instant};

/// What the scheduler says to do now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TickDecision {
    /// Nothing is due: wait until this time (same origin as the times passed in).
    WaitUntil(Duration),
    /// Run one tick now.
    Tick {
        /// How late the tick starts after its deadline.
        lateness: Duration,
        /// Deadlines skipped just now because the catch-up bound was exceeded.
        dropped: u64,
    },
}

/// The fixed-rate scheduler (see the module docs).
#[derive(Clone, Debug)]
pub struct TickScheduler {
    period: Duration,
    max_catch_up: u64,
    next: Duration,
    ticks: u64,
    missed: u64,
    dropped: u64,
}

impl TickScheduler {
    /// A scheduler of `period` (at least 1 µs) whose first deadline is `start`, running at
    /// most `max_catch_up` overdue ticks back to back after a stall (at least 1).
    pub fn new(period: Duration, max_catch_up: u64, start: Duration) -> Self {
        Self {
            period: period.max(Duration::from_micros(1)),
            max_catch_up: max_catch_up.max(1),
            next: start,
            ticks: 0,
            missed: 0,
            dropped: 0,
        }
    }

    /// The period.
    pub fn period(&self) -> Duration {
        self.period
    }

    /// The next deadline.
    pub fn next_deadline(&self) -> Duration {
        self.next
    }

    /// Ticks granted so far.
    pub fn ticks(&self) -> u64 {
        self.ticks
    }

    /// Ticks granted a whole period or more after their deadline.
    pub fn missed(&self) -> u64 {
        self.missed
    }

    /// Deadlines skipped after stalls.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// What to do at `now`. A [`TickDecision::Tick`] consumes the deadline: the next call
    /// considers the following one.
    pub fn poll(&mut self, now: Duration) -> TickDecision {
        if now < self.next {
            return TickDecision::WaitUntil(self.next);
        }
        let period_ns = self.period.as_nanos();
        let behind = now.saturating_sub(self.next).as_nanos() / period_ns;
        let mut dropped = 0;
        if behind > u128::from(self.max_catch_up) {
            let skip = behind - u128::from(self.max_catch_up);
            dropped = u64::try_from(skip).unwrap_or(u64::MAX);
            self.next += duration_of(period_ns.saturating_mul(skip));
            self.dropped = self.dropped.saturating_add(dropped);
        }
        let lateness = now.saturating_sub(self.next);
        if lateness >= self.period {
            self.missed += 1;
        }
        self.next += self.period;
        self.ticks += 1;
        TickDecision::Tick { lateness, dropped }
    }
}

/// `ns` nanoseconds as a duration, saturating.
fn duration_of(ns: u128) -> Duration {
    let secs = u64::try_from(ns / 1_000_000_000).unwrap_or(u64::MAX);
    // The remainder is below 10^9, so it fits.
    let nanos = u32::try_from(ns % 1_000_000_000).unwrap_or(0);
    Duration::new(secs, nanos)
}

/// Waits until `deadline`: sleeps until `spin` before it, then spins. Returns at once for a
/// deadline in the past. Returns how much later than asked the last sleep returned (the
/// wake-up delay, for [`super::spin_calibrator::SpinCalibrator`]), `None` when it did not
/// sleep.
pub fn wait_until(deadline: Instant, spin: Duration) -> Option<Duration> {
    let mut delay = None;
    loop {
        let now = Instant::now();
        if now >= deadline {
            return delay;
        }
        let remaining = deadline - now;
        if remaining > spin {
            let nap = remaining.saturating_sub(spin);
            std::thread::sleep(nap);
            delay = Some(Instant::now().saturating_duration_since(now + nap));
        } else {
            std::hint::spin_loop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    fn us(n: u64) -> Duration {
        Duration::from_micros(n)
    }

    #[test]
    fn waits_for_the_deadline_then_ticks_once_per_period() {
        let mut s = TickScheduler::new(MS, 5, MS);
        assert_eq!(s.poll(us(400)), TickDecision::WaitUntil(MS));
        assert_eq!(
            s.poll(us(1030)),
            TickDecision::Tick {
                lateness: us(30),
                dropped: 0
            }
        );
        // Deadlines are absolute: the next one is 2 ms, not 2.03 ms.
        assert_eq!(s.poll(us(1100)), TickDecision::WaitUntil(us(2000)));
        assert_eq!(
            s.poll(us(2000)),
            TickDecision::Tick {
                lateness: Duration::ZERO,
                dropped: 0
            }
        );
        assert_eq!(s.ticks(), 2);
        assert_eq!(s.missed(), 0);
    }

    #[test]
    fn a_long_stall_catches_up_a_bounded_number_of_ticks_and_drops_the_rest() {
        let mut s = TickScheduler::new(MS, 5, Duration::ZERO);
        assert!(matches!(s.poll(Duration::ZERO), TickDecision::Tick { .. }));
        // Stalled for 50 ms: deadlines 1..=50 ms are due.
        let now = us(50_500);
        let mut granted = 0;
        let mut dropped = 0;
        while let TickDecision::Tick { dropped: d, .. } = s.poll(now) {
            granted += 1;
            dropped += d;
            assert!(granted <= 10, "no death spiral");
        }
        // 5 overdue ticks plus the one due now; 44 deadlines dropped.
        assert_eq!(granted, 6);
        assert_eq!(dropped, 44);
        assert_eq!(s.dropped(), 44);
        assert_eq!(granted + dropped, 50);
        // Back on schedule: the next deadline is in the future.
        assert_eq!(s.poll(now), TickDecision::WaitUntil(us(51_000)));
        assert_eq!(s.missed(), 5);
    }

    #[test]
    fn a_short_stall_is_caught_up_completely() {
        let mut s = TickScheduler::new(MS, 5, Duration::ZERO);
        let now = us(3_200);
        let mut granted = 0;
        while let TickDecision::Tick { dropped, .. } = s.poll(now) {
            assert_eq!(dropped, 0);
            granted += 1;
        }
        assert_eq!(granted, 4);
        assert_eq!(s.dropped(), 0);
    }

    #[test]
    fn wait_until_reaches_the_deadline() {
        let start = Instant::now();
        let deadline = start + us(1500);
        // 1.5 ms away with a 200 µs spin: it sleeps first, and says how late the sleep ended.
        let delay = wait_until(deadline, us(200));
        let late = deadline.elapsed();
        assert!(Instant::now() >= deadline);
        assert!(delay.is_some());
        // Generous: a loaded machine may preempt the spinning thread.
        assert!(late < Duration::from_millis(50), "{late:?}");
        // A deadline in the past: no sleep.
        assert_eq!(wait_until(start, us(200)), None);
    }
}

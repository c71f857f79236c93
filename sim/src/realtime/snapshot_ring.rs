//! The snapshot ring: a wait-free single-producer single-consumer queue of plain-data,
//! tick-stamped vehicle states from the sim thread to the renderer (`docs/architecture.md`, "Data
//! flow").
//!
//! The producer never blocks: when the ring is full (the renderer did not drain it for a
//! while, e.g. the window was being resized) the new snapshot is dropped and counted. The
//! consumer drains everything each frame ([`crate::realtime::interpolation::Interpolator`]
//! does) and so gets fresh states again from the next frame on.

use gripline_input::ffb::pipeline::FfbParts;
use gripline_input::ffb::safety::StopReason;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use gripline_physics::vehicle::Snapshot;
use rtrb::{Consumer, Producer, RingBuffer};

use crate::lap_timer::LapTimes;

/// Snapshots a ring holds by default: a quarter of a second at 1 kHz.
pub const DEFAULT_RING_CAPACITY: usize = 256;

/// What the HUD shows besides the vehicle state, for one tick.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[allow(clippy::struct_excessive_bools)] // independent flags for the HUD
pub struct HudFrame {
    /// Force-feedback level sent this tick (-1..1 of the wheel's peak, after safety).
    pub ffb_level: f64,
    /// Torque the pipeline rendered this tick (N·m), zero when no input was processed.
    pub ffb_torque_nm: f64,
    /// The requested torque exceeded the maximum this tick.
    pub ffb_clipped: bool,
    /// Fraction of clipped ticks over the pipeline's meter window (0..1).
    pub ffb_clipping_fraction: f64,
    /// What each stage of the force-feedback pipeline asked for this tick (N·m).
    pub ffb_parts: FfbParts,
    /// The user's maximum torque in force (N·m): the clip level.
    pub ffb_max_nm: f64,
    /// The force-feedback kill switch is engaged.
    pub ffb_killed: bool,
    /// The emergency stop (a panic somewhere in the program) stopped force feedback: it
    /// stays off until the user turns it back on.
    pub ffb_emergency_stopped: bool,
    /// Force feedback is cut by a safety rule (the runaway trip), for this reason, until the
    /// user re-enables it.
    pub ffb_cut: Option<StopReason>,
    /// The driver model drives.
    pub autopilot: bool,
    /// The simulation is paused (the vehicle state does not advance).
    pub paused: bool,
    /// Lap timing.
    pub laps: LapTimes,
    /// Look-left held (camera).
    pub look_left: bool,
    /// Look-right held (camera).
    pub look_right: bool,
}

/// One tick's state, stamped.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stamped {
    /// Physics ticks stepped since the session started or was last reset (1 tick = 1 ms).
    /// Stays the same while paused.
    pub tick: u64,
    /// Incremented at every reset and every car or track swap: states of different epochs
    /// must not be interpolated.
    pub epoch: u32,
    /// The vehicle after the tick.
    pub snapshot: Snapshot,
    /// Rotation of each wheel about its axle (rad, in `[0, 2π)`; front-left, front-right,
    /// rear-left, rear-right), integrated from the spin rates, for drawing the wheels.
    pub wheel_rotation_rad: [f64; 4],
    /// The HUD's figures.
    pub hud: HudFrame,
}

impl Default for Stamped {
    fn default() -> Self {
        Self {
            tick: 0,
            epoch: 0,
            snapshot: Snapshot::default(),
            wheel_rotation_rad: [0.0; 4],
            hud: HudFrame::default(),
        }
    }
}

/// The sim thread's end of the ring.
#[derive(Debug)]
pub struct SnapshotProducer {
    producer: Producer<Stamped>,
    dropped: Arc<AtomicU64>,
}

/// The renderer's end of the ring.
#[derive(Debug)]
pub struct SnapshotConsumer {
    consumer: Consumer<Stamped>,
    dropped: Arc<AtomicU64>,
}

/// A ring of `capacity` snapshots (at least 2).
pub fn snapshot_ring(capacity: usize) -> (SnapshotProducer, SnapshotConsumer) {
    let (mut producer, mut consumer) = RingBuffer::new(capacity.max(2));
    super::prefault::prefault_ring(&mut producer, &mut consumer, Stamped::default);
    let dropped = Arc::new(AtomicU64::new(0));
    (
        SnapshotProducer {
            producer,
            dropped: Arc::clone(&dropped),
        },
        SnapshotConsumer { consumer, dropped },
    )
}

impl SnapshotProducer {
    /// Pushes `stamped`; when the ring is full it is dropped and counted instead. Returns
    /// whether it was queued. Wait-free, allocation-free.
    pub fn push(&mut self, stamped: Stamped) -> bool {
        if self.producer.push(stamped).is_ok() {
            true
        } else {
            self.dropped.fetch_add(1, Ordering::Relaxed);
            false
        }
    }

    /// Snapshots dropped so far because the ring was full.
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }
}

impl SnapshotConsumer {
    /// The oldest queued snapshot, if any.
    pub fn pop(&mut self) -> Option<Stamped> {
        self.consumer.pop().ok()
    }

    /// Snapshots queued now.
    pub fn len(&self) -> usize {
        self.consumer.slots()
    }

    /// Whether nothing is queued.
    pub fn is_empty(&self) -> bool {
        self.consumer.is_empty()
    }

    /// Snapshots the producer dropped so far because the ring was full.
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }

    /// The shared drop counter, for [`super::stats::SimStatsReader`].
    pub fn dropped_counter(&self) -> Arc<AtomicU64> {
        Arc::clone(&self.dropped)
    }

    /// Whether the producer is gone (the sim thread ended).
    pub fn is_abandoned(&self) -> bool {
        self.consumer.is_abandoned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(tick: u64) -> Stamped {
        Stamped {
            tick,
            ..Stamped::default()
        }
    }

    #[test]
    fn full_ring_drops_and_counts_without_blocking() {
        let (mut tx, mut rx) = snapshot_ring(4);
        for t in 0..10 {
            tx.push(at(t));
        }
        assert_eq!(tx.dropped(), 6);
        assert_eq!(rx.dropped(), 6);
        let ticks: Vec<u64> = std::iter::from_fn(|| rx.pop()).map(|s| s.tick).collect();
        assert_eq!(ticks, [0, 1, 2, 3]);
    }

    #[test]
    fn wraps_around_many_times_in_order() {
        let (mut tx, mut rx) = snapshot_ring(3);
        let mut next = 0;
        for t in 0..100 {
            assert!(tx.push(at(t)));
            if t % 2 == 1 {
                while let Some(s) = rx.pop() {
                    assert_eq!(s.tick, next);
                    next += 1;
                }
            }
        }
        assert_eq!(next, 100);
        assert_eq!(rx.dropped(), 0);
        assert!(rx.is_empty());
        drop(tx);
        assert!(rx.is_abandoned());
    }
}

//! Render-side interpolation between tick-stamped snapshots.
//!
//! Each frame the renderer calls [`Interpolator::drain`] (everything the sim thread pushed
//! since the last frame) and then [`Interpolator::sample`] with the wall-clock time. The
//! interpolator keeps the last [`HISTORY`] snapshots and a *render tick*, a fractional tick
//! number that advances with the wall clock at the tick rate, so motion is smooth at any
//! frame rate, and is pulled gently towards `newest tick - delay` (1 to 2 ticks behind the
//! newest, so that two snapshots bracket it). It never runs ahead of the newest snapshot
//! (no extrapolation), and it snaps to the target when it falls too far behind (the first
//! frame, a slow frame, the sim dropping ticks after a stall).
//!
//! The state at the render tick comes from the two snapshots bracketing it, however far apart
//! (dropped snapshots leave gaps): positions and wheel centres lerped, orientation slerped
//! along the shortest path, wheel spin, steer, travel and rotation and the steering wheel
//! lerped; the HUD's scalars (speeds, forces, engine, laps...) come from the newer snapshot.
//!
//! A reset or a car/track swap starts a new *epoch* and restarts the tick count: a snapshot
//! whose epoch differs, or whose tick goes backwards, clears the history and snaps the render
//! tick to it; nothing is interpolated across the discontinuity.

use std::time::Duration;

use glam::DQuat;
use gripline_physics::STEP_RATE_HZ;
use gripline_physics::vehicle::Snapshot;

use super::snapshot_ring::{SnapshotConsumer, Stamped};

/// Snapshots kept.
pub const HISTORY: usize = 32;
/// Behind the target by more than this many ticks, the render tick snaps to it.
const MAX_LAG_TICKS: f64 = 50.0;
/// Rate (1/s) at which the render tick is pulled towards its target.
const CORRECTION_PER_S: f64 = 5.0;
/// Longest frame interval taken into account (s): after a longer pause the render tick snaps.
const MAX_FRAME_S: f64 = 0.25;

/// The state to draw.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interpolated {
    /// The render tick (fractional) the state is for.
    pub tick: f64,
    /// The epoch of the snapshots it came from.
    pub epoch: u32,
    /// The state: the newer snapshot with its pose, wheels and steering wheel interpolated.
    pub stamped: Stamped,
}

/// The render-side interpolator (see the module docs).
#[derive(Clone, Debug)]
pub struct Interpolator {
    history: Box<[Stamped]>,
    /// Index of the oldest entry.
    head: usize,
    len: usize,
    delay_ticks: f64,
    render_tick: Option<f64>,
    last_sample: Option<Duration>,
    discontinuities: u64,
}

impl Interpolator {
    /// An empty interpolator rendering `delay_ticks` behind the newest snapshot (clamped to
    /// 1..=8; 1.5 is a good value). Allocates its history once, here.
    pub fn new(delay_ticks: f64) -> Self {
        Self {
            history: vec![Stamped::default(); HISTORY].into_boxed_slice(),
            head: 0,
            len: 0,
            delay_ticks: if delay_ticks.is_finite() {
                delay_ticks.clamp(1.0, 8.0)
            } else {
                1.5
            },
            render_tick: None,
            last_sample: None,
            discontinuities: 0,
        }
    }

    /// Takes every queued snapshot from `consumer`; returns how many.
    pub fn drain(&mut self, consumer: &mut SnapshotConsumer) -> usize {
        let mut n = 0;
        while let Some(s) = consumer.pop() {
            self.push(s);
            n += 1;
        }
        n
    }

    /// As [`Interpolator::drain`], showing each snapshot to `each` first (the lap recorder
    /// sees every tick the UI receives).
    pub fn drain_each(
        &mut self,
        consumer: &mut SnapshotConsumer,
        mut each: impl FnMut(&Stamped),
    ) -> usize {
        let mut n = 0;
        while let Some(s) = consumer.pop() {
            each(&s);
            self.push(s);
            n += 1;
        }
        n
    }

    /// Adds one snapshot (normally through [`Interpolator::drain`]). A snapshot with the
    /// newest one's tick replaces it (the sim publishes every tick while paused).
    pub fn push(&mut self, stamped: Stamped) {
        if let Some(newest) = self.newest() {
            if stamped.epoch != newest.epoch || stamped.tick < newest.tick {
                self.discontinuities += 1;
                self.len = 0;
                self.head = 0;
                self.render_tick = None;
            } else if stamped.tick == newest.tick {
                let last = self.index(self.len - 1);
                self.history[last] = stamped;
                return;
            }
        }
        if self.len == HISTORY {
            self.head = (self.head + 1) % HISTORY;
            self.len -= 1;
        }
        let slot = self.index(self.len);
        self.history[slot] = stamped;
        self.len += 1;
    }

    /// The newest snapshot, if any.
    pub fn newest(&self) -> Option<&Stamped> {
        (self.len > 0).then(|| &self.history[self.index(self.len - 1)])
    }

    /// Snapshots held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no snapshot arrived yet (or since the last discontinuity).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Resets and swaps seen so far (epoch changes and ticks going backwards).
    pub fn discontinuities(&self) -> u64 {
        self.discontinuities
    }

    fn index(&self, i: usize) -> usize {
        (self.head + i) % HISTORY
    }

    fn at(&self, i: usize) -> &Stamped {
        &self.history[self.index(i)]
    }

    /// The state to draw at wall-clock time `now` (any monotonic origin, e.g. the app's
    /// start); `None` before the first snapshot.
    pub fn sample(&mut self, now: Duration) -> Option<Interpolated> {
        let newest = *self.newest()?;
        let frame_s = self
            .last_sample
            .map_or(0.0, |last| now.saturating_sub(last).as_secs_f64());
        self.last_sample = Some(now);
        let newest_tick = newest.tick as f64;
        let target = (newest_tick - self.delay_ticks).max(self.at(0).tick as f64);
        let render = match self.render_tick {
            Some(r) if frame_s <= MAX_FRAME_S && target - r <= MAX_LAG_TICKS => {
                let advanced = r + frame_s * STEP_RATE_HZ;
                let pull = (frame_s * CORRECTION_PER_S).min(1.0);
                advanced + (target - advanced) * pull
            }
            _ => target,
        };
        let render = render.min(newest_tick).max(self.at(0).tick as f64);
        self.render_tick = Some(render);
        Some(self.at_tick(render))
    }

    /// The state at fractional tick `tick`, from the bracketing snapshots (clamped to the
    /// oldest and newest held). Panics never; `history` must not be empty.
    fn at_tick(&self, tick: f64) -> Interpolated {
        let newest = *self.at(self.len - 1);
        // The first snapshot at or after `tick`.
        let after = (0..self.len)
            .find(|&i| self.at(i).tick as f64 >= tick)
            .unwrap_or(self.len - 1);
        if after == 0 {
            let only = *self.at(0);
            return Interpolated {
                tick: only.tick as f64,
                epoch: only.epoch,
                stamped: only,
            };
        }
        let a = self.at(after - 1);
        let b = self.at(after);
        let span = (b.tick - a.tick) as f64;
        let t = if span > 0.0 {
            ((tick - a.tick as f64) / span).clamp(0.0, 1.0)
        } else {
            1.0
        };
        Interpolated {
            tick,
            epoch: newest.epoch,
            stamped: blend(a, b, t),
        }
    }
}

fn lerp(a: f64, b: f64, t: f64) -> f64 {
    a + (b - a) * t
}

/// Interpolates an angle in `[0, 2π)` the short way round, result in `[0, 2π)`.
fn lerp_angle(a: f64, b: f64, t: f64) -> f64 {
    let tau = std::f64::consts::TAU;
    let mut d = (b - a).rem_euclid(tau);
    if d > std::f64::consts::PI {
        d -= tau;
    }
    (a + d * t).rem_euclid(tau)
}

/// Spherical interpolation along the shortest arc (`q` and `-q` are the same rotation).
pub fn slerp_shortest(a: DQuat, b: DQuat, t: f64) -> DQuat {
    let b = if a.dot(b) < 0.0 { -b } else { b };
    a.slerp(b, t).normalize()
}

/// `b` with its pose, wheels and steering wheel interpolated from `a` at `t` (0 = `a`).
fn blend(a: &Stamped, b: &Stamped, t: f64) -> Stamped {
    let mut out = *b;
    let (sa, sb): (&Snapshot, &Snapshot) = (&a.snapshot, &b.snapshot);
    let s = &mut out.snapshot;
    s.time_s = lerp(sa.time_s, sb.time_s, t);
    s.position = sa.position.lerp(sb.position, t);
    s.orientation = slerp_shortest(sa.orientation, sb.orientation, t);
    s.steering_wheel_rad = lerp(sa.steering_wheel_rad, sb.steering_wheel_rad, t);
    for (i, w) in s.wheels.iter_mut().enumerate() {
        let (wa, wb) = (&sa.wheels[i], &sb.wheels[i]);
        w.centre_position = wa.centre_position.lerp(wb.centre_position, t);
        w.spin_rad_per_s = lerp(wa.spin_rad_per_s, wb.spin_rad_per_s, t);
        w.steer_angle_rad = lerp(wa.steer_angle_rad, wb.steer_angle_rad, t);
        w.suspension_travel_m = lerp(wa.suspension_travel_m, wb.suspension_travel_m, t);
        out.wheel_rotation_rad[i] = lerp_angle(a.wheel_rotation_rad[i], b.wheel_rotation_rad[i], t);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::realtime::snapshot_ring::snapshot_ring;
    use glam::DVec3;

    /// A snapshot at `tick` whose x position is the tick in metres and whose yaw is 1 mrad
    /// per tick.
    fn at(tick: u64, epoch: u32) -> Stamped {
        let mut s = Stamped {
            tick,
            epoch,
            ..Stamped::default()
        };
        s.snapshot.position = DVec3::new(tick as f64, 0.0, 0.5);
        s.snapshot.orientation = DQuat::from_rotation_z(tick as f64 * 1e-3);
        s.snapshot.speed_m_per_s = tick as f64;
        for w in &mut s.snapshot.wheels {
            w.suspension_travel_m = tick as f64 * 1e-3;
        }
        s
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn empty_gives_nothing_and_a_single_snapshot_is_returned_as_is() {
        let mut i = Interpolator::new(1.5);
        assert!(i.sample(ms(0)).is_none());
        i.push(at(7, 0));
        let s = i.sample(ms(1)).unwrap();
        assert_eq!(s.stamped, at(7, 0));
        assert!((s.tick - 7.0).abs() < 1e-12);
    }

    #[test]
    fn brackets_the_render_tick_between_two_snapshots() {
        let mut i = Interpolator::new(1.5);
        for t in 0..=10 {
            i.push(at(t, 0));
        }
        // First frame: the render tick snaps to 10 - 1.5.
        let s = i.sample(ms(100)).unwrap();
        assert!((s.tick - 8.5).abs() < 1e-12);
        assert!((s.stamped.snapshot.position.x - 8.5).abs() < 1e-9);
        assert!((s.stamped.snapshot.wheels[2].suspension_travel_m - 8.5e-3).abs() < 1e-12);
        // HUD scalars from the newer snapshot.
        assert!((s.stamped.snapshot.speed_m_per_s - 9.0).abs() < 1e-12);
        assert_eq!(s.stamped.tick, 9);
    }

    #[test]
    fn slerp_midpoint_and_shortest_path() {
        let a = DQuat::from_rotation_z(0.0);
        let b = DQuat::from_rotation_z(1.0);
        let mid = slerp_shortest(a, b, 0.5);
        assert!(mid.angle_between(DQuat::from_rotation_z(0.5)) < 1e-9);
        // -b is the same rotation: the midpoint must not go the long way round.
        let mid_neg = slerp_shortest(a, -b, 0.5);
        assert!(mid_neg.angle_between(DQuat::from_rotation_z(0.5)) < 1e-9);
        // Across ±π yaw: from 170° to -170° the midpoint is 180°, not 0°.
        let c = DQuat::from_rotation_z(170f64.to_radians());
        let d = DQuat::from_rotation_z(-170f64.to_radians());
        let m = slerp_shortest(c, d, 0.5);
        assert!(m.angle_between(DQuat::from_rotation_z(std::f64::consts::PI)) < 1e-9);
    }

    #[test]
    fn wheel_rotation_interpolates_across_the_wrap() {
        let mut a = at(0, 0);
        let mut b = at(2, 0);
        a.wheel_rotation_rad = [6.2; 4];
        b.wheel_rotation_rad = [0.1; 4];
        let m = blend(&a, &b, 0.5);
        let expected =
            (6.2 + (0.1 + std::f64::consts::TAU - 6.2) * 0.5).rem_euclid(std::f64::consts::TAU);
        assert!((m.wheel_rotation_rad[0] - expected).abs() < 1e-12);
    }

    #[test]
    fn advances_with_the_wall_clock_and_never_extrapolates() {
        let mut i = Interpolator::new(1.5);
        for t in 0..=10 {
            i.push(at(t, 0));
        }
        let first = i.sample(ms(100)).unwrap().tick;
        for t in 11..=20 {
            i.push(at(t, 0));
        }
        // 10 ms later: advanced by about 10 ticks.
        let second = i.sample(ms(110)).unwrap().tick;
        assert!((second - first - 10.0).abs() < 0.2, "{first} -> {second}");
        // No new snapshots for a while (paused sim): held at the newest, not beyond.
        let held = i.sample(ms(150)).unwrap();
        assert!(held.tick <= 20.0);
        assert!((held.stamped.snapshot.position.x - held.tick).abs() < 1e-9);
    }

    #[test]
    fn gaps_from_dropped_snapshots_are_bridged() {
        let mut i = Interpolator::new(1.5);
        i.push(at(0, 0));
        i.push(at(10, 0));
        i.push(at(40, 0));
        // Render tick 38.5 lies between 10 and 40.
        let s = i.sample(ms(5)).unwrap();
        assert!((s.tick - 38.5).abs() < 1e-12);
        assert!((s.stamped.snapshot.position.x - 38.5).abs() < 1e-9);
        let yaw_expected = DQuat::from_rotation_z(38.5e-3);
        assert!(s.stamped.snapshot.orientation.angle_between(yaw_expected) < 1e-9);
    }

    #[test]
    fn reset_restarts_the_ticks_and_snaps() {
        let mut i = Interpolator::new(1.5);
        for t in 0..=500 {
            i.push(at(t, 0));
        }
        assert!(i.sample(ms(0)).is_some());
        // Reset: epoch 1, ticks from 0 again.
        i.push(at(0, 1));
        i.push(at(1, 1));
        i.push(at(2, 1));
        assert_eq!(i.discontinuities(), 1);
        assert_eq!(i.len(), 3);
        let s = i.sample(ms(1)).unwrap();
        assert_eq!(s.epoch, 1);
        assert!(s.tick <= 2.0 && s.tick >= 0.0);
        assert!(s.stamped.snapshot.position.x <= 2.0);
        // A tick counter going backwards within an epoch is a discontinuity too.
        i.push(at(1, 1));
        assert_eq!(i.discontinuities(), 2);
        assert_eq!(i.len(), 1);
    }

    #[test]
    fn same_tick_replaces_while_paused() {
        let mut i = Interpolator::new(1.5);
        i.push(at(3, 0));
        let mut paused = at(3, 0);
        paused.hud.paused = true;
        i.push(paused);
        assert_eq!(i.len(), 1);
        assert!(i.newest().unwrap().hud.paused);
    }

    #[test]
    fn drains_a_wrapped_ring_and_keeps_the_newest() {
        let (mut tx, mut rx) = snapshot_ring(8);
        let mut i = Interpolator::new(1.5);
        let mut total = 0;
        for round in 0..20u64 {
            for k in 0..6 {
                tx.push(at(round * 6 + k, 0));
            }
            total += i.drain(&mut rx);
        }
        assert_eq!(total, 120);
        assert_eq!(i.newest().unwrap().tick, 119);
        assert_eq!(i.len(), HISTORY);
        let s = i.sample(ms(0)).unwrap();
        assert!((s.tick - 117.5).abs() < 1e-12);
    }
}

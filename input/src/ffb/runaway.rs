//! The runaway trip: force feedback is cut when the wheel runs away past the car's lock.
//!
//! Past the lock the soft lock ([`crate::ffb::soft_lock`]) should push the wheel back. Two
//! things make it run on instead, into the base's end stop at up to the user's maximum
//! torque: force feedback itself pushing outward (a car torque or effect that overpowers the
//! soft lock, the soft lock switched off), and a device whose direction is wrong (a wrong
//! invert turns the soft lock into a push *into* the end stop, and its damper into negative
//! damping). [`RunawayTrip::check`] watches for both, once per tick, from the wheel's angle,
//! speed and acceleration and the torque actually applied:
//!
//! - **Pushed out** ([`RunawayCause::PushedOut`]): past the lock and its ramp, the applied
//!   torque, the wheel's speed and its angle all point away from centre for more than
//!   [`RUNAWAY_TICKS`] consecutive ticks (and the pipeline's own request points away too:
//!   a torque the slew limit is still turning round towards centre is not a push out).
//! - **Unexplained acceleration** ([`RunawayCause::UnexplainedAcceleration`]): past the lock,
//!   moving away from centre, the wheel accelerates away from centre by more than
//!   [`RUNAWAY_ACCEL_RAD_S2`] beyond what the torque applied over the last
//!   [`RUNAWAY_LAG_TICKS`] can explain (see [`explained_accel_rad_s2`]), for more than
//!   [`RUNAWAY_TICKS`] consecutive ticks. This is the wrong invert: the torque applied points
//!   to centre, the wheel goes the other way.
//!
//! The torque judged is the torque *as applied*, in wheel coordinates: the level the safety
//! gate let through this tick (after fade-in and watchdog), times the device's peak, with the
//! invert undone ([`applied_torque_nm`]), so an inverted device is judged in the same
//! coordinates as the wheel's angle. Inside the lock nothing trips; a wheel that the soft
//! lock returns from past its lock moves towards centre, so it does not either.
//!
//! Sign convention: angle, speed, acceleration and torque share the sign of the steering
//! wheel's angle (positive counter-clockwise). Non-finite inputs count as "not away". No
//! allocation; nothing here reads a clock.

/// Consecutive ticks (1 kHz: milliseconds) a rule must hold *more than* before the trip
/// cuts force feedback.
///
/// Five ticks is 5 ms: a runaway at 10 N·m on a 0.05 kg·m² rim (200 rad/s²) turns it from
/// rest by 0.15° in that time, while a single encoder count on a coarse (10- or 12-bit)
/// wheel lifts the 30 Hz acceleration estimate above [`RUNAWAY_ACCEL_RAD_S2`] for at most
/// two ticks.
pub const RUNAWAY_TICKS: u32 = 5;

/// Outward acceleration (rad/s², about 2900 °/s²) beyond what the applied torque explains
/// that trips force feedback past the lock.
///
/// Why this value: a wrongly inverted soft lock pushes a hands-off rim outward with the
/// user's whole maximum, so a 2.5 N·m wheel on a 0.05 kg·m² rim (rim, rotor and gearing)
/// accelerates at 50 rad/s², and the inward torque it was meant to apply adds at least
/// 2.5 / [`RIM_INERTIA_MAX_KG_M2`] = 12.5 rad/s² of unexplained acceleration; stronger bases
/// and lighter rims give more. A correctly wired wheel past the lock has the soft lock
/// pushing it back with up to the maximum, so gaining speed outward at this rate there means
/// a hand beating the soft lock by the rim's inertia times 50 rad/s², not driving. The
/// 30 Hz acceleration estimate of a still or slowly turning 14- or 16-bit encoder stays
/// under 25 rad/s².
pub const RUNAWAY_ACCEL_RAD_S2: f64 = 50.0;

/// The lightest rim we expect (kg·m²): a small formula rim (about 0.7 kg at 0.13 m) on a
/// direct-drive rotor. An outward torque explains at most `torque / this` of outward
/// acceleration: the most any commanded torque can produce on any rim.
pub const RIM_INERTIA_MIN_KG_M2: f64 = 0.01;

/// The heaviest rim we expect (kg·m²): a 1.5 kg, 350 mm rim with the largest rotors and the
/// gearing of belt and gear wheels, with a wide margin. An inward torque decelerates even
/// this rim by at least `torque / this`, so it explains no outward acceleration, and that
/// much of the observed acceleration is unexplained on top.
pub const RIM_INERTIA_MAX_KG_M2: f64 = 0.2;

/// Applied torque (N·m) below which it counts as pointing nowhere: minimum force, effects'
/// noise and the slew limit's last steps are not a push.
pub const RUNAWAY_TORQUE_DEADBAND_NM: f64 = 0.1;

/// Wheel speed (rad/s, about 6 °/s) below which the wheel counts as still.
pub const RUNAWAY_SPEED_DEADBAND_RAD_S: f64 = 0.1;

/// Ticks after a reset (start, resume, reconnect, re-enable) during which the acceleration
/// rule does not judge: the speed and acceleration estimates restart from zero, and their
/// two 30 Hz stages take about 30 ms to settle on a wheel that is already moving.
pub const RUNAWAY_SETTLE_TICKS: u32 = 30;

/// Ticks (ms) of applied torque that may still explain the wheel's acceleration: the
/// acceleration estimate's two 30 Hz stages lag the torque that caused it (a push that threw
/// the wheel into the lock still shows, at 5 % of its size, 25 ms after the torque turned
/// round), and a USB base adds its own few milliseconds.
pub const RUNAWAY_LAG_TICKS: usize = 32;

/// Which rule tripped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RunawayCause {
    /// The applied torque, the wheel's speed and its angle all pointed away from centre past
    /// the lock for more than [`RUNAWAY_TICKS`] ticks.
    PushedOut,
    /// The wheel accelerated away from centre past the lock by more than
    /// [`RUNAWAY_ACCEL_RAD_S2`] beyond what the applied torque explains (a wrong invert).
    UnexplainedAcceleration,
}

impl RunawayCause {
    /// What to tell the user, in one sentence.
    pub fn describe(self) -> &'static str {
        match self {
            Self::PushedOut => {
                "force feedback pushed the wheel past the car's steering lock towards its end stop"
            }
            Self::UnexplainedAcceleration => {
                "the wheel sped away from centre past the car's steering lock against the \
                 force meant to stop it: the force direction may be inverted"
            }
        }
    }
}

/// One tick's facts for the trip.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RunawaySample {
    /// The physical wheel's angle (rad), unclamped by the car's lock.
    pub angle_rad: f64,
    /// Its speed (rad/s).
    pub speed_rad_s: f64,
    /// Its acceleration (rad/s²).
    pub accel_rad_s2: f64,
    /// The torque applied at the wheel this tick (N·m, wheel coordinates): see
    /// [`applied_torque_nm`].
    pub applied_nm: f64,
    /// What the pipeline asked for this tick before shaping, slew limit and clamp (N·m,
    /// wheel coordinates).
    pub requested_nm: f64,
}

/// The torque (N·m, wheel coordinates) that a device `level` applies on a device of
/// `peak_nm` driven with `invert`: the pipeline negates the level of an inverted device, so
/// this undoes it. Non-finite inputs give 0.
pub fn applied_torque_nm(level: f64, peak_nm: f64, invert: bool) -> f64 {
    let torque = level * peak_nm;
    let torque = if invert { -torque } else { torque };
    if torque.is_finite() { torque } else { 0.0 }
}

/// The most outward acceleration (rad/s², positive away from centre) that an applied torque
/// of `away_nm` (positive away from centre) can explain: `away / RIM_INERTIA_MIN` for an
/// outward torque (the lightest rim), `away / RIM_INERTIA_MAX` (negative: a deceleration even
/// of the heaviest rim) for an inward one.
pub fn explained_accel_rad_s2(away_nm: f64) -> f64 {
    if away_nm >= 0.0 {
        away_nm / RIM_INERTIA_MIN_KG_M2
    } else {
        away_nm / RIM_INERTIA_MAX_KG_M2
    }
}

/// The runaway trip's state (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RunawayTrip {
    lock_rad: f64,
    ramp_rad: f64,
    pushed_ticks: u32,
    accel_ticks: u32,
    settle_ticks: u32,
    /// The applied torques of the last [`RUNAWAY_LAG_TICKS`] ticks (N·m, wheel coordinates).
    recent_nm: [f64; RUNAWAY_LAG_TICKS],
    next: usize,
}

impl Default for RunawayTrip {
    fn default() -> Self {
        Self::OFF
    }
}

impl RunawayTrip {
    /// A trip without a lock: never trips.
    pub const OFF: Self = Self {
        lock_rad: f64::INFINITY,
        ramp_rad: 0.0,
        pushed_ticks: 0,
        accel_ticks: 0,
        settle_ticks: RUNAWAY_SETTLE_TICKS,
        recent_nm: [0.0; RUNAWAY_LAG_TICKS],
        next: 0,
    };

    /// A trip at the lock `lock_rad` (rad each side of centre) whose soft lock reaches its full
    /// torque `ramp_rad` past it; a lock that is not a positive angle gives [`Self::OFF`].
    pub fn new(lock_rad: f64, ramp_rad: f64) -> Self {
        let mut trip = Self::OFF;
        trip.set_lock(lock_rad, ramp_rad);
        trip
    }

    /// Moves the lock (new car, lock mode or settings); the counts start over.
    pub fn set_lock(&mut self, lock_rad: f64, ramp_rad: f64) {
        let valid = lock_rad.is_finite() && lock_rad > 0.0;
        self.lock_rad = if valid { lock_rad } else { f64::INFINITY };
        self.ramp_rad = if ramp_rad.is_finite() {
            ramp_rad.max(0.0)
        } else {
            0.0
        };
        self.pushed_ticks = 0;
        self.accel_ticks = 0;
    }

    /// The lock (rad each side; infinite: none).
    pub fn lock_rad(&self) -> f64 {
        self.lock_rad
    }

    /// Forgets the counts and waits [`RUNAWAY_SETTLE_TICKS`] before judging accelerations
    /// again: call it whenever the wheel's speed and acceleration estimates restart.
    pub fn reset(&mut self) {
        self.clear_counts();
        self.settle_ticks = 0;
    }

    /// A tick with nothing to judge (no input, or no output to cut: nothing applied): the
    /// counts start over.
    pub fn idle(&mut self) {
        self.remember(0.0);
        self.clear_counts();
    }

    fn clear_counts(&mut self) {
        self.pushed_ticks = 0;
        self.accel_ticks = 0;
    }

    fn remember(&mut self, applied_nm: f64) {
        self.recent_nm[self.next] = if applied_nm.is_finite() {
            applied_nm
        } else {
            0.0
        };
        self.next = (self.next + 1) % RUNAWAY_LAG_TICKS;
    }

    /// Judges one tick; `Some` when force feedback must be cut now.
    pub fn check(&mut self, s: &RunawaySample) -> Option<RunawayCause> {
        self.settle_ticks = self.settle_ticks.saturating_add(1);
        self.remember(s.applied_nm);
        let finite = s.angle_rad.is_finite()
            && s.speed_rad_s.is_finite()
            && s.accel_rad_s2.is_finite()
            && s.applied_nm.is_finite()
            && s.requested_nm.is_finite();
        let excess = s.angle_rad.abs() - self.lock_rad;
        if !finite || excess.is_nan() || excess <= 0.0 {
            self.clear_counts();
            return None;
        }
        // Away from centre is the angle's sign.
        let out = 1f64.copysign(s.angle_rad);
        let speed_out = s.speed_rad_s * out;
        let applied_out = s.applied_nm * out;
        let moving_out = speed_out > RUNAWAY_SPEED_DEADBAND_RAD_S;

        let pushed = excess > self.ramp_rad
            && moving_out
            && applied_out > RUNAWAY_TORQUE_DEADBAND_NM
            && s.requested_nm * out > RUNAWAY_TORQUE_DEADBAND_NM;
        self.pushed_ticks = if pushed {
            self.pushed_ticks.saturating_add(1)
        } else {
            0
        };

        // The most outward torque of the last few ticks explains the most.
        let recent_out = self
            .recent_nm
            .iter()
            .fold(f64::NEG_INFINITY, |most, nm| most.max(nm * out));
        let unexplained = s.accel_rad_s2 * out - explained_accel_rad_s2(recent_out);
        let accelerating = self.settle_ticks > RUNAWAY_SETTLE_TICKS
            && moving_out
            && unexplained > RUNAWAY_ACCEL_RAD_S2;
        self.accel_ticks = if accelerating {
            self.accel_ticks.saturating_add(1)
        } else {
            0
        };

        if self.pushed_ticks > RUNAWAY_TICKS {
            Some(RunawayCause::PushedOut)
        } else if self.accel_ticks > RUNAWAY_TICKS {
            Some(RunawayCause::UnexplainedAcceleration)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOCK: f64 = 4.0; // rad (about 230°)
    const RAMP: f64 = 0.05;

    fn armed() -> RunawayTrip {
        let mut t = RunawayTrip::new(LOCK, RAMP);
        // Past the settling time.
        for _ in 0..=RUNAWAY_SETTLE_TICKS {
            assert_eq!(t.check(&RunawaySample::default()), None);
        }
        t
    }

    fn sample(angle: f64, speed: f64, accel: f64, applied: f64) -> RunawaySample {
        RunawaySample {
            angle_rad: angle,
            speed_rad_s: speed,
            accel_rad_s2: accel,
            applied_nm: applied,
            requested_nm: applied,
        }
    }

    /// Ticks until the trip fires on `s` repeated (`None`: not within 100).
    fn ticks_to_trip(t: &mut RunawayTrip, s: &RunawaySample) -> Option<(u32, RunawayCause)> {
        (1..=100).find_map(|i| t.check(s).map(|c| (i, c)))
    }

    #[test]
    fn pushed_out_past_the_lock_trips_on_the_sixth_tick_both_sides() {
        for side in [1.0, -1.0] {
            let mut t = armed();
            let s = sample(side * (LOCK + 0.1), side * 2.0, 0.0, side * 1.0);
            assert_eq!(
                ticks_to_trip(&mut t, &s),
                Some((RUNAWAY_TICKS + 1, RunawayCause::PushedOut))
            );
        }
    }

    #[test]
    fn no_push_out_inside_the_lock_or_its_ramp_or_towards_centre() {
        let mut t = armed();
        for s in [
            // Inside the lock: anything goes.
            sample(LOCK - 0.01, 5.0, 1000.0, 5.0),
            // In the ramp, where the soft lock is still rising.
            sample(LOCK + 0.5 * RAMP, 2.0, 0.0, 1.0),
            // Torque to centre (the soft lock), wheel moving out: being stopped.
            sample(LOCK + 0.1, 2.0, -40.0, -4.0),
            // Torque out, wheel moving back: not running away.
            sample(LOCK + 0.1, -2.0, 0.0, 1.0),
            // Too small a torque to count.
            sample(LOCK + 0.1, 2.0, 0.0, 0.5 * RUNAWAY_TORQUE_DEADBAND_NM),
        ] {
            assert_eq!(ticks_to_trip(&mut t, &s), None, "{s:?}");
        }
    }

    #[test]
    fn a_slew_limited_torque_turning_to_centre_is_not_a_push_out() {
        let mut t = armed();
        let s = RunawaySample {
            requested_nm: -3.0,
            ..sample(LOCK + 0.1, 2.0, 0.0, 1.0)
        };
        assert_eq!(ticks_to_trip(&mut t, &s), None);
    }

    #[test]
    fn the_count_restarts_when_the_push_stops() {
        let mut t = armed();
        let out = sample(LOCK + 0.1, 2.0, 0.0, 1.0);
        for _ in 0..RUNAWAY_TICKS {
            assert_eq!(t.check(&out), None);
        }
        assert_eq!(t.check(&sample(LOCK + 0.1, 2.0, 0.0, -1.0)), None);
        for _ in 0..RUNAWAY_TICKS {
            assert_eq!(t.check(&out), None);
        }
        assert_eq!(t.check(&out), Some(RunawayCause::PushedOut));
    }

    #[test]
    fn outward_acceleration_against_an_inward_torque_trips() {
        // The wrong invert: the soft lock meant to push in at 2.5 N·m (for longer than the
        // lag window), the wheel speeds out.
        let inward = |t: &mut RunawayTrip| {
            for _ in 0..RUNAWAY_LAG_TICKS {
                assert_eq!(t.check(&sample(-(LOCK - 0.01), 0.0, 0.0, 2.5)), None);
            }
        };
        let mut t = armed();
        inward(&mut t);
        let a = RUNAWAY_ACCEL_RAD_S2 - 2.5 / RIM_INERTIA_MAX_KG_M2 + 1.0;
        let s = sample(-(LOCK + 0.01), -1.0, -a, 2.5);
        assert_eq!(
            ticks_to_trip(&mut t, &s),
            Some((RUNAWAY_TICKS + 1, RunawayCause::UnexplainedAcceleration))
        );
        // Just under the threshold: never.
        let mut t = armed();
        inward(&mut t);
        let s = sample(-(LOCK + 0.01), -1.0, -(a - 2.0), 2.5);
        assert_eq!(ticks_to_trip(&mut t, &s), None);
    }

    #[test]
    fn a_recent_outward_push_still_explains_the_acceleration_it_caused() {
        // 3 N·m out inside the lock throws the wheel; then the soft lock pushes in, and the
        // lagging estimate still shows 200 rad/s² out.
        let mut t = armed();
        let thrown = sample(LOCK - 0.01, 10.0, 200.0, 3.0);
        for _ in 0..10 {
            assert_eq!(t.check(&thrown), None);
        }
        let caught = sample(LOCK + 0.01, 10.0, 200.0, -5.0);
        for _ in 0..RUNAWAY_LAG_TICKS - 10 {
            assert_eq!(t.check(&caught), None, "explained by the push");
        }
        // Once the push has left the window, an acceleration that persists is unexplained.
        assert_eq!(
            ticks_to_trip(&mut t, &caught),
            Some((10 + RUNAWAY_TICKS, RunawayCause::UnexplainedAcceleration))
        );
    }

    #[test]
    fn an_outward_torque_explains_its_acceleration() {
        let mut t = armed();
        // 2 N·m out explains up to 200 rad/s² on the lightest rim (and it is in the ramp, so
        // the push-out rule does not count).
        let s = sample(LOCK + 0.5 * RAMP, 1.0, 2.0 / RIM_INERTIA_MIN_KG_M2, 2.0);
        assert_eq!(ticks_to_trip(&mut t, &s), None);
        // Decelerating outward motion (the soft lock catching the wheel): no.
        let s = sample(LOCK + 0.5 * RAMP, 1.0, -500.0, -5.0);
        assert_eq!(ticks_to_trip(&mut t, &s), None);
        // Accelerating out while moving back in (the soft lock's damper slowing a returning
        // wheel, or a hand stopping it): no.
        let s = sample(LOCK + 0.5 * RAMP, -1.0, 500.0, 0.0);
        assert_eq!(ticks_to_trip(&mut t, &s), None);
    }

    #[test]
    fn accelerations_wait_for_the_estimates_to_settle_after_a_reset() {
        let mut t = armed();
        t.reset();
        let s = sample(LOCK + 0.01, 1.0, 500.0, 0.0);
        let (ticks, cause) = ticks_to_trip(&mut t, &s).expect("trips once settled");
        assert_eq!(cause, RunawayCause::UnexplainedAcceleration);
        assert_eq!(ticks, RUNAWAY_SETTLE_TICKS + RUNAWAY_TICKS + 1);
    }

    #[test]
    fn off_and_bad_inputs_never_trip() {
        let mut off = RunawayTrip::OFF;
        let wild = sample(100.0, 100.0, 1.0e6, 100.0);
        assert_eq!(ticks_to_trip(&mut off, &wild), None);
        assert!(RunawayTrip::new(f64::NAN, 0.1).lock_rad().is_infinite());
        assert!(RunawayTrip::new(-1.0, 0.1).lock_rad().is_infinite());
        let mut t = armed();
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            for s in [
                sample(bad, 2.0, 1000.0, 1.0),
                sample(LOCK + 0.1, bad, 1000.0, 1.0),
                sample(LOCK + 0.1, 2.0, bad, 1.0),
                sample(LOCK + 0.1, 2.0, 1000.0, bad),
            ] {
                assert_eq!(ticks_to_trip(&mut t, &s), None, "{s:?}");
            }
        }
        assert_eq!(
            applied_torque_nm(f64::NAN, 5.0, false).to_bits(),
            0f64.to_bits()
        );
    }

    #[test]
    fn applied_torque_undoes_the_invert() {
        assert!((applied_torque_nm(0.5, 8.0, false) - 4.0).abs() < 1e-12);
        assert!((applied_torque_nm(0.5, 8.0, true) + 4.0).abs() < 1e-12);
    }
}

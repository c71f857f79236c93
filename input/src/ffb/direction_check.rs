//! The direction check: does positive torque turn the wheel the way the sim means?
//!
//! With a wrong invert every force points the wrong way: the car's self-centring pushes the
//! wheel off centre, damping becomes negative damping, and the soft lock drives the rim into
//! its end stop. The check plays one small, short pulse in the positive direction
//! (counter-clockwise, to the left) and reads the wheel's encoder before and after:
//!
//! 1. **Wait** [`DirectionCheck::new`]'s `lead` with zero torque (the fade-in of a force
//!    feedback that was just started, so that the pulse plays at its full size);
//! 2. **Quiet**: [`DIRECTION_QUIET`] more with zero torque; the angle at its end is the
//!    angle *before*, and a wheel that moved during it is being turned by hand;
//! 3. **Pulse**: [`DIRECTION_PULSE_FRACTION`] of the user's maximum torque for
//!    [`DIRECTION_PULSE`] (10 % for 150 ms), then zero;
//! 4. **Coast**: [`DIRECTION_COAST`] with zero torque while the wheel runs out;
//! 5. the largest excursion from the angle before, over the pulse and the coast, decides
//!    ([`DirectionOutcome`]): at least [`DIRECTION_MIN_MOVE_RAD`] the positive way is right,
//!    as much the other way means the invert in force is wrong, less is inconclusive (hands
//!    on the wheel, a wheel whose own friction holds it, no steering axis).
//!
//! [`DirectionCheck::step`] is called once per tick with the time since the check started
//! (a [`Duration`], so that the phases' edges fall on exact ticks),
//! the wheel's angle and the level the output sent in the previous tick; it returns this
//! tick's torque at the wheel (N·m) until it returns the outcome. Pure: no clock, no
//! allocation. Sign convention: angles and torques are positive counter-clockwise, as the
//! steering wheel's angle.

use std::time::Duration;

/// The pulse's torque as a fraction of the user's maximum: small enough that a wheel turning
/// the wrong way is no surprise to the hands, big enough to overcome a belt or gear wheel's
/// friction on most bases.
pub const DIRECTION_PULSE_FRACTION: f64 = 0.10;

/// How long the pulse plays. On a hands-off 0.05 kg·m² rim 10 % of 5 N·m turns it about 6°
/// in this time, and it runs on while coasting.
pub const DIRECTION_PULSE: Duration = Duration::from_millis(150);

/// Zero torque before the pulse: the wheel must be still through it.
pub const DIRECTION_QUIET: Duration = Duration::from_millis(100);

/// Zero torque after the pulse while the wheel runs out.
pub const DIRECTION_COAST: Duration = Duration::from_millis(150);

/// The smallest excursion (rad, 2°) that counts as the pulse turning the wheel. Encoders
/// resolve a few hundredths of a degree; a resting hand moves a rim by more than that, not
/// by 2° the way a pulse does. A wheel that moves by half of this during the quiet time is
/// being turned by hand.
pub const DIRECTION_MIN_MOVE_RAD: f64 = 2.0 * std::f64::consts::PI / 180.0;

/// The longest wait for a fade-in the check accepts: the settings' longest fade-in.
pub const DIRECTION_MAX_LEAD: Duration = Duration::from_secs(10);

/// Why a direction check could not decide.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Inconclusive {
    /// The pulse moved the wheel by less than [`DIRECTION_MIN_MOVE_RAD`] (signed, rad): held
    /// by hand, stiff, or no steering axis bound.
    TooLittle {
        /// The largest excursion (rad, positive counter-clockwise).
        moved_rad: f64,
    },
    /// The wheel moved during the quiet time before the pulse (rad): someone was turning it.
    MovingBefore {
        /// How far it moved (rad).
        moved_rad: f64,
    },
    /// No force reached the device during the pulse (force feedback off, killed, cut, or no
    /// device).
    NoForce,
    /// The wheel's angle was never a number.
    NoAngle,
}

/// What a direction check found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DirectionOutcome {
    /// The wheel turned the positive way: the direction in force is right.
    Correct {
        /// The largest excursion (rad, positive).
        moved_rad: f64,
    },
    /// The wheel turned the other way: the invert in force is wrong.
    Reversed {
        /// The largest excursion (rad, negative).
        moved_rad: f64,
    },
    /// No decision.
    Inconclusive(Inconclusive),
}

/// One tick of a direction check.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DirectionStep {
    /// Render this torque at the wheel this tick (N·m, positive counter-clockwise).
    Torque(f64),
    /// The check is over; render nothing more for it.
    Done(DirectionOutcome),
}

/// A running direction check (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DirectionCheck {
    pulse_nm: f64,
    lead: Duration,
    quiet_from: Option<f64>,
    before: Option<f64>,
    last_angle: Option<f64>,
    extreme: f64,
    sent: bool,
    in_pulse: bool,
    outcome: Option<DirectionOutcome>,
}

fn finite_or(x: f64, fallback: f64) -> f64 {
    if x.is_finite() { x } else { fallback }
}

impl DirectionCheck {
    /// A check whose pulse is [`DIRECTION_PULSE_FRACTION`] of the user's maximum
    /// `max_torque_nm`, after waiting `lead` (the fade-in; at most [`DIRECTION_MAX_LEAD`]).
    /// A bad maximum gives a zero pulse.
    pub fn new(max_torque_nm: f64, lead: Duration) -> Self {
        Self {
            pulse_nm: DIRECTION_PULSE_FRACTION * finite_or(max_torque_nm, 0.0).max(0.0),
            lead: lead.min(DIRECTION_MAX_LEAD),
            quiet_from: None,
            before: None,
            last_angle: None,
            extreme: 0.0,
            sent: false,
            in_pulse: false,
            outcome: None,
        }
    }

    /// The pulse's torque (N·m, positive).
    pub fn pulse_nm(&self) -> f64 {
        self.pulse_nm
    }

    /// How long the whole check takes.
    pub fn duration(&self) -> Duration {
        self.lead + DIRECTION_QUIET + DIRECTION_PULSE + DIRECTION_COAST
    }

    /// One tick `elapsed` after the check started, with the wheel at `wheel_rad` and the
    /// output's level sent in the previous tick `last_level` (any sign; only whether it was
    /// non-zero during the pulse counts). Returns this tick's torque, or the outcome (again on
    /// every later call).
    pub fn step(&mut self, elapsed: Duration, wheel_rad: f64, last_level: f64) -> DirectionStep {
        if let Some(outcome) = self.outcome {
            return DirectionStep::Done(outcome);
        }
        if wheel_rad.is_finite() {
            self.last_angle = Some(wheel_rad);
        }
        // The previous tick's level shows whether the pulse of that tick went out.
        if self.in_pulse && last_level.is_finite() && last_level != 0.0 {
            self.sent = true;
        }
        let quiet_at = self.lead;
        let pulse_at = quiet_at + DIRECTION_QUIET;
        let coast_at = pulse_at + DIRECTION_PULSE;
        let end_at = coast_at + DIRECTION_COAST;
        if elapsed < quiet_at {
            return DirectionStep::Torque(0.0);
        }
        if elapsed < pulse_at {
            if self.quiet_from.is_none() {
                self.quiet_from = self.last_angle;
            }
            self.before = self.last_angle;
            return DirectionStep::Torque(0.0);
        }
        if self.before.is_none() {
            // Started late (a long tick): the angle now is the best "before" there is.
            self.before = self.last_angle;
            self.quiet_from = self.quiet_from.or(self.last_angle);
        }
        if let (Some(before), Some(angle)) = (self.before, self.last_angle) {
            let moved = angle - before;
            if moved.abs() > self.extreme.abs() {
                self.extreme = moved;
            }
        }
        if elapsed < coast_at {
            self.in_pulse = true;
            return DirectionStep::Torque(self.pulse_nm);
        }
        // The first coast tick has already seen the last pulse tick's level.
        self.in_pulse = false;
        if elapsed < end_at {
            return DirectionStep::Torque(0.0);
        }
        let outcome = self.decide();
        self.outcome = Some(outcome);
        DirectionStep::Done(outcome)
    }

    fn decide(&self) -> DirectionOutcome {
        let (Some(quiet_from), Some(before)) = (self.quiet_from, self.before) else {
            return DirectionOutcome::Inconclusive(Inconclusive::NoAngle);
        };
        if !self.sent {
            return DirectionOutcome::Inconclusive(Inconclusive::NoForce);
        }
        let drift = before - quiet_from;
        if drift.abs() > 0.5 * DIRECTION_MIN_MOVE_RAD {
            return DirectionOutcome::Inconclusive(Inconclusive::MovingBefore { moved_rad: drift });
        }
        let moved_rad = self.extreme;
        if moved_rad >= DIRECTION_MIN_MOVE_RAD {
            DirectionOutcome::Correct { moved_rad }
        } else if moved_rad <= -DIRECTION_MIN_MOVE_RAD {
            DirectionOutcome::Reversed { moved_rad }
        } else {
            DirectionOutcome::Inconclusive(Inconclusive::TooLittle { moved_rad })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAX_NM: f64 = 5.0;
    const DT: f64 = 0.001;

    fn ms(ms: u32) -> Duration {
        Duration::from_millis(u64::from(ms))
    }

    /// A hands-off rim of `inertia` (kg·m²) with viscous friction, whose motor turns the
    /// sim's torque into `wiring` times it (-1: wired backwards), starting at `angle`;
    /// `hand(t)` adds an angle the hands impose (rad). Returns the outcome and the ticks.
    fn run(
        inertia: f64,
        wiring: f64,
        lead: Duration,
        hand: impl Fn(f64) -> f64,
        level_scale: f64,
    ) -> (DirectionOutcome, u32) {
        let mut check = DirectionCheck::new(MAX_NM, lead);
        let (mut angle, mut speed, mut last_level) = (0.3, 0.0, 0.0);
        for tick in 0..20_000u32 {
            let t = f64::from(tick) * DT;
            match check.step(ms(tick), angle + hand(t), last_level) {
                DirectionStep::Done(outcome) => return (outcome, tick),
                DirectionStep::Torque(nm) => {
                    let applied = wiring * nm * level_scale;
                    last_level = applied / 8.0;
                    speed += (applied - 0.02 * speed) / inertia * DT;
                    angle += speed * DT;
                }
            }
        }
        panic!("the check never ended");
    }

    #[test]
    fn a_correct_wheel_is_ok_and_a_backwards_one_is_reversed() {
        let (ok, ticks) = run(0.05, 1.0, ms(500), |_| 0.0, 1.0);
        assert!(
            matches!(ok, DirectionOutcome::Correct { moved_rad } if moved_rad > DIRECTION_MIN_MOVE_RAD),
            "{ok:?}"
        );
        assert_eq!(ms(ticks), DirectionCheck::new(MAX_NM, ms(500)).duration());
        let (reversed, _) = run(0.05, -1.0, ms(500), |_| 0.0, 1.0);
        assert!(
            matches!(reversed, DirectionOutcome::Reversed { moved_rad } if moved_rad < -DIRECTION_MIN_MOVE_RAD),
            "{reversed:?}"
        );
    }

    #[test]
    fn a_held_wheel_is_inconclusive() {
        // A hand holding the rim: ten times the inertia and heavy friction.
        let (held, _) = run(0.5, -1.0, Duration::ZERO, |_| 0.0, 0.2);
        assert!(
            matches!(
                held,
                DirectionOutcome::Inconclusive(Inconclusive::TooLittle { .. })
            ),
            "{held:?}"
        );
    }

    #[test]
    fn a_wheel_turned_by_hand_before_the_pulse_is_inconclusive() {
        // Turning at 30 °/s through the quiet time.
        let (turning, _) = run(0.05, 1.0, Duration::ZERO, |t| (30f64 * t).to_radians(), 1.0);
        assert!(
            matches!(
                turning,
                DirectionOutcome::Inconclusive(Inconclusive::MovingBefore { .. })
            ),
            "{turning:?}"
        );
    }

    #[test]
    fn no_force_and_no_angle_are_inconclusive() {
        let (silent, _) = run(0.05, 1.0, Duration::ZERO, |_| 0.0, 0.0);
        assert_eq!(
            silent,
            DirectionOutcome::Inconclusive(Inconclusive::NoForce)
        );
        let mut check = DirectionCheck::new(MAX_NM, Duration::ZERO);
        let outcome = (0..1000u32)
            .find_map(|i| match check.step(ms(i), f64::NAN, 0.5) {
                DirectionStep::Done(o) => Some(o),
                DirectionStep::Torque(nm) => {
                    assert!(nm.is_finite());
                    None
                }
            })
            .expect("ends");
        assert_eq!(
            outcome,
            DirectionOutcome::Inconclusive(Inconclusive::NoAngle)
        );
        // And it keeps answering the same.
        assert_eq!(check.step(ms(5000), 0.0, 0.0), DirectionStep::Done(outcome));
    }

    #[test]
    fn the_pulse_is_ten_percent_for_150_ms_after_the_lead_and_bad_inputs_are_tamed() {
        let mut check = DirectionCheck::new(MAX_NM, ms(200));
        assert!((check.pulse_nm() - 0.5).abs() < 1e-12);
        let torques: Vec<f64> = (0..600u32)
            .map(|i| match check.step(ms(i), 0.0, 0.1) {
                DirectionStep::Torque(nm) => nm,
                DirectionStep::Done(_) => f64::NAN,
            })
            .collect();
        let pulsing = torques.iter().filter(|&&nm| nm > 0.0).count();
        assert_eq!(pulsing, 150);
        assert_eq!(torques.iter().position(|&nm| nm > 0.0), Some(300));
        assert!(
            torques
                .iter()
                .all(|&nm| nm == 0.0 || (nm - 0.5).abs() < 1e-12)
        );
        let bad = DirectionCheck::new(f64::NAN, Duration::MAX);
        assert_eq!(bad.pulse_nm().to_bits(), 0f64.to_bits());
        assert_eq!(bad.duration(), DIRECTION_MAX_LEAD + ms(400));
        assert_eq!(
            DirectionCheck::new(-3.0, Duration::ZERO)
                .pulse_nm()
                .to_bits(),
            0f64.to_bits()
        );
    }
}

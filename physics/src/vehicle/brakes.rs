//! Brakes and the driver aids that act on them: pedal to torque with front/rear bias,
//! handbrake on the rear wheels, anti-lock brakes (ABS) and traction control (TC).
//!
//! The torques computed here are *capacities*: the powertrain applies them against the
//! wheel's rotation and holds a stopped wheel still while the other torques are smaller
//! (see [`crate::powertrain::WheelLoad::brake_torque`]).
//!
//! # ABS
//!
//! Each wheel has a pressure factor in `[0, 1]` that scales its service-brake torque (not the
//! handbrake). With the wheel's slip ratio `s = (omega r - vx) / |vx|` measured like a wheel
//! speed sensor would (instantly, no tyre lag), while braking above the minimum speed:
//!
//! - `s < -threshold`: the wheel is heading for a lock; release at `release_rate`;
//! - `s > -threshold / 2`: the wheel is rolling freely enough; re-apply at `apply_rate`;
//! - in between: build the pressure up in steps, at [`ABS_STEPPED_APPLY_SHARE`] of the apply
//!   rate, until the wheel heads for a lock again.
//!
//! This release/build-up cycle keeps the slip near the tyre's peak region around
//! `-threshold` (about -0.1 for road tyres) instead of letting the wheel lock. A plain hold
//! between the thresholds would leave the wheel at whatever pressure it entered the band
//! with: a stop's distance then depended on that history (a 2 % spread between step sizes
//! and between nearly equal cars), where the continuous cycle keeps to the peak.
//!
//! # Traction control
//!
//! One throttle factor in `[0, 1]` for the car: when the largest positive slip ratio of the
//! wheels in contact exceeds the threshold (a driven wheel spinning up), the factor falls at
//! `cut_rate`, otherwise it recovers at `restore_rate` near the threshold and faster the
//! further the slip lies below it ([`TC_RECOVERY_GAIN`]). The throttle handed to the powertrain
//! is the driver's times this factor. Only driven wheels develop large positive slip, so the
//! aid needs no knowledge of the drive layout. The slip is measured with a speed floor of
//! [`TC_MIN_SPEED_M_PER_S`] so that a launch from rest does not read as infinite slip.

use super::params::{AidParams, BrakeParams};
use crate::controls::Controls;

/// Share of the apply rate at which ABS builds pressure back up while the slip lies between
/// the release and apply thresholds (-): the stepped build-up after a hold phase of a real
/// ABS cycle (Bosch, *Automotive Handbook*: short pressure pulses between holds), slower on
/// average than the full re-application. Of 0.1 and 0.25, both of which make the C5's stop
/// agree within 0.4 % between 1 and 4 kHz, 0.1 keeps it nearer its road test (110.8 against
/// 110.1 ft; 116 ft measured).
pub const ABS_STEPPED_APPLY_SHARE: f64 = 0.1;

/// Speed floor (m/s) of the slip ratio traction control measures.
pub const TC_MIN_SPEED_M_PER_S: f64 = 2.0;

impl BrakeParams {
    /// Brake torque capacities (N·m) of `[FL, FR, RL, RR]` for a pedal position in `[0, 1]`,
    /// without handbrake or ABS.
    pub fn service_capacity(&self, pedal: f64) -> [f64; 4] {
        let front = 0.5 * self.max_torque_n_m * self.bias_front * pedal;
        let rear = 0.5 * self.max_torque_n_m * (1.0 - self.bias_front) * pedal;
        [front, front, rear, rear]
    }

    /// Handbrake torque capacity (N·m) of each rear wheel for a lever position in `[0, 1]`.
    pub fn handbrake_capacity(&self, lever: f64) -> f64 {
        self.handbrake_torque_n_m * lever
    }
}

/// What the aids need to know about one wheel this tick.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WheelSlipSensor {
    /// Wheel spin times rolling radius (m/s).
    pub rim_speed: f64,
    /// Longitudinal speed of the wheel over the ground (m/s).
    pub ground_speed: f64,
    /// Whether the tyre touches the ground.
    pub contact: bool,
}

/// Anti-lock brake state: one pressure factor per wheel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Abs {
    factor: [f64; 4],
    active: bool,
}

impl Default for Abs {
    fn default() -> Self {
        Self {
            factor: [1.0; 4],
            active: false,
        }
    }
}

impl Abs {
    /// Updates the pressure factors for this tick and returns them. With ABS disabled, or no
    /// pedal, every factor is 1.
    pub fn update(
        &mut self,
        aids: &AidParams,
        pedal: f64,
        sensors: &[WheelSlipSensor; 4],
        dt: f64,
    ) -> [f64; 4] {
        self.active = false;
        if !aids.abs_enabled || pedal <= 0.0 {
            self.factor = [1.0; 4];
            return self.factor;
        }
        for (f, s) in self.factor.iter_mut().zip(sensors) {
            let speed = s.ground_speed.abs();
            if !s.contact || speed < aids.abs_min_speed_m_per_s {
                *f = (*f + aids.abs_apply_rate_per_s * dt).min(1.0);
                continue;
            }
            // Slip in the direction of travel (works in reverse too).
            let slip = (s.rim_speed - s.ground_speed) * s.ground_speed.signum() / speed;
            if slip < -aids.abs_slip_threshold {
                *f = (*f - aids.abs_release_rate_per_s * dt).max(0.0);
            } else if slip > -0.5 * aids.abs_slip_threshold {
                *f = (*f + aids.abs_apply_rate_per_s * dt).min(1.0);
            } else {
                *f = (*f + ABS_STEPPED_APPLY_SHARE * aids.abs_apply_rate_per_s * dt).min(1.0);
            }
            if *f < 1.0 {
                self.active = true;
            }
        }
        self.factor
    }

    /// Whether ABS reduced any wheel's brake pressure this tick.
    pub fn active(&self) -> bool {
        self.active
    }
}

/// How much faster traction control restores the throttle once the driven wheels' slip has
/// fallen below its threshold: at the threshold `tc_restore_rate_per_s`, at zero slip
/// `1 + TC_RECOVERY_GAIN` times it, in proportion between. At one slow rate whatever the slip
/// (0 to full throttle at 2/s takes half a second), the throttle stayed cut long after a
/// spin had ended: after `car1-trb3`'s 1-2 upshift the rear wheels were back at slip 0.01
/// within 0.2 s while the throttle took 0.5 s more to return. Measured (`docs/validation.md`):
/// the Corvette's 0-60 mph 5.11 to 4.91 s, the TORCS cars' 0-100 km/h 0.1-0.4 s quicker, each
/// within 11 % of its point-mass estimate (was up to +15 %); 9 gave about the same.
pub const TC_RECOVERY_GAIN: f64 = 4.0;

/// Traction-control state: one throttle factor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TractionControl {
    factor: f64,
}

impl Default for TractionControl {
    fn default() -> Self {
        Self { factor: 1.0 }
    }
}

impl TractionControl {
    /// Updates the throttle factor for this tick and returns it (1 when disabled).
    pub fn update(&mut self, aids: &AidParams, sensors: &[WheelSlipSensor; 4], dt: f64) -> f64 {
        if !aids.tc_enabled {
            self.factor = 1.0;
            return 1.0;
        }
        let worst = sensors
            .iter()
            .filter(|s| s.contact)
            .map(|s| {
                // Slip in the direction of travel; standing still counts as forwards.
                let direction = if s.ground_speed < 0.0 { -1.0 } else { 1.0 };
                let speed = s.ground_speed.abs().max(TC_MIN_SPEED_M_PER_S);
                (s.rim_speed - s.ground_speed) * direction / speed
            })
            .fold(0.0_f64, f64::max);
        self.factor = if worst > aids.tc_slip_threshold {
            (self.factor - aids.tc_cut_rate_per_s * dt).max(0.0)
        } else {
            // The further below the threshold, the faster the throttle returns.
            let margin = (1.0 - worst / aids.tc_slip_threshold).clamp(0.0, 1.0);
            let rate = aids.tc_restore_rate_per_s * (1.0 + TC_RECOVERY_GAIN * margin);
            (self.factor + rate * dt).min(1.0)
        };
        self.factor
    }

    /// Whether traction control is cutting throttle.
    pub fn active(&self) -> bool {
        self.factor < 1.0
    }

    /// The current throttle factor.
    pub fn factor(&self) -> f64 {
        self.factor
    }
}

/// The driver aids of one car: ABS and traction control, as one step runs them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DriverAids {
    abs: Abs,
    tc: TractionControl,
}

/// What the brakes and the aids make of the driver's controls in one tick.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AidedControls {
    /// Brake torque capacities (N·m) of `[FL, FR, RL, RR]`: service brakes after ABS, plus
    /// the handbrake on the rear wheels.
    pub brake_torques_n_m: [f64; 4],
    /// The controls the powertrain gets: the driver's, the throttle cut by traction control.
    pub powertrain: Controls,
}

impl DriverAids {
    /// Updates ABS and traction control from the wheels' `sensors` and turns the driver's
    /// (sanitised) `controls` into brake torques and the powertrain's controls.
    pub fn update(
        &mut self,
        aids: &AidParams,
        brakes: &BrakeParams,
        controls: &Controls,
        sensors: &[WheelSlipSensor; 4],
        dt: f64,
    ) -> AidedControls {
        let abs = self.abs.update(aids, controls.brake, sensors, dt);
        let tc = self.tc.update(aids, sensors, dt);
        let service = brakes.service_capacity(controls.brake);
        let handbrake = brakes.handbrake_capacity(controls.handbrake);
        AidedControls {
            brake_torques_n_m: std::array::from_fn(|i| {
                let hand = if i >= 2 { handbrake } else { 0.0 };
                service[i] * abs[i] + hand
            }),
            powertrain: Controls {
                throttle: controls.throttle * tc,
                ..*controls
            },
        }
    }

    /// Whether ABS reduced any wheel's brake pressure in the last update.
    pub fn abs_active(&self) -> bool {
        self.abs.active()
    }

    /// Whether traction control is cutting throttle.
    pub fn tc_active(&self) -> bool {
        self.tc.active()
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp)]
mod tests {
    use super::*;

    fn sensor(rim: f64, ground: f64) -> WheelSlipSensor {
        WheelSlipSensor {
            rim_speed: rim,
            ground_speed: ground,
            contact: true,
        }
    }

    #[test]
    fn bias_and_handbrake() {
        let b = BrakeParams {
            max_torque_n_m: 8000.0,
            bias_front: 0.6,
            handbrake_torque_n_m: 900.0,
        };
        let c = b.service_capacity(0.5);
        assert!((c[0] - 1200.0).abs() < 1e-9 && (c[3] - 800.0).abs() < 1e-9);
        assert!((c.iter().sum::<f64>() - 4000.0).abs() < 1e-9);
        assert!((b.handbrake_capacity(1.0) - 900.0).abs() < 1e-12);
    }

    /// Between the thresholds the pressure builds up at the stepped share of the apply rate:
    /// 0.1 s at slip -0.09 (between -0.12 and -0.06) from 0.5 gives 0.5 + 0.1 x 6 x 0.1.
    #[test]
    fn abs_builds_pressure_up_in_steps_between_its_thresholds() {
        let aids = AidParams::default();
        let mut abs = Abs {
            factor: [0.5; 4],
            ..Abs::default()
        };
        let between = [sensor(27.3, 30.0); 4];
        let mut f = [0.5; 4];
        for _ in 0..100 {
            f = abs.update(&aids, 1.0, &between, 0.001);
        }
        let expected = 0.5 + ABS_STEPPED_APPLY_SHARE * aids.abs_apply_rate_per_s * 0.1;
        assert!((f[0] - expected).abs() < 1e-9, "{f:?}");
    }

    #[test]
    fn abs_releases_a_locking_wheel_and_reapplies() {
        let aids = AidParams::default();
        let mut abs = Abs::default();
        let locking = [
            sensor(20.0, 30.0),
            sensor(29.0, 30.0),
            sensor(29.0, 30.0),
            sensor(29.0, 30.0),
        ];
        let mut f = [1.0; 4];
        for _ in 0..20 {
            f = abs.update(&aids, 1.0, &locking, 0.001);
        }
        assert!(f[0] < 0.7 && abs.active());
        assert!((f[1] - 1.0).abs() < 1e-12);
        let rolling = [sensor(30.0, 30.0); 4];
        for _ in 0..1000 {
            f = abs.update(&aids, 1.0, &rolling, 0.001);
        }
        assert!((f[0] - 1.0).abs() < 1e-12 && !abs.active());
        // Disabled: always full pressure.
        let off = AidParams {
            abs_enabled: false,
            ..aids
        };
        assert_eq!(abs.update(&off, 1.0, &locking, 0.001), [1.0; 4]);
    }

    #[test]
    fn traction_control_cuts_and_restores() {
        let aids = AidParams::default();
        let mut tc = TractionControl::default();
        let spinning = [
            sensor(10.0, 10.0),
            sensor(10.0, 10.0),
            sensor(14.0, 10.0),
            sensor(10.0, 10.0),
        ];
        for _ in 0..50 {
            tc.update(&aids, &spinning, 0.001);
        }
        assert!(tc.factor() < 0.6 && tc.active());
        let gripping = [sensor(10.2, 10.0); 4];
        for _ in 0..1000 {
            tc.update(&aids, &gripping, 0.001);
        }
        assert!((tc.factor() - 1.0).abs() < 1e-12);
        // Launch from rest: a wheel spinning at 5 m/s with the car stopped is slip.
        let launch = [
            sensor(0.0, 0.0),
            sensor(0.0, 0.0),
            sensor(5.0, 0.0),
            sensor(5.0, 0.0),
        ];
        tc.update(&aids, &launch, 0.001);
        assert!(tc.active());
    }

    /// After a cut the throttle returns at `restore_rate (1 + TC_RECOVERY_GAIN margin)`: at
    /// zero slip five times the rate near the threshold (2/s: 0.1 in 10 ms against 0.02), and
    /// at slip 0.12 (a margin of 0.2 below 0.15) 1.8 times.
    #[test]
    fn traction_control_restores_faster_the_further_the_slip_is_below_its_threshold() {
        let aids = AidParams::default();
        let cut = |tc: &mut TractionControl| {
            let spinning = [sensor(14.0, 10.0); 4];
            while tc.factor() > 0.5 {
                tc.update(&aids, &spinning, 0.001);
            }
            tc.factor()
        };
        let restored = |tc: &mut TractionControl, slip: f64| {
            let before = cut(tc);
            let rolling = [sensor(10.0 * (1.0 + slip), 10.0); 4];
            for _ in 0..10 {
                tc.update(&aids, &rolling, 0.001);
            }
            tc.factor() - before
        };
        let mut tc = TractionControl::default();
        let at_zero = restored(&mut tc, 0.0);
        let near = restored(&mut tc, 0.12);
        let rate = aids.tc_restore_rate_per_s * 0.01;
        assert!(
            (at_zero - rate * (1.0 + TC_RECOVERY_GAIN)).abs() < 1e-12,
            "{at_zero}"
        );
        let margin = 1.0 - 0.12 / aids.tc_slip_threshold;
        assert!(
            (near - rate * (1.0 + TC_RECOVERY_GAIN * margin)).abs() < 1e-9,
            "{near}"
        );
    }
}

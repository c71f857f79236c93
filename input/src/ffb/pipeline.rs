//! The force-feedback pipeline, run once per sim tick on the sim thread.
//!
//! Stages (`docs/force-feedback.md`, "The pipeline"; `docs/force-feedback-protocols.md`,
//! section 4):
//!
//! 1. column torque from the physics (N·m) times the user's gain and the car's strength;
//! 2. optional damping (`-c * wheel speed`), friction (`-f * tanh(speed / 0.05 rad/s)`) and
//!    inertia (`-J * wheel acceleration`), and the soft lock past the car's steering lock
//!    ([`crate::ffb::soft_lock`], from the unclamped wheel angle; not counted as clipping);
//! 3. soft clip: linear up to `knee * max`, then a tanh curve that approaches `max` with no
//!    kink; a tick counts as clipped when the requested torque exceeds `max` (the clipping
//!    meter reports the fraction of clipped ticks over a rolling window, and a peak);
//! 4. minimum force: `|y| = m * min(|x| / w, 1) + |x| * (1 - m / max)` keeps the sign,
//!    lifts small forces to `m` over a ramp of width `w` (no step at zero, so noise near
//!    zero does not chatter at `±m`) and still ends at `max`;
//! 5. slew-rate limit: the torque changes by at most `slew * dt` per tick;
//! 6. clamp to the user's maximum;
//! 7. device units: divided by the wheel's peak torque to a level in -1..1, then negated
//!    when the device is inverted.
//!
//! Sign convention: the column torque, the wheel speed and the wheel acceleration share the
//! sign of [`gripline_physics::controls::Controls::steering_wheel_rad`] (positive
//! counter-clockwise). Non-finite inputs are treated as 0. The pipeline is synchronous: the
//! level of an input is computed in the same call, so an input change reaches the device
//! level within the tick.

use crate::ffb::effects::auto_gain::AutoGain;
use crate::ffb::effects::smoothing::TorqueSmoother;
use crate::ffb::effects::{EffectContributions, FeelInput, FfbEffects};
use crate::ffb::params::{PipelineParams, finite_or};
use crate::ffb::ramp::ParamsRamp;
use crate::ffb::soft_lock::SoftLock;

/// Wheel speed (rad/s) at which friction reaches 76 % (tanh 1) of its full value.
pub const FRICTION_SPEED_RAD_S: f64 = 0.05;

/// One tick's input to the pipeline.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FfbInput {
    /// Steering-column torque from the physics (N·m), scaled by the user's gain and the
    /// car's strength.
    pub column_torque_nm: f64,
    /// Torque asked for at the wheel itself (N·m), added after the gains: the settings
    /// screen's test effects, which are specified in N·m at the rim.
    pub wheel_torque_nm: f64,
    /// Steering-wheel angular speed (rad/s), for damping and friction.
    pub wheel_speed_rad_s: f64,
    /// Steering-wheel angular acceleration (rad/s²), for inertia.
    pub wheel_accel_rad_s2: f64,
    /// The physical steering wheel's angle (rad), unclamped by the car's lock, for the soft
    /// lock.
    pub wheel_angle_rad: f64,
    /// What the effects read this tick (`None`: no effects, e.g. while a test plays).
    pub feel: Option<FeelInput>,
}

/// What each stage asked for in one tick (N·m at the wheel, before the soft clip): the
/// force-feedback graph and trace show them; their sum is [`FfbStep::requested_nm`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FfbParts {
    /// The car's column torque, smoothed, times the user's gain and the car's strength.
    pub car_nm: f64,
    /// Each effect times the user's gain.
    pub effects: EffectContributions,
    /// Torque asked for at the wheel itself (test effects).
    pub at_wheel_nm: f64,
    /// Damping.
    pub damping_nm: f64,
    /// Friction.
    pub friction_nm: f64,
    /// Inertia.
    pub inertia_nm: f64,
    /// The soft lock.
    pub soft_lock_nm: f64,
}

impl FfbParts {
    /// The sum of the parts except the soft lock: what the clipping meter judges.
    pub fn without_soft_lock(&self) -> f64 {
        self.car_nm
            + self.effects.total()
            + self.at_wheel_nm
            + self.damping_nm
            + self.friction_nm
            + self.inertia_nm
    }

    /// The sum of the parts.
    pub fn total(&self) -> f64 {
        self.without_soft_lock() + self.soft_lock_nm
    }
}

/// One tick's output of the pipeline.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FfbStep {
    /// Torque to render (N·m), after every stage up to the clamp.
    pub torque_nm: f64,
    /// The same as a device level (-1..1 of the wheel's peak, inverted if configured).
    pub level: f64,
    /// The requested torque exceeded the maximum this tick.
    pub clipped: bool,
    /// The sum of the parts, before the soft clip, minimum force, slew limit and clamp (N·m).
    pub requested_nm: f64,
    /// What each stage asked for.
    pub parts: FfbParts,
}

/// Speed above which the auto-gain observes the torque (m/s): parked and crawling torques
/// are not what the gain is for.
pub const AUTO_GAIN_MIN_SPEED_M_S: f64 = 5.0;

/// Each effect times `gain`.
fn scale_effects(e: &EffectContributions, gain: f64) -> EffectContributions {
    let f = |x: f64| finite_or(x * gain, 0.0);
    EffectContributions {
        road_nm: f(e.road_nm),
        kerb_nm: f(e.kerb_nm),
        scrub_nm: f(e.scrub_nm),
        lockup_nm: f(e.lockup_nm),
        wheelspin_nm: f(e.wheelspin_nm),
        abs_nm: f(e.abs_nm),
        lateral_nm: f(e.lateral_nm),
    }
}

/// Rolling fraction of clipped ticks, and the peak requested torque, for the HUD.
#[derive(Clone, Debug)]
pub struct ClipMeter {
    window: Vec<bool>,
    next: usize,
    filled: usize,
    clipped: usize,
    peak_ratio: f64,
}

impl ClipMeter {
    /// A meter over the last `window` ticks (at least 1).
    pub fn new(window: usize) -> Self {
        Self {
            window: vec![false; window.max(1)],
            next: 0,
            filled: 0,
            clipped: 0,
            peak_ratio: 0.0,
        }
    }

    /// Records one tick: whether it clipped, and its requested torque over the maximum.
    pub fn record(&mut self, clipped: bool, ratio: f64) {
        if self.filled == self.window.len() {
            if self.window[self.next] {
                self.clipped -= 1;
            }
        } else {
            self.filled += 1;
        }
        self.window[self.next] = clipped;
        if clipped {
            self.clipped += 1;
        }
        self.next = (self.next + 1) % self.window.len();
        if ratio.is_finite() {
            self.peak_ratio = self.peak_ratio.max(ratio);
        }
    }

    /// Fraction of the recorded ticks in the window that clipped (0..1). irFFB suggests
    /// raising the maximum above 2.5 % (`docs/force-feedback-protocols.md`, section 4.4).
    pub fn fraction(&self) -> f64 {
        if self.filled == 0 {
            0.0
        } else {
            self.clipped as f64 / self.filled as f64
        }
    }

    /// Highest requested torque over the maximum since the last [`ClipMeter::reset_peak`]
    /// (above 1 means clipping).
    pub fn peak_ratio(&self) -> f64 {
        self.peak_ratio
    }

    /// Clears the peak hold.
    pub fn reset_peak(&mut self) {
        self.peak_ratio = 0.0;
    }
}

/// Soft clip of `x` towards `max` with the knee at `knee * max` (see the module docs).
pub fn soft_clip(x: f64, max: f64, knee: f64) -> f64 {
    if max <= 0.0 {
        return 0.0;
    }
    let start = knee * max;
    let a = x.abs();
    if a <= start {
        return x;
    }
    let room = max - start;
    let y = if room <= 0.0 {
        max
    } else {
        start + room * ((a - start) / room).tanh()
    };
    y.min(max).copysign(x)
}

/// Minimum force `m` with ramp width `w` up to `max` (see the module docs).
pub fn min_force(x: f64, m: f64, w: f64, max: f64) -> f64 {
    if m <= 0.0 || max <= 0.0 || x == 0.0 {
        return x;
    }
    let a = x.abs();
    let y = m * (a / w).min(1.0) + a * (1.0 - m / max);
    y.copysign(x)
}

/// The pipeline and its state (last torque for the slew limit, the clipping meter).
#[derive(Clone, Debug)]
pub struct FfbPipeline {
    /// The parameters asked for; the strengths reach them through `ramp`.
    params: PipelineParams,
    ramp: ParamsRamp,
    /// Whether a tick was processed: before the first, changes take effect at once (the
    /// wheel has felt nothing to ramp from).
    started: bool,
    soft_lock: SoftLock,
    effects: FfbEffects,
    smoother: TorqueSmoother,
    auto_gain: AutoGain,
    car_gain: f64,
    last_nm: f64,
    meter: ClipMeter,
}

impl FfbPipeline {
    /// A pipeline at rest (last torque 0) with a clipping window of `meter_window` ticks.
    pub fn new(params: PipelineParams, meter_window: usize) -> Self {
        Self {
            params,
            ramp: ParamsRamp::new(params, 1.0),
            started: false,
            soft_lock: SoftLock::OFF,
            effects: FfbEffects::default(),
            smoother: TorqueSmoother::default(),
            auto_gain: AutoGain::default(),
            car_gain: 1.0,
            last_nm: 0.0,
            meter: ClipMeter::new(meter_window),
        }
    }

    /// The parameters asked for (the targets of the strength ramps).
    pub fn params(&self) -> &PipelineParams {
        &self.params
    }

    /// The parameters rendered with now: [`FfbPipeline::params`] with every increase of
    /// strength still ramping in ([`crate::ffb::ramp`]).
    pub fn live_params(&self) -> &PipelineParams {
        self.ramp.live()
    }

    /// Whether every increase of strength has ramped in ([`crate::ffb::ramp`]).
    pub fn strength_settled(&self) -> bool {
        self.ramp.settled()
    }

    /// Replaces the parameters (settings or device facts changed); the slew state is kept.
    /// Strength that rises ramps in over [`crate::ffb::ramp::STRENGTH_RAMP_S`]; strength that
    /// falls acts from the next tick.
    pub fn set_params(&mut self, params: PipelineParams) {
        self.params = params;
        if self.started {
            self.ramp.set_params(params);
        } else {
            self.ramp = ParamsRamp::new(params, self.car_gain);
        }
    }

    /// Sets the soft lock (from the car's lock, the lock mode and the settings).
    pub fn set_soft_lock(&mut self, soft_lock: SoftLock) {
        self.soft_lock = soft_lock;
    }

    /// The soft lock in force.
    pub fn soft_lock(&self) -> &SoftLock {
        &self.soft_lock
    }

    /// Sets the car's own FFB strength (from the vehicle file; 1 = as computed): ramped in
    /// when it rises, at once when it falls.
    pub fn set_car_gain(&mut self, gain: f64) {
        self.car_gain = finite_or(gain, 0.0).clamp(0.0, 10.0);
        if self.started {
            self.ramp.set_car_gain(self.car_gain);
        } else {
            self.ramp = ParamsRamp::new(self.params, self.car_gain);
        }
    }

    /// The clipping meter.
    pub fn meter(&self) -> &ClipMeter {
        &self.meter
    }

    /// Forgets the last torque, so the slew limit starts from zero (after a stop), and the
    /// effects' and smoothing's history.
    pub fn reset(&mut self) {
        self.last_nm = 0.0;
        self.effects.reset();
        self.smoother.reset();
    }

    /// The torques observed for the auto-gain (see [`AutoGain`]).
    pub fn auto_gain(&self) -> &AutoGain {
        &self.auto_gain
    }

    /// The gain that keeps clipping under 2.5 % of the ticks observed since the last call
    /// (a lap, typically), or `None` before enough driving; observation starts over when a
    /// gain is returned.
    pub fn take_auto_gain(&mut self) -> Option<f64> {
        let gain = self.auto_gain.propose(self.params.max_torque_nm)?;
        self.auto_gain.reset();
        Some(gain)
    }

    /// Runs every stage for one tick of `dt` seconds.
    pub fn process(&mut self, input: &FfbInput, dt: f64) -> FfbStep {
        let dt = finite_or(dt, 0.0).max(0.0);
        self.started = true;
        let (p, car_gain) = self.ramp.step(dt);
        let speed = finite_or(input.wheel_speed_rad_s, 0.0);
        let accel = finite_or(input.wheel_accel_rad_s2, 0.0);
        let column = self
            .smoother
            .step(finite_or(input.column_torque_nm, 0.0), p.smoothing_s, dt);
        let effects = match &input.feel {
            Some(feel) => self.effects.step(&p.effects, feel, dt),
            None => EffectContributions::default(),
        };
        let car_unit_gain = finite_or(column * self.car_gain, 0.0);
        if let Some(feel) = &input.feel
            && feel.speed_m_s.abs() > AUTO_GAIN_MIN_SPEED_M_S
        {
            self.auto_gain.observe(car_unit_gain + effects.total());
        }
        let parts = FfbParts {
            // In the order of the pipeline before effects existed, so that with every effect
            // off the output is bit-for-bit what it was.
            car_nm: finite_or(column * p.gain * car_gain, 0.0),
            effects: scale_effects(&effects, p.gain),
            at_wheel_nm: finite_or(input.wheel_torque_nm, 0.0),
            damping_nm: finite_or(-p.damping * speed, 0.0),
            friction_nm: finite_or(-p.friction_nm * (speed / FRICTION_SPEED_RAD_S).tanh(), 0.0),
            inertia_nm: finite_or(-p.inertia * accel, 0.0),
            soft_lock_nm: self
                .soft_lock
                .torque(finite_or(input.wheel_angle_rad, 0.0), speed),
        };
        let max = p.max_torque_nm;
        // The soft lock reaches the maximum by design: it is not clipping of the car's torque.
        let without_lock = parts.without_soft_lock();
        let clipped = without_lock.abs() > max;
        self.meter.record(
            clipped,
            if max > 0.0 {
                without_lock.abs() / max
            } else {
                0.0
            },
        );
        let requested = finite_or(parts.total(), 0.0);
        let shaped = soft_clip(requested, max, p.knee);
        let lifted = min_force(shaped, p.min_force_nm, p.min_force_ramp_nm, max);
        let step = p.slew_nm_per_s * dt;
        let slewed = lifted.clamp(self.last_nm - step, self.last_nm + step);
        let torque = slewed.clamp(-max, max);
        self.last_nm = torque;
        let mut level = (torque / p.device_peak_nm).clamp(-1.0, 1.0);
        if p.invert {
            level = -level;
        }
        FfbStep {
            torque_nm: torque,
            level,
            clipped,
            requested_nm: requested,
            parts,
        }
    }
}

/// Estimates the steering wheel's speed and acceleration from its angle, tick by tick,
/// with a first-order low-pass on each derivative (a raw difference of encoder counts at
/// 1 kHz is too noisy to damp with).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WheelMotion {
    cutoff_hz: f64,
    last_angle: Option<f64>,
    speed: f64,
    accel: f64,
}

impl WheelMotion {
    /// An estimator with low-pass cut-off `cutoff_hz` (30 Hz is a reasonable start).
    pub fn new(cutoff_hz: f64) -> Self {
        Self {
            cutoff_hz: finite_or(cutoff_hz, 30.0).max(0.1),
            last_angle: None,
            speed: 0.0,
            accel: 0.0,
        }
    }

    /// Feeds the wheel angle (rad) of a tick `dt` seconds after the previous one; returns
    /// (speed rad/s, acceleration rad/s²).
    pub fn update(&mut self, angle_rad: f64, dt: f64) -> (f64, f64) {
        if !(angle_rad.is_finite() && dt.is_finite() && dt > 0.0) {
            return (self.speed, self.accel);
        }
        let Some(last) = self.last_angle.replace(angle_rad) else {
            return (0.0, 0.0);
        };
        let alpha = {
            let rc = 1.0 / (std::f64::consts::TAU * self.cutoff_hz);
            dt / (rc + dt)
        };
        let raw_speed = (angle_rad - last) / dt;
        let speed = self.speed + alpha * (raw_speed - self.speed);
        let raw_accel = (speed - self.speed) / dt;
        self.accel += alpha * (raw_accel - self.accel);
        self.speed = speed;
        (self.speed, self.accel)
    }

    /// Forgets the history (device reconnected, car reset).
    pub fn reset(&mut self) {
        self.last_angle = None;
        self.speed = 0.0;
        self.accel = 0.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ffb::device_facts::{FfbDeviceFacts, PeakSource};
    use crate::settings::device_identity::DeviceIdentity;
    use crate::settings::ffb_settings::FfbSettings;
    use proptest::prelude::*;

    fn settings() -> FfbSettings {
        FfbSettings {
            max_torque_nm: 4.0,
            soft_clip_knee: 1.0,
            slew_limit_nm_per_s: 1.0e6,
            ..FfbSettings::default()
        }
    }

    fn facts(peak_torque_nm: f64, invert: bool) -> FfbDeviceFacts {
        FfbDeviceFacts {
            peak_torque_nm,
            invert,
            ..FfbDeviceFacts::no_device(&FfbSettings::default())
        }
    }

    fn torque(nm: f64) -> FfbInput {
        FfbInput {
            column_torque_nm: nm,
            ..FfbInput::default()
        }
    }

    /// A trace at 1 kHz of a constant column torque through changes of gain, maximum, car
    /// strength and device peak: every rise reaches the wheel over about a second (never
    /// faster than the ramp's slope), every fall on the next tick.
    #[test]
    fn increases_ramp_over_a_second_and_decreases_act_at_once() {
        use crate::ffb::ramp::STRENGTH_RAMP_S;
        let mut s = settings();
        s.gain = 0.5;
        let mut p = FfbPipeline::new(PipelineParams::new(&s, &facts(8.0, false)), 10);
        let step = |p: &mut FfbPipeline| p.process(&torque(2.0), 0.001);
        assert!((step(&mut p).torque_nm - 1.0).abs() < 1e-12);
        // Gain x3: 1 N·m -> 3 N·m, linearly over STRENGTH_RAMP_S.
        s.gain = 1.5;
        p.set_params(PipelineParams::new(&s, &facts(8.0, false)));
        let mut last = 1.0;
        let mut ticks_to_settle = 0;
        for tick in 1..=2000 {
            let out = step(&mut p);
            assert!(out.torque_nm + 1e-12 >= last, "tick {tick}: no dip");
            assert!(
                out.torque_nm - last <= 2.0 * 0.001 / STRENGTH_RAMP_S + 1e-9,
                "tick {tick}: a step of {} N·m",
                out.torque_nm - last
            );
            if ticks_to_settle == 0 && (out.torque_nm - 3.0).abs() < 1e-9 {
                ticks_to_settle = tick;
            }
            last = out.torque_nm;
        }
        assert!((990..=1010).contains(&ticks_to_settle), "{ticks_to_settle}");
        // Halving the gain: half on the next tick.
        s.gain = 0.75;
        p.set_params(PipelineParams::new(&s, &facts(8.0, false)));
        assert!((step(&mut p).torque_nm - 1.5).abs() < 1e-12);
        // A lower maximum clamps on the next tick.
        s.max_torque_nm = 1.0;
        p.set_params(PipelineParams::new(&s, &facts(8.0, false)));
        assert!((step(&mut p).torque_nm - 1.0).abs() < 1e-12);
        // A stronger car ramps; a weaker one acts at once.
        s.max_torque_nm = 4.0;
        p.set_params(PipelineParams::new(&s, &facts(8.0, false)));
        for _ in 0..1100 {
            step(&mut p);
        }
        p.set_car_gain(2.0);
        assert!(step(&mut p).torque_nm < 1.51);
        p.set_car_gain(0.5);
        assert!((step(&mut p).torque_nm - 0.75).abs() < 1e-12);
        // A lower device peak (more level per N·m) ramps the level, not the torque.
        let before = step(&mut p).level;
        p.set_params(PipelineParams::new(&s, &facts(2.0, false)));
        let after = step(&mut p).level;
        assert!(after < 1.01 * before, "{before} -> {after}");
        for _ in 0..1100 {
            step(&mut p);
        }
        assert!((step(&mut p).level - 0.75 / 2.0).abs() < 1e-12);
    }

    #[test]
    fn gain_and_device_units() {
        let mut s = settings();
        s.gain = 0.5;
        let mut p = FfbPipeline::new(PipelineParams::new(&s, &facts(8.0, false)), 10);
        p.set_car_gain(2.0);
        let out = p.process(&torque(3.0), 0.001);
        assert!((out.torque_nm - 3.0).abs() < 1e-12);
        assert!((out.level - 3.0 / 8.0).abs() < 1e-12);
        let mut inv = FfbPipeline::new(PipelineParams::new(&s, &facts(8.0, true)), 10);
        inv.set_car_gain(2.0);
        assert!((inv.process(&torque(3.0), 0.001).level + 3.0 / 8.0).abs() < 1e-12);
    }

    #[test]
    fn max_never_exceeds_device_peak() {
        let mut s = settings();
        s.max_torque_nm = 20.0;
        let mut p = FfbPipeline::new(PipelineParams::new(&s, &facts(2.5, false)), 10);
        let out = p.process(&torque(100.0), 0.001);
        assert!((out.torque_nm - 2.5).abs() < 1e-12);
        assert!((out.level - 1.0).abs() < 1e-12);
        assert!(out.clipped);
    }

    #[test]
    fn damping_friction_inertia_oppose_motion() {
        let mut s = settings();
        s.damping_nm_s_per_rad = 0.5;
        s.friction_nm = 0.2;
        s.inertia_kg_m2 = 0.01;
        let mut p = FfbPipeline::new(PipelineParams::new(&s, &facts(10.0, false)), 10);
        let out = p.process(
            &FfbInput {
                column_torque_nm: 0.0,
                wheel_speed_rad_s: 2.0,
                wheel_accel_rad_s2: 10.0,
                wheel_angle_rad: 0.0,
                wheel_torque_nm: 0.0,
                feel: None,
            },
            0.001,
        );
        let expected = -0.5 * 2.0 - 0.2 * (2.0f64 / FRICTION_SPEED_RAD_S).tanh() - 0.01 * 10.0;
        assert!(
            (out.torque_nm - expected).abs() < 1e-12,
            "{}",
            out.torque_nm
        );
    }

    #[test]
    fn soft_clip_is_smooth_and_bounded() {
        assert_eq!(soft_clip(2.0, 4.0, 0.8).to_bits(), 2.0f64.to_bits());
        let y = soft_clip(100.0, 4.0, 0.8);
        assert!(y > 3.99 && y <= 4.0);
        assert!((soft_clip(-100.0, 4.0, 0.8) + y).abs() < 1e-12);
        // Slope 1 on both sides of the knee.
        let k = 3.2;
        let d = 1e-6;
        let left = (soft_clip(k, 4.0, 0.8) - soft_clip(k - d, 4.0, 0.8)) / d;
        let right = (soft_clip(k + d, 4.0, 0.8) - soft_clip(k, 4.0, 0.8)) / d;
        assert!((left - right).abs() < 1e-3);
        assert_eq!(soft_clip(5.0, 4.0, 1.0).to_bits(), 4.0f64.to_bits());
    }

    #[test]
    fn min_force_ramps_without_step_and_keeps_max() {
        assert_eq!(min_force(0.0, 0.5, 0.1, 4.0).to_bits(), 0.0f64.to_bits());
        assert!((min_force(0.05, 0.5, 0.1, 4.0) - (0.25 + 0.05 * (1.0 - 0.125))).abs() < 1e-12);
        assert!(min_force(0.1, 0.5, 0.1, 4.0) >= 0.5);
        assert!((min_force(4.0, 0.5, 0.1, 4.0) - 4.0).abs() < 1e-12);
        assert!((min_force(-4.0, 0.5, 0.1, 4.0) + 4.0).abs() < 1e-12);
        assert!(min_force(1e-9, 0.5, 0.1, 4.0) < 1e-7, "continuous at zero");
    }

    #[test]
    fn slew_limits_a_step() {
        let mut s = settings();
        s.slew_limit_nm_per_s = 100.0; // 0.1 N·m per 1 ms tick
        let mut p = FfbPipeline::new(PipelineParams::new(&s, &facts(4.0, false)), 10);
        let outs: Vec<_> = (0..50)
            .map(|_| p.process(&torque(10.0), 0.001).torque_nm)
            .collect();
        assert!((outs[0] - 0.1).abs() < 1e-12);
        assert!((outs[9] - 1.0).abs() < 1e-9);
        assert!((outs[49] - 4.0).abs() < 1e-9, "then clamped at max");
    }

    #[test]
    fn clip_meter_window() {
        let mut m = ClipMeter::new(4);
        for c in [true, false, false, false] {
            m.record(c, 0.5);
        }
        assert!((m.fraction() - 0.25).abs() < 1e-12);
        m.record(false, 1.5); // the clipped tick leaves the window
        assert_eq!(m.fraction().to_bits(), 0f64.to_bits());
        assert!((m.peak_ratio() - 1.5).abs() < 1e-12);
        m.reset_peak();
        assert_eq!(m.peak_ratio().to_bits(), 0f64.to_bits());
    }

    #[test]
    fn wheel_motion_tracks_constant_speed() {
        let mut w = WheelMotion::new(30.0);
        let mut out = (0.0, 0.0);
        for i in 0..500 {
            out = w.update(f64::from(i) * 0.002, 0.001); // 2 rad/s
        }
        assert!((out.0 - 2.0).abs() < 1e-6, "{out:?}");
        assert!(out.1.abs() < 1e-3);
        assert_eq!(w.update(f64::NAN, 0.001), out);
    }

    #[test]
    fn with_every_effect_off_the_output_is_the_rack_force_pipeline_bit_for_bit() {
        use crate::ffb::effects::FeelInput;
        // A busy tick: kerbs, lock-up, ABS, a bump, cornering.
        let busy = |i: u32| FeelInput {
            front_load_n: [3000.0 + 400.0 * f64::from(i % 5), 3500.0],
            front_on_kerb: 2,
            front_alpha_ratio: 1.5,
            front_min_slip_ratio: -1.0,
            driven_max_slip_ratio: 0.8,
            front_peak_slip_ratio: 0.1,
            driven_peak_slip_ratio: 0.1,
            speed_m_s: 30.0,
            lateral_m_s2: 9.0,
            abs_active: true,
        };
        let mut s = settings();
        s.effects = crate::settings::ffb_effects::FfbEffectSettings::OFF;
        s.damping_nm_s_per_rad = 0.2;
        s.slew_limit_nm_per_s = 500.0;
        let mut with_feel = FfbPipeline::new(PipelineParams::new(&s, &facts(8.0, true)), 10);
        let mut without = FfbPipeline::new(PipelineParams::new(&s, &facts(8.0, true)), 10);
        with_feel.set_car_gain(0.37);
        without.set_car_gain(0.37);
        for i in 0..2000u32 {
            let t = 3.0 * (f64::from(i) * 0.01).sin();
            let base = FfbInput {
                column_torque_nm: t,
                wheel_speed_rad_s: 0.5 * (f64::from(i) * 0.003).cos(),
                ..FfbInput::default()
            };
            let a = with_feel.process(
                &FfbInput {
                    feel: Some(busy(i)),
                    ..base
                },
                0.001,
            );
            let b = without.process(&base, 0.001);
            assert_eq!(a.torque_nm.to_bits(), b.torque_nm.to_bits(), "tick {i}");
            assert_eq!(a.level.to_bits(), b.level.to_bits());
            // And the old formula: column x gain x car gain, minus damping, clipped.
            let old = t * s.gain * 0.37 - 0.2 * base.wheel_speed_rad_s;
            assert_eq!(a.requested_nm.to_bits(), old.to_bits(), "tick {i}");
        }
    }

    #[test]
    fn effects_and_smoothing_reach_the_output() {
        use crate::ffb::effects::FeelInput;
        let mut s = settings();
        s.effects.kerb_rumble_nm = 1.0;
        s.smoothing_ms = 20.0;
        let mut p = FfbPipeline::new(PipelineParams::new(&s, &facts(8.0, false)), 10);
        let feel = FeelInput {
            front_on_kerb: 2,
            speed_m_s: 20.0,
            ..FeelInput::default()
        };
        let outs: Vec<FfbStep> = (0..500)
            .map(|_| {
                p.process(
                    &FfbInput {
                        column_torque_nm: 2.0,
                        feel: Some(feel),
                        ..FfbInput::default()
                    },
                    0.001,
                )
            })
            .collect();
        // The car's torque arrives smoothed (first tick: the filter starts at the input).
        assert!((outs[0].parts.car_nm - 2.0).abs() < 1e-12);
        let ripple = outs[100..]
            .iter()
            .map(|o| (o.torque_nm - o.parts.car_nm).abs())
            .fold(0.0, f64::max);
        assert!(
            (ripple - 1.0).abs() < 0.02,
            "the kerb adds its 1 N·m ripple: {ripple}"
        );
        assert!(
            outs.iter()
                .all(|o| o.torque_nm.abs() <= s.max_torque_nm + 1e-12)
        );
    }

    proptest! {
        #[test]
        fn output_bounded_and_finite(
            t in prop_oneof![any::<f64>(), -1e3..1e3f64],
            v in prop_oneof![any::<f64>(), -50.0..50.0f64],
            a in any::<f64>(),
            dt in prop_oneof![any::<f64>(), 0.0..0.01f64],
            gain in 0.0..5.0f64, damping in 0.0..5.0f64, min in 0.0..1.0f64,
            knee in 0.1..1.0f64, invert in any::<bool>(),
        ) {
            let s = FfbSettings {
                gain,
                damping_nm_s_per_rad: damping,
                min_force_nm: min,
                soft_clip_knee: knee,
                friction_nm: 0.3,
                inertia_kg_m2: 0.01,
                ..FfbSettings::default()
            };
            let mut p = FfbPipeline::new(PipelineParams::new(&s, &facts(5.0, invert)), 100);
            for _ in 0..3 {
                let out = p.process(&FfbInput { column_torque_nm: t, wheel_speed_rad_s: v, wheel_accel_rad_s2: a, wheel_angle_rad: v, wheel_torque_nm: 0.0, feel: None }, dt);
                prop_assert!(out.torque_nm.is_finite() && out.torque_nm.abs() <= 4.0 + 1e-12);
                prop_assert!(out.level.is_finite() && out.level.abs() <= 1.0);
            }
        }
    }

    /// Every base that shares a product ID, driven through the pipeline the rig uses with the
    /// peak the rig assumes for that ID, never gets more than the user's maximum at its
    /// own real peak: the level the pipeline sends at full request times the base's peak.
    #[test]
    fn no_base_of_a_shared_id_gets_more_than_the_users_maximum() {
        use crate::known_wheels::SHARED_PRODUCT_IDS;
        for shared in SHARED_PRODUCT_IDS {
            let device = DeviceIdentity::new(shared.vendor_id, shared.product_id, "base", "");
            for max_nm in [0.5, 2.0, 3.5, 8.0, 25.0, 100.0] {
                let settings = FfbSettings {
                    max_torque_nm: max_nm,
                    gain: 10.0,
                    ..FfbSettings::default()
                };
                let facts = FfbDeviceFacts::resolve(&settings, &device, None);
                assert!(matches!(facts.peak_source, PeakSource::SharedProductId(_)));
                let mut pipeline = FfbPipeline::new(PipelineParams::new(&settings, &facts), 1);
                let mut level: f64 = 0.0;
                for sign in [1.0, -1.0] {
                    for _ in 0..100 {
                        let step = pipeline.process(
                            &FfbInput {
                                column_torque_nm: sign * 1e3,
                                ..FfbInput::default()
                            },
                            0.001,
                        );
                        level = level.max(step.level.abs());
                    }
                }
                assert!(level > 0.0);
                for &(name, real_peak_nm) in shared.members {
                    let real_nm = level * real_peak_nm;
                    assert!(
                        real_nm <= max_nm.min(real_peak_nm) + 1e-9,
                        "{name} on {device}: {real_nm} N·m at a maximum of {max_nm} N·m \
                         ({} N·m assumed)",
                        facts.peak_torque_nm
                    );
                }
            }
        }
    }
}

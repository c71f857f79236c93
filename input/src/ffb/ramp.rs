//! Increases of force-feedback strength ramp in; decreases act at once.
//!
//! A new master gain, maximum torque, effect level, car strength or device fact (a lower
//! peak, so a higher level per N·m) reaches the wheel over [`STRENGTH_RAMP_S`], so that an
//! Apply, an accepted auto-gain proposal or a car change never makes the torque in the
//! driver's hands jump up mid-corner. A value that goes down takes effect on the next tick:
//! making the wheel weaker must never wait.
//!
//! The pipeline ([`crate::ffb::pipeline::FfbPipeline`]) keeps the parameters it was given as
//! targets and renders with the ramped values; once a ramp ends the value *is* the target,
//! bit for bit, so a pipeline whose settings never change computes exactly what it computed
//! before ramps existed.

use crate::ffb::params::PipelineParams;

/// Time over which an increase of strength reaches its new value (s).
pub const STRENGTH_RAMP_S: f64 = 1.0;

/// One strength value that rises linearly toward its target over [`STRENGTH_RAMP_S`] and
/// falls to it at once.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ramped {
    current: f64,
    target: f64,
    rate_per_s: f64,
}

impl Ramped {
    /// A value already at `value` (no ramp).
    pub fn at(value: f64) -> Self {
        Self {
            current: value,
            target: value,
            rate_per_s: 0.0,
        }
    }

    /// A new target: lower (or equal, or not a number) takes effect at once; higher ramps
    /// from the current value over [`STRENGTH_RAMP_S`].
    pub fn set_target(&mut self, target: f64) {
        if target > self.current && self.current.is_finite() && target.is_finite() {
            self.rate_per_s = (target - self.current) / STRENGTH_RAMP_S;
        } else {
            self.current = target;
            self.rate_per_s = 0.0;
        }
        self.target = target;
    }

    /// Starts this value from `value` (at most the target) and ramps it to the target: a
    /// fade from zero when the direction of the wheel changes.
    pub fn restart_from(&mut self, value: f64) {
        let target = self.target;
        self.current = value.min(target);
        self.set_target(target);
    }

    /// Advances by `dt` seconds and returns the value to use this tick.
    pub fn step(&mut self, dt: f64) -> f64 {
        if self.current < self.target {
            let next = self.current + self.rate_per_s * dt.max(0.0);
            // Within rounding of the target (a thousand 1 ms steps sum to 0.999... s): there.
            let close = 1e-9 * self.target.abs().max(1e-9);
            self.current = if next >= self.target - close {
                self.target
            } else {
                next
            };
        }
        self.current
    }

    /// The value in force now.
    pub fn value(&self) -> f64 {
        self.current
    }

    /// The value it is heading for.
    pub fn target(&self) -> f64 {
        self.target
    }

    /// Whether it has reached its target.
    pub fn settled(&self) -> bool {
        // Exact: a settled value is the target's own bits (see the module docs).
        self.current.to_bits() == self.target.to_bits() || self.current.is_nan()
    }
}

/// Number of ramped strength values in [`PipelineParams`] (see [`strengths_mut`]).
const STRENGTHS: usize = 14;

/// The parameters that make the wheel stronger as they rise: gain, maximum, soft-clip knee,
/// minimum force, damping, friction, inertia and the seven effect levels.
fn strengths_mut(p: &mut PipelineParams) -> [&mut f64; STRENGTHS] {
    let e = &mut p.effects;
    [
        &mut p.gain,
        &mut p.max_torque_nm,
        &mut p.knee,
        &mut p.min_force_nm,
        &mut p.damping,
        &mut p.friction_nm,
        &mut p.inertia,
        &mut e.road_texture_nm_per_kn,
        &mut e.kerb_rumble_nm,
        &mut e.scrub_nm,
        &mut e.lockup_nm,
        &mut e.wheelspin_nm,
        &mut e.abs_nm,
        &mut e.lateral_g_nm_per_g,
    ]
}

/// The pipeline's parameters as rendered: the targets with every strength ramped (see the
/// module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParamsRamp {
    live: PipelineParams,
    strengths: [Ramped; STRENGTHS],
    /// The device's level per N·m (1 / peak): a lower peak is a stronger wheel.
    level_per_nm: Ramped,
    /// The device's peak (N·m) that `level_per_nm` heads for, kept to use its own bits once
    /// the ramp ends.
    peak_nm: f64,
    /// The car's own strength.
    car_gain: Ramped,
}

impl ParamsRamp {
    /// Parameters in force at once (a new pipeline: the safety's fade-in starts it).
    pub fn new(params: PipelineParams, car_gain: f64) -> Self {
        let mut p = params;
        let strengths = strengths_mut(&mut p).map(|v| Ramped::at(*v));
        Self {
            live: params,
            strengths,
            level_per_nm: Ramped::at(1.0 / params.device_peak_nm),
            peak_nm: params.device_peak_nm,
            car_gain: Ramped::at(car_gain),
        }
    }

    /// New target parameters. A change of the device's direction starts every strength from
    /// zero: the torque fades out and back in the new way instead of flipping.
    pub fn set_params(&mut self, params: PipelineParams) {
        let flipped = params.invert != self.live.invert;
        let mut target = params;
        for (ramp, value) in self.strengths.iter_mut().zip(strengths_mut(&mut target)) {
            ramp.set_target(*value);
            if flipped {
                ramp.restart_from(0.0);
            }
        }
        self.level_per_nm.set_target(1.0 / params.device_peak_nm);
        self.peak_nm = params.device_peak_nm;
        // The soft clip, slew limit, smoothing and direction take the new values at once;
        // the strengths and the peak come from their ramps.
        self.live = params;
        self.write_live();
    }

    /// A new car strength (ramped up, at once down).
    pub fn set_car_gain(&mut self, gain: f64) {
        self.car_gain.set_target(gain);
    }

    /// Advances every ramp by `dt` seconds; returns the parameters and car strength to render
    /// this tick with.
    pub fn step(&mut self, dt: f64) -> (PipelineParams, f64) {
        for ramp in &mut self.strengths {
            ramp.step(dt);
        }
        self.level_per_nm.step(dt);
        self.car_gain.step(dt);
        self.write_live();
        (self.live, self.car_gain.value())
    }

    /// The parameters in force now.
    pub fn live(&self) -> &PipelineParams {
        &self.live
    }

    /// Whether every ramp has reached its target.
    pub fn settled(&self) -> bool {
        self.strengths.iter().all(Ramped::settled)
            && self.level_per_nm.settled()
            && self.car_gain.settled()
    }

    fn write_live(&mut self) {
        for (live, ramp) in strengths_mut(&mut self.live)
            .into_iter()
            .zip(self.strengths.iter())
        {
            *live = ramp.value();
        }
        // The peak itself when settled (its bits unchanged), else the ramped level's inverse.
        self.live.device_peak_nm = if self.level_per_nm.settled() {
            self.peak_nm
        } else {
            1.0 / self.level_per_nm.value()
        };
        // Minimum force stays below half of the maximum in force, as the settings require.
        self.live.min_force_nm = self.live.min_force_nm.min(0.5 * self.live.max_torque_nm);
    }
}

#[cfg(test)]
// Exact comparisons on purpose: a settled ramp must give the target's own bits.
#[allow(clippy::float_cmp)]
mod tests {
    use super::*;
    use crate::ffb::device_facts::{FfbDeviceFacts, PeakSource};
    use crate::settings::ffb_settings::FfbSettings;

    fn params(gain: f64, max: f64, peak: f64, invert: bool) -> PipelineParams {
        let settings = FfbSettings {
            gain,
            max_torque_nm: max,
            ..FfbSettings::default()
        };
        let facts = FfbDeviceFacts {
            peak_torque_nm: peak,
            peak_source: PeakSource::User,
            invert,
            rotation_deg: 900.0,
        };
        PipelineParams::new(&settings, &facts)
    }

    #[test]
    fn increases_take_one_second_and_decreases_one_tick() {
        let mut r = Ramped::at(1.0);
        r.set_target(3.0);
        // 1 kHz: after 0.5 s, halfway; after 1 s, there.
        for _ in 0..500 {
            r.step(0.001);
        }
        assert!((r.value() - 2.0).abs() < 1e-9, "{}", r.value());
        for _ in 0..500 {
            r.step(0.001);
        }
        assert_eq!(r.value(), 3.0);
        assert!(r.settled());
        r.set_target(0.5);
        assert_eq!(r.value(), 0.5, "a decrease acts before the next step");
        r.set_target(f64::NAN);
        assert!(r.value().is_nan() && r.settled());
    }

    #[test]
    fn unchanged_parameters_are_the_same_bits() {
        let p = params(1.3, 4.0, 2.2, false);
        let mut ramp = ParamsRamp::new(p, 0.8);
        for _ in 0..3 {
            assert_eq!(ramp.step(0.001), (p, 0.8));
        }
        ramp.set_params(p);
        assert_eq!(ramp.step(0.001), (p, 0.8));
        assert!(ramp.settled());
    }

    #[test]
    fn a_lower_peak_raises_the_level_per_newton_metre_gradually() {
        let mut ramp = ParamsRamp::new(params(1.0, 3.0, 10.0, false), 1.0);
        ramp.set_params(params(1.0, 3.0, 3.5, false));
        let (first, _) = ramp.step(0.001);
        assert!(first.device_peak_nm > 9.5, "{}", first.device_peak_nm);
        for _ in 0..1000 {
            ramp.step(0.001);
        }
        assert_eq!(ramp.live().device_peak_nm, 3.5);
        // A higher peak (a weaker level) acts at once.
        ramp.set_params(params(1.0, 3.0, 10.0, false));
        assert_eq!(ramp.step(0.001).0.device_peak_nm, 10.0);
    }

    #[test]
    fn a_flipped_direction_fades_from_zero() {
        let mut ramp = ParamsRamp::new(params(1.0, 3.0, 5.0, false), 1.0);
        ramp.set_params(params(1.0, 3.0, 5.0, true));
        let (p, _) = ramp.step(0.001);
        assert!(p.invert);
        assert!(p.max_torque_nm < 0.01 && p.gain < 0.01, "{p:?}");
        for _ in 0..1000 {
            ramp.step(0.001);
        }
        assert_eq!(ramp.live(), &params(1.0, 3.0, 5.0, true));
    }
}

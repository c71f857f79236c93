//! Force-feedback effects on top of the car's steering torque (settings:
//! `crate::settings::ffb_effects`), computed each tick from the physics' snapshot.
//!
//! - [`FeelInput`]: what the effects read, taken from one `Snapshot` and the car's
//!   `SteeringFeel` ([`FeelInput::from_snapshot`], the one place that maps them);
//! - [`FfbEffects`]: the effects' state; [`FfbEffects::step`] gives each effect's torque
//!   ([`EffectContributions`], N·m at the rim before the master gain);
//! - [`road_texture`], [`kerb_rumble`], [`tyre_slip`] (scrub, lock-up, wheelspin),
//!   [`abs_pulses`], built on [`vibration`]; the lateral-acceleration term is one line here;
//! - [`smoothing`]: the low-pass of the car's torque; [`auto_gain`]: the gain that keeps
//!   clipping under 2.5 %.
//!
//! Everything is deterministic (oscillators are phase accumulators driven by `dt`), allocates
//! nothing per tick, and gives finite output for any input. An effect whose strength is 0
//! contributes exactly 0.0.

pub mod abs_pulses;
pub mod auto_gain;
pub mod kerb_rumble;
pub mod road_texture;
pub mod smoothing;
pub mod tyre_slip;
pub mod vibration;

use crate::settings::ffb_effects::{FfbEffectSettings, MAX_EFFECT_NM};
use gripline_physics::ground::Surface;
use gripline_physics::vehicle::params::GRAVITY;
use gripline_physics::vehicle::{Snapshot, SteeringFeel};

use abs_pulses::AbsPulses;
use kerb_rumble::KerbRumble;
use road_texture::RoadTexture;
use tyre_slip::{Scrub, SlipKind, SlipVibration};

/// What the effects read from one tick of the physics.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FeelInput {
    /// Front-left and front-right vertical loads (N).
    pub front_load_n: [f64; 2],
    /// Front tyres on a kerb and touching it (0 to 2).
    pub front_on_kerb: u32,
    /// The larger front |slip angle| over the front tyre's peak slip angle.
    pub front_alpha_ratio: f64,
    /// The most negative front slip ratio (braking).
    pub front_min_slip_ratio: f64,
    /// The largest slip ratio of the driven wheels.
    pub driven_max_slip_ratio: f64,
    /// Slip ratio where the front tyre's force peaks.
    pub front_peak_slip_ratio: f64,
    /// Slip ratio where the driven tyres' force peaks.
    pub driven_peak_slip_ratio: f64,
    /// Speed of the car (m/s).
    pub speed_m_s: f64,
    /// Lateral specific force (m/s², body y, positive left): what the driver's body feels.
    pub lateral_m_s2: f64,
    /// ABS is modulating a brake.
    pub abs_active: bool,
}

impl FeelInput {
    /// The effects' input from snapshot `s` of a car with `feel`.
    pub fn from_snapshot(s: &Snapshot, feel: &SteeringFeel) -> Self {
        let [fl, fr, ..] = &s.wheels;
        let front = [fl, fr];
        let peak_alpha =
            if feel.front_peak_slip_angle_rad.is_finite() && feel.front_peak_slip_angle_rad > 0.0 {
                feel.front_peak_slip_angle_rad
            } else {
                0.1
            };
        let front_on_kerb = front
            .iter()
            .filter(|w| w.contact && w.surface == Surface::Kerb)
            .count();
        let driven_max_slip_ratio = s
            .wheels
            .iter()
            .zip(feel.driven)
            .filter(|(w, driven)| *driven && w.contact)
            .map(|(w, _)| w.slip_ratio)
            .fold(0.0, f64::max);
        let front_driven = feel.driven[0] || feel.driven[1];
        Self {
            front_load_n: [fl.load_n, fr.load_n],
            // At most two: the cast cannot truncate.
            #[allow(clippy::cast_possible_truncation)]
            front_on_kerb: front_on_kerb as u32,
            front_alpha_ratio: front
                .iter()
                .filter(|w| w.contact)
                .map(|w| w.slip_angle_rad.abs() / peak_alpha)
                .fold(0.0, f64::max),
            front_min_slip_ratio: front
                .iter()
                .filter(|w| w.contact)
                .map(|w| w.slip_ratio)
                .fold(0.0, f64::min),
            driven_max_slip_ratio,
            front_peak_slip_ratio: feel.front_peak_slip_ratio,
            driven_peak_slip_ratio: if front_driven {
                feel.front_peak_slip_ratio
            } else {
                feel.rear_peak_slip_ratio
            },
            speed_m_s: s.speed_m_per_s,
            lateral_m_s2: s.specific_force_body.y,
            abs_active: s.abs_active,
        }
    }
}

/// Each effect's torque in one tick (N·m at the rim, positive counter-clockwise, before the
/// master gain).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct EffectContributions {
    /// Road texture.
    pub road_nm: f64,
    /// Kerb rumble.
    pub kerb_nm: f64,
    /// Scrub past the front tyres' peak.
    pub scrub_nm: f64,
    /// Front lock-up.
    pub lockup_nm: f64,
    /// Wheelspin.
    pub wheelspin_nm: f64,
    /// ABS pulses.
    pub abs_nm: f64,
    /// Lateral acceleration.
    pub lateral_nm: f64,
}

impl EffectContributions {
    /// The sum.
    pub fn total(&self) -> f64 {
        self.road_nm
            + self.kerb_nm
            + self.scrub_nm
            + self.lockup_nm
            + self.wheelspin_nm
            + self.abs_nm
            + self.lateral_nm
    }
}

/// The effects' state (see the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FfbEffects {
    road: RoadTexture,
    kerb: KerbRumble,
    scrub: Scrub,
    lockup: SlipVibration,
    wheelspin: SlipVibration,
    abs: AbsPulses,
}

/// A strength made safe: finite, within 0..[`MAX_EFFECT_NM`].
fn strength(x: f64) -> f64 {
    if x.is_finite() {
        x.clamp(0.0, MAX_EFFECT_NM)
    } else {
        0.0
    }
}

/// `value` unless its strength is zero (then exactly zero, whatever the state says).
fn gated(strength: f64, value: f64) -> f64 {
    if strength > 0.0 && value.is_finite() {
        value
    } else {
        0.0
    }
}

impl FfbEffects {
    /// One tick of `dt` seconds with `settings` on `input`.
    pub fn step(
        &mut self,
        settings: &FfbEffectSettings,
        input: &FeelInput,
        dt: f64,
    ) -> EffectContributions {
        let road = strength(settings.road_texture_nm_per_kn);
        let kerb = strength(settings.kerb_rumble_nm);
        let scrub = strength(settings.scrub_nm);
        let lockup = strength(settings.lockup_nm);
        let spin = strength(settings.wheelspin_nm);
        let abs = strength(settings.abs_nm);
        let lateral = strength(settings.lateral_g_nm_per_g);
        let [left, right] = input.front_load_n;
        let lateral_g = if input.lateral_m_s2.is_finite() {
            (input.lateral_m_s2 / GRAVITY).clamp(-5.0, 5.0)
        } else {
            0.0
        };
        EffectContributions {
            road_nm: gated(road, self.road.step(left, right, road, dt))
                .clamp(-MAX_EFFECT_NM, MAX_EFFECT_NM),
            kerb_nm: gated(
                kerb,
                self.kerb
                    .step(input.front_on_kerb, input.speed_m_s, kerb, dt),
            ),
            scrub_nm: gated(scrub, self.scrub.step(input.front_alpha_ratio, scrub, dt)),
            lockup_nm: gated(
                lockup,
                self.lockup.step(
                    SlipKind::Lockup,
                    input.front_min_slip_ratio,
                    input.front_peak_slip_ratio,
                    input.speed_m_s,
                    lockup,
                    dt,
                ),
            ),
            wheelspin_nm: gated(
                spin,
                self.wheelspin.step(
                    SlipKind::Wheelspin,
                    input.driven_max_slip_ratio,
                    input.driven_peak_slip_ratio,
                    input.speed_m_s,
                    spin,
                    dt,
                ),
            ),
            abs_nm: gated(abs, self.abs.step(input.abs_active, abs, dt)),
            // In a left turn an accelerometer's specific force points left (positive) and
            // the rack's aligning torque turns the wheel right (negative): the
            // seat-of-pants term adds to that weight.
            lateral_nm: gated(lateral, -lateral * lateral_g),
        }
    }

    /// Every effect silent, filters forgotten (car reset, device reconnected).
    pub fn reset(&mut self) {
        *self = Self::default();
    }
}

#[cfg(test)]
mod tests;

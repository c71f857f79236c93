//! Force-feedback effects on top of the car's steering torque, each with its own strength.
//!
//! The physics' column torque already carries what the front tyres feel (load changes over a
//! bump, the aligning moment fading past the peak). The effects add what a real column damps
//! out or what a geared wheel cannot convey by torque alone: road texture, kerb rumble, tyre
//! scrub and lock-up vibrations, wheelspin, ABS pulses, and a lateral-acceleration
//! ("seat-of-pants") term. Each is a torque at the rim in N·m (before the master gain) at
//! full cause; 0 turns it off and then it contributes exactly nothing.
//!
//! Defaults: **all off but the kerb rumble**. rFactor 2, iRacing and `BeamNG` render the
//! physics' torque alone by default (`BeamNG`'s side-acceleration term is an opt-in slider);
//! Assetto Corsa offers kerb, road, slip and ABS "enhancements" as sliders, kerbs on. Gripline's
//! kerbs are flat in the track mesh (a surface, not a shape), so without the rumble a kerb
//! cannot be felt at all: it is on at [`DEFAULT_KERB_RUMBLE_NM`]. A driver turns on what their
//! wheel and taste need, and the graph (F4) and the trace (`--ffb-trace`) show what each adds.

use gripline_physics::validate::{Validate, Validator};
use serde::{Deserialize, Serialize};

/// Largest amplitude any one effect may have (N·m at the rim).
pub const MAX_EFFECT_NM: f64 = 10.0;
/// The kerb rumble's default strength (N·m): felt on a geared wheel, light on a
/// direct-drive base.
pub const DEFAULT_KERB_RUMBLE_NM: f64 = 0.3;

/// The effects' strengths (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct FfbEffectSettings {
    /// Road texture (N·m per kN): the high-passed difference of the front tyres' loads (a
    /// bump under one wheel twists the wheel).
    pub road_texture_nm_per_kn: f64,
    /// Kerb rumble (N·m): a ripple at the kerb stripes' passing frequency while a front tyre
    /// runs on a kerb.
    pub kerb_rumble_nm: f64,
    /// Scrub (N·m): a vibration rising as the front tyres pass their peak slip angle.
    pub scrub_nm: f64,
    /// Lock-up (N·m): a vibration while a front wheel locks under braking.
    pub lockup_nm: f64,
    /// Wheelspin (N·m): a low rumble while a driven wheel spins.
    pub wheelspin_nm: f64,
    /// ABS pulses (N·m): the modulator's pulses while ABS acts.
    pub abs_nm: f64,
    /// Lateral acceleration (N·m per g): a torque that grows with cornering force, felt as
    /// the car's weight in the wheel.
    pub lateral_g_nm_per_g: f64,
    /// Set the master gain from a lap's torque so that at most 2.5 % of ticks clip
    /// (irFFB's threshold); applied at each completed lap and saved.
    pub auto_gain: bool,
}

impl Default for FfbEffectSettings {
    fn default() -> Self {
        Self {
            kerb_rumble_nm: DEFAULT_KERB_RUMBLE_NM,
            ..Self::OFF
        }
    }
}

impl FfbEffectSettings {
    /// Every effect off, no auto-gain.
    pub const OFF: Self = Self {
        road_texture_nm_per_kn: 0.0,
        kerb_rumble_nm: 0.0,
        scrub_nm: 0.0,
        lockup_nm: 0.0,
        wheelspin_nm: 0.0,
        abs_nm: 0.0,
        lateral_g_nm_per_g: 0.0,
        auto_gain: false,
    };

    /// The fields with their names, for validation and repair.
    pub fn amplitudes_mut(&mut self) -> [(&'static str, &mut f64); 7] {
        [
            ("road_texture_nm_per_kn", &mut self.road_texture_nm_per_kn),
            ("kerb_rumble_nm", &mut self.kerb_rumble_nm),
            ("scrub_nm", &mut self.scrub_nm),
            ("lockup_nm", &mut self.lockup_nm),
            ("wheelspin_nm", &mut self.wheelspin_nm),
            ("abs_nm", &mut self.abs_nm),
            ("lateral_g_nm_per_g", &mut self.lateral_g_nm_per_g),
        ]
    }
}

impl Validate for FfbEffectSettings {
    fn validate(&self, v: &mut Validator) {
        let mut copy = *self;
        for (name, value) in copy.amplitudes_mut() {
            v.in_range(name, *value, 0.0, MAX_EFFECT_NM);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_kerb_rumble_is_on_by_default_and_ranges_checked() {
        let d = FfbEffectSettings::default();
        assert!(d.check().is_ok());
        let mut copy = d;
        for (name, value) in copy.amplitudes_mut() {
            let expected = if name == "kerb_rumble_nm" {
                DEFAULT_KERB_RUMBLE_NM
            } else {
                0.0
            };
            assert!((*value - expected).abs() < 1e-12, "{name}");
        }
        assert!(!d.auto_gain);
        let bad = FfbEffectSettings {
            kerb_rumble_nm: 50.0,
            abs_nm: f64::NAN,
            ..d
        };
        let err = bad.check().unwrap_err().to_string();
        assert!(
            err.contains("kerb_rumble_nm") && err.contains("abs_nm"),
            "{err}"
        );
        let parsed: FfbEffectSettings = ron::from_str("(scrub_nm: 1.5)").unwrap();
        assert!((parsed.scrub_nm - 1.5).abs() < 1e-12);
        assert!((parsed.kerb_rumble_nm - DEFAULT_KERB_RUMBLE_NM).abs() < 1e-12);
    }
}

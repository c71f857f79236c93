//! What a car sounds like: the engine's cylinders and firing pattern, and the character of
//! its exhaust, intake and gearbox: the vehicle file's `sound` section, read beside the
//! physics parameters ([`crate::vehicle_file::VehicleFile`]) for the `audio` crate.
//!
//! A four-stroke engine fires each cylinder once per 720° of crank rotation, so it fires
//! `rpm / 60 * cylinders / 2` times a second. `firing_angles_deg` places each firing within
//! that cycle; left empty, the firings are evenly spaced (every V8 with a single merged
//! exhaust, every inline four). An uneven pattern (a big-bang four, a 90° V-twin) lists its
//! angles.

use serde::{Deserialize, Serialize};

use gripline_physics::validate::{Validate, Validator};

/// The most cylinders a sound can have.
pub const MAX_CYLINDERS: usize = 16;

/// A car's sound (see the module docs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SoundParams {
    /// Number of cylinders (1 to [`MAX_CYLINDERS`]).
    pub cylinders: u32,
    /// Crank angle of each firing within the 720° cycle (degrees, one per cylinder, in
    /// firing order); empty for even firing.
    pub firing_angles_deg: Vec<f64>,
    /// Cycle-to-cycle variation of the combustion pulses (0 to 1): a lumpy camshaft's lope.
    pub pulse_variation: f64,
    /// Main resonance of the exhaust (Hz): the note's body.
    pub exhaust_resonance_hz: f64,
    /// Share of the exhaust's upper harmonics, the rasp (0 to 1).
    pub exhaust_brightness: f64,
    /// Level of the intake roar at full throttle (0 to 1).
    pub intake_level: f64,
    /// Teeth of the gear whose mesh is heard, on the gearbox output shaft.
    pub gear_whine_teeth: u32,
    /// Level of the gear whine (0 to 1): straight-cut gears whine loudly, helical ones barely.
    pub gear_whine_level: f64,
}

impl Default for SoundParams {
    /// An inline four with a modest exhaust and helical gears.
    fn default() -> Self {
        Self {
            cylinders: 4,
            firing_angles_deg: Vec::new(),
            pulse_variation: 0.05,
            exhaust_resonance_hz: 180.0,
            exhaust_brightness: 0.5,
            intake_level: 0.4,
            gear_whine_teeth: 23,
            gear_whine_level: 0.2,
        }
    }
}

impl SoundParams {
    /// The crank angle of each firing (degrees in 0..720, one per cylinder): the file's
    /// pattern or even spacing.
    pub fn firing_angles(&self) -> Vec<f64> {
        if self.firing_angles_deg.is_empty() {
            let n = self.cylinders.max(1);
            (0..n)
                .map(|k| 720.0 * f64::from(k) / f64::from(n))
                .collect()
        } else {
            self.firing_angles_deg.clone()
        }
    }
}

impl Validate for SoundParams {
    fn validate(&self, v: &mut Validator) {
        v.require(
            usize::try_from(self.cylinders).is_ok_and(|n| (1..=MAX_CYLINDERS).contains(&n)),
            "cylinders",
            "must be 1 to 16",
        );
        if !self.firing_angles_deg.is_empty() {
            v.require(
                self.firing_angles_deg.len() == self.cylinders as usize,
                "firing_angles_deg",
                "must list one angle per cylinder (or be empty for even firing)",
            );
            for (i, angle) in self.firing_angles_deg.iter().enumerate() {
                v.in_range(&format!("firing_angles_deg[{i}]"), *angle, 0.0, 720.0);
            }
        }
        v.in_range("pulse_variation", self.pulse_variation, 0.0, 1.0);
        v.in_range(
            "exhaust_resonance_hz",
            self.exhaust_resonance_hz,
            40.0,
            2000.0,
        );
        v.in_range("exhaust_brightness", self.exhaust_brightness, 0.0, 1.0);
        v.in_range("intake_level", self.intake_level, 0.0, 1.0);
        v.require(
            (5..=80).contains(&self.gear_whine_teeth),
            "gear_whine_teeth",
            "must be 5 to 80",
        );
        v.in_range("gear_whine_level", self.gear_whine_level, 0.0, 1.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn violations(p: &SoundParams) -> Vec<String> {
        let mut v = Validator::with_root("sound");
        p.validate(&mut v);
        v.finish().map_or_else(
            |e| e.0.iter().map(ToString::to_string).collect(),
            |()| Vec::new(),
        )
    }

    #[test]
    fn even_firing_spaces_the_cylinders_over_two_turns() {
        let v8 = SoundParams {
            cylinders: 8,
            ..SoundParams::default()
        };
        assert_eq!(
            v8.firing_angles(),
            vec![0.0, 90.0, 180.0, 270.0, 360.0, 450.0, 540.0, 630.0]
        );
        assert!(violations(&v8).is_empty());
    }

    #[test]
    fn bad_values_are_named() {
        let p = SoundParams {
            cylinders: 0,
            firing_angles_deg: vec![0.0, 800.0],
            exhaust_resonance_hz: f64::NAN,
            ..SoundParams::default()
        };
        let text = violations(&p).join("\n");
        assert!(text.contains("sound.cylinders"), "{text}");
        assert!(text.contains("sound.firing_angles_deg"), "{text}");
        assert!(text.contains("sound.firing_angles_deg[1]"), "{text}");
        assert!(text.contains("sound.exhaust_resonance_hz"), "{text}");
    }
}

//! Scenario files: a named test procedure for the headless runner, on a track, with its
//! parameters. Each procedure reports named metrics (see the headless runner).
//!
//! ```ron
//! (
//!     name: "Standing start",
//!     description: "0-60 mph, 0-100 km/h and the quarter mile, best-effort shifts",
//!     track: "proving-ground",
//!     test: Launch(()),
//! )
//! ```
//!
//! `track` names a file in `assets/tracks/`, or `flat` for an endless flat asphalt plane
//! (top speed and coast-down need more road than any straight).

use std::path::Path;

use gripline_physics::controls::Controls;
use gripline_physics::validate::{Validate, Validator};
use serde::{Deserialize, Serialize};

use crate::error::ConfigError;
use crate::ron_text;

/// The longest run a scenario or `--duration` may ask for (s of simulated time): 24 hours,
/// a day's endurance race.
pub const MAX_SCENARIO_DURATION_S: f64 = 86_400.0;

/// Checks a run length `seconds` (s): above zero and at most [`MAX_SCENARIO_DURATION_S`].
///
/// # Errors
/// A message naming the duration.
pub fn check_duration_s(seconds: f64) -> Result<f64, String> {
    if seconds.is_finite() && seconds > 0.0 && seconds <= MAX_SCENARIO_DURATION_S {
        Ok(seconds)
    } else {
        let shown = if seconds.abs() >= 1e6 {
            format!("{seconds:e}")
        } else {
            format!("{seconds}")
        };
        Err(format!(
            "{shown} s is not a run length: it must be above 0 and at most \
             {MAX_SCENARIO_DURATION_S} s (24 h)"
        ))
    }
}

/// [`check_duration_s`] of the field `name` into `v`.
fn duration_field(v: &mut Validator, name: &str, seconds: f64) {
    if let Err(message) = check_duration_s(seconds) {
        v.fail(name, message);
    }
}

/// The content of a scenario file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    /// Human-readable name.
    pub name: String,
    /// What the scenario measures and how.
    #[serde(default)]
    pub description: String,
    /// Track it runs on: a name in `assets/tracks/`, or `flat`.
    pub track: String,
    /// The procedure.
    pub test: ScenarioTest,
}

/// The test procedures the headless runner knows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ScenarioTest {
    /// Standing start at full throttle with best-effort shifts near the redline:
    /// `t_0_60mph_s`, `t_0_100kmh_s`, `quarter_mile_s`, `quarter_mile_speed_kmh`.
    Launch(LaunchTest),
    /// Full braking from a speed, with ABS and again without: `stop_distance_60_0mph_m`,
    /// `stop_distance_60_0mph_no_abs_m`.
    Braking(BrakingTest),
    /// Full throttle until the speed settles: `top_speed_kmh`.
    TopSpeed(TopSpeedTest),
    /// Steady state on a circle at a slowly rising speed: `skidpad_max_lat_g`.
    Skidpad(SkidpadTest),
    /// ISO 3888-1 double lane change at a set speed: `passed`, `peak_yaw_rate_deg_s`,
    /// `cones_hit`.
    LaneChange(LaneChangeTest),
    /// Step steer at a set speed (ISO 7401): `yaw_rate_response_time_s`,
    /// `yaw_rate_overshoot_pct`, `steady_yaw_rate_deg_s`, `steady_lat_g`.
    StepSteer(StepSteerTest),
    /// Coast-down in neutral: `coast_a_n`, `coast_b_n_per_ms`, `coast_c_n_per_m2s2`.
    Coastdown(CoastdownTest),
    /// The driver model laps the track: `laps_completed`, `best_lap_s`, `simulated_s`.
    Laps(LapsTest),
    /// Scripted per-tick inputs from keyframes, from the track's straight start:
    /// `distance_m`, `final_speed_kmh`, `max_lat_g`, `max_yaw_rate_deg_s`.
    Script(ScriptTest),
}

/// One keyframe of a [`ScriptTest`]: these controls from `t_s` until the next keyframe.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Keyframe {
    /// Time from the start of the script (s).
    pub t_s: f64,
    /// The controls held from then on.
    pub controls: Controls,
}

/// Parameters of [`ScenarioTest::Script`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptTest {
    /// Speed at the start (km/h), straight ahead.
    #[serde(default)]
    pub start_speed_kmh: f64,
    /// Length of the run (s).
    pub duration_s: f64,
    /// Inputs, in time order; the controls before the first keyframe are all released.
    pub keyframes: Vec<Keyframe>,
}

/// Parameters of [`ScenarioTest::Launch`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LaunchTest {
    /// Longest run (s).
    pub max_duration_s: f64,
}

impl Default for LaunchTest {
    fn default() -> Self {
        Self {
            max_duration_s: 30.0,
        }
    }
}

/// Parameters of [`ScenarioTest::Braking`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BrakingTest {
    /// Speed at which the brakes are applied (km/h); 60 mph by default.
    pub speed_kmh: f64,
}

impl Default for BrakingTest {
    fn default() -> Self {
        Self {
            speed_kmh: 96.560_64,
        }
    }
}

/// Parameters of [`ScenarioTest::TopSpeed`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TopSpeedTest {
    /// Longest run (s).
    pub max_duration_s: f64,
    /// The speed counts as settled when it changes less than this over 5 s (km/h).
    pub settle_kmh: f64,
}

impl Default for TopSpeedTest {
    fn default() -> Self {
        Self {
            max_duration_s: 240.0,
            settle_kmh: 0.2,
        }
    }
}

/// Parameters of [`ScenarioTest::Skidpad`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SkidpadTest {
    /// Track reference of the circle (a `Circle` reference).
    pub circle: String,
    /// Speed at the start (km/h).
    pub start_speed_kmh: f64,
    /// Speed increase (km/h per s).
    pub ramp_kmh_per_s: f64,
    /// Largest distance from the circle (m) still counted as on it.
    pub max_offset_m: f64,
}

impl Default for SkidpadTest {
    fn default() -> Self {
        Self {
            circle: "skidpad".into(),
            start_speed_kmh: 40.0,
            ramp_kmh_per_s: 0.5,
            max_offset_m: 2.0,
        }
    }
}

/// Parameters of [`ScenarioTest::LaneChange`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LaneChangeTest {
    /// Track reference of the course (a `LaneChange` reference).
    pub course: String,
    /// Entry speed (km/h), held with the throttle released through the course as ISO 3888-1
    /// asks.
    pub speed_kmh: f64,
}

impl Default for LaneChangeTest {
    fn default() -> Self {
        Self {
            course: "iso-3888-1".into(),
            speed_kmh: 80.0,
        }
    }
}

/// Parameters of [`ScenarioTest::StepSteer`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StepSteerTest {
    /// Speed (km/h).
    pub speed_kmh: f64,
    /// Steering-wheel angle of the step (deg, positive left).
    pub steering_wheel_deg: f64,
    /// Time the steering takes to reach the step (s); ISO 7401 asks for 0.15 s or less.
    pub ramp_s: f64,
}

impl Default for StepSteerTest {
    fn default() -> Self {
        Self {
            speed_kmh: 80.0,
            steering_wheel_deg: 45.0,
            ramp_s: 0.1,
        }
    }
}

/// Parameters of [`ScenarioTest::Coastdown`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CoastdownTest {
    /// Speed at which the car is put in neutral (km/h).
    pub start_speed_kmh: f64,
    /// Speed at which the run ends (km/h).
    pub end_speed_kmh: f64,
}

impl Default for CoastdownTest {
    fn default() -> Self {
        Self {
            start_speed_kmh: 130.0,
            end_speed_kmh: 15.0,
        }
    }
}

/// Parameters of [`ScenarioTest::Laps`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LapsTest {
    /// Lateral acceleration the driver plans for (g).
    pub lateral_g: f64,
    /// Braking deceleration the driver plans for (g).
    pub braking_g: f64,
    /// Simulated time when no `--duration` is given (s).
    pub default_duration_s: f64,
}

impl Default for LapsTest {
    fn default() -> Self {
        Self {
            lateral_g: 0.7,
            braking_g: 0.7,
            default_duration_s: 300.0,
        }
    }
}

impl Validate for ScenarioTest {
    fn validate(&self, v: &mut Validator) {
        match self {
            ScenarioTest::Launch(t) => {
                v.within("Launch", |v| {
                    duration_field(v, "max_duration_s", t.max_duration_s);
                });
            }
            ScenarioTest::Braking(t) => {
                v.within("Braking", |v| v.positive("speed_kmh", t.speed_kmh));
            }
            ScenarioTest::TopSpeed(t) => v.within("TopSpeed", |v| {
                duration_field(v, "max_duration_s", t.max_duration_s);
                v.positive("settle_kmh", t.settle_kmh);
            }),
            ScenarioTest::Skidpad(t) => v.within("Skidpad", |v| {
                v.require(
                    !t.circle.is_empty(),
                    "circle",
                    "must name a track reference",
                );
                v.positive("start_speed_kmh", t.start_speed_kmh);
                v.positive("ramp_kmh_per_s", t.ramp_kmh_per_s);
                v.positive("max_offset_m", t.max_offset_m);
            }),
            ScenarioTest::LaneChange(t) => v.within("LaneChange", |v| {
                v.require(
                    !t.course.is_empty(),
                    "course",
                    "must name a track reference",
                );
                v.positive("speed_kmh", t.speed_kmh);
            }),
            ScenarioTest::StepSteer(t) => v.within("StepSteer", |v| {
                v.positive("speed_kmh", t.speed_kmh);
                v.in_range("steering_wheel_deg", t.steering_wheel_deg, -720.0, 720.0);
                v.non_negative("ramp_s", t.ramp_s);
            }),
            ScenarioTest::Coastdown(t) => v.within("Coastdown", |v| {
                v.positive("start_speed_kmh", t.start_speed_kmh);
                v.positive("end_speed_kmh", t.end_speed_kmh);
                v.require(
                    t.end_speed_kmh < t.start_speed_kmh,
                    "end_speed_kmh",
                    "must be below start_speed_kmh",
                );
            }),
            ScenarioTest::Script(t) => v.within("Script", |v| {
                v.non_negative("start_speed_kmh", t.start_speed_kmh);
                duration_field(v, "duration_s", t.duration_s);
                v.within("keyframes", |v| {
                    let mut last = f64::NEG_INFINITY;
                    for (i, k) in t.keyframes.iter().enumerate() {
                        v.within(&Validator::index(i), |v| {
                            v.require(
                                k.t_s.is_finite() && k.t_s >= 0.0 && k.t_s >= last,
                                "t_s",
                                "must be a time at or after the previous keyframe",
                            );
                            v.require(
                                k.t_s.is_nan() || k.t_s <= t.duration_s,
                                "t_s",
                                "must lie within duration_s (a later keyframe never acts)",
                            );
                        });
                        last = k.t_s;
                    }
                });
            }),
            ScenarioTest::Laps(t) => v.within("Laps", |v| {
                v.in_range("lateral_g", t.lateral_g, 0.05, 3.0);
                v.in_range("braking_g", t.braking_g, 0.05, 3.0);
                duration_field(v, "default_duration_s", t.default_duration_s);
            }),
        }
    }
}

/// Parses and validates the text of a scenario file.
///
/// # Errors
/// [`ConfigError::Syntax`] with line and column, or [`ConfigError::Invalid`] with field paths.
pub fn parse_scenario_ron(text: &str, path: &Path) -> Result<ScenarioFile, ConfigError> {
    let file: ScenarioFile = ron_text::parse(text, path)?;
    let mut v = Validator::with_root("");
    v.require(!file.name.trim().is_empty(), "name", "must not be empty");
    v.require(!file.track.trim().is_empty(), "track", "must name a track");
    v.nested("test", &file.test);
    v.finish().map_err(|violations| ConfigError::Invalid {
        path: path.to_owned(),
        violations,
    })?;
    Ok(file)
}

/// Reads, parses and validates a scenario file.
///
/// # Errors
/// Any [`ConfigError`], naming the file.
pub fn load_scenario(path: &Path) -> Result<ScenarioFile, ConfigError> {
    parse_scenario_ron(&ron_text::read(path)?, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_fill_missing_fields() {
        let s = parse_scenario_ron(
            "(name: \"x\", track: \"flat\", test: Skidpad((ramp_kmh_per_s: 1.0)))",
            Path::new("s.ron"),
        )
        .unwrap();
        let ScenarioTest::Skidpad(t) = s.test else {
            panic!("wrong test")
        };
        assert_eq!(t.circle, "skidpad");
        assert!((t.ramp_kmh_per_s - 1.0).abs() < 1e-12);
    }

    #[test]
    fn bad_values_have_paths() {
        let err = parse_scenario_ron(
            "(name: \"x\", track: \"\", test: Coastdown((start_speed_kmh: 10.0, end_speed_kmh: 20.0)))",
            Path::new("s.ron"),
        )
        .unwrap_err();
        let text = err.to_string();
        assert!(text.contains("track must name a track"), "{text}");
        assert!(
            text.contains("test.Coastdown.end_speed_kmh must be below start_speed_kmh"),
            "{text}"
        );
    }

    #[test]
    fn script_keyframes_must_be_in_time_order() {
        let text = "(name: \"s\", track: \"flat\", test: Script((duration_s: 2.0, keyframes: [\
                    (t_s: 1.0, controls: (throttle: 1.0)), (t_s: 0.5, controls: (brake: 1.0))])))";
        let err = parse_scenario_ron(text, Path::new("s.ron")).unwrap_err();
        assert!(
            err.to_string()
                .contains("test.Script.keyframes[1].t_s must be a time at or after"),
            "{err}"
        );
    }

    /// Found by mutating `scripted-brake-turn.ron`: a run of 1e308 s ran for ever. Every
    /// duration is now a run length of at most 24 h, and a keyframe lies within its script.
    #[test]
    fn durations_are_run_lengths_of_at_most_a_day() {
        let script = |duration: &str, t: &str| {
            format!(
                "(name: \"s\", track: \"flat\", test: Script((duration_s: {duration}, \
                 keyframes: [(t_s: {t}, controls: (throttle: 1.0))])))"
            )
        };
        for (duration, t, complaint) in [
            (
                "1e308",
                "1.0",
                "test.Script.duration_s 1e308 s is not a run length",
            ),
            (
                "0.0",
                "0.0",
                "test.Script.duration_s 0 s is not a run length",
            ),
            (
                "2.0",
                "3.0",
                "test.Script.keyframes[0].t_s must lie within duration_s",
            ),
        ] {
            let err = parse_scenario_ron(&script(duration, t), Path::new("s.ron")).unwrap_err();
            assert!(err.to_string().contains(complaint), "{err}");
        }
        assert!(parse_scenario_ron(&script("86400.0", "2.0"), Path::new("s.ron")).is_ok());
        let laps = "(name: \"l\", track: \"circuit\", test: Laps((default_duration_s: 1e9)))";
        let err = parse_scenario_ron(laps, Path::new("l.ron")).unwrap_err();
        assert!(err.to_string().contains("default_duration_s"), "{err}");
        assert!(check_duration_s(f64::NAN).is_err());
        assert_eq!(check_duration_s(5.0), Ok(5.0));
    }

    #[test]
    fn unknown_test_is_a_syntax_error_with_position() {
        let err = parse_scenario_ron(
            "(\n name: \"x\",\n track: \"flat\",\n test: Drift(()),\n)",
            Path::new("s.ron"),
        )
        .unwrap_err();
        assert!(err.to_string().starts_with("s.ron:4:"), "{err}");
    }
}

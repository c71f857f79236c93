//! Calibration of one analogue axis, as saved in the settings file.
//!
//! The maths lives in [`crate::calibration`]; this module holds the parameters and
//! checks them. The stages, in order: raw value -> position in the raw range (or around the
//! centre for a centred axis) -> invert -> dead zone at rest (or around the centre) and
//! saturation at the end of travel -> response curve -> anti-dead zone.

use gripline_physics::validate::{Validate, Validator};
use serde::{Deserialize, Serialize};

/// Most points a response curve may have (keeps the per-tick evaluation short).
pub const MAX_CURVE_POINTS: usize = 32;

/// Inclusive raw range of an axis, in the device's integer units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RawRange {
    /// Raw value at one end of travel.
    pub min: i32,
    /// Raw value at the other end; must be greater than `min`.
    pub max: i32,
}

/// One point of a piecewise-linear response curve, both coordinates in 0..=1.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CurvePoint {
    /// Input: travel after dead zone and saturation.
    pub x: f64,
    /// Output.
    pub y: f64,
}

/// How travel maps to output after the dead zones.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum ResponseCurve {
    /// Output equals travel (what a wheel and good pedals want).
    #[default]
    Linear,
    /// `output = travel ^ gamma`: above 1 gives finer control near rest, below 1 coarser.
    Gamma(f64),
    /// Piecewise-linear through the points; x strictly increasing from 0 to 1, y
    /// non-decreasing from 0 to 1.
    Points(Vec<CurvePoint>),
}

/// Calibration of one axis.
///
/// Pedals, clutch and handbrake use it as a one-sided axis (0 at rest to 1 fully pressed);
/// steering and combined pedals as a centred axis (-1..1 around `centre`). Fractions are of
/// the travel on one side.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AxisCalibration {
    /// Captured raw range; `None` uses the range the device reports.
    pub raw_range: Option<RawRange>,
    /// Raw value at the centre of a centred axis; `None` uses the middle of the range.
    pub centre: Option<i32>,
    /// Fraction of travel at rest (one-sided) or around the centre (centred) that reads 0.
    pub dead_zone: f64,
    /// Fraction of travel at the far end that already reads full output (end dead zone).
    pub saturation: f64,
    /// Output jump as soon as the axis leaves its dead zone, to overcome a dead zone
    /// further down the line (0 = off).
    pub anti_dead_zone: f64,
    /// Response curve.
    pub curve: ResponseCurve,
    /// Swap the ends: for pedals that rest at the maximum raw value (Logitech, Thrustmaster),
    /// or a steering axis that turns the wrong way.
    pub invert: bool,
    /// Raw value assumed until the device first reports this axis, for devices that only
    /// report changes; `None` reads the released (or centred) output until then.
    pub rest_raw: Option<i32>,
}

impl Default for AxisCalibration {
    fn default() -> Self {
        Self {
            raw_range: None,
            centre: None,
            dead_zone: 0.0,
            saturation: 0.0,
            anti_dead_zone: 0.0,
            curve: ResponseCurve::Linear,
            invert: false,
            rest_raw: None,
        }
    }
}

impl Validate for AxisCalibration {
    fn validate(&self, v: &mut Validator) {
        if let Some(range) = self.raw_range {
            v.require(
                range.max > range.min,
                "raw_range",
                "max must be greater than min",
            );
            if let Some(centre) = self.centre {
                v.require(
                    centre > range.min && centre < range.max,
                    "centre",
                    "must lie strictly inside raw_range",
                );
            }
        }
        v.in_range("dead_zone", self.dead_zone, 0.0, 0.5);
        v.in_range("saturation", self.saturation, 0.0, 0.5);
        if (0.0..=0.5).contains(&self.dead_zone) && (0.0..=0.5).contains(&self.saturation) {
            v.require(
                self.dead_zone + self.saturation < 0.95,
                "saturation",
                "plus dead_zone must leave at least 5 % of travel",
            );
        }
        v.in_range("anti_dead_zone", self.anti_dead_zone, 0.0, 0.9);
        v.within("curve", |v| validate_curve(&self.curve, v));
    }
}

fn validate_curve(curve: &ResponseCurve, v: &mut Validator) {
    match curve {
        ResponseCurve::Linear => {}
        ResponseCurve::Gamma(g) => v.in_range("Gamma", *g, 0.1, 10.0),
        ResponseCurve::Points(points) => v.within("Points", |v| {
            if points.len() < 2 || points.len() > MAX_CURVE_POINTS {
                v.fail(
                    "",
                    format!(
                        "must have 2 to {MAX_CURVE_POINTS} points (has {})",
                        points.len()
                    ),
                );
                return;
            }
            for (i, p) in points.iter().enumerate() {
                v.within(&Validator::index(i), |v| {
                    v.in_range("x", p.x, 0.0, 1.0);
                    v.in_range("y", p.y, 0.0, 1.0);
                    if i > 0 {
                        let prev = points[i - 1];
                        v.require(p.x > prev.x, "x", "must be greater than the previous x");
                        v.require(p.y >= prev.y, "y", "must not be less than the previous y");
                    }
                });
            }
            let first = points[0];
            let last = points[points.len() - 1];
            v.require(
                first.x == 0.0 && first.y == 0.0,
                "[0]",
                "must be (x: 0, y: 0)",
            );
            v.require(
                last.x >= 1.0 && last.y >= 1.0,
                &Validator::index(points.len() - 1),
                "must be (x: 1, y: 1)",
            );
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_valid_and_neutral() {
        let c = AxisCalibration::default();
        assert!(c.check().is_ok());
        assert_eq!(c.dead_zone.to_bits(), 0f64.to_bits());
        assert!(!c.invert);
    }

    #[test]
    fn bad_values_name_their_fields() {
        let c = AxisCalibration {
            raw_range: Some(RawRange { min: 10, max: 10 }),
            dead_zone: 0.5,
            saturation: 0.45,
            anti_dead_zone: -0.1,
            curve: ResponseCurve::Points(vec![
                CurvePoint { x: 0.0, y: 0.0 },
                CurvePoint { x: 0.5, y: 0.7 },
                CurvePoint { x: 0.4, y: 0.6 },
                CurvePoint { x: 1.0, y: 0.9 },
            ]),
            ..AxisCalibration::default()
        };
        let err = c.check().unwrap_err();
        let paths: Vec<_> = err.0.iter().map(|v| v.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "raw_range",
                "saturation",
                "anti_dead_zone",
                "curve.Points[2].x",
                "curve.Points[2].y",
                "curve.Points[3]",
            ],
            "{err}"
        );
    }

    #[test]
    fn gamma_range_checked() {
        let c = AxisCalibration {
            curve: ResponseCurve::Gamma(f64::NAN),
            ..AxisCalibration::default()
        };
        let err = c.check().unwrap_err();
        assert_eq!(err.0[0].path, "curve.Gamma");
    }
}

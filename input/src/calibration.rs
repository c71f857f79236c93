//! Calibration maths: a raw axis value to a control value, and raw-range capture.
//!
//! [`AxisMap`] is built once from an [`AxisCalibration`] (when bindings are applied) and then
//! evaluated every tick without allocating. Stages, in order:
//!
//! 1. position in the raw range: one-sided axes (pedals) `t = (raw - min) / (max - min)` in
//!    0..1; centred axes (steering, combined pedals) `s` in -1..1, with the two sides scaled
//!    separately so that `min`, `centre` and `max` map exactly to -1, 0 and 1;
//! 2. invert (`t -> 1 - t`, `s -> -s`);
//! 3. dead zone at rest (or around the centre) reads 0, saturation at the end of travel
//!    reads full, the travel between is stretched to 0..1;
//! 4. response curve (linear, gamma, or piecewise-linear points);
//! 5. anti-dead zone: outside the dead zone the output starts at `anti_dead_zone` instead
//!    of 0 (`out = a + (1 - a) * curve`).
//!
//! Guarantees (property-tested): the output is always in 0..=1 (one-sided) or -1..=1
//! (centred), is monotonic in the raw value (non-decreasing, or non-increasing when
//! inverted), hits its endpoints exactly, and a non-finite or out-of-range raw value never
//! panics (non-finite reads as rest, out-of-range clamps). Settings that failed validation
//! are made safe rather than trusted: a degenerate range reads 0.
//!
//! Steering: the calibrated value times half the physical rotation range is the steering
//! wheel angle ([`steering_wheel_rad`]): a 900° wheel turned 90° gives 90° (pi/2 rad) in the
//! car, and the car clamps to its own lock.

use crate::settings::axis_calibration::{AxisCalibration, RawRange, ResponseCurve};

use crate::device::AxisRange;

/// A calibrated axis, ready to evaluate.
#[derive(Clone, Debug, PartialEq)]
pub struct AxisMap {
    raw_range: Option<(f64, f64)>,
    centre: Option<f64>,
    centred: bool,
    invert: bool,
    dead_zone: f64,
    saturation: f64,
    anti_dead_zone: f64,
    curve: Curve,
    rest_raw: Option<f64>,
}

#[derive(Clone, Debug, PartialEq)]
enum Curve {
    Linear,
    Gamma(f64),
    Points(Vec<(f64, f64)>),
}

fn finite_or(x: f64, fallback: f64) -> f64 {
    if x.is_finite() { x } else { fallback }
}

impl AxisMap {
    /// Builds the map of `calibration`, for a centred axis (steering, combined pedals) or a
    /// one-sided one (pedals). Out-of-range parameters are clamped to their valid ranges.
    pub fn new(calibration: &AxisCalibration, centred: bool) -> Self {
        let dead_zone = finite_or(calibration.dead_zone, 0.0).clamp(0.0, 0.5);
        let saturation = finite_or(calibration.saturation, 0.0).clamp(0.0, 0.5);
        let saturation = saturation.min(0.95 - dead_zone).max(0.0);
        let curve = match &calibration.curve {
            ResponseCurve::Linear => Curve::Linear,
            ResponseCurve::Gamma(g) => Curve::Gamma(finite_or(*g, 1.0).clamp(0.1, 10.0)),
            ResponseCurve::Points(points) => {
                // Keep only a usable, monotonic polyline through (0,0) and (1,1).
                let mut kept: Vec<(f64, f64)> = vec![(0.0, 0.0)];
                for p in points {
                    let (x, y) = (finite_or(p.x, -1.0), finite_or(p.y, -1.0));
                    let (last_x, last_y) = kept[kept.len() - 1];
                    if x > last_x && x < 1.0 && y >= last_y && y <= 1.0 {
                        kept.push((x, y));
                    }
                }
                kept.push((1.0, 1.0));
                Curve::Points(kept)
            }
        };
        Self {
            raw_range: calibration
                .raw_range
                .map(|RawRange { min, max }| (f64::from(min), f64::from(max))),
            centre: calibration.centre.map(f64::from),
            centred,
            invert: calibration.invert,
            dead_zone,
            saturation,
            anti_dead_zone: finite_or(calibration.anti_dead_zone, 0.0).clamp(0.0, 0.9),
            curve,
            rest_raw: calibration.rest_raw.map(f64::from),
        }
    }

    /// Whether the axis is centred (-1..1) rather than one-sided (0..1).
    pub fn is_centred(&self) -> bool {
        self.centred
    }

    /// The control value of integer raw value `raw`; `device_range` is used when the
    /// calibration has no captured range.
    pub fn map_raw(&self, raw: i32, device_range: Option<AxisRange>) -> f64 {
        self.map(f64::from(raw), device_range)
    }

    /// The control value of raw value `raw` (fractional raw values from backends that
    /// report normalised floats are fine). Non-finite values read as rest (0).
    pub fn map(&self, raw: f64, device_range: Option<AxisRange>) -> f64 {
        let Some((lo, hi)) = self.range(device_range) else {
            return 0.0;
        };
        if !raw.is_finite() {
            return 0.0;
        }
        let raw = raw.clamp(lo, hi);
        if self.centred {
            let mut c = self.centre.unwrap_or(0.5 * (lo + hi));
            if !(c > lo && c < hi) {
                c = 0.5 * (lo + hi);
            }
            let mut s = if raw >= c {
                (raw - c) / (hi - c)
            } else {
                -((c - raw) / (c - lo))
            };
            s = s.clamp(-1.0, 1.0);
            if self.invert {
                s = -s;
            }
            let shaped = self.shape(s.abs());
            if s < 0.0 { -shaped } else { shaped }
        } else {
            let mut t = ((raw - lo) / (hi - lo)).clamp(0.0, 1.0);
            if self.invert {
                t = 1.0 - t;
            }
            self.shape(t)
        }
    }

    /// The control value before the device has reported this axis: the mapped
    /// `rest_raw` when the calibration gives one, else 0 (released or centred).
    pub fn rest_output(&self, device_range: Option<AxisRange>) -> f64 {
        self.rest_raw.map_or(0.0, |raw| self.map(raw, device_range))
    }

    fn range(&self, device_range: Option<AxisRange>) -> Option<(f64, f64)> {
        let (lo, hi) = self.raw_range.or_else(|| {
            device_range.map(|AxisRange { min, max }| (f64::from(min), f64::from(max)))
        })?;
        (hi > lo).then_some((lo, hi))
    }

    /// Travel 0..1 after position and invert -> output 0..1.
    fn shape(&self, t: f64) -> f64 {
        if t <= self.dead_zone {
            return 0.0;
        }
        if t >= 1.0 - self.saturation {
            return 1.0;
        }
        let u = ((t - self.dead_zone) / (1.0 - self.dead_zone - self.saturation)).clamp(0.0, 1.0);
        let c = match &self.curve {
            Curve::Linear => u,
            Curve::Gamma(g) => u.powf(*g),
            Curve::Points(points) => piecewise(points, u),
        }
        .clamp(0.0, 1.0);
        (self.anti_dead_zone + (1.0 - self.anti_dead_zone) * c).min(1.0)
    }
}

fn piecewise(points: &[(f64, f64)], u: f64) -> f64 {
    for pair in points.windows(2) {
        let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
        if u <= x1 {
            let f = ((u - x0) / (x1 - x0)).clamp(0.0, 1.0);
            return y0 + f * (y1 - y0);
        }
    }
    1.0
}

/// The steering-wheel angle (rad, positive to the right as devices report it) of a
/// calibrated steering value `normalised` (-1..1) on a wheel with `rotation_deg` of rotation
/// lock to lock: one degree at the physical wheel is one degree in the car.
pub fn steering_wheel_rad(normalised: f64, rotation_deg: f64) -> f64 {
    let v = if normalised.is_finite() {
        normalised.clamp(-1.0, 1.0)
    } else {
        0.0
    };
    let half = if rotation_deg.is_finite() {
        0.5 * rotation_deg.clamp(0.0, 3600.0)
    } else {
        0.0
    };
    (v * half).to_radians()
}

/// Why a capture could not produce a calibration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CaptureError {
    /// No raw value was observed.
    #[error("the axis did not report any value; move it through its whole travel")]
    NoSamples,
    /// The observed travel is too small to be an intentional full movement.
    #[error(
        "the axis moved only {span} raw units (at least {needed} needed); move it through its whole travel"
    )]
    TooLittleTravel {
        /// Observed `max - min`.
        span: i64,
        /// Required span.
        needed: i64,
    },
    /// The marked centre is not strictly inside the observed range.
    #[error("the centre must lie inside the travel; hold the wheel straight and mark it again")]
    CentreOutside,
}

/// Captures an axis's raw range while the user moves it through its whole travel (the
/// "raw min/max capture" of the calibration screen), and optionally its centre.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RangeCapture {
    min: Option<i32>,
    max: Option<i32>,
    centre: Option<i32>,
}

impl RangeCapture {
    /// An empty capture.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records one raw value.
    pub fn observe(&mut self, raw: i32) {
        self.min = Some(self.min.map_or(raw, |m| m.min(raw)));
        self.max = Some(self.max.map_or(raw, |m| m.max(raw)));
    }

    /// Records `raw` as the centre (wheel held straight) and observes it.
    pub fn mark_centre(&mut self, raw: i32) {
        self.centre = Some(raw);
        self.observe(raw);
    }

    /// The observed range so far.
    pub fn range(&self) -> Option<RawRange> {
        Some(RawRange {
            min: self.min?,
            max: self.max?,
        })
    }

    /// `base` with the captured range (and centre, if marked) filled in.
    ///
    /// # Errors
    /// [`CaptureError`] when nothing was observed, the travel is below `min_span` raw units,
    /// or the centre is not inside the range.
    pub fn apply(
        &self,
        base: &AxisCalibration,
        min_span: u32,
    ) -> Result<AxisCalibration, CaptureError> {
        let range = self.range().ok_or(CaptureError::NoSamples)?;
        let span = i64::from(range.max) - i64::from(range.min);
        let needed = i64::from(min_span.max(1));
        if span < needed {
            return Err(CaptureError::TooLittleTravel { span, needed });
        }
        if let Some(c) = self.centre
            && !(c > range.min && c < range.max)
        {
            return Err(CaptureError::CentreOutside);
        }
        Ok(AxisCalibration {
            raw_range: Some(range),
            centre: self.centre.or(base.centre),
            ..base.clone()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::axis_calibration::CurvePoint;
    use proptest::prelude::*;

    const PEDAL: AxisRange = AxisRange::new(0, 255);
    const WHEEL: AxisRange = AxisRange::new(0, 65535);

    fn pedal(cal: &AxisCalibration) -> AxisMap {
        AxisMap::new(cal, false)
    }

    fn bits(x: f64) -> u64 {
        x.to_bits()
    }

    #[test]
    fn plain_pedal_is_linear_with_exact_ends() {
        let m = pedal(&AxisCalibration::default());
        assert_eq!(bits(m.map_raw(0, Some(PEDAL))), bits(0.0));
        assert_eq!(bits(m.map_raw(255, Some(PEDAL))), bits(1.0));
        assert!((m.map_raw(51, Some(PEDAL)) - 0.2).abs() < 1e-12);
    }

    #[test]
    fn inverted_pedal_rests_at_max() {
        // Logitech pedals read 0xFF at rest (docs/force-feedback-protocols.md, section 1.2).
        let m = pedal(&AxisCalibration {
            invert: true,
            ..AxisCalibration::default()
        });
        assert_eq!(bits(m.map_raw(255, Some(PEDAL))), bits(0.0));
        assert_eq!(bits(m.map_raw(0, Some(PEDAL))), bits(1.0));
    }

    #[test]
    fn dead_zone_saturation_and_anti_dead_zone() {
        let m = pedal(&AxisCalibration {
            raw_range: Some(RawRange { min: 0, max: 100 }),
            dead_zone: 0.1,
            saturation: 0.1,
            anti_dead_zone: 0.2,
            ..AxisCalibration::default()
        });
        assert_eq!(bits(m.map_raw(10, None)), bits(0.0), "inside the dead zone");
        assert_eq!(bits(m.map_raw(90, None)), bits(1.0), "saturated");
        // Half-way through the live travel: 0.2 + 0.8 * 0.5.
        assert!((m.map_raw(50, None) - 0.6).abs() < 1e-12);
        // Just outside the dead zone the output jumps to the anti-dead zone.
        assert!(m.map(10.001, None) >= 0.2);
    }

    #[test]
    fn gamma_and_points() {
        let g = pedal(&AxisCalibration {
            raw_range: Some(RawRange { min: 0, max: 100 }),
            curve: ResponseCurve::Gamma(2.0),
            ..AxisCalibration::default()
        });
        assert!((g.map_raw(50, None) - 0.25).abs() < 1e-12);
        let p = pedal(&AxisCalibration {
            raw_range: Some(RawRange { min: 0, max: 100 }),
            curve: ResponseCurve::Points(vec![
                CurvePoint { x: 0.0, y: 0.0 },
                CurvePoint { x: 0.5, y: 0.2 },
                CurvePoint { x: 1.0, y: 1.0 },
            ]),
            ..AxisCalibration::default()
        });
        assert!((p.map_raw(25, None) - 0.1).abs() < 1e-12);
        assert!((p.map_raw(75, None) - 0.6).abs() < 1e-12);
    }

    #[test]
    fn centred_axis_uses_both_sides_and_centre() {
        let m = AxisMap::new(
            &AxisCalibration {
                raw_range: Some(RawRange { min: 0, max: 1000 }),
                centre: Some(400),
                ..AxisCalibration::default()
            },
            true,
        );
        assert_eq!(bits(m.map_raw(0, None)), bits(-1.0));
        assert_eq!(bits(m.map_raw(400, None)), bits(0.0));
        assert_eq!(bits(m.map_raw(1000, None)), bits(1.0));
        assert!((m.map_raw(200, None) + 0.5).abs() < 1e-12);
        assert!((m.map_raw(700, None) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn nine_hundred_degree_wheel_turned_ninety_degrees() {
        // Raw 0..65535 over 900°: 90° to the right is 1/5 of the right half.
        let m = AxisMap::new(&AxisCalibration::default(), true);
        let half = 65535.0 / 2.0;
        let raw = half + half * 90.0 / 450.0;
        let rad = steering_wheel_rad(m.map(raw, Some(WHEEL)), 900.0);
        assert!((rad - std::f64::consts::FRAC_PI_2).abs() < 1e-12, "{rad}");
        let full = steering_wheel_rad(m.map_raw(0, Some(WHEEL)), 900.0);
        assert!((full + 450f64.to_radians()).abs() < 1e-12);
    }

    #[test]
    fn rest_value_for_devices_that_report_only_changes() {
        let m = pedal(&AxisCalibration {
            invert: true,
            rest_raw: Some(255),
            ..AxisCalibration::default()
        });
        assert_eq!(bits(m.rest_output(Some(PEDAL))), bits(0.0));
        let plain = pedal(&AxisCalibration::default());
        assert_eq!(bits(plain.rest_output(Some(PEDAL))), bits(0.0));
    }

    #[test]
    fn degenerate_settings_do_not_panic() {
        let m = pedal(&AxisCalibration {
            raw_range: Some(RawRange { min: 5, max: 5 }),
            dead_zone: f64::NAN,
            curve: ResponseCurve::Gamma(f64::INFINITY),
            ..AxisCalibration::default()
        });
        assert_eq!(bits(m.map_raw(5, None)), bits(0.0));
        let c = AxisMap::new(
            &AxisCalibration {
                centre: Some(20),
                ..AxisCalibration::default()
            },
            true,
        );
        assert_eq!(bits(c.map_raw(0, Some(AxisRange::new(-10, 10)))), bits(0.0));
        assert_eq!(bits(c.map(f64::NAN, Some(WHEEL))), bits(0.0));
    }

    #[test]
    fn capture_fills_range_and_centre() {
        let mut cap = RangeCapture::new();
        assert_eq!(
            cap.apply(&AxisCalibration::default(), 10),
            Err(CaptureError::NoSamples)
        );
        for raw in [500, 20, 980, 300] {
            cap.observe(raw);
        }
        cap.mark_centre(510);
        let cal = cap.apply(&AxisCalibration::default(), 100).unwrap();
        assert_eq!(cal.raw_range, Some(RawRange { min: 20, max: 980 }));
        assert_eq!(cal.centre, Some(510));
        let mut small = RangeCapture::new();
        small.observe(10);
        small.observe(15);
        assert_eq!(
            small.apply(&AxisCalibration::default(), 100),
            Err(CaptureError::TooLittleTravel {
                span: 5,
                needed: 100
            })
        );
    }

    fn calibration() -> impl Strategy<Value = (AxisCalibration, bool)> {
        (
            0.0..0.45f64,
            0.0..0.45f64,
            0.0..0.9f64,
            prop_oneof![
                Just(ResponseCurve::Linear),
                (0.1..10.0f64).prop_map(ResponseCurve::Gamma),
                (0.01..0.99f64, 0.0..1.0f64).prop_map(|(x, y)| ResponseCurve::Points(vec![
                    CurvePoint { x: 0.0, y: 0.0 },
                    CurvePoint { x, y },
                    CurvePoint { x: 1.0, y: 1.0 },
                ])),
            ],
            any::<bool>(),
            (-1000i32..1000, 1i32..5000),
            -0.4..0.4f64,
            any::<bool>(),
        )
            .prop_map(|(dz, sat, adz, curve, invert, (min, span), c, centred)| {
                let max = min + span;
                let centre = f64::from(min) + (0.5 + c) * f64::from(span);
                #[allow(clippy::cast_possible_truncation)]
                let centre = centre.round() as i32;
                let centre = (centre > min && centre < max).then_some(centre);
                (
                    AxisCalibration {
                        raw_range: Some(RawRange { min, max }),
                        centre,
                        dead_zone: dz,
                        saturation: sat.min(0.9 - dz),
                        anti_dead_zone: adz,
                        curve,
                        invert,
                        rest_raw: None,
                    },
                    centred,
                )
            })
    }

    proptest! {
        #[test]
        fn monotonic_in_range_with_exact_ends((cal, centred) in calibration(), a in -2000i32..7000, b in -2000i32..7000) {
            let m = AxisMap::new(&cal, centred);
            let (lo, hi) = (f64::from(a.min(b)), f64::from(a.max(b)));
            let (ya, yb) = (m.map(lo, None), m.map(hi, None));
            let bound = if centred { -1.0 } else { 0.0 };
            prop_assert!(ya >= bound && ya <= 1.0 && yb >= bound && yb <= 1.0);
            if cal.invert {
                prop_assert!(ya >= yb, "not non-increasing: {ya} {yb}");
            } else {
                prop_assert!(ya <= yb, "not non-decreasing: {ya} {yb}");
            }
            let range = cal.raw_range.unwrap();
            let (at_min, at_max) = (m.map_raw(range.min, None), m.map_raw(range.max, None));
            let (low_end, high_end) = if cal.invert { (1.0, bound) } else { (bound, 1.0) };
            prop_assert_eq!(at_min.to_bits(), low_end.to_bits());
            prop_assert_eq!(at_max.to_bits(), high_end.to_bits());
        }

        #[test]
        fn any_raw_and_any_settings_never_panic(
            raw in prop_oneof![any::<f64>(), Just(f64::NAN), Just(f64::INFINITY), Just(f64::NEG_INFINITY)],
            dz in any::<f64>(), sat in any::<f64>(), adz in any::<f64>(), g in any::<f64>(),
            min in any::<i32>(), max in any::<i32>(), centre in any::<Option<i32>>(), centred in any::<bool>(),
        ) {
            let cal = AxisCalibration {
                raw_range: Some(RawRange { min, max }),
                centre,
                dead_zone: dz,
                saturation: sat,
                anti_dead_zone: adz,
                curve: ResponseCurve::Gamma(g),
                ..AxisCalibration::default()
            };
            let m = AxisMap::new(&cal, centred);
            let y = m.map(raw, None);
            prop_assert!(y.is_finite() && (-1.0..=1.0).contains(&y));
        }
    }
}

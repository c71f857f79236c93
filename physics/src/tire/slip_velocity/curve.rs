//! The friction curves of Vehicle Physics Pro (`docs/sources.md`): friction coefficient as a
//! function of the slip velocity.

use serde::{Deserialize, Serialize};

use crate::validate::{Validate, Validator};

/// Slip velocities above this (m/s) are evaluated as this value: every curve is constant (or
/// converged to its asymptote to far below `f64` resolution) long before, and the clamp keeps the
/// Pacejka expression free of `inf - inf`.
const MAX_SLIP_VELOCITY: f64 = 1.0e12;

/// Newton iterations allowed when inverting the Pacejka argument; the iteration is monotonic and
/// usually converges to machine precision within six.
const NEWTON_ITERATIONS: usize = 64;

/// One characteristic point of a friction curve.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CurvePoint {
    /// Slip velocity of the point (m/s): speed of the tread relative to the road in the contact
    /// patch.
    pub slip_velocity_m_s: f64,
    /// Friction coefficient at the point (-).
    pub friction: f64,
}

impl CurvePoint {
    /// A point at `slip_velocity_m_s` (m/s) with friction coefficient `friction`.
    pub const fn new(slip_velocity_m_s: f64, friction: f64) -> Self {
        Self {
            slip_velocity_m_s,
            friction,
        }
    }
}

impl Validate for CurvePoint {
    fn validate(&self, v: &mut Validator) {
        v.positive("slip_velocity_m_s", self.slip_velocity_m_s);
        v.non_negative("friction", self.friction);
    }
}

/// A friction curve by slip velocity, one of Vehicle Physics Pro's five shapes.
///
/// Every shape except `Pacejka` is drawn through three points (`Flat` through one):
///
/// - **adherent** `(s_a, mu_a)`: the friction the tyre holds while adhering, i.e. at rest under
///   brakes and at slip velocities up to `s_a`; the curve is `mu_a` on `[0, s_a]`;
/// - **peak** `(s_p, mu_p)`: the greatest friction, reached at `s_p` only;
/// - **limit** `(s_l, mu_l)`: the friction of full sliding, reached at `s_l` and held beyond.
///
/// Between the points each shape draws one segment from adherent to peak (rising) and one from
/// peak to limit (falling). Vehicle Physics Pro names the shapes and their parameters but gives no
/// formulas; the segments here are cubic Hermite curves in the normalised segment coordinate `t` in
/// `[0, 1]`,
///
/// ```text
/// h(t) = (m0 + m1 - 2) t^3 + (3 - 2 m0 - m1) t^2 + m0 t,     mu = mu0 + (mu1 - mu0) h(t)
/// ```
///
/// whose end slopes `m0`, `m1` are measured against the straight chord: 0 = flat (a smooth,
/// horizontal tangent), 1 = the chord's slope (a sharp corner). For `m0, m1` in `[0, 1]`, `h`
/// is monotonic, so a segment never overshoots its end points.
///
/// - `Linear`: all four slopes 1, i.e. straight lines between the points.
/// - `Smooth`: all four slopes 0, the smoothstep `3t^2 - 2t^3`: the curve leaves the adherent
///   level, crosses the peak and lands on the limit level with horizontal tangents.
/// - `Parametric`: the four slopes are the source's sharpness ratios `a` (leaving the adherent
///   point), `b` (arriving at the peak), `c` (leaving the peak) and `d` (arriving at the limit),
///   each from 0 (smooth) to 1 (sharp), so it spans `Smooth` (all 0) to `Linear` (all 1).
/// - `Flat`: the peak friction at every slip velocity; its adherent region (see below) ends at
///   the peak's slip velocity.
/// - `Pacejka`: the source's simplified Pacejka curve in the slip velocity `s` (m/s),
///   `P(s) = D sin(C atan(B s - E (B s - atan(B s))))`, floored by the adherent friction `A` on
///   its rising flank: the curve is `A` for `s < s_A`, where `P(s_A) = A`, and `P(s)` beyond.
///   `B` (s/m) sets where the peak `D` is reached; the limit is `D sin(C pi/2)`.
///
/// The **force coefficient** [`FrictionCurve::force_coefficient`] that the tyre model multiplies
/// by the load is the curve itself above the adherent slip velocity, and a straight line from 0
/// to the adherent friction below it (see [`super::SlipVelocityTire`] for why).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum FrictionCurve {
    /// Constant friction: the peak friction at every slip velocity.
    Flat {
        /// Friction of the whole curve; its slip velocity ends the adherent region.
        peak: CurvePoint,
    },
    /// Straight lines from the adherent to the peak to the limit point.
    Linear {
        /// End of the adherent region and the friction held there.
        adherent: CurvePoint,
        /// Greatest friction and where it is reached.
        peak: CurvePoint,
        /// Sliding friction and from where it holds.
        limit: CurvePoint,
    },
    /// Smoothstep segments: horizontal tangents at all three points.
    Smooth {
        /// End of the adherent region and the friction held there.
        adherent: CurvePoint,
        /// Greatest friction and where it is reached.
        peak: CurvePoint,
        /// Sliding friction and from where it holds.
        limit: CurvePoint,
    },
    /// Hermite segments whose end tangents are set by four sharpness ratios.
    Parametric {
        /// End of the adherent region and the friction held there.
        adherent: CurvePoint,
        /// Greatest friction and where it is reached.
        peak: CurvePoint,
        /// Sliding friction and from where it holds.
        limit: CurvePoint,
        /// Sharpness of the rise as it leaves the adherent point (0 smooth, 1 sharp).
        a: f64,
        /// Sharpness of the rise as it arrives at the peak (0 smooth, 1 sharp).
        b: f64,
        /// Sharpness of the fall as it leaves the peak (0 smooth, 1 sharp).
        c: f64,
        /// Sharpness of the fall as it arrives at the limit point (0 smooth, 1 sharp).
        d: f64,
    },
    /// Simplified Pacejka curve in the slip velocity, floored by the adherent friction.
    Pacejka {
        /// `A`: adherent friction coefficient (-), below `d_peak`.
        a_adherent: f64,
        /// `B`: stiffness (s/m); larger values reach the peak at a smaller slip velocity.
        b_stiffness_s_per_m: f64,
        /// `C`: shape factor (-), between 1 and 2; the limit friction is `D sin(C pi/2)`.
        c_shape: f64,
        /// `D`: peak friction coefficient (-).
        d_peak: f64,
        /// `E`: curvature factor (-), below 1; more negative values sharpen the peak.
        e_curvature: f64,
    },
}

impl Default for FrictionCurve {
    /// Vehicle Physics Pro's default curve, `Smooth` (its default shape): 0.95 up to 0.5 m/s,
    /// rising to 1.1 at 1.5 m/s, falling to 0.8 at 4 m/s and constant beyond.
    ///
    /// The source's prose puts the limit at 4 m/s while its scripting reference initialises it at
    /// 6 m/s; the prose, which describes the curve, is followed.
    fn default() -> Self {
        FrictionCurve::Smooth {
            adherent: CurvePoint::new(0.5, 0.95),
            peak: CurvePoint::new(1.5, 1.1),
            limit: CurvePoint::new(4.0, 0.8),
        }
    }
}

/// Cubic Hermite from 0 to 1 on `t` in `[0, 1]` with end slopes `m0`, `m1` relative to the chord.
#[inline]
fn hermite(t: f64, m0: f64, m1: f64) -> f64 {
    ((m0 + m1 - 2.0) * t + (3.0 - 2.0 * m0 - m1)) * t * t + m0 * t
}

/// Value on the segment from `p0` to `p1` at slip velocity `s` (with `p0.s <= s <= p1.s`).
#[inline]
fn segment(p0: CurvePoint, p1: CurvePoint, m0: f64, m1: f64, s: f64) -> f64 {
    let width = p1.slip_velocity_m_s - p0.slip_velocity_m_s;
    let t = if width > 0.0 {
        ((s - p0.slip_velocity_m_s) / width).clamp(0.0, 1.0)
    } else {
        1.0
    };
    p0.friction + (p1.friction - p0.friction) * hermite(t, m0, m1)
}

/// The three-point curve with sharpness `[a, b, c, d]`, at slip velocity `s >= 0`.
#[inline]
fn three_point(
    adherent: CurvePoint,
    peak: CurvePoint,
    limit: CurvePoint,
    [a, b, c, d]: [f64; 4],
    s: f64,
) -> f64 {
    if s <= adherent.slip_velocity_m_s {
        adherent.friction
    } else if s <= peak.slip_velocity_m_s {
        segment(adherent, peak, a, b, s)
    } else if s < limit.slip_velocity_m_s {
        segment(peak, limit, c, d, s)
    } else {
        limit.friction
    }
}

/// The Pacejka argument `g(u) = (1 - E) u + E atan(u)` with `u = B s`, written as in the source:
/// `B s - E (B s - atan(B s))`.
#[inline]
fn pacejka_argument(u: f64, e: f64) -> f64 {
    u - e * (u - u.atan())
}

/// Solves `g(u) = x` for `u >= 0` (`x >= 0`, `E < 1`).
///
/// `g` is increasing for `E < 1`, convex for `E <= 0` and concave for `0 <= E < 1`; Newton's
/// method started at `u = x` approaches the root monotonically in both cases (from the right
/// when convex since `g(x) >= x`, from the left when concave since `g(x) <= x`).
fn invert_pacejka_argument(x: f64, e: f64) -> f64 {
    if x.is_nan() || x <= 0.0 {
        return 0.0;
    }
    let mut u = x;
    for _ in 0..NEWTON_ITERATIONS {
        let slope = (1.0 - e) + e / (1.0 + u * u);
        if !slope.is_finite() || slope <= 0.0 {
            break;
        }
        let step = (pacejka_argument(u, e) - x) / slope;
        if !step.is_finite() {
            break;
        }
        u = (u - step).max(0.0);
        if step.abs() <= 1e-15 * u.max(1e-300) {
            break;
        }
    }
    u
}

impl FrictionCurve {
    /// The raw Pacejka expression `D sin(C atan(B s - E (B s - atan(B s))))`, or `None` for the
    /// other shapes.
    pub fn pacejka_value(&self, slip_velocity: f64) -> Option<f64> {
        match *self {
            FrictionCurve::Pacejka {
                b_stiffness_s_per_m: b,
                c_shape: c,
                d_peak: d,
                e_curvature: e,
                ..
            } => {
                let s = slip_velocity.abs().min(MAX_SLIP_VELOCITY);
                Some(d * (c * pacejka_argument(b * s, e).atan()).sin())
            }
            _ => None,
        }
    }

    /// Friction coefficient of the curve at slip velocity `slip_velocity` (m/s, sign ignored).
    ///
    /// In the adherent region this is the adherent friction, as the source states it; the force
    /// law uses [`FrictionCurve::force_coefficient`] instead.
    pub fn friction(&self, slip_velocity: f64) -> f64 {
        let s = if slip_velocity.is_nan() {
            0.0
        } else {
            slip_velocity.abs().min(MAX_SLIP_VELOCITY)
        };
        match *self {
            FrictionCurve::Flat { peak } => peak.friction,
            FrictionCurve::Linear {
                adherent,
                peak,
                limit,
            } => three_point(adherent, peak, limit, [1.0; 4], s),
            FrictionCurve::Smooth {
                adherent,
                peak,
                limit,
            } => three_point(adherent, peak, limit, [0.0; 4], s),
            FrictionCurve::Parametric {
                adherent,
                peak,
                limit,
                a,
                b,
                c,
                d,
            } => three_point(adherent, peak, limit, [a, b, c, d], s),
            FrictionCurve::Pacejka { .. } => self.pacejka_floored(s, self.adherent_slip_velocity()),
        }
    }

    /// The Pacejka curve floored by `A` below the adherent slip velocity `s_a`.
    #[inline]
    fn pacejka_floored(&self, s: f64, s_a: f64) -> f64 {
        let a = self.adherent_friction();
        if s < s_a {
            a
        } else {
            self.pacejka_value(s).unwrap_or(a)
        }
    }

    /// Slip velocity (m/s) that ends the adherent region: the adherent point, the peak point of
    /// `Flat`, and for `Pacejka` the slip velocity where the rising `P(s)` reaches `A`.
    pub fn adherent_slip_velocity(&self) -> f64 {
        match *self {
            FrictionCurve::Flat { peak } => peak.slip_velocity_m_s,
            FrictionCurve::Linear { adherent, .. }
            | FrictionCurve::Smooth { adherent, .. }
            | FrictionCurve::Parametric { adherent, .. } => adherent.slip_velocity_m_s,
            FrictionCurve::Pacejka {
                a_adherent: a,
                b_stiffness_s_per_m: b,
                c_shape: c,
                d_peak: d,
                e_curvature: e,
            } => {
                // sin(C atan(g)) = A / D on the rising flank: atan(g) = asin(A / D) / C.
                let ratio = if d > 0.0 {
                    (a / d).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                let target = (ratio.asin() / c).tan();
                pacejka_inverse_slip(target, b, e)
            }
        }
    }

    /// Friction held in the adherent region, reached by the force law at
    /// [`FrictionCurve::adherent_slip_velocity`].
    pub fn adherent_friction(&self) -> f64 {
        match *self {
            FrictionCurve::Flat { peak } => peak.friction,
            FrictionCurve::Linear { adherent, .. }
            | FrictionCurve::Smooth { adherent, .. }
            | FrictionCurve::Parametric { adherent, .. } => adherent.friction,
            FrictionCurve::Pacejka { a_adherent, .. } => a_adherent,
        }
    }

    /// Slip velocity (m/s) of the peak friction; for `Pacejka` where `C atan(g) = pi/2` (very
    /// large, but finite, when `C = 1` and the curve only approaches `D`).
    pub fn peak_slip_velocity(&self) -> f64 {
        match *self {
            FrictionCurve::Flat { peak }
            | FrictionCurve::Linear { peak, .. }
            | FrictionCurve::Smooth { peak, .. }
            | FrictionCurve::Parametric { peak, .. } => peak.slip_velocity_m_s,
            FrictionCurve::Pacejka {
                b_stiffness_s_per_m: b,
                c_shape: c,
                e_curvature: e,
                ..
            } => {
                let target = (std::f64::consts::FRAC_PI_2 / c).tan();
                pacejka_inverse_slip(target, b, e)
            }
        }
    }

    /// Friction of full sliding: the value the curve holds (or tends to) at large slip.
    pub fn limit_friction(&self) -> f64 {
        match *self {
            FrictionCurve::Flat { peak } => peak.friction,
            FrictionCurve::Linear { limit, .. }
            | FrictionCurve::Smooth { limit, .. }
            | FrictionCurve::Parametric { limit, .. } => limit.friction,
            FrictionCurve::Pacejka {
                c_shape: c,
                d_peak: d,
                ..
            } => d * (c * std::f64::consts::FRAC_PI_2).sin(),
        }
    }

    /// Coefficient the tyre model multiplies by the load at slip velocity `slip_velocity`
    /// (m/s, sign ignored): rises linearly from 0 at zero slip to the adherent friction at the
    /// adherent slip velocity, then follows [`FrictionCurve::friction`]. Continuous everywhere.
    pub fn force_coefficient(&self, slip_velocity: f64) -> f64 {
        let s = if slip_velocity.is_nan() {
            0.0
        } else {
            slip_velocity.abs().min(MAX_SLIP_VELOCITY)
        };
        let s_a = self.adherent_slip_velocity();
        if s < s_a {
            self.adherent_friction() * s / s_a
        } else if let FrictionCurve::Pacejka { .. } = self {
            self.pacejka_floored(s, s_a)
        } else {
            self.friction(s)
        }
    }

    /// Slope of [`FrictionCurve::force_coefficient`] at zero slip (s/m): adherent friction over
    /// adherent slip velocity.
    pub fn adherent_slope(&self) -> f64 {
        let s_a = self.adherent_slip_velocity();
        if s_a > 0.0 {
            self.adherent_friction() / s_a
        } else {
            0.0
        }
    }
}

/// Slip velocity (m/s) at which the Pacejka argument `g(B s)` equals `target`.
fn pacejka_inverse_slip(target: f64, b: f64, e: f64) -> f64 {
    if b.is_nan() || b <= 0.0 {
        return 0.0;
    }
    let u = invert_pacejka_argument(target, e);
    (u / b).min(MAX_SLIP_VELOCITY)
}

/// Checks `adherent < peak < limit` in slip velocity, with each point valid.
fn validate_points(
    v: &mut Validator,
    adherent: &CurvePoint,
    peak: &CurvePoint,
    limit: &CurvePoint,
) {
    v.nested("adherent", adherent);
    v.nested("peak", peak);
    v.nested("limit", limit);
    if adherent.slip_velocity_m_s.is_finite() && peak.slip_velocity_m_s.is_finite() {
        v.require(
            peak.slip_velocity_m_s > adherent.slip_velocity_m_s,
            "peak.slip_velocity_m_s",
            "must be greater than adherent.slip_velocity_m_s",
        );
    }
    if peak.slip_velocity_m_s.is_finite() && limit.slip_velocity_m_s.is_finite() {
        v.require(
            limit.slip_velocity_m_s > peak.slip_velocity_m_s,
            "limit.slip_velocity_m_s",
            "must be greater than peak.slip_velocity_m_s",
        );
    }
}

impl Validate for FrictionCurve {
    fn validate(&self, v: &mut Validator) {
        match self {
            FrictionCurve::Flat { peak } => v.nested("peak", peak),
            FrictionCurve::Linear {
                adherent,
                peak,
                limit,
            }
            | FrictionCurve::Smooth {
                adherent,
                peak,
                limit,
            } => validate_points(v, adherent, peak, limit),
            FrictionCurve::Parametric {
                adherent,
                peak,
                limit,
                a,
                b,
                c,
                d,
            } => {
                validate_points(v, adherent, peak, limit);
                for (name, value) in [("a", a), ("b", b), ("c", c), ("d", d)] {
                    v.in_range(name, *value, 0.0, 1.0);
                }
            }
            FrictionCurve::Pacejka {
                a_adherent,
                b_stiffness_s_per_m,
                c_shape,
                d_peak,
                e_curvature,
            } => {
                v.positive("a_adherent", *a_adherent);
                v.positive("b_stiffness_s_per_m", *b_stiffness_s_per_m);
                v.in_range("c_shape", *c_shape, 1.0, 2.0);
                v.positive("d_peak", *d_peak);
                if a_adherent.is_finite() && d_peak.is_finite() {
                    v.require(
                        a_adherent < d_peak,
                        "a_adherent",
                        "must be below d_peak (the curve must rise through the adherent friction)",
                    );
                }
                v.require(
                    e_curvature.is_finite() && *e_curvature < 1.0,
                    "e_curvature",
                    "must be a finite number below 1 (the curve must pass its peak)",
                );
            }
        }
    }
}

#[cfg(test)]
// Exact equalities are the point of several tests (values at user points, zeros).
#[allow(clippy::float_cmp)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    fn points() -> (CurvePoint, CurvePoint, CurvePoint) {
        (
            CurvePoint::new(0.5, 0.95),
            CurvePoint::new(1.5, 1.1),
            CurvePoint::new(4.0, 0.8),
        )
    }

    fn all_point_curves() -> Vec<FrictionCurve> {
        let (adherent, peak, limit) = points();
        vec![
            FrictionCurve::Linear {
                adherent,
                peak,
                limit,
            },
            FrictionCurve::Smooth {
                adherent,
                peak,
                limit,
            },
            FrictionCurve::Parametric {
                adherent,
                peak,
                limit,
                a: 0.9,
                b: 0.0,
                c: 0.3,
                d: 0.7,
            },
        ]
    }

    fn seed_pacejka() -> FrictionCurve {
        FrictionCurve::Pacejka {
            a_adherent: 0.95,
            b_stiffness_s_per_m: 0.8,
            c_shape: 1.5,
            d_peak: 1.1,
            e_curvature: -2.0,
        }
    }

    #[test]
    fn seed_default_curve_values() {
        let c = FrictionCurve::default();
        // 0.95 below 0.5 m/s.
        for s in [0.0, 0.1, 0.3, 0.49, 0.5] {
            assert_eq!(c.friction(s), 0.95, "at {s}");
        }
        // Rising progressively to 1.1 at 1.5 m/s.
        let mut last = 0.95;
        for i in 1..=100 {
            let s = 0.5 + f64::from(i) * 0.01;
            let mu = c.friction(s);
            assert!(mu >= last, "not rising at {s}");
            last = mu;
        }
        assert_eq!(c.friction(1.5), 1.1);
        // Falling progressively to 0.8 at 4 m/s.
        for i in 1..=250 {
            let s = 1.5 + f64::from(i) * 0.01;
            let mu = c.friction(s);
            assert!(mu <= last, "not falling at {s}");
            last = mu;
        }
        assert!(close(c.friction(4.0), 0.8, 1e-15));
        // Constant beyond.
        for s in [4.0001, 5.0, 12.0, 1e6, f64::MAX] {
            assert_eq!(c.friction(s), 0.8, "at {s}");
        }
        // The source's steering example: 10-12 m/s of slip develops the minimum friction.
        assert_eq!(c.friction(10.0), c.limit_friction());
    }

    #[test]
    fn curves_pass_through_their_points_and_are_continuous() {
        let (adherent, peak, limit) = points();
        for c in all_point_curves() {
            for p in [adherent, peak, limit] {
                assert!(
                    close(c.friction(p.slip_velocity_m_s), p.friction, 1e-14),
                    "{c:?} at {p:?}"
                );
                // Continuous: both sides of each point agree.
                let below = c.friction(p.slip_velocity_m_s - 1e-9);
                let above = c.friction(p.slip_velocity_m_s + 1e-9);
                assert!(close(below, p.friction, 1e-6) && close(above, p.friction, 1e-6));
            }
            let mut last = c.friction(0.0);
            for i in 1..20_000 {
                let now = c.friction(f64::from(i) * 0.0005);
                assert!((now - last).abs() < 1e-3, "{c:?} jumps at {i}");
                last = now;
            }
        }
    }

    #[test]
    fn closed_form_values_of_each_shape() {
        let (adherent, peak, limit) = points();
        let linear = FrictionCurve::Linear {
            adherent,
            peak,
            limit,
        };
        // Straight line: a quarter of the rise and half of the fall.
        assert!(close(linear.friction(0.75), 0.95 + 0.15 * 0.25, 1e-14));
        assert!(close(linear.friction(2.75), 0.95, 1e-14));
        let smooth = FrictionCurve::Smooth {
            adherent,
            peak,
            limit,
        };
        // Smoothstep: h(1/4) = 3/16 - 2/64 = 0.15625, h(1/2) = 1/2.
        assert!(close(smooth.friction(0.75), 0.95 + 0.15 * 0.156_25, 1e-14));
        assert!(close(smooth.friction(1.0), 1.025, 1e-14));
        assert!(close(smooth.friction(2.75), 0.95, 1e-14));
        // Parametric a = 0.9, b = 0: h(1/2) = (0.9 - 2)/8 + (3 - 1.8)/4 + 0.45 = 0.6125.
        let parametric = FrictionCurve::Parametric {
            adherent,
            peak,
            limit,
            a: 0.9,
            b: 0.0,
            c: 1.0,
            d: 1.0,
        };
        assert!(close(parametric.friction(1.0), 0.95 + 0.15 * 0.6125, 1e-14));
        // c = d = 1 make the fall a straight line.
        assert!(close(parametric.friction(2.75), 0.95, 1e-14));
        let flat = FrictionCurve::Flat { peak };
        for s in [0.0, 0.7, 1.5, 30.0] {
            assert_eq!(flat.friction(s), 1.1);
        }
    }

    #[test]
    fn parametric_spans_smooth_and_linear() {
        let (adherent, peak, limit) = points();
        let param = |k: f64| FrictionCurve::Parametric {
            adherent,
            peak,
            limit,
            a: k,
            b: k,
            c: k,
            d: k,
        };
        let smooth = FrictionCurve::Smooth {
            adherent,
            peak,
            limit,
        };
        let linear = FrictionCurve::Linear {
            adherent,
            peak,
            limit,
        };
        for i in 0..600 {
            let s = f64::from(i) * 0.01;
            assert!(close(param(0.0).friction(s), smooth.friction(s), 1e-14));
            assert!(close(param(1.0).friction(s), linear.friction(s), 1e-14));
        }
    }

    #[test]
    fn sharpness_sets_the_slopes_at_the_points() {
        let (adherent, peak, limit) = points();
        let c = FrictionCurve::Parametric {
            adherent,
            peak,
            limit,
            a: 0.9,
            b: 0.2,
            c: 0.5,
            d: 0.0,
        };
        let h = 1e-7;
        let slope = |s: f64| (c.friction(s + h) - c.friction(s)) / h;
        let slope_left = |s: f64| (c.friction(s) - c.friction(s - h)) / h;
        let rise = (1.1 - 0.95) / 1.0;
        let fall = (0.8 - 1.1) / 2.5;
        assert!(close(slope(0.5), 0.9 * rise, 1e-5));
        assert!(close(slope_left(1.5), 0.2 * rise, 1e-5));
        assert!(close(slope(1.5), 0.5 * fall, 1e-5));
        assert!(close(slope_left(4.0), 0.0, 1e-5));
    }

    #[test]
    fn pacejka_closed_form_and_points() {
        let c = seed_pacejka();
        // Values of D sin(C atan(B s - E (B s - atan(B s)))) computed independently.
        assert!(close(c.friction(1.0), 1.031_123_541_143_185_8, 1e-12));
        assert!(close(c.friction(2.0), 1.061_113_121_253_586_5, 1e-12));
        assert!(close(c.friction(4.0), 0.923_433_988_550_627_4, 1e-12));
        assert!(close(c.friction(10.0), 0.831_045_797_813_709_6, 1e-12));
        // Below the crossing with A the adherent friction holds (the raw curve is lower).
        assert_eq!(c.friction(0.5), 0.95);
        assert!(
            c.pacejka_value(0.5)
                .is_some_and(|p| close(p, 0.639_574_690_491_654_6, 1e-12))
        );
        // Adherent point: P(s_A) = A, s_A = 0.84083... m/s.
        let s_a = c.adherent_slip_velocity();
        assert!(close(s_a, 0.840_831_755_785_141, 1e-9));
        assert!(close(c.friction(s_a), 0.95, 1e-12));
        assert!(close(c.friction(s_a - 1e-9), 0.95, 1e-8));
        // Peak: D at 1.43291 m/s.
        let s_p = c.peak_slip_velocity();
        assert!(close(s_p, 1.432_912_583_910_991, 1e-9));
        assert!(close(c.friction(s_p), 1.1, 1e-12));
        // Limit D sin(C pi/2) = 1.1 sin(135 deg).
        assert!(close(
            c.limit_friction(),
            1.1 * std::f64::consts::FRAC_1_SQRT_2,
            1e-15
        ));
        assert!(close(c.friction(1e9), c.limit_friction(), 1e-6));
        assert!(c.friction(f64::MAX).is_finite());
    }

    #[test]
    fn pacejka_inversion_covers_concave_and_convex_arguments() {
        for e in [-20.0, -2.0, 0.0, 0.5, 0.99] {
            for x in [1e-6, 0.3, 1.0, 1.7, 100.0, 1e8] {
                let u = invert_pacejka_argument(x, e);
                assert!(
                    close(pacejka_argument(u, e), x, 1e-9 * x.max(1.0)),
                    "e {e} x {x}"
                );
            }
        }
    }

    #[test]
    fn force_coefficient_is_continuous_through_zero_and_the_adherent_point() {
        for c in all_point_curves()
            .into_iter()
            .chain([seed_pacejka(), FrictionCurve::Flat { peak: points().1 }])
        {
            assert_eq!(c.force_coefficient(0.0), 0.0);
            assert!(c.force_coefficient(1e-9) < 1e-8);
            let s_a = c.adherent_slip_velocity();
            assert!(close(
                c.force_coefficient(s_a * 0.5),
                c.adherent_friction() * 0.5,
                1e-12
            ));
            assert!(close(
                c.force_coefficient(s_a - 1e-10),
                c.adherent_friction(),
                1e-8
            ));
            assert!(close(
                c.force_coefficient(s_a),
                c.adherent_friction(),
                1e-10
            ));
            assert!(close(c.force_coefficient(1e9), c.limit_friction(), 1e-6));
        }
    }

    #[test]
    fn validation_reports_paths() {
        assert!(FrictionCurve::default().check().is_ok());
        assert!(seed_pacejka().check().is_ok());
        let bad = FrictionCurve::Parametric {
            adherent: CurvePoint::new(2.0, 0.95),
            peak: CurvePoint::new(1.5, f64::NAN),
            limit: CurvePoint::new(1.0, -0.8),
            a: 1.5,
            b: 0.0,
            c: 0.0,
            d: 0.0,
        };
        let mut v = Validator::with_root("curve");
        bad.validate(&mut v);
        let text = v.finish().unwrap_err().to_string();
        for expected in [
            "curve.peak.friction must be finite and not negative",
            "curve.limit.friction must be finite and not negative",
            "curve.peak.slip_velocity_m_s must be greater than adherent.slip_velocity_m_s",
            "curve.limit.slip_velocity_m_s must be greater than peak.slip_velocity_m_s",
            "curve.a must be between 0 and 1",
        ] {
            assert!(text.contains(expected), "{expected} missing from {text}");
        }
        let bad = FrictionCurve::Pacejka {
            a_adherent: 1.2,
            b_stiffness_s_per_m: 0.0,
            c_shape: 2.5,
            d_peak: 1.1,
            e_curvature: 1.0,
        };
        let text = bad.check().unwrap_err().to_string();
        for expected in [
            "a_adherent must be below d_peak",
            "b_stiffness_s_per_m must be finite and positive",
            "c_shape must be between 1 and 2",
            "e_curvature must be a finite number below 1",
        ] {
            assert!(text.contains(expected), "{expected} missing from {text}");
        }
    }
}

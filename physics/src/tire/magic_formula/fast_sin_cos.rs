//! Sine and cosine for the Magic Formula's equations, within one unit in the last place,
//! without the C library's general machinery.
//!
//! An evaluation takes some fifteen sines and cosines (the `sin(C atan(..))` of every
//! force curve, the `cos(C atan(..))` of every weighting, `gamma*`, `cos(alpha*)`); with
//! the C library each costs a call, its range checks and a save and restore of the
//! floating-point environment. Their arguments are small (`|C atan(..)| <= C pi/2`), so this
//! is `fdlibm`'s (Sun Microsystems, 1993; as in musl) `sin`/`cos`: the argument reduced by
//! multiples of `pi/2` ([`rem_pio2`]), then the kernel polynomials of degree 13 and 14 on
//! `[-pi/4, pi/4]`, which carry the reduction's tail. Their error is below one unit in the
//! last place (the tests measure it against `f64::sin`/`f64::cos`, which are nearly
//! correctly rounded); a result differs from the C library's in the last bit at most, far
//! inside the `1e-6` of the `MFeval` conformance tests. Arguments of `2^20 pi/2` and more,
//! infinities and NaN go to `f64::sin`/`f64::cos`.

use super::rem_pio2::{MEDIUM, rem_pio2};

/// Sine polynomial, `x + x^3 (S1 + x^2 (S2 + ...))`.
const S1: f64 = f64::from_bits(0xBFC5_5555_5555_5549);
const S2: f64 = f64::from_bits(0x3F81_1111_1110_F8A6);
const S3: f64 = f64::from_bits(0xBF2A_01A0_19C1_61D5);
const S4: f64 = f64::from_bits(0x3EC7_1DE3_57B1_FE7D);
const S5: f64 = f64::from_bits(0xBE5A_E5E6_8A2B_9CEB);
const S6: f64 = f64::from_bits(0x3DE5_D93A_5ACF_D57C);
/// Cosine polynomial, `1 - x^2/2 + x^4 (C1 + x^2 (C2 + ...))`.
const C1: f64 = f64::from_bits(0x3FA5_5555_5555_554C);
const C2: f64 = f64::from_bits(0xBF56_C16C_16C1_5177);
const C3: f64 = f64::from_bits(0x3EFA_01A0_19CB_1590);
const C4: f64 = f64::from_bits(0xBE92_7E4F_809C_52AD);
const C5: f64 = f64::from_bits(0x3E21_EE9E_BDB4_B1C4);
const C6: f64 = f64::from_bits(0xBDA8_FAE9_BE88_38D4);

/// `|x| < 2^-26`: `sin(x)` rounds to `x` (and `cos(x)` below `2^-27` to 1).
const TINY: f64 = f64::from_bits(0x3E50_0000_0000_0000);

/// `sin(x)` for `|x| <= pi/4` (`fdlibm`'s `__kernel_sin` without a tail).
#[inline]
fn kernel_sin_exact(x: f64) -> f64 {
    let z = x * x;
    let w = z * z;
    let r = S2 + z * (S3 + z * S4) + z * w * (S5 + z * S6);
    let v = z * x;
    x + v * (S1 + z * r)
}

/// `sin(x + y)` for `|x + y| <= pi/4`, `y` the tail of `x` (`fdlibm`'s `__kernel_sin`).
#[inline]
fn kernel_sin(x: f64, y: f64) -> f64 {
    let z = x * x;
    let w = z * z;
    let r = S2 + z * (S3 + z * S4) + z * w * (S5 + z * S6);
    let v = z * x;
    x - ((z * (0.5 * y - v * r) - y) - v * S1)
}

/// `cos(x + y)` for `|x + y| <= pi/4`, `y` the tail of `x` (`fdlibm`'s `__kernel_cos`).
#[inline]
fn kernel_cos(x: f64, y: f64) -> f64 {
    let z = x * x;
    let w = z * z;
    let r = z * (C1 + z * (C2 + z * C3)) + w * w * (C4 + z * (C5 + z * C6));
    let hz = 0.5 * z;
    let w = 1.0 - hz;
    w + (((1.0 - w) - hz) + (z * r - x * y))
}

/// `sin(x)`, within one unit in the last place.
#[inline]
pub(super) fn sin(x: f64) -> f64 {
    let a = x.abs();
    if a <= std::f64::consts::FRAC_PI_4 {
        if a < TINY {
            return x;
        }
        return kernel_sin_exact(x);
    }
    if a.is_nan() || a >= MEDIUM {
        return x.sin();
    }
    let (n, y0, y1) = rem_pio2(x);
    match n & 3 {
        0 => kernel_sin(y0, y1),
        1 => kernel_cos(y0, y1),
        2 => -kernel_sin(y0, y1),
        _ => -kernel_cos(y0, y1),
    }
}

/// `cos(x)`, within one unit in the last place.
#[inline]
pub(super) fn cos(x: f64) -> f64 {
    let a = x.abs();
    if a <= std::f64::consts::FRAC_PI_4 {
        if a < 0.5 * TINY {
            return 1.0;
        }
        return kernel_cos(x, 0.0);
    }
    if a.is_nan() || a >= MEDIUM {
        return x.cos();
    }
    let (n, y0, y1) = rem_pio2(x);
    match n & 3 {
        0 => kernel_cos(y0, y1),
        1 => -kernel_sin(y0, y1),
        2 => -kernel_cos(y0, y1),
        _ => kernel_sin(y0, y1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Error in units in the last place of the exact value (taken as the standard library's).
    fn ulps(got: f64, exact: f64) -> f64 {
        if got.to_bits() == exact.to_bits() {
            return 0.0;
        }
        let ulp = f64::from_bits(exact.abs().to_bits() + 1) - exact.abs();
        (got - exact).abs() / ulp
    }

    /// The worst error of `f` against `reference` over `xs`, and where.
    fn worst(
        f: fn(f64) -> f64,
        reference: fn(f64) -> f64,
        xs: impl Iterator<Item = f64>,
    ) -> (f64, f64) {
        let mut worst = (0.0_f64, 0.0_f64);
        for x in xs {
            let e = ulps(f(x), reference(x));
            if e > worst.0 {
                worst = (e, x);
            }
        }
        worst
    }

    /// Dense over `[-8, 8]` (the Magic Formula's range and more), around every multiple of
    /// `pi/4` up to 8 (where the reductions switch and the results cross zero), and by
    /// scales up to the fallback.
    fn arguments() -> impl Iterator<Item = f64> {
        let dense = (-4_000_000..=4_000_000).map(|i| f64::from(i) * 2e-6);
        let near = (-10..=10).flat_map(|k| {
            let centre = f64::from(k) * std::f64::consts::FRAC_PI_4;
            (-2000..=2000).map(move |i| {
                let bits = centre.to_bits();
                // Neighbours of the double nearest k pi/4, then a little farther.
                let offset = i64::from(i);
                f64::from_bits(bits.wrapping_add_signed(offset)) + f64::from(i) * 1e-9
            })
        });
        let scales = (0..40_000).flat_map(|i| {
            let x = 1e-12 * 1.001_f64.powi(i);
            [x, -x]
        });
        dense
            .chain(near)
            .chain(scales)
            .filter(|x| x.abs() < 2.0 * MEDIUM)
    }

    #[test]
    fn sine_within_one_ulp_of_the_standard_library() {
        let (e, x) = worst(sin, f64::sin, arguments());
        assert!(e <= 1.0, "sin: {e} ulp at {x:e}");
    }

    #[test]
    fn cosine_within_one_ulp_of_the_standard_library() {
        let (e, x) = worst(cos, f64::cos, arguments());
        assert!(e <= 1.0, "cos: {e} ulp at {x:e}");
    }

    #[test]
    fn special_values() {
        let same = |a: f64, b: f64| a.to_bits() == b.to_bits();
        assert!(same(sin(0.0), 0.0));
        assert!(same(sin(-0.0), -0.0));
        assert!(same(cos(0.0), 1.0));
        assert!(same(cos(-0.0), 1.0));
        assert!(sin(f64::NAN).is_nan() && cos(f64::NAN).is_nan());
        assert!(sin(f64::INFINITY).is_nan() && cos(f64::NEG_INFINITY).is_nan());
        assert!(same(sin(1e300), 1e300_f64.sin()));
        assert!(same(cos(-1e300), (-1e300_f64).cos()));
    }
}

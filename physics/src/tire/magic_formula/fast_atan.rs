//! A faster `atan` for the Magic Formula's equations, within a couple of units in the last
//! place of the standard library's.
//!
//! An evaluation of the Magic Formula takes some twenty arc tangents (two in every force
//! curve and weighting, more in the aligning moment), which were half of its cost with the
//! C library's `atan` (which also saves and restores the floating-point environment). This is
//! Cephes' `atan` (Moshier, *Methods and Programs for Mathematical Functions*, 1989): the
//! argument reduced to `|x| <= 0.66` through `atan(x) = pi/4 + atan((x - 1) / (x + 1))` and
//! `atan(x) = pi/2 - atan(1 / x)`, then a rational function of degree 4/5 in `x²`. Its
//! relative error is below `2.2e-16` everywhere (see the tests), far inside the `1e-6`
//! within which the Magic Formula must reproduce `MFeval`; the results differ from those of
//! `f64::atan` only in the last bit or two.

use std::f64::consts::{FRAC_PI_2, FRAC_PI_4};

use wide::f64x4;

/// `tan(3 pi / 8)`: above it the argument is reduced through `pi/2 - atan(1 / x)`.
const TAN_3PI_8: f64 = 2.414_213_562_373_095;
/// Above it (and up to [`TAN_3PI_8`]) the argument is reduced through
/// `pi/4 + atan((x - 1) / (x + 1))`.
const REDUCE_ABOVE: f64 = 0.66;
/// The part of `pi/2` that `FRAC_PI_2` leaves out (`pi/2 - FRAC_PI_2`).
const PI_2_LOW: f64 = 6.123_233_995_736_766e-17;

/// Numerator of the rational function, highest power of `x²` first.
const P: [f64; 5] = [
    -0.875_060_860_003_190_4,
    -16.157_537_187_333_652,
    -75.008_557_923_147_05,
    -122.886_668_449_013_61,
    -64.850_219_049_420_25,
];
/// Denominator of the rational function, highest power of `x²` first (the leading 1 left
/// out).
const Q: [f64; 5] = [
    24.858_464_901_423_062,
    165.027_009_831_698_85,
    432.881_060_491_290_27,
    485.390_399_635_913_7,
    194.550_657_148_261_4,
];

/// `atan(x)` (rad), within about one unit in the last place: odd, `±pi/2` at `±inf`, NaN for
/// NaN, and `-0.0` for `-0.0`.
#[inline]
pub(super) fn atan(x: f64) -> f64 {
    let a = x.abs();
    let (base, low, r) = if a > TAN_3PI_8 {
        (FRAC_PI_2, PI_2_LOW, -1.0 / a)
    } else if a <= REDUCE_ABOVE {
        (0.0, 0.0, a)
    } else {
        (FRAC_PI_4, 0.5 * PI_2_LOW, (a - 1.0) / (a + 1.0))
    };
    let z = r * r;
    let p = (((P[0] * z + P[1]) * z + P[2]) * z + P[3]) * z + P[4];
    let q = ((((z + Q[0]) * z + Q[1]) * z + Q[2]) * z + Q[3]) * z + Q[4];
    let y = base + (r * (z * p / q) + r + low);
    y.copysign(x)
}

/// [`atan`] of every lane, four at a time in the processor's vector registers.
///
/// Each lane selects its reduction's constants instead of branching to them and then performs
/// exactly [`atan`]'s operations in [`atan`]'s order (`a / 1.0` is `a`; no fused
/// multiply-adds), so every lane's result is the same bits as [`atan`] of that lane.
// Inlined always: a call would pass the lanes through memory.
#[allow(clippy::inline_always)]
#[inline(always)]
pub(super) fn atan_lanes<const N: usize>(x: [f64; N]) -> [f64; N] {
    let mut out = [0.0; N];
    for (xs, ys) in x.chunks(4).zip(out.chunks_mut(4)) {
        let mut lanes = [0.0; 4];
        lanes[..xs.len()].copy_from_slice(xs);
        let y = atan4(f64x4::new(lanes)).to_array();
        ys.copy_from_slice(&y[..xs.len()]);
    }
    out
}

/// [`atan`] of four lanes without branches (see [`atan_lanes`]).
#[allow(clippy::inline_always)]
#[inline(always)]
fn atan4(x: f64x4) -> f64x4 {
    let splat = f64x4::splat;
    let a = x.abs();
    let above = a.simd_gt(splat(TAN_3PI_8));
    let reduced = a.simd_gt(splat(REDUCE_ABOVE));
    let pick = |if_above: f64x4, if_reduced: f64x4, otherwise: f64x4| {
        above.bitselect(if_above, reduced.bitselect(if_reduced, otherwise))
    };
    let one = splat(1.0);
    let base = pick(splat(FRAC_PI_2), splat(FRAC_PI_4), f64x4::ZERO);
    let low = pick(splat(PI_2_LOW), splat(0.5 * PI_2_LOW), f64x4::ZERO);
    let r = pick(-one, a - one, a) / pick(a, a + one, one);
    let z = r * r;
    let p =
        (((splat(P[0]) * z + splat(P[1])) * z + splat(P[2])) * z + splat(P[3])) * z + splat(P[4]);
    let q = ((((z + splat(Q[0])) * z + splat(Q[1])) * z + splat(Q[2])) * z + splat(Q[3])) * z
        + splat(Q[4]);
    let y = base + (r * (z * p / q) + r + low);
    // `copysign`: the magnitude's bits with the argument's sign bit.
    let sign = splat(-0.0);
    (y & !sign) | (x & sign)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Relative error against the standard library's `atan`.
    fn error(x: f64) -> f64 {
        let exact = x.atan();
        ((atan(x) - exact) / exact).abs()
    }

    #[test]
    fn within_a_couple_of_ulps_of_the_standard_library_everywhere() {
        let mut worst = (0.0_f64, 0.0_f64);
        // Every scale from 1e-300 to 1e300, densely where the reductions switch over.
        let mut x = 1e-300_f64;
        while x < 1e300 {
            for v in [x, -x] {
                let e = error(v);
                if e > worst.0 {
                    worst = (e, v);
                }
            }
            x *= 1.000_37;
        }
        for i in 0..200_000 {
            let v = f64::from(i) * 2e-5 - 2.0 + 0.66;
            let e = error(v);
            if v != 0.0 && e > worst.0 {
                worst = (e, v);
            }
            let w = v + TAN_3PI_8 - 0.66;
            if error(w) > worst.0 {
                worst = (error(w), w);
            }
        }
        assert!(
            worst.0 < 2.5e-16,
            "relative error {:e} at {}",
            worst.0,
            worst.1
        );
    }

    #[test]
    fn lanes_are_the_same_bits_as_one_at_a_time() {
        let mut values = vec![
            0.0,
            -0.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            f64::MIN_POSITIVE,
            f64::MAX,
            REDUCE_ABOVE,
            TAN_3PI_8,
            1.0,
        ];
        let mut x = 1e-300_f64;
        while x < 1e300 {
            values.extend([x, -x, x.next_up(), (-x).next_down()]);
            x *= 1.003_7;
        }
        for edge in [REDUCE_ABOVE, TAN_3PI_8] {
            let mut v = edge;
            for _ in 0..64 {
                v = v.next_down();
            }
            for _ in 0..128 {
                values.extend([v, -v]);
                v = v.next_up();
            }
        }
        for chunk in values.chunks_exact(7) {
            let lanes: [f64; 7] = chunk.try_into().expect("seven values");
            for (got, &x) in atan_lanes(lanes).iter().zip(&lanes) {
                assert_eq!(got.to_bits(), atan(x).to_bits(), "atan({x:e})");
            }
        }
    }

    #[test]
    fn special_values() {
        let same = |a: f64, b: f64| a.to_bits() == b.to_bits();
        assert!(same(atan(0.0), 0.0));
        assert!(same(atan(-0.0), -0.0));
        assert!(same(atan(f64::INFINITY), FRAC_PI_2));
        assert!(same(atan(f64::NEG_INFINITY), -FRAC_PI_2));
        assert!(atan(f64::NAN).is_nan());
        assert!(same(atan(1.0), FRAC_PI_4));
        assert!(same(atan(-1.0), -FRAC_PI_4));
        assert!(same(atan(f64::MIN_POSITIVE), f64::MIN_POSITIVE));
    }
}

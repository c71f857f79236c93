//! The reduction of an angle by multiples of `pi/2` for [`super::fast_sin_cos`]: `fdlibm`'s (Sun Microsystems, 1993; as in musl's
//! `__rem_pio2`) Cody-Waite reduction for medium arguments, `|x| < 2^20 pi/2`, with `pi/2` in
//! three 33-bit pieces and their tails, good to 151 bits (so to the last bit of the reduced
//! argument even next to a multiple of `pi/2`).

/// `2 / pi`.
const INV_PIO2: f64 = f64::from_bits(0x3FE4_5F30_6DC9_C883);
/// `1.5 / f64::EPSILON`: adding and subtracting it rounds to the nearest integer.
const TO_INT: f64 = 1.5 / f64::EPSILON;
/// `pi/4`.
const PIO4: f64 = std::f64::consts::FRAC_PI_4;
/// The first 33 bits of `pi/2`.
const PIO2_1: f64 = f64::from_bits(0x3FF9_21FB_5440_0000);
/// `pi/2 - PIO2_1`.
const PIO2_1T: f64 = f64::from_bits(0x3DD0_B461_1A62_6331);
/// The second 33 bits of `pi/2`.
const PIO2_2: f64 = f64::from_bits(0x3DD0_B461_1A60_0000);
/// `pi/2 - (PIO2_1 + PIO2_2)`.
const PIO2_2T: f64 = f64::from_bits(0x3BA3_198A_2E03_7073);
/// The third 33 bits of `pi/2`.
const PIO2_3: f64 = f64::from_bits(0x3BA3_198A_2E00_0000);
/// `pi/2 - (PIO2_1 + PIO2_2 + PIO2_3)`.
const PIO2_3T: f64 = f64::from_bits(0x397B_839A_2520_49C1);

/// Below this magnitude [`rem_pio2`] applies (`2^20 pi/2`).
pub(super) const MEDIUM: f64 = 1_647_099.0;

/// The biased exponent of `x`.
#[inline]
fn exponent(x: f64) -> i64 {
    // The exponent field has 11 bits: the cast cannot lose anything.
    #[allow(clippy::cast_possible_wrap)]
    let e = ((x.to_bits() >> 52) & 0x7ff) as i64;
    e
}

/// `(n, y0, y1)` with `x = n pi/2 + y0 + y1`, `|y0 + y1| <= pi/4` (to rounding) and `y1` the
/// tail of `y0`, for finite `|x| <` [`MEDIUM`].
#[inline]
pub(super) fn rem_pio2(x: f64) -> (i32, f64, f64) {
    debug_assert!(x.abs() < MEDIUM);
    let mut f = x * INV_PIO2 + TO_INT - TO_INT;
    let mut r = x - f * PIO2_1;
    let mut w = f * PIO2_1T;
    // Only with directed rounding could the nearest integer miss; kept as `fdlibm` has it.
    if r - w < -PIO4 {
        f -= 1.0;
        r = x - f * PIO2_1;
        w = f * PIO2_1T;
    } else if r - w > PIO4 {
        f += 1.0;
        r = x - f * PIO2_1;
        w = f * PIO2_1T;
    }
    let mut y0 = r - w;
    let ex = exponent(x);
    if ex - exponent(y0) > 16 {
        // Cancellation: a second round, good to 118 bits.
        let t = r;
        w = f * PIO2_2;
        r = t - w;
        w = f * PIO2_2T - ((t - r) - w);
        y0 = r - w;
        if ex - exponent(y0) > 49 {
            // A third, good to 151 bits: enough for every double.
            let t = r;
            w = f * PIO2_3;
            r = t - w;
            w = f * PIO2_3T - ((t - r) - w);
            y0 = r - w;
        }
    }
    let y1 = (r - y0) - w;
    // |f| < 2^20: exact in an i32.
    #[allow(clippy::cast_possible_truncation)]
    let n = f as i32;
    (n, y0, y1)
}

//! How the models treat inputs and outputs outside their range: loads and friction scales that
//! count as zero, outputs kept finite.

/// Vertical load actually carried: negative and non-finite loads count as zero.
#[inline]
pub(crate) fn effective_load(fz: f64) -> f64 {
    if fz.is_finite() && fz > 0.0 { fz } else { 0.0 }
}

/// Friction scale actually applied: negative and non-finite scales count as zero (no grip).
#[inline]
pub(crate) fn friction_scale(mu_scale: f64) -> f64 {
    if mu_scale.is_finite() && mu_scale > 0.0 {
        mu_scale
    } else {
        0.0
    }
}

/// Keeps an output finite: NaN becomes 0, overflow saturates at `±f64::MAX`.
#[inline]
pub(crate) fn saturate(x: f64) -> f64 {
    if x.is_nan() {
        0.0
    } else {
        x.clamp(-f64::MAX, f64::MAX)
    }
}

/// `x` where finite, else zero.
#[inline]
pub(crate) fn finite_or_zero(x: f64) -> f64 {
    if x.is_finite() { x } else { 0.0 }
}

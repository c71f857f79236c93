//! Building blocks of the voices: parameter smoothing, filters and noise. All of them run
//! per sample in `f32`, allocate nothing and flush their states to zero before they can turn
//! denormal.

pub mod filters;
pub mod noise;
pub mod smooth;
pub mod strike;

/// A state that has decayed below audibility becomes exactly zero, so that it never turns
/// into a denormal number (which costs a hundred times more to compute with).
#[inline]
pub fn flush_denormal(x: f32) -> f32 {
    if x.abs() < 1e-20 { 0.0 } else { x }
}

/// Hermite smoothstep: 0 at or below `edge0`, 1 at or above `edge1`, smooth and monotonic
/// between.
#[inline]
pub fn smoothstep(edge0: f32, edge1: f32, x: f32) -> f32 {
    let t = ((x - edge0) / (edge1 - edge0)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// `x` when finite, otherwise `fallback`.
#[inline]
pub fn finite_or(x: f32, fallback: f32) -> f32 {
    if x.is_finite() { x } else { fallback }
}

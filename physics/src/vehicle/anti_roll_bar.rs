//! Anti-roll bar: couples the two corners of an axle through the difference of their
//! compressions (Wolfe, workshop VI, `docs/sources.md`).
//!
//! Each side receives `rate * (own compression - other compression)`: the more compressed
//! side is pushed up harder (more load on that tyre), the other side relieved by the same
//! amount, so the bar adds roll stiffness without changing the axle's total load. It acts
//! between the wheels' own compressions whether or not they touch the ground: a wheel in the
//! air is held up by the bar as by its spring.

/// Forces (N, positive pushing the body up at that corner) of an anti-roll bar of `rate`
/// (N/m) on the left and right corners of an axle with compressions `left` and `right` (m).
#[inline]
pub fn anti_roll_bar_forces(rate: f64, left: f64, right: f64) -> (f64, f64) {
    let f = rate * (left - right);
    (f, -f)
}

#[cfg(test)]
#[allow(clippy::float_cmp)]
mod tests {
    use super::*;

    #[test]
    fn opposite_and_equal() {
        let (l, r) = anti_roll_bar_forces(20_000.0, 0.12, 0.10);
        assert!((l - 400.0).abs() < 1e-9);
        assert!((l + r).abs() < 1e-12);
        assert_eq!(anti_roll_bar_forces(20_000.0, 0.1, 0.1), (0.0, -0.0));
    }
}

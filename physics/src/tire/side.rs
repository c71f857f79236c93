//! Which side of a car a tyre runs on, and the mirror image that turns a tyre measured on one
//! side into the same tyre on the other.
//!
//! A tyre's data are measured (or fitted) for one side of the car, `TYRESIDE` in a `.tir` file
//! (absent: left, as `MFeval` assumes); the other families are symmetric or taken as measured
//! on the left. Real tyres are not symmetric: conicity and ply steer give a lateral force and
//! an aligning moment at zero slip and zero camber (`PHY1`, `PVY1`, `QDZ1` ... of a `.tir`
//! file), which on a real car point the same way relative to the car's centre on both sides
//! because the right tyre is the mirror image of the left (mounted the other way round). A car
//! that ran the left tyre's data on its right wheels would be pushed sideways by both axles.
//!
//! The mirror image, as `MFeval` and Project Chrono evaluate a tyre on the side its data were
//! not measured on, in the ISO contact frame of [`crate::tire`]: the lateral inputs change sign
//! (`alpha -> -alpha`, `gamma -> -gamma`), the tyre is evaluated, and the lateral outputs change
//! sign (`fy -> -fy`, `mz -> -mz`, `mx -> -mx`). `fx`, `my`, the slip and cornering stiffnesses
//! and the effective radius are unchanged (`dFy/dalpha` of the mirror image at `alpha` is the
//! original's at `-alpha`).

use super::interface::{TireInput, TireOutput};

/// A side of the car, or the side a tyre's data were measured on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TyreSide {
    /// The left side (+y of the car's frame). Tyre data that do not state a side are left.
    #[default]
    Left,
    /// The right side (-y of the car's frame).
    Right,
}

impl TyreSide {
    /// The side of a wheel whose lateral offset from the car's centre line has the sign of
    /// `side` (positive: left, as the vehicle model's corners are numbered).
    pub fn of_sign(side: f64) -> Self {
        if side < 0.0 {
            TyreSide::Right
        } else {
            TyreSide::Left
        }
    }

    /// The other side.
    #[must_use]
    pub fn opposite(self) -> Self {
        match self {
            TyreSide::Left => TyreSide::Right,
            TyreSide::Right => TyreSide::Left,
        }
    }
}

/// The input the tyre's own data see when it runs mirrored: `alpha` and `gamma` negated.
#[inline]
#[must_use]
pub fn mirror_input(input: &TireInput) -> TireInput {
    TireInput {
        alpha: -input.alpha,
        gamma: -input.gamma,
        ..*input
    }
}

/// The output of a mirrored tyre from its own data's output: `fy`, `mz` and `mx` negated.
#[inline]
#[must_use]
pub fn mirror_output(output: TireOutput) -> TireOutput {
    TireOutput {
        fy: -output.fy,
        mz: -output.mz,
        mx: -output.mx,
        ..output
    }
}

//! [`Side`]: which side of the road.

use serde::{Deserialize, Serialize};

/// Which side of the road, looking along the direction of travel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Side {
    /// The left.
    Left,
    /// The right.
    Right,
}

//! What a layout says about its boundary ([`BoundarySpec`]): how far the terrain reaches
//! beyond everything built and how high the wall round it stands.

use serde::{Deserialize, Serialize};

use crate::ground::Surface;
use crate::validate::Validator;

/// The boundary a layout asks for (built by [`super::boundary`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoundarySpec {
    /// How far the terrain reaches beyond the built ground's bounding box on every side, to
    /// the foot of the boundary wall (m).
    pub margin_m: f64,
    /// Height of the boundary wall above its foot (m).
    pub wall_height_m: f64,
    /// Surface of the terrain; grass when omitted.
    #[serde(default = "grass")]
    pub surface: Surface,
}

fn grass() -> Surface {
    Surface::Grass
}

impl BoundarySpec {
    pub(crate) fn validate(&self, v: &mut Validator) {
        v.in_range("margin_m", self.margin_m, 1.0, 10_000.0);
        v.in_range("wall_height_m", self.wall_height_m, 0.5, 100.0);
    }
}

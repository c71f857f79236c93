//! The rules of a layout that ask for roadside furniture (braking boards, trees, buildings),
//! carried by the built track as data. Physics places none of it: nothing there collides with
//! the car, and the renderer places and draws it (`gripline_render::roadside_placement`).

use super::layout::{ObjectSpec, TrackLayout};

/// The roadside rules of a layout and the corner radius its braking boards count corners by.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RoadsideRules {
    /// Horizontal radius below which a centre-line sample is part of a corner (m); the
    /// layout's `corner_radius_m`.
    pub corner_radius_m: f64,
    /// The layout's [`ObjectSpec::BrakingBoards`], [`ObjectSpec::Trees`] and
    /// [`ObjectSpec::Building`] rules, in the layout's order.
    pub rules: Vec<ObjectSpec>,
}

impl RoadsideRules {
    /// The roadside rules of `layout`.
    #[must_use]
    pub fn of(layout: &TrackLayout) -> Self {
        let rules = layout
            .objects
            .iter()
            .filter(|spec| {
                matches!(
                    spec,
                    ObjectSpec::BrakingBoards { .. }
                        | ObjectSpec::Trees { .. }
                        | ObjectSpec::Building { .. }
                )
            })
            .cloned()
            .collect();
        Self {
            corner_radius_m: layout.corner_radius_m,
            rules,
        }
    }
}

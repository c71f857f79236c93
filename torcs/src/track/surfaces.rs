//! TORCS surfaces (the `Surfaces` section: the shared `surfaces.xml` and the track's own) and
//! how each maps onto Gripline's [`Surface`]s.
//!
//! TORCS gives a surface a friction coefficient (a factor on the tyres' grip; 1.2 for its
//! reference `asphalt`) and a rolling-resistance coefficient, with defaults 0.8 and 0.001
//! when absent (`AddTrackSurface` in TORCS's `track4.cpp`). Gripline's surfaces have fixed
//! properties, so each TORCS surface takes the nearest by its numbers, with the friction taken
//! relative to TORCS's asphalt (1.2):
//!
//! - relative friction 0.7 or more: paved. A border drawn as a kerb (`style` `curb`) is
//!   [`Surface::Kerb`]; otherwise [`Surface::Asphalt`] from a relative friction of 0.975
//!   (TORCS 1.17), [`Surface::Concrete`] (0.95) below.
//! - below 0.7 with a rolling resistance of 0.07 or more: loose. The numbers cannot tell sand
//!   from gravel (TORCS gives its gravel more rolling resistance than its sand, Gripline the
//!   reverse), so a name containing `sand` or `gravel` decides; otherwise
//!   [`Surface::Sand`] from a rolling resistance of 0.2, [`Surface::Gravel`] below.
//! - below 0.7 with a rolling resistance of at most 0.004: still paved, [`Surface::Concrete`].
//!   TORCS's paved surfaces roll at 0.001-0.0035 and its grass, dirt and the borders into
//!   them at 0.005 or more; its slippery paved ones (`concrete` 0.8, `concrete3` 0.7, the
//!   painted lines `b-road1-l2` 0.8, and any surface left without numbers, 0.8 / 0.001)
//!   were grass here before, with grass's rolling drag and loose-surface drag on a hard road.
//! - otherwise (low friction, some rolling resistance): [`Surface::Grass`].
//!
//! What Gripline lacks: a packed-dirt surface (TORCS's `dirt`, 0.9 / 0.006, becomes concrete,
//! and the dirt tracks drive like concrete ones), and per-surface friction (TORCS's 1.1 road
//! and its 1.2 asphalt differ by 8 % there; here both are within 5 % of asphalt; its 0.8
//! `concrete` grips a third less than its asphalt, here 5 % less).

use std::collections::HashMap;

use gripline_physics::ground::Surface;

use crate::error::TorcsError;
use crate::params::Params;
use crate::track::geometry::BorderStyle;

/// TORCS's friction of its reference asphalt (`surfaces.xml`).
pub const TORCS_ASPHALT_FRICTION: f64 = 1.2;
/// Friction TORCS assumes for a surface without one.
pub const DEFAULT_FRICTION: f64 = 0.8;
/// Rolling resistance TORCS assumes for a surface without one.
pub const DEFAULT_ROLLING_RESISTANCE: f64 = 0.001;
/// The most rolling resistance of a paved TORCS surface (its paved ones: 0.001-0.0035; its
/// grass, dirt and their borders: 0.005 and more).
pub const PAVED_ROLLING_RESISTANCE_MAX: f64 = 0.004;

/// A TORCS surface's physical properties.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TorcsSurface {
    /// Friction coefficient (factor on the tyres' grip).
    pub friction: f64,
    /// Rolling-resistance coefficient.
    pub rolling_resistance: f64,
}

/// The surfaces a track defines, by name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SurfaceTable {
    surfaces: HashMap<String, TorcsSurface>,
}

impl SurfaceTable {
    /// Reads the `Surfaces` section (a later definition of a name replaces an earlier one).
    ///
    /// # Errors
    /// A friction or rolling resistance that is text.
    pub fn read(params: &Params) -> Result<Self, TorcsError> {
        let mut surfaces = HashMap::new();
        // Track version 4 lists them in "Surfaces", version 3 in "Surfaces/List".
        let lists = ["Surfaces", "Surfaces/List"];
        for section in lists.iter().filter_map(|p| params.root.at(p)) {
            for s in section.sections.iter().filter(|s| s.name != "List") {
                let surface = TorcsSurface {
                    friction: s.number("friction")?.unwrap_or(DEFAULT_FRICTION),
                    rolling_resistance: s
                        .number("rolling resistance")?
                        .unwrap_or(DEFAULT_ROLLING_RESISTANCE),
                };
                surfaces.insert(s.name.clone(), surface);
            }
        }
        Ok(Self { surfaces })
    }

    /// The surface called `name`, `None` when the track does not define it.
    pub fn get(&self, name: &str) -> Option<TorcsSurface> {
        self.surfaces.get(name).copied()
    }

    /// The Gripline surface for the TORCS surface `name` used as ground (TORCS's defaults
    /// when it is not defined), as a border of `style` when it is one.
    pub fn map(&self, name: &str, border: Option<BorderStyle>) -> Surface {
        let s = self.get(name).unwrap_or(TorcsSurface {
            friction: DEFAULT_FRICTION,
            rolling_resistance: DEFAULT_ROLLING_RESISTANCE,
        });
        map_surface(name, s, border)
    }
}

/// Maps one TORCS surface (see the module's documentation for the rule).
pub fn map_surface(name: &str, s: TorcsSurface, border: Option<BorderStyle>) -> Surface {
    let relative = s.friction / TORCS_ASPHALT_FRICTION;
    let lower = name.to_ascii_lowercase();
    if relative >= 0.7 {
        if border == Some(BorderStyle::Curb) {
            Surface::Kerb
        } else if relative >= 0.975 {
            Surface::Asphalt
        } else {
            Surface::Concrete
        }
    } else if s.rolling_resistance >= 0.07 {
        if lower.contains("sand") {
            Surface::Sand
        } else if lower.contains("gravel") || s.rolling_resistance < 0.2 {
            Surface::Gravel
        } else {
            Surface::Sand
        }
    } else if s.rolling_resistance <= PAVED_ROLLING_RESISTANCE_MAX {
        Surface::Concrete
    } else {
        Surface::Grass
    }
}

//! [`Surface`]: what the road is made of, and how each surface treats a tyre.

use serde::{Deserialize, Serialize};

/// What the road is made of. Each surface has fixed [`SurfaceProperties`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Surface {
    /// Dry asphalt: the reference surface of tyre data.
    #[default]
    Asphalt,
    /// Wet asphalt.
    WetAsphalt,
    /// Dry concrete.
    Concrete,
    /// Painted kerb stones: grippy but bumpy.
    Kerb,
    /// Grass.
    Grass,
    /// Loose gravel (run-off traps).
    Gravel,
    /// Sand.
    Sand,
    /// Ice.
    Ice,
}

/// How a surface treats a tyre.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SurfaceProperties {
    /// Friction relative to dry asphalt (multiplies the tyre model's friction).
    pub friction_scale: f64,
    /// Rolling-resistance coefficient added to the tyre's own (force per unit load).
    pub extra_rolling_resistance: f64,
    /// Drag of a loose surface on a wheel rolling through it (N per N of load per m/s),
    /// opposing the wheel's velocity.
    pub loose_drag_s_per_m: f64,
}

impl Surface {
    /// Every surface, for tables and tests.
    pub const ALL: [Surface; 8] = [
        Surface::Asphalt,
        Surface::WetAsphalt,
        Surface::Concrete,
        Surface::Kerb,
        Surface::Grass,
        Surface::Gravel,
        Surface::Sand,
        Surface::Ice,
    ];

    /// The surface's properties.
    ///
    /// Friction is relative to dry asphalt, the surface tyre data are measured on. Wet asphalt
    /// follows the published peak coefficients of Gillespie's *Fundamentals of Vehicle
    /// Dynamics*, Table 10.1 (dry asphalt 0.8 to 0.9, wet 0.5 to 0.7): the middles 0.6 / 0.85
    /// = 0.71 of dry, a wet road in the rain, not flooded. (The Buffalo tyre model's 0.3 for
    /// wet roads, seed 002, is that source's own test condition for its Calspan tyre, a
    /// polished wet surface; it is no longer the surface's value.) Ice is the Buffalo model's
    /// 0.1 / 0.85 = 0.12 (Gillespie: 0.1). The others are typical values from the
    /// vehicle-dynamics literature (grass 0.45 to 0.55, gravel 0.5 to 0.6 with strong rolling
    /// drag, sand lower grip and the most drag), chosen to rank as drivers expect.
    pub fn properties(self) -> SurfaceProperties {
        let (friction_scale, extra_rolling_resistance, loose_drag_s_per_m) = match self {
            Surface::Asphalt => (1.0, 0.0, 0.0),
            Surface::WetAsphalt => (0.6 / 0.85, 0.002, 0.0),
            Surface::Concrete => (0.95, 0.0, 0.0),
            Surface::Kerb => (0.9, 0.004, 0.0),
            Surface::Grass => (0.5, 0.03, 0.01),
            Surface::Gravel => (0.55, 0.08, 0.04),
            Surface::Sand => (0.45, 0.15, 0.08),
            Surface::Ice => (0.1 / 0.85, 0.0, 0.0),
        };
        SurfaceProperties {
            friction_scale,
            extra_rolling_resistance,
            loose_drag_s_per_m,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn friction_ranks_as_drivers_expect() {
        let mu = |s: Surface| s.properties().friction_scale;
        assert!((mu(Surface::Asphalt) - 1.0).abs() < 1e-15);
        // Gillespie, Table 10.1: wet asphalt 0.5 to 0.7 against 0.8 to 0.9 dry, so between
        // 0.5 / 0.9 = 0.56 and 0.7 / 0.8 = 0.88 of dry; above grass, as drivers expect.
        let wet = mu(Surface::WetAsphalt);
        assert!((0.5..=0.8).contains(&wet), "{wet}");
        assert!(wet > mu(Surface::Grass));
        // The Buffalo tyre model: 0.85 dry, 0.1 ice.
        assert!((mu(Surface::Ice) * 0.85 - 0.1).abs() < 1e-12);
        assert!(mu(Surface::Ice) < mu(Surface::WetAsphalt));
        assert!(mu(Surface::Sand) < mu(Surface::Gravel));
        for s in Surface::ALL {
            let p = s.properties();
            assert!(p.friction_scale > 0.0 && p.extra_rolling_resistance >= 0.0);
        }
    }
}

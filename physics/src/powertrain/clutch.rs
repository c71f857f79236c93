//! The clutch: a friction coupling between the engine and the gearbox input.
//!
//! Its torque capacity follows the pedal through a bite point: with `e = 1 - pedal` the
//! engagement (0 pressed, 1 released) and `x = (e - e0) / (e1 - e0)` the position across the
//! bite zone, `capacity = capacity_nm * smoothstep(x)` with `smoothstep(x) = 3x² - 2x³` on
//! `[0, 1]`. The bite zone is `bite_width` of pedal travel centred on `bite_point`, so a fully
//! pressed pedal gives no capacity and a released one the full capacity.
//!
//! Whether the clutch sticks or slips is decided each tick by the driveline solver
//! ([`super::driveline`]): locked when the torque needed to keep engine and gearbox at a
//! common speed is within the capacity, slipping with `capacity * sign(slip speed)` otherwise.

use serde::{Deserialize, Serialize};

use crate::validate::{Validate, Validator};

/// Clutch parameters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClutchParams {
    /// Friction torque capacity when fully engaged (N·m).
    pub capacity_nm: f64,
    /// Pedal position (0 released .. 1 pressed) at the middle of the bite zone, where the
    /// clutch carries half its capacity.
    pub bite_point: f64,
    /// Pedal travel over which the capacity goes from zero to full (0..1].
    pub bite_width: f64,
}

impl Default for ClutchParams {
    /// The Corvette C5's clutch: about 1.5 times the LS1's peak torque.
    fn default() -> Self {
        Self {
            capacity_nm: 700.0,
            bite_point: 0.5,
            bite_width: 0.4,
        }
    }
}

/// `3x² - 2x³` on `[0, 1]`, clamped outside; NaN reads 0.
pub fn smoothstep(x: f64) -> f64 {
    if x.is_nan() {
        return 0.0;
    }
    let x = x.clamp(0.0, 1.0);
    x * x * (3.0 - 2.0 * x)
}

impl ClutchParams {
    /// Torque capacity (N·m) at clutch pedal position `pedal` (0 released .. 1 pressed).
    pub fn capacity(&self, pedal: f64) -> f64 {
        // Engagement grows as the pedal rises: the zone spans pedal positions
        // [bite_point - width/2, bite_point + width/2], full capacity below it.
        let upper = self.bite_point + 0.5 * self.bite_width;
        self.capacity_nm * smoothstep((upper - pedal) / self.bite_width)
    }

    /// Whether the pedal is pressed past the bite zone (no capacity at all): a gear can be
    /// engaged without grinding.
    pub fn disengaged(&self, pedal: f64) -> bool {
        pedal >= self.bite_point + 0.5 * self.bite_width
    }
}

impl Validate for ClutchParams {
    fn validate(&self, v: &mut Validator) {
        v.positive("capacity_nm", self.capacity_nm);
        v.in_range("bite_point", self.bite_point, 0.0, 1.0);
        v.require(
            self.bite_width.is_finite() && self.bite_width > 0.0 && self.bite_width <= 1.0,
            "bite_width",
            "must be in (0, 1]",
        );
        if self.bite_point - 0.5 * self.bite_width < 0.0
            || self.bite_point + 0.5 * self.bite_width > 1.0
        {
            v.fail(
                "bite_width",
                "must keep the bite zone (bite_point ± bite_width / 2) within the pedal travel",
            );
        }
    }
}

/// How the clutch is working this tick.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClutchState {
    /// Engine and gearbox input turn together.
    Locked,
    /// The plates slip and carry their capacity.
    Slipping,
    /// Nothing is transmitted: pedal pressed, no gear or a shift in progress.
    #[default]
    Open,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capacity_follows_the_pedal_through_the_bite_point() {
        let c = ClutchParams::default();
        assert!((c.capacity(0.0) - 700.0).abs() < 1e-12, "released: full");
        assert!(c.capacity(1.0).abs() < 1e-12, "pressed: none");
        assert!((c.capacity(0.5) - 350.0).abs() < 1e-9, "bite point: half");
        assert!(
            (c.capacity(0.3) - 700.0).abs() < 1e-9,
            "below the zone: full"
        );
        assert!(c.capacity(0.7).abs() < 1e-9, "above the zone: none");
        // smoothstep(0.25) = 0.15625 at pedal 0.6.
        assert!((c.capacity(0.6) - 700.0 * 0.156_25).abs() < 1e-9);
        // Monotonic in pedal.
        let mut last = f64::INFINITY;
        for i in 0..=100 {
            let cap = c.capacity(f64::from(i) / 100.0);
            assert!(cap <= last + 1e-12);
            last = cap;
        }
        assert!(c.disengaged(0.75) && !c.disengaged(0.65));
    }

    #[test]
    fn validation_rejects_a_zone_outside_the_travel() {
        let c = ClutchParams {
            capacity_nm: -1.0,
            bite_point: 0.9,
            bite_width: 0.4,
        };
        let err = c.check().unwrap_err().to_string();
        assert!(
            err.contains("capacity_nm must be finite and positive"),
            "{err}"
        );
        assert!(err.contains("bite_width must keep"), "{err}");
        assert!(ClutchParams::default().check().is_ok());
    }
}

//! Whether a tyre fits an axle of a car, by what the tyre's data states about itself: its
//! free radius against the wheel's radius, and the axle's static wheel load against the
//! loads the data is valid for. Families that state neither (brush, simplified Pacejka,
//! slip-velocity curves, friction tables: friction coefficients that scale with the load)
//! fit every car.

use std::fmt;

use super::params::VehicleParams;
use crate::tire::Tire;

/// How far a tyre's free radius may be from the wheel's radius, as a fraction of the
/// wheel's: ±10 %, about one aspect-ratio step on the same rim (a 225/45R17 against a
/// 225/55R17 is 22.5 mm of 316 mm, 7 %).
pub const RADIUS_TOLERANCE: f64 = 0.10;

/// Why a tyre does not fit an axle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TyreMisfit {
    /// The tyre's free radius is too far from the wheel's.
    Radius {
        /// The tyre's free radius (m).
        tyre_m: f64,
        /// The wheel's radius (m).
        wheel_m: f64,
    },
    /// The axle's static wheel load is outside the loads the tyre's data is valid for.
    Load {
        /// The axle's static load per wheel (N).
        load_n: f64,
        /// The tyre's valid loads (N).
        range_n: (f64, f64),
    },
}

impl fmt::Display for TyreMisfit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TyreMisfit::Radius { tyre_m, wheel_m } => write!(
                f,
                "its radius {:.0} mm is {:+.0} % from the wheel's {:.0} mm (at most ±{:.0} %)",
                tyre_m * 1e3,
                (tyre_m / wheel_m - 1.0) * 100.0,
                wheel_m * 1e3,
                RADIUS_TOLERANCE * 100.0
            ),
            TyreMisfit::Load { load_n, range_n } => write!(
                f,
                "the axle's static load of {:.0} N per wheel is outside its data's {:.0}-{:.0} N",
                load_n, range_n.0, range_n.1
            ),
        }
    }
}

/// Whether `tire` fits axle `axle` (0 front, 1 rear) of the car `params` describe.
///
/// # Errors
/// The first reason it does not.
pub fn tyre_fit(tire: &Tire, params: &VehicleParams, axle: usize) -> Result<(), TyreMisfit> {
    let wheel_m = params.axle(axle).wheel.radius_m;
    if let Some(tyre_m) = tire.unloaded_radius_m()
        && ((tyre_m - wheel_m).abs() > RADIUS_TOLERANCE * wheel_m || !tyre_m.is_finite())
    {
        return Err(TyreMisfit::Radius { tyre_m, wheel_m });
    }
    let load_n = params.static_wheel_load_n(axle);
    if let Some(range_n) = tire.load_range_n()
        && !(range_n.0..=range_n.1).contains(&load_n)
    {
        return Err(TyreMisfit::Load { load_n, range_n });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tire::brush::BrushTire;
    use crate::tire::calspan::CalspanTire;

    #[test]
    fn a_tyre_without_size_or_load_data_fits_any_axle() {
        let tire = Tire::Brush(BrushTire::default());
        let params = VehicleParams::default();
        assert_eq!(tyre_fit(&tire, &params, 0), Ok(()));
        assert_eq!(tyre_fit(&tire, &params, 1), Ok(()));
    }

    #[test]
    fn a_calspan_tyre_fits_while_the_static_load_is_within_its_rating() {
        let params = VehicleParams::default();
        let load = params.static_wheel_load_n(0);
        let rated = |rated_load_n| {
            Tire::Calspan(CalspanTire {
                rated_load_n,
                ..CalspanTire::default()
            })
        };
        assert_eq!(tyre_fit(&rated(load * 1.01), &params, 0), Ok(()));
        let misfit = tyre_fit(&rated(load * 0.99), &params, 0).unwrap_err();
        assert!(matches!(misfit, TyreMisfit::Load { .. }), "{misfit:?}");
        assert!(misfit.to_string().contains("static load"), "{misfit}");
    }
}

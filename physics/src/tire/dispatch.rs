//! [`Tire`]: any tyre model of the library behind static dispatch, for the 1 kHz loop.

use super::brush::BrushTire;
use super::calspan::CalspanTire;
use super::friction_table::FrictionTableTire;
use super::interface::{TireInput, TireModel, TireOutput};
use super::magic_formula::MagicFormula;
use super::simplified_pacejka::SimplifiedPacejka;
use super::slip_velocity::SlipVelocityTire;
use crate::validate::{Validate, Validator};

/// Any tyre model of the library, dispatched statically.
#[derive(Clone, Debug)]
pub enum Tire {
    /// Magic Formula 5.2 / 6.1 / 6.2 from a `.tir` file.
    MagicFormula(Box<MagicFormula>),
    /// Simplified Pacejka B, C, D, E (Wolfe, workshop III).
    SimplifiedPacejka(SimplifiedPacejka),
    /// Brush model (Wolfe, workshop VI).
    Brush(BrushTire),
    /// Calspan / U.S. DOT composite slip (Buffalo tyre model).
    Calspan(CalspanTire),
    /// Friction curve by slip velocity (Vehicle Physics Pro).
    SlipVelocity(SlipVelocityTire),
    /// Friction table by slip ratio and slip angle (VR-Design Studio).
    FrictionTable(FrictionTableTire),
}

impl Tire {
    /// Short name of the model family, as used on the command line and in files.
    pub fn family(&self) -> &'static str {
        match self {
            Tire::MagicFormula(_) => "magic-formula",
            Tire::SimplifiedPacejka(_) => "simplified-pacejka",
            Tire::Brush(_) => "brush",
            Tire::Calspan(_) => "calspan",
            Tire::SlipVelocity(_) => "slip-velocity",
            Tire::FrictionTable(_) => "friction-table",
        }
    }

    /// The load the tyre's data is normalised to (N), where the model has one.
    pub fn nominal_load(&self) -> Option<f64> {
        match self {
            Tire::MagicFormula(m) => Some(m.nominal_load()),
            Tire::Calspan(m) => Some(m.rated_load_n),
            _ => None,
        }
    }

    /// The inflation pressure the tyre's data refers to (Pa), where the model has one.
    pub fn nominal_pressure(&self) -> Option<f64> {
        match self {
            Tire::MagicFormula(m) => m.nominal_pressure(),
            Tire::Calspan(m) => Some(m.nominal_pressure_pa),
            _ => None,
        }
    }

    /// The free (unloaded) radius the tyre's data states (m), where the model has one: the
    /// size a garage checks a tyre against a wheel with.
    pub fn unloaded_radius_m(&self) -> Option<f64> {
        match self {
            Tire::MagicFormula(m) => Some(m.coefficients().unloaded_radius),
            _ => None,
        }
    }

    /// The range of wheel loads the tyre's data is valid for (N), where it states one: a
    /// Magic Formula file's `FZMIN`..`FZMAX`, a Calspan tyre's rated load.
    pub fn load_range_n(&self) -> Option<(f64, f64)> {
        match self {
            Tire::MagicFormula(m) => {
                let c = m.coefficients();
                Some((c.fzmin, c.fzmax))
            }
            Tire::Calspan(m) => Some((0.0, m.rated_load_n)),
            _ => None,
        }
    }

    /// The carcass's longitudinal and lateral stiffnesses (N/m) where the tyre's data give
    /// them: a Magic Formula file's `LONGITUDINAL_STIFFNESS` and `LATERAL_STIFFNESS` (both
    /// positive; MF 5.2 files leave them zero).
    pub fn carcass_stiffness_n_per_m(&self) -> Option<(f64, f64)> {
        match self {
            Tire::MagicFormula(m) => {
                let c = m.coefficients();
                let (cx, cy) = (c.longitudinal_stiffness, c.lateral_stiffness);
                (cx.is_finite() && cx > 0.0 && cy.is_finite() && cy > 0.0).then_some((cx, cy))
            }
            _ => None,
        }
    }

    /// Turns the input range limits of the tyre data on or off (Magic Formula `[*_RANGE]`
    /// sections); models without such limits are returned unchanged.
    #[must_use]
    pub fn with_input_limits(self, on: bool) -> Self {
        match self {
            Tire::MagicFormula(m) => Tire::MagicFormula(Box::new(m.with_input_limits(on))),
            other => other,
        }
    }
}

impl TireModel for Tire {
    #[inline]
    fn evaluate(&self, input: &TireInput) -> TireOutput {
        match self {
            Tire::MagicFormula(m) => m.evaluate(input),
            Tire::SimplifiedPacejka(m) => m.evaluate(input),
            Tire::Brush(m) => m.evaluate(input),
            Tire::Calspan(m) => m.evaluate(input),
            Tire::SlipVelocity(m) => m.evaluate(input),
            Tire::FrictionTable(m) => m.evaluate(input),
        }
    }

    #[inline]
    fn evaluate_forces(&self, input: &TireInput) -> TireOutput {
        match self {
            Tire::MagicFormula(m) => m.evaluate_forces(input),
            Tire::SimplifiedPacejka(m) => m.evaluate_forces(input),
            Tire::Brush(m) => m.evaluate_forces(input),
            Tire::Calspan(m) => m.evaluate_forces(input),
            Tire::SlipVelocity(m) => m.evaluate_forces(input),
            Tire::FrictionTable(m) => m.evaluate_forces(input),
        }
    }

    #[inline]
    fn longitudinal_force(&self, input: &TireInput) -> f64 {
        match self {
            Tire::MagicFormula(m) => m.longitudinal_force(input),
            Tire::SimplifiedPacejka(m) => m.longitudinal_force(input),
            Tire::Brush(m) => m.longitudinal_force(input),
            Tire::Calspan(m) => m.longitudinal_force(input),
            Tire::SlipVelocity(m) => m.longitudinal_force(input),
            Tire::FrictionTable(m) => m.longitudinal_force(input),
        }
    }
}

impl Validate for Tire {
    fn validate(&self, v: &mut Validator) {
        match self {
            Tire::MagicFormula(m) => m.validate(v),
            Tire::SimplifiedPacejka(m) => m.validate(v),
            Tire::Brush(m) => m.validate(v),
            Tire::Calspan(m) => m.validate(v),
            Tire::SlipVelocity(m) => m.validate(v),
            Tire::FrictionTable(m) => m.validate(v),
        }
    }
}

//! [`Tire`]: any tyre model of the library behind static dispatch, for the 1 kHz loop.

use super::brush::BrushTire;
use super::calspan::CalspanTire;
use super::friction_table::FrictionTableTire;
use super::interface::{TireInput, TireModel, TireOutput};
use super::magic_formula::MagicFormula;
use super::side::{TyreSide, mirror_input, mirror_output};
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

    /// The tyre's vertical stiffness (N/m) and damping (N·s/m) at inflation pressure
    /// `pressure_pa` where its data give them: a Magic Formula file's `VERTICAL_STIFFNESS`
    /// times `1 + PFZ1 dpi` (`dpi = (p - NOMPRES) / NOMPRES`, versions with pressure terms; MF
    /// 6.1 equation manual) and `VERTICAL_DAMPING`.
    pub fn vertical_stiffness_and_damping(&self, pressure_pa: f64) -> Option<(f64, f64)> {
        let Tire::MagicFormula(m) = self else {
            return None;
        };
        let c = m.coefficients();
        let dpi = match m.nominal_pressure() {
            Some(p0) if pressure_pa.is_finite() && pressure_pa > 0.0 => (pressure_pa - p0) / p0,
            _ => 0.0,
        };
        let stiffness = c.vertical_stiffness * (1.0 + c.pfz1 * dpi);
        let damping = c.vertical_damping;
        (stiffness.is_finite() && stiffness > 0.0 && damping.is_finite() && damping >= 0.0)
            .then_some((stiffness, damping))
    }

    /// The relaxation lengths `(σκ, σα)` (m) that the tyre's data state for load `fz` (N),
    /// without camber: a Magic Formula 5.2 file's `PTX*` and `PTY*` (MF-Tyre 5.2 equation
    /// manual, as `MFeval` evaluates them): `σκ = Fz (PTX1 + PTX2 dfz) exp(-PTX3 dfz) R0 / Fz0'
    /// LSGKP` and `σα = PTY1 sin(2 atan(Fz / (PTY2 Fz0'))) R0 LFZO LSGAL`, with
    /// `Fz0' = FNOMIN LFZO` and `dfz = (Fz - Fz0') / Fz0'`. `None` where the file leaves
    /// `PTX1` or `PTY1` at zero (MF 6.x files, which give carcass stiffnesses instead) or the
    /// lengths come out not positive.
    pub fn stated_relaxation_lengths_m(&self, fz: f64) -> Option<(f64, f64)> {
        let Tire::MagicFormula(m) = self else {
            return None;
        };
        let c = m.coefficients();
        if !(c.ptx1 > 0.0 && c.pty1 > 0.0) {
            return None;
        }
        let fz0 = c.fnomin * c.lfzo;
        let r0 = c.unloaded_radius;
        let dfz = (fz - fz0) / fz0;
        let longitudinal =
            fz * (c.ptx1 + c.ptx2 * dfz) * (-c.ptx3 * dfz).exp() * r0 / fz0 * c.lsgkp;
        let lateral = c.pty1 * (2.0 * (fz / (c.pty2 * fz0)).atan()).sin() * r0 * c.lfzo * c.lsgal;
        (longitudinal.is_finite() && longitudinal > 0.0 && lateral.is_finite() && lateral > 0.0)
            .then_some((longitudinal, lateral))
    }

    /// The side of the car the tyre's data were measured on: a Magic Formula file's
    /// `TYRESIDE` (left when absent, as `MFeval` assumes); left for the other families, whose
    /// data are symmetric or taken as measured on the left.
    pub fn measured_side(&self) -> TyreSide {
        match self {
            Tire::MagicFormula(m) => m.measured_side(),
            _ => TyreSide::Left,
        }
    }

    /// The tyre as it runs on the `side` of a car: itself on the side its data were measured
    /// on, its mirror image on the other (see [`crate::tire::side`]). Every evaluation of a
    /// tyre on a car goes through this, so forces, slopes and telemetry see the same result.
    #[inline]
    pub fn on_side(&self, side: TyreSide) -> SidedTire<'_> {
        SidedTire {
            tire: self,
            mirrored: side != self.measured_side(),
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

/// A [`Tire`] on one side of a car ([`Tire::on_side`]): evaluated as measured, or mirrored
/// (`alpha` and `gamma` negated on the way in, `fy`, `mz` and `mx` on the way out).
#[derive(Clone, Copy, Debug)]
pub struct SidedTire<'a> {
    /// The tyre and its data.
    tire: &'a Tire,
    /// Whether the car's side is not the one the data were measured on.
    mirrored: bool,
}

impl SidedTire<'_> {
    /// Whether the tyre runs mirrored (on the side its data were not measured on).
    pub fn mirrored(&self) -> bool {
        self.mirrored
    }
}

impl TireModel for SidedTire<'_> {
    #[inline]
    fn evaluate(&self, input: &TireInput) -> TireOutput {
        if self.mirrored {
            mirror_output(self.tire.evaluate(&mirror_input(input)))
        } else {
            self.tire.evaluate(input)
        }
    }

    #[inline]
    fn evaluate_forces(&self, input: &TireInput) -> TireOutput {
        if self.mirrored {
            mirror_output(self.tire.evaluate_forces(&mirror_input(input)))
        } else {
            self.tire.evaluate_forces(input)
        }
    }

    #[inline]
    fn longitudinal_force(&self, input: &TireInput) -> f64 {
        if self.mirrored {
            self.tire.longitudinal_force(&mirror_input(input))
        } else {
            self.tire.longitudinal_force(input)
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

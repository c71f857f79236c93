//! The tyre library: one interface over six model families.
//!
//! # Sign conventions (ISO-W / TYDEX W contact frame)
//!
//! All models share the contact-patch frame that Magic Formula `.tir` files assume:
//! the origin is the contact point, **x** points forward along the wheel's heading in the
//! ground plane, **z** points up (normal to the road), **y** points to the left.
//!
//! - `kappa` (longitudinal slip) = `-(vx - omega * re) / |vx|` — positive when the tread moves
//!   backwards relative to the road (driving); **positive `kappa` gives positive `fx`**.
//!   `kappa = -1` is a locked wheel moving forward.
//! - `alpha` (slip angle, rad) = `atan(vsy / |vx|)` with `vsy` the lateral velocity of the
//!   contact point (positive to the left); **positive `alpha` gives negative `fy`**.
//!   A car turning right has positive slip angles at its tyres and lateral forces to the right
//!   (negative y).
//! - `gamma` (inclination / camber, rad): positive when the top of the wheel leans to the left
//!   (+y) in this frame.
//! - `mz` (aligning moment) is positive about +z; for small positive `alpha` it is positive, i.e.
//!   it turns the wheel back towards its direction of travel (self-aligning).
//! - `mx` (overturning moment) and `my` (rolling-resistance moment) about +x and +y.
//! - `fz` is the vertical load, positive pressing the tyre on the road. Zero or negative load
//!   gives zero forces and moments.
//!
//! The tests in `tests/tests/it/tire_conventions.rs` (package `gripline-tests`) check every
//! shipped tyre file of every family against these rules.
//!
//! # Families
//!
//! | module | model | source |
//! |---|---|---|
//! | [`magic_formula`] | Magic Formula 5.2 / 6.1 / 6.2 from `.tir` coefficients | MFeval-conformant |
//! | [`simplified_pacejka`] | `D sin(C atan(B s - E (B s - atan(B s))))` per direction | Wolfe, workshop III |
//! | [`brush`] | brush model, both branches, Mz from brush theory | Wolfe, workshop VI |
//! | [`calspan`] | Calspan / U.S. DOT composite slip | Buffalo tyre model |
//! | [`slip_velocity`] | friction curves by slip velocity (Flat … Pacejka) | Vehicle Physics Pro |
//! | [`friction_table`] | friction by slip ratio and slip angle, interpolated points | VR-Design Studio |
//!
//! The sources are described in `docs/sources.md`.
//!
//! [`Tire`] wraps any of them behind static dispatch for the 1 kHz loop.
//!
//! # Temperature, pressure and wear
//!
//! [`thermal`] adds, per tyre and only where its file gives thermal parameters, tread,
//! carcass, gas and rim temperatures, the hot gas pressure and wear. It acts on every family
//! through the inputs alone: the hot pressure replaces [`TireInput::pressure`] and the grip
//! factor scales [`TireInput::mu_scale`].

pub mod brush;
pub mod calspan;
pub mod friction_table;
pub mod magic_formula;
pub mod simplified_pacejka;
pub mod slip_velocity;
pub mod thermal;
pub mod trail;

use crate::validate::{Validate, Validator};

pub use brush::BrushTire;
pub use calspan::CalspanTire;
pub use friction_table::FrictionTableTire;
pub use magic_formula::MagicFormula;
pub use simplified_pacejka::SimplifiedPacejka;
pub use slip_velocity::SlipVelocityTire;
pub use trail::PneumaticTrail;

/// What a tyre model needs to know at one instant (ISO-W frame, SI units).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TireInput {
    /// Vertical load (N), positive pressing on the road.
    pub fz: f64,
    /// Longitudinal slip ratio (-), positive when driving.
    pub kappa: f64,
    /// Slip angle (rad), positive gives negative lateral force.
    pub alpha: f64,
    /// Inclination (camber) angle (rad).
    pub gamma: f64,
    /// Longitudinal speed of the wheel centre (m/s).
    pub vx: f64,
    /// Inflation pressure (Pa). Models without pressure terms ignore it.
    pub pressure: f64,
    /// Friction scale of the road surface relative to the surface the tyre data was measured
    /// on (1 = reference dry road).
    pub mu_scale: f64,
}

impl TireInput {
    /// A free-rolling, upright tyre at `fz` newtons and `vx` m/s on the reference surface,
    /// at 2.2 bar.
    pub fn rolling(fz: f64, vx: f64) -> Self {
        Self {
            fz,
            kappa: 0.0,
            alpha: 0.0,
            gamma: 0.0,
            vx,
            pressure: 2.2e5,
            mu_scale: 1.0,
        }
    }

    /// Returns a copy with the slip ratio set.
    #[must_use]
    pub fn with_kappa(mut self, kappa: f64) -> Self {
        self.kappa = kappa;
        self
    }

    /// Returns a copy with the slip angle (rad) set.
    #[must_use]
    pub fn with_alpha(mut self, alpha: f64) -> Self {
        self.alpha = alpha;
        self
    }

    /// Returns a copy with the inclination angle (rad) set.
    #[must_use]
    pub fn with_gamma(mut self, gamma: f64) -> Self {
        self.gamma = gamma;
        self
    }
}

/// What a tyre model returns (ISO-W frame, SI units). Every field is finite for finite input.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TireOutput {
    /// Longitudinal force (N).
    pub fx: f64,
    /// Lateral force (N).
    pub fy: f64,
    /// Aligning moment (N·m).
    pub mz: f64,
    /// Overturning moment (N·m); zero for models without one.
    pub mx: f64,
    /// Rolling-resistance moment (N·m); zero for models without one.
    pub my: f64,
    /// Longitudinal slip stiffness `dFx/dkappa` at zero slip (N), where the model defines it.
    pub slip_stiffness: Option<f64>,
    /// Cornering stiffness `dFy/dalpha` at zero slip angle (N/rad, negative in ISO-W), where the
    /// model defines it.
    pub cornering_stiffness: Option<f64>,
    /// Effective rolling radius (m), where the model defines it.
    pub effective_radius: Option<f64>,
}

impl TireOutput {
    /// True when every number in the output is finite.
    pub fn is_finite(&self) -> bool {
        // Plain tests rather than a chain of iterators: this runs for every wheel every tick.
        self.fx.is_finite()
            && self.fy.is_finite()
            && self.mz.is_finite()
            && self.mx.is_finite()
            && self.my.is_finite()
            && self.slip_stiffness.is_none_or(f64::is_finite)
            && self.cornering_stiffness.is_none_or(f64::is_finite)
            && self.effective_radius.is_none_or(f64::is_finite)
    }
}

/// The one interface every tyre model implements.
pub trait TireModel {
    /// Evaluates the steady-state forces and moments for `input`.
    ///
    /// Must return finite values for every finite input, including zero and negative load,
    /// zero speed, a locked wheel (`kappa = -1`) and huge slips.
    fn evaluate(&self, input: &TireInput) -> TireOutput;

    /// What a vehicle needs each tick: `fx`, `fy` and `mz` exactly as [`TireModel::evaluate`]
    /// gives them, bit for bit. The other fields may be left at zero or `None`, so a model
    /// can skip their work (the Magic Formula skips `Mx`, `My` and the effective radius).
    fn evaluate_forces(&self, input: &TireInput) -> TireOutput {
        self.evaluate(input)
    }

    /// `fx` exactly as [`TireModel::evaluate`] gives it, bit for bit: what a slope of the
    /// longitudinal force in the slip ratio needs (the Magic Formula computes only its
    /// longitudinal force for it).
    fn longitudinal_force(&self, input: &TireInput) -> f64 {
        self.evaluate(input).fx
    }
}

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

/// Vertical load actually carried: negative and non-finite loads count as zero.
#[inline]
pub(crate) fn effective_load(fz: f64) -> f64 {
    if fz.is_finite() && fz > 0.0 { fz } else { 0.0 }
}

/// Friction scale actually applied: negative and non-finite scales count as zero (no grip).
#[inline]
pub(crate) fn friction_scale(mu_scale: f64) -> f64 {
    if mu_scale.is_finite() && mu_scale > 0.0 {
        mu_scale
    } else {
        0.0
    }
}

/// Keeps an output finite: NaN becomes 0, overflow saturates at `±f64::MAX`.
#[inline]
pub(crate) fn saturate(x: f64) -> f64 {
    if x.is_nan() {
        0.0
    } else {
        x.clamp(-f64::MAX, f64::MAX)
    }
}

/// `x` where finite, else zero.
#[inline]
pub(crate) fn finite_or_zero(x: f64) -> f64 {
    if x.is_finite() { x } else { 0.0 }
}

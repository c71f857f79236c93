//! The one interface every tyre model implements ([`TireModel`]): what a model is given
//! ([`TireInput`]) and what it returns ([`TireOutput`]), in the ISO-W frame of
//! [`crate::tire`]'s sign conventions.

/// What a tyre model needs to know at one instant (ISO-W frame, SI units).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TireInput {
    /// Vertical load (N), positive pressing on the road.
    pub fz: f64,
    /// Longitudinal slip ratio (-), positive when driving.
    pub kappa: f64,
    /// Slip angle (rad), positive gives negative lateral force.
    pub alpha: f64,
    /// Inclination (camber) angle (rad, ISO): positive when the top of the wheel leans to -y;
    /// positive gives negative lateral force at zero slip.
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

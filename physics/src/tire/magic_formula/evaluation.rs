//! [`MfEvaluation`]: everything one Magic Formula evaluation computes.

/// Everything one Magic Formula evaluation computes, `MFeval`'s names in snake case.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MfEvaluation {
    /// Longitudinal force `Fx` (N).
    pub fx: f64,
    /// Lateral force `Fy` (N).
    pub fy: f64,
    /// Aligning moment `Mz` (N·m).
    pub mz: f64,
    /// Overturning moment `Mx` (N·m).
    pub mx: f64,
    /// Rolling-resistance moment `My` (N·m).
    pub my: f64,
    /// Longitudinal slip stiffness `Kxk` (N).
    pub kxk: f64,
    /// Cornering stiffness `Kya` (N/rad), negative for usual tyres, at the current camber.
    pub kya: f64,
    /// Longitudinal friction coefficient `mux` (-).
    pub mux: f64,
    /// Lateral friction coefficient `muy` (-).
    pub muy: f64,
    /// Pneumatic trail `t` (m).
    pub t: f64,
    /// Residual aligning torque `Mzr` (N·m).
    pub mzr: f64,
    /// Effective rolling radius `Re` (m).
    pub re: f64,
    /// Wheel spin `omega` (rad/s) that `MFeval` derives from `Vx`, `kappa` and `Re`.
    pub omega: f64,
}

//! Magic Formula 5.2 / 6.1 / 6.2 (Pacejka) steady-state tyre model, conformant with `MFeval`.
//!
//! [`MagicFormula`] evaluates the steady-state combined-slip forces and moments of a `.tir`
//! coefficient set exactly as `MFeval` (Marco Furlan's MATLAB evaluator, and its bit-for-bit
//! Julia port `MFeval.jl`) does in **`useMode` 221**:
//!
//! - combined slip forces and moments: `Fx`, `Fy`, `Mz`, `Mx`, `My`;
//! - the `alpha*` definition: `alpha* = tan(alpha) * sign(Vcx)`, `gamma* = sin(gamma)`;
//! - no input limit checks and no low-speed reductions (unless [`MagicFormula::with_input_limits`]
//!   turns them on, which reproduces `MFeval`'s `useMode` 121);
//! - no turn slip.
//!
//! Which equations are used follows the `FITTYP` of the file, as in `MFeval`: FITTYP 6 or 21 is
//! MF 5.2 (its own `SHy`, `Mz` and `My` equations, and no pressure terms: the input pressure is
//! ignored), 61 is MF 6.1, and 62 is MF 6.2, which for steady-state forces and moments uses the
//! MF 6.1 equations (`MFeval`'s MF 6.2 specifics concern the loaded radius and contact patch,
//! which this model does not output).
//!
//! The pieces of `MFeval` that look odd but are reproduced on purpose: the `1e-6` epsilons that
//! keep `Bx`, `By` and the `Kya` quotients finite at zero load, the sign flips of `Fx0`, `Fy0`
//! and `My` at negative speed, the pneumatic trail multiplied by `LFZO`, the pneumatic-trail and
//! residual-torque factors `Bt` and `Dt` of the Besselink paper (raw `gamma`, not `gamma*`), the
//! `FZMIN`-based low-load reductions of `Mx` (`Fz (Fz/FZMIN)^2`) and `My` (`Fz (Fz/FZMIN)`),
//! and `My`'s interpolation near a locked wheel.
//!
//! # Surface friction
//!
//! [`TireInput::mu_scale`](crate::tire::TireInput::mu_scale) multiplies the friction scaling factors `LMUX` and `LMUY` of the
//! file. Through them it acts wherever `MFeval`'s `LMUX*`/`LMUY*` (and `LMUX'`/`LMUY'`, equal to
//! them since `MFeval` fixes `Amu = 1` and `LMUV = 0`) appear: the peak friction `mux`, `muy`, the
//! vertical shifts `SVx`, `SVy`, `SVyg`, the kappa-induced side force, and in `Mz` the trail and
//! residual-torque stiffnesses `Bt`, `Br` (divided by `LMUY*`) and the residual-torque peak
//! `Dr`. This is the standard way to model a road of different grip with a Magic Formula tyre,
//! and `mu_scale = 1` reproduces `MFeval` exactly. `mu_scale` is held within `[1e-6, 1e3]` (a
//! zero would divide `Bt`); a non-finite value counts as 1.
//!
//! # Robustness
//!
//! `MFeval` is not defined for every input; a simulator needs finite output for every finite
//! input. So, beyond `MFeval`:
//!
//! - zero, negative or non-finite load gives zero forces and moments (`MFeval` gives the same
//!   forces at `Fz = 0` after clamping negative loads to zero);
//! - zero, negative or non-finite pressure means the file's `INFLPRES` (`MFeval`: zero only);
//! - inputs far outside any physical range are held to a sanity envelope that no real tyre
//!   reaches: `|kappa| <= 1e8`, `|Vx| <= 1e4` m/s, `Fz <= 1e8` N, `|gamma| <= pi/2`,
//!   pressure `<= 1e9` Pa; non-finite slips, speed and camber count as zero;
//! - should anything still come out non-finite (a degenerate coefficient set), that value is
//!   replaced by zero (the effective radius by `UNLOADED_RADIUS`).
//!
//! # Performance
//!
//! [`MagicFormula::evaluate`](crate::tire::TireModel::evaluate) allocates nothing and branches little; what depends only on the
//! coefficients is computed once in [`MagicFormula::new`]. The pure-lateral force at zero
//! camber that the MF 6.x aligning moment needs is not evaluated a second time when the
//! camber is zero and no low-speed reduction acts (it is then equal to `Fy0`).
//! [`TireModel::evaluate_forces`](crate::tire::TireModel::evaluate_forces) skips `Mx`, `My` and the effective radius, which a vehicle
//! does not use, and [`TireModel::longitudinal_force`](crate::tire::TireModel::longitudinal_force) computes only `Fx`; both give the same
//! bits as [`TireModel::evaluate`](crate::tire::TireModel::evaluate) (the equations live in `equations.rs`). The arc tangents,
//! some twenty per evaluation, come from `fast_atan.rs` (Cephes' rational approximation, within
//! a couple of units in the last place of `f64::atan`, at well under half its cost): the
//! outputs differ from an evaluation with `f64::atan` in the last bits only, far inside the
//! `1e-6` of the `MFeval` conformance tests. The sines and cosines come from `fast_sin_cos.rs`
//! (`fdlibm`'s kernels after a Cody-Waite reduction by `pi/2`, `rem_pio2.rs`), within one unit
//! in the last place of `f64::sin` and `f64::cos` and cheaper, and the residual torque's
//! `cos(atan(x))` is `1 / sqrt(1 + x^2)`. (The C library's `tan` is as cheap as `fdlibm`'s.)

mod coefficients;
mod equations;
mod evaluation;
mod fast_atan;
mod fast_sin_cos;
mod model;
mod outputs;
mod rem_pio2;
mod version;

pub use coefficients::{Dimension, MfCoefficients};
pub use evaluation::MfEvaluation;
pub use model::MagicFormula;
pub use version::MfVersion;

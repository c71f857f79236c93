//! Which outputs one Magic Formula evaluation computes: the `OUT` parameter of the equations
//! (`equations.rs`). What is computed is computed by the same operations in every case, so it
//! is bit for bit the same.

/// Every output (`MFeval`'s whole steady state).
pub(super) const ALL: u8 = 0;
/// `Fx`, `Fy`, `Mz` and the quantities computed on the way (stiffnesses, friction, trail).
pub(super) const FORCES: u8 = 1;
/// `Fx` only (with `Kxk` and `mux`).
pub(super) const FX: u8 = 2;

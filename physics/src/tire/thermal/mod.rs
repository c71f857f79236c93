//! Tyre temperatures, gas pressure and wear: a lumped-capacitance thermal model per tyre.
//!
//! Opt-in per tyre file ([`TyreThermalParams`]): a tyre without thermal parameters is
//! evaluated exactly as before (its set pressure, the road's friction scale). With them, the
//! vehicle keeps a [`TyreThermalState`] per wheel, advances it every physics step, and feeds
//! the tyre model the hot pressure ([`crate::tire::TireInput::pressure`]) and the road's
//! friction scaled by the grip factor ([`crate::tire::TireInput::mu_scale`]), which every
//! family honours.
//!
//! # Network
//!
//! Four nodes, each one temperature and one heat capacity `C`: the **tread** (the outer
//! rubber, what a pyrometer reads), the **carcass** (belts, plies, sidewalls, liner), the
//! inflation **gas** and the **rim** (the wheel, which the brakes heat). They form a chain
//! tread - carcass - gas - rim with conductances `G_tc`, `G_cg`, `G_rg` (W/K):
//!
//! ```text
//! C_t dT_t/dt = f_s P_slide + f_r P_roll - G_tc (T_t - T_c) - h A_t (T_t - T_air) - G_road (T_t - T_track)
//! C_c dT_c/dt = (1 - f_r) P_roll + G_tc (T_t - T_c) - G_cg (T_c - T_g) - h A_s (T_c - T_air)
//! C_g dT_g/dt = G_cg (T_c - T_g) + G_rg (T_r - T_g)
//! C_r dT_r/dt = f_b P_brake - G_rg (T_r - T_g) - h A_r (T_r - T_air)
//!
//! P_slide = |Fx Vsx| + |Fy Vsy|                    sliding power at the contact patch
//! P_roll  = T_rr |omega| = Fz (c0 + c1 |vx|) r |omega|   rolling (hysteresis) loss
//! P_brake = T_brake |omega|
//! h       = h0 + h1 (v / 1 m/s)^0.8                convection, rising with the air speed
//! ```
//!
//! `G_road` acts only while the tyre touches the ground. The gas exchanges heat only with the
//! carcass and the rim (it touches nothing else), so it settles at their conductance-weighted
//! mean, and its tiny capacity makes it follow them within seconds.
//!
//! The step is backward Euler on this linear system: one tridiagonal solve of four unknowns,
//! stable at any step and exact in its energy bookkeeping between the nodes (what leaves one
//! node enters its neighbour). At 1 ms the fastest time constant, the gas's
//! `C_g / (G_cg + G_rg)` of about 4 s, is resolved thousands of times over.
//!
//! # Pressure, grip and wear
//!
//! - Pressure: ideal gas at constant volume from the cold set-up ([`gas`]).
//! - Grip: a window over the tread temperature times a wear factor ([`window`]).
//! - Wear: `dw/dt = k_w P_slide`, the fraction of the tread used, clamped to 0..1: it grows
//!   with sliding energy only, never with free rolling.
//!
//! # Files
//!
//! | file | what |
//! |---|---|
//! | [`params`] | [`TyreThermalParams`]: every parameter, its unit and its default's reasoning |
//! | [`model`] | [`TyreThermalState`], [`ThermalLoads`] and the step |
//! | [`gas`] | the ideal gas law, gauge and absolute pressure |
//! | [`window`] | grip from temperature and wear |

pub mod gas;
pub mod model;
pub mod params;
pub mod window;

#[cfg(test)]
mod tests;

pub use model::{ThermalLoads, TyreThermalState};
pub use params::TyreThermalParams;
pub use window::grip_factor;

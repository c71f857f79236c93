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
//! - `gamma` (inclination / camber, rad): ISO, a rotation of the wheel about +x, **positive
//!   when the top of the wheel leans to the right (-y)** in this frame: the convention of the
//!   `.tir` files' camber coefficients (`PKY6`, `PVY3`, ...). **Positive `gamma` gives negative
//!   `fy`** at zero slip: the camber thrust points the way the wheel leans. Every family that
//!   models camber (Magic Formula, Calspan) follows it; the others ignore `gamma`.
//! - `mz` (aligning moment) is positive about +z; for small positive `alpha` it is positive, i.e.
//!   it turns the wheel back towards its direction of travel (self-aligning).
//! - `mx` (overturning moment) and `my` (rolling-resistance moment) about +x and +y.
//! - `fz` is the vertical load, positive pressing the tyre on the road. Zero or negative load
//!   gives zero forces and moments.
//!
//! A tyre's data are for one side of the car (a `.tir` file's `TYRESIDE`, left when absent);
//! on the other side it runs as its mirror image ([`Tire::on_side`], [`side`]).
//!
//! A car's camber is given in car terms instead of `gamma` (`static_camber_deg`, the Garage's
//! `camber_deg`, telemetry's `camber_rad`): negative when the top of the wheel leans towards
//! the car's centre, on both sides. On the left wheel `gamma = -camber`; on the right wheel
//! `gamma = +camber` in the car's frame. The tyre on the side its data were not measured on
//! runs as their mirror image, so a left-measured tyre's data see `gamma = -camber` on both
//! sides (a right-measured one's `+camber`): negative camber is a positive inclination of every
//! left-measured tyre as measured, and its thrust pulls each wheel towards the car's centre.
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
pub mod dispatch;
pub mod friction_table;
pub mod interface;
pub mod load_sensitivity;
pub mod magic_formula;
mod sanitise;
pub mod side;
pub mod simplified_pacejka;
pub mod slip_velocity;
pub mod thermal;
pub mod trail;

pub use brush::BrushTire;
pub use calspan::CalspanTire;
pub use dispatch::{SidedTire, Tire};
pub use friction_table::FrictionTableTire;
pub use interface::{TireInput, TireModel, TireOutput};
pub use magic_formula::MagicFormula;
pub use side::TyreSide;
pub use simplified_pacejka::SimplifiedPacejka;
pub use slip_velocity::SlipVelocityTire;
pub use trail::PneumaticTrail;

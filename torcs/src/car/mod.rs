//! TORCS and Speed Dreams cars (`cars/NAME/NAME.xml` with `categories/CATEGORY.xml`) as
//! Gripline vehicles: the car file merged over its category's, read with TORCS's defaults,
//! and mapped onto [`VehicleParams`](gripline_physics::vehicle::VehicleParams) and
//! simplified Pacejka tyres, as `docs/torcs-cars.md` tabulates field by field.
//!
//! - [`merge`]: the category and car files merged as TORCS merges them.
//! - [`figures`]: numbers read with TORCS's defaults.
//! - [`convert`]: chassis, body, axles, suspension, steering, brakes and aero;
//!   [`powertrain`]: engine, gearbox and differentials; [`tyre`]: the tyres; [`aids`]: ABS
//!   and traction control tuned to the tyres; [`launch_band`]: the automatic clutch's launch
//!   band fitted to the tyres' grip.
//! - [`load`]: [`load::load_torcs_car`] loads a car file into a
//!   [`LoadedVehicle`](gripline_formats::vehicle_file::LoadedVehicle);
//!   [`load::load_any_vehicle`] takes any vehicle a drive names (`torcs:NAME` included).
//! - [`discover`]: installed cars in the TORCS and Speed Dreams data folders and in
//!   `$GRIPLINE_TORCS_CARS`.

pub mod aids;
pub mod convert;
pub mod discover;
pub mod figures;
pub mod launch_band;
pub mod load;
pub mod merge;
pub mod powertrain;
pub mod tyre;

//! The driving aids of a drive: the car's own ABS and traction control, switched on or off
//! as the settings say.

use gripline_config::Aids;
use gripline_physics::vehicle::AidParams;

/// The car's own aid parameters with ABS and traction control switched as the settings say.
pub fn aids_for(car: &AidParams, switches: Aids) -> AidParams {
    AidParams {
        abs_enabled: switches.abs,
        tc_enabled: switches.traction_control,
        ..car.clone()
    }
}

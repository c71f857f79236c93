//! One flying lap of the autopilot, tick by tick, shared by the tests that step a car
//! themselves and check something on every tick.

use gripline_physics::controls::Controls;
use gripline_physics::driver::DriverModel;
use gripline_sim::session::Session;

/// Most ticks a lap may take (400 s at 1 kHz).
pub const MAX_LAP_TICKS: u64 = 400_000;

/// Calls `step(session, controls, dt_s, tick)` with the autopilot's controls on every tick of
/// one lap of `session`'s track, from where the car stands until the autopilot's station
/// wraps past the start line (after the first second); `step` steps the car. Returns the
/// number of ticks.
///
/// # Panics
/// When the track has no autopilot, or the lap takes more than [`MAX_LAP_TICKS`].
pub fn for_each_tick_of_a_lap(
    session: &mut Session,
    mut step: impl FnMut(&mut Session, &Controls, f64, u64),
) -> u64 {
    let length = session
        .autopilot()
        .expect("the track has an autopilot")
        .path()
        .length();
    let dt = session.step_s();
    let mut previous_station = 0.0;
    for tick in 1..=MAX_LAP_TICKS {
        let controls = session.autopilot_controls().expect("autopilot");
        step(session, &controls, dt, tick);
        let station = session
            .autopilot()
            .and_then(DriverModel::last_projection)
            .map_or(0.0, |p| p.station);
        if tick > 1000 && previous_station > 0.9 * length && station < 0.1 * length {
            return tick;
        }
        previous_station = station;
    }
    panic!("the lap did not finish in {MAX_LAP_TICKS} ticks");
}

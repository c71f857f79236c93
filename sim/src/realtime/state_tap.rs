//! A [`StateTap`] follows the sim thread's state tick by tick on that thread, for outputs
//! that need every tick rather than the renderer's interpolated frames: the sound. It must
//! not allocate, lock or wait (it runs inside the tick's budget); to hand the state to another
//! thread it pushes into a wait-free ring and drops what does not fit.

use gripline_physics::vehicle::{Snapshot, Vehicle};

/// Follows the state after every tick (see the module docs).
pub trait StateTap: Send {
    /// The session drives `vehicle` from now on (the first car, or a swap). May allocate:
    /// it happens once per car.
    fn car_changed(&mut self, vehicle: &Vehicle);

    /// The state after a tick of `step_s` seconds; `paused` when the simulation is paused
    /// (the state is then the last one, repeated).
    fn tick(&mut self, snapshot: &Snapshot, step_s: f64, paused: bool);
}

/// Several taps behind one (the sound and the telemetry out), called in order.
pub struct TapGroup(pub Vec<Box<dyn StateTap>>);

impl StateTap for TapGroup {
    fn car_changed(&mut self, vehicle: &Vehicle) {
        for tap in &mut self.0 {
            tap.car_changed(vehicle);
        }
    }

    fn tick(&mut self, snapshot: &Snapshot, step_s: f64, paused: bool) {
        for tap in &mut self.0 {
            tap.tick(snapshot, step_s, paused);
        }
    }
}

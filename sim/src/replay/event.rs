//! What a replay records: every change a [`crate::session::Session`] goes through, in order.
//!
//! A session starts at rest at its start pose, fresh from [`crate::session::Session::new`];
//! from then on only these events change it, so applying them again to a fresh session of
//! the same car and world re-simulates it bit for bit (same build, same files).

use gripline_physics::controls::Controls;
use gripline_physics::powertrain::GearboxMode;
use gripline_physics::vehicle::AidParams;

/// One change to a session (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub enum JournalEvent {
    /// One physics tick with these (sanitised) controls.
    Step(Controls),
    /// Back to the start pose, at rest ([`crate::session::Session::reset_to_start`]).
    Reset,
    /// Back on the road at the nearest safe point, at once: the reset key
    /// ([`crate::session::Session::recover`]). The recoveries a step makes by itself are
    /// not recorded: replaying the step makes them again.
    Recover,
    /// A new start pose and gearbox mode ([`crate::session::Session::place`]).
    Place {
        /// Ground-plane position (m).
        x_m: f64,
        /// Ground-plane position (m).
        y_m: f64,
        /// Heading (rad from +x).
        heading_rad: f64,
        /// Gearbox mode.
        mode: GearboxMode,
    },
    /// The player's gearbox mode, kept across resets.
    GearboxMode(GearboxMode),
    /// The gearbox mode until the next reset (a procedure holding a gear).
    PowertrainMode(GearboxMode),
    /// A gear engaged directly (a procedure's neutral).
    Gear(i8),
    /// The car set rolling at this forward speed (m/s).
    ForwardSpeed(f64),
    /// New driver aids.
    Aids(AidParams),
    /// A new physics step (s).
    StepSize(f64),
}

/// Where a session writes its [`JournalEvent`]s (a replay recorder). Called on the sim
/// thread: implementations must not block or allocate.
pub trait SessionJournal: Send {
    /// Records `event`. For [`JournalEvent::Step`], `after` is the state the step produced
    /// (for the recorder's periodic state checks).
    fn record(&mut self, event: &JournalEvent, after: Option<&gripline_physics::vehicle::Snapshot>);
}

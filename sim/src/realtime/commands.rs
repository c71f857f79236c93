//! What the UI tells the sim thread, and what the sim thread tells the UI back.
//!
//! Both travel through wait-free SPSC rings (`rtrb`): [`Command`]s UI → sim, applied at the
//! start of the next tick; [`SimEvent`]s sim → UI, drained by the UI each frame. Heavy things
//! (a new [`Session`], new bindings) are built on the UI side or a loader thread and moved
//! in boxed; what they replace is moved back in a [`SimEvent::Retired`] so that it is freed
//! off the sim thread.

use gripline_input::bindings::InputNotice;
use gripline_input::ffb::device_facts::FfbDeviceFacts;
use gripline_input::ffb::direction_check::DirectionOutcome;
use gripline_input::ffb::runaway::RunawayCause;
use gripline_input::settings::bindings::Bindings;
use gripline_input::settings::ffb_settings::FfbSettings;
use gripline_physics::powertrain::GearboxMode;
use gripline_physics::vehicle::AidParams;

use super::rig::FfbLink;
use crate::recovery::Recovery;
use crate::session::Session;

/// A command from the UI to the sim thread.
#[derive(Debug)]
pub enum Command {
    /// Stop advancing the simulation (snapshots keep coming, with `paused` set).
    Pause,
    /// Advance again.
    Resume,
    /// Pause when running, resume when paused.
    TogglePause,
    /// Put the car back at its start pose, at rest, its clock at zero (a new run).
    Reset,
    /// Put the car back on the road at the nearest safe point, at rest, at once (the reset
    /// key and the pause menu's "Reset car": [`crate::recovery`]).
    Recover,
    /// Let the driver model drive (`true`) or the player (`false`). Stays off in a world
    /// without a closed centre line, and comes back on after a swap to one with a line.
    /// Engaging it selects the automatic gearbox.
    SetAutopilot(bool),
    /// Gearbox mode from the next tick.
    SetGearboxMode(GearboxMode),
    /// Driver aids from the next tick (invalid settings are ignored: validate them first
    /// with `gripline_physics::validate::Validate::check`).
    SetAids(AidParams),
    /// Replace the car and world by a session loaded off-thread ([`super::SessionLoader`]).
    /// The old session comes back as [`Retired::Session`].
    Swap(Box<Session>),
    /// New bindings and calibration for the control mapper. Connected devices keep their
    /// state. The mapper compiles its own copy (this allocates on the sim thread, once per
    /// settings change); the box comes back as [`Retired::Bindings`] to be freed by the UI.
    ApplyBindings(Box<Bindings>),
    /// The user's new force-feedback settings. The sim thread rebuilds the pipeline from them
    /// and the facts of the device it drives (peak, invert, rotation), which only
    /// [`Command::SetFfbLink`] changes. The previous settings come back as
    /// [`Retired::FfbSettings`].
    SetFfbSettings(Box<FfbSettings>),
    /// A newly opened force-feedback device (or none) replaces the one in use: the old one
    /// is silenced and comes back as [`Retired::FfbLink`]; the new one fades in.
    SetFfbLink(Box<FfbLink>),
    /// Force-feedback kill switch: zero torque at once, until [`Command::EnableFfb`].
    KillFfb,
    /// Re-enable force feedback after a kill (fades in).
    EnableFfb,
    /// Sleep this long inside the tick: a stall, for tests of the catch-up (feature
    /// `test-support`, never in the release binary).
    #[cfg(feature = "test-support")]
    Stall(std::time::Duration),
    /// Play a force-feedback test effect (from the settings screen), paused or not.
    FfbTest(FfbTest),
    /// Device facts (peak, invert, rotation) edited on the settings screen and not applied
    /// yet, to play tests with (`Some`), or back to the facts of the device in use (`None`:
    /// Cancel, Apply). Increases of strength ramp in as for any change.
    PreviewFfbFacts(Option<FfbDeviceFacts>),
    /// Hold the simulation paused (`true`: the settings screen is open) whatever the player
    /// presses, or release the hold (`false`; the sim stays paused until resumed).
    HoldPause(bool),
    /// Run the direction check (from the settings screen), paused or not: after the fade-in,
    /// a pulse of [`gripline_input::ffb::direction_check::DIRECTION_PULSE_FRACTION`] of the
    /// user's maximum in force, to the left, then the wheel's angle decides; the answer comes
    /// back as [`SimEvent::FfbDirection`]. Replaces a test effect that is playing.
    CheckFfbDirection,
}

/// A force-feedback test effect: its torque replaces the car's while it plays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FfbTest {
    /// A push towards the left (N·m, positive), for `PULSE_S` seconds.
    PulseLeft(f64),
    /// A push towards the right.
    PulseRight(f64),
    /// A centring spring whose stiffness sweeps from zero to `max_nm` at a quarter turn,
    /// over `SWEEP_S` seconds: turn the wheel and feel it stiffen.
    SpringSweep(f64),
}

impl FfbTest {
    /// How long a pulse lasts (s), fade-in included.
    pub const PULSE_S: f64 = 1.0;
    /// How long the spring sweep lasts (s).
    pub const SWEEP_S: f64 = 4.0;

    /// The torque at `t` seconds into the effect (positive turns the wheel left), with the
    /// steering wheel at `wheel_rad`; `None` once the effect is over.
    pub fn torque_nm(self, t: f64, wheel_rad: f64) -> Option<f64> {
        let finite = |x: f64| if x.is_finite() { x } else { 0.0 };
        match self {
            Self::PulseLeft(nm) if t < Self::PULSE_S => Some(finite(nm).abs()),
            Self::PulseRight(nm) if t < Self::PULSE_S => Some(-finite(nm).abs()),
            Self::SpringSweep(max_nm) if t < Self::SWEEP_S => {
                let stiffness =
                    finite(max_nm).abs() / std::f64::consts::FRAC_PI_2 * (t / Self::SWEEP_S);
                let torque = -stiffness * finite(wheel_rad);
                Some(torque.clamp(-finite(max_nm).abs(), finite(max_nm).abs()))
            }
            _ => None,
        }
    }
}

/// Something the UI frees for the sim thread.
#[derive(Debug)]
pub enum Retired {
    /// A session replaced by [`Command::Swap`].
    Session(Box<Session>),
    /// The bindings of a [`Command::ApplyBindings`], once compiled into the mapper.
    Bindings(Box<Bindings>),
    /// Force-feedback settings replaced by [`Command::SetFfbSettings`].
    FfbSettings(Box<FfbSettings>),
    /// A force-feedback device replaced by [`Command::SetFfbLink`] (its writer thread is
    /// joined when this is dropped).
    FfbLink(Box<FfbLink>),
}

/// A message from the sim thread to the UI.
#[derive(Debug)]
pub enum SimEvent {
    /// Something to drop on the UI side.
    Retired(Retired),
    /// The input layer's notice (a device connected or was lost; on a lost device that
    /// carried controls the sim has already paused).
    Input(InputNotice),
    /// The player pressed the "next camera" binding.
    NextCamera,
    /// The car was put back on the road: upside down, stuck, out of the world, or the reset
    /// key ([`crate::recovery`]).
    CarRecovered(Recovery),
    /// The force-feedback backend failed a write (an unplug or any other I/O error); force
    /// feedback is stopped and the device is to be reopened, like after an unplug.
    FfbFailed,
    /// The emergency stop (`ffb::emergency::stop_all`, run by the panic hook) stopped the
    /// force-feedback writer: force feedback stays off, and is not reopened, until the user
    /// turns it back on. Sent once.
    FfbEmergencyStopped,
    /// The user turned force feedback back on after an emergency stop: open the device
    /// again (the stopped writer cannot restart); the new link fades in.
    FfbReopen,
    /// Auto-gain proposes this master gain at the end of a lap (at most
    /// [`gripline_input::ffb::effects::auto_gain::MAX_RISE_PER_LAP`] times the gain in
    /// force); nothing changes until the user accepts it.
    AutoGainProposal(f64),
    /// The runaway trip cut force feedback (the wheel ran away past the car's lock); it
    /// stays off until [`Command::EnableFfb`].
    FfbRunaway(RunawayCause),
    /// The tick observer (the sound, the telemetry out) failed with this error and was
    /// detached: the simulation runs on without it.
    ObserverFailed(anyhow::Error),
    /// A direction check ([`Command::CheckFfbDirection`]) ended.
    FfbDirection {
        /// What it found, for the direction in force.
        outcome: DirectionOutcome,
        /// The invert the device was driven with during the check: a
        /// [`DirectionOutcome::Reversed`] means the opposite is right.
        invert: bool,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pulses_push_each_way_for_their_duration_then_end() {
        assert_eq!(FfbTest::PulseLeft(2.0).torque_nm(0.1, 0.0), Some(2.0));
        assert_eq!(FfbTest::PulseRight(2.0).torque_nm(0.9, 0.3), Some(-2.0));
        assert_eq!(
            FfbTest::PulseLeft(2.0).torque_nm(FfbTest::PULSE_S, 0.0),
            None
        );
        assert_eq!(FfbTest::PulseLeft(f64::NAN).torque_nm(0.1, 0.0), Some(0.0));
    }

    #[test]
    fn the_spring_sweep_centres_and_stiffens() {
        let spring = FfbTest::SpringSweep(4.0);
        // Wheel turned left (positive): the spring pulls right (negative), harder later.
        let early = spring.torque_nm(1.0, 0.5).unwrap();
        let late = spring.torque_nm(3.0, 0.5).unwrap();
        assert!(early < 0.0 && late < early, "{early} {late}");
        // At the end of the sweep a quarter turn gives the full torque: k = 4 N·m / (π/2).
        let end = spring
            .torque_nm(FfbTest::SWEEP_S - 1e-9, std::f64::consts::FRAC_PI_2)
            .unwrap();
        assert!((end + 4.0).abs() < 1e-6, "{end}");
        // Never beyond the maximum, and centred at zero.
        assert!(spring.torque_nm(3.9, 10.0).unwrap() >= -4.0);
        assert!(spring.torque_nm(2.0, 0.0).unwrap().abs() < 1e-12);
        assert_eq!(spring.torque_nm(FfbTest::SWEEP_S, 0.5), None);
    }
}

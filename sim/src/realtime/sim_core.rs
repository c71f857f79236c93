//! [`SimCore`]: everything one tick of the sim thread does, separate from the thread and its
//! scheduling so that tests can drive it tick by tick (and check that it does not allocate).
//!
//! One tick at time `now`:
//! 1. apply the queued [`Command`]s;
//! 2. poll the rig's input devices and map them to this tick's controls and actions (reset:
//!    a recovery, pause, camera, FFB kill switch from the bindings); a lost device that
//!    carried controls pauses the session;
//! 3. unless paused: the autopilot's or the player's controls, one physics step, the lap
//!    timer, the wheels' rotation; a car upside down, stuck or out of the world is put back
//!    on the road at rest ([`crate::recovery`]) and the UI told
//!    ([`SimEvent::CarRecovered`]);
//! 4. the steering-column torque to the force-feedback output (or a settings-screen test
//!    effect's or direction check's torque instead); a runaway trip is told to the UI;
//! 5. the tick-stamped state to the snapshot ring (dropped and counted when the ring is full),
//!    and to the [`TickObserver`] if one is set (the sound, the telemetry out).
//!
//! Nothing here allocates, locks, logs or touches files, with these exceptions, which all
//! happen on rare events, never in steady state: a device connecting (the mapper reserves its
//! slot), `Command::ApplyBindings` (the mapper compiles the bindings), freeing a retired
//! session or bindings when the event ring to the UI is full, and an observer that fails
//! (it is dropped here, and its error sent to the UI as [`SimEvent::ObserverFailed`]).

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use gripline_input::bindings::InputNotice;
use gripline_input::ffb::backend::FfbError;
use gripline_input::ffb::direction_check::{DirectionCheck, DirectionStep};
use gripline_input::ffb::effects::FeelInput;
use gripline_input::ffb::output::FfbTick;
use gripline_input::ffb::pipeline::FfbStep;
use gripline_input::ffb::ramp::STRENGTH_RAMP_S;
use gripline_input::ffb::safety::StopReason;
use gripline_physics::powertrain::GearboxMode;
use rtrb::{Consumer, Producer, RingBuffer};

use gripline_input::device::{DeviceId, InputEvent};

use super::commands::{Command, FfbTest, Retired, SimEvent};
use super::prefault::prefault_ring;
use super::rig::{Rig, RigTorque};
use super::snapshot_ring::{HudFrame, SnapshotConsumer, SnapshotProducer, Stamped, snapshot_ring};
use super::stats::SharedStats;
use crate::observer::TickObserver;
use crate::session::Session;

/// Commands applied per tick at most (the rest wait for the next tick).
pub const COMMANDS_PER_TICK: usize = 32;

/// The sim thread's state (see the module docs).
#[allow(clippy::struct_excessive_bools)] // independent states of the loop
pub struct SimCore {
    session: Box<Session>,
    rig: Rig,
    commands: Consumer<Command>,
    snapshots: SnapshotProducer,
    events: Producer<SimEvent>,
    raw_input: Producer<InputEvent>,
    stats: Arc<SharedStats>,
    ffb_test: Option<(FfbTest, Duration)>,
    /// A running direction check and when it started.
    direction_check: Option<(DirectionCheck, Duration)>,
    /// The force-feedback level sent in the last tick (for the direction check).
    last_ffb_level: f64,
    paused: bool,
    /// The settings screen holds the pause ([`Command::HoldPause`]).
    pause_held: bool,
    autopilot: bool,
    /// What the player asked for: kept across swaps to a world without autopilot and back.
    autopilot_wanted: bool,
    tick: u64,
    epoch: u32,
    wheel_rotation_rad: [f64; 4],
    ffb_started: bool,
    /// Force feedback is off after a backend error (zero was sent) until a new link or the
    /// user's re-enable.
    ffb_down: bool,
    /// The emergency stop (a panic somewhere, `ffb::emergency`) stopped the writer: force
    /// feedback stays off, through new links too, until the user re-enables it
    /// ([`Command::EnableFfb`]), which asks the UI to open the device again
    /// ([`SimEvent::FfbReopen`]).
    ffb_emergency: bool,
    /// Laps completed as last seen, to notice the end of a lap (auto-gain).
    laps_seen: u32,
    /// Pause once the session has run this many ticks ([`SimCore::hold_at_tick`]).
    hold_at_tick: Option<u64>,
    observer: Option<Box<dyn TickObserver>>,
}

impl std::fmt::Debug for SimCore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SimCore")
            .field("session", &self.session)
            .field("tick", &self.tick)
            .field("epoch", &self.epoch)
            .field("paused", &self.paused)
            .field("autopilot", &self.autopilot)
            .finish_non_exhaustive()
    }
}

/// The rings a [`SimCore`] talks through, sim-side ends.
#[derive(Debug)]
pub struct CoreRings {
    /// Commands from the UI.
    pub commands: Consumer<Command>,
    /// Snapshots to the renderer.
    pub snapshots: SnapshotProducer,
    /// Events to the UI.
    pub events: Producer<SimEvent>,
    /// Every raw input event, for the settings screen's live values.
    pub raw_input: Producer<InputEvent>,
}

/// The UI-side ends of the rings of a [`SimCore`].
#[derive(Debug)]
pub struct UiRings {
    /// Commands to the sim.
    pub commands: Producer<Command>,
    /// Snapshots from the sim.
    pub snapshots: SnapshotConsumer,
    /// Events from the sim.
    pub events: Consumer<SimEvent>,
    /// Raw input events from the sim's devices.
    pub raw_input: Consumer<InputEvent>,
}

/// Commands the command ring holds.
pub const COMMAND_RING_CAPACITY: usize = 64;
/// Events the sim → UI ring holds.
pub const EVENT_RING_CAPACITY: usize = 256;
/// Raw input events the sim → UI ring holds (about a second of a wheel and pedals moving
/// at a 60 Hz frame rate; older ones are dropped when the UI does not drain it).
pub const RAW_INPUT_RING_CAPACITY: usize = 4096;

/// The three rings between a [`SimCore`] and the UI, with `snapshot_capacity` snapshots.
pub fn core_rings(snapshot_capacity: usize) -> (CoreRings, UiRings) {
    let (mut commands_tx, mut commands_rx) = RingBuffer::new(COMMAND_RING_CAPACITY);
    let (mut events_tx, mut events_rx) = RingBuffer::new(EVENT_RING_CAPACITY);
    let (snapshots_tx, snapshots_rx) = snapshot_ring(snapshot_capacity);
    let (mut raw_tx, mut raw_rx) = RingBuffer::new(RAW_INPUT_RING_CAPACITY);
    // Mapped now: the sim thread never page-faults into them (see `prefault`).
    prefault_ring(&mut commands_tx, &mut commands_rx, || Command::Pause);
    prefault_ring(&mut events_tx, &mut events_rx, || SimEvent::NextCamera);
    prefault_ring(&mut raw_tx, &mut raw_rx, || InputEvent::Disconnected {
        device: DeviceId(0),
    });
    (
        CoreRings {
            commands: commands_rx,
            snapshots: snapshots_tx,
            events: events_tx,
            raw_input: raw_tx,
        },
        UiRings {
            commands: commands_tx,
            snapshots: snapshots_rx,
            events: events_rx,
            raw_input: raw_rx,
        },
    )
}

impl SimCore {
    /// A core stepping `session` with `rig`'s controls, `autopilot` engaged or not, talking
    /// through `rings` and publishing its figures in `stats`.
    pub fn new(
        session: Session,
        rig: Rig,
        rings: CoreRings,
        stats: Arc<SharedStats>,
        autopilot: bool,
    ) -> Self {
        let mut core = Self {
            session: Box::new(session),
            rig,
            commands: rings.commands,
            snapshots: rings.snapshots,
            events: rings.events,
            raw_input: rings.raw_input,
            stats,
            ffb_test: None,
            direction_check: None,
            last_ffb_level: 0.0,
            paused: false,
            pause_held: false,
            autopilot: false,
            autopilot_wanted: false,
            tick: 0,
            epoch: 0,
            wheel_rotation_rad: [0.0; 4],
            ffb_started: false,
            ffb_down: false,
            ffb_emergency: false,
            laps_seen: 0,
            hold_at_tick: None,
            observer: None,
        };
        core.set_autopilot(autopilot);
        core.rig.set_car(
            core.session.vehicle().params().steering.lock_deg,
            core.session.steering_feel(),
        );
        core
    }

    /// Hands every tick's state to `observer` from now on (see [`TickObserver`]); it starts
    /// with the session's car now. An observer that fails, now or later, is detached and its
    /// error sent to the UI ([`SimEvent::ObserverFailed`]).
    pub fn set_observer(&mut self, observer: Box<dyn TickObserver>) {
        self.observer = Some(observer);
        self.start_observer();
    }

    /// Pauses the session once it has run `tick` physics ticks since it started or was last
    /// reset (`None`: never), so that a frame can be drawn of it at that simulated time (the
    /// window's `--hold-at`). It pauses as [`Command::Pause`] does, once; a resume goes on.
    pub fn hold_at_tick(&mut self, tick: Option<u64>) {
        self.hold_at_tick = tick;
    }

    /// The session.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The rig.
    pub fn rig(&self) -> &Rig {
        &self.rig
    }

    /// Whether the simulation is paused.
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// Physics ticks since the session started or was last reset.
    pub fn tick_count(&self) -> u64 {
        self.tick
    }

    /// One tick at `now` (time since the sim started; see the module docs).
    pub fn tick(&mut self, now: Duration) {
        if !self.ffb_started {
            self.ffb_started = true;
            self.rig.start_ffb(now);
        }
        for _ in 0..COMMANDS_PER_TICK {
            let Ok(command) = self.commands.pop() else {
                break;
            };
            self.apply(command, now);
        }
        if self.hold_at_tick.is_some_and(|hold| self.tick >= hold) {
            self.hold_at_tick = None;
            self.set_paused(true, now);
        }

        let dt = self.session.step_s();
        let mut lost_controls = false;
        let events = &mut self.events;
        let raw_input = &mut self.raw_input;
        let input = self.rig.poll(
            now,
            dt,
            |notice| {
                if let InputNotice::DeviceLost {
                    carries_controls: true,
                    ..
                } = notice
                {
                    lost_controls = true;
                }
                let _ = events.push(SimEvent::Input(notice));
            },
            // Axis and button events clone without allocating; a connection's name does
            // allocate, on that rare event only.
            |event| {
                let _ = raw_input.push(event.clone());
            },
        );
        if lost_controls {
            self.set_paused(true, now);
        }
        let actions = input.actions;
        if actions.reset {
            self.recover(now);
        }
        if actions.pause {
            self.set_paused(!self.paused, now);
        }
        if actions.camera {
            let _ = self.events.push(SimEvent::NextCamera);
        }
        if actions.ffb_off {
            // The binding toggles: a runaway cut counts as off, so it turns force feedback on.
            if self.rig.ffb_killed() || self.rig.ffb_cut_reason().is_some() {
                self.enable_ffb(now);
            } else {
                let result = self.rig.set_ffb_killed(true, now);
                self.ffb_result(&result);
            }
        }

        let column = if self.paused {
            None
        } else {
            let controls = if self.autopilot {
                self.session.autopilot_controls().unwrap_or(input.controls)
            } else {
                input.controls
            };
            if self.session.step(&controls) {
                self.tick += 1;
                let laps = self.session.lap_times().laps_completed;
                if laps != self.laps_seen {
                    if laps > self.laps_seen
                        && let Some(gain) = self.rig.lap_completed()
                    {
                        let _ = self.events.push(SimEvent::AutoGainProposal(gain));
                    }
                    self.laps_seen = laps;
                }
                let s = self.session.snapshot();
                let tau = std::f64::consts::TAU;
                for (angle, w) in self.wheel_rotation_rad.iter_mut().zip(&s.wheels) {
                    let next = *angle + w.spin_rad_per_s * dt;
                    *angle = if next.is_finite() {
                        next.rem_euclid(tau)
                    } else {
                        0.0
                    };
                }
                Some(RigTorque::Car {
                    column_nm: s.column_torque_n_m,
                    feel: FeelInput::from_snapshot(s, self.session.steering_feel()),
                })
            } else {
                self.stats.auto_resets.fetch_add(1, Ordering::Relaxed);
                if let Some(recovery) = self.session.last_recovery() {
                    let _ = self.events.push(SimEvent::CarRecovered(recovery));
                }
                self.moved(now);
                None
            }
        };
        // A test effect or the direction check from the settings screen replaces the car's
        // torque, paused or not.
        let column = match (self.ffb_test, self.direction_check) {
            (Some((test, started)), _) => {
                let t = now.saturating_sub(started).as_secs_f64();
                if let Some(torque) = test.torque_nm(t, input.physical_steering_rad) {
                    Some(RigTorque::AtWheel(torque))
                } else {
                    self.ffb_test = None;
                    self.test_over();
                    column
                }
            }
            (None, Some((mut check, started))) => {
                let step = check.step(
                    now.saturating_sub(started),
                    input.physical_steering_rad,
                    self.last_ffb_level,
                );
                self.direction_check = Some((check, started));
                match step {
                    DirectionStep::Torque(torque) => Some(RigTorque::AtWheel(torque)),
                    DirectionStep::Done(outcome) => {
                        self.direction_check = None;
                        let _ = self.events.push(SimEvent::FfbDirection {
                            outcome,
                            invert: self.rig.ffb_facts().invert,
                        });
                        self.test_over();
                        column
                    }
                }
            }
            (None, None) => column,
        };
        // After a backend error force feedback stays off (zero was sent) until re-enabled.
        let ffb = if self.ffb_down {
            Ok(FfbTick::default())
        } else {
            self.rig
                .ffb_tick(now, column, input.physical_steering_rad, dt)
        };
        let (ffb_level, ffb_step) = match ffb {
            Ok(t) => {
                if let Some(cause) = t.tripped {
                    let _ = self.events.push(SimEvent::FfbRunaway(cause));
                }
                (t.level, t.step.unwrap_or_default())
            }
            Err(error) => {
                self.ffb_failed(&error);
                (0.0, FfbStep::default())
            }
        };
        self.last_ffb_level = ffb_level;

        let stamped = Stamped {
            tick: self.tick,
            epoch: self.epoch,
            snapshot: *self.session.snapshot(),
            wheel_rotation_rad: self.wheel_rotation_rad,
            hud: HudFrame {
                ffb_level,
                ffb_torque_nm: ffb_step.torque_nm,
                ffb_clipped: ffb_step.clipped,
                ffb_clipping_fraction: self.rig.ffb_clipping_fraction(),
                ffb_parts: ffb_step.parts,
                ffb_max_nm: self.rig.ffb().pipeline().params().max_torque_nm,
                ffb_killed: self.rig.ffb_killed(),
                ffb_emergency_stopped: self.ffb_emergency,
                ffb_cut: self.rig.ffb_cut_reason(),
                autopilot: self.autopilot,
                paused: self.paused,
                laps: self.session.lap_times(),
                look_left: actions.look_left,
                look_right: actions.look_right,
            },
        };
        self.snapshots.push(stamped);
        if let Some(observer) = &mut self.observer
            && let Err(error) = observer.tick(self.session.snapshot(), dt, self.paused)
        {
            self.observer_failed(error);
        }
        self.stats.latest_tick.store(self.tick, Ordering::Relaxed);
    }

    /// Stops force feedback for good and finishes the observer (the thread is ending).
    pub fn shutdown(&mut self) {
        self.rig.shutdown();
        if let Some(observer) = &mut self.observer
            && let Err(error) = observer.finish()
        {
            self.observer_failed(error);
        }
    }

    fn apply(&mut self, command: Command, now: Duration) {
        match command {
            Command::Pause => self.set_paused(true, now),
            Command::Resume => self.set_paused(false, now),
            Command::TogglePause => self.set_paused(!self.paused, now),
            Command::Reset => self.reset(now),
            Command::Recover => self.recover(now),
            Command::SetAutopilot(on) => self.set_autopilot(on),
            Command::SetGearboxMode(mode) => self.session.set_gearbox_mode(mode),
            Command::SetAids(aids) => {
                // Invalid aids are ignored (the UI validates them); the error is dropped
                // without allocating only when there is none, so validate first.
                let _ = self.session.set_aids(aids);
            }
            Command::Swap(session) => {
                let old = std::mem::replace(&mut self.session, session);
                self.retire(Retired::Session(old));
                self.wheel_rotation_rad = [0.0; 4];
                self.tick = 0;
                self.epoch = self.epoch.wrapping_add(1);
                self.rig.set_car(
                    self.session.vehicle().params().steering.lock_deg,
                    self.session.steering_feel(),
                );
                self.set_autopilot(self.autopilot_wanted);
                self.restart_ffb(now);
                self.start_observer();
            }
            Command::ApplyBindings(bindings) => {
                self.rig.set_bindings(&bindings);
                self.retire(Retired::Bindings(bindings));
            }
            Command::SetFfbSettings(settings) => {
                let old = self.rig.set_ffb_settings(settings);
                self.retire(Retired::FfbSettings(old));
            }
            Command::SetFfbLink(link) => {
                // After an emergency stop a new link is held at zero until the user
                // re-enables force feedback.
                let held =
                    (self.paused && self.ffb_test.is_none() && self.direction_check.is_none())
                        || self.ffb_emergency;
                let old = self.rig.swap_ffb_link(link, now, held);
                self.ffb_down = self.ffb_emergency;
                self.retire(Retired::FfbLink(old));
            }
            Command::KillFfb => {
                let result = self.rig.set_ffb_killed(true, now);
                self.ffb_result(&result);
            }
            Command::EnableFfb => self.enable_ffb(now),
            #[cfg(feature = "test-support")]
            Command::Stall(duration) => std::thread::sleep(duration),
            Command::PreviewFfbFacts(facts) => self.rig.preview_ffb_facts(facts),
            Command::HoldPause(hold) => {
                if hold {
                    self.set_paused(true, now);
                }
                self.pause_held = hold;
            }
            Command::FfbTest(test) => {
                self.direction_check = None;
                self.ffb_test = Some((test, now));
                self.start_ffb_for_test(now);
            }
            Command::CheckFfbDirection => {
                self.ffb_test = None;
                let ffb = self.rig.ffb();
                // Edited facts may still be ramping in (a flipped invert fades from zero):
                // the pulse waits for them too.
                let ramp = if ffb.pipeline().strength_settled() {
                    Duration::ZERO
                } else {
                    Duration::from_secs_f64(STRENGTH_RAMP_S)
                };
                let check = DirectionCheck::new(
                    ffb.pipeline().params().max_torque_nm,
                    ffb.safety().config().fade_in + ramp,
                );
                self.direction_check = Some((check, now));
                self.start_ffb_for_test(now);
            }
        }
    }

    /// Force feedback is stopped while paused: start it (fading in) for a test or check.
    fn start_ffb_for_test(&mut self, now: Duration) {
        if self.paused && !self.ffb_down {
            self.rig.start_ffb(now);
        }
    }

    /// A test effect or the direction check ended: while paused, force feedback stops again.
    fn test_over(&mut self) {
        if self.paused {
            let result = self.rig.stop_ffb(StopReason::Pause);
            self.ffb_result(&result);
        }
    }

    /// Sends `retired` to the UI to be freed there; frees it here only when the ring is full.
    /// Starts the observer with the session's car and step (a new observer, or a new car).
    fn start_observer(&mut self) {
        if let Some(observer) = &mut self.observer
            && let Err(error) = observer.start(
                self.session.vehicle(),
                self.session.sound(),
                self.session.step_s(),
            )
        {
            self.observer_failed(error);
        }
    }

    /// Detaches the observer after `error` and tells the UI (a rare event: the observer is
    /// freed here).
    fn observer_failed(&mut self, error: anyhow::Error) {
        self.observer = None;
        let _ = self.events.push(SimEvent::ObserverFailed(error));
    }

    fn retire(&mut self, retired: Retired) {
        if let Err(rtrb::PushError::Full(event)) = self.events.push(SimEvent::Retired(retired)) {
            drop(event);
        }
    }

    fn set_autopilot(&mut self, on: bool) {
        self.autopilot_wanted = on;
        self.autopilot = on && self.session.has_autopilot();
        if self.autopilot {
            self.session.set_gearbox_mode(GearboxMode::Automatic);
        }
    }

    fn set_paused(&mut self, paused: bool, now: Duration) {
        // While the settings screen holds the pause, nothing resumes: not a pause binding on
        // the wheel, not a command.
        if paused == self.paused || (!paused && self.pause_held) {
            return;
        }
        self.paused = paused;
        if paused {
            let result = self.rig.stop_ffb(StopReason::Pause);
            self.ffb_result(&result);
        } else if !self.ffb_down {
            self.rig.start_ffb(now);
        }
    }

    /// Back to the start pose (a new run).
    fn reset(&mut self, now: Duration) {
        self.session.reset_to_start();
        self.moved(now);
    }

    /// Back on the road at the nearest safe point (the reset key).
    fn recover(&mut self, now: Duration) {
        let recovery = self.session.recover();
        let _ = self.events.push(SimEvent::CarRecovered(recovery));
        self.moved(now);
    }

    /// After the car was put somewhere: a new epoch of snapshots, force feedback faded in.
    fn moved(&mut self, now: Duration) {
        self.wheel_rotation_rad = [0.0; 4];
        self.tick = 0;
        self.epoch = self.epoch.wrapping_add(1);
        self.restart_ffb(now);
    }

    /// Stops force feedback for a car reset and, unless paused, fades it in again.
    fn restart_ffb(&mut self, now: Duration) {
        let result = self.rig.stop_ffb(StopReason::CarReset);
        self.ffb_result(&result);
        if !self.paused && !self.ffb_down {
            self.rig.start_ffb(now);
        }
    }

    /// The user turns force feedback on: the kill switch is released and force feedback
    /// that a device error stopped starts again (fading in). After an emergency stop the
    /// stopped writer cannot come back: the UI is asked to open the device again, and the
    /// new link lifts `ffb_down`.
    fn enable_ffb(&mut self, now: Duration) {
        let result = self.rig.set_ffb_killed(false, now);
        self.ffb_result(&result);
        if self.ffb_emergency {
            self.ffb_emergency = false;
            let _ = self.events.push(SimEvent::FfbReopen);
        } else if self.ffb_down {
            self.ffb_down = false;
            self.rig.start_ffb(now);
        }
    }

    fn ffb_result(&mut self, result: &Result<(), FfbError>) {
        if let Err(error) = result {
            self.ffb_failed(error);
        }
    }

    /// A backend error: force feedback stops; the UI is told once, either to reopen the
    /// device ([`SimEvent::FfbFailed`]: an unplug or any other I/O error) or that the
    /// emergency stop holds it off until the user re-enables it
    /// ([`SimEvent::FfbEmergencyStopped`]).
    fn ffb_failed(&mut self, error: &FfbError) {
        self.ffb_down = true;
        self.stats.ffb_errors.fetch_add(1, Ordering::Relaxed);
        if error.needs_reconnect() {
            let _ = self.events.push(SimEvent::FfbFailed);
        } else if !self.ffb_emergency {
            self.ffb_emergency = true;
            let _ = self.events.push(SimEvent::FfbEmergencyStopped);
        }
    }
}

//! A [`Session`]: one car in one world, with its start pose, the autopilot and the lap
//! timer: everything a car or track change replaces.
//!
//! Building one is heavy (parsing the vehicle and track files, building the track's mesh and
//! the autopilot's speed profile), so it happens off the sim thread: [`Session::load`] on any
//! thread, or a [`SessionLoader`] thread that hands a ready session to the UI, which sends it
//! to the sim with `Command::Swap`. Stepping it never allocates.
//!
//! - Start pose: on a track with a closed centre line, the line's station 0 (the
//!   start/finish line), heading along it, as the headless `laps` procedure starts; on a
//!   track with an open line, its `launch` station; on the flat plane, the origin heading +x.
//! - Autopilot: on a closed centre line, the driver model follows the line at the speed
//!   profile the `laps` procedure plans (0.7 g lateral, 0.7 g braking), in the automatic
//!   gearbox.
//! - Lap timer: on a closed centre line, from the rear axle's position (as `laps`).
//! - Recovery: a car upside down, stuck or out of the world is put back on the road at rest
//!   by [`Session::step`] itself (the rules and the place: [`crate::recovery`]);
//!   [`Session::recover`] does it at once (the reset key), [`Session::reset_to_start`] puts
//!   the car back at its start pose (a new run, a replay's or a scenario's start).
//! - Gearbox: every session starts in the automatic gearbox, whatever the vehicle file says
//!   (drivable from the keyboard at once); `Command::SetGearboxMode` changes it.

use std::path::Path as FilePath;
use std::sync::mpsc::{Receiver, TryRecvError};
use std::thread::JoinHandle;

use anyhow::{Context, Result};
use glam::{DVec2, DVec3};
use gripline_formats::setup_file::load_setup_or_default;
use gripline_formats::vehicle_sound::SoundParams;
use gripline_physics::STEP_S;
use gripline_physics::controls::Controls;
use gripline_physics::driver::{
    DriverModel, DriverView, Path, PreviewSteering, SpeedControlGains, SpeedLimits, SpeedProfile,
    SteeringGeometry,
};
use gripline_physics::environment::Environment;
use gripline_physics::powertrain::GearboxMode;
use gripline_physics::track::CentreLine;
use gripline_physics::vehicle::{AidParams, GRAVITY, Pose, Snapshot, SteeringFeel, Vehicle};

use crate::lap_timer::{LapTimer, LapTimes};
use crate::recovery::{Recovery, RecoveryReason, RecoveryWatch, heading_of, safe_placement};
use crate::replay::event::{JournalEvent, SessionJournal};
use crate::replay::identity::{FileIdentity, SessionIdentity};
use crate::world::World;

/// How hard the autopilot drives: the limits of its speed profile, in g.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AutopilotLimits {
    /// Lateral acceleration in corners (g).
    pub lateral_g: f64,
    /// Braking deceleration (g).
    pub braking_g: f64,
}

impl Default for AutopilotLimits {
    /// 0.7 g in corners and under braking: a quick road pace every shipped car holds.
    fn default() -> Self {
        Self {
            lateral_g: 0.7,
            braking_g: 0.7,
        }
    }
}

/// One car in one world (see the module docs).
pub struct Session {
    vehicle: Vehicle,
    /// What the car sounds like (its vehicle file's; not used by the physics).
    sound: SoundParams,
    world: World,
    start: Pose,
    step_s: f64,
    gearbox_mode: GearboxMode,
    autopilot: Option<DriverModel>,
    lap_timer: Option<LapTimer>,
    warnings: Vec<String>,
    feel: SteeringFeel,
    identity: SessionIdentity,
    /// Where every change goes (a replay recording), if anywhere.
    journal: Option<Box<dyn SessionJournal>>,
    /// Whether anything changed the session since it was built (a replay must start
    /// before).
    changed: bool,
    /// The recovery rules' timers.
    watch: RecoveryWatch,
    /// The recovery the last step or [`Session::recover`] made, if it made one.
    last_recovery: Option<Recovery>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("vehicle", &self.vehicle.params().name)
            .field("world", &self.world.name())
            .field("autopilot", &self.autopilot.is_some())
            .finish_non_exhaustive()
    }
}

impl Session {
    /// Loads the vehicle `vehicle` and the world `track` (names of shipped assets or paths;
    /// `flat` for the endless plane) and builds the session. Heavy: call it off the sim
    /// thread.
    ///
    /// # Errors
    /// The files' problems, each naming its file; a track without ground at its start.
    pub fn load(vehicle: &str, track: &str) -> Result<Self> {
        Self::load_with_setup(vehicle, track, None)
    }

    /// As [`Session::load`], with the car in the set-up of the file `setup` (clamped into
    /// the car's ranges; a file that cannot be read is kept aside and the car's own set-up
    /// used: both are in [`Session::warnings`]).
    ///
    /// # Errors
    /// As [`Session::load`].
    pub fn load_with_setup(vehicle: &str, track: &str, setup: Option<&FilePath>) -> Result<Self> {
        let car = load_car(vehicle, setup)?;
        let world = World::load(track)?;
        let track_identity = world.identity(track)?;
        let mut session = Self::new(car.vehicle, world)?;
        session.sound = car.sound;
        session.warnings = car.warnings;
        session.identity = SessionIdentity {
            vehicle: car.identity,
            track: track_identity,
            setup: car.setup,
        };
        Ok(session)
    }

    /// A session of `vehicle` in `world`, the car at rest at the start pose, sounding like an
    /// inline four ([`SoundParams::default`]; see [`Session::set_sound`]).
    ///
    /// # Errors
    /// No ground at the start; a degenerate centre line.
    pub fn new(mut vehicle: Vehicle, world: World) -> Result<Self> {
        let closed_line = world
            .track()
            .map(|t| &t.mesh.centre_line)
            .filter(|line| line.is_closed());
        let (xy, heading) = match closed_line {
            Some(line) => {
                let first = line
                    .sample_at(0.0)
                    .context("the track's centre line is empty")?;
                (
                    first.position.truncate(),
                    first.tangent.y.atan2(first.tangent.x),
                )
            }
            None => world.straight_start()?,
        };
        let (point, normal) = world.ground_at(xy)?;
        let start = vehicle.pose_at_rest(point, normal, heading);
        vehicle.reset_to(start);
        vehicle.powertrain_mut().set_mode(GearboxMode::Automatic);
        let (autopilot, lap_timer) = match closed_line {
            Some(line) => {
                let path = centre_path(line)?;
                let driver = autopilot(&path, &vehicle, AutopilotLimits::default());
                (Some(driver), LapTimer::new(path))
            }
            None => (None, None),
        };
        let identity = SessionIdentity {
            vehicle: FileIdentity::unnamed(&vehicle.params().name),
            track: FileIdentity::unnamed(world.name()),
            setup: None,
        };
        Ok(Self {
            feel: vehicle.steering_feel(),
            identity,
            journal: None,
            changed: false,
            watch: RecoveryWatch::default(),
            last_recovery: None,
            vehicle,
            sound: SoundParams::default(),
            world,
            start,
            step_s: STEP_S,
            gearbox_mode: GearboxMode::Automatic,
            autopilot,
            lap_timer,
            warnings: Vec::new(),
        })
    }

    /// The car, track and set-up files this session was loaded from (unnamed for a session
    /// built in code).
    pub fn identity(&self) -> &SessionIdentity {
        &self.identity
    }

    /// The session's air and track temperatures.
    pub fn environment(&self) -> Environment {
        self.vehicle.environment()
    }

    /// Sets the air and track temperatures: the weather is chosen before the session starts
    /// (a replay records it in its header), so the car is put back at its start with its
    /// tyres at the new temperatures.
    ///
    /// # Errors
    /// Temperatures out of range; the session has already changed.
    pub fn set_environment(&mut self, environment: Environment) -> Result<()> {
        if self.changed {
            anyhow::bail!("the weather is set before the session starts");
        }
        self.vehicle
            .set_environment(environment)
            .map_err(|e| anyhow::anyhow!("weather: {e}"))?;
        self.vehicle.reset_to(self.start);
        self.vehicle.powertrain_mut().set_mode(self.gearbox_mode);
        Ok(())
    }

    /// Names the files this session was built from (a headless run that loads them itself).
    pub fn set_identity(&mut self, identity: SessionIdentity) {
        self.identity = identity;
    }

    /// Records every change from now on to `journal` (a replay recording). Must come before
    /// any change: a replay starts from the session as built.
    ///
    /// # Errors
    /// The session has changed since it was built.
    pub fn record_to(&mut self, journal: Box<dyn SessionJournal>) -> Result<()> {
        if self.changed {
            anyhow::bail!("a replay must start before the session first changes");
        }
        self.journal = Some(journal);
        Ok(())
    }

    /// Stops recording (the journal is dropped, which ends its recording).
    pub fn stop_recording(&mut self) {
        self.journal = None;
    }

    /// Whether a recording follows this session.
    pub fn is_recording(&self) -> bool {
        self.journal.is_some()
    }

    fn journal(&mut self, event: &JournalEvent) {
        self.changed = true;
        if let Some(journal) = &mut self.journal {
            journal.record(event, None);
        }
    }

    /// Applies one recorded change (a replay's, [`crate::replay::ReplayPlayer`]); steps
    /// through [`Session::step`].
    ///
    /// # Errors
    /// A place with no ground; a physics step that is not finite and positive.
    pub fn apply(&mut self, event: &JournalEvent) -> Result<()> {
        match event {
            JournalEvent::Step(controls) => {
                self.step(controls);
            }
            JournalEvent::Reset => self.reset_to_start(),
            JournalEvent::Recover => {
                self.recover();
            }
            JournalEvent::Place {
                x_m,
                y_m,
                heading_rad,
                mode,
            } => self.place(DVec2::new(*x_m, *y_m), *heading_rad, *mode)?,
            JournalEvent::GearboxMode(mode) => self.set_gearbox_mode(*mode),
            JournalEvent::PowertrainMode(mode) => self.set_powertrain_mode(*mode),
            JournalEvent::Gear(gear) => self.set_gear(*gear),
            JournalEvent::ForwardSpeed(speed) => self.set_forward_speed(*speed),
            JournalEvent::Aids(aids) => self.set_aids(aids.clone())?,
            JournalEvent::StepSize(step_s) => {
                if !(step_s.is_finite() && *step_s > 0.0) {
                    anyhow::bail!("a physics step of {step_s} s");
                }
                self.step_s = *step_s;
                self.journal(event);
            }
        }
        Ok(())
    }

    /// New driver aids (recorded).
    ///
    /// # Errors
    /// Aids the physics refuses (out of range), naming the fields.
    pub fn set_aids(&mut self, aids: AidParams) -> Result<()> {
        self.vehicle
            .set_aids(aids.clone())
            .map_err(|e| anyhow::anyhow!("aids: {e}"))?;
        self.journal(&JournalEvent::Aids(aids));
        Ok(())
    }

    /// Sets the car rolling at `speed` m/s straight ahead (a procedure's start; recorded).
    pub fn set_forward_speed(&mut self, speed: f64) {
        self.vehicle.set_forward_speed(speed);
        self.journal(&JournalEvent::ForwardSpeed(speed));
    }

    /// Engages `gear` directly (a procedure's neutral; recorded).
    pub fn set_gear(&mut self, gear: i8) {
        self.vehicle.powertrain_mut().set_gear(gear);
        self.journal(&JournalEvent::Gear(gear));
    }

    /// The gearbox mode until the next reset, the player's choice kept (a procedure holding
    /// a gear; recorded).
    pub fn set_powertrain_mode(&mut self, mode: GearboxMode) {
        self.vehicle.powertrain_mut().set_mode(mode);
        self.journal(&JournalEvent::PowertrainMode(mode));
    }

    /// What force feedback needs to know about the car (tyre peaks, driven wheels, its
    /// reference column torque), computed when the session was built.
    pub fn steering_feel(&self) -> &SteeringFeel {
        &self.feel
    }

    /// The vehicle.
    pub fn vehicle(&self) -> &Vehicle {
        &self.vehicle
    }

    /// What the car sounds like: its vehicle file's `sound` section (what observers are
    /// started with, [`crate::observer::TickObserver::start`]).
    pub fn sound(&self) -> &SoundParams {
        &self.sound
    }

    /// Gives the car the sound `sound` (a session built with [`Session::new`] from a loaded
    /// car: its [`LoadedCar::sound`]). The physics does not hear it: nothing is recorded.
    pub fn set_sound(&mut self, sound: SoundParams) {
        self.sound = sound;
    }

    /// The vehicle, to change it behind the session's back: a replay does not see what is
    /// done through this (tests only; the product changes the car through the session's own
    /// setters, which are recorded).
    pub fn vehicle_mut_unrecorded(&mut self) -> &mut Vehicle {
        self.changed = true;
        &mut self.vehicle
    }

    /// The world.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// Where the car starts and is put back on reset.
    pub fn start_pose(&self) -> Pose {
        self.start
    }

    /// Whether the driver model can drive here (a closed centre line).
    pub fn has_autopilot(&self) -> bool {
        self.autopilot.is_some()
    }

    /// The vehicle file's warnings (unknown or defaulted fields), for the UI to show.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The gearbox mode the player chose (kept across resets).
    pub fn gearbox_mode(&self) -> GearboxMode {
        self.gearbox_mode
    }

    /// Sets the gearbox mode now and after resets.
    pub fn set_gearbox_mode(&mut self, mode: GearboxMode) {
        self.gearbox_mode = mode;
        self.vehicle.powertrain_mut().set_mode(mode);
        self.journal(&JournalEvent::GearboxMode(mode));
    }

    /// The lap times (default when there is no lap timer).
    pub fn lap_times(&self) -> LapTimes {
        self.lap_timer
            .as_ref()
            .map(LapTimer::times)
            .unwrap_or_default()
    }

    /// Puts the car back at its start pose, at rest, its clock at zero; the autopilot and
    /// the lap in progress restart (the best lap stays). A new run's start; the reset key
    /// recovers instead ([`Session::recover`]). Allocation-free.
    pub fn reset_to_start(&mut self) {
        self.journal(&JournalEvent::Reset);
        self.vehicle.reset_to(self.start);
        self.restart_after_move();
    }

    /// The gearbox mode, the autopilot, the lap in progress and the recovery timers after
    /// the car was put somewhere.
    fn restart_after_move(&mut self) {
        self.vehicle.powertrain_mut().set_mode(self.gearbox_mode);
        if let Some(driver) = &mut self.autopilot {
            driver.reset();
        }
        if let Some(timer) = &mut self.lap_timer {
            timer.restart();
        }
        self.watch.clear();
    }

    /// Puts the car back on the road at once, at the nearest safe point, at rest (the reset
    /// key; recorded): see [`crate::recovery`]. The clock runs on; the lap in progress is
    /// void. Allocation-free.
    pub fn recover(&mut self) -> Recovery {
        self.journal(&JournalEvent::Recover);
        self.recover_for(RecoveryReason::Requested)
    }

    /// The recovery the last [`Session::step`] (or [`Session::recover`]) made, if it made one.
    pub fn last_recovery(&self) -> Option<Recovery> {
        self.last_recovery
    }

    /// Moves the car to the safe point nearest it (the start pose when there is none) and
    /// restarts what follows it. Not recorded: a step's recovery follows from the step.
    fn recover_for(&mut self, reason: RecoveryReason) -> Recovery {
        let s = self.vehicle.snapshot();
        let (from, time_s) = (s.position, s.time_s);
        let line = self.world.track().map(|t| &t.mesh.centre_line);
        let placement = if from.is_finite() {
            safe_placement(&self.world, line, from, heading_of(s.orientation))
        } else {
            None
        };
        let pose = match placement {
            Some(p) => self.vehicle.pose_at_rest(p.point, p.normal, p.heading_rad),
            None => self.start,
        };
        self.vehicle.recover_to(pose);
        self.restart_after_move();
        let recovery = Recovery {
            time_s,
            reason,
            from,
            to: pose.position,
            heading_rad: heading_of(pose.orientation),
        };
        self.last_recovery = Some(recovery);
        recovery
    }

    /// The physics step (s): [`STEP_S`] unless [`Session::set_rate_hz`] changed it.
    pub fn step_s(&self) -> f64 {
        self.step_s
    }

    /// Steps the physics at `rate_hz` from now on (the same model at another fixed step, for
    /// convergence studies; the real-time loop runs at [`gripline_physics::STEP_RATE_HZ`]).
    ///
    /// # Errors
    /// A rate outside 100 Hz to 20 kHz, or not a number.
    pub fn set_rate_hz(&mut self, rate_hz: f64) -> Result<()> {
        if !(100.0..=20_000.0).contains(&rate_hz) {
            anyhow::bail!("the physics rate must be 100 Hz to 20 kHz, not {rate_hz} Hz");
        }
        self.step_s = 1.0 / rate_hz;
        self.journal(&JournalEvent::StepSize(self.step_s));
        Ok(())
    }

    /// Ticks of [`Session::step_s`] in `seconds` (rounded; zero for negative or NaN).
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    pub fn ticks_in(&self, seconds: f64) -> u64 {
        let ticks = (seconds / self.step_s).round();
        if ticks.is_nan() {
            0
        } else {
            ticks.max(0.0) as u64
        }
    }

    /// Replans the autopilot's speed profile for `limits` and restarts it (no-op without a
    /// closed centre line).
    ///
    /// # Errors
    /// A degenerate centre line.
    pub fn set_autopilot_limits(&mut self, limits: AutopilotLimits) -> Result<()> {
        if let Some(driver) = &self.autopilot {
            let path = driver.path().clone();
            self.autopilot = Some(autopilot(&path, &self.vehicle, limits));
        }
        Ok(())
    }

    /// The autopilot (the driver model on the centre line), if this world has one.
    pub fn autopilot(&self) -> Option<&DriverModel> {
        self.autopilot.as_ref()
    }

    /// Puts the car at rest on the ground at `xy`, heading `heading` (rad from +x), in the
    /// gearbox mode `mode`, and makes that its start pose (resets come back here).
    ///
    /// # Errors
    /// When there is no ground at `xy`.
    pub fn place(&mut self, xy: DVec2, heading: f64, mode: GearboxMode) -> Result<()> {
        let (point, normal) = self.world.ground_at(xy)?;
        self.journal(&JournalEvent::Place {
            x_m: xy.x,
            y_m: xy.y,
            heading_rad: heading,
            mode,
        });
        self.start = self.vehicle.pose_at_rest(point, normal, heading);
        self.gearbox_mode = mode;
        let journal = self.journal.take();
        self.reset_to_start();
        self.journal = journal;
        Ok(())
    }

    /// The autopilot's controls for this tick, `None` without autopilot.
    ///
    /// The autopilot and the lap timer follow the same centre line and project the same
    /// point, the rear axle, with the same search: the timer after a step, the autopilot
    /// before the next. The autopilot reuses the timer's answer when it searched from the
    /// same segment (the same bits as searching again).
    pub fn autopilot_controls(&mut self) -> Option<Controls> {
        let view = DriverView {
            rear_axle: self.rear_axle(),
            yaw: self.yaw(),
            speed: self.forward_speed(),
            rear_lateral_speed: self.rear_lateral_speed(),
        };
        let dt = self.step_s;
        let known = self
            .lap_timer
            .as_ref()
            .and_then(|timer| timer.near_projection(view.rear_axle));
        self.autopilot
            .as_mut()
            .map(|d| d.drive_projected(&view, dt, known))
    }

    /// One physics tick with `controls`, the recovery rules, then the lap timer. Returns
    /// `false` when the car was recovered in this tick (upside down, stuck or out of the
    /// world: [`Session::last_recovery`] says why and where it went), `true` otherwise. The
    /// one step of both the window's sim thread and the headless procedures. Allocation-free.
    pub fn step(&mut self, controls: &Controls) -> bool {
        self.vehicle.step(controls, &self.world, self.step_s);
        self.changed = true;
        self.last_recovery = None;
        // The controls as the vehicle applied them (sanitised by it).
        let applied = self.vehicle.snapshot().controls;
        let reason = self
            .watch
            .check(self.vehicle.snapshot(), &self.world, self.step_s);
        if let Some(reason) = reason {
            self.recover_for(reason);
        }
        if let Some(journal) = &mut self.journal {
            // The state after the recovery, if any: a replay's step recovers the same way.
            journal.record(&JournalEvent::Step(applied), Some(self.vehicle.snapshot()));
        }
        if reason.is_some() {
            return false;
        }
        let s = self.vehicle.snapshot();
        let time_s = s.time_s;
        let rear = self.rear_axle();
        if let Some(timer) = &mut self.lap_timer {
            timer.update(rear, time_s);
        }
        true
    }

    /// The state after the last tick.
    pub fn snapshot(&self) -> &Snapshot {
        self.vehicle.snapshot()
    }

    /// The rear axle's centre in the ground plane.
    pub fn rear_axle(&self) -> DVec2 {
        let s = self.vehicle.snapshot();
        let back = self.vehicle.params().cg_to_rear_axle_m();
        (s.position - s.orientation.mul_vec3(DVec3::X) * back).truncate()
    }

    /// Heading (rad from +x) of the body's forward axis in the ground plane.
    pub fn yaw(&self) -> f64 {
        let x = self.vehicle.snapshot().orientation.mul_vec3(DVec3::X);
        x.y.atan2(x.x)
    }

    /// Forward speed (m/s, body x).
    pub fn forward_speed(&self) -> f64 {
        self.vehicle.snapshot().velocity_body.x
    }

    /// The rear axle's sideways speed (m/s, body y, positive to the left): `v_y - b r`.
    pub fn rear_lateral_speed(&self) -> f64 {
        let s = self.vehicle.snapshot();
        s.velocity_body.y - self.vehicle.params().cg_to_rear_axle_m() * s.angular_velocity_body.z
    }

    /// The car's steering as the driver model needs it.
    pub fn steering_geometry(&self) -> SteeringGeometry {
        steering_geometry(&self.vehicle)
    }
}

/// A car loaded for a session: built, with its identity and set-up's, and the remarks to
/// show.
pub struct LoadedCar {
    /// The vehicle, at rest at the origin.
    pub vehicle: Vehicle,
    /// What it sounds like (its vehicle file's `sound` section).
    pub sound: SoundParams,
    /// The vehicle file and its tyres.
    pub identity: FileIdentity,
    /// The set-up file, if one was applied.
    pub setup: Option<FileIdentity>,
    /// Remarks: unknown or defaulted fields, set-up values clamped.
    pub warnings: Vec<String>,
}

/// Loads the car `vehicle` (a shipped name or a path) in the set-up `setup` (see
/// [`Session::load_with_setup`]). The one path the window, headless runs and replays load a
/// car by.
///
/// # Errors
/// The vehicle file's or its tyres' problems; a set-up that makes the car invalid.
pub fn load_car(vehicle: &str, setup: Option<&FilePath>) -> Result<LoadedCar> {
    // A shipped name, a vehicle file, a TORCS car file or an installed TORCS car (`torcs:NAME`).
    let mut loaded = gripline_torcs::car::load::load_any_vehicle(vehicle)?;
    let mut warnings: Vec<String> = loaded.warnings.iter().map(ToString::to_string).collect();
    let mut setup_identity = None;
    if let Some(file) = setup {
        let (car_setup, messages) = load_setup_or_default(file, &loaded.params);
        warnings.extend(messages);
        if file.exists() {
            let (in_setup, fit) = loaded.with_setup(&car_setup);
            warnings.extend(fit);
            // Remarks from loading the tyres the set-up chose.
            let known = loaded.warnings.len();
            warnings.extend(
                in_setup
                    .warnings
                    .iter()
                    .skip(known)
                    .map(ToString::to_string),
            );
            loaded = in_setup;
            let name = file.file_stem().map_or_else(
                || file.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            setup_identity = Some(FileIdentity::of_files(
                &file.display().to_string(),
                &name,
                &[file.to_owned()],
            )?);
        }
    }
    // The car as it runs: the tyre files the set-up chose are the ones hashed.
    let identity = FileIdentity::of_files(vehicle, &loaded.params.name, &loaded.files)?;
    let vehicle = loaded
        .build()
        .context("the car in this set-up is not valid")?;
    Ok(LoadedCar {
        vehicle,
        sound: loaded.sound,
        identity,
        setup: setup_identity,
        warnings,
    })
}

/// The centre line as the driver model's path, with its heights (the speed planner slows
/// for crests).
fn centre_path(line: &CentreLine) -> Result<Path> {
    let points: Vec<DVec3> = line.samples().iter().map(|s| s.position).collect();
    Ok(Path::new_3d(&points, true)?)
}

/// The driver model on `path` at the pace of `limits`.
fn autopilot(path: &Path, vehicle: &Vehicle, limits: AutopilotLimits) -> DriverModel {
    let speed_limits = SpeedLimits {
        lateral_accel_m_s2: limits.lateral_g * GRAVITY,
        braking_decel_m_s2: limits.braking_g * GRAVITY,
        accel_m_s2: 0.5 * GRAVITY,
        max_speed_m_s: 85.0,
    };
    let profile = SpeedProfile::plan(path, &speed_limits, 2.0);
    DriverModel::new(
        path.clone(),
        profile,
        PreviewSteering::default(),
        SpeedControlGains::default(),
        steering_geometry(vehicle),
    )
}

/// The car's steering as the driver model needs it.
fn steering_geometry(vehicle: &Vehicle) -> SteeringGeometry {
    let p = vehicle.params();
    SteeringGeometry {
        wheelbase_m: p.chassis.wheelbase_m,
        steering_ratio: p.steering.ratio,
        max_steering_wheel_rad: p.steering.lock_deg.to_radians(),
    }
}

/// Loads a [`Session`] on a thread of its own (`gripline-loader`), for the UI to poll each
/// frame without blocking.
#[derive(Debug)]
pub struct SessionLoader {
    result: Receiver<Result<Session>>,
    thread: Option<JoinHandle<()>>,
}

impl SessionLoader {
    /// Starts loading `vehicle` in `track` (see [`Session::load`]).
    ///
    /// # Errors
    /// The OS's error when the thread cannot be spawned.
    pub fn spawn(vehicle: &str, track: &str) -> std::io::Result<Self> {
        Self::spawn_with_setup(vehicle, track, None)
    }

    /// Starts loading `vehicle` in the set-up `setup` on `track` (see
    /// [`Session::load_with_setup`]).
    ///
    /// # Errors
    /// The OS's error when the thread cannot be spawned.
    pub fn spawn_with_setup(
        vehicle: &str,
        track: &str,
        setup: Option<&FilePath>,
    ) -> std::io::Result<Self> {
        let (tx, rx) = std::sync::mpsc::channel();
        let (vehicle, track) = (vehicle.to_owned(), track.to_owned());
        let setup = setup.map(FilePath::to_path_buf);
        let thread = std::thread::Builder::new()
            .name("gripline-loader".to_owned())
            .spawn(move || {
                let result = Session::load_with_setup(&vehicle, &track, setup.as_deref())
                    .with_context(|| format!("loading '{vehicle}' on '{track}'"));
                let _ = tx.send(result);
            })?;
        Ok(Self {
            result: rx,
            thread: Some(thread),
        })
    }

    /// The session once loaded (or why it could not be); `None` while still loading.
    /// Returns the result once; later calls return `None`.
    pub fn poll(&mut self) -> Option<Result<Session>> {
        match self.result.try_recv() {
            Ok(result) => {
                if let Some(thread) = self.thread.take() {
                    let _ = thread.join();
                }
                Some(result)
            }
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => self.thread.take().map(|thread| {
                let _ = thread.join();
                Err(anyhow::anyhow!("the loader thread ended without a result"))
            }),
        }
    }

    /// Waits for the session.
    ///
    /// # Errors
    /// As [`Session::load`].
    pub fn wait(mut self) -> Result<Session> {
        let result = self
            .result
            .recv()
            .unwrap_or_else(|_| Err(anyhow::anyhow!("the loader thread ended without a result")));
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        result
    }
}

//! A running drive: the car and track on the 1 kHz sim thread, with everything that runs
//! beside it — the input devices (gilrs on its thread, evdev inputs from the wheel set-up),
//! the force-feedback wheel and its reconnection, the sound, telemetry out, the replay
//! recording and the laps — and the background loading of another car or track, swapped in
//! without stopping the sim thread.
//!
//! The window owns one [`Drive`] and shows what it returns: [`Drive::start`] gives the
//! [`LoadedDrive`] to draw, [`Drive::poll`] the [`DriveEvent`]s of each frame (a new car and
//! track to draw, notices, camera and settings-screen events), and [`Drive::shutdown`] the
//! figures to print at exit. Nothing here knows about windows, GPUs or menus.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context as _, Result};
use gripline_config::{AudioSettings, Settings, TelemetrySettings};
use gripline_devices::device_thread::DeviceThread;
use gripline_input::bindings::InputNotice;
use gripline_input::device::InputEvent;
use gripline_input::ffb::direction_check::DirectionOutcome;
use gripline_physics::powertrain::GearboxMode;
use gripline_physics::track::TrackMesh;
use gripline_physics::vehicle::{AidParams, VehicleParams};
use gripline_sim::observer::ObserverGroup;
use gripline_sim::realtime::{
    Command, Interpolator, KeyboardSender, SimConfig, SimEvent, SimHandle, SimStats, SimThread,
};
use gripline_sim::recovery::{Recovery, RecoveryReason};
use gripline_sim::session::{Session, SessionLoader};
use gripline_sim::telemetry_out::{TelemetrySender, TelemetryTargets};
use gripline_torcs::track::scene_file::TrackScene;

use crate::aids::aids_for;
use crate::ffb_connector::FfbConnector;
use crate::laps::DriveLaps;
use crate::recordings::Recordings;
use crate::setups::chosen_setup;
use crate::sound::Sound;
use crate::{telemetry, wheel_setup};

/// What to drive.
#[derive(Clone, Debug)]
pub struct DriveRequest {
    /// Vehicle name or file.
    pub vehicle: String,
    /// Track name or file.
    pub track: String,
    /// A set-up file for the car; `None`: the one the settings choose for this car.
    pub setup: Option<PathBuf>,
    /// The autopilot drives.
    pub autopilot: bool,
    /// Gearbox mode at start (the autopilot chooses the automatic box itself).
    pub gearbox: GearboxMode,
    /// Telemetry destinations from the command line; `None`: the settings'.
    pub telemetry: Option<TelemetryTargets>,
    /// Where replays, laps and set-ups live (the settings folder); `None`: nothing is saved.
    pub data_dir: Option<PathBuf>,
    /// Pause the drive once it has run this many simulated seconds (s), to draw that instant
    /// (the window's `--hold-at`); `None`: run on.
    pub hold_at_s: Option<f64>,
}

/// A car and track as the screen draws them.
#[derive(Clone, Debug)]
pub struct LoadedDrive {
    /// The vehicle name as asked for.
    pub vehicle: String,
    /// The track name as asked for.
    pub track: String,
    /// The car's parameters (its dimensions, dashboard figures, aids).
    pub params: VehicleParams,
    /// The track's ground to draw (`None` on the endless flat plane).
    pub track_mesh: Option<TrackMesh>,
    /// The imported track's textured scenery (TORCS/Speed Dreams tracks), if any.
    pub track_scene: Option<Arc<TrackScene>>,
    /// "car on track", for notices.
    pub title: String,
}

/// What happened since the last [`Drive::poll`], for the screen to show.
#[derive(Debug)]
pub enum DriveEvent {
    /// A car and track loaded in the background now drive: draw them.
    Swapped(Box<LoadedDrive>),
    /// A line for the user.
    Notice(String),
    /// The camera binding was pressed.
    NextCamera,
    /// Auto-gain proposes this force-feedback gain (the settings screen offers it).
    AutoGainProposal(f64),
    /// The force-feedback direction check finished.
    FfbDirection {
        /// What the check found.
        outcome: DirectionOutcome,
        /// The invert setting it was run with.
        invert: bool,
    },
    /// The emergency stop holds force feedback off until the user turns it back on.
    FfbEmergencyStopped,
    /// A raw input event, for the settings screen's live values.
    RawInput(InputEvent),
}

/// The figures of a drive at its end.
#[derive(Clone, Debug)]
pub struct DriveEnd {
    /// The sim thread's figures.
    pub stats: SimStats,
    /// The sim thread panicked.
    pub sim_panicked: bool,
    /// Where the sound played and its latency, or "silent".
    pub sound: String,
    /// Telemetry packets sent and failed, and states dropped; `None` when nothing was sent.
    pub telemetry: Option<(u64, u64, u64)>,
}

/// A running drive (see the module docs).
pub struct Drive {
    sim: Option<SimHandle>,
    /// gilrs on its thread (gamepads and wheels).
    devices: Option<DeviceThread>,
    /// Evdev input threads from the wheel set-up (pedals, handbrakes gilrs cannot see).
    wheel_threads: Vec<DeviceThread>,
    /// Reopens the force-feedback wheel after an unplug or a settings change.
    connector: Option<FfbConnector>,
    sound: Sound,
    sound_status: String,
    telemetry: Option<TelemetrySender>,
    telemetry_status: String,
    recordings: Recordings,
    laps: DriveLaps,
    loader: Option<(SessionLoader, String, String)>,
    aids_of_car: AidParams,
    data_dir: Option<PathBuf>,
}

impl Drive {
    /// Loads the car and track, opens the devices, the wheel, the sound and telemetry, and
    /// starts the sim thread. Returns the drive, the keyboard's sender (the window feeds it
    /// its keys) and what to draw. Lines about devices and files go to standard error.
    ///
    /// # Errors
    /// Loading the car, track or set-up, starting the telemetry sender or the sim thread.
    pub fn start(
        request: &DriveRequest,
        settings: &Settings,
    ) -> Result<(Self, KeyboardSender, LoadedDrive)> {
        let setup = request
            .setup
            .clone()
            .or_else(|| chosen_setup(settings, request.data_dir.as_deref(), &request.vehicle));
        let mut session =
            Session::load_with_setup(&request.vehicle, &request.track, setup.as_deref())
                .with_context(|| format!("loading {} on {}", request.vehicle, request.track))?;
        // The weather of the settings, then every drive is recorded (a replay), from there.
        if let Err(error) = session.set_environment(settings.session.environment) {
            eprintln!("gripline: {error:#}; the default weather is used");
        }
        let mut recordings = Recordings::new(request.data_dir.clone());
        eprintln!("{}", recordings.start(&mut session));
        let (laps, laps_warning) = DriveLaps::new(request.data_dir.clone(), &session);
        if let Some(warning) = &laps_warning {
            eprintln!("gripline: laps: {warning}");
        }
        for warning in session.warnings() {
            eprintln!("gripline: warning: {warning}");
        }
        let loaded = LoadedDrive::of(&session, &request.vehicle, &request.track);
        let hold_at_tick = request.hold_at_s.map(|s| session.ticks_in(s));
        let aids_of_car = loaded.params.aids.clone();

        let wheel = wheel_setup::set_up(settings);
        eprintln!("gripline: {}", wheel.ffb.summary);
        let connector = FfbConnector::spawn(
            wheel_setup::open_ffb,
            settings.clone(),
            wheel.ffb.status,
            wheel.ffb.control.clone(),
        )
        .map_err(|error| eprintln!("gripline: force feedback will not reconnect: {error}"))
        .ok();
        let (mut rig, wheel_threads) = wheel.into_rig(settings);
        let keyboard = rig.add_keyboard();
        let devices = match DeviceThread::gilrs() {
            Ok((thread, device)) => {
                rig.add_input(Box::new(device));
                Some(thread)
            }
            Err(error) => {
                eprintln!("gripline: no gamepad or wheel input: {error}");
                None
            }
        };
        // Sound: the sim thread feeds the audio thread every tick; without a device the line
        // says why and the simulator runs on silently.
        let (sound, sound_tap, sound_line) =
            Sound::start(&settings.audio, session.vehicle(), session.sound());
        eprintln!("{sound_line}");
        let sound_status = sound_status(&sound, &sound_line);
        let mut taps = vec![sound_tap];
        // Telemetry out: a sender thread fed by the sim thread without waiting; the command
        // line's destinations, or the settings'.
        let initial = request
            .telemetry
            .filter(TelemetryTargets::any)
            .unwrap_or_else(|| {
                telemetry::targets_of(&settings.telemetry).unwrap_or_else(|error| {
                    eprintln!("gripline: telemetry: {error}; nothing sent");
                    TelemetryTargets::default()
                })
            });
        let (telemetry, telemetry_tap) = TelemetrySender::spawn(initial, session.vehicle())
            .context("starting the telemetry sender")?;
        taps.push(Box::new(telemetry_tap));
        if initial.any() {
            eprintln!("gripline: telemetry: {}", telemetry::describe(&initial));
        }
        let mut sim = SimThread::spawn_with_observer(
            session,
            rig,
            SimConfig {
                autopilot: request.autopilot,
                hold_at_tick,
                ..SimConfig::default()
            },
            Some(Box::new(ObserverGroup(taps))),
        )
        .context("starting the sim thread")?;
        if !request.autopilot {
            // The autopilot selects the automatic box itself.
            let _ = sim.send(Command::SetGearboxMode(request.gearbox));
        }
        let _ = sim.send(Command::SetAids(aids_for(
            &aids_of_car,
            settings.session.aids,
        )));
        let drive = Self {
            sim: Some(sim),
            devices,
            wheel_threads,
            connector,
            sound,
            sound_status,
            telemetry: Some(telemetry),
            telemetry_status: format!("Now: {}.", telemetry::describe(&initial)),
            recordings,
            laps,
            loader: None,
            aids_of_car,
            data_dir: request.data_dir.clone(),
        };
        Ok((drive, keyboard, loaded))
    }

    /// Sends a command to the sim thread; a full queue (64 commands) drops it with a line on
    /// standard error.
    pub fn send(&mut self, command: Command) {
        if let Some(sim) = self.sim.as_mut()
            && sim.send(command).is_err()
        {
            eprintln!("gripline: the sim thread's command queue is full; command dropped");
        }
    }

    /// The sim thread's figures now.
    pub fn stats(&self) -> Option<SimStats> {
        self.sim.as_ref().map(SimHandle::stats)
    }

    /// Feeds the newest snapshots to `interpolator` and to the laps; returns a notice when a
    /// lap was completed.
    pub fn drain_snapshots(&mut self, interpolator: &mut Interpolator) -> Option<String> {
        let sim = self.sim.as_mut()?;
        let laps = &mut self.laps;
        let mut notice = None;
        interpolator.drain_each(sim.snapshots(), |stamped| {
            if let Some(text) = laps.feed(stamped) {
                notice = Some(text);
            }
        });
        notice
    }

    /// The car's own aids (ABS and traction control as the car file sets them).
    pub fn aids_of_car(&self) -> &AidParams {
        &self.aids_of_car
    }

    /// The laps: best, last, delta, ghost, export.
    pub fn laps(&self) -> &DriveLaps {
        &self.laps
    }

    /// The laps, to change their settings (the ghost).
    pub fn laps_mut(&mut self) -> &mut DriveLaps {
        &mut self.laps
    }

    /// The replay recordings of this drive.
    pub fn recordings(&mut self) -> &mut Recordings {
        &mut self.recordings
    }

    /// Where saved replays are (none without a settings folder).
    pub fn saved_replays_dir(&self) -> Option<&Path> {
        self.recordings.saved_dir()
    }

    /// What the sound does now, for the Sound tab: the device playing, or why it is silent.
    pub fn sound_status(&self) -> &str {
        &self.sound_status
    }

    /// What the telemetry sender sends now, for the Telemetry tab.
    pub fn telemetry_status(&self) -> &str {
        &self.telemetry_status
    }

    /// Starts loading another car and track in the background, with `setup` or else the
    /// set-up `settings` choose for the car; [`Drive::poll`] swaps them in once ready.
    ///
    /// # Errors
    /// The loader thread could not start.
    pub fn load(
        &mut self,
        vehicle: &str,
        track: &str,
        setup: Option<&Path>,
        settings: &Settings,
    ) -> Result<()> {
        let setup = setup
            .map(Path::to_path_buf)
            .or_else(|| chosen_setup(settings, self.data_dir.as_deref(), vehicle));
        let loader = SessionLoader::spawn_with_setup(vehicle, track, setup.as_deref())
            .with_context(|| format!("cannot start loading {vehicle}"))?;
        self.loader = Some((loader, vehicle.to_owned(), track.to_owned()));
        Ok(())
    }

    /// Opens the sound device the settings now name; returns the line for the terminal.
    pub fn set_audio_device(&mut self, audio: &AudioSettings) -> String {
        let line = self.sound.set_device(audio);
        self.sound_status = sound_status(&self.sound, &line);
        line
    }

    /// Applies the settings' volumes and mute.
    pub fn set_audio_mix(&self, audio: &AudioSettings) {
        self.sound.set_mix(audio);
    }

    /// Sends telemetry where the settings now say; returns the line for the user.
    pub fn set_telemetry(&mut self, settings: &TelemetrySettings) -> String {
        let Some(sender) = self.telemetry.as_mut() else {
            return "not running".to_owned();
        };
        let result = telemetry::targets_of(settings)
            .and_then(|targets| sender.set_targets(targets).map(|()| targets));
        let line = match result {
            Ok(targets) => telemetry::describe(&targets),
            Err(error) => format!("{error}; the previous destinations stay"),
        };
        self.telemetry_status = format!("Now: {}.", telemetry::describe(&sender.targets()));
        line
    }

    /// Reopens the force-feedback wheel as the settings now route it.
    pub fn relink_ffb(&self, settings: &Settings) {
        if let Some(connector) = &self.connector {
            connector.settings_changed(settings);
        }
    }

    /// Everything that happened since the last call: the sim thread's events, a reopened
    /// wheel, a lost sound device, a car and track loaded in the background (swapped in with
    /// the weather, gearbox mode and aids of `settings`).
    pub fn poll(&mut self, settings: &Settings) -> Vec<DriveEvent> {
        let mut events = Vec::new();
        self.drain_sim_events(&mut events);
        if let Some(line) = self.sound.poll_lost() {
            eprintln!("{line}");
            self.sound_status = sound_status(&self.sound, &line);
            events.push(DriveEvent::Notice(
                "Sound device lost: running silently".to_owned(),
            ));
        }
        self.poll_loader(settings, &mut events);
        events
    }

    fn drain_sim_events(&mut self, events: &mut Vec<DriveEvent>) {
        let Some(sim) = self.sim.as_mut() else { return };
        while let Some(event) = sim.next_raw_input() {
            events.push(DriveEvent::RawInput(event));
        }
        while let Some(event) = sim.next_event() {
            match event {
                // Dropped here, off the sim thread.
                SimEvent::Retired(retired) => drop(retired),
                SimEvent::NextCamera => events.push(DriveEvent::NextCamera),
                SimEvent::CarRecovered(recovery) => {
                    events.push(DriveEvent::Notice(recovery_notice(&recovery)));
                }
                SimEvent::ObserverFailed(error) => {
                    let text = format!("Sound and telemetry out stopped: {error:#}");
                    eprintln!("gripline: {text}");
                    events.push(DriveEvent::Notice(text));
                }
                SimEvent::AutoGainProposal(gain) => events.push(DriveEvent::AutoGainProposal(gain)),
                SimEvent::FfbRunaway(cause) => {
                    let text = format!(
                        "Force feedback CUT: {}. It stays off until you turn it back on \
                         (Settings, Force feedback).",
                        cause.describe()
                    );
                    eprintln!("gripline: {text}");
                    events.push(DriveEvent::Notice(text));
                }
                SimEvent::FfbDirection { outcome, invert } => {
                    events.push(DriveEvent::FfbDirection { outcome, invert });
                }
                SimEvent::FfbFailed => {
                    events.push(DriveEvent::Notice(
                        "Force feedback stopped: the wheel did not accept a write; \
                         reconnecting"
                            .to_owned(),
                    ));
                    if let Some(connector) = &self.connector {
                        connector.device_failed();
                    }
                }
                // Not reconnected: it stays off until the user turns it back on.
                SimEvent::FfbEmergencyStopped => {
                    eprintln!("gripline: force feedback stopped by the emergency stop");
                    events.push(DriveEvent::FfbEmergencyStopped);
                }
                SimEvent::FfbReopen => {
                    events.push(DriveEvent::Notice(
                        "Force feedback back on: opening the wheel again".to_owned(),
                    ));
                    if let Some(connector) = &self.connector {
                        connector.reenable();
                    }
                }
                SimEvent::Input(notice) => {
                    if let (InputNotice::DeviceConnected { .. }, Some(connector)) =
                        (notice, &self.connector)
                    {
                        connector.device_plugged();
                    }
                    events.push(DriveEvent::Notice(input_notice_text(notice)));
                }
            }
        }
        if let Some(opened) = self.connector.as_ref().and_then(FfbConnector::poll) {
            eprintln!("gripline: {}", opened.summary);
            events.push(DriveEvent::Notice(opened.summary));
            // When the queue is full the link is freed here, never on the sim thread; the
            // connector tries again on the next failure or plug.
            let _ = sim.send(Command::SetFfbLink(Box::new(opened.link)));
        }
    }

    /// Swaps in a car and track loaded in the background, once ready.
    fn poll_loader(&mut self, settings: &Settings, events: &mut Vec<DriveEvent>) {
        let Some((loader, _, _)) = self.loader.as_mut() else {
            return;
        };
        let Some(result) = loader.poll() else { return };
        let Some((_, vehicle, track)) = self.loader.take() else {
            return;
        };
        let mut session = match result {
            Ok(session) => session,
            Err(error) => {
                events.push(DriveEvent::Notice(format!("Could not load: {error:#}")));
                return;
            }
        };
        if session.world().track().is_none() {
            events.push(DriveEvent::Notice(
                "That track has no ground to draw (the flat plane): not loaded".to_owned(),
            ));
            return;
        }
        let loaded = LoadedDrive::of(&session, &vehicle, &track);
        self.aids_of_car = loaded.params.aids.clone();
        for warning in session.warnings() {
            eprintln!("gripline: warning: {warning}");
        }
        if let Err(error) = session.set_environment(settings.session.environment) {
            eprintln!("gripline: {error:#}; the default weather is used");
        }
        eprintln!("{}", self.recordings.start(&mut session));
        let (laps, warning) = self.laps.for_session(self.data_dir.clone(), &session);
        if let Some(warning) = warning {
            eprintln!("gripline: laps: {warning}");
        }
        self.laps = laps;
        self.send(Command::Swap(Box::new(session)));
        self.send(Command::SetGearboxMode(settings.session.gearbox_mode));
        let aids = aids_for(&self.aids_of_car, settings.session.aids);
        self.send(Command::SetAids(aids));
        events.push(DriveEvent::Swapped(Box::new(loaded)));
    }

    /// Stops the sim thread, the devices and the wheel, ends the recordings and the
    /// telemetry; returns the figures (`None` when already shut down).
    pub fn shutdown(&mut self) -> Option<DriveEnd> {
        let sim = self.sim.take()?;
        let stats = sim.stats();
        let sound = match (self.sound.device(), self.sound.callback_latency_ms()) {
            (Some(device), Some(ms)) => format!(
                "sound: {device}: {ms:.1} ms from the audio callback to the speaker \
                 (host's prediction), plus up to one callback of ticks"
            ),
            (Some(device), None) => format!("sound: {device}: no callback yet"),
            (None, _) => "sound: silent".to_owned(),
        };
        let sim_panicked = sim.shutdown().is_err();
        if let Some(devices) = self.devices.take() {
            devices.stop();
        }
        for thread in self.wheel_threads.drain(..) {
            thread.stop();
        }
        // Closes the last device it opened (the sim thread has already stopped it).
        self.connector = None;
        // The sim thread has freed its sessions: the recordings end their files.
        self.recordings.finish();
        let telemetry = self.telemetry.take().and_then(|telemetry| {
            let (sent, failed) = telemetry.counts();
            (sent + failed > 0).then(|| (sent, failed, telemetry.dropped()))
        });
        Some(DriveEnd {
            stats,
            sim_panicked,
            sound,
            telemetry,
        })
    }
}

impl Drop for Drive {
    fn drop(&mut self) {
        let _ = self.shutdown();
    }
}

impl LoadedDrive {
    /// What the screen draws of `session` (loaded as `vehicle` on `track`), with the scenery
    /// of an imported track loaded (lines about it go to standard error). The window and
    /// `gripline render` both draw this.
    pub fn of(session: &Session, vehicle: &str, track: &str) -> Self {
        let params = session.vehicle().params().clone();
        let title = format!("{} on {}", params.name, session.world().name());
        Self {
            vehicle: vehicle.to_owned(),
            track: track.to_owned(),
            track_mesh: session.world().track().map(|t| t.mesh.clone()),
            track_scene: track_scene_of(session),
            params,
            title,
        }
    }
}

/// The textured scenery of an imported track, if it has one.
fn track_scene_of(session: &Session) -> Option<Arc<TrackScene>> {
    match gripline_torcs::track::scene_file::scene_for_track(session.world().track()?)? {
        Ok(scene) => {
            eprintln!(
                "gripline: scenery {}: {} triangles in {} batches, {} textures",
                scene.source.display(),
                scene.triangle_count(),
                scene.batches.len(),
                scene.textures.len()
            );
            for warning in &scene.warnings {
                eprintln!("gripline: scenery: {warning}");
            }
            Some(Arc::new(scene))
        }
        Err(error) => {
            eprintln!(
                "gripline: the track's scenery cannot be drawn ({error}); the generated ground \
                 is drawn instead"
            );
            None
        }
    }
}

/// What the Sound tab says about the output: the device playing, or the reason for silence.
fn sound_status(sound: &Sound, line: &str) -> String {
    match sound.device() {
        Some(device) => format!("Playing on {device}."),
        None => line
            .strip_prefix("gripline: sound: ")
            .unwrap_or(line)
            .to_owned(),
    }
}

/// The notice for a device plugged, lost or refused.
fn input_notice_text(notice: InputNotice) -> String {
    match notice {
        InputNotice::DeviceConnected { .. } => "Input device connected".to_owned(),
        InputNotice::DeviceLost { .. } => "Input device lost: paused".to_owned(),
        InputNotice::TooManyDevices { .. } => {
            "Too many input devices: the newest one is ignored".to_owned()
        }
    }
}

/// The line the driver sees when the car was put back on the road.
fn recovery_notice(recovery: &Recovery) -> String {
    match recovery.reason {
        RecoveryReason::Requested => "Car reset: back on the road, at rest".to_owned(),
        reason => format!(
            "Car recovered ({}): back on the road, at rest",
            reason.describe()
        ),
    }
}

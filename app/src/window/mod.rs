//! The simulator window: winit on the main thread, wgpu rendering, the egui HUD and menus,
//! fed by the 1 kHz sim thread through the snapshot ring (`docs/architecture.md`, "Data flow").
//!
//! - [`surface_window`]: the winit window behind the renderer's window surface (whose
//!   frames, screenshots, quality tiers and egui painting live in `gripline-render`);
//! - [`egui_layer`]: egui's input, UI pass and painting over the scene;
//! - [`hud`]: speed, rpm, gear, pedals, steering, force feedback, wheels, laps, timing;
//! - [`pause_menu`]: resume, reset, settings, quit;
//! - [`keyboard`]: winit key codes to USB HID usages for the keyboard device;
//! - [`settings_flow`], [`session_tabs`]: the settings screen in the window, saved and
//!   applied without a restart;
//! - [`frame_stats`]: frame timing of the render thread.
//!
//! The loop is `ControlFlow::Wait` with a redraw requested after each frame: frames are
//! paced by the present mode (vsync waits in `present`), and a minimised or occluded window
//! waits on events instead of spinning.

mod audio_tab;
pub mod egui_layer;
mod events;
mod ffb_graph;
mod frame;
pub mod frame_stats;
pub mod garage_tab;
pub mod garage_tyres;
mod graphics;
pub mod hud;
pub mod keyboard;
pub mod lap_analysis;
pub mod laps;
mod options;
pub mod pause_menu;
pub mod recordings;
pub mod replay_controls;
mod replay_mode;
pub mod replay_viewer;
pub mod session_tabs;
pub mod settings_flow;
mod surface_window;
mod telemetry_tab;
mod tyre_chart;

use frame::{TickRate, stats_report};
pub use options::{WindowOptions, run_from_args};

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result};
use gripline_physics::powertrain::GearboxMode;
use gripline_render::{
    AdapterChoice, Camera, CameraMode, FrameInput, GpuContext, QualityTier, RenderSettings,
    SceneRenderer, SpinAngles, VehiclePose, VehicleVisual,
};
use winit::application::ApplicationHandler;
use winit::event::{ElementState, KeyEvent, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::{KeyCode, PhysicalKey};
use winit::window::{Window, WindowId};

use crate::ffb_connector::FfbConnector;
use gripline_app::sound::Sound;
use gripline_devices::device_thread::DeviceThread;
use gripline_input::bindings::InputNotice;
use gripline_sim::realtime::TapGroup;
use gripline_sim::realtime::{
    Command, Interpolator, KeyboardSender, Session, SimConfig, SimEvent, SimHandle, SimThread,
    Stamped,
};
use gripline_sim::telemetry_out::TelemetrySender;

use self::egui_layer::EguiLayer;
use self::frame_stats::FrameStats;
use self::laps::WindowLaps;
use self::pause_menu::MenuChoice;
use self::recordings::Recordings;
use self::replay_viewer::{ReplayViewer, TimelineLoader};
use self::settings_flow::SettingsFlow;
use self::surface_window::{WinitWindow, present_choice};
use gripline_config::{
    Fullscreen, PresentMode as PresentChoice, QualityChoice, Settings, SettingsStore,
};
use gripline_render::window_surface::WindowSurface;

/// What the user saw at exit (printed, and used by the end-to-end test).
#[derive(Clone, Copy, Debug, Default)]
pub struct ExitReport {
    /// Path length of the car's CG over the rendered frames (m).
    pub distance_m: f64,
    /// Simulated time of the newest snapshot (s).
    pub simulated_s: f64,
}

/// Runs the simulator window until the user quits or `--exit-after` elapses.
///
/// # Errors
/// Loading the car or track, starting the sim thread, creating the window or the GPU
/// device, or writing the screenshot.
pub fn run(options: WindowOptions, flow: SettingsFlow) -> Result<()> {
    // Load before opening anything: a wrong name is an error on the terminal, not a window.
    // The set-up: the command line's, or the one the settings choose for this car.
    let setup = options
        .setup
        .clone()
        .or_else(|| flow.setup_file_for(&options.vehicle));
    let mut session = Session::load_with_setup(&options.vehicle, &options.track, setup.as_deref())
        .with_context(|| format!("loading {} on {}", options.vehicle, options.track))?;
    // The weather of the settings, then every drive is recorded (a replay), from there.
    if let Err(error) = session.set_environment(flow.settings.session.environment) {
        eprintln!("gripline: {error:#}; the default weather is used");
    }
    let mut recordings = Recordings::new(flow.data_dir());
    eprintln!("{}", recordings.start(&mut session));
    let (laps, laps_warning) = WindowLaps::new(flow.data_dir(), &session);
    if let Some(warning) = &laps_warning {
        eprintln!("gripline: laps: {warning}");
    }
    for warning in session.warnings() {
        eprintln!("gripline: warning: {warning}");
    }
    let track_mesh = session
        .world()
        .track()
        .map(|t| t.mesh.clone())
        .context("the simulator window needs a track (not the endless flat plane)")?;
    let track_scene = graphics::track_scene_of(&session);
    let visual = VehicleVisual::from_params(session.vehicle().params());
    let limiter_rpm = session.vehicle().params().powertrain.engine.limiter_rpm;
    let redline_rpm = session.vehicle().params().powertrain.engine.redline_rpm;
    let lock_deg = session.vehicle().params().steering.lock_deg;

    let aids_of_car = session.vehicle().params().aids.clone();
    let settings = &flow.settings;
    let wheel = gripline_app::wheel_setup::set_up(settings);
    eprintln!("gripline: {}", wheel.ffb.summary);
    let connector = FfbConnector::spawn(
        gripline_app::wheel_setup::open_ffb,
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
    // Sound: the sim thread feeds the audio thread every tick; without a device the line says
    // why and the simulator runs on silently.
    let (sound, sound_tap, sound_line) = Sound::start(&settings.audio, session.vehicle());
    eprintln!("{sound_line}");
    let mut taps = vec![sound_tap];
    // Telemetry out: a sender thread fed by the sim thread without waiting; the command
    // line's destinations, or the settings'.
    let initial = if options.telemetry.any() {
        options.telemetry
    } else {
        gripline_app::telemetry::targets_of(&settings.telemetry).unwrap_or_else(|error| {
            eprintln!("gripline: telemetry: {error}; nothing sent");
            gripline_sim::telemetry_out::TelemetryTargets::default()
        })
    };
    let (telemetry, telemetry_tap) = TelemetrySender::spawn(initial, session.vehicle())
        .context("starting the telemetry sender")?;
    taps.push(Box::new(telemetry_tap));
    if initial.any() {
        eprintln!(
            "gripline: telemetry: {}",
            gripline_app::telemetry::describe(&initial)
        );
    }
    let sim = SimThread::spawn_with_tap(
        session,
        rig,
        SimConfig {
            autopilot: options.autopilot,
            ..SimConfig::default()
        },
        Some(Box::new(TapGroup(taps))),
    )
    .context("starting the sim thread")?;
    let mut sim = sim;
    if !options.autopilot {
        // The autopilot selects the automatic box itself.
        let _ = sim.send(Command::SetGearboxMode(options.gearbox));
    }
    let _ = sim.send(Command::SetAids(settings_flow::aids_for(
        &aids_of_car,
        settings.session.aids,
    )));

    let mut flow = flow;
    flow.current = (options.vehicle.clone(), options.track.clone());
    flow.audio_status = sound_status(&sound, &sound_line);
    flow.telemetry_status = format!("Now: {}.", gripline_app::telemetry::describe(&initial));

    let event_loop =
        EventLoop::new().context("opening the display (is DISPLAY or WAYLAND_DISPLAY set?)")?;
    event_loop.set_control_flow(ControlFlow::Wait);
    let mut app = App {
        options,
        track_mesh,
        track_scene,
        visual,
        dash: DashFacts {
            redline_rpm,
            limiter_rpm,
            lock_deg,
        },
        keyboard,
        sim: Some(sim),
        devices,
        wheel_threads,
        connector,
        running: None,
        error: None,
        report: ExitReport::default(),
        stats_text: None,
        flow,
        aids_of_car,
        loader: None,
        loading: None,
        sound,
        telemetry: Some(telemetry),
        recordings,
        laps,
        viewer: None,
        replay_loader: None,
        replay_picker: None,
        replay_differs: None,
        track_mesh_live: None,
    };
    event_loop
        .run_app(&mut app)
        .context("running the window's event loop")?;
    app.shutdown();
    if let Some(error) = app.error.take() {
        return Err(error);
    }
    println!(
        "distance driven: {:.1} m in {:.2} s simulated",
        app.report.distance_m, app.report.simulated_s
    );
    if let Some(text) = app.stats_text.take() {
        println!("{text}");
    }
    Ok(())
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

/// Figures of the car the dashboard needs.
#[derive(Clone, Copy, Debug)]
struct DashFacts {
    redline_rpm: f64,
    limiter_rpm: f64,
    lock_deg: f64,
}

struct App {
    options: WindowOptions,
    track_mesh: gripline_physics::track::TrackMesh,
    visual: VehicleVisual,
    dash: DashFacts,
    keyboard: KeyboardSender,
    sim: Option<SimHandle>,
    devices: Option<DeviceThread>,
    /// Evdev input threads from the wheel set-up (pedals, handbrakes gilrs cannot see).
    wheel_threads: Vec<DeviceThread>,
    /// Reopens the force-feedback wheel after an unplug or a settings change.
    connector: Option<FfbConnector>,
    running: Option<Running>,
    error: Option<anyhow::Error>,
    report: ExitReport,
    stats_text: Option<String>,
    flow: SettingsFlow,
    aids_of_car: gripline_physics::vehicle::AidParams,
    loader: Option<gripline_sim::realtime::SessionLoader>,
    /// The car and track the loader loads.
    loading: Option<(String, String)>,
    /// The sound output (silent without a device).
    sound: Sound,
    /// The telemetry sender (idle while nothing is to be sent).
    telemetry: Option<TelemetrySender>,
    /// The replay recordings of every drive.
    recordings: Recordings,
    /// Laps: recorder, best laps, delta, ghost, analysis.
    laps: WindowLaps,
    /// The replay being watched.
    viewer: Option<ReplayViewer>,
    /// A replay being re-simulated for the viewer.
    replay_loader: Option<TimelineLoader>,
    /// The replay picker, open, with the files it lists.
    replay_picker: Option<Vec<std::path::PathBuf>>,
    /// A replay that differs from this build or its files, waiting for "play anyway".
    replay_differs: Option<(std::path::PathBuf, Vec<String>)>,
    /// The live track and car while the viewer shows the replay's.
    track_mesh_live: Option<(gripline_physics::track::TrackMesh, VehicleVisual)>,
    /// The live track's textured scenery (imported TORCS tracks), drawn in place of the
    /// generated ground (not in the replay viewer).
    track_scene: Option<Arc<gripline_torcs::track::scene_file::TrackScene>>,
}

/// Everything that exists once the window does.
struct Running {
    window: Arc<Window>,
    gpu: GpuContext,
    surface: WindowSurface,
    scene: SceneRenderer,
    egui: EguiLayer,
    interpolator: Interpolator,
    camera: Camera,
    latest: Option<Stamped>,
    last_position: Option<glam::DVec3>,
    started: Instant,
    last_frame: Option<Instant>,
    frames: FrameStats,
    tick_rate: TickRate,
    show_timing: bool,
    show_ffb_graph: bool,
    ffb_graph: ffb_graph::FfbGraph,
    notice: Option<(String, Instant)>,
    quit_requested: bool,
}

impl App {
    fn send(&mut self, command: Command) {
        if let Some(sim) = self.sim.as_mut() {
            // The queue holds 64 commands; a UI that fills it is sending nonsense.
            if sim.send(command).is_err() {
                eprintln!("gripline: the sim thread's command queue is full; command dropped");
            }
        }
    }

    fn is_paused(&self) -> bool {
        self.running
            .as_ref()
            .and_then(|r| r.latest.as_ref())
            .is_some_and(|s| s.hud.paused)
    }

    fn notify(&mut self, text: String) {
        if let Some(r) = self.running.as_mut() {
            r.notice = Some((text, Instant::now()));
        }
    }

    /// Acts on the settings the user applied (or on the screen's other buttons).
    fn on_applied(&mut self, applied: settings_flow::Applied) {
        for command in applied.commands {
            self.send(command);
        }
        if let Some((vehicle, track)) = applied.load_session {
            let setup = applied
                .load_setup
                .clone()
                .or_else(|| self.flow.setup_file_for(&vehicle));
            match gripline_sim::realtime::SessionLoader::spawn_with_setup(
                &vehicle,
                &track,
                setup.as_deref(),
            ) {
                Ok(loader) => {
                    self.loader = Some(loader);
                    self.loading = Some((vehicle.clone(), track.clone()));
                    self.notify(format!("Loading {vehicle} on {track}…"));
                }
                Err(error) => self.notify(format!("Cannot start loading {vehicle}: {error}")),
            }
        }
        if applied.graphics_changed {
            self.apply_graphics();
        }
        if applied.audio == settings_flow::AudioChange::Device {
            let line = self.sound.set_device(&self.flow.settings.audio);
            eprintln!("{line}");
            self.flow.audio_status = sound_status(&self.sound, &line);
        }
        if applied.audio != settings_flow::AudioChange::Unchanged {
            self.sound.set_mix(&self.flow.settings.audio);
        }
        if applied.telemetry_changed {
            self.apply_telemetry();
        }
        if applied.relink_ffb
            && let Some(connector) = &self.connector
        {
            connector.settings_changed(&self.flow.settings);
        }
        if let Some(text) = applied.notice {
            self.notify(text);
        }
    }

    /// Sends telemetry where the settings now say.
    fn apply_telemetry(&mut self) {
        let Some(sender) = self.telemetry.as_mut() else {
            return;
        };
        let result = gripline_app::telemetry::targets_of(&self.flow.settings.telemetry)
            .and_then(|targets| sender.set_targets(targets).map(|()| targets));
        let line = match result {
            Ok(targets) => gripline_app::telemetry::describe(&targets),
            Err(error) => format!("{error}; the previous destinations stay"),
        };
        eprintln!("gripline: telemetry: {line}");
        self.flow.telemetry_status = format!(
            "Now: {}.",
            gripline_app::telemetry::describe(&sender.targets())
        );
        self.notify(format!("Telemetry: {line}"));
    }

    /// Reports a lost audio device once (the simulator runs on silently).
    fn poll_sound(&mut self) {
        if let Some(line) = self.sound.poll_lost() {
            eprintln!("{line}");
            self.flow.audio_status = sound_status(&self.sound, &line);
            self.notify("Sound device lost: running silently".to_owned());
        }
    }

    /// Swaps in a car and track loaded in the background, once ready.
    fn poll_loader(&mut self) {
        let Some(loader) = self.loader.as_mut() else {
            return;
        };
        let Some(result) = loader.poll() else { return };
        self.loader = None;
        match result {
            Ok(session) => {
                let Some(track) = session.world().track().map(|t| t.mesh.clone()) else {
                    self.notify(
                        "That track has no ground to draw (the flat plane): not loaded".to_owned(),
                    );
                    return;
                };
                let params = session.vehicle().params();
                self.visual = VehicleVisual::from_params(params);
                self.dash = DashFacts {
                    redline_rpm: params.powertrain.engine.redline_rpm,
                    limiter_rpm: params.powertrain.engine.limiter_rpm,
                    lock_deg: params.steering.lock_deg,
                };
                self.aids_of_car = params.aids.clone();
                self.track_mesh = track;
                self.track_scene = graphics::track_scene_of(&session);
                let name = format!("{} on {}", params.name, session.world().name());
                let mut session = session;
                if let Some(names) = self.loading.take() {
                    self.flow.current = names;
                }
                for warning in session.warnings() {
                    eprintln!("gripline: warning: {warning}");
                }
                if let Err(error) = session.set_environment(self.flow.settings.session.environment)
                {
                    eprintln!("gripline: {error:#}; the default weather is used");
                }
                eprintln!("{}", self.recordings.start(&mut session));
                let (laps, warning) = self.laps.for_session(self.flow.data_dir(), &session);
                if let Some(warning) = warning {
                    eprintln!("gripline: laps: {warning}");
                }
                self.laps = laps;
                self.rebuild_scene();
                self.send(Command::Swap(Box::new(session)));
                self.send(Command::SetGearboxMode(
                    self.flow.settings.session.gearbox_mode,
                ));
                let aids =
                    settings_flow::aids_for(&self.aids_of_car, self.flow.settings.session.aids);
                self.send(Command::SetAids(aids));
                if let Some(r) = self.running.as_mut() {
                    r.camera.reset_smoothing();
                    r.interpolator = Interpolator::new(1.5);
                    r.last_position = None;
                }
                self.notify(format!("Now driving {name}"));
            }
            Err(error) => self.notify(format!("Could not load: {error:#}")),
        }
    }

    fn exit_due(&self) -> bool {
        match (self.options.exit_after_s, self.running.as_ref()) {
            (Some(limit), Some(r)) => r.started.elapsed().as_secs_f64() >= limit,
            _ => false,
        }
    }

    fn shutdown(&mut self) {
        if let Some(sim) = self.sim.take() {
            let stats = sim.stats();
            if self.options.print_stats {
                let frames = self.running.as_ref().map(|r| r.frames.summary());
                let sound = match (self.sound.device(), self.sound.callback_latency_ms()) {
                    (Some(device), Some(ms)) => format!(
                        "sound: {device}: {ms:.1} ms from the audio callback to the speaker \
                         (host's prediction), plus up to one callback of ticks"
                    ),
                    (Some(device), None) => format!("sound: {device}: no callback yet"),
                    (None, _) => "sound: silent".to_owned(),
                };
                self.stats_text = Some(format!(
                    "{}\n{}\n{sound}",
                    stats_report(&stats),
                    frames.unwrap_or_default()
                ));
            }
            if sim.shutdown().is_err() {
                self.error
                    .get_or_insert_with(|| anyhow::anyhow!("the sim thread panicked"));
            }
        }
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
        if let Some(telemetry) = self.telemetry.take() {
            let (sent, failed) = telemetry.counts();
            if self.options.print_stats && sent + failed > 0 {
                eprintln!(
                    "gripline: telemetry: {sent} packets sent, {failed} failed, {} states dropped",
                    telemetry.dropped()
                );
            }
        }
        self.running = None;
    }
}

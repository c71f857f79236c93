//! The simulator window: winit on the main thread, wgpu rendering, the egui HUD and menus,
//! fed by the 1 kHz sim thread through the snapshot ring (DESIGN.md sections 2 and 6).
//!
//! - [`surface`]: the window's surface and every outcome of acquiring a frame;
//! - [`egui_layer`]: egui's input, UI pass and painting over the scene;
//! - [`hud`]: speed, rpm, gear, pedals, steering, force feedback, wheels, laps, timing;
//! - [`pause_menu`]: resume, reset, settings, quit;
//! - [`keyboard`]: winit key codes to USB HID usages for the keyboard device;
//! - [`screenshot`]: the last frame to PNG;
//! - [`settings_flow`], [`session_tabs`]: the settings screen in the window, saved and
//!   applied without a restart;
//! - [`frame_stats`]: frame timing of the render thread.
//!
//! The loop is `ControlFlow::Wait` with a redraw requested after each frame: frames are
//! paced by the present mode (vsync waits in `present`), and a minimised or occluded window
//! waits on events instead of spinning.

pub mod egui_layer;
mod ffb_graph;
pub mod frame_stats;
pub mod hud;
pub mod keyboard;
pub mod pause_menu;
pub mod screenshot;
pub mod session_tabs;
pub mod settings_flow;
pub mod surface;

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
use gripline_input::bindings::InputNotice;
use gripline_sim::realtime::device_thread::DeviceThread;
use gripline_sim::realtime::{
    Command, Interpolator, KeyboardSender, Session, SimConfig, SimEvent, SimHandle, SimThread,
    Stamped,
};

use self::egui_layer::EguiLayer;
use self::frame_stats::FrameStats;
use self::pause_menu::MenuChoice;
use self::settings_flow::SettingsFlow;
use self::surface::WindowSurface;
use gripline_config::settings::{
    Fullscreen, PresentMode as PresentChoice, QualityChoice, Settings, SettingsStore,
};

/// How the window starts.
#[derive(Clone, Debug)]
#[allow(clippy::struct_excessive_bools)] // independent start-up switches of the command line
pub struct WindowOptions {
    /// Vehicle name or file.
    pub vehicle: String,
    /// Track name or file.
    pub track: String,
    /// The driver model drives.
    pub autopilot: bool,
    /// Close the window after this long (s).
    pub exit_after_s: Option<f64>,
    /// Save the last frame here before exiting.
    pub screenshot: Option<PathBuf>,
    /// Print the sim-thread and frame timing at exit.
    pub print_stats: bool,
    /// Show the force-feedback graph from the start.
    pub show_ffb_graph: bool,
    /// Inner size of the window (pixels).
    pub size_px: [u32; 2],
    /// Start fullscreen (borderless).
    pub fullscreen: bool,
    /// Present mode.
    pub present: PresentChoice,
    /// Frames in flight (1–3).
    pub frame_latency: u32,
    /// Vertical field of view (deg).
    pub fov_deg: f64,
    /// MSAA samples (1, 2, 4 or 8; reduced to what the adapter supports).
    pub msaa_samples: u32,
    /// The rendering quality tier, or automatic.
    pub quality: QualityChoice,
    /// The camera at start.
    pub camera: CameraMode,
    /// Gearbox mode at start (automatic suits a keyboard; H-pattern needs a shifter).
    pub gearbox: GearboxMode,
    /// A message to show when the window opens (problems with the settings files).
    pub startup_notice: Option<String>,
    /// Open the settings screen on this tab at start.
    pub settings_tab: Option<settings_flow::Tab>,
}

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
    let session = Session::load(&options.vehicle, &options.track)
        .with_context(|| format!("loading {} on {}", options.vehicle, options.track))?;
    for warning in session.warnings() {
        eprintln!("gripline: warning: {warning}");
    }
    let track_mesh = session
        .world()
        .track()
        .map(|t| t.mesh.clone())
        .context("the simulator window needs a track (not the endless flat plane)")?;
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
    let sim = SimThread::spawn(
        session,
        rig,
        SimConfig {
            autopilot: options.autopilot,
            ..SimConfig::default()
        },
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

    let event_loop =
        EventLoop::new().context("opening the display (is DISPLAY or WAYLAND_DISPLAY set?)")?;
    event_loop.set_control_flow(ControlFlow::Wait);
    let mut app = App {
        options,
        track_mesh,
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
    fn start(&mut self, event_loop: &ActiveEventLoop) -> Result<()> {
        let [width, height] = self.options.size_px;
        let mut attributes = Window::default_attributes()
            .with_title("Gripline")
            .with_inner_size(winit::dpi::PhysicalSize::new(
                width.max(320),
                height.max(200),
            ))
            .with_min_inner_size(winit::dpi::PhysicalSize::new(320, 200));
        if self.options.fullscreen {
            attributes =
                attributes.with_fullscreen(Some(winit::window::Fullscreen::Borderless(None)));
        }
        let window = Arc::new(
            event_loop
                .create_window(attributes)
                .context("creating the window")?,
        );
        let instance =
            wgpu::Instance::new(wgpu::InstanceDescriptor::new_with_display_handle_from_env(
                Box::new(event_loop.owned_display_handle()),
            ));
        let raw_surface = instance
            .create_surface(window.clone())
            .context("creating the window's drawing surface")?;
        let gpu =
            GpuContext::with_instance(instance, Some(&raw_surface), AdapterChoice::from_env())
                .context("choosing a graphics adapter")?;
        let surface = WindowSurface::new(
            raw_surface,
            window.clone(),
            &gpu.adapter,
            &gpu.device,
            self.options.present,
            self.options.frame_latency,
        )?;
        let (settings, tier) =
            render_settings(&gpu, self.options.quality, self.options.msaa_samples);
        self.flow.set_automatic_quality(automatic_quality(&gpu));
        let scene = SceneRenderer::new(
            &gpu,
            surface.scene_format(),
            &settings,
            &self.track_mesh,
            &self.visual,
        );
        let egui = EguiLayer::new(&window, &gpu.device, surface.ui_format());
        let mut camera = Camera::new(self.options.camera);
        camera.fov_deg = self.options.fov_deg;
        eprintln!(
            "gripline: {} · {:?} · {}x MSAA · quality {}{}",
            gpu.describe(),
            surface.present_mode(),
            scene.sample_count(),
            tier.name(),
            if self.options.quality == QualityChoice::Automatic {
                " (automatic)"
            } else {
                ""
            }
        );
        self.running = Some(Running {
            window: window.clone(),
            gpu,
            surface,
            scene,
            egui,
            interpolator: Interpolator::new(1.5),
            camera,
            latest: None,
            last_position: None,
            started: Instant::now(),
            last_frame: None,
            frames: FrameStats::default(),
            tick_rate: TickRate::default(),
            show_timing: self.options.print_stats,
            show_ffb_graph: self.options.show_ffb_graph,
            ffb_graph: ffb_graph::FfbGraph::default(),
            notice: self
                .options
                .startup_notice
                .take()
                .map(|text| (text, Instant::now())),
            quit_requested: false,
        });
        if let Some(tab) = self.options.settings_tab {
            self.send(Command::Pause);
            self.flow.open(self.dash.lock_deg, tab);
        }
        window.request_redraw();
        Ok(())
    }

    fn send(&mut self, command: Command) {
        if let Some(sim) = self.sim.as_mut() {
            // The queue holds 64 commands; a UI that fills it is sending nonsense.
            if sim.send(command).is_err() {
                eprintln!("gripline: the sim thread's command queue is full; command dropped");
            }
        }
    }

    fn on_key(&mut self, event_loop: &ActiveEventLoop, event: &KeyEvent) {
        let PhysicalKey::Code(code) = event.physical_key else {
            return;
        };
        let pressed = event.state == ElementState::Pressed;
        if pressed && !event.repeat {
            match code {
                KeyCode::F4 => {
                    if let Some(r) = self.running.as_mut() {
                        r.show_ffb_graph = !r.show_ffb_graph;
                    }
                }
                KeyCode::F3 => {
                    if let Some(r) = self.running.as_mut() {
                        r.show_timing = !r.show_timing;
                    }
                }
                KeyCode::KeyQ if self.is_paused() => event_loop.exit(),
                _ => {}
            }
        }
        if event.repeat {
            return;
        }
        if let Some(usage) = keyboard::hid_usage(code) {
            if self.flow.is_open() {
                // The settings screen sees the key (to bind it); the car does not.
                let now = self
                    .running
                    .as_ref()
                    .map_or(Duration::ZERO, |r| r.started.elapsed());
                self.flow.live.feed(
                    &gripline_input::device::InputEvent::Button {
                        device: gripline_sim::realtime::keyboard::KEYBOARD_DEVICE,
                        button: usage,
                        pressed,
                    },
                    now,
                );
            } else {
                self.keyboard.key(usage, pressed);
            }
        }
    }

    fn is_paused(&self) -> bool {
        self.running
            .as_ref()
            .and_then(|r| r.latest.as_ref())
            .is_some_and(|s| s.hud.paused)
    }

    fn drain_events(&mut self) {
        let Some(sim) = self.sim.as_mut() else { return };
        let now = self
            .running
            .as_ref()
            .map_or(Duration::ZERO, |r| r.started.elapsed());
        while let Some(event) = sim.next_raw_input() {
            self.flow.live.feed(&event, now);
        }
        let mut cycle_camera = 0;
        let mut notices = Vec::new();
        while let Some(event) = sim.next_event() {
            match event {
                // Dropped here, on the UI thread, never on the sim thread.
                SimEvent::Retired(retired) => drop(retired),
                SimEvent::NextCamera => cycle_camera += 1,
                SimEvent::CarRecovered => notices.push("Car recovered to the start".to_owned()),
                SimEvent::AutoGain(gain) => {
                    notices.push(self.flow.auto_gain_applied(gain));
                }
                SimEvent::FfbFailed => {
                    notices.push(
                        "Force feedback stopped: the wheel did not accept a write; \
                         reconnecting"
                            .to_owned(),
                    );
                    if let Some(connector) = &self.connector {
                        connector.device_failed();
                    }
                }
                SimEvent::Input(notice) => {
                    if let (InputNotice::DeviceConnected { .. }, Some(connector)) =
                        (notice, &self.connector)
                    {
                        connector.device_plugged();
                    }
                    notices.push(input_notice_text(notice));
                }
            }
        }
        if let Some(opened) = self.connector.as_ref().and_then(FfbConnector::poll) {
            eprintln!("gripline: {}", opened.summary);
            notices.push(opened.summary);
            // When the queue is full the link is freed here, never on the sim thread; the
            // connector tries again on the next failure or plug.
            let _ = sim.send(Command::SetFfbLink(Box::new(opened.link)));
        }
        if let Some(r) = self.running.as_mut() {
            for _ in 0..cycle_camera {
                r.camera.cycle();
            }
            if let Some(text) = notices.pop() {
                r.notice = Some((text, Instant::now()));
            }
        }
    }

    fn redraw(&mut self, event_loop: &ActiveEventLoop) {
        self.drain_events();
        let exit_due = self.exit_due();
        let Some(sim) = self.sim.as_mut() else { return };
        let stats = sim.stats();
        let Some(r) = self.running.as_mut() else {
            return;
        };
        let frame_start = Instant::now();
        let dt_s = r
            .last_frame
            .map_or(0.0, |t| frame_start.duration_since(t).as_secs_f64());
        r.last_frame = Some(frame_start);

        r.interpolator.drain(sim.snapshots());
        let now = r.started.elapsed();
        if let Some(sample) = r.interpolator.sample(now) {
            r.latest = Some(sample.stamped);
        }
        let Some(stamped) = r.latest else {
            // Nothing simulated yet: wait for the first snapshot.
            r.window.request_redraw();
            return;
        };
        let position = stamped.snapshot.position;
        if let Some(last) = r.last_position {
            let step = position.distance(last);
            if step.is_finite() && step < 50.0 {
                self.report.distance_m += step;
            }
        }
        r.last_position = Some(position);
        self.report.simulated_s = stamped.snapshot.time_s;

        let spin = SpinAngles {
            angles_rad: stamped.wheel_rotation_rad,
        };
        let pose = VehiclePose::from_snapshot(&stamped.snapshot, &spin);
        r.camera.update(&pose, dt_s);

        let paused = stamped.hud.paused;
        if self.flow.is_open() {
            let now = r.started.elapsed();
            self.flow.live.set_now(now);
            self.flow.live.set_ffb_killed(stamped.hud.ffb_killed);
            self.flow.live.feed_ffb(
                crate::settings_ui::live_input::FfbSample {
                    torque_nm: stamped.hud.ffb_torque_nm,
                    clipped: stamped.hud.ffb_clipped,
                },
                now,
            );
        }
        r.ffb_graph.push(
            ffb_graph::GraphSample {
                at: r.started.elapsed(),
                torque_nm: stamped.hud.ffb_torque_nm,
                parts: stamped.hud.ffb_parts,
                clipped: stamped.hud.ffb_clipped,
            },
            stamped.hud.ffb_max_nm,
        );
        let notice = r
            .notice
            .as_ref()
            .filter(|(_, at)| at.elapsed() < Duration::from_secs(4))
            .map(|(text, _)| text.clone());
        let hud_inputs = hud::HudInputs {
            snapshot: &stamped.snapshot,
            redline_rpm: self.dash.redline_rpm,
            limiter_rpm: self.dash.limiter_rpm,
            lock_deg: self.dash.lock_deg,
            ffb: Some((stamped.hud.ffb_level, stamped.hud.ffb_clipping_fraction)),
            laps: hud::LapFigures {
                current_s: stamped.hud.laps.current_lap_s,
                last_s: stamped.hud.laps.last_lap_s,
                best_s: stamped.hud.laps.best_lap_s,
                count: stamped.hud.laps.laps_completed,
            },
            timing: hud::TimingFigures {
                tick_rate_hz: r.tick_rate.update(stats.ticks, frame_start),
                lateness_p50_us: stats.lateness_p50_us,
                lateness_p99_us: stats.lateness_p99_us,
                lateness_max_us: stats.lateness_max_us,
                missed_ticks: stats.missed_ticks + stats.dropped_ticks,
                dropped_snapshots: stats.dropped_snapshots,
                step_cost_us: stats.step_cost_mean_us,
                frame_cpu_ms: r.frames.cpu_median_ms(),
                fps: r.frames.fps(),
            },
            camera: r.camera.mode.name(),
            autopilot: stamped.hud.autopilot,
            show_timing: r.show_timing,
            ffb_graph: r.show_ffb_graph.then_some(&r.ffb_graph),
        };
        let Some(frame) = r.surface.acquire(&r.gpu.instance, &r.gpu.device) else {
            // Minimised or occluded: wait for an event (resize, expose) before trying again,
            // unless an exit is due.
            if exit_due {
                event_loop.exit();
            } else {
                event_loop.set_control_flow(ControlFlow::WaitUntil(
                    Instant::now() + Duration::from_millis(100),
                ));
            }
            return;
        };
        event_loop.set_control_flow(ControlFlow::Wait);
        let mut choice = None;
        let mut applied = None;
        let window = r.window.clone();
        let flow = &mut self.flow;
        let aids_of_car = &self.aids_of_car;
        let prepared = r.egui.run(&window, |ctx| {
            hud::draw(ctx, &hud_inputs);
            if let Some(text) = &notice {
                hud::banner(ctx, text);
            }
            if flow.is_open() {
                applied = flow.show(ctx, aids_of_car);
            } else if paused {
                choice = pause_menu::draw(ctx, None);
            }
        });

        let mut shot_path = None;
        if exit_due {
            shot_path.clone_from(&self.options.screenshot);
        }
        let [width, height] = r.surface.size();
        let input = FrameInput::new(&pose, &r.camera, &self.visual, width, height);
        let mut encoder = r
            .gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("frame"),
            });
        r.scene.render(&mut encoder, &frame.scene_view, &input);
        let mut pending_shot = None;
        if let Some(path) = shot_path.as_ref() {
            // The same frame once more, into a texture the CPU can read.
            let target = screenshot::ScreenshotTarget::new(
                &r.gpu.device,
                width,
                height,
                r.surface.ui_format(),
                r.surface.scene_format(),
            );
            r.scene.render(&mut encoder, &target.scene_view, &input);
            pending_shot = Some((target, path.clone()));
        }
        let mut targets = vec![&frame.ui_view];
        if let Some((target, _)) = pending_shot.as_ref() {
            targets.push(&target.ui_view);
        }
        let user_buffers = r.egui.paint(
            &r.gpu.device,
            &r.gpu.queue,
            &mut encoder,
            &targets,
            [width, height],
            prepared,
        );
        let pending_shot =
            pending_shot.map(|(target, path)| (target.copy_out(&r.gpu.device, &mut encoder), path));
        r.gpu
            .queue
            .submit(user_buffers.into_iter().chain([encoder.finish()]));
        r.window.pre_present_notify();
        let suboptimal = frame.suboptimal;
        r.gpu.queue.present(frame.texture);
        if suboptimal {
            r.surface.refresh(&r.gpu.device);
        }
        r.frames.record(frame_start.elapsed(), frame_start);

        if let Some((pending, path)) = pending_shot {
            match pending.finish(&r.gpu.device, &path) {
                Ok(_) => eprintln!("gripline: screenshot saved to {}", path.display()),
                Err(error) => self.error = Some(error),
            }
        }
        match choice {
            Some(MenuChoice::Resume) => self.send(Command::Resume),
            Some(MenuChoice::ResetCar) => {
                self.send(Command::Reset);
                self.send(Command::Resume);
            }
            Some(MenuChoice::Settings) => {
                self.keyboard.release_all();
                self.flow
                    .open(self.dash.lock_deg, settings_flow::Tab::Controls);
            }
            Some(MenuChoice::Quit) => {
                if let Some(r) = self.running.as_mut() {
                    r.quit_requested = true;
                }
            }
            None => {}
        }
        if let Some(applied) = applied {
            self.on_applied(applied);
        }
        self.poll_loader();
        let quit = self.running.as_ref().is_some_and(|r| r.quit_requested);
        if exit_due || quit {
            event_loop.exit();
            return;
        }
        if let Some(r) = self.running.as_ref() {
            r.window.request_redraw();
        }
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
            match gripline_sim::realtime::SessionLoader::spawn(&vehicle, &track) {
                Ok(loader) => {
                    self.loader = Some(loader);
                    self.notify(format!("Loading {vehicle} on {track}…"));
                }
                Err(error) => self.notify(format!("Cannot start loading {vehicle}: {error}")),
            }
        }
        if applied.graphics_changed {
            self.apply_graphics();
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

    /// Applies the graphics settings in force to the window, surface, scene and camera.
    fn apply_graphics(&mut self) {
        let g = self.flow.settings.graphics.clone();
        let Some(r) = self.running.as_mut() else {
            return;
        };
        r.camera.fov_deg = g.fov_deg;
        r.surface
            .set_presentation(&r.gpu.device, g.present_mode, g.frame_latency);
        let size = r.window.inner_size();
        if (size.width, size.height) != (g.width, g.height) && g.fullscreen == Fullscreen::Windowed
        {
            let _ = r
                .window
                .request_inner_size(winit::dpi::PhysicalSize::new(g.width, g.height));
        }
        r.window.set_fullscreen(match g.fullscreen {
            Fullscreen::Windowed => None,
            Fullscreen::Borderless | Fullscreen::Exclusive => {
                Some(winit::window::Fullscreen::Borderless(None))
            }
        });
        if (g.msaa_samples, g.quality) != (self.options.msaa_samples, self.options.quality) {
            self.options.msaa_samples = g.msaa_samples;
            self.options.quality = g.quality;
            self.rebuild_scene();
        }
    }

    /// Builds the scene renderer again (new track, car, MSAA or quality tier).
    fn rebuild_scene(&mut self) {
        let Some(r) = self.running.as_mut() else {
            return;
        };
        let (settings, _) =
            render_settings(&r.gpu, self.options.quality, self.options.msaa_samples);
        r.scene = SceneRenderer::new(
            &r.gpu,
            r.surface.scene_format(),
            &settings,
            &self.track_mesh,
            &self.visual,
        );
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
                let name = format!("{} on {}", params.name, session.world().name());
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
                self.stats_text = Some(format!(
                    "{}\n{}",
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
        self.running = None;
    }
}

/// The sim thread's tick rate, measured by the UI over half-second windows.
#[derive(Clone, Copy, Debug, Default)]
struct TickRate {
    mark: Option<(Instant, u64)>,
    rate_hz: f64,
}

impl TickRate {
    fn update(&mut self, ticks: u64, now: Instant) -> f64 {
        match self.mark {
            None => self.mark = Some((now, ticks)),
            Some((at, then)) => {
                let span = now.duration_since(at).as_secs_f64();
                if span >= 0.5 {
                    self.rate_hz = ticks.saturating_sub(then) as f64 / span;
                    self.mark = Some((now, ticks));
                }
            }
        }
        self.rate_hz
    }
}

/// The sim thread's figures for `--stats`.
/// The tier the adapter gets automatically.
fn automatic_quality(gpu: &GpuContext) -> QualityTier {
    QualityTier::for_adapter(gpu.adapter.get_info().device_type)
}

/// The renderer's settings for the user's quality `choice` and MSAA on `gpu`, and the tier.
fn render_settings(
    gpu: &GpuContext,
    choice: QualityChoice,
    msaa_samples: u32,
) -> (RenderSettings, QualityTier) {
    let tier = match choice {
        QualityChoice::Automatic => automatic_quality(gpu),
        QualityChoice::Low => QualityTier::Low,
        QualityChoice::Medium => QualityTier::Medium,
        QualityChoice::High => QualityTier::High,
    };
    (tier.settings(msaa_samples), tier)
}

fn stats_report(stats: &gripline_sim::realtime::SimStats) -> String {
    format!(
        "sim ticks: {}  lateness p50 {:.0} µs  p99 {:.0} µs  max {:.0} µs\n\
         missed ticks: {}  dropped after stalls: {}  snapshots dropped: {}\n\
         tick cost: mean {:.1} µs  p99 {:.1} µs  max {:.1} µs  priority raised: {}",
        stats.ticks,
        stats.lateness_p50_us,
        stats.lateness_p99_us,
        stats.lateness_max_us,
        stats.missed_ticks,
        stats.dropped_ticks,
        stats.dropped_snapshots,
        stats.step_cost_mean_us,
        stats.step_cost_p99_us,
        stats.step_cost_max_us,
        stats.priority_raised
    )
}

fn input_notice_text(notice: gripline_input::bindings::InputNotice) -> String {
    use gripline_input::bindings::InputNotice;
    match notice {
        InputNotice::DeviceConnected { .. } => "Input device connected".to_owned(),
        InputNotice::DeviceLost { .. } => "Input device lost: paused".to_owned(),
        InputNotice::TooManyDevices { .. } => {
            "Too many input devices: the newest one is ignored".to_owned()
        }
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.running.is_some() {
            return;
        }
        if let Err(error) = self.start(event_loop) {
            self.error = Some(error);
            event_loop.exit();
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let consumed = match self.running.as_mut() {
            Some(r) => {
                let window = r.window.clone();
                r.egui.on_window_event(&window, &event)
            }
            None => false,
        };
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::Resized(size) => {
                if let Some(r) = self.running.as_mut() {
                    r.surface.resize(&r.gpu.device, size.width, size.height);
                    r.window.request_redraw();
                }
            }
            WindowEvent::Focused(false) => {
                // Keys released while the window is not focused never arrive: let go of all.
                self.keyboard.release_all();
            }
            WindowEvent::Occluded(false) => {
                if let Some(r) = self.running.as_ref() {
                    r.window.request_redraw();
                }
            }
            WindowEvent::KeyboardInput { event, .. } => {
                let egui_wants = self
                    .running
                    .as_ref()
                    .is_some_and(|r| r.egui.wants_keyboard());
                if !(consumed && egui_wants) {
                    self.on_key(event_loop, &event);
                }
            }
            WindowEvent::RedrawRequested => self.redraw(event_loop),
            _ => {}
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        if self.exit_due() {
            if let Some(r) = self.running.as_ref() {
                r.window.request_redraw();
            } else {
                event_loop.exit();
            }
        }
    }

    fn exiting(&mut self, _event_loop: &ActiveEventLoop) {
        self.keyboard.release_all();
    }
}

impl From<crate::cli::CameraArg> for CameraMode {
    fn from(arg: crate::cli::CameraArg) -> Self {
        use crate::cli::CameraArg;
        match arg {
            CameraArg::Chase => Self::Chase,
            CameraArg::Cockpit => Self::Cockpit,
            CameraArg::Bonnet => Self::Bonnet,
            CameraArg::Orbit => Self::Orbit,
        }
    }
}

/// Parses `WxH` (e.g. `1280x720`).
///
/// # Errors
/// Anything else, or a side outside 320–16384 (width) or 200–16384 (height).
pub fn parse_size(text: &str) -> Result<[u32; 2]> {
    let (w, h) = text
        .split_once(['x', 'X'])
        .with_context(|| format!("window size '{text}' is not WIDTHxHEIGHT, e.g. 1280x720"))?;
    let w: u32 = w
        .trim()
        .parse()
        .with_context(|| format!("window width '{w}' is not a whole number"))?;
    let h: u32 = h
        .trim()
        .parse()
        .with_context(|| format!("window height '{h}' is not a whole number"))?;
    anyhow::ensure!(
        (320..=16384).contains(&w) && (200..=16384).contains(&h),
        "window size {w}x{h} is outside 320x200 to 16384x16384"
    );
    Ok([w, h])
}

/// Runs the window from the command line's options (settings fill in the rest).
///
/// # Errors
/// As [`run`], and a bad `--size` or `--exit-after`.
pub fn run_from_args(args: &crate::cli::WindowArgs) -> Result<()> {
    if let Some(s) = args.exit_after {
        anyhow::ensure!(
            s.is_finite() && s >= 0.0,
            "--exit-after must be a number of seconds ≥ 0, got {s}"
        );
    }
    // The user's settings: never fatal. A broken file is kept beside, the defaults used,
    // and the problem printed here and shown in the window.
    let (settings, store, messages) = match SettingsStore::platform() {
        Ok(store) => {
            let outcome = store.load();
            let messages: Vec<String> = outcome.messages.iter().map(ToString::to_string).collect();
            (outcome.settings, Some(store), messages)
        }
        Err(error) => (
            Settings::default(),
            None,
            vec![format!(
                "settings: {error}; using the defaults for this session"
            )],
        ),
    };
    for message in &messages {
        eprintln!("gripline: {message}");
    }
    let g = &settings.graphics;
    let size_px = match &args.size {
        Some(text) => parse_size(text)?,
        None => [g.width, g.height],
    };
    let options = WindowOptions {
        vehicle: args
            .vehicle
            .clone()
            .unwrap_or_else(|| settings.session.vehicle_id.clone()),
        track: args
            .track
            .clone()
            .unwrap_or_else(|| settings.session.track_id.clone()),
        autopilot: args.autopilot,
        exit_after_s: args.exit_after,
        screenshot: args.screenshot.clone(),
        print_stats: args.stats,
        show_ffb_graph: args.ffb_graph,
        size_px,
        fullscreen: g.fullscreen != Fullscreen::Windowed && args.size.is_none(),
        present: g.present_mode,
        frame_latency: g.frame_latency,
        fov_deg: g.fov_deg,
        msaa_samples: g.msaa_samples,
        quality: args.quality.map_or(g.quality, Into::into),
        camera: args.camera.map_or(
            match g.camera {
                gripline_config::settings::CameraView::Chase => CameraMode::Chase,
                gripline_config::settings::CameraView::Cockpit => CameraMode::Cockpit,
                gripline_config::settings::CameraView::Bonnet => CameraMode::Bonnet,
            },
            Into::into,
        ),
        gearbox: settings.session.gearbox_mode,
        settings_tab: args.settings.map(settings_tab),
        startup_notice: messages.first().map(|first| {
            if messages.len() > 1 {
                format!(
                    "{first} (and {} more: see the terminal)",
                    messages.len() - 1
                )
            } else {
                first.clone()
            }
        }),
    };
    run(options, SettingsFlow::new(settings, store))
}

fn settings_tab(arg: crate::cli::SettingsTabArg) -> settings_flow::Tab {
    use crate::cli::SettingsTabArg as A;
    match arg {
        A::Controls => settings_flow::Tab::Controls,
        A::Ffb => settings_flow::Tab::ForceFeedback,
        A::Car => settings_flow::Tab::Extra(0),
        A::Graphics => settings_flow::Tab::Extra(1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_sizes_parse_and_bad_ones_are_refused() {
        assert_eq!(parse_size("1280x720").unwrap(), [1280, 720]);
        assert_eq!(parse_size("1920X1080").unwrap(), [1920, 1080]);
        assert!(parse_size("1280").is_err());
        assert!(parse_size("0x720").is_err());
        assert!(parse_size("axb").is_err());
        assert!(parse_size("100000x720").is_err());
    }
}

//! The window's state: the drive it shows, what it draws of the car and track, the screens,
//! and what it does with the settings the user applies.

use std::sync::Arc;
use std::time::Instant;

use gripline_host::drive::{Drive, LoadedDrive};
use gripline_render::window_surface::WindowSurface;
use gripline_render::{Camera, GpuContext, SceneRenderer};
use gripline_sim::realtime::{Command, Interpolator, KeyboardSender, Stamped};
use winit::window::Window;

use super::egui_layer::EguiLayer;
use super::ffb_graph::FfbGraph;
use super::frame_stats::{FrameStats, TickRate, stats_report};
use super::options::WindowOptions;
use super::replay_state::ReplayMode;
use super::shown::Shown;
use crate::settings_ui::settings_flow::{self, SettingsFlow};

/// Frames the window draws before `--exit-after` may end it: egui lays a newly opened
/// screen out in a first pass it does not show, so on a machine slow enough to draw a
/// single frame in the time given, the screenshot would miss the screen.
const MIN_FRAMES_BEFORE_EXIT: u64 = 3;

/// How long past `--exit-after` the window waits for the drive to reach `--hold-at` (s), or
/// for its first frames.
const HOLD_WAIT_S: f64 = 120.0;

/// What the user saw at exit (printed, and used by the end-to-end test).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ExitReport {
    /// Path length of the car's CG over the rendered frames (m).
    pub(crate) distance_m: f64,
    /// Simulated time of the newest snapshot (s).
    pub(crate) simulated_s: f64,
}

/// The window (see the module docs): the drive it shows, what it draws, the screens.
pub(crate) struct App {
    pub(crate) options: WindowOptions,
    /// The car and track drawn.
    pub(crate) shown: Shown,
    pub(crate) keyboard: KeyboardSender,
    /// The drive: sim thread, devices, wheel, sound, telemetry, replays, laps, loading.
    pub(crate) drive: Drive,
    pub(crate) running: Option<Running>,
    pub(crate) error: Option<anyhow::Error>,
    pub(crate) report: ExitReport,
    pub(crate) stats_text: Option<String>,
    pub(crate) flow: SettingsFlow,
    /// The car and track being loaded in the background.
    pub(crate) loading: Option<(String, String)>,
    /// The lap analysis screen is open.
    pub(crate) lap_analysis_open: bool,
    /// The replay picker and viewer.
    pub(crate) replay: ReplayMode,
}

/// Everything that exists once the window does.
pub(crate) struct Running {
    pub(crate) window: Arc<Window>,
    pub(crate) gpu: GpuContext,
    pub(crate) surface: WindowSurface,
    pub(crate) scene: SceneRenderer,
    pub(crate) egui: EguiLayer,
    pub(crate) interpolator: Interpolator,
    pub(crate) camera: Camera,
    pub(crate) latest: Option<Stamped>,
    pub(crate) last_position: Option<glam::DVec3>,
    pub(crate) started: Instant,
    pub(crate) last_frame: Option<Instant>,
    pub(crate) frames: FrameStats,
    pub(crate) tick_rate: TickRate,
    pub(crate) show_timing: bool,
    pub(crate) show_ffb_graph: bool,
    pub(crate) ffb_graph: FfbGraph,
    pub(crate) notice: Option<(String, Instant)>,
    pub(crate) quit_requested: bool,
    /// Frames drawn of the drive held at `--hold-at`.
    pub(crate) held_frames: u32,
}

impl App {
    pub(crate) fn send(&mut self, command: Command) {
        self.drive.send(command);
    }

    pub(crate) fn is_paused(&self) -> bool {
        self.running
            .as_ref()
            .and_then(|r| r.latest.as_ref())
            .is_some_and(|s| s.hud.paused)
    }

    pub(crate) fn notify(&mut self, text: String) {
        if let Some(r) = self.running.as_mut() {
            r.notice = Some((text, Instant::now()));
        }
    }

    /// Acts on the settings the user applied (or on the screen's other buttons).
    pub(crate) fn on_applied(&mut self, applied: settings_flow::Applied) {
        for command in applied.commands {
            self.send(command);
        }
        if let Some((vehicle, track)) = applied.load_session {
            match self.drive.load(
                &vehicle,
                &track,
                applied.load_setup.as_deref(),
                &self.flow.settings,
            ) {
                Ok(()) => {
                    self.loading = Some((vehicle.clone(), track.clone()));
                    self.notify(format!("Loading {vehicle} on {track}…"));
                }
                Err(error) => self.notify(format!("{error:#}")),
            }
        }
        if applied.graphics_changed {
            self.apply_graphics();
        }
        if applied.audio == settings_flow::AudioChange::Device {
            let line = self.drive.set_audio_device(&self.flow.settings.audio);
            eprintln!("{line}");
        }
        if applied.audio != settings_flow::AudioChange::Unchanged {
            self.drive.set_audio_mix(&self.flow.settings.audio);
        }
        if applied.telemetry_changed {
            let line = self.drive.set_telemetry(&self.flow.settings.telemetry);
            eprintln!("gripline: telemetry: {line}");
            self.notify(format!("Telemetry: {line}"));
        }
        if applied.relink_ffb {
            self.drive.relink_ffb(&self.flow.settings);
        }
        if let Some(text) = applied.notice {
            self.notify(text);
        }
    }

    /// A car and track loaded in the background now drive: draws them.
    pub(crate) fn on_swapped(&mut self, loaded: &LoadedDrive) {
        let Some(shown) = Shown::with_model_later(loaded) else {
            return;
        };
        if let Some(names) = self.loading.take() {
            self.flow.current = names;
        }
        // In the replay viewer the new car waits for the viewer to close.
        if let Some(live) = self.replay.live.as_mut() {
            *live = shown;
            self.notify(format!("Now driving {}", loaded.title));
            return;
        }
        self.shown = shown;
        self.rebuild_scene();
        if let Some(r) = self.running.as_mut() {
            r.camera.reset_smoothing();
            r.interpolator = Interpolator::new(1.5);
            r.last_position = None;
        }
        self.notify(format!("Now driving {}", loaded.title));
    }

    /// `--exit-after` has passed, [`MIN_FRAMES_BEFORE_EXIT`] frames are drawn and, with
    /// `--hold-at`, the drive has been drawn held there (or has not got there [`HOLD_WAIT_S`]
    /// later: a line says so).
    pub(crate) fn exit_due(&self) -> bool {
        match (self.options.exit_after_s, self.running.as_ref()) {
            (Some(limit), Some(r)) => {
                let elapsed_s = r.started.elapsed().as_secs_f64();
                let drawn = r.frames.count() >= MIN_FRAMES_BEFORE_EXIT;
                if elapsed_s < limit || (!drawn && elapsed_s < limit + HOLD_WAIT_S) {
                    false
                } else if self.options.hold_at_s.is_none() || r.held_frames >= 2 {
                    true
                } else if elapsed_s >= limit + HOLD_WAIT_S {
                    eprintln!(
                        "gripline: the drive did not reach --hold-at {} s within {HOLD_WAIT_S} s \
                         of --exit-after; exiting",
                        self.options.hold_at_s.unwrap_or_default()
                    );
                    true
                } else {
                    false
                }
            }
            _ => false,
        }
    }

    pub(crate) fn shutdown(&mut self) {
        if let Some(end) = self.drive.shutdown() {
            if self.options.print_stats {
                let frames = self.running.as_ref().map(|r| r.frames.summary());
                self.stats_text = Some(format!(
                    "{}\n{}\n{}",
                    stats_report(&end.stats),
                    frames.unwrap_or_default(),
                    end.sound
                ));
                if let Some((sent, failed, dropped)) = end.telemetry {
                    eprintln!(
                        "gripline: telemetry: {sent} packets sent, {failed} failed, {dropped} \
                         states dropped"
                    );
                }
            }
            if end.sim_panicked {
                self.error
                    .get_or_insert_with(|| anyhow::anyhow!("the sim thread panicked"));
            }
        }
        self.running = None;
    }
}

//! The window's graphics: the window, surface, GPU and scene at start, and the graphics
//! settings (present mode, quality tier, MSAA) applied without a restart.

use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context as _, Result};
use gripline_config::{Fullscreen, QualityChoice};
use gripline_render::window_surface::WindowSurface;
use gripline_render::{AdapterChoice, Camera, GpuContext};
use gripline_sim::realtime::{Command, Interpolator};
use winit::event_loop::ActiveEventLoop;
use winit::window::Window;

use super::app_state::{App, Running};
use super::egui_layer::EguiLayer;
use super::ffb_graph;
use super::frame_stats::{FrameStats, TickRate};
use super::surface_window::{WinitWindow, present_choice};
use crate::scene_world::{automatic_quality, build_scene, describe_car, render_settings};

impl App {
    pub(super) fn start(&mut self, event_loop: &ActiveEventLoop) -> Result<()> {
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
            Box::new(WinitWindow(window.clone())),
            &gpu.adapter,
            &gpu.device,
            present_choice(self.options.present),
            self.options.frame_latency,
        )
        .context("presenting to the window")?;
        let (settings, tier) =
            render_settings(&gpu, self.options.quality, self.options.msaa_samples);
        self.flow.set_automatic_quality(automatic_quality(&gpu));
        self.flow.set_preview_gpu(gpu.clone());
        let scene = build_scene(&gpu, surface.scene_format(), &settings, &self.shown.world());
        eprintln!(
            "gripline: car: {}",
            describe_car(&scene, &self.shown.world())
        );
        let egui = EguiLayer::new(&window, &gpu, surface.ui_format());
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
            held_frames: 0,
        });
        self.lap_analysis_open = self.options.lap_analysis;
        self.open_startup_replay();
        if let Some(tab) = self.options.settings_tab {
            self.send(Command::Pause);
            self.flow.open(self.shown.dash.lock_deg, tab);
        }
        window.request_redraw();
        Ok(())
    }

    /// Applies the graphics settings in force to the window, surface, scene and camera.
    pub(super) fn apply_graphics(&mut self) {
        let g = self.flow.settings.graphics.clone();
        let Some(r) = self.running.as_mut() else {
            return;
        };
        r.camera.fov_deg = g.fov_deg;
        r.surface.set_presentation(
            &r.gpu.device,
            present_choice(g.present_mode),
            g.frame_latency,
        );
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
    pub(super) fn rebuild_scene(&mut self) {
        let Some(r) = self.running.as_mut() else {
            return;
        };
        let (settings, _) =
            render_settings(&r.gpu, self.options.quality, self.options.msaa_samples);
        // In the replay viewer: the replay's track and car (`window/shown.rs`).
        let world = self.shown.world();
        r.scene = build_scene(&r.gpu, r.surface.scene_format(), &settings, &world);
    }
}

//! One frame: the snapshots drained and interpolated, the camera, the scene, the HUD and
//! menus, presenting, the screenshot, and the frame-rate and tick-rate figures.

use std::time::{Duration, Instant};

use anyhow::Context as _;
use gripline_render::{FrameInput, SpinAngles, VehiclePose};
use gripline_sim::realtime::Command;
use winit::event_loop::{ActiveEventLoop, ControlFlow};

use super::app_state::App;
use super::pause_menu::MenuChoice;
use super::{ffb_graph, hud, lap_analysis, pause_menu, replay_controls};
use crate::settings_ui::settings_flow;

impl App {
    pub(super) fn redraw(&mut self, event_loop: &ActiveEventLoop) {
        self.drain_events();
        let exit_due = self.exit_due();
        let Some(stats) = self.drive.stats() else {
            return;
        };
        let Some(r) = self.running.as_mut() else {
            return;
        };
        let frame_start = Instant::now();
        let dt_s = r
            .last_frame
            .map_or(0.0, |t| frame_start.duration_since(t).as_secs_f64());
        r.last_frame = Some(frame_start);

        if let Some(text) = self.drive.drain_snapshots(&mut r.interpolator) {
            r.notice = Some((text, Instant::now()));
        }
        let now = r.started.elapsed();
        if let Some(sample) = r.interpolator.sample(now) {
            r.latest = Some(sample.stamped);
        }
        let Some(mut stamped) = r.latest else {
            // Nothing simulated yet: wait for the first snapshot.
            r.window.request_redraw();
            return;
        };
        // In the replay viewer, the replay's car at the playhead instead of the live one.
        let mut replay_pose = None;
        if let Some(viewer) = self.replay.viewer.as_mut() {
            viewer.advance(dt_s);
            if let Some((pose, frame)) = viewer.frame() {
                replay_pose = Some(pose);
                stamped.snapshot = frame.snapshot;
                stamped.wheel_rotation_rad = frame.wheel_rotation_rad;
                stamped.hud.laps = frame.laps;
                stamped.hud.paused = false;
                stamped.hud.autopilot = false;
            }
        }
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
        let pose =
            replay_pose.unwrap_or_else(|| VehiclePose::from_snapshot(&stamped.snapshot, &spin));
        // Held at `--hold-at`: the camera stands where `gripline render --at` puts it, with
        // no chase lag (its first update snaps to the car).
        let held = replay_pose.is_none()
            && self.options.hold_at_s.is_some_and(|at| {
                stamped.hud.paused && stamped.snapshot.time_s + 0.5 * gripline_physics::STEP_S >= at
            });
        if held {
            r.camera.reset_smoothing();
            r.held_frames = r.held_frames.saturating_add(1);
        }
        r.camera.update(&pose, dt_s);
        let live = self.replay.viewer.is_none();
        let ghost = if live {
            self.drive
                .laps()
                .ghost(&stamped.hud.laps)
                .map(|sample| ghost_pose(&sample))
        } else {
            None
        };

        let paused = stamped.hud.paused;
        if self.flow.is_open() {
            let now = r.started.elapsed();
            self.flow.live.set_now(now);
            self.flow.live.set_ffb_killed(stamped.hud.ffb_killed);
            self.flow
                .live
                .set_ffb_emergency_stopped(stamped.hud.ffb_emergency_stopped);
            self.flow.live.set_ffb_cut(stamped.hud.ffb_cut);
            self.flow.live.feed_ffb(
                gripline_input::setup::live_input::FfbSample {
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
        // The emergency stop's notice stays up for as long as it holds force feedback off.
        let notice = r
            .notice
            .as_ref()
            .filter(|(_, at)| at.elapsed() < Duration::from_secs(4))
            .map(|(text, _)| text.clone())
            .or_else(|| {
                stamped
                    .hud
                    .ffb_emergency_stopped
                    .then(|| super::events::FFB_EMERGENCY_NOTICE.to_owned())
            });
        let hud_inputs = hud::HudInputs {
            snapshot: &stamped.snapshot,
            redline_rpm: self.shown.dash.redline_rpm,
            limiter_rpm: self.shown.dash.limiter_rpm,
            lock_deg: self.shown.dash.lock_deg,
            ffb: Some((stamped.hud.ffb_level, stamped.hud.ffb_clipping_fraction)),
            ffb_cut: stamped.hud.ffb_cut.is_some(),
            laps: hud::LapFigures {
                current_s: stamped.hud.laps.current_lap_s,
                last_s: stamped.hud.laps.last_lap_s,
                best_s: stamped.hud.laps.best_lap_s,
                count: stamped.hud.laps.laps_completed,
                delta_s: if live {
                    self.drive.laps().delta_s(&stamped.hud.laps)
                } else {
                    None
                },
                reference: "best ever",
            },
            timing: hud::TimingFigures {
                tick_rate_hz: r.tick_rate.update(stats.ticks, frame_start),
                lateness_p50_us: stats.lateness_p50_us,
                lateness_p99_us: stats.lateness_p99_us,
                lateness_max_us: stats.lateness_max_us,
                missed_ticks: stats.missed_ticks,
                dropped_ticks: stats.dropped_ticks,
                dropped_snapshots: stats.dropped_snapshots,
                step_cost_us: stats.step_cost_mean_us,
                spin_us: stats.spin_us,
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
        let mut analysis = None;
        let mut viewer_action = None;
        let mut picked = None;
        let mut differs_answer = None;
        let window = r.window.clone();
        let flow = &mut self.flow;
        let aids_of_car = self.drive.aids_of_car();
        let sound_status = self.drive.sound_status();
        let telemetry_status = self.drive.telemetry_status();
        let laps = self.drive.laps();
        let analysis_open = self.lap_analysis_open;
        let viewer = self.replay.viewer.as_ref();
        let picker = self.replay.picker.as_deref();
        let differs = self.replay.differs.as_ref();
        let saved_dir = self.drive.saved_replays_dir();
        let camera_name = r.camera.mode.name();
        let show_hud = self.options.show_hud;
        let prepared = r.egui.run(&window, |ctx| {
            if let Some(viewer) = viewer {
                viewer_action = replay_controls::draw(ctx, viewer, camera_name);
            }
            if show_hud {
                hud::draw(ctx, &hud_inputs);
                if let Some(text) = &notice {
                    hud::banner(ctx, text);
                }
            }
            if let Some((path, list)) = differs {
                differs_answer = replay_controls::differs_dialog(ctx, path, list);
            } else if let Some(files) = picker {
                picked = replay_controls::picker(ctx, files, saved_dir);
            } else if analysis_open {
                analysis = lap_analysis::draw(ctx, laps);
            } else if flow.is_open() {
                applied = flow.show(ctx, aids_of_car, sound_status, telemetry_status);
            } else if paused && viewer.is_none() && show_hud {
                choice = pause_menu::draw(ctx, None);
            }
        });

        let mut shot_path = None;
        if exit_due {
            shot_path.clone_from(&self.options.screenshot);
        }
        let [width, height] = r.surface.size();
        let input =
            FrameInput::new(&pose, &r.camera, &self.shown.visual, width, height).with_ghost(ghost);
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
            let target = gripline_render::frame_capture::FrameCapture::new(
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
        let user_buffers = r.egui.painter.paint(
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
            let saved = pending
                .finish(&r.gpu.device)
                .context("reading the screenshot back")
                .and_then(|image| {
                    image
                        .write_png(&path)
                        .with_context(|| format!("writing the screenshot {}", path.display()))
                });
            match saved {
                Ok(()) => eprintln!("gripline: screenshot saved to {}", path.display()),
                Err(error) => self.error = Some(error),
            }
        }
        match choice {
            Some(MenuChoice::Resume) => self.send(Command::Resume),
            Some(MenuChoice::ResetCar) => {
                self.send(Command::Recover);
                self.send(Command::Resume);
            }
            Some(MenuChoice::RestartAtStart) => {
                self.send(Command::Reset);
                self.send(Command::Resume);
            }
            Some(MenuChoice::LapAnalysis) => self.lap_analysis_open = true,
            Some(MenuChoice::SaveReplay) => self.save_replay(),
            Some(MenuChoice::Replays) => self.open_replay_picker(),
            Some(MenuChoice::Settings) => {
                self.keyboard.release_all();
                self.flow
                    .open(self.shown.dash.lock_deg, settings_flow::Tab::Controls);
            }
            Some(MenuChoice::Quit) => {
                if let Some(r) = self.running.as_mut() {
                    r.quit_requested = true;
                }
            }
            None => {}
        }
        // The sim stays paused while the settings screen is open, whatever is pressed.
        if let Some(hold) = self.flow.pause_hold_command() {
            self.send(hold);
        }
        if let Some(applied) = applied {
            self.on_applied(applied);
        }
        match analysis {
            Some(lap_analysis::AnalysisAction::Close) => self.lap_analysis_open = false,
            Some(lap_analysis::AnalysisAction::Export(which)) => {
                let text = match self.drive.laps().export(which) {
                    Ok(path) => format!("Lap saved: {}", path.display()),
                    Err(error) => format!("Lap not saved: {error:#}"),
                };
                eprintln!("gripline: {text}");
                self.notify(text);
            }
            None => {}
        }
        if let Some(action) = viewer_action {
            self.on_viewer_action(action);
        }
        if let Some(choice) = picked {
            self.on_picker(choice);
        }
        if let Some(answer) = differs_answer {
            self.on_differs_answer(answer);
        }
        self.poll_replay_loader();
        self.poll_car_model();
        let quit = self.running.as_ref().is_some_and(|r| r.quit_requested);
        if exit_due || quit {
            event_loop.exit();
            return;
        }
        if let Some(r) = self.running.as_ref() {
            r.window.request_redraw();
        }
    }
}

/// The render pose of a lap sample (the ghost).
fn ghost_pose(sample: &gripline_sim::laps::LapSample) -> gripline_render::pose::VehiclePose {
    gripline_render::pose::VehiclePose {
        position: sample.position_m,
        orientation: sample.orientation,
        wheels: std::array::from_fn(|i| {
            let w = &sample.wheels[i];
            gripline_render::pose::WheelPose {
                centre_world: w.centre_m,
                steer_rad: w.steer_rad,
                spin_angle_rad: w.spin_angle_rad,
                travel_m: w.travel_m,
            }
        }),
        steering_wheel_rad: sample.steering_wheel_rad,
        brake_lamps_lit: sample.brake > gripline_render::pose::BRAKE_LAMP_PEDAL,
        // The ghost has no cockpit: its instruments are never drawn.
        engine_rpm: 0.0,
        speed_m_per_s: 0.0,
    }
}

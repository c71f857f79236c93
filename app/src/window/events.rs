//! winit's events: the window's lifecycle, keys, and the sim thread's events drained each
//! frame.

use std::time::{Duration, Instant};

use winit::application::ApplicationHandler;
use winit::event::{ElementState, KeyEvent, WindowEvent};
use winit::event_loop::ActiveEventLoop;
use winit::keyboard::{KeyCode, PhysicalKey};
use winit::window::WindowId;

use gripline_host::drive::DriveEvent;

use super::app_state::App;
use super::keyboard;

impl App {
    pub(super) fn on_key(&mut self, event_loop: &ActiveEventLoop, event: &KeyEvent) {
        let PhysicalKey::Code(code) = event.physical_key else {
            return;
        };
        let pressed = event.state == ElementState::Pressed;
        // The replay viewer takes the keys; the live car gets none of them.
        if self.replay.viewer.is_some() {
            if pressed && !event.repeat {
                self.viewer_key(code);
            }
            return;
        }
        if pressed && !event.repeat && !self.flow.is_open() {
            match code {
                KeyCode::KeyL => self.lap_analysis_open = !self.lap_analysis_open,
                KeyCode::KeyG => {
                    let laps = self.drive.laps_mut();
                    laps.ghost_on = !laps.ghost_on;
                    let text = if laps.ghost_on {
                        "Ghost of the best lap: on"
                    } else {
                        "Ghost of the best lap: off"
                    };
                    self.notify(text.to_owned());
                }
                KeyCode::Escape if self.lap_analysis_open || self.replay.picker.is_some() => {
                    // Closes the screen on top; the car does not see this Esc.
                    self.lap_analysis_open = false;
                    self.replay.picker = None;
                    return;
                }
                _ => {}
            }
        }
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

    pub(super) fn drain_events(&mut self) {
        let now = self
            .running
            .as_ref()
            .map_or(Duration::ZERO, |r| r.started.elapsed());
        let mut cycle_camera = 0;
        let mut notices = Vec::new();
        for event in self.drive.poll(&self.flow.settings) {
            match event {
                DriveEvent::RawInput(event) => self.flow.live.feed(&event, now),
                DriveEvent::NextCamera => cycle_camera += 1,
                DriveEvent::Notice(text) => notices.push(text),
                DriveEvent::AutoGainProposal(gain) => {
                    notices.push(self.flow.auto_gain_proposed(gain));
                }
                DriveEvent::FfbDirection { outcome, invert } => {
                    notices.push(self.flow.direction_checked(outcome, invert));
                }
                DriveEvent::FfbEmergencyStopped => notices.push(FFB_EMERGENCY_NOTICE.to_owned()),
                DriveEvent::Swapped(loaded) => self.on_swapped(&loaded),
            }
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
}

/// What the screen says while the emergency stop holds force feedback off.
pub(super) const FFB_EMERGENCY_NOTICE: &str = "Force feedback is OFF: stopped by the emergency \
     stop after an internal error. Turn it back on in Settings › Force feedback";

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

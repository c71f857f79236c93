//! winit's events: the window's lifecycle, keys, and the sim thread's events drained each
//! frame.

use super::{
    ActiveEventLoop, App, ApplicationHandler, Command, Duration, ElementState, FfbConnector,
    InputNotice, Instant, KeyCode, KeyEvent, PhysicalKey, SimEvent, WindowEvent, WindowId,
    keyboard,
};

impl App {
    pub(super) fn on_key(&mut self, event_loop: &ActiveEventLoop, event: &KeyEvent) {
        let PhysicalKey::Code(code) = event.physical_key else {
            return;
        };
        let pressed = event.state == ElementState::Pressed;
        // The replay viewer takes the keys; the live car gets none of them.
        if self.viewer.is_some() {
            if pressed && !event.repeat {
                self.viewer_key(code);
            }
            return;
        }
        if pressed && !event.repeat && !self.flow.is_open() {
            match code {
                KeyCode::KeyL => self.laps.analysis_open = !self.laps.analysis_open,
                KeyCode::KeyG => {
                    self.laps.ghost_on = !self.laps.ghost_on;
                    let text = if self.laps.ghost_on {
                        "Ghost of the best lap: on"
                    } else {
                        "Ghost of the best lap: off"
                    };
                    self.notify(text.to_owned());
                }
                KeyCode::Escape if self.laps.analysis_open || self.replay_picker.is_some() => {
                    // Closes the screen on top; the car does not see this Esc.
                    self.laps.analysis_open = false;
                    self.replay_picker = None;
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
                SimEvent::ObserverFailed(error) => {
                    let text = format!("Sound and telemetry out stopped: {error:#}");
                    eprintln!("gripline: {text}");
                    notices.push(text);
                }
                SimEvent::AutoGainProposal(gain) => {
                    notices.push(self.flow.auto_gain_proposed(gain));
                }
                SimEvent::FfbRunaway(cause) => {
                    let text = format!(
                        "Force feedback CUT: {}. It stays off until you turn it back on \
                         (Settings, Force feedback).",
                        cause.describe()
                    );
                    eprintln!("gripline: {text}");
                    notices.push(text);
                }
                SimEvent::FfbDirection { outcome, invert } => {
                    notices.push(self.flow.direction_checked(outcome, invert));
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
                // Not reconnected: it stays off until the user turns it back on (the HUD
                // and the Force feedback tab keep saying so meanwhile).
                SimEvent::FfbEmergencyStopped => {
                    eprintln!("gripline: force feedback stopped by the emergency stop");
                    notices.push(FFB_EMERGENCY_NOTICE.to_owned());
                }
                SimEvent::FfbReopen => {
                    notices.push("Force feedback back on: opening the wheel again".to_owned());
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
}

/// What the screen says while the emergency stop holds force feedback off.
pub(super) const FFB_EMERGENCY_NOTICE: &str = "Force feedback is OFF: stopped by the emergency \
     stop after an internal error. Turn it back on in Settings › Force feedback";

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

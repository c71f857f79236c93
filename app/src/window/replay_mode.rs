//! The window in replay mode: picking a replay, loading it off the UI thread, asking before
//! playing one that differs, watching it (the live session paused underneath), and back.

use std::path::{Path, PathBuf};

use gripline_sim::realtime::Command;
use winit::keyboard::KeyCode;

use super::app_state::App;
use super::replay_controls::{PickerChoice, ViewerAction};
use gripline_host::recordings::list_replays;
use gripline_host::replay_timeline::{LoadFailure, TimelineLoader};

use super::replay_viewer::ReplayViewer;
use super::shown::Shown;

impl App {
    /// Opens the replay picker.
    pub(super) fn open_replay_picker(&mut self) {
        let files = self
            .drive
            .saved_replays_dir()
            .map(list_replays)
            .unwrap_or_default();
        self.replay.picker = Some(files);
    }

    /// Acts on the picker.
    pub(super) fn on_picker(&mut self, choice: PickerChoice) {
        self.replay.picker = None;
        match choice {
            PickerChoice::Play(path) => self.load_replay(&path, false),
            PickerChoice::ThisDrive => self.watch_this_drive(),
            PickerChoice::Close => {}
        }
    }

    /// Saves the drive so far (pause menu).
    pub(super) fn save_replay(&mut self) {
        let text = match self.drive.recordings().save() {
            Ok(path) => format!("Replay saved: {}", path.display()),
            Err(error) => format!("Replay not saved: {error:#}"),
        };
        eprintln!("gripline: {text}");
        self.notify(text);
    }

    /// Watches the drive so far: a complete copy of the recording in progress.
    fn watch_this_drive(&mut self) {
        match self.drive.recordings().save() {
            Ok(path) => self.load_replay(&path, false),
            Err(error) => self.notify(format!("No replay of this drive: {error:#}")),
        }
    }

    /// Starts re-simulating `path` for the viewer (`force`: even if it differs).
    pub(super) fn load_replay(&mut self, path: &Path, force: bool) {
        match TimelineLoader::spawn(path, force) {
            Ok(loader) => {
                self.replay.loader = Some(loader);
                self.notify(format!("Loading the replay {}…", path.display()));
            }
            Err(error) => self.notify(format!("Cannot load the replay: {error}")),
        }
    }

    /// Enters the viewer once the replay is ready, or reports why not.
    pub(super) fn poll_replay_loader(&mut self) {
        let Some(loader) = self.replay.loader.as_ref() else {
            return;
        };
        let Some(result) = loader.poll() else { return };
        let path = loader.path.clone();
        self.replay.loader = None;
        match result {
            Ok(timeline) => {
                self.send(Command::Pause);
                self.keyboard.release_all();
                // The recorded car, drawn as the live one is: its model once loaded.
                let replayed = Shown::of_replay(&timeline);
                self.replay.live = Some(std::mem::replace(&mut self.shown, replayed));
                self.rebuild_scene();
                if let Some(r) = self.running.as_mut() {
                    r.camera.reset_smoothing();
                }
                eprintln!(
                    "gripline: replay: watching {} ({:.1} s) from {}",
                    timeline.title,
                    timeline.duration_s(),
                    path.display()
                );
                self.notify(format!("Replay: {}", timeline.title));
                self.replay.viewer = Some(ReplayViewer::new(timeline));
            }
            Err(LoadFailure::Differs(differences)) => {
                self.replay.differs = Some((path, differences));
            }
            Err(LoadFailure::Error(error)) => {
                eprintln!("gripline: replay: {error:#}");
                self.notify(format!("Cannot play the replay: {error:#}"));
            }
        }
    }

    /// The answer to "play anyway?".
    pub(super) fn on_differs_answer(&mut self, play: bool) {
        if let Some((path, _)) = self.replay.differs.take()
            && play
        {
            self.load_replay(&path, true);
        }
    }

    /// Leaves the viewer: the live car and track back, still paused.
    pub(super) fn exit_viewer(&mut self) {
        if self.replay.viewer.take().is_none() {
            return;
        }
        if let Some(live) = self.replay.live.take() {
            self.shown = live;
            self.rebuild_scene();
        }
        if let Some(r) = self.running.as_mut() {
            r.camera.reset_smoothing();
            r.last_position = None;
        }
    }

    /// Acts on the viewer's controls.
    pub(super) fn on_viewer_action(&mut self, action: ViewerAction) {
        if action == ViewerAction::Exit {
            self.exit_viewer();
            return;
        }
        if action == ViewerAction::Camera {
            if let Some(r) = self.running.as_mut() {
                r.camera.cycle();
            }
            return;
        }
        let Some(viewer) = self.replay.viewer.as_mut() else {
            return;
        };
        match action {
            ViewerAction::Toggle => viewer.toggle(),
            ViewerAction::Seek(t) => viewer.cursor_s = t.clamp(0.0, viewer.timeline.duration_s()),
            ViewerAction::Speed(speed) => viewer.speed = speed,
            ViewerAction::Camera | ViewerAction::Exit => {}
        }
    }

    /// A key in the viewer; `true` when the viewer used it.
    pub(super) fn viewer_key(&mut self, code: KeyCode) -> bool {
        if self.replay.viewer.is_none() {
            return false;
        }
        let action = match code {
            KeyCode::Space => Some(ViewerAction::Toggle),
            KeyCode::Escape => Some(ViewerAction::Exit),
            KeyCode::KeyC => Some(ViewerAction::Camera),
            KeyCode::ArrowLeft | KeyCode::ArrowRight => {
                if let Some(v) = self.replay.viewer.as_mut() {
                    v.seek_by(if code == KeyCode::ArrowLeft {
                        -5.0
                    } else {
                        5.0
                    });
                }
                None
            }
            KeyCode::ArrowUp | KeyCode::ArrowDown => {
                if let Some(v) = self.replay.viewer.as_mut() {
                    v.change_speed(if code == KeyCode::ArrowUp { 1 } else { -1 });
                }
                None
            }
            _ => None,
        };
        if let Some(action) = action {
            self.on_viewer_action(action);
        }
        true
    }

    /// Opens a replay given on the command line (`--replay FILE`), played even if it differs
    /// (the user asked for that file), once the window exists.
    pub(super) fn open_startup_replay(&mut self) {
        if let Some(path) = self.options.replay.take() {
            let path: PathBuf = path;
            self.load_replay(&path, true);
        }
    }
}

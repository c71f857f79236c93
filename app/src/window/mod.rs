//! The simulator window: winit on the main thread, wgpu rendering, the egui HUD and menus,
//! fed by the 1 kHz sim thread through the snapshot ring (`docs/architecture.md`, "Data flow").
//!
//! - [`surface_window`]: the winit window behind the renderer's window surface (whose
//!   frames, screenshots, quality tiers and egui painting live in `gripline-render`);
//! - [`egui_layer`]: egui's input, UI pass and painting over the scene;
//! - [`hud`]: speed, rpm, gear, pedals, steering, force feedback, wheels, laps, timing;
//! - [`pause_menu`]: resume, reset, settings, quit;
//! - [`keyboard`]: winit key codes to USB HID usages for the keyboard device;
//! - `crate::settings_ui::settings_flow`: the settings screen in the window, saved and
//!   applied without a restart;
//! - [`frame_stats`]: frame timing of the render thread.
//! - [`shown`]: what is drawn of the car and track, the live drive's or the replay viewer's,
//!   each car with its own model where it has one.
//!
//! The loop is `ControlFlow::Wait` with a redraw requested after each frame: frames are
//! paced by the present mode (vsync waits in `present`), and a minimised or occluded window
//! waits on events instead of spinning.

mod app_state;
mod car_model_arrival;
pub mod egui_layer;
mod events;
mod ffb_graph;
mod frame;
pub mod frame_stats;
mod graphics;
pub mod hud;
pub mod keyboard;
pub mod lap_analysis;
mod launch;
mod options;
pub mod pause_menu;
pub mod replay_controls;
mod replay_mode;
mod replay_state;
pub mod replay_viewer;
mod shown;
mod surface_window;

pub use launch::run_from_args;

//! # gripline-render
//!
//! The renderer of Gripline (DESIGN.md section 6): wgpu on the main thread, drawing the track,
//! the car and its wheels from interpolated physics snapshots, with an egui-wgpu HUD, several
//! cameras, and an offscreen mode that writes PNG frames so tests can check pictures on a
//! software adapter (Mesa lavapipe).
//!
//! This crate is empty until the simulator-window issue lands; the workspace already pins its
//! dependencies (wgpu 30, winit 0.30, egui / egui-winit / egui-wgpu 0.37) in
//! `[workspace.dependencies]`.

//! The integration tests of the `gripline` application, linked as one test binary (`it`), one
//! module per former test file; `support` is what they share (a private Xvfb).

mod support;

mod convergence;
mod devices_cli;
mod render_cli;
mod render_window_parity;
mod sound_render;
mod tyre_lab_cli;
mod validation;
mod window_e2e;

//! The integration tests of `gripline-render`, linked as one test binary (`it`), one module
//! per former test file; `common` is what the GPU tests share.

mod common;

mod car_model;
mod golden;
mod roadside;
mod roadside_placement;
mod snapshot_pose;
mod software_ui_painter;
mod torcs_scene;

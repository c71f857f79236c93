//! The integration tests of `gripline-config`, linked as one test binary (`it`), one module per
//! former test file. Their data stays beside this folder (`config/tests/fixtures/`).

mod settings_atomic_save;
mod settings_broken_files;
mod settings_fuzz;
mod settings_migration;
mod settings_platform_dir;
mod settings_round_trip;

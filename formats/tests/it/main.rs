//! The integration tests of `gripline-formats`, linked as one test binary (`it`), one module
//! per former test file. They read the shipped assets (`assets/`).

mod shipped_tracks;
mod shipped_tyre_thermal;
mod shipped_vehicles;
mod track_roadside_rules;
mod tyre_choice;

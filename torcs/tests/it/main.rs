//! The integration tests of `gripline-torcs`, linked as one test binary (`it`), one module per
//! former test file. They read the tracks of Debian's `torcs-data` and skip, saying why, when
//! it is not installed.

mod closed_world;
mod torcs_scenes;
mod torcs_tracks;

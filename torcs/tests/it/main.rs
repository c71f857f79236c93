//! The integration tests of `gripline-torcs`, linked as one test binary (`it`), one module per
//! former test file. They read the tracks of Debian's `torcs-data` and skip, saying why, when
//! it is not installed.

mod closed_world;
mod torcs_scenes;
mod torcs_tracks;

use std::path::{Path, PathBuf};

use gripline_torcs::track::discover::{InstalledTrack, tracks_in};

/// Where Debian's `torcs-data` installs the TORCS data.
const TORCS_DATA: &str = "/usr/share/games/torcs";

/// The tracks installed in `/usr/share/games/torcs`; `None`, saying so, when there are none.
fn installed() -> Option<Vec<InstalledTrack>> {
    if !Path::new(TORCS_DATA).join("tracks").is_dir() {
        println!("skipped: {TORCS_DATA}/tracks is absent (install Debian's torcs-data)");
        return None;
    }
    Some(tracks_in(&[PathBuf::from(TORCS_DATA)]))
}

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

/// The tracks the default check sweeps (CI time: loading all 38 takes some 20 s of one core
/// in a dev build, twice over for their scenes): road, oval and dirt, the steepest (alpine-1),
/// the one whose scene is refused (dirt-4), a speedway, the street circuit, and the tracks
/// other tests name. The full check (`GRIPLINE_FULL_CHECK=1`) sweeps every installed track.
const DEFAULT_SWEEP: [&str; 9] = [
    "forza",
    "aalborg",
    "alpine-1",
    "e-track-1",
    "street-1",
    "a-speedway",
    "c-speedway",
    "dirt-3",
    "dirt-4",
];

/// Whether the full check runs (`scripts/check.sh --full`).
fn full_check() -> bool {
    std::env::var_os("GRIPLINE_FULL_CHECK").is_some_and(|v| v != "0")
}

/// The installed tracks a sweep over "every track" covers: all of them in the full check,
/// [`DEFAULT_SWEEP`] otherwise; `None`, saying so, without TORCS's data.
fn swept_tracks() -> Option<Vec<InstalledTrack>> {
    let tracks = installed()?;
    // torcs-data 1.3.7: 21 road, 9 oval and 8 dirt tracks.
    assert_eq!(tracks.len(), 38, "the installed torcs-data has 38 tracks");
    if full_check() {
        return Some(tracks);
    }
    println!(
        "sweeping {} of the tracks (GRIPLINE_FULL_CHECK=1 sweeps all)",
        DEFAULT_SWEEP.len()
    );
    Some(
        tracks
            .into_iter()
            .filter(|t| DEFAULT_SWEEP.contains(&t.name.as_str()))
            .collect(),
    )
}

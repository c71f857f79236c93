//! A whole drive through the host, as the window runs one: started from a request and the
//! settings (no wheel, no sound device, no display on this machine: each says why and the
//! drive runs on), driven by the autopilot on the real sim thread, another car loaded in the
//! background and swapped in, the laps and the replay recording following the swap, and the
//! figures at shutdown.

use std::time::{Duration, Instant};

use gripline_config::Settings;
use gripline_host::drive::{Drive, DriveEvent, DriveRequest, LoadedDrive};
use gripline_physics::powertrain::GearboxMode;
use gripline_sim::realtime::Interpolator;

fn request(data_dir: &std::path::Path) -> DriveRequest {
    DriveRequest {
        vehicle: "corvette-c5".into(),
        track: "circuit".into(),
        setup: None,
        autopilot: true,
        gearbox: GearboxMode::Automatic,
        telemetry: None,
        data_dir: Some(data_dir.to_owned()),
        hold_at_s: None,
    }
}

/// Polls until a swap arrives (or `limit` passes), feeding the snapshots as a frame would.
fn wait_for_swap(drive: &mut Drive, settings: &Settings, limit: Duration) -> Option<LoadedDrive> {
    let start = Instant::now();
    let mut interpolator = Interpolator::new(1.5);
    while start.elapsed() < limit {
        let _ = drive.drain_snapshots(&mut interpolator);
        for event in drive.poll(settings) {
            match event {
                DriveEvent::Swapped(loaded) => return Some(*loaded),
                DriveEvent::Notice(text) if text.starts_with("Could not load") => {
                    panic!("{text}")
                }
                _ => {}
            }
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    None
}

#[test]
fn a_drive_starts_swaps_its_car_in_the_background_and_reports_at_shutdown() {
    let dir = tempfile::tempdir().unwrap();
    let settings = Settings::default();
    let (mut drive, _keyboard, loaded) = Drive::start(&request(dir.path()), &settings).unwrap();
    assert_eq!(loaded.vehicle, "corvette-c5");
    assert!(
        loaded.track_mesh.is_some(),
        "the circuit has ground to draw"
    );
    assert!(
        loaded.title.contains(" on "),
        "a title names car and track: {}",
        loaded.title
    );
    assert!(!drive.sound_status().is_empty());
    assert!(drive.telemetry_status().starts_with("Now: "));

    drive
        .load("hatchback-fwd", "circuit", None, &settings)
        .unwrap();
    let swapped = wait_for_swap(&mut drive, &settings, Duration::from_mins(1))
        .expect("the hatchback is swapped in within a minute");
    assert_eq!(swapped.vehicle, "hatchback-fwd");
    assert_ne!(swapped.params.name, loaded.params.name);
    assert_eq!(drive.aids_of_car(), &swapped.params.aids);

    // The sim thread kept running through the load and the swap.
    std::thread::sleep(Duration::from_millis(200));
    let end = drive.shutdown().expect("the first shutdown reports");
    assert!(!end.sim_panicked);
    assert!(end.stats.ticks > 100, "ticks: {}", end.stats.ticks);
    assert!(
        drive.shutdown().is_none(),
        "a second shutdown has nothing to report"
    );

    // Each car's drive was recorded in the settings folder's recent replays.
    let recent = gripline_host::recordings::list_replays(&dir.path().join("replays"));
    assert_eq!(recent.len(), 2, "{recent:?}");
}

#[test]
fn a_load_that_fails_is_a_notice_and_the_drive_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let settings = Settings::default();
    let (mut drive, _keyboard, _) = Drive::start(&request(dir.path()), &settings).unwrap();
    drive
        .load("no-such-car", "circuit", None, &settings)
        .unwrap();
    let start = Instant::now();
    let mut notice = None;
    while notice.is_none() && start.elapsed() < Duration::from_secs(30) {
        notice = drive
            .poll(&settings)
            .into_iter()
            .find_map(|event| match event {
                DriveEvent::Notice(text) if text.starts_with("Could not load") => Some(text),
                _ => None,
            });
        std::thread::sleep(Duration::from_millis(5));
    }
    let notice = notice.expect("a notice within 30 s");
    assert!(notice.contains("no-such-car"), "{notice}");
    assert!(drive.stats().is_some_and(|s| s.ticks > 0));
}

#[test]
fn a_wrong_car_name_is_an_error_before_anything_starts() {
    let dir = tempfile::tempdir().unwrap();
    let mut bad = request(dir.path());
    bad.vehicle = "no-such-car".into();
    let Err(error) = Drive::start(&bad, &Settings::default()) else {
        panic!("a wrong name must not start a drive");
    };
    assert!(format!("{error:#}").contains("no-such-car"), "{error:#}");
}

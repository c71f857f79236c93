//! Laps from the real-time core: recorded from line to line, the delta and the ghost read
//! from them, sectors, and lap files.

// Exact equality is what is checked: a lap ends at the lap timer's own time and length, and
// a lap file reads back to the same bits.
#![allow(clippy::float_cmp)]

use std::sync::Arc;
use std::time::Duration;

use gripline_input::settings::bindings::Bindings;
use gripline_sim::laps::{
    CompletedLap, LapBook, LapFacts, LapRecorder, LapVerdict, SAMPLE_INTERVAL_S, best_lap_file,
    lap_file, load_lap, save_lap,
};
use gripline_sim::realtime::rig::Rig;
use gripline_sim::realtime::sim_core::{SimCore, core_rings};
use gripline_sim::realtime::stats::SharedStats;
use gripline_sim::session::Session;

/// The autopilot's laps of the circuit, as the window records them from the snapshots, and
/// the lap timer's own lap times.
fn autopilot_laps(laps_wanted: usize) -> (Vec<CompletedLap>, Vec<f64>) {
    let session = Session::load("corvette-c5", "circuit").expect("assets");
    let rig = Rig::without_ffb(&Bindings::default());
    let (rings, mut ui) = core_rings(64);
    let mut core = SimCore::new(session, rig, rings, Arc::new(SharedStats::default()), true);
    let mut recorder = LapRecorder::new();
    let (mut laps, mut timer_laps) = (Vec::new(), Vec::new());
    let mut now = Duration::ZERO;
    let mut seen = 0;
    for _ in 0..600_000 {
        now += Duration::from_millis(1);
        core.tick(now);
        while let Some(s) = ui.snapshots.pop() {
            if let Some(lap) = recorder.feed(&s.snapshot, &s.hud.laps, &s.wheel_rotation_rad) {
                laps.push(lap);
            }
            if s.hud.laps.laps_completed > seen {
                seen = s.hud.laps.laps_completed;
                timer_laps.push(s.hud.laps.last_lap_s.expect("a lap time"));
            }
        }
        if laps.len() == laps_wanted {
            break;
        }
    }
    (laps, timer_laps)
}

#[test]
fn laps_are_recorded_line_to_line_with_delta_ghost_and_sectors() {
    let (laps, timer_laps) = autopilot_laps(3);
    assert_eq!(laps.len(), 3, "three laps recorded");
    // The first lap from the start is the out lap (the line was never crossed): the timer's
    // first timed lap is the first recorded one.
    for (lap, timer) in laps.iter().zip(&timer_laps) {
        assert_eq!(lap.lap_time_s.to_bits(), timer.to_bits());
        let n = lap.samples.len() as f64;
        let expected = lap.lap_time_s / SAMPLE_INTERVAL_S;
        assert!((n - expected).abs() < 3.0, "{n} samples for {expected}");
        let first = &lap.samples[0];
        let last = lap.samples.last().unwrap();
        assert!(
            first.lap_time_s < 0.002 && first.station_m < 2.0,
            "{first:?}"
        );
        assert_eq!(last.station_m, lap.length_m);
        assert_eq!(last.lap_time_s, lap.lap_time_s);
        assert!(
            lap.samples
                .windows(2)
                .all(|w| w[1].lap_time_s >= w[0].lap_time_s && w[1].station_m >= w[0].station_m),
            "time and distance never go back"
        );
        // Sectors add up to the lap.
        let sectors = lap.sector_times_s();
        assert!((sectors.iter().sum::<f64>() - lap.lap_time_s).abs() < 1e-9);
        assert!(sectors.iter().all(|s| *s > 5.0), "{sectors:?}");
    }
    // The first timed lap starts from rest just behind the line; the next two are flying.
    let (a, b) = (&laps[1], &laps[2]);

    // The best lap against itself: zero everywhere.
    for s in &a.samples {
        let d = a.delta_s(s.station_m, s.lap_time_s);
        assert!(d.abs() < 1e-9, "delta {d} at {} m", s.station_m);
    }
    // Lap 2 against lap 1: at the line, the difference of the lap times; on the way, the
    // time lost or gained so far (the autopilot's laps are within a second of each other).
    let at_end = a.delta_s(b.length_m, b.lap_time_s);
    assert!((at_end - (b.lap_time_s - a.lap_time_s)).abs() < 1e-9);
    for s in &b.samples {
        let d = a.delta_s(s.station_m, s.lap_time_s);
        assert!(d.abs() < 1.0, "delta {d} at {} m", s.station_m);
    }

    // The ghost: at a sample's time, exactly that sample; between two, between them.
    let s = &a.samples[1000];
    let ghost = a.sample_at_time(s.lap_time_s).unwrap();
    assert_eq!(ghost.position_m, s.position_m);
    let mid = a
        .sample_at_time(s.lap_time_s + 0.5 * SAMPLE_INTERVAL_S)
        .unwrap();
    let next = &a.samples[1001];
    let expected = (s.position_m + next.position_m) * 0.5;
    assert!(
        mid.position_m.distance(expected) < 0.05,
        "{:?}",
        mid.position_m
    );
    // Past the end the ghost waits at the line.
    assert_eq!(
        a.sample_at_time(1e6).unwrap().position_m,
        a.samples.last().unwrap().position_m
    );

    // The book: the faster is the best; a lap file keeps it bit for bit.
    let dir = tempfile::tempdir().expect("temp dir");
    let facts = LapFacts {
        vehicle: "Chevrolet Corvette C5".into(),
        track: "Gripline circuit".into(),
        build: "test".into(),
    };
    let file = best_lap_file(dir.path(), "corvette-c5", "circuit");
    assert!(file.ends_with("corvette-c5@circuit.csv"));
    let (mut book, warning) = LapBook::open(Some(file.clone()), &facts);
    assert!(warning.is_none());
    assert_eq!(book.add(a.clone()), LapVerdict::PersonalBest);
    let second = book.add(b.clone());
    let (fast, slow) = if b.lap_time_s < a.lap_time_s {
        (b, a)
    } else {
        (a, b)
    };
    assert_eq!(
        second,
        if fast == b {
            LapVerdict::PersonalBest
        } else {
            LapVerdict::Slower
        }
    );
    assert_eq!(book.best().unwrap().lap_time_s, fast.lap_time_s);
    assert_eq!(book.last().unwrap().lap_time_s, b.lap_time_s);
    save_lap(&file, fast, &facts).expect("saved");
    let (back, back_facts) = load_lap(&file).expect("loads");
    assert_eq!(&back, fast, "a lap file reads back to the same bits");
    assert_eq!(back_facts, facts);
    // Next session: the saved best is the reference; a slower lap is only that.
    let (mut next, _) = LapBook::open(Some(file.clone()), &facts);
    assert_eq!(next.best().unwrap().lap_time_s, fast.lap_time_s);
    assert_eq!(next.add(slow.clone()), LapVerdict::SessionBest);
    assert_eq!(next.best().unwrap().lap_time_s, fast.lap_time_s);

    // Damaged lap files: errors naming the line, never a panic; the book carries on.
    let text = lap_file::lap_csv(fast, &facts);
    let lines: Vec<&str> = text.lines().collect();
    for (what, bad) in [
        ("empty", String::new()),
        ("garbage", "hello\nworld\n".to_owned()),
        ("cut", text[..text.len() / 2].to_owned()),
        (
            "bad number",
            text.replacen(&lines[9][..10], "nan,nan,nn", 1),
        ),
        ("no time", text.replacen("# lap_time_s:", "# lap_tiem:", 1)),
    ] {
        if let Ok((lap, _)) = lap_file::parse_lap(&bad) {
            assert!(what == "cut" && lap.samples.len() > 2, "{what} parsed");
        }
    }
    std::fs::write(&file, "# gripline lap 1\nnonsense").unwrap();
    let (broken, warning) = LapBook::open(Some(file), &facts);
    assert!(broken.best().is_none());
    assert!(warning.expect("a warning").contains("afresh"));
}

//! Telemetry out, checked as a dashboard or a motion rig receives it: UDP listeners on this
//! machine decode the OutGauge and OutSim packets a headless launch sends, at the offsets of
//! LFS's published structures (`InSim.txt` `OutGaugePack`, `OutSimPack`; `OutSimPack.txt`
//! `OutSimPack2`), and compare every field with the same tick's telemetry CSV.

// Milliseconds of telemetry rows; gears compared exactly (small integers in f64).
#![allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::float_cmp
)]

use std::net::UdpSocket;
use std::sync::mpsc;
use std::time::Duration;

use gripline_sim::headless::{HeadlessOptions, run_observed};
use gripline_sim::observer::{ObserverGroup, TickObserver};
use gripline_sim::telemetry_out::{TelemetryObserver, TelemetryTargets};

/// Collects every datagram arriving at a fresh local socket until it has been quiet for
/// half a second after `done`.
fn listener() -> (std::net::SocketAddr, mpsc::Receiver<Vec<Vec<u8>>>) {
    let socket = UdpSocket::bind("127.0.0.1:0").unwrap();
    socket
        .set_read_timeout(Some(Duration::from_millis(500)))
        .unwrap();
    let address = socket.local_addr().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name("udp-listener".to_owned())
        .spawn(move || {
            let mut packets = Vec::new();
            let mut buffer = [0u8; 2048];
            let mut quiet = 0;
            // Wait up to a minute for the run, then until half a second without packets.
            while quiet < 120 && (quiet == 0 || packets.is_empty()) {
                match socket.recv(&mut buffer) {
                    Ok(n) => {
                        packets.push(buffer[..n].to_vec());
                        quiet = 0;
                    }
                    Err(_) => quiet += 1,
                }
            }
            tx.send(packets).unwrap();
        })
        .unwrap();
    (address, rx)
}

fn f32_at(p: &[u8], at: usize) -> f64 {
    f64::from(f32::from_le_bytes(p[at..at + 4].try_into().unwrap()))
}
fn u32_at(p: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(p[at..at + 4].try_into().unwrap())
}
fn i32_at(p: &[u8], at: usize) -> i32 {
    i32::from_le_bytes(p[at..at + 4].try_into().unwrap())
}

/// The telemetry CSV: column names and rows keyed by millisecond.
struct Csv {
    header: Vec<String>,
    rows: std::collections::HashMap<u32, Vec<f64>>,
}

impl Csv {
    fn read(path: &std::path::Path) -> Self {
        let text = std::fs::read_to_string(path).unwrap();
        let mut lines = text.lines();
        let header: Vec<String> = lines
            .next()
            .unwrap()
            .split(',')
            .map(str::to_owned)
            .collect();
        let rows = lines
            .map(|l| {
                let v: Vec<f64> = l.split(',').map(|x| x.parse().unwrap()).collect();
                ((v[0] * 1000.0).round() as u32, v)
            })
            .collect();
        Self { header, rows }
    }
    fn get(&self, ms: u32, name: &str) -> f64 {
        let i = self.header.iter().position(|h| h == name).unwrap();
        self.rows[&ms][i]
    }
}

fn close(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance * (1.0 + b.abs())
}

#[test]
fn outgauge_and_outsim_packets_carry_the_ticks_they_were_sent_at() {
    let (gauge_at, gauge_rx) = listener();
    let (sim_at, sim_rx) = listener();
    let (classic_at, classic_rx) = listener();
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("t.csv");
    let options = HeadlessOptions {
        vehicle: "corvette-c5".into(),
        scenario: "launch".into(),
        out: Some(csv.clone()),
        decimate: 1,
        ..HeadlessOptions::default()
    };
    let full = TelemetryTargets {
        outgauge: Some(gauge_at),
        outsim: Some(sim_at),
        outsim_opts: 0xff,
        id: Some(7),
        ..TelemetryTargets::default()
    };
    let classic = TelemetryTargets {
        outsim: Some(classic_at),
        outsim_rate_hz: 50.0,
        ..TelemetryTargets::default()
    };
    let observers: Vec<Box<dyn TickObserver>> = vec![
        Box::new(TelemetryObserver::new(full).unwrap()),
        Box::new(TelemetryObserver::new(classic).unwrap()),
    ];
    let summary = run_observed(&options, Some(Box::new(ObserverGroup(observers)))).unwrap();
    let simulated_s = summary["simulated_total_s"].as_f64().unwrap();
    let telemetry = Csv::read(&csv);

    // OutGauge: 96 bytes with the ID, 60 a second.
    let gauges = gauge_rx.recv().unwrap();
    let expected = simulated_s * 60.0;
    assert!(
        (gauges.len() as f64 - expected).abs() <= 2.0,
        "{} OutGauge packets for {simulated_s} s",
        gauges.len()
    );
    for p in &gauges {
        assert_eq!(p.len(), 96);
        let ms = u32_at(p, 0);
        assert_eq!(&p[4..8], b"CHE\0");
        assert_eq!(
            u16::from_le_bytes([p[8], p[9]]),
            16384 | 32768,
            "flags: km, bar"
        );
        let gear = telemetry.get(ms, "gear");
        assert_eq!(f64::from(p[10]), gear + 1.0, "gear at {ms} ms");
        assert!(
            close(f32_at(p, 12), telemetry.get(ms, "speed_m_s"), 1e-4),
            "speed at {ms}"
        );
        assert!(
            close(f32_at(p, 16), telemetry.get(ms, "engine_rpm"), 1e-4),
            "rpm at {ms}"
        );
        assert!((0.0..=1.0).contains(&f32_at(p, 28)), "fuel fraction");
        assert_eq!(
            u32_at(p, 40) & (1 << 17),
            1 << 17,
            "neutral light available"
        );
        assert_eq!(
            u32_at(p, 44) & (1 << 17) != 0,
            gear == 0.0,
            "neutral lit at {ms}"
        );
        // The telemetry file gives the throttle to three decimals.
        assert!((f32_at(p, 48) - telemetry.get(ms, "throttle")).abs() <= 5e-4);
        assert!(close(f32_at(p, 52), telemetry.get(ms, "brake"), 1e-6));
        assert!(close(f32_at(p, 56), telemetry.get(ms, "clutch"), 1e-6));
        assert!(p[60..76].starts_with(b"Fuel ") && p[75] == 0, "display 1");
        assert_eq!(i32_at(p, 92), 7, "ID");
    }

    // OutSim with every option: 272 bytes, 100 a second.
    let sims = sim_rx.recv().unwrap();
    assert!(
        (sims.len() as f64 - simulated_s * 100.0).abs() <= 2.0,
        "{}",
        sims.len()
    );
    let mut moved = false;
    for p in &sims {
        assert_eq!(p.len(), 272);
        assert_eq!(&p[0..4], b"LFST");
        assert_eq!(i32_at(p, 4), 7);
        let ms = u32_at(p, 8);
        let main = 12;
        let yaw = telemetry.get(ms, "yaw_rad");
        let heading = f32_at(p, main + 12);
        let lfs_heading = (yaw - std::f64::consts::FRAC_PI_2 + std::f64::consts::PI)
            .rem_euclid(std::f64::consts::TAU)
            - std::f64::consts::PI;
        assert!((heading - lfs_heading).abs() < 1e-5, "heading at {ms}");
        let velocity = (
            f32_at(p, main + 36),
            f32_at(p, main + 40),
            f32_at(p, main + 44),
        );
        let speed = (velocity.0.powi(2) + velocity.1.powi(2) + velocity.2.powi(2)).sqrt();
        assert!(
            close(speed, telemetry.get(ms, "speed_m_s"), 1e-4),
            "velocity at {ms}"
        );
        for (k, axis) in ["x_m", "y_m", "z_m"].iter().enumerate() {
            let fixed = f64::from(i32_at(p, main + 48 + 4 * k)) / 65536.0;
            assert!(
                (fixed - telemetry.get(ms, axis)).abs() < 1e-3,
                "{axis} at {ms}"
            );
        }
        moved |= telemetry.get(ms, "x_m").abs() > 100.0;
        // Inputs: throttle and brake.
        let inputs = main + 60;
        // The driver's throttle: at least what reaches the engine after traction control.
        assert!(f32_at(p, inputs) >= telemetry.get(ms, "throttle") - 1e-6);
        assert!(close(
            f32_at(p, inputs + 4),
            telemetry.get(ms, "brake"),
            1e-6
        ));
        // Drive: LFS gear, engine speed in rad/s.
        let drive = inputs + 20;
        assert_eq!(f64::from(p[drive]), telemetry.get(ms, "gear") + 1.0);
        let rpm = f32_at(p, drive + 4) * 60.0 / std::f64::consts::TAU;
        assert!(close(rpm, telemetry.get(ms, "engine_rpm"), 1e-4));
        // Wheels: LFS order starts with the rear left.
        let wheels = drive + 12 + 8;
        assert!(close(
            f32_at(p, wheels + 16),
            telemetry.get(ms, "rl_load_n"),
            1e-4
        ));
        assert!(close(
            f32_at(p, wheels + 40 + 16),
            telemetry.get(ms, "rr_load_n"),
            1e-4
        ));
        assert!(close(
            f32_at(p, wheels + 80 + 16),
            telemetry.get(ms, "fl_load_n"),
            1e-4
        ));
        assert!(close(
            f32_at(p, wheels + 80 + 32),
            telemetry.get(ms, "fl_slip_ratio"),
            1e-4
        ));
        assert_eq!(p[wheels + 30], 1, "touching");
        // Lean relative to the road, LFS's anticlockwise seen from behind: the C5's negative
        // camber (top of the wheel inwards) leans the left wheels' tops to the right (negative)
        // and the right wheels' to the left (positive), by the same amount on a level launch.
        let (rl, rr) = (f32_at(p, wheels + 24), f32_at(p, wheels + 40 + 24));
        let (fl, fr) = (f32_at(p, wheels + 80 + 24), f32_at(p, wheels + 120 + 24));
        for (left, right) in [(rl, rr), (fl, fr)] {
            assert!(
                left < 0.0 && right > 0.0 && (left + right).abs() < 1e-6,
                "lean {left} left, {right} right at {ms}"
            );
        }
    }
    assert!(moved, "the launch covers more than 100 m");

    // The classic OutSim packet: 64 bytes without an ID, at 50 Hz.
    let classics = classic_rx.recv().unwrap();
    assert!((classics.len() as f64 - simulated_s * 50.0).abs() <= 2.0);
    for p in &classics {
        assert_eq!(p.len(), 64);
        let ms = u32_at(p, 0);
        let x = f64::from(i32_at(p, 52)) / 65536.0;
        assert!((x - telemetry.get(ms, "x_m")).abs() < 1e-3);
    }
}

#[test]
fn nobody_listening_is_not_an_error() {
    // A port nobody listens on: every send fails or vanishes, the run does not notice.
    let spare = UdpSocket::bind("127.0.0.1:0").unwrap();
    let address = spare.local_addr().unwrap();
    drop(spare);
    let observer = TelemetryObserver::new(TelemetryTargets {
        outgauge: Some(address),
        ..TelemetryTargets::default()
    })
    .unwrap();
    let options = HeadlessOptions {
        vehicle: "hatchback-fwd".into(),
        scenario: "braking".into(),
        decimate: 1,
        ..HeadlessOptions::default()
    };
    run_observed(&options, Some(Box::new(observer))).unwrap();
}

#[test]
fn the_window_sender_starts_and_stops_when_its_destinations_change() {
    use std::sync::Arc;

    use gripline_input::settings::bindings::Bindings;
    use gripline_sim::realtime::rig::Rig;
    use gripline_sim::realtime::sim_core::{SimCore, core_rings};
    use gripline_sim::realtime::stats::SharedStats;
    use gripline_sim::session::Session;
    use gripline_sim::telemetry_out::TelemetrySender;

    let session = Session::load("corvette-c5", "circuit").unwrap();
    let (rings, _ui) = core_rings(64);
    let mut core = SimCore::new(
        session,
        Rig::without_ffb(&Bindings::default()),
        rings,
        Arc::new(SharedStats::default()),
        true,
    );
    let (mut sender, tap) =
        TelemetrySender::spawn(TelemetryTargets::default(), core.session().vehicle()).unwrap();
    core.set_observer(Box::new(tap));
    let mut now = Duration::ZERO;
    let mut run = |core: &mut SimCore, ms: u64| {
        for _ in 0..ms {
            now += Duration::from_millis(1);
            core.tick(now);
        }
        // Let the sender thread catch up.
        std::thread::sleep(Duration::from_millis(100));
    };
    run(&mut core, 500);
    assert_eq!(
        sender.counts(),
        (0, 0),
        "nothing is sent without a destination"
    );

    let (address, packets) = listener();
    sender
        .set_targets(TelemetryTargets {
            outgauge: Some(address),
            ..TelemetryTargets::default()
        })
        .unwrap();
    run(&mut core, 1000);
    let (sent, _) = sender.counts();
    assert!(
        (59..=61).contains(&sent),
        "{sent} packets in one simulated second at 60 Hz"
    );

    sender.set_targets(TelemetryTargets::default()).unwrap();
    run(&mut core, 1000);
    assert_eq!(sender.counts().0, sent, "stopped");
    let received = packets.recv().unwrap();
    assert_eq!(received.len() as u64, sent);
    assert!(
        sender
            .set_targets(TelemetryTargets {
                outgauge_rate_hz: 0.0,
                ..TelemetryTargets::default()
            })
            .is_err()
    );
}

/// Gripline's own stream, decoded by the table in `docs/telemetry-stream.md`: the header,
/// consecutive sequence numbers, and the car and each wheel as the same tick's telemetry.
#[test]
fn the_gripline_stream_carries_every_wheel_of_the_tick_it_was_sent_at() {
    let (at, rx) = listener();
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("t.csv");
    let options = HeadlessOptions {
        vehicle: "corvette-c5".into(),
        scenario: "launch".into(),
        out: Some(csv.clone()),
        decimate: 1,
        ..HeadlessOptions::default()
    };
    let targets = TelemetryTargets {
        stream: Some(at),
        stream_rate_hz: 200.0,
        ..TelemetryTargets::default()
    };
    let summary = run_observed(
        &options,
        Some(Box::new(TelemetryObserver::new(targets).unwrap())),
    )
    .unwrap();
    let simulated_s = summary["simulated_total_s"].as_f64().unwrap();
    let telemetry = Csv::read(&csv);
    let packets = rx.recv().unwrap();
    assert!(
        (packets.len() as f64 - simulated_s * 200.0).abs() <= 2.0,
        "{} packets for {simulated_s} s",
        packets.len()
    );
    let f64_at = |p: &[u8], at: usize| f64::from_le_bytes(p[at..at + 8].try_into().unwrap());
    let mut moved = false;
    for (n, p) in packets.iter().enumerate() {
        assert_eq!(p.len(), 548);
        assert_eq!(&p[0..4], b"GRPL");
        assert_eq!(u16::from_le_bytes([p[4], p[5]]), 2, "version");
        assert_eq!(u16::from_le_bytes([p[6], p[7]]), 548, "size");
        assert_eq!(u32_at(p, 8) as usize, n, "sequence");
        let t = f64_at(p, 16);
        let ms = (t * 1000.0).round() as u32;
        assert!(
            close(f64_at(p, 24), telemetry.get(ms, "x_m"), 1e-3),
            "x at {ms}"
        );
        assert!(
            close(f32_at(p, 124), telemetry.get(ms, "speed_m_s"), 1e-3),
            "speed at {ms}"
        );
        assert!(
            close(f32_at(p, 156), telemetry.get(ms, "engine_rpm"), 1e-3),
            "rpm at {ms}"
        );
        assert_eq!(
            f64::from(i8::from_le_bytes([p[176]])),
            telemetry.get(ms, "gear"),
            "gear at {ms}"
        );
        for (k, wheel) in ["fl", "fr", "rl", "rr"].iter().enumerate() {
            let w = 180 + k * 64;
            for (offset, column, tolerance) in [
                (0, "load_n", 0.1),
                (4, "slip_ratio", 1e-4),
                (20, "fy_n", 0.1),
                (28, "spin_rad_s", 1e-3),
                (32, "travel_m", 1e-4),
            ] {
                let expected = telemetry.get(ms, &format!("{wheel}_{column}"));
                assert!(
                    close(f32_at(p, w + offset), expected, tolerance),
                    "{wheel} {column} at {ms} ms: {} vs {expected}",
                    f32_at(p, w + offset)
                );
            }
            assert_eq!(p[w + 60], 0, "asphalt");
            assert_eq!(p[w + 61], 1, "in contact");
            // Camber against the road in car terms: the C5's -0.5° front and -0.3° rear read
            // negative on both sides, the same on the left as on the right.
            let camber = f32_at(p, w + 40);
            let other_side = f32_at(p, 180 + (k ^ 1) * 64 + 40);
            assert!(
                camber < 0.0 && (camber - other_side).abs() < 1e-6,
                "{wheel} camber {camber} rad, the other side's {other_side} at {ms} ms"
            );
            let th = 436 + k * 28;
            for (offset, column, tolerance) in [
                (0, "tread_temp_c", 1e-3),
                (16, "pressure_pa", 1e-5),
                (24, "grip_factor", 1e-5),
            ] {
                let expected = telemetry.get(ms, &format!("{wheel}_{column}"));
                assert!(
                    close(f32_at(p, th + offset), expected, tolerance),
                    "{wheel} {column} at {ms} ms: {} vs {expected}",
                    f32_at(p, th + offset)
                );
            }
        }
        moved |= f32_at(p, 124) > 10.0;
    }
    assert!(moved, "the launch reaches speed");
}

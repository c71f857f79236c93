//! Sending the packets: each stream at its own rate by simulated time, from a non-blocking
//! UDP socket whose errors are counted, never fatal (nobody listening is normal).
//!
//! In the window the sim thread's [`TelemetryTap`] copies a snapshot into a wait-free ring
//! when a packet is due and the [`TelemetrySender`] thread encodes and sends it: no socket
//! call, no allocation and no lock in the tick. Headless runs send from their own loop
//! through [`TelemetryObserver`].

use std::io;
use std::net::{SocketAddr, UdpSocket};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use gripline_config::TelemetrySettings;
use gripline_config::telemetry::RATE_RANGE_HZ;
use gripline_formats::vehicle_sound::SoundParams;
use gripline_physics::vehicle::{Snapshot, Vehicle};
use rtrb::{Consumer, Producer, RingBuffer};

use super::car_facts::CarFacts;
use super::{gripline_stream, outgauge, outsim};
use crate::observer::TickObserver;
use crate::realtime::prefault::prefault_ring;

/// Where the packets go and how often (off by default).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TelemetryTargets {
    /// OutGauge's destination.
    pub outgauge: Option<SocketAddr>,
    /// OutGauge packets per simulated second.
    pub outgauge_rate_hz: f64,
    /// OutSim's destination.
    pub outsim: Option<SocketAddr>,
    /// OutSim packets per simulated second.
    pub outsim_rate_hz: f64,
    /// OutSim's `Opts` bits (0: the classic 64-byte packet).
    pub outsim_opts: u32,
    /// The optional packet ID (LFS's `OutGauge ID` / `OutSim ID`).
    pub id: Option<i32>,
    /// Gripline's own stream's destination.
    pub stream: Option<SocketAddr>,
    /// Gripline stream packets per simulated second.
    pub stream_rate_hz: f64,
}

impl Default for TelemetryTargets {
    /// Nothing sent, at the settings' default rates and options once a destination is set.
    fn default() -> Self {
        let d = TelemetrySettings::default();
        Self {
            outgauge: None,
            outgauge_rate_hz: d.outgauge_rate_hz,
            outsim: None,
            outsim_rate_hz: d.outsim_rate_hz,
            outsim_opts: d.outsim_opts,
            id: d.id,
            stream: None,
            stream_rate_hz: d.stream_rate_hz,
        }
    }
}

/// Resolves a `HOST:PORT` destination (a name or an address).
///
/// # Errors
/// A sentence saying why it does not resolve.
pub fn parse_destination(text: &str) -> Result<SocketAddr, String> {
    use std::net::ToSocketAddrs;
    text.trim()
        .to_socket_addrs()
        .map_err(|e| format!("{text}: {e} (expected HOST:PORT)"))?
        .next()
        .ok_or_else(|| format!("{text}: no address"))
}

impl TelemetryTargets {
    /// Whether anything is to be sent.
    pub fn any(&self) -> bool {
        self.outgauge.is_some() || self.outsim.is_some() || self.stream.is_some()
    }

    /// The shortest period of the streams that are on (s); infinite when none is.
    fn shortest_period_s(&self) -> f64 {
        let mut period = f64::INFINITY;
        if self.outgauge.is_some() {
            period = period.min(1.0 / self.outgauge_rate_hz);
        }
        if self.outsim.is_some() {
            period = period.min(1.0 / self.outsim_rate_hz);
        }
        if self.stream.is_some() {
            period = period.min(1.0 / self.stream_rate_hz);
        }
        period
    }

    /// Checks the rates (the settings' [`RATE_RANGE_HZ`]) and options (8 bits).
    ///
    /// # Errors
    /// A sentence naming the bad value.
    pub fn check(&self) -> Result<(), String> {
        let (lo, hi) = RATE_RANGE_HZ;
        for (name, rate) in [
            ("OutGauge", self.outgauge_rate_hz),
            ("OutSim", self.outsim_rate_hz),
            ("Gripline stream", self.stream_rate_hz),
        ] {
            if !(lo..=hi).contains(&rate) {
                return Err(format!(
                    "{name} rate {rate} Hz is not between {lo} and {hi}"
                ));
            }
        }
        if self.outsim_opts > 0xff {
            return Err(format!(
                "OutSim options {:#x} have bits beyond 0xff",
                self.outsim_opts
            ));
        }
        Ok(())
    }
}

/// A stream's clock: due every `period_s` of simulated time.
#[derive(Clone, Copy, Debug)]
struct Due {
    period_s: f64,
    next_s: f64,
}

impl Due {
    fn new(rate_hz: f64) -> Self {
        Self {
            period_s: 1.0 / rate_hz,
            next_s: f64::NEG_INFINITY,
        }
    }

    /// Whether a packet is due at `t`; a clock that went back (a reset) starts again.
    fn take(&mut self, t: f64) -> bool {
        if t + self.period_s < self.next_s - self.period_s {
            self.next_s = t;
        }
        if t + 1e-9 >= self.next_s {
            self.next_s = if self.next_s.is_finite() && t - self.next_s < self.period_s {
                self.next_s + self.period_s
            } else {
                t + self.period_s
            };
            true
        } else {
            false
        }
    }
}

/// Counters of what was sent.
#[derive(Debug, Default)]
pub struct SendCounts {
    /// Packets sent.
    pub sent: AtomicU64,
    /// Sends that failed (nobody listening, no route): counted and forgotten.
    pub failed: AtomicU64,
}

/// The encoders and the socket.
#[derive(Debug)]
struct Streams {
    targets: TelemetryTargets,
    car: CarFacts,
    socket: UdpSocket,
    gauge: Due,
    motion: Due,
    full: Due,
    /// Gripline stream packets sent (their sequence numbers).
    sequence: u32,
    distance_m: f64,
    last: Option<(f64, f64)>,
    counts: Arc<SendCounts>,
}

impl Streams {
    /// Sends to `targets` from now on (fresh clocks).
    fn retarget(&mut self, targets: TelemetryTargets) {
        self.gauge = Due::new(targets.outgauge_rate_hz);
        self.motion = Due::new(targets.outsim_rate_hz);
        self.full = Due::new(targets.stream_rate_hz);
        self.targets = targets;
    }

    fn new(targets: TelemetryTargets, car: CarFacts, counts: Arc<SendCounts>) -> io::Result<Self> {
        let unspecified: SocketAddr = ([0, 0, 0, 0], 0).into();
        let socket = UdpSocket::bind(unspecified)?;
        socket.set_nonblocking(true)?;
        Ok(Self {
            gauge: Due::new(targets.outgauge_rate_hz),
            motion: Due::new(targets.outsim_rate_hz),
            full: Due::new(targets.stream_rate_hz),
            sequence: 0,
            targets,
            car,
            socket,
            distance_m: 0.0,
            last: None,
            counts,
        })
    }

    fn send(&self, bytes: &[u8], to: SocketAddr) {
        let counter = match self.socket.send_to(bytes, to) {
            Ok(_) => &self.counts.sent,
            Err(_) => &self.counts.failed,
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }

    /// Sends what is due at the state `s`.
    fn offer(&mut self, s: &Snapshot) {
        let t = s.time_s;
        match self.last {
            Some((last_t, speed)) if t > last_t => self.distance_m += speed * (t - last_t),
            Some((last_t, _)) if t < last_t => self.distance_m = 0.0,
            _ => {}
        }
        self.last = Some((t, s.speed_m_per_s));
        if let Some(to) = self.targets.outgauge
            && self.gauge.take(t)
        {
            let packet = outgauge::encode(s, &self.car, self.targets.id);
            self.send(packet.bytes(), to);
        }
        if let Some(to) = self.targets.outsim
            && self.motion.take(t)
        {
            let packet = outsim::encode(
                s,
                &self.car,
                self.targets.outsim_opts,
                self.targets.id,
                self.distance_m,
            );
            self.send(packet.bytes(), to);
        }
        if let Some(to) = self.targets.stream
            && self.full.take(t)
        {
            let packet = gripline_stream::encode(s, self.sequence);
            self.sequence = self.sequence.wrapping_add(1);
            self.send(packet.bytes(), to);
        }
    }
}

/// Messages from the sim thread to the sender.
enum Message {
    State(Box<Snapshot>),
    Car(Box<CarFacts>),
}

/// Snapshots the handoff holds (a quarter second at 400 Hz).
const HANDOFF_CAPACITY: usize = 100;

/// The sim thread's side: copies a snapshot into the handoff when a packet is due.
pub struct TelemetryTap {
    producer: Producer<Message>,
    /// Pre-allocated boxes, recycled through the sender, so the tick never allocates.
    spare: Consumer<Box<Snapshot>>,
    due: Due,
    /// The shortest stream period (µs), set by the UI; 0: nothing to send.
    period_us: Arc<AtomicU64>,
    dropped: Arc<AtomicU64>,
}

/// A period in whole microseconds (0 for none).
fn period_us(targets: &TelemetryTargets) -> u64 {
    let period = targets.shortest_period_s();
    if period.is_finite() {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let us = (period * 1e6).round().max(1.0) as u64;
        us
    } else {
        0
    }
}

impl TickObserver for TelemetryTap {
    fn start(
        &mut self,
        vehicle: &Vehicle,
        _sound: &SoundParams,
        _step_s: f64,
    ) -> anyhow::Result<()> {
        let _ = self
            .producer
            .push(Message::Car(Box::new(CarFacts::of(vehicle))));
        Ok(())
    }

    /// Never fails: what the handoff cannot take is dropped and counted.
    fn tick(&mut self, snapshot: &Snapshot, _step_s: f64, paused: bool) -> anyhow::Result<()> {
        let period_us = self.period_us.load(Ordering::Relaxed);
        if period_us == 0 || paused {
            return Ok(());
        }
        #[allow(clippy::cast_precision_loss)]
        let period_s = period_us as f64 * 1e-6;
        if (self.due.period_s - period_s).abs() > 1e-9 {
            self.due = Due {
                period_s,
                next_s: f64::NEG_INFINITY,
            };
        }
        if !self.due.take(snapshot.time_s) {
            return Ok(());
        }
        match self.spare.pop() {
            Ok(mut slot) => {
                *slot = *snapshot;
                if self.producer.push(Message::State(slot)).is_err() {
                    self.dropped.fetch_add(1, Ordering::Relaxed);
                }
            }
            Err(_) => {
                self.dropped.fetch_add(1, Ordering::Relaxed);
            }
        }
        Ok(())
    }
}

/// The sender thread (see the module docs). Dropping it stops the thread.
pub struct TelemetrySender {
    targets: TelemetryTargets,
    retarget: Producer<TelemetryTargets>,
    period_us: Arc<AtomicU64>,
    quit: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
    counts: Arc<SendCounts>,
    dropped: Arc<AtomicU64>,
}

impl TelemetrySender {
    /// Starts the sender for `targets` (possibly none yet: [`TelemetrySender::set_targets`]
    /// changes them) with `vehicle`'s facts; returns it and the tap to give the sim thread.
    ///
    /// # Errors
    /// A bad rate or option, or the OS refusing a UDP socket or a thread.
    pub fn spawn(targets: TelemetryTargets, vehicle: &Vehicle) -> io::Result<(Self, TelemetryTap)> {
        targets
            .check()
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
        let counts = Arc::new(SendCounts::default());
        let mut streams = Streams::new(targets, CarFacts::of(vehicle), Arc::clone(&counts))?;
        let (mut producer, mut consumer) = RingBuffer::<Message>::new(HANDOFF_CAPACITY);
        // Mapped now: the sim thread's pushes never page-fault (see `realtime::prefault`).
        prefault_ring(&mut producer, &mut consumer, || {
            Message::State(Box::default())
        });
        let (mut recycle, spare) = RingBuffer::<Box<Snapshot>>::new(HANDOFF_CAPACITY);
        for _ in 0..HANDOFF_CAPACITY {
            let _ = recycle.push(Box::new(Snapshot::default()));
        }
        let (retarget, mut new_targets) = RingBuffer::<TelemetryTargets>::new(4);
        let quit = Arc::new(AtomicBool::new(false));
        let thread_quit = Arc::clone(&quit);
        let thread = std::thread::Builder::new()
            .name("gripline-telemetry".to_owned())
            .spawn(move || {
                while !thread_quit.load(Ordering::Relaxed) {
                    while let Ok(targets) = new_targets.pop() {
                        streams.retarget(targets);
                    }
                    let mut idle = true;
                    while let Ok(message) = consumer.pop() {
                        idle = false;
                        match message {
                            Message::State(snapshot) => {
                                streams.offer(&snapshot);
                                let _ = recycle.push(snapshot);
                            }
                            Message::Car(car) => streams.car = *car,
                        }
                    }
                    if idle {
                        // Nothing to send: look for new destinations five times a second.
                        let nap = if streams.targets.any() { 1 } else { 200 };
                        std::thread::sleep(Duration::from_millis(nap));
                    }
                }
            })?;
        let dropped = Arc::new(AtomicU64::new(0));
        let period = Arc::new(AtomicU64::new(period_us(&targets)));
        let tap = TelemetryTap {
            producer,
            spare,
            due: Due::new(1.0),
            period_us: Arc::clone(&period),
            dropped: Arc::clone(&dropped),
        };
        Ok((
            Self {
                targets,
                retarget,
                period_us: period,
                quit,
                thread: Some(thread),
                counts,
                dropped,
            },
            tap,
        ))
    }

    /// Where the packets go now.
    pub fn targets(&self) -> TelemetryTargets {
        self.targets
    }

    /// Sends to `targets` from now on (none: stops sending).
    ///
    /// # Errors
    /// A bad rate or option; the previous destinations stay.
    pub fn set_targets(&mut self, targets: TelemetryTargets) -> Result<(), String> {
        targets.check()?;
        self.retarget
            .push(targets)
            .map_err(|_| "the telemetry sender is busy; try again".to_owned())?;
        self.period_us.store(period_us(&targets), Ordering::Relaxed);
        self.targets = targets;
        Ok(())
    }

    /// Packets sent and sends that failed so far.
    pub fn counts(&self) -> (u64, u64) {
        (
            self.counts.sent.load(Ordering::Relaxed),
            self.counts.failed.load(Ordering::Relaxed),
        )
    }

    /// States the handoff dropped because the sender was behind.
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }
}

impl Drop for TelemetrySender {
    fn drop(&mut self) {
        self.quit.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// `gripline headless --outgauge/--outsim`: sends as the run steps.
pub struct TelemetryObserver {
    targets: TelemetryTargets,
    streams: Option<Streams>,
    counts: Arc<SendCounts>,
}

impl TelemetryObserver {
    /// An observer sending to `targets`.
    ///
    /// # Errors
    /// A bad rate or option.
    pub fn new(targets: TelemetryTargets) -> Result<Self, String> {
        targets.check()?;
        Ok(Self {
            targets,
            streams: None,
            counts: Arc::new(SendCounts::default()),
        })
    }

    /// The counters (packets sent, sends failed).
    pub fn counts(&self) -> Arc<SendCounts> {
        Arc::clone(&self.counts)
    }
}

impl TickObserver for TelemetryObserver {
    fn start(
        &mut self,
        vehicle: &Vehicle,
        _sound: &SoundParams,
        _step_s: f64,
    ) -> anyhow::Result<()> {
        self.streams = Some(Streams::new(
            self.targets,
            CarFacts::of(vehicle),
            Arc::clone(&self.counts),
        )?);
        Ok(())
    }

    fn tick(&mut self, snapshot: &Snapshot, _step_s: f64, _paused: bool) -> anyhow::Result<()> {
        if let Some(streams) = &mut self.streams {
            streams.offer(snapshot);
        }
        Ok(())
    }
}

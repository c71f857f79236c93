//! Recording a replay: the session's [`ReplayJournal`] hands each event through a wait-free
//! ring to a writer thread (`gripline-replay`) that encodes it and streams it to the file,
//! so memory stays bounded however long the drive; a [`ReplayHandle`] on the UI side saves a
//! complete copy on demand and finishes the file.
//!
//! File: [`MAGIC`], the format version (`u32` LE), the header's length (`u32` LE), the header
//! as RON text ([`ReplayHeader`]), then the body of records (`codec`), ended by an `End`
//! record carrying the tick count and the body's checksum. A recording cut short (the
//! program killed) has no `End`; the reader says so and can play what is intact.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::JoinHandle;
use std::time::Duration;

use anyhow::{Context, Result};
use gripline_physics::vehicle::Snapshot;
use rtrb::{Consumer, Producer, RingBuffer};
use serde::{Deserialize, Serialize};

use super::codec::{Encoder, Fnv64, Record, state_hash};
use super::event::{JournalEvent, SessionJournal};
use super::identity::SessionIdentity;

/// The first bytes of every replay file.
pub const MAGIC: &[u8; 16] = b"GRIPLINE-REPLAY\n";
/// The body format this build writes and reads (2: the reset key's recovery record; this
/// build reads version 1 files too).
pub const FORMAT_VERSION: u32 = 2;
/// A state checkpoint every this many steps.
pub const CHECKPOINT_EVERY_TICKS: u64 = 1000;
/// Records the ring between the sim thread and the writer holds (about a minute of steps at
/// 1 kHz, several MB): the writer drains it every few milliseconds.
pub const RING_CAPACITY: usize = 1 << 16;

/// What a replay file starts with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplayHeader {
    /// The build that recorded it ([`super::identity::build_id`]).
    pub build: String,
    /// When the recording started (seconds since the Unix epoch, UTC).
    pub recorded_unix_s: u64,
    /// The car, track and set-up.
    pub identity: SessionIdentity,
    /// The physics step at the start (s); later changes are events.
    pub step_s: f64,
    /// Air and track temperatures (absent in files from before they existed: the
    /// defaults).
    #[serde(default)]
    pub environment: gripline_physics::environment::Environment,
}

impl ReplayHeader {
    /// The header of a recording of `session` (as built) starting now, by this build.
    pub fn for_session(session: &crate::session::Session) -> Self {
        Self {
            environment: session.environment(),
            ..Self::now(session.identity().clone(), session.step_s())
        }
    }

    /// The header of a recording starting now, by this build, in the default weather.
    pub fn now(identity: SessionIdentity, step_s: f64) -> Self {
        let recorded_unix_s = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        Self {
            build: super::identity::build_id(),
            recorded_unix_s,
            identity,
            step_s,
            environment: gripline_physics::environment::Environment::default(),
        }
    }
}

/// What to do when the writer falls a whole ring behind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overflow {
    /// Wait for room (headless runs, which have no deadline).
    Wait,
    /// Stop recording and leave the file without its end (the real-time sim thread, which
    /// must never wait); the reader then plays the intact part.
    Stop,
}

/// The session's end of a recording: a [`SessionJournal`] that never allocates, and waits
/// only with [`Overflow::Wait`].
pub struct ReplayJournal {
    ring: Producer<Record>,
    overflow: Overflow,
    ticks: u64,
    stopped: Arc<AtomicBool>,
}

impl std::fmt::Debug for ReplayJournal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReplayJournal")
            .field("ticks", &self.ticks)
            .finish_non_exhaustive()
    }
}

impl ReplayJournal {
    fn push(&mut self, record: Record) {
        if self.stopped.load(Ordering::Relaxed) {
            return;
        }
        let mut record = record;
        loop {
            match self.ring.push(record) {
                Ok(()) => return,
                Err(rtrb::PushError::Full(back)) => match self.overflow {
                    Overflow::Wait if !self.ring.is_abandoned() => {
                        record = back;
                        std::thread::sleep(Duration::from_micros(200));
                    }
                    _ => {
                        self.stopped.store(true, Ordering::Relaxed);
                        return;
                    }
                },
            }
        }
    }
}

impl SessionJournal for ReplayJournal {
    fn record(&mut self, event: &JournalEvent, after: Option<&Snapshot>) {
        self.push(Record::Event(event.clone()));
        if let JournalEvent::Step(_) = event {
            self.ticks += 1;
            if self.ticks.is_multiple_of(CHECKPOINT_EVERY_TICKS)
                && let Some(state) = after
            {
                self.push(Record::Checkpoint {
                    tick: self.ticks,
                    state_hash: state_hash(state),
                });
            }
        }
    }
}

/// A complete copy saved by [`ReplayHandle::save_as`].
#[derive(Clone, Debug, PartialEq)]
pub struct SavedReplay {
    /// Where.
    pub path: PathBuf,
    /// Steps it holds.
    pub ticks: u64,
}

type SaveRequest = (PathBuf, Sender<Result<SavedReplay>>);

/// The UI's end of a recording (see the module docs).
#[derive(Debug)]
pub struct ReplayHandle {
    path: PathBuf,
    requests: Sender<SaveRequest>,
    ticks: Arc<AtomicU64>,
    stopped: Arc<AtomicBool>,
    thread: Option<JoinHandle<Result<u64>>>,
}

/// Starts recording to `path` (created or replaced): returns the journal to give the
/// session ([`crate::session::Session::record_to`]) and the handle.
///
/// # Errors
/// The file cannot be created or written; the writer thread cannot start.
pub fn start_recording(
    path: &Path,
    header: &ReplayHeader,
    overflow: Overflow,
) -> Result<(ReplayJournal, ReplayHandle)> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("{}: cannot create the folder", dir.display()))?;
    }
    let file = File::create(path).with_context(|| format!("{}: cannot create", path.display()))?;
    let mut out = BufWriter::with_capacity(1 << 16, file);
    let text = ron::ser::to_string_pretty(header, ron::ser::PrettyConfig::default())
        .context("cannot write the replay header")?;
    let len = u32::try_from(text.len()).context("the replay header is too long")?;
    out.write_all(MAGIC)
        .and_then(|()| out.write_all(&FORMAT_VERSION.to_le_bytes()))
        .and_then(|()| out.write_all(&len.to_le_bytes()))
        .and_then(|()| out.write_all(text.as_bytes()))
        .with_context(|| format!("{}: cannot write", path.display()))?;

    let (mut producer, mut consumer) = RingBuffer::new(RING_CAPACITY);
    // Mapped now, not page by page by the sim thread over the first minute.
    crate::realtime::prefault::prefault_ring(&mut producer, &mut consumer, || {
        Record::Event(JournalEvent::Reset)
    });
    let (requests_tx, requests_rx) = mpsc::channel();
    let ticks = Arc::new(AtomicU64::new(0));
    let stopped = Arc::new(AtomicBool::new(false));
    let writer = Writer {
        path: path.to_owned(),
        out,
        ring: consumer,
        requests: requests_rx,
        encoder: Encoder::default(),
        checksum: Fnv64::default(),
        ticks: Arc::clone(&ticks),
        stopped: Arc::clone(&stopped),
        buffer: Vec::with_capacity(64),
    };
    let thread = std::thread::Builder::new()
        .name("gripline-replay".to_owned())
        .spawn(move || writer.run())
        .context("cannot start the replay writer thread")?;
    Ok((
        ReplayJournal {
            ring: producer,
            overflow,
            ticks: 0,
            stopped: Arc::clone(&stopped),
        },
        ReplayHandle {
            path: path.to_owned(),
            requests: requests_tx,
            ticks,
            stopped,
            thread: Some(thread),
        },
    ))
}

impl ReplayHandle {
    /// The file being recorded.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Steps written so far.
    pub fn ticks(&self) -> u64 {
        self.ticks.load(Ordering::Relaxed)
    }

    /// Whether the recording stopped early (the writer fell behind or failed).
    pub fn stopped(&self) -> bool {
        self.stopped.load(Ordering::Relaxed)
    }

    /// Saves a complete replay of everything recorded so far to `path` (written beside it
    /// and renamed into place), while the recording goes on.
    ///
    /// # Errors
    /// The writer has ended or failed; the copy cannot be written.
    pub fn save_as(&self, path: &Path) -> Result<SavedReplay> {
        let (tx, rx) = mpsc::channel();
        self.requests
            .send((path.to_owned(), tx))
            .map_err(|_| anyhow::anyhow!("the replay recording has ended"))?;
        rx.recv_timeout(Duration::from_secs(10))
            .map_err(|_| anyhow::anyhow!("the replay writer did not answer"))?
    }

    /// Waits for the writer to end (the journal was dropped with its session) and returns
    /// the steps written.
    ///
    /// # Errors
    /// The file could not be written.
    pub fn finish(mut self) -> Result<u64> {
        match self.thread.take().map(JoinHandle::join) {
            Some(Ok(result)) => result,
            Some(Err(_)) => Err(anyhow::anyhow!("the replay writer thread panicked")),
            None => Ok(self.ticks()),
        }
    }
}

struct Writer {
    path: PathBuf,
    out: BufWriter<File>,
    ring: Consumer<Record>,
    requests: Receiver<SaveRequest>,
    encoder: Encoder,
    checksum: Fnv64,
    ticks: Arc<AtomicU64>,
    stopped: Arc<AtomicBool>,
    buffer: Vec<u8>,
}

impl Writer {
    fn run(mut self) -> Result<u64> {
        let result = self.record();
        if result.is_err() {
            self.stopped.store(true, Ordering::Relaxed);
        }
        result
    }

    fn record(&mut self) -> Result<u64> {
        loop {
            let abandoned = self.ring.is_abandoned();
            self.drain()?;
            while let Ok((path, reply)) = self.requests.try_recv() {
                let _ = reply.send(self.save_copy(&path));
            }
            if abandoned {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let ticks = self.ticks.load(Ordering::Relaxed);
        if !self.stopped.load(Ordering::Relaxed) {
            let end = self.end_record();
            self.out.write_all(&end).context("cannot end the replay")?;
        }
        self.out
            .flush()
            .with_context(|| format!("{}: cannot write", self.path.display()))?;
        Ok(ticks)
    }

    fn drain(&mut self) -> Result<()> {
        while let Ok(record) = self.ring.pop() {
            if let Record::Event(JournalEvent::Step(_)) = record {
                self.ticks.fetch_add(1, Ordering::Relaxed);
            }
            self.buffer.clear();
            self.encoder.encode(&record, &mut self.buffer);
            self.checksum.write(&self.buffer);
            self.out
                .write_all(&self.buffer)
                .with_context(|| format!("{}: cannot write", self.path.display()))?;
        }
        Ok(())
    }

    fn end_record(&self) -> Vec<u8> {
        let mut end = Vec::with_capacity(17);
        Encoder::default().encode(
            &Record::End {
                ticks: self.ticks.load(Ordering::Relaxed),
                checksum: self.checksum.finish(),
            },
            &mut end,
        );
        end
    }

    fn save_copy(&mut self, path: &Path) -> Result<SavedReplay> {
        self.out
            .flush()
            .with_context(|| format!("{}: cannot write", self.path.display()))?;
        let partial = path.with_extension("partial");
        std::fs::copy(&self.path, &partial)
            .with_context(|| format!("{}: cannot write", partial.display()))?;
        let mut copy = std::fs::OpenOptions::new()
            .append(true)
            .open(&partial)
            .with_context(|| format!("{}: cannot open", partial.display()))?;
        copy.write_all(&self.end_record())
            .and_then(|()| copy.sync_all())
            .with_context(|| format!("{}: cannot write", partial.display()))?;
        std::fs::rename(&partial, path)
            .with_context(|| format!("{}: cannot save", path.display()))?;
        Ok(SavedReplay {
            path: path.to_owned(),
            ticks: self.ticks.load(Ordering::Relaxed),
        })
    }
}

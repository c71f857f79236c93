//! Reading a replay file: [`ReplayFile::open`] checks the whole file once (magic, version,
//! header, every record, the end record's tick count and checksum) without keeping the body
//! in memory; [`ReplayFile::records`] then streams the records for playing.

use std::fs::File;
use std::io::{BufReader, ErrorKind, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use thiserror::Error;

use super::codec::{DecodeError, Decoder, Fnv64, Record};
use super::event::JournalEvent;
use super::writer::{FORMAT_VERSION, MAGIC, ReplayHeader};

/// Why a file cannot be played.
#[derive(Debug, Error)]
pub enum ReplayError {
    /// The file cannot be read.
    #[error("{path}: cannot read: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS's error.
        source: std::io::Error,
    },
    /// The file does not start like a replay.
    #[error("{0}: not a Gripline replay (it does not start with the replay signature)")]
    NotAReplay(PathBuf),
    /// A newer format than this build reads.
    #[error(
        "{path}: replay format version {found}, but this build reads version {supported} and \
         older: play it with the newer Gripline that recorded it"
    )]
    FutureVersion {
        /// The file.
        path: PathBuf,
        /// The file's format version.
        found: u32,
        /// The newest this build reads.
        supported: u32,
    },
    /// The header cannot be read.
    #[error("{path}: the replay header is damaged: {reason}")]
    BadHeader {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// A record in the body is damaged.
    #[error("{path}: the replay is damaged at byte {offset}: {reason}")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// Where the bad record starts.
        offset: u64,
        /// What is wrong.
        reason: String,
    },
    /// The recording stopped without its end (the program was killed, or the disk filled).
    #[error(
        "{path}: the replay is incomplete: the recording stopped after {intact_ticks} steps \
         ({intact_s:.1} s) without its end; what is intact can be played anyway"
    )]
    Truncated {
        /// The file.
        path: PathBuf,
        /// Whole steps before the cut.
        intact_ticks: u64,
        /// Their duration (s).
        intact_s: f64,
    },
}

/// A checked replay file.
#[derive(Clone, Debug)]
pub struct ReplayFile {
    /// Where it is.
    pub path: PathBuf,
    /// Its header.
    pub header: ReplayHeader,
    /// Steps it holds (the intact ones of an incomplete file).
    pub ticks: u64,
    /// Simulated seconds it holds.
    pub duration_s: f64,
    /// Whether it ends with its end record (an incomplete file is opened only by
    /// [`ReplayFile::open_intact`]).
    pub complete: bool,
    body_offset: u64,
    body_len: u64,
}

impl ReplayFile {
    /// Opens and checks `path`: a complete, undamaged replay of a format this build reads.
    ///
    /// # Errors
    /// Every [`ReplayError`].
    pub fn open(path: &Path) -> Result<Self, ReplayError> {
        let file = Self::open_intact(path)?;
        if file.complete {
            Ok(file)
        } else {
            Err(ReplayError::Truncated {
                path: path.to_owned(),
                intact_ticks: file.ticks,
                intact_s: file.duration_s,
            })
        }
    }

    /// As [`ReplayFile::open`], but an incomplete file opens too, holding its intact steps.
    ///
    /// # Errors
    /// Every [`ReplayError`] but [`ReplayError::Truncated`].
    pub fn open_intact(path: &Path) -> Result<Self, ReplayError> {
        let io = |source| ReplayError::Io {
            path: path.to_owned(),
            source,
        };
        let mut input = BufReader::new(File::open(path).map_err(io)?);
        let mut magic = [0u8; 16];
        let mut word = [0u8; 4];
        let not_replay = || ReplayError::NotAReplay(path.to_owned());
        read_or(&mut input, &mut magic, not_replay)?;
        if &magic != MAGIC {
            return Err(not_replay());
        }
        read_or(&mut input, &mut word, not_replay)?;
        let version = u32::from_le_bytes(word);
        if version > FORMAT_VERSION {
            return Err(ReplayError::FutureVersion {
                path: path.to_owned(),
                found: version,
                supported: FORMAT_VERSION,
            });
        }
        let bad_header = |reason: String| ReplayError::BadHeader {
            path: path.to_owned(),
            reason,
        };
        read_or(&mut input, &mut word, || {
            bad_header("it is cut short".into())
        })?;
        let len = u32::from_le_bytes(word);
        if len > 1 << 20 {
            return Err(bad_header(format!("it claims {len} bytes")));
        }
        let mut text = vec![0u8; len as usize];
        read_or(&mut input, &mut text, || {
            bad_header("it is cut short".into())
        })?;
        let text = String::from_utf8(text).map_err(|_| bad_header("it is not text".into()))?;
        let header: ReplayHeader = ron::from_str(&text).map_err(|e| bad_header(e.to_string()))?;
        if !(header.step_s.is_finite() && header.step_s > 0.0) {
            return Err(bad_header(format!("a physics step of {} s", header.step_s)));
        }
        let body_offset = 24 + u64::from(len);

        // Check every record.
        let mut scan = RecordStream::new(input, path, body_offset);
        let mut checksum = Fnv64::default();
        let (mut ticks, mut seconds, mut step_s) = (0u64, 0.0, header.step_s);
        let mut complete = false;
        loop {
            let before = checksum;
            let record = match scan.next_record(Some(&mut checksum)) {
                Ok(Some(record)) => record,
                Ok(None) | Err(StreamEnd::Cut) => break,
                Err(StreamEnd::Error(e)) => return Err(e),
            };
            match record {
                Record::Event(JournalEvent::Step(_)) => {
                    ticks += 1;
                    seconds += step_s;
                }
                Record::Event(JournalEvent::StepSize(s)) => {
                    if !(s.is_finite() && s > 0.0) {
                        return Err(scan.corrupt(format!("a physics step of {s} s")));
                    }
                    step_s = s;
                }
                Record::End {
                    ticks: end_ticks,
                    checksum: end_checksum,
                } => {
                    if end_ticks != ticks || end_checksum != before.finish() {
                        return Err(scan.corrupt(format!(
                            "the end says {end_ticks} steps and checksum {end_checksum:016x}, \
                             the body has {ticks} steps and checksum {:016x}",
                            before.finish()
                        )));
                    }
                    complete = true;
                    if scan.at_eof().map_err(io)? {
                        break;
                    }
                    return Err(scan.corrupt("bytes after the end record".into()));
                }
                Record::Event(_) | Record::Checkpoint { .. } => {}
            }
        }
        Ok(Self {
            path: path.to_owned(),
            header,
            ticks,
            duration_s: seconds,
            complete,
            body_offset,
            body_len: scan.offset - body_offset,
        })
    }

    /// The body's records in order (the end record excluded), read as they are needed.
    ///
    /// # Errors
    /// The file cannot be opened again.
    pub fn records(&self) -> Result<Records, ReplayError> {
        let io = |source| ReplayError::Io {
            path: self.path.clone(),
            source,
        };
        let mut file = File::open(&self.path).map_err(io)?;
        file.seek(SeekFrom::Start(self.body_offset)).map_err(io)?;
        Ok(Records {
            stream: RecordStream::new(BufReader::new(file), &self.path, self.body_offset),
            end: self.body_offset + self.body_len,
        })
    }
}

fn read_or<R: Read>(
    input: &mut R,
    buf: &mut [u8],
    err: impl FnOnce() -> ReplayError,
) -> Result<(), ReplayError> {
    input.read_exact(buf).map_err(|_| err())
}

enum StreamEnd {
    /// The bytes end inside a record (an incomplete file).
    Cut,
    /// A damaged record or an IO error.
    Error(ReplayError),
}

struct RecordStream {
    input: BufReader<File>,
    path: PathBuf,
    offset: u64,
    decoder: Decoder,
    bytes: Vec<u8>,
}

impl RecordStream {
    fn new(input: BufReader<File>, path: &Path, offset: u64) -> Self {
        Self {
            input,
            path: path.to_owned(),
            offset,
            decoder: Decoder::default(),
            bytes: Vec::with_capacity(64),
        }
    }

    fn corrupt(&self, reason: String) -> ReplayError {
        ReplayError::Corrupt {
            path: self.path.clone(),
            offset: self.offset,
            reason,
        }
    }

    fn at_eof(&mut self) -> std::io::Result<bool> {
        let mut byte = [0u8; 1];
        Ok(self.input.read(&mut byte)? == 0)
    }

    /// The next record; `Ok(None)` at the end of the file between records.
    fn next_record(&mut self, checksum: Option<&mut Fnv64>) -> Result<Option<Record>, StreamEnd> {
        let mut tag = [0u8; 1];
        match self.input.read(&mut tag) {
            Ok(0) => return Ok(None),
            Ok(_) => {}
            Err(e) if e.kind() == ErrorKind::Interrupted => return self.next_record(checksum),
            Err(source) => {
                return Err(StreamEnd::Error(ReplayError::Io {
                    path: self.path.clone(),
                    source,
                }));
            }
        }
        let len = match Decoder::len_of_tag(tag[0]) {
            Ok(len) => len,
            Err(e) => return Err(StreamEnd::Error(self.corrupt(describe(e)))),
        };
        self.bytes.clear();
        self.bytes.push(tag[0]);
        self.bytes.resize(len, 0);
        if let Err(e) = self.input.read_exact(&mut self.bytes[1..]) {
            return if e.kind() == ErrorKind::UnexpectedEof {
                Err(StreamEnd::Cut)
            } else {
                Err(StreamEnd::Error(ReplayError::Io {
                    path: self.path.clone(),
                    source: e,
                }))
            };
        }
        let record = self
            .decoder
            .decode(&self.bytes)
            .map_err(|e| StreamEnd::Error(self.corrupt(describe(e))))?;
        if let Some(checksum) = checksum
            && !matches!(record, Record::End { .. })
        {
            checksum.write(&self.bytes);
        }
        self.offset += len as u64;
        Ok(Some(record))
    }
}

fn describe(e: DecodeError) -> String {
    match e {
        DecodeError::Incomplete => "a record cut short".to_owned(),
        DecodeError::UnknownTag(tag) => format!("unknown record type {tag}"),
        DecodeError::BadField(what) => format!("a bad {what}"),
    }
}

/// The records of a [`ReplayFile`], streamed.
pub struct Records {
    stream: RecordStream,
    end: u64,
}

impl Iterator for Records {
    type Item = Result<Record, ReplayError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.stream.offset >= self.end {
            return None;
        }
        match self.stream.next_record(None) {
            Ok(Some(Record::End { .. }) | None) | Err(StreamEnd::Cut) => None,
            Ok(Some(record)) => Some(Ok(record)),
            Err(StreamEnd::Error(e)) => Some(Err(e)),
        }
    }
}

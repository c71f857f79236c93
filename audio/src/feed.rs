//! The wait-free ring from the sim thread to the audio thread: one [`SoundMessage`] per
//! physics tick, dropped (and counted) when the audio side does not keep up, so the sim tick
//! never waits on audio.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use rtrb::{Consumer, Producer, RingBuffer};

use crate::car_voice::CarVoice;
use crate::frame::SoundFrame;

/// Messages the ring holds: half a second of ticks at 1 kHz.
pub const FEED_CAPACITY: usize = 512;

/// What the sim thread tells the audio thread.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SoundMessage {
    /// The state after a tick.
    Frame(SoundFrame),
    /// The session now drives another car.
    Car(CarVoice),
}

/// The sim thread's end.
#[derive(Debug)]
pub struct SoundFeed {
    producer: Producer<SoundMessage>,
    dropped: Arc<AtomicU64>,
}

/// The audio thread's end.
#[derive(Debug)]
pub struct SoundInbox {
    consumer: Consumer<SoundMessage>,
    dropped: Arc<AtomicU64>,
}

/// A ring of [`FEED_CAPACITY`] messages, every page of it already mapped: the ring is filled
/// and emptied once here, on the thread that makes it, so the sim thread's pushes never take
/// a page fault (a fault may wait on the process's memory-map lock, whatever the tick's
/// priority; the sim's own rings are made the same way).
pub fn sound_feed() -> (SoundFeed, SoundInbox) {
    let (mut producer, mut consumer) = RingBuffer::new(FEED_CAPACITY);
    while producer
        .push(SoundMessage::Frame(SoundFrame::default()))
        .is_ok()
    {}
    while consumer.pop().is_ok() {}
    let dropped = Arc::new(AtomicU64::new(0));
    (
        SoundFeed {
            producer,
            dropped: Arc::clone(&dropped),
        },
        SoundInbox { consumer, dropped },
    )
}

impl SoundFeed {
    /// Sends `message` without waiting; a full ring drops it (counted).
    pub fn send(&mut self, message: SoundMessage) {
        if self.producer.push(message).is_err() {
            self.dropped.fetch_add(1, Ordering::Relaxed);
        }
    }
}

impl SoundInbox {
    /// Messages waiting.
    pub fn waiting(&self) -> usize {
        self.consumer.slots()
    }

    /// The oldest waiting message.
    pub fn pop(&mut self) -> Option<SoundMessage> {
        self.consumer.pop().ok()
    }

    /// Messages dropped because the ring was full.
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Minor page faults of the calling thread so far (Linux's `/proc/thread-self/stat`,
    /// field 10), `None` where it cannot be read.
    fn minor_faults() -> Option<u64> {
        let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
        // The fields after the command name, which is in parentheses: state is field 3.
        let after_name = &stat[stat.rfind(')')? + 1..];
        after_name.split_whitespace().nth(7)?.parse().ok()
    }

    #[test]
    fn the_sim_side_never_faults_a_page_of_the_ring_in() {
        let (mut feed, mut inbox) = sound_feed();
        let Some(before) = minor_faults() else {
            return; // no /proc here: nothing to measure
        };
        for _ in 0..FEED_CAPACITY {
            feed.send(SoundMessage::Frame(SoundFrame::default()));
        }
        let after = minor_faults().unwrap_or(u64::MAX);
        // The ring is about 90 KB, 23 pages: each would fault once on its first write.
        assert!(after - before <= 2, "{} page faults", after - before);
        assert_eq!(inbox.waiting(), FEED_CAPACITY);
        assert_eq!(inbox.dropped(), 0);
        while inbox.pop().is_some() {}
        feed.send(SoundMessage::Frame(SoundFrame::default()));
        assert_eq!(inbox.waiting(), 1);
    }
}

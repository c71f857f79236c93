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

/// A ring of [`FEED_CAPACITY`] messages.
pub fn sound_feed() -> (SoundFeed, SoundInbox) {
    let (producer, consumer) = RingBuffer::new(FEED_CAPACITY);
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

//! Touching a ring's memory before the sim thread writes into it.
//!
//! A ring's buffer is allocated at once but the kernel maps its pages only when they are
//! first written. The sim thread would take those page faults one by one as its writes walk
//! through a fresh ring: the replay ring (a minute of records, several MB) faulted about 16
//! times a second for its first minute (`perf stat -e page-faults` on the sim thread in the
//! window: 64 in 4 s; 1 with this). A fault enters the kernel and may wait for the process's
//! memory-map lock, which any thread mapping or unmapping memory holds (the renderer's do),
//! whatever the tick's priority. [`prefault_ring`] writes every slot once,
//! on the thread that makes the ring, so the sim thread only ever touches mapped pages: the
//! replay, snapshot, command, event, raw-input and telemetry-out rings are all made this way
//! (and the sound feed, in `gripline-audio`, the same way).

use rtrb::{Consumer, Producer};

/// Fills the empty ring `producer`/`consumer` with `filler()` values to its capacity and
/// empties it again, so every page of its buffer is mapped. Returns the slots written
/// (the capacity; fewer when the ring was not empty).
pub fn prefault_ring<T>(
    producer: &mut Producer<T>,
    consumer: &mut Consumer<T>,
    mut filler: impl FnMut() -> T,
) -> usize {
    let mut written = 0;
    while producer.push(filler()).is_ok() {
        written += 1;
    }
    while consumer.pop().is_ok() {}
    written
}

#[cfg(test)]
mod tests {
    use super::*;
    use rtrb::RingBuffer;

    #[test]
    fn fills_every_slot_and_leaves_the_ring_empty_and_usable() {
        let (mut producer, mut consumer) = RingBuffer::new(1000);
        let mut made = 0;
        let written = prefault_ring(&mut producer, &mut consumer, || {
            made += 1;
            [0u8; 100]
        });
        assert_eq!(written, 1000);
        // One more value was made for the push that found the ring full.
        assert_eq!(made, 1001);
        assert_eq!(producer.slots(), 1000);
        assert!(consumer.is_empty());
        // The ring still carries values in order after wrapping.
        for i in 0..1500u32 {
            producer
                .push([u8::try_from(i % 256).unwrap_or(0); 100])
                .unwrap();
            assert_eq!(
                consumer.pop().unwrap()[0],
                u8::try_from(i % 256).unwrap_or(0)
            );
        }
    }
}

//! Touching a ring's memory before the sim thread writes into it.
//!
//! A ring's buffer is allocated at once but the kernel maps its pages only when they are
//! first written. The sim thread would take those page faults one by one as its writes walk
//! through a fresh ring: the replay ring (a minute of records, several MB) faulted about 20
//! times a second for its first minute. A fault takes the process's memory-map lock, which a
//! renderer thread mapping or unmapping memory may hold for milliseconds, so a tick waited
//! behind it whatever its priority: on the 2-core test machine this was most of the ticks
//! late by more than 100 µs while the window ran. [`prefault_ring`] writes every slot once,
//! on the thread that makes the ring, so the sim thread only ever writes mapped pages.

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

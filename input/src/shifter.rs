//! Shifters: the H-pattern gate and sequential up/down edges.
//!
//! H-pattern: one button per gear (how Logitech's shifters and most USB adapters report
//! them, `docs/force-feedback-protocols.md` section 5). No gear button held is neutral. If two gear
//! buttons are held at once (a worn gate, or a keyboard), the one pressed most recently wins;
//! releasing it falls back to the other one still held.
//!
//! Sequential: a press produces `true` for exactly one tick, the tick that follows the press
//! (a press and release between two ticks still counts once); holding does not repeat.

/// Most gear buttons tracked at once (R plus seven forward gears, twice over).
pub const MAX_GEAR_BUTTONS: usize = 16;

/// The state of an H-pattern shifter made of gear buttons.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HPattern {
    /// Held gear buttons as (gear, press order), in no particular order.
    held: [(i8, u64); MAX_GEAR_BUTTONS],
    count: usize,
    presses: u64,
}

impl HPattern {
    /// A shifter in neutral.
    pub fn new() -> Self {
        Self::default()
    }

    /// A gear button was pressed or released. `gear` is -1 for reverse or 1..=7.
    /// Repeated presses of a held gear move it to the front; releases of a gear not held
    /// are ignored.
    pub fn set(&mut self, gear: i8, pressed: bool) {
        self.release(gear);
        if pressed && self.count < MAX_GEAR_BUTTONS {
            self.presses += 1;
            self.held[self.count] = (gear, self.presses);
            self.count += 1;
        }
    }

    fn release(&mut self, gear: i8) {
        if let Some(i) = self.held[..self.count].iter().position(|&(g, _)| g == gear) {
            self.held[i] = self.held[self.count - 1];
            self.count -= 1;
        }
    }

    /// Every gear released (device lost).
    pub fn clear(&mut self) {
        self.count = 0;
    }

    /// The engaged gear: 0 neutral, -1 reverse, 1..=7 forward.
    pub fn gear(&self) -> i8 {
        self.held[..self.count]
            .iter()
            .max_by_key(|&&(_, order)| order)
            .map_or(0, |&(g, _)| g)
    }
}

/// Turns presses of a button into one-tick edges.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EdgeLatch {
    pending: bool,
}

impl EdgeLatch {
    /// The button changed; only presses count.
    pub fn set(&mut self, pressed: bool) {
        if pressed {
            self.pending = true;
        }
    }

    /// `true` once after each press (or burst of presses) since the last call.
    pub fn take(&mut self) -> bool {
        std::mem::take(&mut self.pending)
    }

    /// Forgets a press not yet taken (device lost).
    pub fn clear(&mut self) {
        self.pending = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neutral_when_none_held() {
        let mut h = HPattern::new();
        assert_eq!(h.gear(), 0);
        h.set(1, true);
        assert_eq!(h.gear(), 1);
        h.set(1, false);
        assert_eq!(h.gear(), 0);
        h.set(-1, true);
        assert_eq!(h.gear(), -1);
    }

    #[test]
    fn most_recent_press_wins_and_falls_back() {
        let mut h = HPattern::new();
        h.set(2, true);
        h.set(3, true);
        assert_eq!(h.gear(), 3);
        h.set(2, true); // pressed again: newest
        assert_eq!(h.gear(), 2);
        h.set(2, false);
        assert_eq!(h.gear(), 3, "falls back to the gear still held");
        h.set(5, false); // not held: ignored
        assert_eq!(h.gear(), 3);
        h.clear();
        assert_eq!(h.gear(), 0);
    }

    #[test]
    fn full_gate_sequence() {
        let mut h = HPattern::new();
        let mut seen = Vec::new();
        for g in [1i8, 2, 3, 4, 5, 6, 7, -1] {
            h.set(g, true);
            seen.push(h.gear());
            h.set(g, false);
            seen.push(h.gear());
        }
        assert_eq!(seen, [1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, -1, 0]);
    }

    #[test]
    fn edges_last_one_tick() {
        let mut e = EdgeLatch::default();
        assert!(!e.take());
        e.set(true);
        assert!(e.take());
        assert!(!e.take(), "holding does not repeat");
        e.set(false);
        assert!(!e.take());
        e.set(true);
        e.set(false);
        assert!(e.take(), "press and release between ticks still counts");
    }
}
